"""Gather-1/7/8: pick slices along an axis by indices, with leading batch dims (7, 8).

Out-of-range indices give zeros, as OpenVINO's CPU plugin does. Negative indices count from the end
only in Gather-8; in Gather-1/7 (where the spec allows only [0, dim-1]) the CPU plugin treats them
as out of range, and so do we.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.movement.axes import as_int_array, normalize_axis, scalar_value
from irlint.ops.movement.dims import dynamic_shape, merge
from irlint.ops.movement.folding import fold
from irlint.ops.registry import register
from irlint.types import Shape, format_shape, static_shape


@dataclass(frozen=True)
class GatherAttrs:
    batch_dims: int = 0


def _batch_dims(batch_dims: int, indices_rank: int) -> int:
    bd = batch_dims + indices_rank if batch_dims < 0 else batch_dims
    if not 0 <= bd <= indices_rank:
        raise OpError(f"Gather: batch_dims {batch_dims} is out of range for indices of rank {indices_rank}")
    return bd


def _out_shape(data: Shape, indices: Shape, axis: int, bd: int) -> Shape:
    if axis < bd:
        raise OpError(f"Gather: axis {axis} must not be less than batch_dims {bd}")
    batch = []
    for k in range(bd):
        m = merge(data[k], indices[k])
        if m is None:
            raise OpError(
                f"Gather: batch dim {k} differs: data {format_shape(data)}, indices {format_shape(indices)}"
            )
        batch.append(m)
    return tuple(batch) + data[bd:axis] + indices[bd:] + data[axis + 1 :]


class _Gather(Op):
    types = ("Gather",)
    arity = (3, 3)
    negative_indices: ClassVar[bool] = True

    def _bd(self, attrs: object) -> int:
        return getattr(attrs, "batch_dims", 0)

    def infer(self, attrs: object, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, indices, axis_in = inputs
        if axis_in.shape is not None and len(axis_in.shape) > 1:
            raise OpError(f"Gather: axis must be a scalar, got shape {format_shape(axis_in.shape)}")
        axis = scalar_value(axis_in)
        bd = self._bd(attrs)
        if indices.shape is not None:
            bd = _batch_dims(bd, len(indices.shape))
        elif bd < 0:
            return [TensorInfo(data.etype, None)]
        if data.shape is None or indices.shape is None:
            return [TensorInfo(data.etype, None)]
        if axis is None:
            return [TensorInfo(data.etype, dynamic_shape(len(data.shape) + len(indices.shape) - 1 - bd))]
        ax = normalize_axis("Gather", axis, len(data.shape))
        shape = _out_shape(data.shape, indices.shape, ax, bd)
        return fold(self, attrs, inputs, [TensorInfo(data.etype, shape)])

    def compute(self, attrs: object, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x, idx = np.asarray(inputs[0]), np.asarray(inputs[1])
        if not np.issubdtype(idx.dtype, np.integer):
            raise OpError(f"Gather: indices must be integers, got {idx.dtype}")
        (axis,) = as_int_array("Gather", "axis", inputs[2])
        ax = normalize_axis("Gather", axis, x.ndim)
        bd = _batch_dims(self._bd(attrs), idx.ndim)
        shape = _out_shape(static_shape(x.shape), static_shape(idx.shape), ax, bd)
        n_batch = int(np.prod(x.shape[:bd], dtype=np.int64))
        # The trailing size spelled out: -1 cannot be resolved when the axis itself is empty.
        d = x.reshape(n_batch, int(np.prod(x.shape[bd:ax], dtype=np.int64)), x.shape[ax],
                      int(np.prod(x.shape[ax + 1:], dtype=np.int64)))
        i = idx.astype(np.int64).reshape(n_batch, -1)
        size = x.shape[ax]
        if self.negative_indices:
            i = np.where(i < 0, i + size, i)
        valid = (i >= 0) & (i < size)
        if size == 0:
            res = np.zeros((n_batch, d.shape[1], i.shape[1], d.shape[3]), x.dtype)
        else:
            safe = np.where(valid, i, 0)
            rows = np.arange(n_batch)[:, None, None]
            cols = np.arange(d.shape[1])[None, :, None]
            res = d[rows, cols, safe[:, None, :]]
            res = np.where(valid[:, None, :, None], res, np.zeros((), x.dtype))
        return [np.array(res.reshape([s.lo for s in shape]), order="C")]

    def prepare(self, attrs: object, consts: Sequence[np.ndarray | None]):  # type: ignore[no-untyped-def]
        """A constant axis and no batch dims: `np.take` (a fresh C-ordered copy, what `compute` gives)
        when every index is in range: a constant index array checked (and its negative indices
        resolved) by `compute` once per data shape, a scalar index checked per call. Anything else,
        or an index out of range (zeros), goes through `compute`."""
        if consts[2] is None or np.asarray(consts[2]).size != 1 or self._bd(attrs) != 0:
            return None
        axis = int(np.asarray(consts[2]).reshape(-1)[0])
        const_idx = consts[1]
        negative = self.negative_indices
        # data shape -> (axis, indices to take), or None where `compute` must run every time
        resolved: dict[tuple[int, ...], tuple[int, np.ndarray] | None] = {}

        def constant(args: Sequence[np.ndarray]) -> list[np.ndarray]:
            x = args[0]
            known = resolved.get(x.shape, False)
            if known is False:
                out = self.compute(attrs, args)  # checks the axis, the index type and the shapes
                ax = axis + x.ndim if axis < 0 else axis
                size = x.shape[ax]
                i = np.asarray(args[1]).astype(np.int64)
                if negative:
                    i = np.where(i < 0, i + size, i)
                resolved[x.shape] = (ax, i) if size and bool(np.all((i >= 0) & (i < size))) else None
                return out
            if known is None or args[1] is not const_idx:
                return self.compute(attrs, args)
            ax, i = known
            return [np.asarray(x.take(i, ax))]

        if const_idx is not None:
            return constant

        def scalar(args: Sequence[np.ndarray]) -> list[np.ndarray]:
            x, idx = args[0], args[1]
            ndim = x.ndim
            if idx.ndim or idx.dtype.kind not in "iu" or not -ndim <= axis < ndim:
                return self.compute(attrs, args)
            ax = axis + ndim if axis < 0 else axis
            size = x.shape[ax]
            v = int(idx)
            if v < 0 and negative:
                v += size
            if not 0 <= v < size:
                return self.compute(attrs, args)  # out of range: zeros
            return [np.asarray(x.take(v, ax))]

        return scalar


@register
class Gather8(_Gather):
    versions = ("opset8",)
    Attrs = GatherAttrs


@register
class Gather7(_Gather):
    versions = ("opset7",)
    Attrs = GatherAttrs
    negative_indices = False


@register
class Gather1(_Gather):
    versions = ("opset1",)
    Attrs = NoAttrs
    negative_indices = False
