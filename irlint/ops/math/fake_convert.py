"""FakeConvert-13: round values to an f8 grid (f8e4m3 or f8e5m2) and back, with scale and shift.

y = (to_f8(x * scale - shift) + shift) / scale, numpy-broadcast. As in OpenVINO's reference the f8
rounding is emulated on the f16 bit pattern (round to nearest even on the dropped mantissa bits):
f8e5m2 keeps 2 mantissa bits and saturates at 57344 (infinities included, as the CPU plugin; the
reference keeps them); f8e4m3 keeps 3, rounds
subnormals by their exponent (magnitudes below 2^-9 to 0 or 2^-9, as the CPU plugin; the reference
flushes them) and saturates at 448 (NaN and infinities included). The intermediate values are f16.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.math.elementwise import broadcast_result, same_etype
from irlint.ops.registry import register

Array = np.ndarray


@dataclass(frozen=True)
class FakeConvertAttrs:
    destination_type: str = "f8e4m3"


def f8e5m2_on_f16(h: Array) -> Array:
    bits = h.astype(np.float16).view(np.uint16).astype(np.int32)
    can_round = (bits & 0x7F00) < 0x7B00
    naninf = (bits & 0x7C00) == 0x7C00
    up = ((bits & 0xFF) > 0x80) | ((bits & 0x180) == 0x180)
    bits = bits + ((up & ~naninf & can_round).astype(np.int32) << 8)
    out = ((bits & 0xFF00) & 0xFFFF).astype(np.uint16).view(np.float16)
    # The CPU plugin saturates at the largest f8e5m2 value (infinities included); the reference
    # keeps infinities.
    return np.where(np.isnan(out), out, np.clip(out, np.float16(-57344), np.float16(57344)))


def f8e4m3_on_f16(h: Array) -> Array:
    h = h.astype(np.float16)
    bits = h.view(np.uint16).astype(np.int32)
    bits = np.where(np.abs(h.astype(np.float32)) < np.float32(0.001953125), 0, bits)
    exp = ((bits & 0x7C00) >> 10) - 15
    sign = bits & 0x8000
    mant = bits & 0x03FF
    can_round = (bits & 0x7FFF) < 0b101111110000000
    big = exp > 8
    naninf = ((bits & 0x7C00) == 0x7C00) | big
    exp = np.where(big, 8, exp)
    mant = np.where(big, 0x300, mant)
    small = ~big & (exp < -9)
    exp = np.where(small, -15, exp)
    mant = np.where(small, 0, mant)
    mant = np.where((exp == 8) & (mant >= 0x300), 0x300, mant)
    up = ((mant & 0x7F) > 0x40) | ((mant & 0xC0) == 0xC0)
    mant = mant + ((up & ~naninf & can_round).astype(np.int32) << 7)
    dshift = np.where(exp < -6, -6 - exp, 0)
    mant = ((mant >> dshift) & 0xFF80) << dshift
    mant = mant + ((exp + 15) << 10)
    out = ((mant | sign) & 0xFFFF).astype(np.uint16).view(np.float16)
    # Below the smallest subnormal 2^-9 the CPU plugin rounds to nearest (ties to 0) where the
    # reference flushes to 0; irlint follows the plugin (docs/semantics.md).
    mag = np.abs(h.astype(np.float32))
    tiny = mag < np.float32(0.001953125)
    rounded = np.where(mag > np.float32(0.0009765625), np.float16(0.001953125), np.float16(0)) * np.sign(h)
    return np.where(tiny, rounded.astype(np.float16), out)


@register
class FakeConvert(Op):
    types = ("FakeConvert",)
    versions = ("opset13",)
    Attrs = FakeConvertAttrs
    arity = (2, 3)
    infer_reads_values = False

    def infer(self, attrs: FakeConvertAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        if attrs.destination_type not in ("f8e4m3", "f8e5m2"):
            raise OpError(f"FakeConvert: destination_type must be f8e4m3 or f8e5m2, got {attrs.destination_type!r}")
        etype = same_etype("FakeConvert", inputs)
        if etype is not None and not etype.is_float:
            raise OpError(f"FakeConvert: expects floating-point inputs, got {etype}")
        shape = broadcast_result("FakeConvert", "numpy", [i.shape for i in inputs])
        data = inputs[0].shape
        if shape is not None and data is not None and (len(shape) != len(data) or any(
                a.is_static and b.is_static and a != b for a, b in zip(shape, data, strict=False))):
            raise OpError("FakeConvert: scale and shift must broadcast to the data's shape")
        return [TensorInfo(etype or inputs[0].etype, inputs[0].shape)]

    def compute(self, attrs: FakeConvertAttrs, inputs: Sequence[Array]) -> list[Array]:
        self.infer(attrs, [TensorInfo(None, None)] * len(inputs))
        x = np.asarray(inputs[0])
        t = x.dtype.type
        scale = np.asarray(inputs[1]).astype(x.dtype)
        shift = np.asarray(inputs[2]).astype(x.dtype) if len(inputs) > 2 else np.zeros_like(scale)
        with np.errstate(all="ignore"):
            y = (x * scale - shift).astype(x.dtype)
            f8 = f8e4m3_on_f16(y) if attrs.destination_type == "f8e4m3" else f8e5m2_on_f16(y)
            # The CPU plugin multiplies by the reciprocal scale (the reference divides): 448/3 rounds
            # differently; irlint follows the plugin.
            out = ((f8.astype(x.dtype) + shift) * (t(1) / scale).astype(x.dtype)).astype(t)
        return [np.broadcast_to(out, x.shape).copy()]
