"""PSROIPooling-1: position-sensitive ROI pooling (R-FCN).

Each output cell (c, ph, pw) of a ROI reads its own input channel: `average` mode averages bin
(ph, pw) of channel (c * group_size + ph) * group_size + pw, the box rounded to whole cells and
scaled by `spatial_scale`; `bilinear` mode averages spatial_bins_y x spatial_bins_x bilinear samples,
sub-bin (y, x) reading channel (y * spatial_bins_x + x) * output_dim + c. Float32 arithmetic as
in OpenVINO; where its reference and its CPU plugin differ at the map's border, the CPU plugin's
reading is taken: a bin outside the map is 0, a box narrower than 0.1 cells is widened to 0.1, and
a bilinear sample counts only inside [0, size-1] (the reference also samples between size-1 and
size). Boxes with negative coordinates are reported (undefined in the reference); a batch index
of -1 (Proposal's end marker) ends the list, that row and the rest being 0.
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
f32 = np.float32


@dataclass(frozen=True)
class PSROIPoolingAttrs:
    output_dim: int
    group_size: int
    spatial_scale: float
    mode: str = "average"
    spatial_bins_x: int = 1
    spatial_bins_y: int = 1


def _round(v: np.float32) -> np.float32:
    """C's roundf for the non-negative coordinates accepted here (half away from zero)."""
    return np.floor(v + f32(0.5))


def _channels_needed(attrs: PSROIPoolingAttrs) -> int:
    if attrs.mode == "average":
        return attrs.output_dim * attrs.group_size * attrs.group_size
    return attrs.output_dim * attrs.spatial_bins_x * attrs.spatial_bins_y


