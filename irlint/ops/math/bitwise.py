"""BitwiseAnd/Or/Xor/Not-13 (integers and booleans) and BitwiseLeftShift/RightShift-15 (integers).

Shifts by a negative amount or by the bit width or more are undefined in C++ and in the spec;
irlint gives numpy's answer there (0, or -1 for a right shift of a negative number), see
docs/semantics.md. Right shifts of signed numbers are arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.math.elementwise import Binary
from irlint.ops.registry import register

Array = np.ndarray


def _integer_or_bool(op: str, info: TensorInfo, shifts: bool) -> None:
    et = info.etype
    if et is None or et.is_dynamic:
        return
    if not (et.is_integer or (et.is_bool and not shifts)):
        kinds = "integer" if shifts else "integer or boolean"
        raise OpError(f"{op}: inputs must be {kinds} tensors, got {et}")


class _Bitwise(Binary):
    shifts = False

    def infer(self, attrs, inputs):  # type: ignore[no-untyped-def]
        for info in inputs:
            _integer_or_bool(self.types[0], info, self.shifts)
        return super().infer(attrs, inputs)

    def compute(self, attrs, inputs):  # type: ignore[no-untyped-def]
        for a in inputs:
            dt = np.asarray(a).dtype
            if not (np.issubdtype(dt, np.integer) or (dt == np.bool_ and not self.shifts)):
                raise OpError(f"{self.types[0]}: inputs must be {'integer' if self.shifts else 'integer or boolean'} "
                              f"tensors, got {dt}")
        return super().compute(attrs, inputs)


def _shift(fn):  # type: ignore[no-untyped-def]
    def run(a: Array, b: Array) -> Array:
        bits = a.dtype.itemsize * 8
        with np.errstate(all="ignore"):
            out = fn(a, np.clip(b, 0, bits).astype(a.dtype))
            if fn is np.left_shift:
                return np.where((b < 0) | (b >= bits), 0, out).astype(a.dtype)
            if np.issubdtype(a.dtype, np.signedinteger):
                return np.where((b < 0) | (b >= bits), np.where(a < 0, -1, 0), out).astype(a.dtype)
            return np.where((b < 0) | (b >= bits), 0, out).astype(a.dtype)

    return run


for _name, _fn, _shifts, _version in (
    ("BitwiseAnd", np.bitwise_and, False, "opset13"),
    ("BitwiseOr", np.bitwise_or, False, "opset13"),
    ("BitwiseXor", np.bitwise_xor, False, "opset13"),
    ("BitwiseLeftShift", _shift(np.left_shift), True, "opset15"),
    ("BitwiseRightShift", _shift(np.right_shift), True, "opset15"),
):
    register(type(_name, (_Bitwise,), {"types": (_name,), "versions": (_version,), "fn": staticmethod(_fn),
                                       "shifts": _shifts}))


@register
class BitwiseNot(Op):
    types = ("BitwiseNot",)
    versions = ("opset13",)
    Attrs = NoAttrs
    infer_reads_values = False

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        _integer_or_bool("BitwiseNot", inputs[0], False)
        return [TensorInfo(inputs[0].etype, inputs[0].shape)]

    def compute(self, attrs: NoAttrs, inputs: Sequence[Array]) -> list[Array]:
        x = np.asarray(inputs[0])
        if not (np.issubdtype(x.dtype, np.integer) or x.dtype == np.bool_):
            raise OpError(f"BitwiseNot: input must be an integer or boolean tensor, got {x.dtype}")
        return [np.asarray(np.invert(x))]
