"""GatherND-5/8: gather slices of `data` by index tuples in the last dim of `indices`.

With K = indices.shape[-1] and b = batch_dims, each index tuple picks
``data[batch..., i_0, ..., i_{K-1}, ...]``. GatherND-8 keeps the b batch dims in the output;
GatherND-5 flattens them into one. Negative indices count from the end; out-of-range ones are errors.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.indexing.common import int_indices, normalized
from irlint.ops.movement.dims import dims_product, merge
from irlint.ops.registry import register
from irlint.types import Dim, Shape, format_shape, static_shape


@dataclass(frozen=True)
class GatherNDAttrs:
    batch_dims: int = 0


def _out_shape(data: Shape, indices: Shape, bd: int, merge_batch: bool) -> Shape | None:
    if len(indices) < 1 or len(data) < 1:
        raise OpError("GatherND: data and indices must have rank 1 or more")
    if bd < 0 or bd >= min(len(data), len(indices)):
        raise OpError(f"GatherND: batch_dims {bd} must be less than the ranks of data {format_shape(data)} "
                      f"and indices {format_shape(indices)}")
    k = indices[-1].value
    if k is None:
        return None
    if bd + k > len(data):
        raise OpError(f"GatherND: index tuples of length {k} with batch_dims {bd} exceed the rank of data "
                      f"{format_shape(data)}")
    batch = []
    for i in range(bd):
        m = merge(data[i], indices[i])
        if m is None:
            raise OpError(f"GatherND: batch dim {i} differs: data {format_shape(data)}, "
                          f"indices {format_shape(indices)}")
        batch.append(m)
    lead: tuple[Dim, ...] = (dims_product(batch),) if merge_batch and bd > 0 else tuple(batch)
    return lead + indices[bd:-1] + data[bd + k:]


class _GatherND(Op):
    types = ("GatherND",)
    Attrs = GatherNDAttrs
    arity = (2, 2)
    infer_reads_values = False
    merge_batch: ClassVar[bool]

    def infer(self, attrs: GatherNDAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, indices = inputs
        if indices.etype is not None and not indices.etype.is_dynamic and not indices.etype.is_integer:
            raise OpError(f"GatherND: indices must be i32 or i64, got {indices.etype}")
        if data.shape is None or indices.shape is None:
            return [TensorInfo(data.etype, None)]
        return [TensorInfo(data.etype, _out_shape(data.shape, indices.shape, attrs.batch_dims, self.merge_batch))]

    def compute(self, attrs: GatherNDAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        idx = int_indices("GatherND", inputs[1])
        bd = attrs.batch_dims
        shape = _out_shape(static_shape(x.shape), static_shape(idx.shape), bd, self.merge_batch)
        assert shape is not None
        k = idx.shape[-1]
        nb = int(np.prod(x.shape[:bd], dtype=np.int64))
        xb = x.reshape((nb, *x.shape[bd:]))
        m = int(np.prod(idx.shape[bd:-1], dtype=np.int64))  # index tuples per batch
        ib = idx.reshape((nb, m, k))
        if k == 0:  # an empty tuple picks the whole slice
            out = np.broadcast_to(xb[:, None], (nb, m, *x.shape[bd:]))
            return [np.ascontiguousarray(out).reshape([d.lo for d in shape])]
        cols = [normalized("GatherND", ib[..., j], x.shape[bd + j]) for j in range(k)]
        rows = np.arange(nb).reshape(nb, 1)
        out = xb[(rows, *cols)] if nb * ib.shape[1] else np.zeros((nb, ib.shape[1], *x.shape[bd + k:]), x.dtype)
        return [np.ascontiguousarray(out).reshape([d.lo for d in shape])]


@register
class GatherND8(_GatherND):
    versions = ("opset8",)
    merge_batch = False


@register
class GatherND5(_GatherND):
    versions = ("opset5",)
    merge_batch = True
