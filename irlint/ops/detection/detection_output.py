"""DetectionOutput-1/8: SSD post-processing — decode boxes against priors, per-class NMS, keep top k.

Inputs: box logits [N, priors * loc_classes * 4], class scores [N, priors * classes], priors
[1 or N, 1 or 2, priors * (4 or 5)] (boxes, then variances unless `variance_encoded_in_target`),
and optionally the ARM (RefineDet) objectness [N, priors * 2] and box logits [N, priors * 4].
Output [1, 1, detections, 7] rows (image, label, score, xmin, ymin, xmax, ymax), -1 as the image
of the first unused row. The steps, tie-breaks (equal scores: lower prior index first) and order
(image, then label ascending, then score descending) follow OpenVINO's reference, in float32;
opset8 takes the class count from the shapes instead of `num_classes`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.math.elementwise import same_etype
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim

f32 = np.float32
CORNER = "caffe.PriorBoxParameter.CORNER"
CENTER_SIZE = "caffe.PriorBoxParameter.CENTER_SIZE"


@dataclass(frozen=True)
class DetectionOutputAttrs:
    keep_top_k: tuple[int, ...]
    nms_threshold: float
    num_classes: int = -1
    background_label_id: int = 0
    top_k: int = -1
    variance_encoded_in_target: bool = False
    code_type: str = CORNER
    share_location: bool = True
    confidence_threshold: float = 0.0
    clip_after_nms: bool = False
    clip_before_nms: bool = False
    decrease_label_id: bool = False
    normalized: bool = False
    input_height: int = 1
    input_width: int = 1
    objectness_score: float = 0.0


def _area(b: np.ndarray) -> f32:
    if b[2] < b[0] or b[3] < b[1]:
        return f32(0)
    return (b[2] - b[0]) * (b[3] - b[1])


def _iou(a: np.ndarray, b: np.ndarray) -> f32:
    if b[0] > a[2] or b[2] < a[0] or b[1] > a[3] or b[3] < a[1]:
        return f32(0)
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w > 0 and h > 0:
        inter = w * h
        return inter / (_area(a) + _area(b) - inter)
    return f32(0)


class _DetectionOutput(Op):
    arity = (3, 5)

    def _classes(self, attrs: DetectionOutputAttrs, priors: int | None, conf_len: int | None) -> int | None:
        return attrs.num_classes

    def infer(self, attrs: DetectionOutputAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        if attrs.code_type not in (CORNER, CENTER_SIZE):
            raise OpError(f"DetectionOutput: code_type {attrs.code_type!r} is not {CORNER} or {CENTER_SIZE}")
        if not attrs.keep_top_k:
            raise OpError("DetectionOutput: keep_top_k needs a value")
        if len(inputs) == 4:
            raise OpError("DetectionOutput: the ARM inputs come as a pair (objectness and box logits)")
        etype = same_etype("DetectionOutput", inputs)
        loc, conf, priors = inputs[:3]
        for name, info, rank in (("box_logits", loc, 2), ("class_preds", conf, 2), ("proposals", priors, 3)):
            if info.shape is not None and len(info.shape) != rank:
                raise OpError(f"DetectionOutput: {name} must have rank {rank}, got {len(info.shape)}")
        batch = loc.shape[0] if loc.shape is not None else (conf.shape[0] if conf.shape is not None else DYNAMIC)
        prior_size = 4 if attrs.normalized else 5
        num_priors = None
        if priors.shape is not None and priors.shape[2].is_static:
            if priors.shape[2].lo % prior_size:
                raise OpError(f"DetectionOutput: proposals' last dim {priors.shape[2].lo} is not a multiple of "
                              f"{prior_size}")
            num_priors = priors.shape[2].lo // prior_size
        conf_len = conf.shape[1].value if conf.shape is not None else None
        classes = self._classes(attrs, num_priors, conf_len)
        if attrs.keep_top_k[0] > 0:
            per_image = Dim.of(attrs.keep_top_k[0])
        elif classes is None or (attrs.top_k <= 0 and num_priors is None):
            per_image = DYNAMIC
        else:
            per_image = Dim.of(classes * (attrs.top_k if attrs.top_k > 0 else num_priors))
        if batch == DYNAMIC or per_image == DYNAMIC:
            n = DYNAMIC
        else:
            n = Dim(batch.lo * per_image.lo, None if batch.hi is None else batch.hi * per_image.lo)
        return [TensorInfo(etype or loc.etype, (Dim.of(1), Dim.of(1), n, Dim.of(7)))]

    def compute(self, attrs: DetectionOutputAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        loc, conf, priors = (np.asarray(a) for a in inputs[:3])
        (out_info,) = self.infer(attrs, [TensorInfo(None, tuple(Dim.of(d) for d in a.shape)) for a in inputs])
        rows = out_info.shape[2].lo
        arm = len(inputs) == 5
        images = loc.shape[0]
        prior_size, offset = (4, 0) if attrs.normalized else (5, 1)
        num_priors = priors.shape[2] // prior_size
        classes = self._classes(attrs, num_priors, conf.shape[1])
        loc_classes = 1 if attrs.share_location else classes
        if loc.shape[1] != num_priors * loc_classes * 4 or conf.shape[1] != num_priors * classes:
            raise OpError(f"DetectionOutput: {num_priors} priors and {classes} classes need box_logits of "
                          f"{num_priors * loc_classes * 4} and class_preds of {num_priors * classes} per image")
        loc = loc.astype(f32).reshape(images, num_priors, loc_classes, 4)
        scores = conf.astype(f32).reshape(images, num_priors, classes).copy()
        if arm:
            arm_conf = np.asarray(inputs[3]).astype(f32).reshape(images, num_priors, 2)
            arm_loc = np.asarray(inputs[4]).astype(f32).reshape(images, num_priors, loc_classes, 4)
            low = arm_conf[:, :, 1] < f32(attrs.objectness_score)
            background = np.zeros(classes, f32)
            if 0 <= attrs.background_label_id < classes:
                background[attrs.background_label_id] = 1
            scores[low] = background
        pri = priors.astype(f32)
        out = np.zeros((1, 1, rows, 7), f32)
        count = 0
        for i in range(images):
            p_i = 0 if pri.shape[0] == 1 else i
            boxes_p = pri[p_i, 0].reshape(num_priors, prior_size)[:, offset:offset + 4]
            # Variances are read four per prior even when boxes take five values (as OpenVINO does).
            var = None if attrs.variance_encoded_in_target else pri[p_i, 1, :num_priors * 4].reshape(num_priors, 4)
            decoded: dict[int, np.ndarray] = {}
            for c in range(loc_classes):
                label = -1 if attrs.share_location else c
                if attrs.background_label_id > -1 and label == attrs.background_label_id:
                    continue
                base = boxes_p
                if arm:
                    base = self._decode(attrs, boxes_p, var, arm_loc[i, :, c])
                decoded[label] = self._decode(attrs, base, var, loc[i, :, c])
            indices = self._nms(attrs, decoded, scores[i], classes)
            total = sum(len(v) for v in indices.values())
            if attrs.keep_top_k[0] > -1 and total > attrs.keep_top_k[0]:
                pairs = [(scores[i, idx, label], label, idx) for label, idxs in indices.items() for idx in idxs]
                pairs.sort(key=lambda t: (-t[0], t[2]))
                indices = {}
                for _, label, idx in pairs[: attrs.keep_top_k[0]]:
                    indices.setdefault(label, []).append(idx)
            for label in sorted(indices):
                bboxes = decoded.get(-1 if attrs.share_location else label)
                if bboxes is None:
                    continue
                for idx in indices[label]:
                    b = bboxes[idx]
                    if attrs.clip_after_nms:
                        b = np.clip(b, f32(0), f32(1))
                    out[0, 0, count] = [i, label - 1 if attrs.decrease_label_id else label, scores[i, idx, label], *b]
                    count += 1
        if count < rows:
            out[0, 0, count, 0] = -1
        return [out.astype(loc.dtype)]

    @staticmethod
    def _decode(attrs: DetectionOutputAttrs, prior: np.ndarray, var: np.ndarray | None, pred: np.ndarray) -> np.ndarray:
        p = prior.copy()
        if not attrs.normalized:
            p = p / np.array([attrs.input_width, attrs.input_height] * 2, f32)
        v = np.ones((len(p), 4), f32) if var is None else var
        if attrs.code_type == CORNER:
            out = p + v * pred
        else:
            w, h = p[:, 2] - p[:, 0], p[:, 3] - p[:, 1]
            cx, cy = (p[:, 0] + p[:, 2]) / f32(2), (p[:, 1] + p[:, 3]) / f32(2)
            dcx = v[:, 0] * pred[:, 0] * w + cx
            dcy = v[:, 1] * pred[:, 1] * h + cy
            dw = np.exp(v[:, 2] * pred[:, 2]).astype(f32) * w
            dh = np.exp(v[:, 3] * pred[:, 3]).astype(f32) * h
            out = np.stack([dcx - dw / f32(2), dcy - dh / f32(2), dcx + dw / f32(2), dcy + dh / f32(2)], axis=1)
        if attrs.clip_before_nms:
            out = np.clip(out, f32(0), f32(1))
        return out.astype(f32)

    @staticmethod
    def _nms(attrs: DetectionOutputAttrs, decoded: dict[int, np.ndarray], scores: np.ndarray,
             classes: int) -> dict[int, list[int]]:
        indices: dict[int, list[int]] = {}
        if not attrs.decrease_label_id:  # Caffe: NMS per class
            for c in range(classes):
                if c == attrs.background_label_id:
                    continue
                bboxes = decoded.get(-1 if attrs.share_location else c)
                if bboxes is None:
                    continue
                cand = [(scores[p, c], p) for p in range(len(scores)) if scores[p, c] > f32(attrs.confidence_threshold)]
                cand.sort(key=lambda t: (-t[0], t[1]))
                if attrs.top_k > -1:
                    cand = cand[: attrs.top_k]
                kept: list[int] = []
                for _, p in cand:
                    if all(_iou(bboxes[p], bboxes[k]) <= f32(attrs.nms_threshold) for k in kept):
                        kept.append(p)
                indices[c] = kept
            return indices
        cand = []  # MXNet: each prior's best class, one NMS over all
        for p in range(len(scores)):
            conf, best = f32(-1), 0
            for c in range(1, classes):
                if attrs.background_label_id > -1 and c == attrs.background_label_id:
                    continue
                if scores[p, c] > conf:
                    conf, best = scores[p, c], c
            if best > 0 and conf >= f32(attrs.confidence_threshold):
                cand.append((conf, best, p))
        cand.sort(key=lambda t: (-t[0], t[2]))
        if attrs.top_k != -1:
            cand = cand[: attrs.top_k]
        for _, c, p in cand:
            kept = indices.setdefault(c, [])
            bboxes = decoded[-1 if attrs.share_location else c]
            if all(_iou(bboxes[p], bboxes[k]) <= f32(attrs.nms_threshold) for k in kept):
                kept.append(p)
        return indices


@register
class DetectionOutput1(_DetectionOutput):
    types = ("DetectionOutput",)
    versions = ("opset1",)
    Attrs = DetectionOutputAttrs

    def _classes(self, attrs, priors, conf_len):
        if attrs.num_classes < 1:
            raise OpError(f"DetectionOutput: num_classes must be positive, got {attrs.num_classes}")
        return attrs.num_classes


@register
class DetectionOutput8(_DetectionOutput):
    types = ("DetectionOutput",)
    versions = ("opset8",)
    Attrs = DetectionOutputAttrs

    def _classes(self, attrs, priors, conf_len):
        if priors is None or conf_len is None:
            return None
        if conf_len % priors:
            raise OpError(f"DetectionOutput: class_preds length {conf_len} is not a multiple of {priors} priors")
        return conf_len // priors
