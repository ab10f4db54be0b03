"""ConvertPromoteTypes-14: convert two tensors to their common element type (PyTorch-style promotion).

The rules, in OpenVINO's order: equal types stay; boolean yields to the other type; float with
integer becomes the float (safe mode needs float bits >= 2 x integer bits); with
`pytorch_scalar_promotion` a scalar yields to a non-scalar of the same kind (safe mode checks the
range fits); signed with unsigned becomes a signed integer of max(2 x unsigned bits, signed bits)
(u64 goes to `u64_integer_promotion_target`, unsafe mode only); otherwise the wider type wins,
and in unsafe mode f16/bf16 become f32 and the two f8 types f16. Anything else is an error.
Shapes pass through unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.registry import register
from irlint.types import ELEMENT_TYPES, ElementType, element_type, from_dtype, static_shape

_INT_OF_BITS = {8: "i8", 16: "i16", 32: "i32", 64: "i64", 4: "i4"}


@dataclass(frozen=True)
class ConvertPromoteTypesAttrs:
    promote_unsafe: bool = False
    pytorch_scalar_promotion: bool = False
    u64_integer_promotion_target: str = "f32"


def _signed(et: ElementType) -> bool:
    return et.is_float or et.name.startswith("i")


def common_type(attrs: ConvertPromoteTypesAttrs, a: TensorInfo, b: TensorInfo) -> ElementType | None:
    """The promoted type of two inputs (None while one type is unknown)."""
    ta, tb = a.etype, b.etype
    if ta is None or tb is None or ta.is_dynamic or tb.is_dynamic:
        return None
    if ta == tb:
        return ta
    if ta.is_bool:
        return tb
    if tb.is_bool:
        return ta
    unsafe = attrs.promote_unsafe
    if ta.is_float != tb.is_float:
        real, integer = (ta, tb) if ta.is_float else (tb, ta)
        if not unsafe and real.bits < 2 * integer.bits:
            raise OpError(f"ConvertPromoteTypes: {integer} cannot be safely promoted to {real}")
        return real
    sa, sb = a.shape is not None and len(a.shape) == 0, b.shape is not None and len(b.shape) == 0
    if attrs.pytorch_scalar_promotion and sa != sb:
        target, scalar = (tb, ta) if sa else (ta, tb)
        if not unsafe and not ((_signed(target) == _signed(scalar) and target.bits >= scalar.bits)
                               or (_signed(target) and not _signed(scalar) and target.bits * 2 >= scalar.bits)):
            raise OpError(f"ConvertPromoteTypes: scalar {scalar} cannot be safely aligned to {target}")
        return target
    if _signed(ta) != _signed(tb):
        ubits, ibits = (tb.bits, ta.bits) if _signed(ta) else (ta.bits, tb.bits)
        if ubits <= 32 and (unsafe or ubits * 2 <= ibits):
            return ELEMENT_TYPES[_INT_OF_BITS[max(ubits * 2, ibits)]]
        if not unsafe:
            raise OpError(f"ConvertPromoteTypes: {ta} and {tb} have no safe signed common type")
        target = element_type(attrs.u64_integer_promotion_target)
        if target is None:
            raise OpError(f"ConvertPromoteTypes: u64_integer_promotion_target "
                          f"{attrs.u64_integer_promotion_target!r} is not an element type")
        return target
    if ta.bits != tb.bits:
        return ta if ta.bits >= tb.bits else tb
    if unsafe and ta.name.startswith("f8") and tb.name.startswith("f8"):
        return ELEMENT_TYPES["f16"]
    if unsafe and {ta.name, tb.name} == {"f16", "bf16"}:
        return ELEMENT_TYPES["f32"]
    raise OpError(f"ConvertPromoteTypes: no common type for {ta} and {tb} with these attributes")


@register
class ConvertPromoteTypes(Op):
    types = ("ConvertPromoteTypes",)
    versions = ("opset14",)
    Attrs = ConvertPromoteTypesAttrs
    arity = (2, 2)
    infer_reads_values = False

    def infer(self, attrs: ConvertPromoteTypesAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        et = common_type(attrs, inputs[0], inputs[1])
        return [TensorInfo(et, inputs[0].shape), TensorInfo(et, inputs[1].shape)]

    def compute(self, attrs: ConvertPromoteTypesAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        a, b = (np.asarray(x) for x in inputs)
        infos = [TensorInfo(from_dtype(x.dtype), static_shape(x.shape)) for x in (a, b)]
        et = common_type(attrs, *infos)
        if et is None or et.dtype is None:
            raise OpError(f"ConvertPromoteTypes: the common type {et} has no numpy equivalent")
        return [a.astype(et.dtype), b.astype(et.dtype)]

