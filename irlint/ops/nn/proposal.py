"""Proposal-1 and Proposal-4: Faster R-CNN region proposals from anchor scores and box deltas.

As the reference kernel: anchors per ratio and scale (rounded sizes unless framework=tensorflow,
which also shifts anchors, swaps x/y and clips them first); every anchor at every cell is moved by
its deltas, optionally clipped, and scored 0 below the minimum size; the pre_nms_topn best go
through greedy NMS (IoU above nms_thresh, with the +1 pixel convention unless tensorflow) until
post_nms_topn boxes; rows are [batch, x0, y0, x1, y1] (normalised on request), the row after the
last one starts with -1. Proposal-4 also returns the scores. Proposals of a batch item are
computed together; the NMS walks the sorted boxes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.dims import dim_mul
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim, format_shape

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
    """[A, 4] anchor corners around the origin, A = ratios x scales (ratio-major)."""
    tf = attrs.framework == "tensorflow"
    offset = f32(0 if tf else 1)
    base = f32(attrs.base_size)
    centre = f32(0.5) * (base - offset)
    out = []
    for r in attrs.ratio:
        w = np.sqrt(base * base / f32(r)).astype(f32)
        h = w * f32(r)
        if not tf:
            w = f32(np.sign(w) * np.floor(np.abs(w) + 0.5))
            h = f32(np.sign(w * f32(r)) * np.floor(np.abs(w * f32(r)) + 0.5))
        for s in attrs.scale:
            sw, sh = f32(0.5) * (w * f32(s) - offset), f32(0.5) * (h * f32(s) - offset)
            box = [centre - sw, centre - sh, centre + sw, centre + sh]
            if tf:
                box = [v - base * f32(0.5) for v in box]
            out.append(box)
    return np.array(out, f32).reshape(-1, 4)


class _Proposal(Op):
    types = ("Proposal",)
    Attrs = ProposalAttrs
    arity = (3, 3)
    infer_reads_values = False
    with_probs = False

    def infer(self, attrs: ProposalAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = "Proposal"
        probs, deltas, image = inputs
        for name, t, rank in (("class_probs", probs, 4), ("bbox_deltas", deltas, 4), ("image_shape", image, 1)):
            if t.shape is not None and len(t.shape) != rank:
                raise OpError(f"{op}: {name} {format_shape(t.shape)} must have rank {rank}")
        if image.shape is not None and image.shape[0].is_static and image.shape[0].lo not in (3, 4):
            raise OpError(f"{op}: image_shape must hold 3 or 4 values, got {image.shape[0].lo}")
        # pre_nms_topn 0 and an empty ratio or scale (what OpenVINO fills when the IR leaves them out)
        # give no proposal: each image's first row starts with -1, as the CPU plugin writes it
        if attrs.post_nms_topn < 1 or attrs.pre_nms_topn < 0:
            raise OpError(f"{op}: post_nms_topn must be positive and pre_nms_topn not negative")
        batch = DYNAMIC if probs.shape is None else probs.shape[0]
        rows = dim_mul(batch, Dim.of(attrs.post_nms_topn))
        outs = [TensorInfo(probs.etype, (rows, Dim.of(5)))]
        if self.with_probs:
            outs.append(TensorInfo(probs.etype, (rows,)))
        return outs

    def compute(self, attrs: ProposalAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        probs, deltas, image = (np.asarray(a) for a in inputs)
        batch, channels, fh, fw = probs.shape
        count = channels // 2
        if deltas.shape != (batch, count * 4, fh, fw):
            raise OpError(f"Proposal: bbox_deltas {list(deltas.shape)} must be {[batch, count * 4, fh, fw]}")
        tf = attrs.framework == "tensorflow"
        offset = f32(0 if tf else 1)
        img = image.astype(f32).reshape(-1)
        img_h, img_w, scale_h = img[0], img[1], img[2]
        scale_w = img[3] if img.size > 3 else scale_h
        min_h, min_w = f32(attrs.min_size) * scale_h, f32(attrs.min_size) * scale_w
        base = anchors(attrs)
        if len(base) == 0 or attrs.pre_nms_topn == 0:
            rois = np.zeros((batch, attrs.post_nms_topn, 5), f32)
            rois[:, 0, 0] = -1
            outs = [rois.reshape(-1, 5).astype(probs.dtype)]
            return [*outs, np.zeros(batch * attrs.post_nms_topn, probs.dtype)] if self.with_probs else outs
        if len(base) != count:
            raise OpError(f"Proposal: {count} anchors per cell in the inputs, {len(base)} from ratio x scale")
        hh, ww = np.meshgrid(np.arange(fh), np.arange(fw), indexing="ij")
        sx = ((hh if tf else ww) * attrs.feat_stride).astype(f32)[..., None]  # [H, W, 1]
        sy = ((ww if tf else hh) * attrs.feat_stride).astype(f32)[..., None]
        top = min(count * fh * fw, attrs.pre_nms_topn)
        rois = np.zeros((batch, attrs.post_nms_topn, 5), f32)
        scores_out = np.zeros((batch, attrs.post_nms_topn), f32)
        for b in range(batch):  # per batch item: every proposal at once, then the greedy NMS
            d = deltas[b].astype(f32).reshape(count, 4, fh, fw).transpose(2, 3, 0, 1)  # [H, W, A, 4]
            score = probs[b, count:].astype(f32).transpose(1, 2, 0)  # [H, W, A]
            x0, y0 = sx + base[:, 0], sy + base[:, 1]
            x1, y1 = sx + base[:, 2], sy + base[:, 3]
            if tf:
                x0, x1 = np.clip(x0, 0, img_w), np.clip(x1, 0, img_w)
                y0, y1 = np.clip(y0, 0, img_h), np.clip(y1, 0, img_h)
            w, h = x1 - x0 + offset, y1 - y0 + offset
            cx, cy = x0 + f32(0.5) * w, y0 + f32(0.5) * h
            dx, dy = d[..., 0] / f32(attrs.box_coordinate_scale), d[..., 1] / f32(attrs.box_coordinate_scale)
            dw, dh = d[..., 2] / f32(attrs.box_size_scale), d[..., 3] / f32(attrs.box_size_scale)
            pcx, pcy = dx * w + cx, dy * h + cy
            pw, ph = np.exp(dw) * w, np.exp(dh) * h
            x0, y0, x1, y1 = pcx - f32(0.5) * pw, pcy - f32(0.5) * ph, pcx + f32(0.5) * pw, pcy + f32(0.5) * ph
            if attrs.clip_before_nms:
                x0, x1 = np.clip(x0, 0, img_w - offset), np.clip(x1, 0, img_w - offset)
                y0, y1 = np.clip(y0, 0, img_h - offset), np.clip(y1, 0, img_h - offset)
            keep_size = (min_w <= x1 - x0 + offset) & (min_h <= y1 - y0 + offset)
            score = np.where(keep_size, score, f32(0))
            boxes = np.stack([x0, y0, x1, y1], axis=-1).reshape(-1, 4)
            flat = score.reshape(-1)
            order = np.argsort(-flat, kind="stable")[:top]
            cand, cand_scores = boxes[order], flat[order]
            xa0, ya0, xa1, ya1 = cand.T
            overlap_ok = ((xa0[:, None] <= xa1[None]) & (ya0[:, None] <= ya1[None]) & (xa0[None] <= xa1[:, None])
                          & (ya0[None] <= ya1[:, None]))
            iw = np.maximum(0, np.minimum(xa1[:, None], xa1[None]) - np.maximum(xa0[:, None], xa0[None]) + offset)
            ih = np.maximum(0, np.minimum(ya1[:, None], ya1[None]) - np.maximum(ya0[:, None], ya0[None]) + offset)
            area = (xa1 - xa0 + offset) * (ya1 - ya0 + offset)
            inter = iw * ih
            with np.errstate(divide="ignore", invalid="ignore"):
                iou = np.where(overlap_ok, inter / (area[:, None] + area[None] - inter), 0)
            dead = np.zeros(len(cand), bool)
            chosen: list[int] = []
            for i in range(len(cand)):
                if dead[i]:
                    continue
                chosen.append(i)
                if len(chosen) == attrs.post_nms_topn:
                    break
                dead[i + 1:] |= iou[i, i + 1:] > attrs.nms_thresh
            picked = cand[chosen]
            if attrs.clip_after_nms:
                picked = np.stack([np.clip(picked[:, 0], 0, img_w), np.clip(picked[:, 1], 0, img_h),
                                   np.clip(picked[:, 2], 0, img_w), np.clip(picked[:, 3], 0, img_h)], axis=1)
            if attrs.normalize:
                picked = picked / np.array([img_w, img_h, img_w, img_h], f32)
            n = len(chosen)
            rois[b, :n, 0] = b
            rois[b, :n, 1:] = picked
            scores_out[b, :n] = cand_scores[chosen]
            if n < attrs.post_nms_topn:
                rois[b, n, 0] = -1
        outs = [rois.reshape(-1, 5).astype(probs.dtype)]
        if self.with_probs:
            outs.append(scores_out.reshape(-1).astype(probs.dtype))
        return outs


@register
class Proposal1(_Proposal):
    versions = ("opset1",)


@register
class Proposal4(_Proposal):
    versions = ("opset4",)
    with_probs = True
