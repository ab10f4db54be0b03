"""GatherElements-6: ``out[i][j][k] = data[i][indices[i][j][k]][k]`` for axis 1 (any rank).

Indices may be negative (counted from the end of `axis`); an index outside ``[-d, d-1]`` is an
error, as in OpenVINO's reference.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.indexing.common import int_indices, normalized
from irlint.ops.movement.axes import normalize_axis
from irlint.ops.movement.dims import merge
from irlint.ops.registry import register
from irlint.types import Shape, format_shape, static_shape


@dataclass(frozen=True)
class GatherElementsAttrs:
    axis: int = 0


def _out_shape(data: Shape, indices: Shape, axis: int) -> Shape:
    if len(data) != len(indices):
        raise OpError(f"GatherElements: data {format_shape(data)} and indices {format_shape(indices)} "
                      "must have the same rank")
    out = []
    for k, (d, i) in enumerate(zip(data, indices)):
        m = i if k == axis else merge(d, i)
        if m is None:
            raise OpError(f"GatherElements: dim {k} differs between data {format_shape(data)} and indices "
                          f"{format_shape(indices)} (only the axis {axis} may differ)")
        out.append(m)
    return tuple(out)


@register
class GatherElements(Op):
    types = ("GatherElements",)
    versions = ("opset6",)
    Attrs = GatherElementsAttrs
    arity = (2, 2)
    infer_reads_values = False

    def infer(self, attrs: GatherElementsAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, indices = inputs
        if indices.etype is not None and not indices.etype.is_dynamic and not indices.etype.is_integer:
            raise OpError(f"GatherElements: indices must be i32 or i64, got {indices.etype}")
        rank = data.rank if data.rank is not None else indices.rank
        if rank is not None:
            if rank < 1:
                raise OpError("GatherElements: data must have rank 1 or more")
            axis = normalize_axis("GatherElements", attrs.axis, rank)
        if data.shape is None or indices.shape is None:
            return [TensorInfo(data.etype, indices.shape)]
        return [TensorInfo(data.etype, _out_shape(data.shape, indices.shape, axis))]

    def compute(self, attrs: GatherElementsAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        idx = int_indices("GatherElements", inputs[1])
        if x.ndim < 1:
            raise OpError("GatherElements: data must have rank 1 or more")
        axis = normalize_axis("GatherElements", attrs.axis, x.ndim)
        _out_shape(static_shape(x.shape), static_shape(idx.shape), axis)
        idx = normalized("GatherElements", idx, x.shape[axis])
        if idx.size == 0:
            return [np.zeros(idx.shape, x.dtype)]
        # take_along_axis needs equal dims off the axis; the indices' may be smaller only if data's are 1.
        return [np.take_along_axis(x, idx, axis)]
