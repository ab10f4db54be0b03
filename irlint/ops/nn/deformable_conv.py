"""DeformableConvolution-1 and -8: a 2-D convolution whose taps are shifted by learned offsets.

Layouts as the reference kernel: offsets [N, DG * 2 * kh * kw, Ho, Wo] hold (dy, dx) of tap t at
channels 2t and 2t + 1 of each deformable group; the optional v8 mask [N, DG * kh * kw, Ho, Wo]
scales tap t. A sample outside the map reads 0; without `bilinear_interpolation_pad` a sample in
[0, size) interpolates with neighbours clamped into the map, with it a sample in (-1, size) mixes
in zeros from outside. Each tap is one vectorised gather over all output points; the taps then
meet the filters in one einsum.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.dims import merge
from irlint.ops.nn.spatial import check_auto_pad, check_lengths, fill_axes, resolve_pads, window_out, window_out_dim
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim, format_shape, static_shape


@dataclass(frozen=True)
class DeformableConvAttrs:
    strides: tuple[int, ...]
    dilations: tuple[int, ...]
    pads_begin: tuple[int, ...]
    pads_end: tuple[int, ...]
    auto_pad: str = "explicit"
    group: int = 1
    deformable_group: int = 1
    bilinear_interpolation_pad: bool = False


def _sample(data: np.ndarray, y: np.ndarray, x: np.ndarray, use_pad: bool) -> np.ndarray:
    """Bilinear samples of data [N, G, Cg, H, W] at y, x [N, G, Ho, Wo] -> [N, G, Cg, Ho, Wo]."""
    n, g, _, h, w = data.shape
    if use_pad:
        valid = (np.trunc(y) > -1) & (np.trunc(y) < h) & (np.trunc(x) > -1) & (np.trunc(x) < w)
        y1, x1 = np.floor(y).astype(np.int64), np.floor(x).astype(np.int64)
        y2, x2 = y1 + 1, x1 + 1
    else:
        valid = (y >= 0) & (y < h) & (x >= 0) & (x < w)
        y1 = np.maximum(np.floor(y), 0).astype(np.int64)
        x1 = np.maximum(np.floor(x), 0).astype(np.int64)
        y2 = np.minimum(np.ceil(y), h - 1).astype(np.int64)
        x2 = np.minimum(np.ceil(x), w - 1).astype(np.int64)
    dy, dx = (y - y1).astype(np.float64), (x - x1).astype(np.float64)
    bn = np.arange(n).reshape(n, 1, 1, 1)
    bg = np.arange(g).reshape(1, g, 1, 1)

    def at(yy: np.ndarray, xx: np.ndarray) -> np.ndarray:
        inside = (yy >= 0) & (yy < h) & (xx >= 0) & (xx < w) & valid
        got = data[bn, bg, :, np.clip(yy, 0, h - 1), np.clip(xx, 0, w - 1)]  # [N, G, Ho, Wo, Cg]
        return np.moveaxis(got * inside[..., None], -1, 2)

    wy, wx = dy[:, :, None], dx[:, :, None]
    return ((1 - wx) * (1 - wy) * at(y1, x1) + (1 - wx) * wy * at(y2, x1) + wx * (1 - wy) * at(y1, x2)
            + wx * wy * at(y2, x2))


class _DeformableConv(Op):
    types = ("DeformableConvolution",)
    Attrs = DeformableConvAttrs
    infer_reads_values = False

    def infer(self, attrs: DeformableConvAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = "DeformableConvolution"
        attrs = fill_axes(attrs, 2)
        data, offsets, filters = inputs[:3]
        if attrs.group < 1 or attrs.deformable_group < 1:
            raise OpError(f"{op}: group and deformable_group must be positive")
        for name, t in (("data", data), ("offsets", offsets), ("filters", filters)) + (
                (("mask", inputs[3]),) if len(inputs) > 3 else ()):
            if t.shape is not None and len(t.shape) != 4:
                raise OpError(f"{op}: {name} {format_shape(t.shape)} must be 4-D")
        auto_pad = check_auto_pad(op, attrs.auto_pad)
        check_lengths(op, 2, strides=attrs.strides, dilations=attrs.dilations,
                      **({} if auto_pad != "explicit" else {"pads_begin": attrs.pads_begin,
                                                            "pads_end": attrs.pads_end}))
        if data.shape is None or filters.shape is None:
            return [TensorInfo(data.etype, None)]
        c, co = data.shape[1], filters.shape[0]
        if c.is_static and filters.shape[1].is_static and c.lo != filters.shape[1].lo * attrs.group:
            raise OpError(f"{op}: data has {c.lo} channels, filters {format_shape(filters.shape)} with group "
                          f"{attrs.group} expect {filters.shape[1].lo * attrs.group}")
        if c.is_static and c.lo % attrs.deformable_group:
            raise OpError(f"{op}: {c.lo} channels do not split into {attrs.deformable_group} deformable groups")
        kh, kw = filters.shape[2], filters.shape[3]
        if offsets.shape is not None and kh.is_static and kw.is_static and merge(
                offsets.shape[1], Dim.of(2 * kh.lo * kw.lo * attrs.deformable_group)) is None:
            need = 2 * kh.lo * kw.lo * attrs.deformable_group
            raise OpError(f"{op}: offsets {format_shape(offsets.shape)} need {need} channels "
                          "(2 x kernel taps x deformable groups)")
        spatial = []
        for a, k in enumerate((kh, kw)):
            if not k.is_static:
                spatial.append(DYNAMIC)
                continue
            pb = attrs.pads_begin[a] if attrs.pads_begin else 0
            pe = attrs.pads_end[a] if attrs.pads_end else 0
            spatial.append(window_out_dim(data.shape[2 + a], k.lo, attrs.strides[a], attrs.dilations[a], pb, pe,
                                          "floor", auto_pad))
        if offsets.shape is not None and any(merge(o, s) is None for o, s in zip(offsets.shape[2:], spatial)):
            raise OpError(f"{op}: offsets {format_shape(offsets.shape)} do not match the output's spatial "
                          f"dims {format_shape(tuple(spatial))}")
        return [TensorInfo(data.etype, (data.shape[0], co, *spatial))]

    def compute(self, attrs: DeformableConvAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x, offsets, w = (np.asarray(a) for a in inputs[:3])
        attrs = fill_axes(attrs, 2)
        self.infer(attrs, [TensorInfo(None, static_shape(np.shape(a))) for a in inputs])
        n, c, h, wd = x.shape
        co, cg, kh, kw = w.shape
        dg = attrs.deformable_group
        pb, pe = resolve_pads(check_auto_pad("DeformableConvolution", attrs.auto_pad), (h, wd), (kh, kw),
                              attrs.strides, attrs.dilations, attrs.pads_begin or (0, 0), attrs.pads_end or (0, 0))
        ho, wo = (window_out(s, k, st, d, b, e, "floor", "explicit")
                  for s, k, st, d, b, e in zip((h, wd), (kh, kw), attrs.strides, attrs.dilations, pb, pe))
        if offsets.shape != (n, 2 * kh * kw * dg, ho, wo):
            want = [n, 2 * kh * kw * dg, ho, wo]
            raise OpError(f"DeformableConvolution: offsets {list(offsets.shape)} must be {want}")
        mask = np.asarray(inputs[3]) if len(inputs) > 3 else None
        if mask is not None and mask.shape != (n, kh * kw * dg, ho, wo):
            raise OpError(f"DeformableConvolution: mask {list(mask.shape)} must be {[n, kh * kw * dg, ho, wo]}")
        data = x.astype(np.float64).reshape(n, dg, c // dg, h, wd)
        off = offsets.astype(np.float32).reshape(n, dg, kh * kw, 2, ho, wo)
        base_y = (np.arange(ho) * attrs.strides[0] - pb[0]).reshape(1, 1, ho, 1)
        base_x = (np.arange(wo) * attrs.strides[1] - pb[1]).reshape(1, 1, 1, wo)
        cols = np.empty((n, c, kh * kw, ho, wo), np.float64)
        for t in range(kh * kw):  # one gather per kernel tap over every output point
            i, j = divmod(t, kw)
            y = (base_y + i * attrs.dilations[0]).astype(np.float32) + off[:, :, t, 0]
            xx = (base_x + j * attrs.dilations[1]).astype(np.float32) + off[:, :, t, 1]
            sampled = _sample(data, y, xx, attrs.bilinear_interpolation_pad)
            if mask is not None:
                sampled = sampled * mask.astype(np.float64).reshape(n, dg, kh * kw, ho, wo)[:, :, None, t]
            cols[:, :, t] = sampled.reshape(n, c, ho, wo)
        g = attrs.group
        out = np.einsum("ngckyx,gock->ngoyx", cols.reshape(n, g, cg, kh * kw, ho, wo),
                        w.astype(np.float64).reshape(g, co // g, cg, kh * kw), optimize=True)
        return [out.reshape(n, co, ho, wo).astype(x.dtype)]


@register
class DeformableConvolution1(_DeformableConv):
    versions = ("opset1",)
    arity = (3, 3)


@register
class DeformableConvolution8(_DeformableConv):
    versions = ("opset8",)
    arity = (3, 4)
