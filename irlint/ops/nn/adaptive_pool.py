"""AdaptiveAvgPool-8 and AdaptiveMaxPool-8: pooling to a requested spatial size.

Output cell i of an axis of length n pooled to m covers [floor(i * n / m), ceil((i + 1) * n / m)).
Cells are a product of per-axis ranges, so both ops reduce one axis at a time; AdaptiveMaxPool
carries the flat spatial index of the maximum along and, reducing the last axis first with
first-occurrence argmax, returns the first maximum in row-major order, as the reference kernel.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.movement.axes import int_values, vector_length
from irlint.ops.registry import register
from irlint.types import DYNAMIC, I32, I64, Dim, ElementType, element_type, format_shape, static_shape


def _bounds(n: int, m: int) -> tuple[np.ndarray, np.ndarray]:
    i = np.arange(m)
    return (i * n) // m, -((-(i + 1) * n) // m)


def _out_shape(op: str, inputs: Sequence[TensorInfo]) -> tuple[Dim, ...] | None:
    data, size = inputs
    if size.etype is not None and not size.etype.is_integer:
        raise OpError(f"{op}: output_shape must be integers, got {size.etype}")
    n_sp = vector_length(op, "output_shape", size)
    if data.shape is None:
        return None
    if not 3 <= len(data.shape) <= 5:
        raise OpError(f"{op}: data {format_shape(data.shape)} must have rank 3 to 5 ([N, C, spatial...])")
    if n_sp is not None and n_sp != len(data.shape) - 2:
        raise OpError(f"{op}: output_shape has {n_sp} values for {len(data.shape) - 2} spatial axes")
    values = int_values(size)
    if values is not None and any(v < 0 for v in values):
        raise OpError(f"{op}: output_shape must be non-negative, got {values}")
    spatial = (DYNAMIC,) * (len(data.shape) - 2) if values is None else tuple(Dim.of(v) for v in values)
    return (*data.shape[:2], *spatial)


@register
class AdaptiveAvgPool(Op):
    types = ("AdaptiveAvgPool",)
    versions = ("opset8",)
    Attrs = NoAttrs
    arity = (2, 2)

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        return [TensorInfo(inputs[0].etype, _out_shape("AdaptiveAvgPool", inputs))]

    def compute(self, attrs: NoAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x, size = np.asarray(inputs[0]), np.asarray(inputs[1])
        (info,) = self.infer(attrs, [TensorInfo(None, static_shape(x.shape)),
                                     TensorInfo(None, static_shape(size.shape), size)])
        y = x.astype(np.float64)
        for axis in range(2, x.ndim):
            n, m = x.shape[axis], info.shape[axis].lo  # type: ignore[index]
            lo, hi = _bounds(n, m)
            w = np.zeros((m, n))
            cols = np.arange(n)
            inside = (cols[None, :] >= lo[:, None]) & (cols[None, :] < hi[:, None])
            w[inside] = 1.0
            w /= np.maximum(w.sum(axis=1, keepdims=True), 1)
            y = np.moveaxis(np.tensordot(y, w, axes=([axis], [1])), -1, axis)
        return [np.ascontiguousarray(y).astype(x.dtype)]


@dataclass(frozen=True)
class AdaptiveMaxPoolAttrs:
    index_element_type: str = "i64"


@register
class AdaptiveMaxPool(Op):
    types = ("AdaptiveMaxPool",)
    versions = ("opset8",)
    Attrs = AdaptiveMaxPoolAttrs
    arity = (2, 2)

    def _index_type(self, attrs: AdaptiveMaxPoolAttrs) -> ElementType:
        et = element_type(attrs.index_element_type)
        if et not in (I32, I64):
            raise OpError(f"AdaptiveMaxPool: index_element_type={attrs.index_element_type!r} must be i32 or i64")
        return et

    def infer(self, attrs: AdaptiveMaxPoolAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        shape = _out_shape("AdaptiveMaxPool", inputs)
        return [TensorInfo(inputs[0].etype, shape), TensorInfo(self._index_type(attrs), shape)]

    def compute(self, attrs: AdaptiveMaxPoolAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x, size = np.asarray(inputs[0]), np.asarray(inputs[1])
        info = self.infer(attrs, [TensorInfo(None, static_shape(x.shape)),
                                  TensorInfo(None, static_shape(size.shape), size)])[0]
        spatial = x.shape[2:]
        flat = np.arange(int(np.prod(spatial)), dtype=np.int64).reshape(spatial)
        values, index = x, np.broadcast_to(flat, x.shape)
        for axis in range(x.ndim - 1, 1, -1):  # last axis first: ties go to the first in row-major order
            n, m = x.shape[axis], info.shape[axis].lo  # type: ignore[index]
            if m and not n:
                raise OpError(f"AdaptiveMaxPool: cannot pool an empty axis to {m}")
            lo, hi = _bounds(n, m)
            parts_v, parts_i = [], []
            for a, b in zip(lo, hi):  # one vectorised reduction per output cell of this axis
                window = np.take(values, np.arange(a, b), axis=axis)
                arg = np.expand_dims(np.argmax(window, axis=axis), axis)
                parts_v.append(np.take_along_axis(window, arg, axis=axis))
                parts_i.append(np.take_along_axis(np.take(index, np.arange(a, b), axis=axis), arg, axis=axis))
            values = np.concatenate(parts_v, axis=axis) if parts_v else np.take(values, [], axis=axis)
            index = np.concatenate(parts_i, axis=axis) if parts_i else np.take(index, [], axis=axis)
        return [np.ascontiguousarray(values), np.ascontiguousarray(index).astype(self._index_type(attrs).dtype)]
