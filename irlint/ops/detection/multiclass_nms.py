"""MulticlassNms-8/9: per-class greedy NMS for every image, then keep_top_k and sorting (PaddlePaddle).

Boxes are shared by the classes ([N, M, 4] boxes, [N, C, M] scores) or, in MulticlassNms-9, given
per class with a third input `roisnum` splitting [C, sum(M), 4] boxes into images. Per class (the
`background_class` skipped) candidates scoring >= `score_threshold` are ranked by score (lower
index first on ties), the best `nms_top_k` kept and suppressed greedily when IoU >= the
threshold (+1 pixel areas unless `normalized`; the threshold shrinks by `nms_eta` while above
0.5 after each kept box). Per image the kept boxes are ordered by score (then class, index),
cut to `keep_top_k`, reordered by class with `sort_result_type="classid"`, and optionally sorted
across the batch. Outputs rows (class, score, x1, y1, x2, y2), their flattened box indices and the
per-image counts; the row count depends on the data. As in OpenVINO's reference.
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
class MulticlassNmsAttrs:
    sort_result_type: str = "none"
    sort_result_across_batch: bool = False
    output_type: str = "i64"
    iou_threshold: float = 0.0
    score_threshold: float = 0.0
    nms_top_k: int = -1
    keep_top_k: int = -1
    background_class: int = -1
    normalized: bool = True
    nms_eta: float = 1.0


def _iou(a: np.ndarray, b: np.ndarray, normalized: bool) -> f32:
    n = f32(0 if normalized else 1)
    area_a = (a[3] - a[1] + n) * (a[2] - a[0] + n)
    area_b = (b[3] - b[1] + n) * (b[2] - b[0] + n)
    if area_a <= 0 or area_b <= 0:
        return f32(0)
    inter = max(min(a[3], b[3]) - max(a[1], b[1]) + n, f32(0)) * max(min(a[2], b[2]) - max(a[0], b[0]) + n, f32(0))
    return inter / (area_a + area_b - inter)


def _nms_class(boxes: np.ndarray, scores: np.ndarray, attrs: MulticlassNmsAttrs) -> list[int]:
    cand = [i for i in range(len(scores)) if scores[i] >= f32(attrs.score_threshold)]
    cand.sort(key=lambda i: (-scores[i], i))
    if attrs.nms_top_k > -1:
        cand = cand[: attrs.nms_top_k]
    thr = f32(attrs.iou_threshold)
    kept: list[int] = []
    for i in cand:
        if any(_iou(boxes[i], boxes[k], attrs.normalized) >= thr for k in kept):
            continue
        kept.append(i)
        if attrs.nms_eta < 1 and thr > 0.5:
            thr = f32(thr * f32(attrs.nms_eta))
    return kept


def _image(boxes_per_class, scores: np.ndarray, attrs: MulticlassNmsAttrs, image: int) -> list[tuple]:
    """Selected (image, class, score, index, box) of one image in the per-image order."""
    found = []
    for c in range(scores.shape[0]):
        if c == attrs.background_class:
            continue
        boxes = boxes_per_class(c)
        for i in _nms_class(boxes, scores[c], attrs):
            found.append((image, c, scores[c, i], i, boxes[i]))
    found.sort(key=lambda t: (-t[2], t[1], t[3]))
    if attrs.keep_top_k > -1:
        found = found[: attrs.keep_top_k]
    if not attrs.sort_result_across_batch and attrs.sort_result_type == "classid":
        found.sort(key=lambda t: (t[1], -t[2], t[3]))
    return found


class _MulticlassNms(Op):
    Attrs = MulticlassNmsAttrs
    arity = (2, 2)
    infer_reads_values = False

    def infer(self, attrs: MulticlassNmsAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = "MulticlassNms"
        if attrs.sort_result_type not in ("score", "classid", "none"):
            raise OpError(f"{op}: sort_result_type must be score, classid or none, got {attrs.sort_result_type!r}")
        out_type = element_type(attrs.output_type)
        if out_type is None or out_type.name not in ("i32", "i64"):
            raise OpError(f"{op}: output_type must be i32 or i64, got {attrs.output_type!r}")
        if not 0 < attrs.nms_eta <= 1:
            raise OpError(f"{op}: nms_eta must be in (0, 1], got {attrs.nms_eta}")
        boxes, scores = inputs[0], inputs[1]
        shared = scores.shape is None or len(scores.shape) == 3
        if len(inputs) == 2 and scores.shape is not None and len(scores.shape) != 3:
            raise OpError(f"{op}: without roisnum, scores must be 3-D [N, C, M], got rank {len(scores.shape)}")
        if boxes.shape is not None and len(boxes.shape) != 3:
            raise OpError(f"{op}: boxes must be 3-D, got rank {len(boxes.shape)}")
        if shared:
            batch = boxes.shape[0] if boxes.shape is not None else (scores.shape[0] if scores.shape else DYNAMIC)
        else:
            batch = inputs[2].shape[0] if inputs[2].shape is not None else DYNAMIC
        et = boxes.etype or scores.etype
        return [TensorInfo(et, (DYNAMIC, Dim.of(6))), TensorInfo(out_type, (DYNAMIC, Dim.of(1))),
                TensorInfo(out_type, (batch,))]

    def compute(self, attrs: MulticlassNmsAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        *_, num_info = self.infer(attrs, [TensorInfo(None, tuple(Dim.of(d) for d in np.shape(a))) for a in inputs])
        boxes, scores = np.asarray(inputs[0]).astype(f32), np.asarray(inputs[1]).astype(f32)
        rows: list[tuple] = []
        counts: list[int] = []
        offsets: list[int] = []
        if scores.ndim == 3:
            if boxes.shape[0] != scores.shape[0] or boxes.shape[1] != scores.shape[2]:
                raise OpError(f"MulticlassNms: boxes {list(boxes.shape)} do not match scores {list(scores.shape)}")
            for n in range(scores.shape[0]):
                sel = _image(lambda c, n=n: boxes[n], scores[n], attrs, n)
                rows += sel
                counts.append(len(sel))
        else:
            roisnum = [int(v) for v in np.asarray(inputs[2]).reshape(-1)]
            if sum(roisnum) > boxes.shape[1] or any(v < 0 for v in roisnum):
                raise OpError(f"MulticlassNms: roisnum {roisnum} does not split {boxes.shape[1]} boxes")
            head = 0
            for n, k in enumerate(roisnum):
                offsets.append(head)
                if k <= 0:
                    counts.append(0)
                    continue
                sub_b, sub_s = boxes[:, head:head + k], scores[:, head:head + k]
                sel = _image(lambda c, b=sub_b: b[c], sub_s, attrs, n)
                rows += sel
                counts.append(len(sel))
                head += k
        if attrs.sort_result_across_batch:
            if attrs.sort_result_type == "score":
                rows.sort(key=lambda t: (-t[2], t[0], t[1], t[3]))
            elif attrs.sort_result_type == "classid":
                rows.sort(key=lambda t: (t[1], t[0], -t[2], t[3]))
        out = np.array([[c, s, *b] for _, c, s, _, b in rows], f32).reshape(-1, 6)
        if scores.ndim == 3:
            idx = [n * boxes.shape[1] + i for n, _, _, i, _ in rows]
        else:
            idx = [(offsets[n] + i) * boxes.shape[0] + c for n, c, _, i, _ in rows]
        dtype = num_info.etype.dtype
        return [out.astype(np.asarray(inputs[0]).dtype), np.array(idx, dtype).reshape(-1, 1),
                np.array(counts, dtype)]


@register
class MulticlassNms8(_MulticlassNms):
    types = ("MulticlassNms",)
    versions = ("opset8",)


@register
class MulticlassNms9(_MulticlassNms):
    types = ("MulticlassNms",)
    versions = ("opset9",)
    arity = (2, 3)
