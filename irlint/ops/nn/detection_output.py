"""DetectionOutput-1/8: SSD post-processing (decode boxes against priors, per-class NMS, top-k).

A port of the reference kernel's semantics: locations are decoded against the priors (`CORNER`
offsets or `CENTER_SIZE` with exp'd sizes, variances from the priors input unless encoded in the
target, priors in pixels unless `normalized`); with the two auxiliary inputs (objectness) priors
whose objectness is below `objectness_score` count as background and the boxes are decoded twice.
Caffe style runs greedy NMS per class (scores strictly above the confidence threshold, IoU above
`nms_threshold` suppresses); MXNet style (`decrease_label_id`) gives each prior its best class
first. At most `keep_top_k` detections per image survive; rows are [image, label, score, xmin,
ymin, xmax, ymax] by image and label, the row after the last one starts with -1, the rest is 0.
Decoding and IoUs are vectorised; the greedy selection walks the candidates in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.dims import dim_mul
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim, format_shape, static_shape

CORNER = "caffe.PriorBoxParameter.CORNER"
CENTER_SIZE = "caffe.PriorBoxParameter.CENTER_SIZE"


@dataclass(frozen=True)
class DetectionOutputAttrs:
    keep_top_k: tuple[int, ...]
    num_classes: int = -1  # v1 only; v8 reads it from the class predictions
    background_label_id: int = 0
    top_k: int = -1
    variance_encoded_in_target: bool = False
    code_type: str = CORNER
    share_location: bool = True
    nms_threshold: float = 0.0
    confidence_threshold: float = 0.0
    clip_after_nms: bool = False
    clip_before_nms: bool = False
    decrease_label_id: bool = False
    normalized: bool = False
    input_height: int = 1
    input_width: int = 1
    objectness_score: float = 0.0


def _jaccard(boxes: np.ndarray) -> np.ndarray:
    """Pairwise overlap of [K, 4] (xmin, ymin, xmax, ymax) boxes as the reference measures it."""
    x0, y0, x1, y1 = boxes.T
    size = np.where((x1 < x0) | (y1 < y0), 0.0, (x1 - x0) * (y1 - y0))
    apart = ((x0[None] > x1[:, None]) | (x1[None] < x0[:, None]) | (y0[None] > y1[:, None]) | (y1[None] < y0[:, None]))
    iw = np.minimum(x1[:, None], x1[None]) - np.maximum(x0[:, None], x0[None])
    ih = np.minimum(y1[:, None], y1[None]) - np.maximum(y0[:, None], y0[None])
    inter = iw * ih
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = inter / (size[:, None] + size[None] - inter)
    return np.where(~apart & (iw > 0) & (ih > 0), iou, 0.0)


def _greedy(order: Sequence[int], overlap: np.ndarray, threshold: float) -> list[int]:
    kept: list[int] = []
    for idx in order:
        if all(overlap[idx, k] <= threshold for k in kept):
            kept.append(idx)
    return kept


class _DetectionOutput(Op):
    types = ("DetectionOutput",)
    Attrs = DetectionOutputAttrs
    arity = (3, 5)
    infer_reads_values = False

    def classes(self, attrs: DetectionOutputAttrs, class_preds: Dim, priors: Dim) -> Dim:
        raise NotImplementedError

    def _sizes(self, attrs: DetectionOutputAttrs, inputs: Sequence[TensorInfo]) -> tuple[Dim, Dim, Dim]:
        """(images, priors, classes) from the input shapes."""
        op = "DetectionOutput"
        loc, conf, priors = inputs[:3]
        for name, t, rank in (("box_logits", loc, 2), ("class_preds", conf, 2), ("proposals", priors, 3)):
            if t.shape is not None and len(t.shape) != rank:
                raise OpError(f"{op}: {name} {format_shape(t.shape)} must have rank {rank}")
        if attrs.code_type not in (CORNER, CENTER_SIZE):
            raise OpError(f"{op}: code_type={attrs.code_type!r} is not supported (CORNER or CENTER_SIZE)")
        if not attrs.keep_top_k:
            raise OpError(f"{op}: keep_top_k needs a value")
        images = loc.shape[0] if loc.shape is not None else (conf.shape[0] if conf.shape is not None else DYNAMIC)
        n_priors = DYNAMIC
        if priors.shape is not None and priors.shape[2].is_static:
            size = 4 if attrs.normalized else 5
            if priors.shape[2].lo % size:
                raise OpError(f"{op}: proposals {format_shape(priors.shape)} do not hold whole priors of {size} values")
            n_priors = Dim.of(priors.shape[2].lo // size)
        classes = self.classes(attrs, conf.shape[1] if conf.shape is not None else DYNAMIC, n_priors)
        return images, n_priors, classes

    def infer(self, attrs: DetectionOutputAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        images, n_priors, classes = self._sizes(attrs, inputs)
        if attrs.keep_top_k[0] > 0:
            rows = dim_mul(images, Dim.of(attrs.keep_top_k[0]))
        elif attrs.top_k > 0:
            rows = dim_mul(dim_mul(images, Dim.of(attrs.top_k)), classes)
        else:
            rows = dim_mul(dim_mul(images, n_priors), classes)
        return [TensorInfo(inputs[0].etype, (Dim.of(1), Dim.of(1), rows, Dim.of(7)))]

    def compute(self, attrs: DetectionOutputAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        arrays = [np.asarray(a) for a in inputs]
        infos = [TensorInfo(None, static_shape(a.shape)) for a in arrays]
        (info,) = self.infer(attrs, infos)
        _, n_priors_dim, classes_dim = self._sizes(attrs, infos)
        n_priors, classes = n_priors_dim.lo, classes_dim.lo
        loc, conf, priors = (a.astype(np.float64) for a in arrays[:3])
        images = loc.shape[0]
        loc_classes = 1 if attrs.share_location else classes
        loc = loc.reshape(images, n_priors, loc_classes, 4)
        conf = conf.reshape(images, n_priors, classes)
        aux = len(arrays) == 5
        if aux:
            arm_conf = arrays[3].astype(np.float64).reshape(images, n_priors, 2)
            arm_loc = arrays[4].astype(np.float64).reshape(images, n_priors, loc_classes, 4)
            low = arm_conf[:, :, 1] < attrs.objectness_score
            background = np.zeros(classes)
            if 0 <= attrs.background_label_id < classes:
                background[attrs.background_label_id] = 1
            conf = np.where(low[:, :, None], background[None, None, :], conf)
        size = 4 if attrs.normalized else 5
        per_batch = n_priors * size * (1 if attrs.variance_encoded_in_target else 2)
        flat = priors.reshape(priors.shape[0], -1)
        boxes_p = flat[:, : n_priors * size].reshape(-1, n_priors, size)[:, :, 1 - int(attrs.normalized):][:, :, :4]
        variances = None if attrs.variance_encoded_in_target else \
            flat[:, n_priors * size: n_priors * size + n_priors * 4].reshape(-1, n_priors, 4)
        assert flat.shape[1] >= per_batch or attrs.variance_encoded_in_target

        def decode(prior: np.ndarray, var: np.ndarray | None, pred: np.ndarray) -> np.ndarray:
            p = prior.copy()
            if not attrs.normalized:
                p = p / np.array([attrs.input_width, attrs.input_height, attrs.input_width, attrs.input_height])
            v = np.ones_like(pred) if var is None else var
            if attrs.code_type == CORNER:
                out = p + v * pred
            else:
                pw, ph = p[..., 2] - p[..., 0], p[..., 3] - p[..., 1]
                cx, cy = (p[..., 0] + p[..., 2]) / 2, (p[..., 1] + p[..., 3]) / 2
                ncx, ncy = v[..., 0] * pred[..., 0] * pw + cx, v[..., 1] * pred[..., 1] * ph + cy
                nw, nh = np.exp(v[..., 2] * pred[..., 2]) * pw, np.exp(v[..., 3] * pred[..., 3]) * ph
                out = np.stack([ncx - nw / 2, ncy - nh / 2, ncx + nw / 2, ncy + nh / 2], axis=-1)
            return np.clip(out, 0, 1) if attrs.clip_before_nms else out

        result = np.zeros((int(info.shape[2].lo), 7))  # type: ignore[index]
        count = 0
        for i in range(images):  # per image: per-class greedy selection over pre-computed overlaps
            pb = 0 if boxes_p.shape[0] == 1 else i
            prior, var = boxes_p[pb][:, None, :], None if variances is None else variances[pb][:, None, :]
            if aux:
                prior = decode(prior, var, arm_loc[i])
            decoded = decode(prior, var, loc[i])  # [P, loc_classes, 4]
            overlaps = [_jaccard(decoded[:, col]) for col in range(loc_classes)]
            indices: dict[int, list[int]] = {}
            if not attrs.decrease_label_id:
                for c in range(classes):
                    if c == attrs.background_label_id:
                        continue
                    scores = conf[i, :, c]
                    cand = np.nonzero(scores > attrs.confidence_threshold)[0]
                    cand = cand[np.lexsort((cand, -scores[cand]))]
                    if attrs.top_k > -1:
                        cand = cand[: attrs.top_k]
                    indices[c] = _greedy(cand.tolist(), overlaps[0 if attrs.share_location else c], attrs.nms_threshold)
            else:
                best, best_c = np.full(n_priors, -1.0), np.zeros(n_priors, np.int64)
                for c in range(1, classes):
                    if c == attrs.background_label_id:
                        continue
                    better = conf[i, :, c] > best
                    best, best_c = np.where(better, conf[i, :, c], best), np.where(better, c, best_c)
                pairs = [(best[p], int(best_c[p]), p) for p in range(n_priors)
                         if best_c[p] > 0 and best[p] >= attrs.confidence_threshold]
                pairs.sort(key=lambda t: (-t[0], t[2]))
                if attrs.top_k != -1:
                    pairs = pairs[: attrs.top_k]
                for _, c, p in pairs:
                    kept = indices.setdefault(c, [])
                    if all(overlaps[0 if attrs.share_location else c][p, k] <= attrs.nms_threshold for k in kept):
                        kept.append(p)
            total = sum(len(v) for v in indices.values())
            if attrs.keep_top_k[0] > -1 and total > attrs.keep_top_k[0]:
                ranked = sorted(((conf[i, p, c], c, p) for c in sorted(indices) for p in indices[c]),
                                key=lambda t: (-t[0], t[2]))[: attrs.keep_top_k[0]]
                indices = {}
                for _, c, p in ranked:
                    indices.setdefault(c, []).append(p)
            for c in sorted(indices):
                col = 0 if attrs.share_location else c
                for p in indices[c]:
                    if count >= len(result):
                        break
                    box = decoded[p, col]
                    if attrs.clip_after_nms:
                        box = np.clip(box, 0, 1)
                    result[count] = [i, c - 1 if attrs.decrease_label_id else c, conf[i, p, c], *box]
                    count += 1
        if count < len(result):
            result[count, 0] = -1
        return [result.reshape(1, 1, -1, 7).astype(arrays[0].dtype)]


@register
class DetectionOutput1(_DetectionOutput):
    versions = ("opset1",)

    def classes(self, attrs: DetectionOutputAttrs, class_preds: Dim, priors: Dim) -> Dim:
        if attrs.num_classes < 1:
            raise OpError("DetectionOutput-1: num_classes must be positive")
        return Dim.of(attrs.num_classes)


@register
class DetectionOutput8(_DetectionOutput):
    versions = ("opset8",)

    def classes(self, attrs: DetectionOutputAttrs, class_preds: Dim, priors: Dim) -> Dim:
        if class_preds.is_static and priors.is_static and priors.lo:
            if class_preds.lo % priors.lo:
                raise OpError(f"DetectionOutput-8: {class_preds.lo} class scores do not split over {priors.lo} priors")
            return Dim.of(class_preds.lo // priors.lo)
        return DYNAMIC
