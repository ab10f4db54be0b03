"""ROIPooling-2 and PSROIPooling-1: pooling boxes [R, 5] = (batch, x1, y1, x2, y2) of a feature map.

As the reference kernels:
- ROIPooling `max`: box corners scaled and rounded, at least 1 x 1, bins [floor(i * size / n),
  ceil((i + 1) * size / n)) clipped to the map, an empty bin gives 0; `bilinear`: corners are
  normalised to [0, 1] and bin i samples the point i / (n - 1) of the box (its centre when n = 1),
  points outside the map give 0.
- PSROIPooling `average`: position-sensitive bins, bin (i, j) of output channel c averages input
  channel (c * group + i) * group + j; `bilinear`: the mean over spatial_bins_x x spatial_bins_y
  sub-boxes of bilinear samples, sub-box b reading input channel b * output_dim + c.
Per box the work is vectorised: separable masked maxima, an integral image for the averages and
bilinear weight matrices for the samples.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.dims import merge
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim, format_shape, static_shape

f32 = np.float32


def _round(v: np.ndarray) -> np.ndarray:
    return np.sign(v) * np.floor(np.abs(v) + f32(0.5))


def _check_inputs(op: str, inputs: Sequence[TensorInfo]) -> Dim:
    data, rois = inputs
    if data.etype is not None and not data.etype.is_dynamic and not data.etype.is_float:
        raise OpError(f"{op}: input must be floating-point, got {data.etype}")
    if data.shape is not None and len(data.shape) != 4:
        raise OpError(f"{op}: input {format_shape(data.shape)} must be 4-D [N, C, H, W]")
    if rois.shape is not None and (len(rois.shape) != 2 or merge(rois.shape[1], Dim.of(5)) is None):
        raise OpError(f"{op}: boxes {format_shape(rois.shape)} must be [R, 5]")
    return DYNAMIC if rois.shape is None else rois.shape[0]


def _batch(op: str, box: np.ndarray, n: int) -> int:
    b = int(box[0])
    if not 0 <= b < n:
        raise OpError(f"{op}: box batch id {b} is outside [0, {n - 1}]")
    return b


def _bilinear_matrix(points: np.ndarray, size: int, valid: np.ndarray) -> np.ndarray:
    """[P, size] weights sampling `size` pixels at `points` (floor / ceil clipped to the end)."""
    lo = np.floor(points).astype(np.int64)
    hi = np.minimum(np.ceil(points), size - 1).astype(np.int64)
    frac = (points - lo).astype(np.float64)
    w = np.zeros((len(points), size))
    rows = np.arange(len(points))[valid]
    np.add.at(w, (rows, lo[valid]), 1 - frac[valid])
    np.add.at(w, (rows, hi[valid]), frac[valid])
    return w


@dataclass(frozen=True)
class ROIPoolingAttrs:
    pooled_h: int
    pooled_w: int
    spatial_scale: float
    method: str = "max"


@register
class ROIPooling(Op):
    types = ("ROIPooling",)
    versions = ("opset2",)
    Attrs = ROIPoolingAttrs
    arity = (2, 2)
    infer_reads_values = False

    def infer(self, attrs: ROIPoolingAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        if attrs.method.lower() not in ("max", "bilinear"):
            raise OpError(f"ROIPooling: method={attrs.method!r} is not max or bilinear")
        if attrs.pooled_h < 1 or attrs.pooled_w < 1 or attrs.spatial_scale <= 0:
            raise OpError("ROIPooling: pooled_h and pooled_w must be positive and spatial_scale positive")
        boxes = _check_inputs("ROIPooling", inputs)
        data = inputs[0]
        channels = DYNAMIC if data.shape is None else data.shape[1]
        return [TensorInfo(data.etype, (boxes, channels, Dim.of(attrs.pooled_h), Dim.of(attrs.pooled_w)))]

    def compute(self, attrs: ROIPoolingAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x, rois = np.asarray(inputs[0]), np.asarray(inputs[1])
        self.infer(attrs, [TensorInfo(None, static_shape(a.shape)) for a in (x, rois)])
        n, c, h, w = x.shape
        ph, pw = attrs.pooled_h, attrs.pooled_w
        out = np.zeros((len(rois), c, ph, pw), np.float64)
        for r, box in enumerate(rois.astype(f32)):  # per box: vectorised over channels and bins
            data = x[_batch("ROIPooling", box, n)].astype(np.float64)
            if attrs.method.lower() == "max":
                x1, y1, x2, y2 = (int(v) for v in _round(box[1:] * f32(attrs.spatial_scale)))
                size_h, size_w = max(y2 - y1 + 1, 1), max(x2 - x1 + 1, 1)
                masks = []
                for size, start, bins, limit in ((size_h, y1, ph, h), (size_w, x1, pw, w)):
                    step = f32(size) / f32(bins)
                    i = np.arange(bins, dtype=f32)
                    lo = np.clip(np.floor(i * step).astype(np.int64) + start, 0, limit)
                    hi = np.clip(np.ceil((i + 1) * step).astype(np.int64) + start, 0, limit)
                    cols = np.arange(limit)
                    masks.append((cols[None, :] >= lo[:, None]) & (cols[None, :] < hi[:, None]))
                my, mx = masks
                along_w = np.where(mx[None, None], data[:, :, None, :], -np.inf).max(axis=3)  # [C, H, pw]
                pooled = np.where(my[None, :, :, None], along_w[:, None], -np.inf).max(axis=2)  # [C, ph, pw]
                out[r] = np.where(np.isneginf(pooled), 0, pooled)
            else:
                x1, y1, x2, y2 = box[1:]
                points = []
                for start, end, bins, size in ((y1, y2, ph, h), (x1, x2, pw, w)):
                    if bins > 1:
                        step = (end - start) * f32(size - 1) / f32(bins - 1)
                        p = np.arange(bins, dtype=f32) * step + start * f32(size - 1)
                        p[-1] = f32(size - 1) * end
                    else:
                        p = np.array([f32(0.5) * (start + end) * f32(size - 1)], f32)
                    points.append(p)
                py, px = points
                vy, vx = (py >= 0) & (py <= h - 1), (px >= 0) & (px <= w - 1)
                out[r] = np.einsum("ph,chw,qw->cpq", _bilinear_matrix(py, h, vy), data, _bilinear_matrix(px, w, vx),
                                   optimize=True)
        return [out.astype(x.dtype)]


@dataclass(frozen=True)
class PSROIPoolingAttrs:
    output_dim: int
    group_size: int
    spatial_scale: float
    mode: str = "average"
    spatial_bins_x: int = 1
    spatial_bins_y: int = 1


@register
class PSROIPooling(Op):
    types = ("PSROIPooling",)
    versions = ("opset1",)
    Attrs = PSROIPoolingAttrs
    arity = (2, 2)
    infer_reads_values = False

    def _mode(self, attrs: PSROIPoolingAttrs) -> str:
        mode = attrs.mode.lower()
        if mode not in ("average", "bilinear"):
            raise OpError(f"PSROIPooling: mode={attrs.mode!r} is not average or bilinear")
        if min(attrs.output_dim, attrs.group_size, attrs.spatial_bins_x, attrs.spatial_bins_y) < 1:
            raise OpError("PSROIPooling: output_dim, group_size and spatial bins must be positive")
        return mode

    def _channels_in(self, attrs: PSROIPoolingAttrs, mode: str) -> int:
        per = attrs.group_size ** 2 if mode == "average" else attrs.spatial_bins_x * attrs.spatial_bins_y
        return attrs.output_dim * per

    def infer(self, attrs: PSROIPoolingAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        mode = self._mode(attrs)
        boxes = _check_inputs("PSROIPooling", inputs)
        data = inputs[0]
        need = self._channels_in(attrs, mode)
        if data.shape is not None and data.shape[1].is_static and data.shape[1].lo != need:
            raise OpError(f"PSROIPooling: input has {data.shape[1].lo} channels, mode {mode} needs {need}")
        g = Dim.of(attrs.group_size)
        return [TensorInfo(data.etype, (boxes, Dim.of(attrs.output_dim), g, g))]

    def compute(self, attrs: PSROIPoolingAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x, rois = np.asarray(inputs[0]), np.asarray(inputs[1])
        self.infer(attrs, [TensorInfo(None, static_shape(a.shape)) for a in (x, rois)])
        mode = self._mode(attrs)
        n, _, h, w = x.shape
        g, dim, scale = attrs.group_size, attrs.output_dim, f32(attrs.spatial_scale)
        out = np.zeros((len(rois), dim, g, g), np.float64)
        for r, box in enumerate(rois.astype(f32)):  # per box: vectorised over channels and bins
            data = x[_batch("PSROIPooling", box, n)].astype(np.float64)
            if mode == "average":
                x1, y1 = _round(box[1]) * scale, _round(box[2]) * scale
                x2, y2 = (_round(box[3]) + f32(1)) * scale, (_round(box[4]) + f32(1)) * scale
                spans = []
                for start, end, size in ((y1, y2, h), (x1, x2, w)):
                    step = (end - start) / f32(g)
                    i = np.arange(g, dtype=f32)
                    lo = np.floor(start + i * step)
                    lo = np.where((lo < 0) | (lo > size - 1), size - 1, lo).astype(np.int64)
                    hi = np.ceil(start + (i + 1) * step)
                    hi = np.where((hi < 0) | (hi > size), size, hi).astype(np.int64)
                    spans.append((lo, hi))
                (ylo, yhi), (xlo, xhi) = spans
                integral = np.zeros((data.shape[0], h + 1, w + 1))
                integral[:, 1:, 1:] = data.cumsum(axis=1).cumsum(axis=2)
                sums = (integral[:, yhi[:, None], xhi[None, :]] - integral[:, ylo[:, None], xhi[None, :]]
                        - integral[:, yhi[:, None], xlo[None, :]] + integral[:, ylo[:, None], xlo[None, :]])
                area = ((yhi - ylo)[:, None] * (xhi - xlo)[None, :]).astype(np.float64)
                # [C_in, g, g]: channel (c * g + i) * g + j serves output (c, i, j); an empty bin (an
                # inverted box, where the reference reads outside the map) gives 0.
                means = np.divide(sums, area, out=np.zeros_like(sums), where=area > 0)
                cells = means.reshape(dim, g, g, g, g)
                out[r] = cells[:, np.arange(g)[:, None], np.arange(g)[None, :], np.arange(g)[:, None],
                               np.arange(g)[None, :]]
            else:
                bx, by = attrs.spatial_bins_x, attrs.spatial_bins_y
                x1, y1, x2, y2 = box[1:] * scale
                bin_w, bin_h = (x2 - x1) / f32(bx), (y2 - y1) / f32(by)
                total = np.zeros((dim, g, g))
                for sby in range(by):
                    for sbx in range(bx):  # each sub-box reads its own input channels
                        start_w, start_h = x1 + f32(sbx) * bin_w, y1 + f32(sby) * bin_h
                        points = []
                        for start, step, size in ((start_h, bin_h, h), (start_w, bin_w, w)):
                            if g > 1:
                                stride = step * f32(size - 1) / f32(g - 1)
                                p = np.arange(g, dtype=f32) * stride + start * f32(size - 1)
                            else:
                                p = np.array([(start + start + step) * f32(size - 1) / f32(2)], f32)
                            points.append(p)
                        py, px = points
                        valid = (py[:, None] >= 0) & (py[:, None] < h) & (px[None, :] >= 0) & (px[None, :] < w)
                        channels = data[(sby * bx + sbx) * dim + np.arange(dim)]
                        sampled = np.einsum("ph,chw,qw->cpq", _bilinear_matrix(py, h, (py >= 0) & (py < h)),
                                            channels, _bilinear_matrix(px, w, (px >= 0) & (px < w)), optimize=True)
                        total += np.where(valid[None], sampled, 0)
                out[r] = total / (bx * by)
        return [out.astype(x.dtype)]
