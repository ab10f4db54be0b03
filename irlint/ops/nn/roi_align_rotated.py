"""ROIAlignRotated-15: ROIAlign over boxes given as (center x, center y, width, height, angle).

As the core reference kernel: the center is scaled and shifted by -0.5, width and height are only
scaled (never widened to 1), the angle (radians, counterclockwise; negated with `clockwise_mode`)
rotates the box's regular sample grid about its center, and each sample is read bilinearly from the
map — a sample more than one pixel outside reads 0. Bins are averaged; `sampling_ratio = 0` takes
ceil(bin size) samples per axis. The rotated grid is not separable, so samples are gathered.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.nn.roi_align import pooled_boxes
from irlint.ops.registry import register
from irlint.types import static_shape


@dataclass(frozen=True)
class ROIAlignRotatedAttrs:
    pooled_h: int
    pooled_w: int
    sampling_ratio: int
    spatial_scale: float
    clockwise_mode: bool = False


def _bilinear(plane: np.ndarray, sx: np.ndarray, sy: np.ndarray, t: type) -> np.ndarray:
    """[C, *sx.shape] samples of `plane` [C, H, W] at (sx, sy), as the reference reads them."""
    _, h, w = plane.shape
    outside = (sx < t(-1)) | (sx > t(w)) | (sy < t(-1)) | (sy > t(h))
    sx, sy = np.maximum(sx, t(0)), np.maximum(sy, t(0))
    xl, yl = sx.astype(np.int64), sy.astype(np.int64)
    x_end, y_end = xl >= w - 1, yl >= h - 1
    xl, yl = np.where(x_end, w - 1, xl), np.where(y_end, h - 1, yl)
    xh, yh = np.where(x_end, xl, xl + 1), np.where(y_end, yl, yl + 1)
    sx, sy = np.where(x_end, xl.astype(t), sx), np.where(y_end, yl.astype(t), sy)
    lx, ly = sx - xl.astype(t), sy - yl.astype(t)
    hx, hy = t(1) - lx, t(1) - ly
    value = (hy * hx * plane[:, yl, xl] + hy * lx * plane[:, yl, xh]
             + ly * hx * plane[:, yh, xl] + ly * lx * plane[:, yh, xh])
    return np.where(outside, t(0), value)


@register
class ROIAlignRotated(Op):
    types = ("ROIAlignRotated",)
    versions = ("opset15",)
    Attrs = ROIAlignRotatedAttrs
    arity = (3, 3)
    infer_reads_values = False

    def infer(self, attrs: ROIAlignRotatedAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        if attrs.pooled_h < 0 or attrs.pooled_w < 0 or attrs.sampling_ratio < 0 or attrs.spatial_scale < 0:
            raise OpError("ROIAlignRotated: pooled_h, pooled_w, sampling_ratio and spatial_scale must not be "
                          "negative")
        data, rois, batch = inputs
        if data.etype is not None and not data.etype.is_float and not data.etype.is_dynamic:
            raise OpError(f"ROIAlignRotated: data must be floating-point, got {data.etype}")
        etype = data.etype if data.etype is not None and not data.etype.is_dynamic else rois.etype
        return [TensorInfo(etype, pooled_boxes("ROIAlignRotated", data, rois, batch, 5,
                                               (attrs.pooled_h, attrs.pooled_w)))]

    def compute(self, attrs: ROIAlignRotatedAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        data, rois, batch = (np.asarray(a) for a in inputs)
        self.infer(attrs, [TensorInfo(None, static_shape(a.shape)) for a in (data, rois, batch)])
        t = data.dtype.type if data.dtype in (np.float32, np.float64) else np.float32
        n, c, _, _ = data.shape
        ph, pw = attrs.pooled_h, attrs.pooled_w
        scale = t(np.float32(attrs.spatial_scale))
        out = np.zeros((len(rois), c, ph, pw), t)
        for r in range(len(rois) if ph and pw else 0):  # pooled_h or pooled_w 0 (OpenVINO's fill): no bins
            b = int(batch[r])
            if not 0 <= b < n:
                raise OpError(f"ROIAlignRotated: batch index {b} of box {r} is outside [0, {n - 1}]")
            cx, cy, width, height, angle = rois[r].astype(t)
            cx, cy, width, height = cx * scale - t(0.5), cy * scale - t(0.5), width * scale, height * scale
            if attrs.clockwise_mode:
                angle = -angle
            cos_a, sin_a = np.float32(np.cos(angle)), np.float32(np.sin(angle))
            bin_w, bin_h = width / t(pw), height / t(ph)
            sx = attrs.sampling_ratio or int(np.ceil(bin_w))
            sy = attrs.sampling_ratio or int(np.ceil(bin_h))
            if sx <= 0 or sy <= 0:
                continue  # no samples in a bin: the reference leaves 0
            step_x, step_y = bin_w / t(sx), bin_h / t(sy)
            x1, y1 = -width / t(2), -height / t(2)
            # Local sample coordinates: [ph, sy, 1, 1] rows and [1, 1, pw, sx] columns.
            py = (y1 + np.arange(ph, dtype=t)[:, None] * bin_h + step_y * (np.arange(sy, dtype=t)[None, :] + t(0.5)))
            px = (x1 + np.arange(pw, dtype=t)[:, None] * bin_w + step_x * (np.arange(sx, dtype=t)[None, :] + t(0.5)))
            py, px = py[:, :, None, None], px[None, None, :, :]
            # The reference rotates in float: y = py cos - px sin + cy, x = py sin + px cos + cx.
            ys = (py.astype(np.float32) * cos_a - px.astype(np.float32) * sin_a + np.float32(cy)).astype(t)
            xs = (py.astype(np.float32) * sin_a + px.astype(np.float32) * cos_a + np.float32(cx)).astype(t)
            samples = _bilinear(data[b].astype(t), xs, ys, t)  # [C, ph, sy, pw, sx]
            out[r] = (samples / t(sx * sy)).sum(axis=(2, 4), dtype=t)
        return [out.astype(data.dtype)]
