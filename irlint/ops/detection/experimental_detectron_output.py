"""ExperimentalDetectronDetectionOutput-6: Mask R-CNN's box head post-processing.

Inputs: rois [R, 4], deltas [R, classes*4], scores [R, classes], im_info [1, 3]. For every class
but 0 each roi is moved by its class's deltas (divided by `deltas_weights`, +1 pixel widths,
log-size deltas capped at `max_delta_log_wh`, corners clamped at 0 only), rois with no extent are
skipped; per class, boxes scoring above `score_threshold` are suppressed greedily (IoU with +1
pixel, > `nms_threshold`) and at most `post_nms_count` kept; if more than
`max_detections_per_image` remain the best are kept, score-descending, otherwise they stay in
class order. Outputs boxes [max, 4], classes (i32) [max], scores [max], zero-padded. Float32 as in
OpenVINO's CPU plugin. `class_agnostic_box_regression` is accepted but, as in OpenVINO's reference
and CPU plugin, changes nothing (every class reads its own deltas).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.math.elementwise import same_etype
from irlint.ops.registry import register
from irlint.types import I32, Dim

f32 = np.float32


@dataclass(frozen=True)
class EDDetectionOutputAttrs:
    score_threshold: float
    nms_threshold: float
    max_delta_log_wh: float
    num_classes: int
    post_nms_count: int
    max_detections_per_image: int
    class_agnostic_box_regression: bool = False
    deltas_weights: tuple[float, ...] = (1.0, 1.0, 1.0, 1.0)


def _iou(b: np.ndarray, areas: np.ndarray, i: int, j: int) -> f32:
    x0, y0, x1, y1 = b[i]
    u0, v0, u1, v1 = b[j]
    if u0 > x1 or u1 < x0 or v0 > y1 or v1 < y0:
        return f32(0)
    iw = min(x1, u1) - max(x0, u0) + f32(1)
    ih = min(y1, v1) - max(y0, v0) + f32(1)
    if iw <= 0 or ih <= 0:
        return f32(0)
    inter = iw * ih
    return inter / (areas[i] + areas[j] - inter)


@register
class ExperimentalDetectronDetectionOutput(Op):
    types = ("ExperimentalDetectronDetectionOutput",)
    versions = ("opset6",)
    Attrs = EDDetectionOutputAttrs
    arity = (4, 4)
    infer_reads_values = False

    def infer(self, attrs: EDDetectionOutputAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = self.types[0]
        # max_detections_per_image 0 (what OpenVINO fills when the IR leaves it out) gives empty outputs
        if attrs.num_classes < 1 or attrs.max_detections_per_image < 0:
            raise OpError(f"{op}: num_classes must be positive and max_detections_per_image not negative")
        if len(attrs.deltas_weights) != 4:
            raise OpError(f"{op}: deltas_weights needs 4 values, got {len(attrs.deltas_weights)}")
        etype = same_etype(op, inputs)
        rois, deltas, scores, _ = inputs
        for name, t, cols in (("rois", rois, 4), ("deltas", deltas, 4 * attrs.num_classes),
                              ("scores", scores, attrs.num_classes)):
            if t.shape is not None and (len(t.shape) != 2 or (t.shape[1].is_static and t.shape[1].lo != cols)):
                raise OpError(f"{op}: {name} must be [rois, {cols}]")
        n = Dim.of(attrs.max_detections_per_image)
        et = etype or rois.etype
        return [TensorInfo(et, (n, Dim.of(4))), TensorInfo(I32, (n,)), TensorInfo(et, (n,))]

    def compute(self, attrs: EDDetectionOutputAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        rois, deltas, scores = (np.asarray(a).astype(f32) for a in inputs[:3])
        dtype = np.asarray(inputs[0]).dtype
        classes, r = attrs.num_classes, rois.shape[0]
        if deltas.shape != (r, 4 * classes) or scores.shape != (r, classes):
            raise OpError(f"{self.types[0]}: deltas/scores do not match {r} rois and {classes} classes")
        wts = np.array(attrs.deltas_weights, f32)
        one = f32(1)
        ww, hh = rois[:, 2] - rois[:, 0] + one, rois[:, 3] - rois[:, 1] + one
        cx, cy = rois[:, 0] + f32(0.5) * ww, rois[:, 1] + f32(0.5) * hh
        valid = (rois[:, 2] - rois[:, 0] > 0) & (rois[:, 3] - rois[:, 1] > 0)
        boxes = np.zeros((classes, r, 4), f32)
        areas = np.zeros((classes, r), f32)
        refined = np.zeros((classes, r), f32)
        for c in range(1, classes):
            d = deltas[:, 4 * c:4 * c + 4] / wts
            pcx, pcy = d[:, 0] * ww + cx, d[:, 1] * hh + cy
            cap = f32(attrs.max_delta_log_wh)
            pw = np.exp(np.minimum(d[:, 2], cap)).astype(f32) * ww
            ph = np.exp(np.minimum(d[:, 3], cap)).astype(f32) * hh
            b = np.stack([pcx - f32(0.5) * pw, pcy - f32(0.5) * ph, pcx + f32(0.5) * pw - one,
                          pcy + f32(0.5) * ph - one], axis=1)
            b = np.maximum(b, f32(0)).astype(f32)
            boxes[c] = np.where(valid[:, None], b, f32(0))
            areas[c] = np.where(valid, (b[:, 2] - b[:, 0] + one) * (b[:, 3] - b[:, 1] + one), f32(0))
            refined[c] = np.where(valid, scores[:, c], f32(0))
        found: list[tuple[f32, int, int]] = []
        for c in range(1, classes):
            cand = [i for i in range(r) if refined[c, i] > f32(attrs.score_threshold)]
            cand.sort(key=lambda i: (-refined[c, i], i))
            kept: list[int] = []
            for i in cand:
                if all(_iou(boxes[c], areas[c], i, k) <= f32(attrs.nms_threshold) for k in kept):
                    kept.append(i)
            if attrs.post_nms_count != -1:
                kept = kept[: attrs.post_nms_count]
            found += [(refined[c, i], c, i) for i in kept]
        m = attrs.max_detections_per_image
        if len(found) > m:
            found = sorted(found, key=lambda t: (-t[0], t[2]))[:m]
        out_boxes = np.zeros((m, 4), f32)
        out_classes = np.zeros(m, np.int32)
        out_scores = np.zeros(m, f32)
        for k, (score, c, i) in enumerate(found):
            out_boxes[k], out_classes[k], out_scores[k] = boxes[c, i], c, score
        return [out_boxes.astype(dtype), out_classes, out_scores.astype(dtype)]
