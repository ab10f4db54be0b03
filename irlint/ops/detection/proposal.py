"""Proposal-1/4: Faster R-CNN region proposals from RPN scores and box deltas.

Anchors (base_size, ratio x scale, Caffe's rounded ratios or TensorFlow's exact ones and shifted
corners with `framework="tensorflow"`) are placed every `feat_stride` pixels, moved by the deltas,
clipped to the image (`clip_before_nms`), scored by the foreground half of `class_probs` (0 when
narrower or lower than min_size x image scale), the best `pre_nms_topn` kept and suppressed
greedily at `nms_thresh`; up to `post_nms_topn` rows (batch index, x0, y0, x1, y1) per image
follow, optionally clipped/normalised, zero rows after, and a -1 as the batch index of the first
unused row. Proposal-4 also outputs the scores (0 in unused rows, which OpenVINO leaves
unwritten). The arithmetic follows OpenVINO in float32; with `framework="tensorflow"` the CPU
plugin swaps image_shape's height and width (the core reference does not) and irlint follows the
plugin. Ties in score are broken by anchor order (OpenVINO's partial sort leaves them unspecified).
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


@dataclass(frozen=True)
class ProposalAttrs:
    base_size: int
    pre_nms_topn: int
    post_nms_topn: int
    nms_thresh: float
    feat_stride: int
    min_size: int
    ratio: tuple[float, ...]
    scale: tuple[float, ...]
    clip_before_nms: bool = True
    clip_after_nms: bool = False
    normalize: bool = False
    box_size_scale: float = 1.0
    box_coordinate_scale: float = 1.0
    framework: str = ""


def anchors(attrs: ProposalAttrs) -> np.ndarray:
    """[A, 4] anchor corners relative to a cell's origin, ratio-major."""
    tf = attrs.framework == "tensorflow"
    offset = f32(0 if tf else 1)
    base = f32(attrs.base_size)
    area, center = base * base, f32(0.5) * (base - offset)
    out = []
    for r in attrs.ratio:
        w = np.sqrt(area / f32(r)).astype(f32)
        if tf:
            h = w * f32(r)
        else:
            w = np.floor(w + f32(0.5))
            h = np.floor(w * f32(r) + f32(0.5))
        for s in attrs.scale:
            sw, sh = f32(0.5) * (w * f32(s) - offset), f32(0.5) * (h * f32(s) - offset)
            box = np.array([center - sw, center - sh, center + sw, center + sh], f32)
            out.append(box - f32(0.5) * base if tf else box)
    return np.array(out, f32).reshape(-1, 4)


def _iou(a: np.ndarray, b: np.ndarray, off: f32) -> f32:
    if not (a[0] <= b[2] and a[1] <= b[3] and b[0] <= a[2] and b[1] <= a[3]):
        return f32(0)
    w = max(f32(0), min(a[2], b[2]) - max(a[0], b[0]) + off)
    h = max(f32(0), min(a[3], b[3]) - max(a[1], b[1]) + off)
    inter = w * h
    area_a = (a[2] - a[0] + off) * (a[3] - a[1] + off)
    area_b = (b[2] - b[0] + off) * (b[3] - b[1] + off)
    return inter / (area_a + area_b - inter)


