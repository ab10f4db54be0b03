"""MatrixNms-8: soft suppression by the IoU matrix of each class's sorted candidates (SOLOv2's).

As the reference kernel: candidates score strictly above score_threshold (at most nms_top_k, best
first); candidate i's score is multiplied by the smallest decay over the better candidates j,
decay = exp((max_iou_j^2 - iou_ij^2) * gaussian_sigma) or (1 - iou_ij) / (1 - max_iou_j), where
max_iou_j is j's largest IoU with a better candidate; it stays if the decayed score is above
post_threshold. Per image the detections are ordered by score (ties: class, box) and cut to
keep_top_k; `sort_result_across_batch` reorders all images by score or class. An image without any
detection ends the processing of the batch, as in the reference kernel. The decay is one matrix
expression per class.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.dims import dim_mul
from irlint.ops.registry import register
from irlint.types import DYNAMIC, F32, I32, I64, Dim, ElementType, element_type, format_shape

f32 = np.float32


@dataclass(frozen=True)
class MatrixNmsAttrs:
    sort_result_type: str = "none"
    sort_result_across_batch: bool = False
    output_type: str = "i64"
    score_threshold: float = 0.0
    nms_top_k: int = -1
    keep_top_k: int = -1
    background_class: int = -1
    decay_function: str = "linear"
    gaussian_sigma: float = 2.0
    post_threshold: float = 0.0
    normalized: bool = True


def _iou(b: np.ndarray, normalized: bool) -> np.ndarray:
    extra = f32(0 if normalized else 1)
    valid = (b[:, 2] >= b[:, 0]) & (b[:, 3] >= b[:, 1])
    area = np.where(valid, (b[:, 2] - b[:, 0] + extra) * (b[:, 3] - b[:, 1] + extra), f32(0))
    apart = ((b[None, :, 0] > b[:, None, 2]) | (b[None, :, 2] < b[:, None, 0]) | (b[None, :, 1] > b[:, None, 3])
             | (b[None, :, 3] < b[:, None, 1]))
    iw = np.minimum(b[:, None, 2], b[None, :, 2]) - np.maximum(b[:, None, 0], b[None, :, 0]) + extra
    ih = np.minimum(b[:, None, 3], b[None, :, 3]) - np.maximum(b[:, None, 1], b[None, :, 1]) + extra
    inter = iw * ih
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = inter / (area[:, None] + area[None, :] - inter)
    return np.where(apart, f32(0), iou).astype(f32)


def matrix_decay(boxes: np.ndarray, scores: np.ndarray, attrs: MatrixNmsAttrs) -> list[tuple[int, float]]:
    """(box, decayed score) kept for one class, best first."""
    s = scores.astype(f32)
    cand = np.nonzero(s > f32(attrs.score_threshold))[0]
    if not len(cand):
        return []
    cand = cand[np.argsort(-s[cand], kind="stable")]
    if attrs.nms_top_k > -1:
        cand = cand[: attrs.nms_top_k]
    iou = _iou(boxes[cand].astype(f32), attrs.normalized)
    lower = np.tril(np.ones((len(cand), len(cand)), bool), k=-1)
    low_iou = np.where(lower, iou, f32(0))
    iou_max = low_iou.max(axis=1)
    if attrs.decay_function.lower() == "gaussian":
        decay = np.exp((iou_max[None, :] ** 2 - low_iou ** 2) * f32(attrs.gaussian_sigma))
    else:
        decay = (f32(1) - low_iou) / (f32(1) - iou_max[None, :] + f32(1e-10))
    min_decay = np.where(lower, decay, f32(1)).min(axis=1).astype(f32)
    decayed = (min_decay * s[cand]).astype(f32)
    decayed[0] = s[cand[0]]
    keep = decayed > f32(attrs.post_threshold)
    return [(int(b), float(v)) for b, v, k in zip(cand, decayed, keep) if k]


@register
class MatrixNms(Op):
    types = ("MatrixNms",)
    versions = ("opset8",)
    Attrs = MatrixNmsAttrs
    arity = (2, 2)
    infer_reads_values = False

    def _check(self, attrs: MatrixNmsAttrs) -> tuple[str, ElementType]:
        sort = attrs.sort_result_type.lower()
        if sort not in ("none", "score", "classid"):
            raise OpError(f"MatrixNms: sort_result_type={attrs.sort_result_type!r} is not none, score or classid")
        if attrs.decay_function.lower() not in ("linear", "gaussian"):
            raise OpError(f"MatrixNms: decay_function={attrs.decay_function!r} is not linear or gaussian")
        et = element_type(attrs.output_type)
        if et not in (I32, I64):
            raise OpError(f"MatrixNms: output_type={attrs.output_type!r} must be i32 or i64")
        return sort, et

    def infer(self, attrs: MatrixNmsAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        _, et = self._check(attrs)
        boxes, scores = inputs
        for name, t in (("boxes", boxes), ("scores", scores)):
            if t.shape is not None and len(t.shape) != 3:
                raise OpError(f"MatrixNms: {name} {format_shape(t.shape)} must be 3-D")
        rows, images = DYNAMIC, DYNAMIC
        if scores.shape is not None:
            images = scores.shape[0]
        if boxes.shape is not None and scores.shape is not None:
            count = boxes.shape[1]
            per_class = count if attrs.nms_top_k < 0 or count.hi is None else Dim(
                min(count.lo, attrs.nms_top_k), min(count.hi, attrs.nms_top_k))
            per_image = dim_mul(per_class, scores.shape[1])
            if attrs.keep_top_k > -1 and per_image.hi is not None:
                per_image = Dim(min(per_image.lo, attrs.keep_top_k), min(per_image.hi, attrs.keep_top_k))
            rows = Dim(0, dim_mul(per_image, images).hi)
        return [TensorInfo(scores.etype or F32, (rows, Dim.of(6))), TensorInfo(et, (rows, Dim.of(1))),
                TensorInfo(et, (images,))]

    def compute(self, attrs: MatrixNmsAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        sort, et = self._check(attrs)
        boxes, scores = np.asarray(inputs[0]), np.asarray(inputs[1])
        n, classes, count = scores.shape
        if boxes.shape != (n, count, 4):
            raise OpError(f"MatrixNms: boxes {list(boxes.shape)} do not match scores {list(scores.shape)}")
        rows: list[tuple[float, int, int, int]] = []  # score, batch, class, box
        counts = np.zeros(n, np.int64)
        for b in range(n):  # per image, per class: one matrix expression each
            found = [(score, b, c, box) for c in range(classes) if c != attrs.background_class
                     for box, score in matrix_decay(boxes[b], scores[b, c], attrs)]
            if not found:
                break  # as the reference kernel: the remaining images are not processed
            found.sort(key=lambda r: (-r[0], r[2], r[3]))
            if attrs.keep_top_k > -1:
                found = found[: attrs.keep_top_k]
            counts[b] = len(found)
            rows += found
        if attrs.sort_result_across_batch:
            if sort == "score":
                rows.sort(key=lambda r: (-r[0], r[1], r[2], r[3]))
            elif sort == "classid":
                rows.sort(key=lambda r: (r[2], r[1], -r[0], r[3]))
        out = np.array([[c, s, *boxes[b, box]] for s, b, c, box in rows], np.float64).reshape(-1, 6)
        index = np.array([b * count + box for _, b, _, box in rows], np.int64).reshape(-1, 1)
        dtype = scores.dtype if scores.dtype.kind == "f" else np.float32
        return [out.astype(dtype), index.astype(et.dtype), counts.astype(et.dtype)]
