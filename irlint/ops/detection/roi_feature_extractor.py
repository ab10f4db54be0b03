"""ExperimentalDetectronROIFeatureExtractor-6: Mask R-CNN's multi-level ROIAlign over an FPN.

Each roi [R, 4] is assigned the pyramid level floor(2 + log2(sqrt(area) / 224 + 1e-6)) clamped to
the levels given (a roi without area gets no level and zero features); it is then pooled on that
level's feature map with ROIAlign: box scaled by 1 / pyramid_scales[level] (shifted by half a
pixel with `aligned`), forced to at least 1x1, `output_size` x `output_size` bins each averaging a
sampling_ratio² grid (ceil(bin size) when 0) of bilinear samples, samples beyond one pixel outside
the map counting 0. Outputs the features [R, C, size, size] and the rois unchanged. Float32, as
in OpenVINO's reference (from Caffe2).
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
class ROIFeatureExtractorAttrs:
    output_size: int
    sampling_ratio: int
    pyramid_scales: tuple[int, ...]
    aligned: bool = False


def roi_level(box: np.ndarray, levels: int) -> int:
    area = (box[2] - box[0]) * (box[3] - box[1])
    if area <= 0:
        return levels
    v = f32(math.log2(float(f32(math.sqrt(float(area))) / f32(224.0)) + 1e-6))
    return int(max(0, min(levels - 1, math.floor(float(v) + 2))))


def roi_align(fmap: np.ndarray, box: np.ndarray, scale: f32, size: int, ratio: int, aligned: bool) -> np.ndarray:
    """[C, size, size] average of bilinear samples of fmap [C, H, W] inside `box` (Caffe2's ROIAlign)."""
    c, h, w = fmap.shape
    off = f32(0.5) if aligned else f32(0)
    x0, y0, x1, y1 = (v * scale - off for v in box.astype(f32))
    rw, rh = max(x1 - x0, f32(1)), max(y1 - y0, f32(1))
    bw, bh = rw / f32(size), rh / f32(size)
    gh = ratio if ratio > 0 else math.ceil(float(rh / f32(size)))
    gw = ratio if ratio > 0 else math.ceil(float(rw / f32(size)))
    out = np.zeros((c, size, size), f32)
    flat = fmap.reshape(c, -1)
    for ph in range(size):
        for pw in range(size):
            acc = np.zeros(c, f32)
            for iy in range(gh):
                y = y0 + f32(ph) * bh + (f32(iy) + f32(0.5)) * bh / f32(gh)
                for ix in range(gw):
                    x = x0 + f32(pw) * bw + (f32(ix) + f32(0.5)) * bw / f32(gw)
                    if y < -1 or y > h or x < -1 or x > w:
                        continue
                    yy, xx = max(y, f32(0)), max(x, f32(0))
                    yl, xl = int(yy), int(xx)
                    if yl >= h - 1:
                        yl = yh = h - 1
                        yy = f32(yl)
                    else:
                        yh = yl + 1
                    if xl >= w - 1:
                        xl = xh = w - 1
                        xx = f32(xl)
                    else:
                        xh = xl + 1
                    ly, lx = yy - f32(yl), xx - f32(xl)
                    hy, hx = f32(1) - ly, f32(1) - lx
                    acc += (hy * hx * flat[:, yl * w + xl] + hy * lx * flat[:, yl * w + xh]
                            + ly * hx * flat[:, yh * w + xl] + ly * lx * flat[:, yh * w + xh])
            out[:, ph, pw] = acc / f32(gh * gw)
    return out


@register
class ExperimentalDetectronROIFeatureExtractor(Op):
    types = ("ExperimentalDetectronROIFeatureExtractor",)
    versions = ("opset6",)
    Attrs = ROIFeatureExtractorAttrs
    arity = (2, None)
    infer_reads_values = False

    def infer(self, attrs: ROIFeatureExtractorAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = self.types[0]
        if attrs.output_size < 1 or attrs.sampling_ratio < 0:
            raise OpError(f"{op}: output_size must be positive and sampling_ratio non-negative")
        if len(attrs.pyramid_scales) != len(inputs) - 1:
            raise OpError(f"{op}: {len(attrs.pyramid_scales)} pyramid scales for {len(inputs) - 1} feature maps")
        etype = same_etype(op, inputs)
        rois = inputs[0]
        if rois.shape is not None and (len(rois.shape) != 2 or (rois.shape[1].is_static and rois.shape[1].lo != 4)):
            raise OpError(f"{op}: rois must be [count, 4]")
        channels = DYNAMIC
        for i, fm in enumerate(inputs[1:]):
            if fm.shape is not None:
                if len(fm.shape) != 4:
                    raise OpError(f"{op}: feature map {i} must be 4-D, got rank {len(fm.shape)}")
                if fm.shape[1].is_static:
                    if channels.is_static and channels != fm.shape[1]:
                        raise OpError(f"{op}: feature maps have {channels} and {fm.shape[1]} channels")
                    channels = fm.shape[1]
        r = rois.shape[0] if rois.shape is not None else DYNAMIC
        s = Dim.of(attrs.output_size)
        return [TensorInfo(etype or rois.etype, (r, channels, s, s)), TensorInfo(etype or rois.etype, (r, Dim.of(4)))]

    def compute(self, attrs: ROIFeatureExtractorAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        self.infer(attrs, [TensorInfo(None, tuple(Dim.of(d) for d in np.shape(a))) for a in inputs])
        rois = np.asarray(inputs[0]).astype(f32)
        fmaps = [np.asarray(a).astype(f32) for a in inputs[1:]]
        levels = len(fmaps)
        c = fmaps[0].shape[1]
        out = np.zeros((len(rois), c, attrs.output_size, attrs.output_size), f32)
        for i, box in enumerate(rois):
            lvl = roi_level(box, levels)
            if lvl < levels:
                out[i] = roi_align(fmaps[lvl][0], box, f32(1) / f32(attrs.pyramid_scales[lvl]), attrs.output_size,
                                   attrs.sampling_ratio, attrs.aligned)
        dtype = np.asarray(inputs[0]).dtype
        return [out.astype(dtype), np.asarray(inputs[0]).copy()]
