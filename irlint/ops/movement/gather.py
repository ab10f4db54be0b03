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
        d = x.reshape(n_batch, int(np.prod(x.shape[bd:ax], dtype=np.int64)), x.shape[ax], -1)
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
