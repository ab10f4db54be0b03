"""PriorBox-1/8 and PriorBoxClustered-1: SSD anchor boxes for every cell of a feature map.

Inputs are the feature map's [H, W] and the image's [IH, IW]; the output is [2, 4 * H * W * P]:
normalised (xmin, ymin, xmax, ymax) of the P priors of each cell, then their variances. The
priors of one cell follow the reference kernel's order (fixed sizes with their densities and
ratios, then per min_size the square box, the sqrt(min * max) box and the aspect-ratio boxes, the
last two swapped unless `min_max_aspect_ratios_order`); they differ between cells only by the
cell centre, so the kernel builds one cell's list and broadcasts it over the grid.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.axes import int_values, vector_length
from irlint.ops.registry import register
from irlint.types import DYNAMIC, F32, Dim


@dataclass(frozen=True)
class PriorBoxAttrs:
    min_size: tuple[float, ...] = ()
    max_size: tuple[float, ...] = ()
    aspect_ratio: tuple[float, ...] = ()
    density: tuple[float, ...] = ()
    fixed_ratio: tuple[float, ...] = ()
    fixed_size: tuple[float, ...] = ()
    clip: bool = False
    flip: bool = False
    step: float = 0.0
    offset: float = 0.0
    variance: tuple[float, ...] = ()
    scale_all_sizes: bool = True
    min_max_aspect_ratios_order: bool = True


@dataclass(frozen=True)
class PriorBoxClusteredAttrs:
    width: tuple[float, ...] = ()
    height: tuple[float, ...] = ()
    clip: bool = True
    step: float = 0.0
    step_w: float = 0.0
    step_h: float = 0.0
    offset: float = 0.0
    variance: tuple[float, ...] = ()


def _ratios(attrs: PriorBoxAttrs) -> list[float]:
    out = [1.0]
    for r in attrs.aspect_ratio:
        if all(abs(r - e) >= 1e-6 for e in out):
            out.append(r)
            if attrs.flip:
                out.append(1.0 / r)
    return out


def _variance(op: str, variance: Sequence[float]) -> list[float]:
    if len(variance) not in (0, 1, 4):
        raise OpError(f"{op}: variance must have 0, 1 or 4 values, got {len(variance)}")
    return list(variance) or [0.1]


def cell_priors(attrs: PriorBoxAttrs, ih: int) -> list[tuple[float, float, float, float, bool]]:
    """(centre dx, centre dy, half width, half height, clipped on its own) of one cell's priors."""
    ratios = _ratios(attrs)
    min_size = [s * ih for s in attrs.min_size] if not attrs.scale_all_sizes else list(attrs.min_size)
    priors: list[tuple[float, float, float, float, bool]] = []

    def dense(s: int, half_w: float, half_h: float) -> None:
        density = int(attrs.density[s])
        shift = int(attrs.fixed_size[s] / density)
        base = -(int(attrs.fixed_size[s]) // 2) + shift / 2
        for r in range(density):
            for c in range(density):
                priors.append((base + c * shift, base + r * shift, half_w, half_h, True))

    for s, size in enumerate(attrs.fixed_size):
        if attrs.fixed_ratio:
            for ar in attrs.fixed_ratio:
                dense(s, size * 0.5 * math.sqrt(ar), size * 0.5 / math.sqrt(ar))
        else:
            if attrs.density:
                dense(s, int(size) * 0.5, int(size) * 0.5)
            for ar in ratios:
                if abs(ar - 1.0) >= 1e-6:
                    dense(s, size * 0.5 * math.sqrt(ar), size * 0.5 / math.sqrt(ar))
    for i, size in enumerate(min_size):
        square = [(0.0, 0.0, size * 0.5, size * 0.5, False)]
        big = [(0.0, 0.0, math.sqrt(size * attrs.max_size[i]) * 0.5, math.sqrt(size * attrs.max_size[i]) * 0.5,
                False)] if len(attrs.max_size) > i else []
        ratio_boxes = []
        if attrs.scale_all_sizes or i == len(min_size) - 1:
            base = min_size[i if attrs.scale_all_sizes else 0]
            ratio_boxes = [(0.0, 0.0, base * 0.5 * math.sqrt(ar), base * 0.5 / math.sqrt(ar), False)
                           for ar in ratios if abs(ar - 1.0) >= 1e-6]
        priors += square + (big + ratio_boxes if attrs.min_max_aspect_ratios_order else ratio_boxes + big)
    return priors


def _grid(op: str, inputs: Sequence[np.ndarray]) -> tuple[int, int, int, int]:
    layer, image = (np.asarray(a).reshape(-1) for a in inputs[:2])
    if layer.size != 2 or image.size != 2:
        raise OpError(f"{op}: output_size and image_size must hold 2 values each")
    h, w, ih, iw = int(layer[0]), int(layer[1]), int(image[0]), int(image[1])
    if min(h, w, ih, iw) <= 0:
        raise OpError(f"{op}: sizes must be positive, got layer {h}x{w}, image {ih}x{iw}")
    return h, w, ih, iw


def _output(boxes: np.ndarray, clip: bool, variance: list[float]) -> np.ndarray:
    flat = boxes.reshape(-1)
    if clip:
        flat = np.clip(flat, 0.0, 1.0)
    var = np.tile(np.array(variance * (4 if len(variance) == 1 else 1)), flat.size // 4)
    return np.stack([flat, var]).astype(np.float32)


class _PriorBase(Op):
    arity = (2, 2)

    def count(self, attrs) -> int:
        raise NotImplementedError

    def infer(self, attrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = self.types[0]
        for name, t in zip(("output_size", "image_size"), inputs):
            if t.etype is not None and not t.etype.is_integer:
                raise OpError(f"{op}: {name} must be integers, got {t.etype}")
            n = vector_length(op, name, t)
            if n is not None and n != 2:
                raise OpError(f"{op}: {name} must hold 2 values, got {n}")
        _variance(op, attrs.variance)
        layer = int_values(inputs[0])
        if layer is None:
            return [TensorInfo(F32, (Dim.of(2), DYNAMIC))]
        return [TensorInfo(F32, (Dim.of(2), Dim.of(4 * layer[0] * layer[1] * self.count(attrs))))]


@register
class PriorBox(_PriorBase):
    types = ("PriorBox",)
    versions = ("opset1", "opset8")
    Attrs = PriorBoxAttrs

    def count(self, attrs: PriorBoxAttrs) -> int:
        if attrs.fixed_size and attrs.density and len(attrs.density) < len(attrs.fixed_size):
            raise OpError("PriorBox: density needs one value per fixed_size")
        return len(cell_priors(attrs, 1))

    def compute(self, attrs: PriorBoxAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        h, w, ih, iw = _grid("PriorBox", inputs)
        self.count(attrs)
        priors = np.array(cell_priors(attrs, ih), np.float64).reshape(-1, 5)
        step = attrs.step
        if not attrs.scale_all_sizes:
            step = ih / h if step == -1 else step * ih
        if step == 0:
            cx, cy = (np.arange(w) + 0.5) * (iw / w), (np.arange(h) + 0.5) * (ih / h)
        else:
            cx, cy = (attrs.offset + np.arange(w)) * step, (attrs.offset + np.arange(h)) * step
        px = cx[None, :, None] + priors[None, None, :, 0]  # [1, W, P]
        py = cy[:, None, None] + priors[None, None, :, 1]  # [H, 1, P]
        px, py = np.broadcast_to(px, (h, w, len(priors))), np.broadcast_to(py, (h, w, len(priors)))
        hw, hh = priors[:, 2], priors[:, 3]
        boxes = np.stack([(px - hw) / iw, (py - hh) / ih, (px + hw) / iw, (py + hh) / ih], axis=-1)
        own = priors[:, 4].astype(bool)
        boxes[..., own, :2] = np.maximum(boxes[..., own, :2], 0)
        boxes[..., own, 2:] = np.minimum(boxes[..., own, 2:], 1)
        return [_output(boxes, attrs.clip, _variance("PriorBox", attrs.variance))]


@register
class PriorBoxClustered(_PriorBase):
    types = ("PriorBoxClustered",)
    versions = ("opset1",)
    Attrs = PriorBoxClusteredAttrs

    def count(self, attrs: PriorBoxClusteredAttrs) -> int:
        if len(attrs.width) != len(attrs.height):
            raise OpError(f"PriorBoxClustered: {len(attrs.width)} widths but {len(attrs.height)} heights")
        return len(attrs.width)

    def compute(self, attrs: PriorBoxClusteredAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        h, w, ih, iw = _grid("PriorBoxClustered", inputs)
        self.count(attrs)
        step_w = attrs.step_w or attrs.step
        step_h = attrs.step_h or attrs.step
        if step_w == 0 and step_h == 0:
            step_w, step_h = iw / w, ih / h
        cx = ((np.arange(w) + attrs.offset) * step_w)[None, :, None]
        cy = ((np.arange(h) + attrs.offset) * step_h)[:, None, None]
        bw, bh = np.array(attrs.width)[None, None, :], np.array(attrs.height)[None, None, :]
        shape = (h, w, len(attrs.width))
        boxes = np.stack([np.broadcast_to((cx - bw / 2) / iw, shape), np.broadcast_to((cy - bh / 2) / ih, shape),
                          np.broadcast_to((cx + bw / 2) / iw, shape), np.broadcast_to((cy + bh / 2) / ih, shape)],
                         axis=-1)
        return [_output(boxes, attrs.clip, _variance("PriorBoxClustered", attrs.variance))]
