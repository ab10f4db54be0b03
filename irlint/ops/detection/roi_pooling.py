"""ROIPooling-2: pool each region of interest of a feature map to a fixed [pooled_h, pooled_w] grid.

ROIs are rows (batch index, x1, y1, x2, y2). `method="max"` scales the box by `spatial_scale`,
rounds it to whole cells (half away from zero, like C's round), forces empty boxes to 1x1 and
takes the maximum of each bin (0 for an empty bin). `method="bilinear"` reads the box in
normalised coordinates and samples the map bilinearly at pooled_h x pooled_w points spanning it,
0 outside the map. A batch index of -1 (Proposal's end marker) ends the list: that row and the
rest are 0, as in the CPU plugin. Both follow OpenVINO's reference, including its float32 bin arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.math.elementwise import same_etype
from irlint.ops.registry import register
from irlint.types import Dim

Array = np.ndarray


@dataclass(frozen=True)
class ROIPoolingAttrs:
    pooled_h: int
    pooled_w: int
    spatial_scale: float
    method: str = "max"


def _round_half_away(x: Array) -> Array:
    return np.sign(x) * np.floor(np.abs(x) + 0.5)


@register
class ROIPooling(Op):
    types = ("ROIPooling",)
    versions = ("opset2",)
    Attrs = ROIPoolingAttrs
    arity = (2, 2)
    infer_reads_values = False

    def infer(self, attrs: ROIPoolingAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, rois = inputs
        if attrs.pooled_h < 1 or attrs.pooled_w < 1:
            raise OpError(f"ROIPooling: pooled_h and pooled_w must be positive, got {attrs.pooled_h}, {attrs.pooled_w}")
        if attrs.method not in ("max", "bilinear"):
            raise OpError(f"ROIPooling: method must be 'max' or 'bilinear', got {attrs.method!r}")
        if attrs.spatial_scale <= 0:
            raise OpError(f"ROIPooling: spatial_scale must be positive, got {attrs.spatial_scale}")
        etype = same_etype("ROIPooling", inputs)
        if etype is not None and not etype.is_float:
            raise OpError(f"ROIPooling: expects floating-point inputs, got {etype}")
        if data.shape is not None and len(data.shape) != 4:
            raise OpError(f"ROIPooling: feature maps must be 4-D [N, C, H, W], got rank {len(data.shape)}")
        if rois.shape is not None and (len(rois.shape) != 2 or (rois.shape[1].is_static and rois.shape[1].lo != 5)):
            raise OpError("ROIPooling: rois must be 2-D [num_rois, 5]")
        num = rois.shape[0] if rois.shape is not None else Dim(0, None)
        channels = data.shape[1] if data.shape is not None else Dim(0, None)
        return [TensorInfo(etype or data.etype, (num, channels, Dim.of(attrs.pooled_h), Dim.of(attrs.pooled_w)))]

    def compute(self, attrs: ROIPoolingAttrs, inputs: Sequence[Array]) -> list[Array]:
        x, rois = np.asarray(inputs[0]), np.asarray(inputs[1])
        self.infer(attrs, [TensorInfo(None, tuple(Dim.of(d) for d in a.shape)) for a in (x, rois)])
        n, c, h, w = x.shape
        ph_n, pw_n = attrs.pooled_h, attrs.pooled_w
        out = np.zeros((rois.shape[0], c, ph_n, pw_n), x.dtype)
        f32 = np.float32
        for r, roi in enumerate(rois.astype(f32)):
            b = int(roi[0])
            if b == -1:  # the end marker Proposal writes: this and later rows stay 0 (as the CPU plugin)
                break
            if not 0 <= b < n:
                raise OpError(f"ROIPooling: ROI {r} has batch index {b}, outside [0, {n - 1}]")
            fmap = x[b]
            if attrs.method == "max":
                x1, y1, x2, y2 = (int(v) for v in _round_half_away(roi[1:] * f32(attrs.spatial_scale)))
                bin_h = f32(max(y2 - y1 + 1, 1)) / f32(ph_n)
                bin_w = f32(max(x2 - x1 + 1, 1)) / f32(pw_n)
                for ph in range(ph_n):
                    hs = min(max(int(np.floor(f32(ph) * bin_h)) + y1, 0), h)
                    he = min(max(int(np.ceil(f32(ph + 1) * bin_h)) + y1, 0), h)
                    for pw in range(pw_n):
                        ws = min(max(int(np.floor(f32(pw) * bin_w)) + x1, 0), w)
                        we = min(max(int(np.ceil(f32(pw + 1) * bin_w)) + x1, 0), w)
                        if he > hs and we > ws:
                            out[r, :, ph, pw] = fmap[:, hs:he, ws:we].max(axis=(1, 2))
            else:
                out[r] = self._bilinear(fmap, roi[1:], ph_n, pw_n)
        return [out]

    @staticmethod
    def _bilinear(fmap: Array, box: Array, ph_n: int, pw_n: int) -> Array:
        f32 = np.float32
        _, h, w = fmap.shape
        x1, y1, x2, y2 = box
        scale_h = (y2 - y1) * f32(h - 1) / f32(ph_n - 1) if ph_n > 1 else f32(0)
        scale_w = (x2 - x1) * f32(w - 1) / f32(pw_n - 1) if pw_n > 1 else f32(0)
        out = np.zeros((fmap.shape[0], ph_n, pw_n), fmap.dtype)
        for ph in range(ph_n):
            if ph_n > 1:
                y = f32(h - 1) * y2 if ph == ph_n - 1 else f32(ph) * scale_h + y1 * f32(h - 1)
            else:
                y = f32(0.5 * (float(y1) + float(y2)) * (h - 1))
            for pw in range(pw_n):
                if pw_n > 1:
                    xx = f32(w - 1) * x2 if pw == pw_n - 1 else f32(pw) * scale_w + x1 * f32(w - 1)
                else:
                    xx = f32(0.5 * (float(x2) + float(x1)) * (w - 1))
                if y < 0 or y > h - 1 or xx < 0 or xx > w - 1:
                    continue
                top, left = int(np.floor(y)), int(np.floor(xx))
                bottom, right = min(int(np.ceil(y)), h - 1), min(int(np.ceil(xx)), w - 1)
                dx, dy = xx - f32(left), y - f32(top)
                upper = fmap[:, top, left] + (fmap[:, top, right] - fmap[:, top, left]) * dx
                lower = fmap[:, bottom, left] + (fmap[:, bottom, right] - fmap[:, bottom, left]) * dx
                out[:, ph, pw] = upper + (lower - upper) * dy
        return out
