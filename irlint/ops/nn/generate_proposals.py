"""GenerateProposals-9: Mask R-CNN style proposals from per-cell anchors, deltas and scores.

As the reference kernel: anchors [H, W, A, 4] are moved by deltas [N, A * 4, H, W] (log sizes
capped at log(1000 / 16)), clipped to the image, flagged when smaller than min_size (times the
image scale); the pre_nms_count best scores go through greedy NMS (IoU above nms_threshold drops
the later box; +1 pixel per side unless `normalized`) until post_nms_count boxes. Outputs: the
boxes and scores of all images one after the other, and the count per image. Each image's
proposals are computed together; the NMS walks the sorted boxes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.registry import register
from irlint.types import DYNAMIC, F32, I32, I64, Dim, ElementType, element_type, format_shape

f32 = np.float32
MAX_DELTA_LOG_WH = f32(math.log(1000.0 / 16.0))


@dataclass(frozen=True)
class GenerateProposalsAttrs:
    min_size: float
    nms_threshold: float
    pre_nms_count: int
    post_nms_count: int
    normalized: bool = True
    nms_eta: float = 1.0
    roi_num_type: str = "i64"


@register
class GenerateProposals(Op):
    types = ("GenerateProposals",)
    versions = ("opset9",)
    Attrs = GenerateProposalsAttrs
    arity = (4, 4)
    infer_reads_values = False

    def _type(self, attrs: GenerateProposalsAttrs) -> ElementType:
        et = element_type(attrs.roi_num_type)
        if et not in (I32, I64):
            raise OpError(f"GenerateProposals: roi_num_type={attrs.roi_num_type!r} must be i32 or i64")
        if attrs.pre_nms_count < 1 or attrs.post_nms_count < 1:
            raise OpError("GenerateProposals: pre_nms_count and post_nms_count must be positive")
        return et

    def infer(self, attrs: GenerateProposalsAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        et = self._type(attrs)
        for name, t, rank in zip(("im_info", "anchors", "deltas", "scores"), inputs, (2, 4, 4, 4)):
            if t.shape is not None and len(t.shape) != rank:
                raise OpError(f"GenerateProposals: {name} {format_shape(t.shape)} must have rank {rank}")
        images = DYNAMIC if inputs[0].shape is None else inputs[0].shape[0]
        rows = Dim(0, None if images.hi is None else images.hi * attrs.post_nms_count)
        etype = inputs[1].etype or F32
        return [TensorInfo(etype, (rows, Dim.of(4))), TensorInfo(etype, (rows,)), TensorInfo(et, (images,))]

    def compute(self, attrs: GenerateProposalsAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        et = self._type(attrs)
        info, anchors, deltas, scores = (np.asarray(a) for a in inputs)
        n, count, fh, fw = scores.shape
        if anchors.shape != (fh, fw, count, 4) or deltas.shape != (n, count * 4, fh, fw):
            raise OpError(f"GenerateProposals: anchors {list(anchors.shape)} and deltas {list(deltas.shape)} do not "
                          f"match scores {list(scores.shape)}")
        offset = f32(0 if attrs.normalized else 1)
        anc = anchors.astype(f32).reshape(-1, 4)  # (h, w, anchor) order, as the proposals are laid out
        out_boxes, out_scores, counts = [], [], []
        for i in range(n):  # per image: every proposal at once, then the greedy NMS
            im = info[i].astype(f32).reshape(-1)
            img_h, img_w = im[0], im[1]
            scale_h = im[2] if im.size > 2 else f32(1)
            scale_w = im[3] if im.size > 3 else scale_h
            d = deltas[i].astype(f32).reshape(count, 4, fh, fw).transpose(2, 3, 0, 1).reshape(-1, 4)
            s = scores[i].astype(f32).transpose(1, 2, 0).reshape(-1)
            w = anc[:, 2] - anc[:, 0] + offset
            h = anc[:, 3] - anc[:, 1] + offset
            cx, cy = anc[:, 0] + f32(0.5) * w, anc[:, 1] + f32(0.5) * h
            pcx, pcy = d[:, 0] * w + cx, d[:, 1] * h + cy
            pw = np.exp(np.minimum(d[:, 2], MAX_DELTA_LOG_WH)) * w
            ph = np.exp(np.minimum(d[:, 3], MAX_DELTA_LOG_WH)) * h
            x0 = np.clip(pcx - f32(0.5) * pw, 0, img_w - offset)
            y0 = np.clip(pcy - f32(0.5) * ph, 0, img_h - offset)
            x1 = np.clip(pcx + f32(0.5) * pw - offset, 0, img_w - offset)
            y1 = np.clip(pcy + f32(0.5) * ph - offset, 0, img_h - offset)
            keep = (f32(attrs.min_size) * scale_w <= x1 - x0 + offset) & (f32(attrs.min_size) * scale_h
                                                                          <= y1 - y0 + offset)
            order = np.argsort(-s, kind="stable")[: min(len(s), attrs.pre_nms_count)]
            bx = np.stack([x0, y0, x1, y1], axis=1)[order]
            alive = keep[order].copy()
            a0, b0, a1, b1 = bx.T
            area = (a1 - a0 + offset) * (b1 - b0 + offset)
            iw = np.minimum(a1[:, None], a1[None]) - np.maximum(a0[:, None], a0[None]) + offset
            ih = np.minimum(b1[:, None], b1[None]) - np.maximum(b0[:, None], b0[None]) + offset
            inter = np.maximum(f32(0), iw) * np.maximum(f32(0), ih)
            with np.errstate(divide="ignore", invalid="ignore"):
                iou = inter / (area[:, None] + area[None] - inter)
            touch = ((a0[:, None] <= a1[None]) & (b0[:, None] <= b1[None]) & (a0[None] <= a1[:, None])
                     & (b0[None] <= b1[:, None]))
            suppress = (iou > f32(attrs.nms_threshold)) & touch
            chosen: list[int] = []
            for j in range(len(bx)):
                if not alive[j]:
                    continue
                chosen.append(j)
                if len(chosen) == attrs.post_nms_count:
                    break
                alive[j + 1:] &= ~suppress[j, j + 1:]
            out_boxes.append(bx[chosen])
            out_scores.append(s[order][chosen])
            counts.append(len(chosen))
        dtype = anchors.dtype if anchors.dtype.kind == "f" else np.float32
        return [np.concatenate(out_boxes).reshape(-1, 4).astype(dtype),
                np.concatenate(out_scores).reshape(-1).astype(dtype), np.array(counts, et.dtype)]
