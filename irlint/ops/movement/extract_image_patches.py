"""ExtractImagePatches-3: every sizes[0] x sizes[1] patch of an NCHW image, laid out as channels.

Patches start every `strides` pixels and sample every `rates` pixels (dilation); `auto_pad`
"valid" keeps whole patches only, "same_upper"/"same_lower" zero-pad to ceil(size / stride)
patches per axis with the odd pixel at the end/start. Output [N, kh*kw*C, out_h, out_w], the
channel index being (row in patch, column in patch, input channel), as TensorFlow lays it out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.dims import dim_mul
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim


@dataclass(frozen=True)
class ExtractImagePatchesAttrs:
    sizes: tuple[int, ...]
    strides: tuple[int, ...]
    rates: tuple[int, ...]
    auto_pad: str


def _check(attrs: ExtractImagePatchesAttrs) -> None:
    for name in ("sizes", "strides", "rates"):
        v = getattr(attrs, name)
        if len(v) != 2 or min(v) < 1:
            raise OpError(f"ExtractImagePatches: {name} must be two positive values, got {list(v)}")
    if attrs.auto_pad not in ("valid", "same_upper", "same_lower"):
        raise OpError(f"ExtractImagePatches: auto_pad must be valid, same_upper or same_lower, got {attrs.auto_pad!r}")


def _out_size(n: int, k: int, s: int, r: int, pad: str) -> tuple[int, int]:
    """(patches along the axis, padding before)."""
    span = (k - 1) * r + 1
    if pad == "valid":
        return (max(n - span, -1) // s + 1 if n >= span else 0), 0
    out = -(-n // s)
    total = max((out - 1) * s + span - n, 0)
    return out, (total // 2 if pad == "same_upper" else total - total // 2)


def _out_dim(d: Dim, k: int, s: int, r: int, pad: str) -> Dim:
    if d == DYNAMIC:
        return d
    lo = _out_size(d.lo, k, s, r, pad)[0]
    return Dim(lo, None if d.hi is None else _out_size(d.hi, k, s, r, pad)[0])


@register
class ExtractImagePatches(Op):
    types = ("ExtractImagePatches",)
    versions = ("opset3",)
    Attrs = ExtractImagePatchesAttrs
    infer_reads_values = False

    def infer(self, attrs: ExtractImagePatchesAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        _check(attrs)
        data = inputs[0]
        if data.shape is None:
            return [TensorInfo(data.etype, (DYNAMIC,) * 4)]
        if len(data.shape) != 4:
            raise OpError(f"ExtractImagePatches: input must be 4-D [N, C, H, W], got rank {len(data.shape)}")
        n, c, h, w = data.shape
        (kh, kw), (sh, sw), (rh, rw) = attrs.sizes, attrs.strides, attrs.rates
        return [TensorInfo(data.etype, (n, dim_mul(c, Dim.of(kh * kw)), _out_dim(h, kh, sh, rh, attrs.auto_pad),
                                        _out_dim(w, kw, sw, rw, attrs.auto_pad)))]

    def compute(self, attrs: ExtractImagePatchesAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        _check(attrs)
        x = np.asarray(inputs[0])
        if x.ndim != 4:
            raise OpError(f"ExtractImagePatches: input must be 4-D [N, C, H, W], got rank {x.ndim}")
        n, c, h, w = x.shape
        (kh, kw), (sh, sw), (rh, rw) = attrs.sizes, attrs.strides, attrs.rates
        oh, ph = _out_size(h, kh, sh, rh, attrs.auto_pad)
        ow, pw = _out_size(w, kw, sw, rw, attrs.auto_pad)
        need_h, need_w = (oh - 1) * sh + (kh - 1) * rh + 1, (ow - 1) * sw + (kw - 1) * rw + 1
        padded = np.zeros((n, c, max(ph + h, need_h), max(pw + w, need_w)), x.dtype)
        padded[:, :, ph:ph + h, pw:pw + w] = x
        out = np.zeros((n, kh, kw, c, oh, ow), x.dtype)
        for i in range(kh):
            for j in range(kw):
                rows = padded[:, :, i * rh: i * rh + (oh - 1) * sh + 1: sh]
                out[:, i, j] = rows[:, :, :oh, j * rw: j * rw + (ow - 1) * sw + 1: sw][..., :ow]
        return [out.reshape(n, kh * kw * c, oh, ow)]
