"""MulticlassNms-8/9: per-class greedy NMS with per-image and cross-batch ordering (PaddlePaddle's).

As the reference kernel: candidates score at least score_threshold, the nms_top_k best per class
enter a greedy loop that drops a box at IoU >= the (eta-adaptive) threshold (boxes count +1 pixel
per side unless `normalized`); an image's selections are ordered by score (ties: class, box) and
cut to keep_top_k, then optionally regrouped by class; `sort_result_across_batch` reorders all
images together. Boxes are shared by all classes ([N, M, 4] with scores [N, C, M]) or, with the v9
`roisnum` input, given per class and split into images by roisnum ([C, M, 4], [C, M]).
Outputs: [class, score, x1, y1, x2, y2] rows, their flattened box indices and per-image counts.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.dims import dim_mul
from irlint.ops.registry import register
from irlint.types import DYNAMIC, F32, I32, I64, Dim, ElementType, element_type, format_shape

f32 = np.float32


@dataclass(frozen=True)
class MulticlassNmsAttrs:
    sort_result_type: str = "none"
    sort_result_across_batch: bool = False
    output_type: str = "i64"
    iou_threshold: float = 0.0
    score_threshold: float = 0.0
    nms_top_k: int = -1
    keep_top_k: int = -1
    background_class: int = -1
    nms_eta: float = 1.0
    normalized: bool = True


def _iou(boxes: np.ndarray, normalized: bool) -> np.ndarray:
    """Pairwise IoU of [K, 4] boxes in float32 (x1, y1, x2, y2 as the reference reads them)."""
    b = boxes.astype(f32)
    extra = f32(0 if normalized else 1)
    area = (b[:, 3] - b[:, 1] + extra) * (b[:, 2] - b[:, 0] + extra)
    ih = np.maximum(np.minimum(b[:, None, 3], b[None, :, 3]) - np.maximum(b[:, None, 1], b[None, :, 1]) + extra,
                    f32(0))
    iw = np.maximum(np.minimum(b[:, None, 2], b[None, :, 2]) - np.maximum(b[:, None, 0], b[None, :, 0]) + extra,
                    f32(0))
    inter = ih * iw
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = inter / (area[:, None] + area[None, :] - inter)
    return np.where((area[:, None] > 0) & (area[None, :] > 0), iou, f32(0)).astype(f32)


def _class_nms(iou: np.ndarray, scores: np.ndarray, attrs: MulticlassNmsAttrs) -> list[tuple[int, float]]:
    cand = [(-float(s), i) for i, s in enumerate(scores.astype(f32)) if s >= f32(attrs.score_threshold)]
    cand.sort()
    if attrs.nms_top_k > -1:
        cand = cand[: attrs.nms_top_k]
    heap = [(s, i, 0) for s, i in cand]
    heapq.heapify(heap)
    threshold = f32(attrs.iou_threshold)
    chosen: list[tuple[int, float]] = []
    while heap:
        neg, box, since = heapq.heappop(heap)
        score = original = f32(-neg)
        suppressed = False
        for j in range(len(chosen) - 1, since - 1, -1):
            v = iou[box, chosen[j][0]]
            score = f32(score * (f32(1) if v <= threshold else f32(0)))
            if v >= threshold:
                suppressed = True
                break
            if score <= f32(attrs.score_threshold):
                break
        if suppressed:
            continue
        if attrs.nms_eta < 1 and threshold > 0.5:
            threshold = f32(threshold * f32(attrs.nms_eta))
        if score == original:
            chosen.append((box, float(score)))
        elif score > f32(attrs.score_threshold):
            heapq.heappush(heap, (-float(score), box, len(chosen)))
    return chosen


class _MulticlassNms(Op):
    types = ("MulticlassNms",)
    Attrs = MulticlassNmsAttrs

    def _check(self, attrs: MulticlassNmsAttrs) -> tuple[str, ElementType]:
        sort = attrs.sort_result_type.lower()
        if sort not in ("none", "score", "classid"):
            raise OpError(f"MulticlassNms: sort_result_type={attrs.sort_result_type!r} is not none, score or classid")
        et = element_type(attrs.output_type)
        if et not in (I32, I64):
            raise OpError(f"MulticlassNms: output_type={attrs.output_type!r} must be i32 or i64")
        if not 0 <= attrs.iou_threshold <= 1 or not 0 < attrs.nms_eta <= 1:
            raise OpError("MulticlassNms: iou_threshold must lie in [0, 1] and nms_eta in (0, 1]")
        return sort, et

    def infer(self, attrs: MulticlassNmsAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        _, et = self._check(attrs)
        boxes, scores = inputs[:2]
        for name, t in (("boxes", boxes), ("scores", scores)):
            if t.shape is not None and len(t.shape) not in ((3,) if name == "boxes" else (2, 3)):
                raise OpError(f"MulticlassNms: {name} {format_shape(t.shape)} has the wrong rank")
        shared = len(inputs) < 3
        if scores.shape is not None:
            shared = len(scores.shape) == 3
        if not shared and len(inputs) < 3:
            raise OpError("MulticlassNms: 2-D scores need the roisnum input")
        rows: Dim = DYNAMIC
        images = DYNAMIC
        if shared and boxes.shape is not None and scores.shape is not None:
            images, classes, count = scores.shape[0], scores.shape[1], boxes.shape[1]
            per_class = count if attrs.nms_top_k < 0 or count.hi is None else Dim(
                min(count.lo, attrs.nms_top_k), min(count.hi, attrs.nms_top_k))
            per_image = dim_mul(per_class, classes)
            if attrs.keep_top_k > -1 and per_image.hi is not None:
                per_image = Dim(min(per_image.lo, attrs.keep_top_k), min(per_image.hi, attrs.keep_top_k))
            total = dim_mul(per_image, images)
            rows = Dim(0, total.hi)
        elif not shared and len(inputs) > 2 and inputs[2].shape is not None:
            if len(inputs[2].shape) != 1:
                raise OpError(f"MulticlassNms: roisnum {format_shape(inputs[2].shape)} must be 1-D")
            images = inputs[2].shape[0]
        score_type = scores.etype or boxes.etype or F32
        return [TensorInfo(score_type, (rows, Dim.of(6))), TensorInfo(et, (rows, Dim.of(1))),
                TensorInfo(et, (images,))]

    def compute(self, attrs: MulticlassNmsAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        sort, et = self._check(attrs)
        boxes, scores = np.asarray(inputs[0]), np.asarray(inputs[1])
        shared = scores.ndim == 3
        rows: list[tuple[float, int, int, int, np.ndarray, int]] = []  # score, batch, class, box, coords, flat
        counts: list[int] = []
        if shared:
            images = [(boxes[b], scores[b], b, 0) for b in range(scores.shape[0])]
        else:
            if len(inputs) < 3:
                raise OpError("MulticlassNms: 2-D scores need the roisnum input")
            roisnum = np.asarray(inputs[2]).astype(np.int64).reshape(-1)
            if roisnum.sum() > scores.shape[1]:
                raise OpError(f"MulticlassNms: roisnum {roisnum.tolist()} needs more than {scores.shape[1]} boxes")
            starts = np.concatenate([[0], np.cumsum(roisnum)[:-1]])
            images = [(boxes[:, s:s + n], scores[:, s:s + n], b, int(s)) for b, (s, n) in enumerate(zip(starts,
                                                                                                          roisnum))]
        for img_boxes, img_scores, b, start in images:  # per image: classes one after another
            if img_scores.shape[-1] == 0:
                counts.append(0)
                continue
            picked: list[tuple[float, int, int, int, np.ndarray, int]] = []
            shared_iou = _iou(img_boxes, attrs.normalized) if shared else None
            for c in range(img_scores.shape[0]):
                if c == attrs.background_class:
                    continue
                coords = img_boxes if shared else img_boxes[c]
                iou = shared_iou if shared_iou is not None else _iou(coords, attrs.normalized)
                for box, score in _class_nms(iou, img_scores[c], attrs):
                    flat = b * boxes.shape[1] + box if shared else (start + box) * boxes.shape[0] + c
                    picked.append((score, b, c, box, coords[box], flat))
            picked.sort(key=lambda r: (-r[0], r[2], r[3]))
            if attrs.keep_top_k > -1:
                picked = picked[: attrs.keep_top_k]
            if not attrs.sort_result_across_batch and sort == "classid":
                picked.sort(key=lambda r: (r[2], -r[0], r[3]))
            counts.append(len(picked))
            rows += picked
        if attrs.sort_result_across_batch:
            if sort == "score":
                rows.sort(key=lambda r: (-r[0], r[1], r[2], r[3]))
            elif sort == "classid":
                rows.sort(key=lambda r: (r[2], r[1], -r[0], r[3]))
        out = np.array([[r[2], r[0], *r[4]] for r in rows], np.float64).reshape(-1, 6)
        index = np.array([r[5] for r in rows], np.int64).reshape(-1, 1)
        dtype = scores.dtype if scores.dtype.kind == "f" else np.float32
        return [out.astype(dtype), index.astype(et.dtype), np.array(counts, et.dtype)]


@register
class MulticlassNms8(_MulticlassNms):
    versions = ("opset8",)
    arity = (2, 2)


@register
class MulticlassNms9(_MulticlassNms):
    versions = ("opset9",)
    arity = (2, 3)
