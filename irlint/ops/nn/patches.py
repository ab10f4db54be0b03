"""ExtractImagePatches-3 and ReorgYolo-2: rearranging pixels of [N, C, H, W] into channels.

ExtractImagePatches: output channel (i * sw + j) * C + c holds pixel (i, j) of each sh x sw patch
(taken every `strides`, its pixels `rates` apart) of channel c; `same_*` pads with zeros so that
the output is ceil(size / stride). ReorgYolo: the reference kernel's index arithmetic, which reads
the input as [N, C / s^2, H * s, W * s] and writes [N, C, H, W], flattened into
[N, C * s^2, H / s, W / s]; here one reshape and transpose.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.dims import dim_mul
from irlint.ops.nn.spatial import pad, resolve_pads, window_out, window_out_dim, windows
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim, format_shape, static_shape


@dataclass(frozen=True)
class PatchesAttrs:
    sizes: tuple[int, ...]
    strides: tuple[int, ...]
    rates: tuple[int, ...]
    auto_pad: str = "valid"


@register
class ExtractImagePatches(Op):
    types = ("ExtractImagePatches",)
    versions = ("opset3",)
    Attrs = PatchesAttrs
    infer_reads_values = False

    def _check(self, attrs: PatchesAttrs) -> str:
        op = "ExtractImagePatches"
        for name, v in (("sizes", attrs.sizes), ("strides", attrs.strides), ("rates", attrs.rates)):
            if len(v) != 2 or min(v) < 1:
                raise OpError(f"{op}: {name} must be two positive values, got {list(v)}")
        mode = attrs.auto_pad.lower()
        if mode not in ("valid", "same_upper", "same_lower"):
            raise OpError(f"{op}: auto_pad={attrs.auto_pad!r} is not valid, same_upper or same_lower")
        return mode

    def infer(self, attrs: PatchesAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        mode = self._check(attrs)
        x = inputs[0]
        if x.shape is None:
            return [TensorInfo(x.etype, (DYNAMIC,) * 4)]
        if len(x.shape) != 4:
            raise OpError(f"ExtractImagePatches: data {format_shape(x.shape)} must be 4-D [N, C, H, W]")
        spatial = []
        for a in range(2):
            d = x.shape[2 + a]
            try:
                spatial.append(window_out_dim(d, attrs.sizes[a], attrs.strides[a], attrs.rates[a], 0, 0, "floor",
                                              mode))
            except OpError:  # a patch larger than the image: no patches (valid padding)
                spatial.append(Dim.of(0))
        channels = dim_mul(x.shape[1], Dim.of(attrs.sizes[0] * attrs.sizes[1]))
        return [TensorInfo(x.etype, (x.shape[0], channels, *spatial))]

    def compute(self, attrs: PatchesAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        mode = self._check(attrs)
        x = np.asarray(inputs[0])
        (info,) = self.infer(attrs, [TensorInfo(None, static_shape(x.shape))])
        out = [d.lo for d in info.shape[2:]]  # type: ignore[index]
        n, c = x.shape[:2]
        sh, sw = attrs.sizes
        if 0 in out:
            return [np.zeros((n, c * sh * sw, *out), x.dtype)]
        pb, pe = resolve_pads(mode, x.shape[2:], attrs.sizes, attrs.strides, attrs.rates, (0, 0), (0, 0))
        xp = pad(x, pb, pe, 0)
        assert [window_out(xp.shape[2 + a], attrs.sizes[a], attrs.strides[a], attrs.rates[a], 0, 0, "floor",
                           "explicit") for a in range(2)] == out
        win = windows(xp, attrs.sizes, attrs.strides, attrs.rates, out)  # [N, C, oh, ow, sh, sw]
        return [np.ascontiguousarray(win.transpose(0, 4, 5, 1, 2, 3)).reshape(n, sh * sw * c, *out)]


@dataclass(frozen=True)
class ReorgAttrs:
    stride: tuple[int, ...]


@register
class ReorgYolo(Op):
    types = ("ReorgYolo",)
    versions = ("opset2",)
    Attrs = ReorgAttrs
    infer_reads_values = False

    def _stride(self, attrs: ReorgAttrs) -> int:
        s = attrs.stride
        if len(s) not in (1, 2) or (len(s) == 2 and s[0] != s[1]) or s[0] < 1:
            raise OpError(f"ReorgYolo: stride must be one positive value (or two equal ones), got {list(s)}")
        return s[0]

    def infer(self, attrs: ReorgAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        s = self._stride(attrs)
        x = inputs[0]
        if x.shape is None:
            return [TensorInfo(x.etype, (DYNAMIC,) * 4)]
        if len(x.shape) != 4:
            raise OpError(f"ReorgYolo: data {format_shape(x.shape)} must be 4-D [N, C, H, W]")
        n, c, h, w = x.shape
        if c.is_static and c.lo % (s * s):
            raise OpError(f"ReorgYolo: {c.lo} channels are not a multiple of stride^2 = {s * s}")
        for name, d in (("height", h), ("width", w)):
            if d.is_static and d.lo % s:
                raise OpError(f"ReorgYolo: {name} {d.lo} is not a multiple of stride {s}")
        return [TensorInfo(x.etype, (n, dim_mul(c, Dim.of(s * s)), Dim(h.lo // s, None if h.hi is None else h.hi // s),
                                     Dim(w.lo // s, None if w.hi is None else w.hi // s)))]

    def compute(self, attrs: ReorgAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        s = self._stride(attrs)
        x = np.asarray(inputs[0])
        self.infer(attrs, [TensorInfo(None, static_shape(x.shape))])
        n, c, h, w = x.shape
        oc = c // (s * s)
        a = x.reshape(n, oc, h, s, w, s)  # the input read as [N, C / s^2, H * s, W * s]
        b = np.ascontiguousarray(a.transpose(0, 3, 5, 1, 2, 4)).reshape(n, c, h, w)
        return [b.reshape(n, c * s * s, h // s, w // s)]