@register
class PSROIPooling(Op):
    types = ("PSROIPooling",)
    versions = ("opset1",)
    Attrs = PSROIPoolingAttrs
    arity = (2, 2)
    infer_reads_values = False

    def infer(self, attrs: PSROIPoolingAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, rois = inputs
        if attrs.mode not in ("average", "bilinear"):
            raise OpError(f"PSROIPooling: mode must be 'average' or 'bilinear', got {attrs.mode!r}")
        if min(attrs.output_dim, attrs.group_size, attrs.spatial_bins_x, attrs.spatial_bins_y) < 1:
            raise OpError("PSROIPooling: output_dim, group_size and spatial bins must be positive")
        etype = same_etype("PSROIPooling", inputs)
        if etype is not None and not etype.is_float:
            raise OpError(f"PSROIPooling: expects floating-point inputs, got {etype}")
        if data.shape is not None:
            if len(data.shape) != 4:
                raise OpError(f"PSROIPooling: feature maps must be 4-D [N, C, H, W], got rank {len(data.shape)}")
            c = data.shape[1]
            if c.is_static and c.lo != _channels_needed(attrs):
                raise OpError(f"PSROIPooling: {attrs.mode} mode needs {_channels_needed(attrs)} input channels, "
                              f"got {c.lo}")
        if rois.shape is not None and (len(rois.shape) != 2 or (rois.shape[1].is_static and rois.shape[1].lo != 5)):
            raise OpError("PSROIPooling: rois must be 2-D [num_rois, 5]")
        num = rois.shape[0] if rois.shape is not None else Dim(0, None)
        g = Dim.of(attrs.group_size)
        return [TensorInfo(etype or data.etype, (num, Dim.of(attrs.output_dim), g, g))]

    def compute(self, attrs: PSROIPoolingAttrs, inputs: Sequence[Array]) -> list[Array]:
        x, rois = np.asarray(inputs[0]), np.asarray(inputs[1])
        self.infer(attrs, [TensorInfo(None, tuple(Dim.of(d) for d in a.shape)) for a in (x, rois)])
        n, _, h, w = x.shape
        g, dim = attrs.group_size, attrs.output_dim
        out = np.zeros((rois.shape[0], dim, g, g), x.dtype)
        scale = f32(attrs.spatial_scale)
        for r, box in enumerate(rois.astype(f32)):
            b = int(box[0])
            if b == -1:  # Proposal's end marker: this and later rows stay 0 (as the CPU plugin)
                break
            if not 0 <= b < n:
                raise OpError(f"PSROIPooling: ROI {r} has batch index {b}, outside [0, {n - 1}]")
            if (box[1:] < 0).any():
                raise OpError(f"PSROIPooling: ROI {r} has negative coordinates {box[1:].tolist()}")
            fmap = x[b]
            if attrs.mode == "average":
                sw, sh = _round(box[1]) * scale, _round(box[2]) * scale
                ew, eh = (_round(box[3]) + f32(1)) * scale, (_round(box[4]) + f32(1)) * scale
                bin_w, bin_h = max(ew - sw, f32(0.1)) / f32(g), max(eh - sh, f32(0.1)) / f32(g)
                for ph in range(g):
                    h0 = min(int(np.floor(sh + f32(ph) * bin_h)), h)
                    h1 = min(int(np.ceil(sh + f32(ph + 1) * bin_h)), h)
                    for pw in range(g):
                        w0 = min(int(np.floor(sw + f32(pw) * bin_w)), w)
                        w1 = min(int(np.ceil(sw + f32(pw + 1) * bin_w)), w)
                        if h1 <= h0 or w1 <= w0:  # a bin outside the map (the CPU plugin's 0)
                            continue
                        channels = (np.arange(dim) * g + ph) * g + pw
                        region = fmap[channels, h0:h1, w0:w1]
                        out[r, :, ph, pw] = region.sum(axis=(1, 2), dtype=x.dtype) / x.dtype.type(region[0].size)
            else:
                out[r] = self._bilinear(attrs, fmap, box[1:] * scale)
        return [out]

    @staticmethod
    def _bilinear(attrs: PSROIPoolingAttrs, fmap: Array, box: Array) -> Array:
        _, h, w = fmap.shape
        g, dim, bx, by = attrs.group_size, attrs.output_dim, attrs.spatial_bins_x, attrs.spatial_bins_y
        sw, sh, ew, eh = box
        bin_w, bin_h = (ew - sw) / f32(bx), (eh - sh) / f32(by)
        scale_w = bin_w * f32(w - 1) / f32(g - 1) if g > 1 else f32(0)
        scale_h = bin_h * f32(h - 1) / f32(g - 1) if g > 1 else f32(0)
        out = np.zeros((dim, g, g), fmap.dtype)
        for ph in range(g):
            for pw in range(g):
                acc = np.zeros(dim, fmap.dtype)
                for sby in range(by):
                    for sbx in range(bx):
                        x0, y0 = sw + f32(sbx) * bin_w, sh + f32(sby) * bin_h
                        px = f32(pw) * scale_w + x0 * f32(w - 1) if g > 1 else (x0 + x0 + bin_w) * f32(w - 1) / f32(2)
                        py = f32(ph) * scale_h + y0 * f32(h - 1) if g > 1 else (y0 + y0 + bin_h) * f32(h - 1) / f32(2)
                        if 0 <= px <= w - 1 and 0 <= py <= h - 1:
                            left, top = int(np.floor(px)), int(np.floor(py))
                            right, bottom = min(int(np.ceil(px)), w - 1), min(int(np.ceil(py)), h - 1)
                            ch = (sby * bx + sbx) * dim + np.arange(dim)
                            upper = fmap[ch, top, left] + (fmap[ch, top, right] - fmap[ch, top, left]) * (px - left)
                            lower = fmap[ch, bottom, left] + (fmap[ch, bottom, right] - fmap[ch, bottom, left]) * (
                                px - left)
                            acc += upper + (lower - upper) * (py - top)
                out[:, ph, pw] = acc / fmap.dtype.type(bx * by)
        return out
