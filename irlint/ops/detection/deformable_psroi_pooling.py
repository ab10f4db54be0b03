"""DeformablePSROIPooling-1: position-sensitive ROI pooling with learned bin offsets (Deformable R-FCN).

Output [R, output_dim, group_size, group_size]; cell (c, h, w) averages spatial_bins_y x
spatial_bins_x bilinear samples of input channel (c * group_size + gh) * group_size + gw inside
its bin, the bin shifted by offsets[roi, 2 * class + (0 for x, 1 for y), part_h, part_w] x
`trans_std` x the roi size (class = c // (output_dim / classes), parts from `part_size`; no
offsets input = no shift). The box is rounded (half away from zero), scaled and moved half a
pixel; samples more than half a pixel outside the map are skipped. A batch index of -1 ends the
ROI list. Float32, following OpenVINO's CPU plugin.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.math.elementwise import same_etype
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim

f32 = np.float32


@dataclass(frozen=True)
class DeformablePSROIPoolingAttrs:
    output_dim: int
    spatial_scale: float
    group_size: int = 1
    mode: str = "bilinear_deformable"
    spatial_bins_x: int = 1
    spatial_bins_y: int = 1
    trans_std: float = 1.0
    part_size: int = 1


def _round(v: float) -> float:
    return math.copysign(math.floor(abs(v) + 0.5), v)


def _bilinear(plane: np.ndarray, x: f32, y: f32) -> f32:
    x1, x2, y1, y2 = math.floor(x), math.ceil(x), math.floor(y), math.ceil(y)
    dx, dy = x - f32(x1), y - f32(y1)
    one = f32(1)
    return ((one - dx) * (one - dy) * plane[y1, x1] + (one - dx) * dy * plane[y2, x1]
            + dx * (one - dy) * plane[y1, x2] + dx * dy * plane[y2, x2])


@register
class DeformablePSROIPooling(Op):
    types = ("DeformablePSROIPooling",)
    versions = ("opset1",)
    Attrs = DeformablePSROIPoolingAttrs
    arity = (2, 3)
    infer_reads_values = False

    def infer(self, attrs: DeformablePSROIPoolingAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = "DeformablePSROIPooling"
        if attrs.mode != "bilinear_deformable":
            raise OpError(f"{op}: mode must be bilinear_deformable, got {attrs.mode!r}")
        if min(attrs.output_dim, attrs.group_size, attrs.spatial_bins_x, attrs.spatial_bins_y, attrs.part_size) < 1:
            raise OpError(f"{op}: output_dim, group_size, spatial bins and part_size must be positive")
        etype = same_etype(op, inputs)
        data, rois = inputs[0], inputs[1]
        if data.shape is not None:
            if len(data.shape) != 4:
                raise OpError(f"{op}: data must be 4-D, got rank {len(data.shape)}")
            need = attrs.output_dim * attrs.group_size ** 2
            if data.shape[1].is_static and data.shape[1].lo != need:
                raise OpError(f"{op}: data needs output_dim x group_size² = {need} channels, got {data.shape[1].lo}")
        if rois.shape is not None and (len(rois.shape) != 2 or (rois.shape[1].is_static and rois.shape[1].lo != 5)):
            raise OpError(f"{op}: rois must be [count, 5]")
        if len(inputs) > 2 and inputs[2].shape is not None and len(inputs[2].shape) != 4:
            raise OpError(f"{op}: offsets must be 4-D, got rank {len(inputs[2].shape)}")
        g = Dim.of(attrs.group_size)
        r = rois.shape[0] if rois.shape is not None else DYNAMIC
        return [TensorInfo(etype or data.etype, (r, Dim.of(attrs.output_dim), g, g))]

    def compute(self, attrs: DeformablePSROIPoolingAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        self.infer(attrs, [TensorInfo(None, tuple(Dim.of(d) for d in np.shape(a))) for a in inputs])
        x = np.asarray(inputs[0]).astype(f32)
        rois = np.asarray(inputs[1]).astype(f32)
        trans = np.asarray(inputs[2]).astype(f32) if len(inputs) > 2 else None
        n, _, height, width = x.shape
        g, dim, ps = attrs.group_size, attrs.output_dim, attrs.part_size
        classes = trans.shape[1] // 2 if trans is not None else 1
        per_class = max(dim // classes, 1)
        scale = f32(attrs.spatial_scale)
        out = np.zeros((len(rois), dim, g, g), f32)
        for r, roi in enumerate(rois):
            b = int(roi[0])
            if b == -1:
                break
            if not 0 <= b < n:
                raise OpError(f"DeformablePSROIPooling: ROI {r} has batch index {b}, outside [0, {n - 1}]")
            sw = f32(_round(float(roi[1]))) * scale - f32(0.5)
            sh = f32(_round(float(roi[2]))) * scale - f32(0.5)
            ew = (f32(_round(float(roi[3]))) + f32(1)) * scale - f32(0.5)
            eh = (f32(_round(float(roi[4]))) + f32(1)) * scale - f32(0.5)
            rw, rh = max(ew - sw, f32(0.1)), max(eh - sh, f32(0.1))
            bw, bh = rw / f32(g), rh / f32(g)
            sbw, sbh = bw / f32(attrs.spatial_bins_x), bh / f32(attrs.spatial_bins_y)
            for c in range(dim):
                cls = c // per_class
                for h in range(g):
                    for w in range(g):
                        ph, pw = h * ps // g, w * ps // g
                        tx = ty = f32(0)
                        if trans is not None:
                            tx = trans[r, 2 * cls, ph, pw] * f32(attrs.trans_std)
                            ty = trans[r, 2 * cls + 1, ph, pw] * f32(attrs.trans_std)
                        ws = f32(w) * bw + sw + tx * rw
                        hs = f32(h) * bh + sh + ty * rh
                        plane = x[b, (c * g + h) * g + w]
                        total, count = f32(0), 0
                        for ih in range(attrs.spatial_bins_y):
                            for iw in range(attrs.spatial_bins_x):
                                px, py = ws + f32(iw) * sbw, hs + f32(ih) * sbh
                                if px < -0.5 or px > width - 0.5 or py < -0.5 or py > height - 0.5:
                                    continue
                                px = f32(min(max(float(px), 0.0), width - 1.0))
                                py = f32(min(max(float(py), 0.0), height - 1.0))
                                total += _bilinear(plane, px, py)
                                count += 1
                        out[r, c, h, w] = total / f32(count) if count else f32(0)
        return [out.astype(np.asarray(inputs[0]).dtype)]