class _Proposal(Op):
    Attrs = ProposalAttrs
    arity = (3, 3)
    with_probs = False

    def infer(self, attrs: ProposalAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        if attrs.post_nms_topn < 1 or attrs.pre_nms_topn < 1 or attrs.feat_stride < 1 or attrs.base_size < 1:
            raise OpError("Proposal: base_size, pre_nms_topn, post_nms_topn and feat_stride must be positive")
        if not attrs.ratio or not attrs.scale:
            raise OpError("Proposal: ratio and scale need at least one value")
        if attrs.framework not in ("", "caffe", "tensorflow"):
            raise OpError(f"Proposal: framework {attrs.framework!r} is not '', caffe or tensorflow")
        etype = same_etype("Proposal", inputs)
        probs, deltas, image = inputs
        for name, info in (("class_probs", probs), ("bbox_deltas", deltas)):
            if info.shape is not None and len(info.shape) != 4:
                raise OpError(f"Proposal: {name} must be 4-D [N, C, H, W], got rank {len(info.shape)}")
        if image.shape is not None and (len(image.shape) != 1 or (image.shape[0].is_static
                                                                   and image.shape[0].lo not in (3, 4))):
            raise OpError("Proposal: image_shape must be 1-D with 3 or 4 values")
        a = len(attrs.ratio) * len(attrs.scale)
        if probs.shape is not None and probs.shape[1].is_static and probs.shape[1].lo != 2 * a:
            raise OpError(f"Proposal: class_probs has {probs.shape[1].lo} channels, {a} anchors need {2 * a}")
        if deltas.shape is not None and deltas.shape[1].is_static and deltas.shape[1].lo != 4 * a:
            raise OpError(f"Proposal: bbox_deltas has {deltas.shape[1].lo} channels, {a} anchors need {4 * a}")
        batch = probs.shape[0] if probs.shape is not None else (deltas.shape[0] if deltas.shape is not None
                                                                else DYNAMIC)
        rows = DYNAMIC if batch == DYNAMIC else Dim(batch.lo * attrs.post_nms_topn,
                                                    None if batch.hi is None else batch.hi * attrs.post_nms_topn)
        out = [TensorInfo(etype or probs.etype, (rows, Dim.of(5)))]
        if self.with_probs:
            out.append(TensorInfo(etype or probs.etype, (rows,)))
        return out

    def compute(self, attrs: ProposalAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        probs, deltas, image = (np.asarray(a) for a in inputs)
        self.infer(attrs, [TensorInfo(None, tuple(Dim.of(d) for d in a.shape)) for a in (probs, deltas, image)])
        n, _, h, w = probs.shape
        anc = anchors(attrs)
        a = len(anc)
        tf = attrs.framework == "tensorflow"
        off = f32(0 if tf else 1)
        img = image.astype(f32).reshape(-1)
        # With framework="tensorflow" the CPU plugin reads image_shape as (width, height, ...).
        img_h, img_w, scale_h = (img[1], img[0], img[2]) if tf else (img[0], img[1], img[2])
        scale_w = img[3] if img.size > 3 else scale_h
        min_h, min_w = f32(attrs.min_size) * scale_h, f32(attrs.min_size) * scale_w
        ys, xs = np.meshgrid(np.arange(h), np.arange(w), indexing="ij")
        if tf:
            xs, ys = ys, xs
        shift = np.stack([xs, ys, xs, ys], axis=-1).astype(f32) * f32(attrs.feat_stride)  # [h, w, 4]
        boxes0 = shift[:, :, None, :] + anc[None, None]  # [h, w, A, 4]
        rois = np.zeros((n, attrs.post_nms_topn, 5), f32)
        scores_out = np.zeros((n, attrs.post_nms_topn), f32)
        for b in range(n):
            score = probs[b, a:].astype(f32).transpose(1, 2, 0).reshape(-1)  # [h, w, A] order
            d = deltas[b].astype(f32).reshape(a, 4, h, w).transpose(2, 3, 0, 1).reshape(-1, 4)
            bx = boxes0.reshape(-1, 4).copy()
            if tf:
                bx = np.clip(bx, f32(0), np.array([img_w, img_h, img_w, img_h], f32))
            ww, hh = bx[:, 2] - bx[:, 0] + off, bx[:, 3] - bx[:, 1] + off
            cx, cy = bx[:, 0] + f32(0.5) * ww, bx[:, 1] + f32(0.5) * hh
            dx, dy = d[:, 0] / f32(attrs.box_coordinate_scale), d[:, 1] / f32(attrs.box_coordinate_scale)
            dw, dh = d[:, 2] / f32(attrs.box_size_scale), d[:, 3] / f32(attrs.box_size_scale)
            pcx, pcy = dx * ww + cx, dy * hh + cy
            pw, ph = np.exp(dw).astype(f32) * ww, np.exp(dh).astype(f32) * hh
            box = np.stack([pcx - f32(0.5) * pw, pcy - f32(0.5) * ph, pcx + f32(0.5) * pw, pcy + f32(0.5) * ph], 1)
            if attrs.clip_before_nms:
                box = np.clip(box, f32(0), np.array([img_w - off, img_h - off] * 2, f32))
            bw, bh = box[:, 2] - box[:, 0] + off, box[:, 3] - box[:, 1] + off
            score = np.where((min_w <= bw) & (min_h <= bh), score, f32(0)).astype(f32)
            order = np.argsort(-score, kind="stable")[: min(attrs.pre_nms_topn, len(score))]
            kept: list[int] = []
            dead = np.zeros(len(order), bool)
            for i in range(len(order)):
                if dead[i]:
                    continue
                kept.append(order[i])
                if len(kept) == attrs.post_nms_topn:
                    break
                for j in range(i + 1, len(order)):
                    if not dead[j] and f32(attrs.nms_thresh) < _iou(box[order[i]], box[order[j]], off):
                        dead[j] = True
            for r, idx in enumerate(kept):
                x0, y0, x1, y1 = box[idx]
                if attrs.clip_after_nms:
                    x0, x1 = (min(max(v, f32(0)), img_w) for v in (x0, x1))
                    y0, y1 = (min(max(v, f32(0)), img_h) for v in (y0, y1))
                if attrs.normalize:
                    x0, x1, y0, y1 = x0 / img_w, x1 / img_w, y0 / img_h, y1 / img_h
                rois[b, r] = [b, x0, y0, x1, y1]
                scores_out[b, r] = score[idx]
            if len(kept) < attrs.post_nms_topn:
                rois[b, len(kept), 0] = -1
        out = [rois.reshape(-1, 5).astype(probs.dtype)]
        if self.with_probs:
            out.append(scores_out.reshape(-1).astype(probs.dtype))
        return out


@register
class Proposal1(_Proposal):
    types = ("Proposal",)
    versions = ("opset1",)


@register
class Proposal4(_Proposal):
    types = ("Proposal",)
    versions = ("opset4",)
    with_probs = True
