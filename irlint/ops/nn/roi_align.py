"""ROIAlign-3 and ROIAlign-9: bilinear samples pooled (avg or max) over the bins of each box.

As the reference kernel: box corners are scaled (and shifted for the v9 half-pixel modes), boxes
narrower than 1 are widened to 1 only in `asymmetric` mode, a sample more than one pixel outside
the map reads 0, `max` starts from 0 (so an all-negative bin gives 0), and `sampling_ratio = 0`
takes ceil(bin size) samples. Bilinear sampling on the regular sample grid is separable, so each
box is two small matrix products: [samples_y, H] x map x [W, samples_x].
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.dims import merge
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim, format_shape, static_shape


@dataclass(frozen=True)
class ROIAlignAttrs:
    pooled_h: int
    pooled_w: int
    sampling_ratio: int
    spatial_scale: float
    mode: str
    aligned_mode: str = "asymmetric"


def _axis_weights(starts: np.ndarray, size: int, dtype: type) -> np.ndarray:
    """Bilinear weight matrix [samples, size] for sample coordinates `starts` along one axis."""
    s = starts.astype(dtype)
    w = np.zeros((len(s), size), np.float64)
    inside = (s >= dtype(-1)) & (s <= dtype(size))
    s = np.maximum(s, dtype(0))
    low = s.astype(np.int64)
    at_end = low >= size - 1
    low = np.where(at_end, size - 1, low)
    high = np.where(at_end, low, low + 1)
    s = np.where(at_end, low.astype(dtype), s)
    frac = (s - low.astype(dtype)).astype(np.float64)
    rows = np.arange(len(s))
    np.add.at(w, (rows[inside], low[inside]), 1 - frac[inside])
    np.add.at(w, (rows[inside], high[inside]), frac[inside])
    return w


def pooled_boxes(name: str, data: TensorInfo, rois: TensorInfo, batch: TensorInfo, box_width: int,
                 pooled: tuple[int, int]) -> tuple:
    """The output shape [R, C, pooled_h, pooled_w] of the ROIAlign family, after checking that data is
    4-D, rois [R, box_width], batch_indices 1-D integers and both name the same number of boxes."""
    if batch.etype is not None and not batch.etype.is_integer and not batch.etype.is_dynamic:
        raise OpError(f"{name}: batch_indices must be integers, got {batch.etype}")
    if data.shape is not None and len(data.shape) != 4:
        raise OpError(f"{name}: data {format_shape(data.shape)} must be 4-D [N, C, H, W]")
    if rois.shape is not None and (len(rois.shape) != 2 or merge(rois.shape[1], Dim.of(box_width)) is None):
        raise OpError(f"{name}: rois {format_shape(rois.shape)} must be [R, {box_width}]")
    if batch.shape is not None and len(batch.shape) != 1:
        raise OpError(f"{name}: batch_indices {format_shape(batch.shape)} must be 1-D")
    count = DYNAMIC
    for t in (rois, batch):
        if t.shape is not None:
            m = merge(count, t.shape[0])
            if m is None:
                raise OpError(f"{name}: rois and batch_indices disagree on the number of boxes")
            count = m
    channels = DYNAMIC if data.shape is None else data.shape[1]
    return (count, channels, Dim.of(pooled[0]), Dim.of(pooled[1]))


@register
class ROIAlign3(Op):
    types = ("ROIAlign",)
    versions = ("opset3",)
    Attrs = ROIAlignAttrs
    arity = (3, 3)
    infer_reads_values = False
    aligned_modes = ("asymmetric",)

    def _check_attrs(self, attrs: ROIAlignAttrs) -> tuple[str, str]:
        mode, aligned = attrs.mode.lower(), attrs.aligned_mode.lower()
        if mode not in ("avg", "max"):
            raise OpError(f"ROIAlign: mode={attrs.mode!r} is not avg or max")
        if aligned not in self.aligned_modes:
            allowed = ", ".join(self.aligned_modes)
            raise OpError(f"ROIAlign: aligned_mode={attrs.aligned_mode!r} is not one of {allowed}")
        if attrs.pooled_h < 0 or attrs.pooled_w < 0 or attrs.sampling_ratio < 0 or attrs.spatial_scale < 0:
            raise OpError("ROIAlign: pooled_h, pooled_w, sampling_ratio and spatial_scale must not be negative")
        return mode, aligned

    def infer(self, attrs: ROIAlignAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        self._check_attrs(attrs)
        data, rois, batch = inputs
        shape = pooled_boxes("ROIAlign", data, rois, batch, 4, (attrs.pooled_h, attrs.pooled_w))
        return [TensorInfo(data.etype, shape)]

    def compute(self, attrs: ROIAlignAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        data, rois, batch = (np.asarray(a) for a in inputs)
        self.infer(attrs, [TensorInfo(None, static_shape(a.shape)) for a in (data, rois, batch)])
        mode, aligned = self._check_attrs(attrs)
        t = data.dtype.type if data.dtype.kind == "f" else np.float32
        n, c, h, w = data.shape
        src = t(0.5) if aligned == "half_pixel" else t(0)
        dst = t(0) if aligned == "asymmetric" else t(-0.5)
        ph, pw = attrs.pooled_h, attrs.pooled_w
        out = np.zeros((len(rois), c, ph, pw), np.float64)
        maps = data.astype(np.float64)
        # per box: two matrix products over every channel and sample; pooled_h or pooled_w 0 (what
        # OpenVINO fills when the IR leaves them out): no bins, an empty output
        for r in range(len(rois) if ph and pw else 0):
            b = int(batch[r])
            if not 0 <= b < n:
                raise OpError(f"ROIAlign: batch index {b} of box {r} is outside [0, {n - 1}]")
            x1, y1, x2, y2 = ((rois[r].astype(t) + src) * t(attrs.spatial_scale) + dst)
            width, height = x2 - x1, y2 - y1
            if aligned == "asymmetric":
                width, height = max(width, t(1)), max(height, t(1))
            bin_w, bin_h = width / t(pw), height / t(ph)
            sx = attrs.sampling_ratio or int(np.ceil(bin_w))
            sy = attrs.sampling_ratio or int(np.ceil(bin_h))
            if sx <= 0 or sy <= 0:
                continue  # no samples in a bin: the reference leaves 0
            step_x, step_y = bin_w / t(sx), bin_h / t(sy)
            xs = (x1 + np.arange(pw, dtype=t)[:, None] * bin_w + step_x * (np.arange(sx, dtype=t)[None, :] + t(0.5)))
            ys = (y1 + np.arange(ph, dtype=t)[:, None] * bin_h + step_y * (np.arange(sy, dtype=t)[None, :] + t(0.5)))
            wy = _axis_weights(ys.reshape(-1), h, t)
            wx = _axis_weights(xs.reshape(-1), w, t)
            samples = np.einsum("yh,chw,xw->cyx", wy, maps[b], wx, optimize=True).reshape(c, ph, sy, pw, sx)
            if mode == "avg":
                out[r] = samples.mean(axis=(2, 4))
            else:
                out[r] = np.maximum(samples.max(axis=(2, 4)), 0)
        return [out.astype(data.dtype)]


@register
class ROIAlign9(ROIAlign3):
    versions = ("opset9",)
    aligned_modes = ("asymmetric", "half_pixel_for_nn", "half_pixel")
