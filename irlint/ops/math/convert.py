"""Convert-1 and ConvertLike-1: change the element type.

Float to integer truncates toward zero and wraps to the target width; NaN, infinities and values
beyond int32 take OpenVINO's x86 value (`_float_to_int`). Anything to boolean is `x != 0` (NaN is
true, as in OpenVINO's reference). Narrow floats round as `irlint.ops.lowp.narrow` says; nf4 is
decoded through its table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import NoAttrs, NotComputable, Op, OpError, TensorInfo
from irlint.ops.fastpath import FEW_VALUES, within
from irlint.ops.lowp import narrow
from irlint.ops.registry import register
from irlint.types import NARROW_FLOATS, NF4_DTYPE, NF4_VALUES, ElementType, element_type


def convert_array(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    x = np.asarray(x)
    if dtype == NF4_DTYPE:
        raise NotComputable("Convert: irlint cannot compute values of type nf4 (OpenVINO converts from nf4, "
                            "never to it)")
    if x.dtype == NF4_DTYPE:  # nf4 codes -> their f32 values, then as from f32
        x = NF4_VALUES[x["nf4"] & 0xF]
    if x.dtype.kind == "V":  # an ml_dtypes type (bf16, f8, f4, i4 ...): every value is exact in float64
        x = x.astype(np.float64)
    if dtype == np.bool_:
        return x != 0
    to_int = np.issubdtype(dtype, np.integer) or (dtype.kind == "V" and "int" in dtype.name)
    if to_int and np.issubdtype(x.dtype, np.floating):
        return _float_to_int(x, dtype)
    with np.errstate(all="ignore"):
        if dtype in NARROW_FLOATS and dtype.kind == "V":
            return narrow(x if x.dtype.kind == "f" and x.dtype.itemsize >= 4 else x.astype(np.float32), dtype)
        return x.astype(dtype)


# Up to this many values `_float_to_int` tests them for a plain cast (on more, numpy's reductions for
# the test cost about what they save).
_FEW = FEW_VALUES
# Per integer target, the floats a plain cast converts as `_float_to_int` does: within int32 for the
# narrower types, within int64 for i64 and below u64's clip at 2**63 - 1024.
_CAST_RANGE = {
    **{np.dtype(t): (max(int(np.iinfo(t).min), -(2**31)), min(int(np.iinfo(t).max), 2**31 - 1))
       for t in (np.int8, np.uint8, np.int16, np.uint16, np.int32)},
    np.dtype(np.uint32): (0, 2**32 - 1),
    np.dtype(np.int64): (-(2**63), 2**63 - 1),
    np.dtype(np.uint64): (0, 2**63 - 1024),
}


def _float_to_int(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Truncate toward zero, as OpenVINO's reference and CPU plugin do on x86: NaN, infinities and
    values outside the int32 range become INT32_MIN (the processor's "integer indefinite") and are
    then wrapped to the target width with the rest (so NaN -> 0 for i8/u8/i16/u16); for i64 the bound
    is int64's and the value INT64_MIN. u32/u64 beyond their range are undefined and wrap through
    int64. A few values all finite and within the target's range (and int32's, for the narrower
    targets) are a plain cast: numpy's truncates toward zero, and the rest is for values outside."""
    if x.size <= _FEW and x.dtype.kind == "f" and within(x, *_CAST_RANGE.get(dtype, (0, -1))):
        return x.astype(dtype)
    with np.errstate(all="ignore"):
        t = np.trunc(x.astype(np.float64))
        finite = np.isfinite(t)
        if dtype == np.int64:
            bad = ~finite | (t < -(2.0**63)) | (t >= 2.0**63)
            return np.where(bad, np.iinfo(np.int64).min, np.where(bad, 0, t).astype(np.int64))
        if dtype in (np.dtype(np.uint32), np.dtype(np.uint64)):
            t = np.clip(np.where(finite, t, 0.0), -(2.0**63), 2.0**63 - 1024)
            return t.astype(np.int64).astype(dtype)
        bad = ~finite | (t < -(2.0**31)) | (t >= 2.0**31)
        t = np.where(bad, -(2.0**31), t)
        return t.astype(np.int64).astype(dtype)


@dataclass(frozen=True)
class ConvertAttrs:
    destination_type: str


def _target(name: str) -> ElementType:
    et = element_type(name)
    if et is None:
        raise OpError(f"Convert: unknown destination_type {name!r}")
    return et


@register
class Convert(Op):
    types = ("Convert",)
    infer_reads_values = False
    versions = ("opset1",)
    Attrs = ConvertAttrs

    def infer(self, attrs: ConvertAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        return [TensorInfo(_target(attrs.destination_type), inputs[0].shape)]

    def compute(self, attrs: ConvertAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        et = _target(attrs.destination_type)
        if et.dtype is None:
            raise NotComputable(f"Convert: irlint cannot compute values of type {et.name} (numpy and ml_dtypes "
                                "have no such type)")
        return [convert_array(inputs[0], et.dtype)]

    def prepare(self, attrs: ConvertAttrs, consts: Sequence[np.ndarray | None]):  # type: ignore[no-untyped-def]
        """The target type read once; the common conversions (a plain astype, or `!= 0` to boolean)
        straight to numpy, the rest (float to integer, narrow floats, nf4) through `convert_array`."""
        et = _target(attrs.destination_type)
        dtype = et.dtype
        if dtype is None or dtype.kind not in "biuf":
            return None  # not computable (compute says why) or an ml_dtypes target: `compute` every time
        # The source kinds whose conversion `convert_array` does as one numpy operation: to bool any
        # numpy number (x != 0); to an integer bools and integers (floats truncate specially); to a
        # float any numpy number.
        plain = "biuf" if dtype.kind in "bf" else "biu"
        to_bool = dtype.kind == "b"
        to_int = dtype.kind in "iu"

        def fast(args: Sequence[np.ndarray]) -> list[np.ndarray]:
            x = args[0]
            kind = x.dtype.kind
            if kind not in plain:
                if kind == "f" and to_int:  # (convert_array's own choice, without its type tests)
                    return [_float_to_int(x, dtype)]
                return [np.asarray(convert_array(x, dtype))]
            if to_bool:
                return [np.asarray(x != 0)]
            return [x.astype(dtype)]

        return fast


@register
class ConvertLike(Op):
    types = ("ConvertLike",)
    infer_reads_values = False
    versions = ("opset1",)
    arity = (2, 2)

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        return [TensorInfo(inputs[1].etype, inputs[0].shape)]

    def compute(self, attrs: NoAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        return [convert_array(inputs[0], np.asarray(inputs[1]).dtype)]
