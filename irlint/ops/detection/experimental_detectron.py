"""The simple ExperimentalDetectron ops (Mask R-CNN): PriorGridGenerator-6 and TopKROIs-6.

PriorGridGenerator shifts every prior box to the centre of every cell of the feature map's H x W
grid (the step is `stride_x`/`stride_y` or image size / grid size), cell-major then prior; `h`/`w`
may only repeat the feature map's size (OpenVINO leaves rows undefined otherwise); `flatten`
gives [H*W*priors, 4] instead of [H, W, priors, 4].
TopKROIs keeps the `max_rois` boxes with the highest probabilities, best first (equal
probabilities: lower index first).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.dims import dims_product
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim

f32 = np.float32

@dataclass(frozen=True)
class PriorGridGeneratorAttrs:
    flatten: bool = True
    h: int = 0
    w: int = 0
    stride_x: float = 0.0
    stride_y: float = 0.0

@register
class ExperimentalDetectronPriorGridGenerator(Op):
    types = ("ExperimentalDetectronPriorGridGenerator",)
    versions = ("opset6",)
    Attrs = PriorGridGeneratorAttrs
    arity = (3, 3)
    infer_reads_values = False

    def infer(self, attrs: PriorGridGeneratorAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        priors, fmap, image = inputs
        op = "ExperimentalDetectronPriorGridGenerator"
        if priors.shape is not None and (len(priors.shape) != 2 or (priors.shape[1].is_static
                                                                     and priors.shape[1].lo != 4)):
            raise OpError(f"{op}: priors must be [count, 4]")
        for name, info in (("feature_map", fmap), ("im_data", image)):
            if info.shape is not None and len(info.shape) != 4:
                raise OpError(f"{op}: {name} must be 4-D, got rank {len(info.shape)}")
        # OpenVINO sizes the output by the feature map even when h/w say otherwise (see compute).
        h = fmap.shape[2] if fmap.shape is not None else DYNAMIC
        w = fmap.shape[3] if fmap.shape is not None else DYNAMIC
        count = priors.shape[0] if priors.shape is not None else DYNAMIC
        if attrs.flatten:
            shape = (dims_product([h, w, count]) if DYNAMIC not in (h, w, count) else DYNAMIC, Dim.of(4))
        else:
            shape = (h, w, count, Dim.of(4))
        return [TensorInfo(priors.etype, shape)]

    def compute(self, attrs: PriorGridGeneratorAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        priors = np.asarray(inputs[0])
        fmap, image = np.asarray(inputs[1]).shape, np.asarray(inputs[2]).shape
        h = attrs.h or fmap[2]
        w = attrs.w or fmap[3]
        if (h, w) != (fmap[2], fmap[3]):
            raise OpError(f"ExperimentalDetectronPriorGridGenerator: h={attrs.h}, w={attrs.w} disagree with the "
                          f"feature map's {fmap[2]} x {fmap[3]}; OpenVINO sizes the output by the feature map and "
                          "leaves the rows beyond the h x w grid undefined")
        step_w = f32(attrs.stride_x) if attrs.stride_x else f32(image[3]) / f32(w)
        step_h = f32(attrs.stride_y) if attrs.stride_y else f32(image[2]) / f32(h)
        cx = step_w * (np.arange(w, dtype=f32) + f32(0.5))
        cy = step_h * (np.arange(h, dtype=f32) + f32(0.5))
        shift = np.zeros((h, w, 1, 4), f32)
        shift[..., 0] = shift[..., 2] = cx[None, :, None]
        shift[..., 1] = shift[..., 3] = cy[:, None, None]
        out = (priors.astype(f32)[None, None] + shift).astype(priors.dtype)
        return [out.reshape(-1, 4) if attrs.flatten else out]

@dataclass(frozen=True)
class TopKROIsAttrs:
    max_rois: int = 0

@register
class ExperimentalDetectronTopKROIs(Op):
    types = ("ExperimentalDetectronTopKROIs",)
    versions = ("opset6",)
    Attrs = TopKROIsAttrs
    arity = (2, 2)
    infer_reads_values = False

    def infer(self, attrs: TopKROIsAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        rois, probs = inputs
        op = "ExperimentalDetectronTopKROIs"
        if attrs.max_rois < 0:
            raise OpError(f"{op}: max_rois must be non-negative, got {attrs.max_rois}")
        if rois.shape is not None and (len(rois.shape) != 2 or (rois.shape[1].is_static and rois.shape[1].lo != 4)):
            raise OpError(f"{op}: rois must be [count, 4]")
        if probs.shape is not None and len(probs.shape) != 1:
            raise OpError(f"{op}: probabilities must be 1-D, got rank {len(probs.shape)}")
        if rois.shape is not None and probs.shape is not None and not rois.shape[0].compatible(probs.shape[0]):
            raise OpError(f"{op}: {rois.shape[0]} rois but {probs.shape[0]} probabilities")
        return [TensorInfo(rois.etype, (Dim.of(attrs.max_rois), Dim.of(4)))]

    def compute(self, attrs: TopKROIsAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        rois, probs = np.asarray(inputs[0]), np.asarray(inputs[1]).reshape(-1)
        if len(rois) != len(probs):
            raise OpError(f"ExperimentalDetectronTopKROIs: {len(rois)} rois but {len(probs)} probabilities")
        if attrs.max_rois > len(rois):
            raise OpError(f"ExperimentalDetectronTopKROIs: max_rois {attrs.max_rois} exceeds the {len(rois)} "
                          "input rois (OpenVINO leaves the extra rows undefined)")
        order = np.argsort(-probs.astype(np.float64), kind="stable")[: attrs.max_rois]
        return [rois[order]]
