"""ExperimentalDetectronGenerateProposalsSingleImage-6: Mask R-CNN's RPN proposals for one image.

Inputs: im_info [3] (height, width, scale), anchors [H*W*A, 4] (cell-major), deltas [A*4, H, W],
scores [A, H, W]. Each anchor is moved by its deltas (widths with +1 pixel, log-size deltas capped
at log(1000/16)), clipped to the image, scored 0 when smaller than `min_size`; the best
`pre_nms_count` are suppressed greedily (IoU without the +1 pixel, > `nms_threshold`) and up to
`post_nms_count` boxes and scores are returned, zeros after. Float32 as in OpenVINO's reference;
equal scores keep anchor order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.math.elementwise import same_etype
from irlint.ops.registry import register
from irlint.types import Dim

f32 = np.float32
MAX_DELTA_LOG_WH = f32(math.log(1000.0 / 16.0))


@dataclass(frozen=True)
class GenerateProposalsSingleImageAttrs:
    min_size: float
    nms_threshold: float
    post_nms_count: int
    pre_nms_count: int


@register
class ExperimentalDetectronGenerateProposalsSingleImage(Op):
    types = ("ExperimentalDetectronGenerateProposalsSingleImage",)
    versions = ("opset6",)
    Attrs = GenerateProposalsSingleImageAttrs
    arity = (4, 4)
    infer_reads_values = False

    def infer(self, attrs: GenerateProposalsSingleImageAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = self.types[0]
        if attrs.post_nms_count < 1 or attrs.pre_nms_count < 1:
            raise OpError(f"{op}: pre_nms_count and post_nms_count must be positive")
        etype = same_etype(op, inputs)
        info, anchors, deltas, scores = inputs
        for name, t, rank in (("im_info", info, 1), ("anchors", anchors, 2), ("deltas", deltas, 3),
                              ("scores", scores, 3)):
            if t.shape is not None and len(t.shape) != rank:
                raise OpError(f"{op}: {name} must have rank {rank}, got {len(t.shape)}")
        n = Dim.of(attrs.post_nms_count)
        return [TensorInfo(etype or info.etype, (n, Dim.of(4))), TensorInfo(etype or info.etype, (n,))]

    def compute(self, attrs: GenerateProposalsSingleImageAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        info, anchors, deltas, scores = (np.asarray(a).astype(f32) for a in inputs)
        dtype = np.asarray(inputs[0]).dtype
        a, h, w = scores.shape
        if anchors.shape != (h * w * a, 4) or deltas.shape != (a * 4, h, w):
            raise OpError(f"{self.types[0]}: anchors {list(anchors.shape)} and deltas {list(deltas.shape)} do not "
                          f"match scores {list(scores.shape)} ([H*W*A, 4] and [A*4, H, W])")
        img_h, img_w = info[0], info[1]
        anc = anchors.reshape(h, w, a, 4).reshape(-1, 4)
        d = deltas.reshape(a, 4, h, w).transpose(2, 3, 0, 1).reshape(-1, 4)
        sc = scores.transpose(1, 2, 0).reshape(-1)
        one = f32(1)
        ww, hh = anc[:, 2] - anc[:, 0] + one, anc[:, 3] - anc[:, 1] + one
        cx, cy = anc[:, 0] + f32(0.5) * ww, anc[:, 1] + f32(0.5) * hh
        pcx, pcy = d[:, 0] * ww + cx, d[:, 1] * hh + cy
        pw = np.exp(np.minimum(d[:, 2], MAX_DELTA_LOG_WH)).astype(f32) * ww
        ph = np.exp(np.minimum(d[:, 3], MAX_DELTA_LOG_WH)).astype(f32) * hh
        box = np.stack([pcx - f32(0.5) * pw, pcy - f32(0.5) * ph, pcx + f32(0.5) * pw - one,
                        pcy + f32(0.5) * ph - one], axis=1)
        box = np.clip(box, f32(0), np.array([img_w - one, img_h - one] * 2, f32)).astype(f32)
        bw, bh = box[:, 2] - box[:, 0] + one, box[:, 3] - box[:, 1] + one
        min_size = f32(attrs.min_size)
        sc = np.where((min_size <= bw) & (min_size <= bh), sc, f32(0)).astype(f32)
        order = np.argsort(-sc, kind="stable")[: min(attrs.pre_nms_count, len(sc))]
        kept = _nms(box[order], f32(attrs.nms_threshold), attrs.post_nms_count)
        rois = np.zeros((attrs.post_nms_count, 4), f32)
        out_scores = np.zeros(attrs.post_nms_count, f32)
        rois[: len(kept)] = box[order[kept]]
        out_scores[: len(kept)] = sc[order[kept]]
        return [rois.astype(dtype), out_scores.astype(dtype)]


def _nms(boxes: np.ndarray, thresh: f32, max_out: int) -> list[int]:
    """Greedy suppression over score-sorted boxes (no +1 pixel in the areas), as OpenVINO's."""
    dead = np.zeros(len(boxes), bool)
    kept: list[int] = []
    for i in range(len(boxes)):
        if dead[i]:
            continue
        kept.append(i)
        if len(kept) == max_out:
            break
        x0i, y0i, x1i, y1i = boxes[i]
        area_a = (x1i - x0i) * (y1i - y0i)
        rest = boxes[i + 1:]
        iw = np.minimum(x1i, rest[:, 2]) - np.maximum(x0i, rest[:, 0])
        ih = np.minimum(y1i, rest[:, 3]) - np.maximum(y0i, rest[:, 1])
        inter = np.maximum(f32(0), iw) * np.maximum(f32(0), ih)
        area_b = (rest[:, 2] - rest[:, 0]) * (rest[:, 3] - rest[:, 1])
        with np.errstate(divide="ignore", invalid="ignore"):
            iou = inter / (area_a + area_b - inter)
        overlap = (x0i <= rest[:, 2]) & (y0i <= rest[:, 3]) & (rest[:, 0] <= x1i) & (rest[:, 1] <= y1i)
        dead[i + 1:] = (thresh < iou) & overlap
    return kept
