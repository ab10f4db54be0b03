"""NV12toRGB/BGR-8 and I420toRGB/BGR-8: YUV 4:2:0 images (NHWC) to 3-channel RGB or BGR.

NV12 comes as one plane [N, H*3/2, W, 1] (Y rows, then interleaved U,V rows) or as Y [N, H, W, 1]
plus UV [N, H/2, W/2, 2]; I420 as one plane (Y, then the U plane, then the V plane) or as three
planes Y, U [N, H/2, W/2, 1], V. Each 2x2 block of pixels shares one U,V pair; the BT.601
conversion is c = Y-16, d = U-128, e = V-128, R = 1.164c + 1.596e, G = 1.164c - 0.391d - 0.813e,
B = 1.164c + 2.018d, clamped to [0, 255] (and rounded for u8), as in OpenVINO's reference.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.math.elementwise import same_etype
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim, Shape


def _half(d: Dim) -> Dim:
    return d if d == DYNAMIC else Dim(-(-d.lo // 2), None if d.hi is None else d.hi // 2)


def _planes_shape(op: str, inputs: Sequence[TensorInfo], nv12: bool) -> Shape | None:
    """[N, H, W, 3] from the input shapes, checking the plane layout."""
    y = inputs[0].shape
    for i, info in enumerate(inputs):
        if info.shape is not None and len(info.shape) != 4:
            raise OpError(f"{op}: input {i} must be 4-D NHWC, got rank {len(info.shape)}")
    if y is not None and y[3].is_static and y[3].lo != 1:
        raise OpError(f"{op}: the Y plane must have 1 channel, got {y[3].lo}")
    if y is None:
        return None
    n, h, w = y[0], y[1], y[2]
    if len(inputs) == 1:
        if h.is_static and h.lo % 3:
            raise OpError(f"{op}: a single-plane image needs a height divisible by 3 (H*3/2), got {h.lo}")
        h = Dim(h.lo * 2 // 3, None if h.hi is None else h.hi * 2 // 3) if h != DYNAMIC else h
    else:
        want_c = 2 if nv12 else 1
        for info in inputs[1:]:
            if info.shape is not None and info.shape[3].is_static and info.shape[3].lo != want_c:
                raise OpError(f"{op}: a chroma plane must have {want_c} channel(s), got {info.shape[3].lo}")
    for name, d in (("height", h), ("width", w)):
        if d.is_static and d.lo % 2:
            raise OpError(f"{op}: image {name} {d.lo} must be even")
    return (n, h, w, Dim.of(3))


def _to_rgb(y: np.ndarray, u: np.ndarray, v: np.ndarray, dtype: np.dtype, bgr: bool) -> np.ndarray:
    """y [N,H,W], u and v [N,H/2,W/2] -> [N,H,W,3] in `dtype`."""

    def up(a: np.ndarray) -> np.ndarray:  # one chroma sample per 2x2 block
        return a.repeat(2, axis=1).repeat(2, axis=2)

    c = y.astype(np.float32) - np.float32(16)
    d = up(u).astype(np.float32) - np.float32(128)
    e = up(v).astype(np.float32) - np.float32(128)
    r = np.float32(1.164) * c + np.float32(1.596) * e
    g = np.float32(1.164) * c - np.float32(0.391) * d - np.float32(0.813) * e
    b = np.float32(1.164) * c + np.float32(2.018) * d
    out = np.stack([b, g, r] if bgr else [r, g, b], axis=-1)
    out = np.clip(out, 0, 255)
    if np.issubdtype(dtype, np.integer):
        out = np.round(out)
    return out.astype(dtype)


class _ColorConvert(Op):
    nv12 = True
    bgr = False
    infer_reads_values = False

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = self.types[0]
        etype = same_etype(op, inputs)
        if etype is not None and etype.name not in ("u8", "f32", "f16", "bf16"):
            raise OpError(f"{op}: expects u8 or floating-point planes, got {etype}")
        return [TensorInfo(etype or inputs[0].etype, _planes_shape(op, inputs, self.nv12))]

    def compute(self, attrs: NoAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        arrays = [np.asarray(a) for a in inputs]
        shape = _planes_shape(self.types[0], [TensorInfo(None, tuple(Dim.of(d) for d in a.shape)) for a in arrays],
                              self.nv12)
        n, h, w = (d.lo for d in shape[:3])
        if len(arrays) == 1:
            flat = arrays[0].reshape(n, -1)
            y = flat[:, : h * w].reshape(n, h, w)
            chroma = flat[:, h * w:]
            if self.nv12:
                uv = chroma.reshape(n, h // 2, w // 2, 2)
                u, v = uv[..., 0], uv[..., 1]
            else:
                q = (h // 2) * (w // 2)
                u, v = chroma[:, :q].reshape(n, h // 2, w // 2), chroma[:, q:].reshape(n, h // 2, w // 2)
        else:
            y = arrays[0][..., 0]
            if self.nv12:
                u, v = arrays[1][..., 0], arrays[1][..., 1]
            else:
                u, v = arrays[1][..., 0], arrays[2][..., 0]
            if u.shape != (n, h // 2, w // 2) or v.shape != u.shape:
                raise OpError(f"{self.types[0]}: chroma planes must be [N, H/2, W/2], got {list(u.shape)}")
        return [_to_rgb(y, u, v, arrays[0].dtype, self.bgr)]


@register
class NV12toRGB(_ColorConvert):
    types = ("NV12toRGB",)
    versions = ("opset8",)
    arity = (1, 2)


@register
class NV12toBGR(_ColorConvert):
    types = ("NV12toBGR",)
    versions = ("opset8",)
    arity = (1, 2)
    bgr = True


@register
class I420toRGB(_ColorConvert):
    types = ("I420toRGB",)
    versions = ("opset8",)
    arity = (1, 3)
    nv12 = False


@register
class I420toBGR(_ColorConvert):
    types = ("I420toBGR",)
    versions = ("opset8",)
    arity = (1, 3)
    nv12 = False
    bgr = True
