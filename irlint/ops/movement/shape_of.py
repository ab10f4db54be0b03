"""ShapeOf-1/3: the input's shape as a 1-D integer tensor (i64, or ShapeOf-3's output_type).

Its value is known as soon as the input shape is static, whatever the data, which is what lets
shape subgraphs fold.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.registry import register
from irlint.types import DYNAMIC, ELEMENT_TYPES, Dim, ElementType, shape_values


@dataclass(frozen=True)
class ShapeOfAttrs:
    output_type: str = "i64"  # ShapeOf-3 only; ShapeOf-1 always gives i64


def _etype(attrs: ShapeOfAttrs) -> ElementType:
    if attrs.output_type not in ("i32", "i64"):
        raise OpError(f"ShapeOf: output_type must be i32 or i64, got {attrs.output_type!r}")
    return ELEMENT_TYPES[attrs.output_type]


@register
class ShapeOf(Op):
    types = ("ShapeOf",)
    infer_reads_values = False
    versions = ("opset1", "opset3")
    Attrs = ShapeOfAttrs

    def infer(self, attrs: ShapeOfAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        et = _etype(attrs)
        shape = inputs[0].shape
        if shape is None:
            return [TensorInfo(et, (DYNAMIC,))]
        dims = shape_values(shape)
        value = None if dims is None else np.array(dims, dtype=et.dtype)
        return [TensorInfo(et, (Dim.of(len(shape)),), value)]

    def compute(self, attrs: ShapeOfAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        return [np.array(np.shape(inputs[0]), dtype=_etype(attrs).dtype)]

    def prepare(self, attrs: ShapeOfAttrs, consts: Sequence[np.ndarray | None]):  # type: ignore[no-untyped-def]
        """The output type read once (an unknown one: `compute` says why, every call)."""
        try:
            dtype = _etype(attrs).dtype
        except OpError:
            return None
        if dtype is None:
            return None

        def fast(args: Sequence[np.ndarray]) -> list[np.ndarray]:
            return [np.array(args[0].shape, dtype)]

        return fast
