"""NonMaxSuppression-1/3/4/5/9: greedy per batch and class, with Soft-NMS for v5/v9.

Follows the reference kernel: boxes are normalised to (ymin, xmin, ymax, xmax) (or converted from
`center`); candidates score strictly above score_threshold; the best remaining candidate is
compared with the boxes selected since it was last looked at, in float32; v5 drops it at
IoU >= iou_threshold and zeroes its score above the threshold, v9 (and v1/v3/v4) drop at
IoU > iou_threshold unless Soft-NMS is on; a candidate whose score decayed goes back into the
queue. With `sort_result_descending` the selections of all batches and classes are ordered by
score, then batch, class and box. v1/v3/v4 write a static [bound, 3] output padded with -1;
v5/v9 write exactly the selected rows, their scores and the count.

The greedy loop is sequential by nature (each choice depends on the previous ones); IoUs are
computed as one vectorised matrix per batch.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.axes import scalar_value
from irlint.ops.movement.dims import merge
from irlint.ops.registry import register
from irlint.types import F32, I32, I64, Dim, ElementType, element_type, format_shape

f32 = np.float32


@dataclass(frozen=True)
class NMSAttrs:
    box_encoding: str = "corner"
    sort_result_descending: bool = True
    output_type: str = "i64"


def _boxes(boxes: np.ndarray, encoding: str) -> np.ndarray:
    b = boxes.astype(f32)
    if encoding == "center":
        xc, yc, w, h = b[..., 0], b[..., 1], b[..., 2], b[..., 3]
        return np.stack([yc - h / f32(2), xc - w / f32(2), yc + h / f32(2), xc + w / f32(2)], axis=-1)
    return np.stack([np.minimum(b[..., 0], b[..., 2]), np.minimum(b[..., 1], b[..., 3]),
                     np.maximum(b[..., 0], b[..., 2]), np.maximum(b[..., 1], b[..., 3])], axis=-1)


def iou_matrix(b: np.ndarray) -> np.ndarray:
    """IoU of every pair of [K, 4] boxes, in float32 as the reference computes it."""
    area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    ymin = np.maximum(b[:, None, 0], b[None, :, 0])
    xmin = np.maximum(b[:, None, 1], b[None, :, 1])
    ymax = np.minimum(b[:, None, 2], b[None, :, 2])
    xmax = np.minimum(b[:, None, 3], b[None, :, 3])
    inter = np.maximum(ymax - ymin, f32(0)) * np.maximum(xmax - xmin, f32(0))
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = inter / (area[:, None] + area[None, :] - inter)
    positive = (area[:, None] > 0) & (area[None, :] > 0)
    return np.where(positive, iou, f32(0)).astype(f32)


def select(iou: np.ndarray, scores: np.ndarray, limit: int, iou_thr: f32, score_thr: f32, sigma: f32,
           v5: bool) -> list[tuple[int, f32]]:
    """(box, score) chosen for one batch and class, in selection order."""
    scale = f32(-0.5) / sigma if sigma > 0 else f32(0)
    soft = sigma > 0
    heap = [(-s, int(i), 0) for i, s in enumerate(scores) if s > score_thr]
    heapq.heapify(heap)
    chosen: list[tuple[int, f32]] = []
    while heap and len(chosen) < limit:
        neg, box, since = heapq.heappop(heap)
        score = original = f32(-neg)
        suppressed = False
        for j in range(len(chosen) - 1, since - 1, -1):
            v = iou[box, chosen[j][0]]
            weight = f32(np.exp(scale * v * v))
            if v5:
                score = f32(score * (weight if v <= iou_thr else f32(0)))
                if v >= iou_thr:
                    suppressed = True
                    break
            else:
                score = f32(score * (weight if soft or v <= iou_thr else f32(0)))
                if v > iou_thr and not soft:
                    suppressed = True
                    break
            if score <= score_thr:
                break
        if suppressed:
            continue
        if score == original:
            chosen.append((box, score))
        elif score > score_thr:
            heapq.heappush(heap, (-score, box, len(chosen)))
    return chosen


class _NMS(Op):
    types = ("NonMaxSuppression",)
    Attrs = NMSAttrs
    arity = (2, 6)
    v5_rules = False
    dynamic_output = False
    max_inputs = 5

    @staticmethod
    def bound(boxes: int, classes: int, batches: int, limit: int) -> int:
        """Rows of the static output (v4 and later: every batch and class may select `limit` boxes)."""
        return min(boxes, max(limit, 0)) * classes * batches

    def _attrs(self, attrs: NMSAttrs) -> tuple[str, ElementType]:
        encoding = attrs.box_encoding.lower()
        if encoding not in ("corner", "center"):
            raise OpError(f"NonMaxSuppression: box_encoding={attrs.box_encoding!r} is not corner or center")
        et = element_type(attrs.output_type)
        if et not in (I32, I64):
            raise OpError(f"NonMaxSuppression: output_type={attrs.output_type!r} must be i32 or i64")
        return encoding, et

    def infer(self, attrs: NMSAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = "NonMaxSuppression"
        _, index_type = self._attrs(attrs)
        if len(inputs) > self.max_inputs:
            raise OpError(f"{op}: this version takes at most {self.max_inputs} inputs, got {len(inputs)}")
        boxes, scores = inputs[:2]
        if boxes.shape is not None and (len(boxes.shape) != 3 or merge(boxes.shape[2], Dim.of(4)) is None):
            raise OpError(f"{op}: boxes {format_shape(boxes.shape)} must be [batches, boxes, 4]")
        if scores.shape is not None and len(scores.shape) != 3:
            raise OpError(f"{op}: scores {format_shape(scores.shape)} must be [batches, classes, boxes]")
        limit = scalar_value(inputs[2]) if len(inputs) > 2 else 0
        bound: int | None = None
        if boxes.shape is not None and scores.shape is not None:
            if merge(boxes.shape[0], scores.shape[0]) is None or merge(boxes.shape[1], scores.shape[2]) is None:
                raise OpError(f"{op}: boxes {format_shape(boxes.shape)} and scores {format_shape(scores.shape)} "
                              "disagree on batches or boxes")
            n_boxes, n_classes, n_batches = boxes.shape[1].hi, scores.shape[1].hi, scores.shape[0].hi
            if limit is not None and None not in (n_boxes, n_classes, n_batches):
                bound = self.bound(n_boxes, n_classes, n_batches, limit)  # type: ignore[arg-type]
        if self.dynamic_output:
            rows = Dim(0, bound)
            score_type = scores.etype or F32
            return [TensorInfo(index_type, (rows, Dim.of(3))), TensorInfo(score_type, (rows, Dim.of(3))),
                    TensorInfo(index_type, (Dim.of(1),))]
        return [TensorInfo(index_type, (Dim(0, None) if bound is None else Dim.of(bound), Dim.of(3)))]

    def compute(self, attrs: NMSAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        encoding, index_type = self._attrs(attrs)
        boxes, scores = np.asarray(inputs[0]), np.asarray(inputs[1])

        def scalar(i: int, default: float) -> float:
            return float(np.asarray(inputs[i]).reshape(-1)[0]) if len(inputs) > i else default

        limit = int(scalar(2, 0))
        iou_thr, score_thr, sigma = f32(scalar(3, 0.0)), f32(scalar(4, 0.0)), f32(scalar(5, 0.0))
        n_batches, n_classes, n_boxes = scores.shape
        if boxes.shape != (n_batches, n_boxes, 4):
            raise OpError(f"NonMaxSuppression: boxes {list(boxes.shape)} do not match scores {list(scores.shape)}")
        rows: list[tuple[int, int, int, f32]] = []
        for b in range(n_batches):
            iou = iou_matrix(_boxes(boxes[b], encoding))
            for c in range(n_classes):
                for box, score in select(iou, scores[b, c].astype(f32), max(limit, 0), iou_thr, score_thr, sigma,
                                         self.v5_rules):
                    rows.append((b, c, box, score))
        if attrs.sort_result_descending:
            rows.sort(key=lambda r: (-r[3], r[0], r[1], r[2]))
        indices = np.array([r[:3] for r in rows], np.int64).reshape(-1, 3)
        if not self.dynamic_output:
            bound = self.bound(n_boxes, n_classes, n_batches, limit)
            padded = np.full((bound, 3), -1, np.int64)
            padded[: len(indices)] = indices[:bound]
            return [padded.astype(index_type.dtype)]
        score_rows = np.array([(r[0], r[1], r[3]) for r in rows], np.float64).reshape(-1, 3)
        return [indices.astype(index_type.dtype), score_rows.astype(scores.dtype),
                np.array([len(rows)], index_type.dtype)]


@register
class NonMaxSuppression1(_NMS):
    """NonMaxSuppression-1 and -3 declare min(boxes, limit * classes) rows (the batch is not counted)."""

    versions = ("opset1", "opset3")

    @staticmethod
    def bound(boxes: int, classes: int, batches: int, limit: int) -> int:
        return min(boxes, max(limit, 0) * classes)


@register
class NonMaxSuppression4(_NMS):
    versions = ("opset4",)


@register
class NonMaxSuppression5(_NMS):
    versions = ("opset5",)
    v5_rules = True
    dynamic_output = True
    max_inputs = 6


@register
class NonMaxSuppression9(_NMS):
    versions = ("opset9",)
    dynamic_output = True
    max_inputs = 6
