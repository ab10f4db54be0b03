"""PriorBox-1/8 and PriorBoxClustered-1: SSD anchor boxes for a feature map over an image.

Inputs are the feature map's [H, W] and the image's [IH, IW] (integer vectors, usually ShapeOf
slices); the output is f32 [2, H*W*priors*4]: row 0 the boxes (xmin, ymin, xmax, ymax, normalised
by the image size), row 1 the variances. The per-cell sequence of boxes is fixed by the
attributes, so the kernel builds it once as offsets from the cell centre and evaluates it on the
whole grid at once; the order and the float32 arithmetic follow OpenVINO's reference.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.axes import as_int_array, int_values
from irlint.ops.movement.dims import dim_mul
from irlint.ops.movement.folding import fold
from irlint.ops.registry import register
from irlint.types import DYNAMIC, F32, Dim

Array = np.ndarray
f32 = np.float32


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


def _normalized_ratios(attrs: PriorBoxAttrs) -> list[float]:
    """The distinct ratios (and their inverses with `flip`) plus 1, as the prior count uses them."""
    ratios = {1.0}
    for r in attrs.aspect_ratio:
        ratios.add(round(r * 1e6) / 1e6)
        if attrs.flip:
            ratios.add(round(1 / r * 1e6) / 1e6)
    return sorted(ratios)


def number_of_priors(attrs: PriorBoxAttrs) -> int:
    total = len(_normalized_ratios(attrs))
    if attrs.scale_all_sizes:
        n = total * len(attrs.min_size) + len(attrs.max_size)
    else:
        n = total + len(attrs.min_size) - 1
    if attrs.fixed_size:
        n = total * len(attrs.fixed_size)
    for density in attrs.density:
        d2 = int(density) * int(density) - 1
        n += (len(attrs.fixed_ratio) if attrs.fixed_ratio else total) * d2
    return n


def _kernel_ratios(attrs: PriorBoxAttrs) -> list[float]:
    """The ratio sequence the boxes are generated in: 1 first, then each new ratio (and inverse)."""
    out = [1.0]
    for r in attrs.aspect_ratio:
        if not any(abs(r - e) < 1e-6 for e in out):
            out.append(r)
            if attrs.flip:
                out.append(1.0 / r)
    return out


def _spatial_inputs(op: str, inputs: Sequence[TensorInfo]) -> tuple[Dim, Dim] | None:
    for name, info in zip(("output_size", "image_size"), inputs, strict=False):
        if info.etype is not None and not info.etype.is_integer and not info.etype.is_dynamic:
            raise OpError(f"{op}: input '{name}' must be an integer tensor, got {info.etype}")
        if info.shape is not None and (len(info.shape) != 1 or (info.shape[0].is_static and info.shape[0].lo != 2)):
            raise OpError(f"{op}: input '{name}' must be a 1-D tensor of 2 elements [height, width]")
    vals = int_values(inputs[0])
    return None if vals is None else (Dim.of(vals[0]), Dim.of(vals[1]))


def _infer(op: Op, attrs, inputs: Sequence[TensorInfo], priors: int) -> list[TensorInfo]:
    hw = _spatial_inputs(op.types[0], inputs)
    if hw is None:
        return [TensorInfo(F32, (Dim.of(2), DYNAMIC))]
    return fold(op, attrs, inputs, [TensorInfo(F32, (Dim.of(2), dim_mul(dim_mul(*hw), Dim.of(4 * priors))))])


def _with_variances(boxes: Array, variance: Sequence[float], op: str) -> Array:
    """[2, N*4]: the boxes and their variances (one value for all, or four per box)."""
    var = list(variance) or [0.1]
    if len(var) not in (1, 4):
        raise OpError(f"{op}: variance must have 1 or 4 values, got {len(var)}")
    flat = boxes.reshape(-1).astype(f32)
    second = np.full_like(flat, f32(var[0])) if len(var) == 1 else np.tile(np.array(var, f32), flat.size // 4)
    return np.stack([flat, second])


@register
class PriorBox(Op):
    types = ("PriorBox",)
    versions = ("opset1", "opset8")
    Attrs = PriorBoxAttrs
    arity = (2, 2)

    def infer(self, attrs: PriorBoxAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        if attrs.fixed_size and attrs.density and len(attrs.density) < len(attrs.fixed_size):
            raise OpError("PriorBox: density needs one value per fixed_size")
        return _infer(self, attrs, inputs, number_of_priors(attrs))

    def compute(self, attrs: PriorBoxAttrs, inputs: Sequence[Array]) -> list[Array]:
        h, w = as_int_array("PriorBox", "output_size", inputs[0])
        ih, iw = as_int_array("PriorBox", "image_size", inputs[1])
        if (attrs.fixed_size and not attrs.density and (attrs.fixed_ratio or len(_kernel_ratios(attrs)) > 1)) or (
                len(attrs.density) < len(attrs.fixed_size)):
            raise OpError("PriorBox: fixed_size needs a density per size")
        step, min_size = f32(attrs.step), [f32(s) for s in attrs.min_size]
        if not attrs.scale_all_sizes:  # mxnet-like
            step = f32(ih) / f32(h) if attrs.step == -1 else step * f32(ih)
            min_size = [s * f32(ih) for s in min_size]
        if step == 0:
            cx = (np.arange(w, dtype=f32) + f32(0.5)) * (f32(iw) / f32(w))
            cy = (np.arange(h, dtype=f32) + f32(0.5)) * (f32(ih) / f32(h))
        else:
            cx = (f32(attrs.offset) + np.arange(w, dtype=f32)) * step
            cy = (f32(attrs.offset) + np.arange(h, dtype=f32)) * step
        cx, cy = np.broadcast_to(cx[None, :], (h, w)), np.broadcast_to(cy[:, None], (h, w))
        seq = self._sequence(attrs, min_size)
        if len(seq) != number_of_priors(attrs):
            raise OpError(f"PriorBox: the attributes generate {len(seq)} boxes per cell but the output shape counts "
                          f"{number_of_priors(attrs)} (fixed_ratio with a different number of aspect ratios)")
        boxes = [self._box(cx + dx, cy + dy, bw, bh, clip, iw, ih) for dx, dy, bw, bh, clip in seq]
        out = np.stack(boxes, axis=2) if boxes else np.zeros((h, w, 0, 4), f32)
        if attrs.clip:
            out = np.clip(out, f32(0), f32(1))
        return [_with_variances(out, attrs.variance, "PriorBox")]

    @staticmethod
    def _box(cx: Array, cy: Array, bw, bh, clip: bool, iw: int, ih: int) -> Array:
        iwi, ihi = f32(1) / f32(iw), f32(1) / f32(ih)
        b = np.stack([(cx - bw) * iwi, (cy - bh) * ihi, (cx + bw) * iwi, (cy + bh) * ihi], axis=-1).astype(f32)
        if clip:
            b[..., :2] = np.maximum(b[..., :2], f32(0))
            b[..., 2:] = np.minimum(b[..., 2:], f32(1))
        return b

    @staticmethod
    def _sequence(attrs: PriorBoxAttrs, min_size: list) -> list[tuple]:
        """The boxes of one cell: (dx, dy, half width, half height, clip each), in generation order."""
        seq: list[tuple] = []
        ratios = _kernel_ratios(attrs)

        def dense(s: int, bw, bh) -> None:
            density = int(attrs.density[s])
            fixed = int(attrs.fixed_size[s])
            shift = int(attrs.fixed_size[s] / density)
            for r in range(density):
                for c in range(density):
                    seq.append((f32(-(fixed // 2) + shift / 2 + c * shift), f32(-(fixed // 2) + shift / 2 + r * shift),
                                bw, bh, True))

        for s, size in enumerate(attrs.fixed_size):
            half = f32(int(size)) * f32(0.5)
            if attrs.fixed_ratio:
                for ar in attrs.fixed_ratio:
                    ar = np.sqrt(f32(ar))
                    dense(s, f32(size) * f32(0.5) * ar, f32(size) * f32(0.5) / ar)
            else:
                if attrs.density:
                    dense(s, half, half)
                for ar in ratios:
                    if abs(ar - 1.0) < 1e-6:
                        continue
                    ar = np.sqrt(f32(ar))
                    dense(s, f32(size) * f32(0.5) * ar, f32(size) * f32(0.5) / ar)

        for i, ms in enumerate(min_size):
            seq.append((f32(0), f32(0), ms * f32(0.5), ms * f32(0.5), False))
            with_ratios = attrs.scale_all_sizes or i == len(min_size) - 1
            s_idx = i if attrs.scale_all_sizes else 0
            ratio_boxes = [(f32(0), f32(0), min_size[s_idx] * f32(0.5) * np.sqrt(f32(ar)),
                            min_size[s_idx] * f32(0.5) / np.sqrt(f32(ar)), False)
                           for ar in ratios if abs(ar - 1.0) >= 1e-6] if with_ratios else []
            max_box = []
            if len(attrs.max_size) > i:
                half = np.sqrt(ms * f32(attrs.max_size[i])) * f32(0.5)
                max_box = [(f32(0), f32(0), half, half, False)]
            seq += max_box + ratio_boxes if attrs.min_max_aspect_ratios_order else ratio_boxes + max_box
        return seq


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


@register
class PriorBoxClustered(Op):
    """Boxes of the given widths/heights centred on each cell."""

    types = ("PriorBoxClustered",)
    versions = ("opset1",)
    Attrs = PriorBoxClusteredAttrs
    arity = (2, 2)

    def infer(self, attrs: PriorBoxClusteredAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        if len(attrs.width) != len(attrs.height):
            raise OpError(f"PriorBoxClustered: width has {len(attrs.width)} values, height {len(attrs.height)}")
        return _infer(self, attrs, inputs, len(attrs.width))

    def compute(self, attrs: PriorBoxClusteredAttrs, inputs: Sequence[Array]) -> list[Array]:
        h, w = as_int_array("PriorBoxClustered", "output_size", inputs[0])
        ih, iw = as_int_array("PriorBoxClustered", "image_size", inputs[1])
        if len(attrs.width) != len(attrs.height):
            raise OpError("PriorBoxClustered: width and height need the same number of values")
        step_w, step_h = f32(attrs.step_w), f32(attrs.step_h)
        if attrs.step != 0:
            step_w = step_h = f32(attrs.step)
        if step_w == 0 and step_h == 0:
            step_w, step_h = f32(iw) / f32(w), f32(ih) / f32(h)
        cx = ((np.arange(w, dtype=f32) + f32(attrs.offset)) * step_w)[None, :, None]
        cy = ((np.arange(h, dtype=f32) + f32(attrs.offset)) * step_h)[:, None, None]
        bw, bh = np.array(attrs.width, f32), np.array(attrs.height, f32)
        boxes = np.stack(np.broadcast_arrays((cx - bw / f32(2)) / f32(iw), (cy - bh / f32(2)) / f32(ih),
                                             (cx + bw / f32(2)) / f32(iw), (cy + bh / f32(2)) / f32(ih)), axis=-1)
        if attrs.clip:
            boxes = np.clip(boxes, f32(0), f32(1))
        return [_with_variances(boxes.astype(f32), attrs.variance, "PriorBoxClustered")]
