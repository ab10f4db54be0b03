"""MatrixNms-8: Matrix NMS (SOLOv2) — scores decayed by overlaps instead of boxes removed.

Per image and class (the `background_class` skipped) candidates scoring above `score_threshold`
are ranked by score and cut to `nms_top_k`; a box's score is multiplied by the smallest decay over
the better boxes j: (1 - iou) / (1 - max_iou_j) ("linear") or exp((max_iou_j² - iou²) * sigma)
("gaussian"), where max_iou_j is box j's largest IoU with the boxes above it; boxes whose decayed
score is not above `post_threshold` are dropped. Per image the results are ordered by decayed
score (then class, index) and cut to `keep_top_k`, then optionally sorted across the batch.
Outputs rows (class, score, x1, y1, x2, y2), flattened box indices and per-image counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim, element_type

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


def _area(b: np.ndarray, normalized: bool) -> f32:
    if b[2] < b[0] or b[3] < b[1]:
        return f32(0)
    w, h = b[2] - b[0], b[3] - b[1]
    return w * h if normalized else (w + f32(1)) * (h + f32(1))


def _iou(a: np.ndarray, b: np.ndarray, normalized: bool) -> f32:
    if b[0] > a[2] or b[2] < a[0] or b[1] > a[3] or b[3] < a[1]:
        return f32(0)
    n = f32(0 if normalized else 1)
    inter = (min(a[2], b[2]) - max(a[0], b[0]) + n) * (min(a[3], b[3]) - max(a[1], b[1]) + n)
    return inter / (_area(a, normalized) + _area(b, normalized) - inter)


def _matrix_class(boxes: np.ndarray, scores: np.ndarray, attrs: MatrixNmsAttrs) -> list[tuple[int, f32]]:
    cand = [i for i in range(len(scores)) if scores[i] > f32(attrs.score_threshold)]
    if not cand:
        return []
    cand.sort(key=lambda i: (-scores[i], i))
    if attrs.nms_top_k > -1:
        cand = cand[: attrs.nms_top_k]
    k = len(cand)
    iou = np.zeros((k, k), f32)
    for i in range(1, k):
        for j in range(i):
            iou[i, j] = _iou(boxes[cand[i]], boxes[cand[j]], attrs.normalized)
    max_iou = np.array([iou[i, :i].max() if i else f32(0) for i in range(k)], f32)
    post = f32(attrs.post_threshold)
    out = []
    if scores[cand[0]] > post:
        out.append((cand[0], scores[cand[0]]))
    sigma = f32(attrs.gaussian_sigma)
    for i in range(1, k):
        decay = f32(1)
        for j in range(i):
            if attrs.decay_function == "gaussian":
                d = f32(np.exp((max_iou[j] * max_iou[j] - iou[i, j] * iou[i, j]) * sigma))
            else:
                d = f32((f32(1) - iou[i, j]) / (f32(1) - max_iou[j] + f32(1e-10)))
            decay = min(decay, d)
        ds = decay * scores[cand[i]]
        if ds > post:
            out.append((cand[i], ds))
    return out


@register
class MatrixNms(Op):
    types = ("MatrixNms",)
    versions = ("opset8",)
    Attrs = MatrixNmsAttrs
    arity = (2, 2)
    infer_reads_values = False

    def infer(self, attrs: MatrixNmsAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        if attrs.sort_result_type not in ("score", "classid", "none"):
            raise OpError(f"MatrixNms: sort_result_type must be score, classid or none, got {attrs.sort_result_type!r}")
        if attrs.decay_function not in ("linear", "gaussian"):
            raise OpError(f"MatrixNms: decay_function must be linear or gaussian, got {attrs.decay_function!r}")
        out_type = element_type(attrs.output_type)
        if out_type is None or out_type.name not in ("i32", "i64"):
            raise OpError(f"MatrixNms: output_type must be i32 or i64, got {attrs.output_type!r}")
        boxes, scores = inputs
        if boxes.shape is not None and (len(boxes.shape) != 3 or (boxes.shape[2].is_static and boxes.shape[2].lo != 4)):
            raise OpError("MatrixNms: boxes must be [N, M, 4]")
        if scores.shape is not None and len(scores.shape) != 3:
            raise OpError(f"MatrixNms: scores must be 3-D [N, C, M], got rank {len(scores.shape)}")
        batch = boxes.shape[0] if boxes.shape is not None else (scores.shape[0] if scores.shape else DYNAMIC)
        et = boxes.etype or scores.etype
        return [TensorInfo(et, (DYNAMIC, Dim.of(6))), TensorInfo(out_type, (DYNAMIC, Dim.of(1))),
                TensorInfo(out_type, (batch,))]

    def compute(self, attrs: MatrixNmsAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        *_, num_info = self.infer(attrs, [TensorInfo(None, tuple(Dim.of(d) for d in np.shape(a))) for a in inputs])
        boxes, scores = np.asarray(inputs[0]).astype(f32), np.asarray(inputs[1]).astype(f32)
        n_img, n_cls, n_box = scores.shape
        if boxes.shape[:2] != (n_img, n_box):
            raise OpError(f"MatrixNms: boxes {list(boxes.shape)} do not match scores {list(scores.shape)}")
        rows: list[tuple] = []
        counts = []
        for n in range(n_img):
            found = []
            for c in range(n_cls):
                if c == attrs.background_class:
                    continue
                found += [(n, c, s, i) for i, s in _matrix_class(boxes[n], scores[n, c], attrs)]
            found.sort(key=lambda t: (-t[2], t[1], t[3]))
            if attrs.keep_top_k > -1:
                found = found[: attrs.keep_top_k]
            rows += found
            counts.append(len(found))
        if attrs.sort_result_across_batch:
            if attrs.sort_result_type == "score":
                rows.sort(key=lambda t: (-t[2], t[0], t[1], t[3]))
            elif attrs.sort_result_type == "classid":
                rows.sort(key=lambda t: (t[1], t[0], -t[2], t[3]))
        out = np.array([[c, s, *boxes[n, i]] for n, c, s, i in rows], f32).reshape(-1, 6)
        dtype = num_info.etype.dtype
        idx = np.array([n * n_box + i for n, _, _, i in rows], dtype).reshape(-1, 1)
        return [out.astype(np.asarray(inputs[0]).dtype), idx, np.array(counts, dtype)]
