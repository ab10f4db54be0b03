"""NonZero-3: the coordinates of the non-zero elements, shape ``[rank, count]``, row-major order.

NaN counts as non-zero. A scalar is read as a 1-element vector (``[1, 0 or 1]``), as the CPU plugin
does. The count is known only from values, so the shape function gives ``0..numel`` unless the input
is a known constant (then it folds).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.dims import dims_product
from irlint.ops.movement.folding import fold
from irlint.ops.registry import register
from irlint.types import DYNAMIC, ELEMENT_TYPES, Dim, ElementType


@dataclass(frozen=True)
class NonZeroAttrs:
    output_type: str = "i64"


def _etype(attrs: NonZeroAttrs) -> ElementType:
    if attrs.output_type not in ("i32", "i64"):
        raise OpError(f"NonZero: output_type must be i32 or i64, got {attrs.output_type!r}")
    return ELEMENT_TYPES[attrs.output_type]


@register
class NonZero(Op):
    types = ("NonZero",)
    versions = ("opset3",)
    Attrs = NonZeroAttrs

    def infer(self, attrs: NonZeroAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        et = _etype(attrs)
        shape = inputs[0].shape
        if shape is None:
            return [TensorInfo(et, (DYNAMIC, DYNAMIC))]
        if len(shape) == 0:
            out = TensorInfo(et, (Dim.of(1), Dim(0, 1)))
        else:
            total = dims_product(shape)
            out = TensorInfo(et, (Dim.of(len(shape)), Dim(0, total.hi)))
        return fold(self, attrs, inputs, [out])

    def compute(self, attrs: NonZeroAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        coords = np.nonzero(x.reshape(1) if x.ndim == 0 else x)
        return [np.array(coords, dtype=_etype(attrs).dtype).reshape(len(coords), -1)]
