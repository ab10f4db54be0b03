"""NMSRotated-13: greedy non-maximum suppression of rotated boxes (x_ctr, y_ctr, w, h, angle).

Per image and class, boxes scoring above `score_threshold` are taken best first (lower index on
ties) and kept unless their IoU with a kept box exceeds `iou_threshold`, at most
`max_output_boxes_per_class` per class. The IoU of two rotated rectangles is the area of their
convex intersection polygon (computed exactly by clipping one rectangle against the other) over
the union. `clockwise` only mirrors every box, which leaves IoUs unchanged. Outputs rows
(image, class, box) and (image, class, score), sorted by score across the batch with
`sort_result_descending` (else image, class, selection order), and the row count.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.axes import scalar_value
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim, element_type


@dataclass(frozen=True)
class NMSRotatedAttrs:
    sort_result_descending: bool = True
    output_type: str = "i64"
    clockwise: bool = True


def _corners(b: np.ndarray) -> list[tuple[float, float]]:
    cx, cy, w, h, a = (float(v) for v in b)
    c, s = math.cos(a), math.sin(a)
    pts = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
    return [(cx + x * c - y * s, cy + x * s + y * c) for x, y in pts]


def _clip(poly: list[tuple[float, float]], a: tuple[float, float], b: tuple[float, float]) -> list:
    """The part of `poly` left of the directed edge a->b (Sutherland-Hodgman)."""
    def side(p):
        return (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])

    out = []
    for i, p in enumerate(poly):
        q = poly[(i + 1) % len(poly)]
        sp, sq = side(p), side(q)
        if sp >= 0:
            out.append(p)
        if (sp >= 0) != (sq >= 0) and sp != sq:
            t = sp / (sp - sq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def _area(poly: list[tuple[float, float]]) -> float:
    return abs(sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(poly, poly[1:] + poly[:1], strict=False))) / 2


def rotated_iou(b1: np.ndarray, b2: np.ndarray) -> float:
    a1, a2 = float(b1[2] * b1[3]), float(b2[2] * b2[3])
    if a1 <= 0 or a2 <= 0:
        return 0.0
    poly = _corners(b1)
    clip = _corners(b2)
    if _signed(clip) < 0:
        clip = clip[::-1]
    for i in range(4):
        if not poly:
            break
        poly = _clip(poly, clip[i], clip[(i + 1) % 4])
    inter = _area(poly) if len(poly) >= 3 else 0.0
    return inter / (a1 + a2 - inter)


def _signed(poly: list[tuple[float, float]]) -> float:
    return sum(p[0] * q[1] - q[0] * p[1] for p, q in zip(poly, poly[1:] + poly[:1], strict=False))


@register
class NMSRotated(Op):
    types = ("NMSRotated",)
    versions = ("opset13",)
    Attrs = NMSRotatedAttrs
    arity = (5, 5)

    def infer(self, attrs: NMSRotatedAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        out_type = element_type(attrs.output_type)
        if out_type is None or out_type.name not in ("i32", "i64"):
            raise OpError(f"NMSRotated: output_type must be i32 or i64, got {attrs.output_type!r}")
        boxes, scores = inputs[0], inputs[1]
        if boxes.shape is not None and (len(boxes.shape) != 3 or (boxes.shape[2].is_static and boxes.shape[2].lo != 5)):
            raise OpError("NMSRotated: boxes must be [N, M, 5] (x_ctr, y_ctr, w, h, angle)")
        if scores.shape is not None and len(scores.shape) != 3:
            raise OpError(f"NMSRotated: scores must be 3-D [N, C, M], got rank {len(scores.shape)}")
        for name, t in zip(("max_output_boxes_per_class", "iou_threshold", "score_threshold"), inputs[2:],
                           strict=False):
            if t.shape is not None and len(t.shape) > 1:
                raise OpError(f"NMSRotated: {name} must be a scalar or a one-element 1-D tensor")
        rows = DYNAMIC
        k = scalar_value(inputs[2])
        if k is not None and scores.shape is not None and all(d.is_static for d in scores.shape):
            n, c, m = (d.lo for d in scores.shape)
            rows = Dim(0, n * c * min(max(k, 0), m))
        et = scores.etype or boxes.etype
        return [TensorInfo(out_type, (rows, Dim.of(3))), TensorInfo(et, (rows, Dim.of(3))),
                TensorInfo(out_type, (Dim.of(1),))]

    def compute(self, attrs: NMSRotatedAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        boxes, scores = np.asarray(inputs[0]).astype(np.float32), np.asarray(inputs[1]).astype(np.float32)
        k = int(np.asarray(inputs[2]).reshape(-1)[0])
        iou_thr = float(np.asarray(inputs[3], np.float32).reshape(-1)[0])
        score_thr = np.float32(np.asarray(inputs[4], np.float32).reshape(-1)[0])
        out_type = element_type(attrs.output_type)
        if out_type is None or out_type.dtype is None:
            raise OpError(f"NMSRotated: output_type {attrs.output_type!r} is not i32 or i64")
        n_img, n_cls, n_box = scores.shape
        if boxes.shape != (n_img, n_box, 5):
            raise OpError(f"NMSRotated: boxes {list(boxes.shape)} do not match scores {list(scores.shape)}")
        found = []
        for n in range(n_img):
            for c in range(n_cls):
                cand = [i for i in range(n_box) if scores[n, c, i] > score_thr]
                cand.sort(key=lambda i: (-scores[n, c, i], i))
                kept: list[int] = []
                for i in cand:
                    if len(kept) >= k:
                        break
                    if all(rotated_iou(boxes[n, i], boxes[n, j]) <= iou_thr for j in kept):
                        kept.append(i)
                found += [(n, c, i, scores[n, c, i]) for i in kept]
        if attrs.sort_result_descending:
            found.sort(key=lambda t: -t[3])  # stable: ties keep image, class, selection order
        idx = np.array([[n, c, i] for n, c, i, _ in found], out_type.dtype).reshape(-1, 3)
        sc = np.array([[n, c, s] for n, c, _, s in found], np.float32).reshape(-1, 3)
        return [idx, sc.astype(scores.dtype), np.array([len(found)], out_type.dtype)]
