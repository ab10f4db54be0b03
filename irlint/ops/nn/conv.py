"""Convolution-1, GroupConvolution-1, ConvolutionBackpropData-1 and GroupConvolutionBackpropData-1.

Layouts are OpenVINO's: data [N, C, *spatial], filters [C_out, C_in, *k] (grouped: [G, C_out/G,
C_in/G, *k]); backprop filters swap the two channel axes ([C_in, C_out, *k], grouped
[G, C_in/G, C_out/G, *k]). The forward kernel is one einsum over a strided window view of the
padded input; the backprop kernel adds one strided slice per kernel tap (k taps, not one per element).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.axes import int_values
from irlint.ops.movement.dims import merge
from irlint.ops.nn.spatial import (
    check_auto_pad,
    check_lengths,
    fill_axes,
    pad,
    resolve_pads,
    window_out,
    window_out_dim,
    windows,
)
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim, ElementType, Shape, format_shape

LETTERS = "abcdefuvwxyz"


@dataclass(frozen=True)
class ConvAttrs:
    strides: tuple[int, ...]
    dilations: tuple[int, ...]
    pads_begin: tuple[int, ...]
    pads_end: tuple[int, ...]
    auto_pad: str = "explicit"


@dataclass(frozen=True)
class ConvBackpropAttrs:
    strides: tuple[int, ...]
    dilations: tuple[int, ...]
    pads_begin: tuple[int, ...]
    pads_end: tuple[int, ...]
    auto_pad: str = "explicit"
    output_padding: tuple[int, ...] = ()


def _acc_dtype(dtype: np.dtype) -> np.dtype:
    """Accumulate floats in f64 and integers in i64 (the result is cast back to the input type)."""
    return np.dtype(np.float64) if dtype.kind == "f" else np.dtype(np.int64)


def _etype(op: str, data: TensorInfo, filters: TensorInfo) -> ElementType | None:
    if data.etype is not None and filters.etype is not None and data.etype != filters.etype:
        raise OpError(f"{op}: data is {data.etype} but filters are {filters.etype}")
    return data.etype or filters.etype


def _channels(op: str, what: str, a: Dim, b: Dim) -> None:
    if merge(a, b) is None:
        raise OpError(f"{op}: {what}: {a} vs {b}")


def _split_filters(filters: Shape, grouped: bool) -> tuple[Dim, Dim, Dim, Shape]:
    """A filter shape as (groups, its two channel dims, kernel dims): grouped filters lead with G."""
    if grouped:
        return filters[0], filters[1], filters[2], filters[3:]
    return Dim.of(1), filters[0], filters[1], filters[2:]


class _Conv(Op):
    """Forward convolution; `grouped` selects the [G, O, I, *k] filter layout."""

    infer_reads_values = False
    versions = ("opset1",)
    Attrs = ConvAttrs
    arity = (2, 2)
    grouped = False

    def _split(self, filters: Shape) -> tuple[Dim, Dim, Dim, Shape]:
        """(groups, out channels, in channels per group, kernel dims) of a filter shape."""
        return _split_filters(filters, self.grouped)

    def infer(self, attrs: ConvAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = self.types[0]
        data, filters = inputs
        etype = _etype(op, data, filters)
        if data.shape is None or filters.shape is None:
            return [TensorInfo(etype, None)]
        extra = 1 if self.grouped else 0
        if len(data.shape) < 3 or len(filters.shape) != len(data.shape) + extra:
            raise OpError(f"{op}: data {format_shape(data.shape)} and filters {format_shape(filters.shape)} "
                          f"need ranks r >= 3 and r{' + 1' if extra else ''}")
        n_sp = len(data.shape) - 2
        attrs = fill_axes(attrs, n_sp)
        auto_pad = check_auto_pad(op, attrs.auto_pad)
        check_lengths(op, n_sp, strides=attrs.strides, dilations=attrs.dilations,
                      **({} if auto_pad != "explicit" else {"pads_begin": attrs.pads_begin,
                                                            "pads_end": attrs.pads_end}))
        g, o, i, kernel = self._split(filters.shape)
        c = data.shape[1]
        if g.is_static and i.is_static and c.is_static and c.lo != g.lo * i.lo:
            raise OpError(f"{op}: data has {c.lo} channels, filters {format_shape(filters.shape)} expect "
                          f"{g.lo * i.lo}")
        out: list[Dim] = [data.shape[0], Dim(g.lo * o.lo, None if g.hi is None or o.hi is None else g.hi * o.hi)]
        pb = attrs.pads_begin or (0,) * n_sp
        pe = attrs.pads_end or (0,) * n_sp
        for ax in range(n_sp):
            k = kernel[ax]
            if not k.is_static:
                out.append(DYNAMIC)
                continue
            try:
                out.append(window_out_dim(data.shape[2 + ax], k.lo, attrs.strides[ax], attrs.dilations[ax],
                                          pb[ax], pe[ax], "floor", auto_pad))
            except OpError as e:
                raise OpError(f"{op}: spatial axis {ax}: {e}") from None
        return [TensorInfo(etype, tuple(out))]

    def compute(self, attrs: ConvAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        op = self.types[0]
        x, w = np.asarray(inputs[0]), np.asarray(inputs[1])
        self.infer(attrs, [TensorInfo(None, tuple(Dim.of(d) for d in a.shape)) for a in (x, w)])
        if not self.grouped:
            w = w[np.newaxis]
        g, o, i = w.shape[:3]
        kernel = w.shape[3:]
        n_sp = len(kernel)
        attrs = fill_axes(attrs, n_sp)
        auto_pad = check_auto_pad(op, attrs.auto_pad)
        pb, pe = resolve_pads(auto_pad, x.shape[2:], kernel, attrs.strides, attrs.dilations,
                              attrs.pads_begin or (0,) * n_sp, attrs.pads_end or (0,) * n_sp)
        out = [window_out(x.shape[2 + a], kernel[a], attrs.strides[a], attrs.dilations[a], pb[a], pe[a], "floor",
                          "explicit") for a in range(n_sp)]
        acc = _acc_dtype(x.dtype)
        xp = pad(x.astype(acc), pb, pe, 0)
        win = windows(xp, kernel, attrs.strides, attrs.dilations, out)  # [N, C, *out, *k]
        win = win.reshape(x.shape[0], g, i, *win.shape[2:])
        sp_out, sp_k = LETTERS[:n_sp], LETTERS[6:6 + n_sp]
        y = np.einsum(f"ngi{sp_out}{sp_k},goi{sp_k}->ngo{sp_out}", win, w.astype(acc), optimize=True)
        return [y.reshape(x.shape[0], g * o, *out).astype(x.dtype)]


@register
class Convolution(_Conv):
    types = ("Convolution",)


@register
class GroupConvolution(_Conv):
    types = ("GroupConvolution",)
    grouped = True


class _Backprop(Op):
    """Transposed convolution (gradient of a convolution with respect to its data)."""

    infer_reads_values = True  # the optional output_shape input decides the spatial dims
    versions = ("opset1",)
    Attrs = ConvBackpropAttrs
    arity = (2, 3)
    grouped = False

    def _split(self, filters: Shape) -> tuple[Dim, Dim, Dim, Shape]:
        """(groups, in channels per group, out channels per group, kernel dims)."""
        return _split_filters(filters, self.grouped)

    def _pads(self, attrs: ConvBackpropAttrs, sizes: Sequence[int | None], kernel: Sequence[int | None],
              out_spatial: Sequence[int] | None) -> tuple[list[int], list[int]]:
        """pads_begin/pads_end after auto_pad (same_* needs the requested output size, else pads are 0)."""
        n = len(attrs.strides)
        op = self.types[0]
        auto_pad = check_auto_pad(op, attrs.auto_pad)
        if auto_pad == "explicit":
            return list(attrs.pads_begin or (0,) * n), list(attrs.pads_end or (0,) * n)
        if auto_pad == "valid" or out_spatial is None:
            return [0] * n, [0] * n
        pb, pe = [], []
        out_pad = attrs.output_padding or (0,) * n
        for a in range(n):
            if sizes[a] is None or kernel[a] is None:
                pb.append(0)
                pe.append(0)
                continue
            total = max(0, (sizes[a] - 1) * attrs.strides[a] + (kernel[a] - 1) * attrs.dilations[a] + 1  # type: ignore
                        - out_spatial[a] + out_pad[a])
            half = total // 2
            big, small = total - half, half
            pb.append(big if auto_pad == "same_upper" else small)
            pe.append(small if auto_pad == "same_upper" else big)
        return pb, pe

    def infer(self, attrs: ConvBackpropAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = self.types[0]
        data, filters = inputs[0], inputs[1]
        etype = _etype(op, data, filters)
        out_spatial = int_values(inputs[2]) if len(inputs) > 2 else None
        if data.shape is None or filters.shape is None:
            return [TensorInfo(etype, None)]
        extra = 1 if self.grouped else 0
        if len(data.shape) < 3 or len(filters.shape) != len(data.shape) + extra:
            raise OpError(f"{op}: data {format_shape(data.shape)} and filters {format_shape(filters.shape)} "
                          f"need ranks r >= 3 and r{' + 1' if extra else ''}")
        n_sp = len(data.shape) - 2
        attrs = fill_axes(attrs, n_sp)
        check_lengths(op, n_sp, strides=attrs.strides, dilations=attrs.dilations)
        if attrs.output_padding:
            check_lengths(op, n_sp, output_padding=attrs.output_padding)
        g, i, o, kernel = self._split(filters.shape)
        c = data.shape[1]
        if g.is_static and i.is_static and c.is_static and c.lo != g.lo * i.lo:
            raise OpError(f"{op}: data has {c.lo} channels, filters {format_shape(filters.shape)} expect "
                          f"{g.lo * i.lo}")
        channels = Dim(g.lo * o.lo, None if g.hi is None or o.hi is None else g.hi * o.hi)
        head = [data.shape[0], channels]
        if len(inputs) > 2:
            if out_spatial is None:
                return [TensorInfo(etype, (*head, *(DYNAMIC,) * n_sp))]
            if len(out_spatial) != n_sp:
                raise OpError(f"{op}: output_shape has {len(out_spatial)} values for {n_sp} spatial axes")
            return [TensorInfo(etype, (*head, *(Dim.of(v) for v in out_spatial)))]
        pb, pe = self._pads(attrs, [d.value for d in data.shape[2:]], [k.value for k in kernel], None)
        out_pad = attrs.output_padding or (0,) * n_sp
        dims = []
        for a in range(n_sp):
            d, k = data.shape[2 + a], kernel[a]
            if not k.is_static:
                dims.append(DYNAMIC)
                continue
            extra_len = (k.lo - 1) * attrs.dilations[a] + 1 - pb[a] - pe[a] + out_pad[a]
            lo = max(0, (max(d.lo, 1) - 1) * attrs.strides[a] + extra_len)
            hi = None if d.hi is None else (d.hi - 1) * attrs.strides[a] + extra_len
            if hi is not None and hi < 0:
                raise OpError(f"{op}: spatial axis {a}: pads leave a negative output size {hi}")
            dims.append(Dim(lo, hi))
        return [TensorInfo(etype, (*head, *dims))]

    def compute(self, attrs: ConvBackpropAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x, w = np.asarray(inputs[0]), np.asarray(inputs[1])
        attrs = fill_axes(attrs, x.ndim - 2)
        infos = [TensorInfo(None, tuple(Dim.of(d) for d in a.shape)) for a in (x, w)]
        if len(inputs) > 2:
            infos.append(TensorInfo(None, (Dim.of(np.asarray(inputs[2]).size),), np.asarray(inputs[2])))
        (info,) = self.infer(attrs, infos)
        out = [d.lo for d in info.shape[2:]]  # type: ignore[index]
        if not self.grouped:
            w = w[np.newaxis]
        g, i, o = w.shape[:3]
        kernel = w.shape[3:]
        n_sp = len(kernel)
        pb, _ = self._pads(attrs, x.shape[2:], kernel, out if len(inputs) > 2 else None)
        acc = _acc_dtype(x.dtype)
        n = x.shape[0]
        xs = x.astype(acc).reshape(n, g, i, *x.shape[2:])
        wa = w.astype(acc)
        # full[j] collects x[p] * w[t] at j = p * stride + t * dilation; the output is full[pb : pb + out].
        full_len = [(x.shape[2 + a] - 1) * attrs.strides[a] + (kernel[a] - 1) * attrs.dilations[a] + 1
                    for a in range(n_sp)]
        size = [max(full_len[a], pb[a] + out[a]) for a in range(n_sp)]
        full = np.zeros((n, g, o, *size), acc)
        flat = xs.reshape(n, g, i, -1)
        for taps in product(*(range(k) for k in kernel)):
            w_tap = np.swapaxes(wa[(slice(None),) * 3 + taps], 1, 2)  # [g, o, i]
            contrib = np.matmul(w_tap[np.newaxis], flat).reshape(n, g, o, *x.shape[2:])
            region = tuple(slice(t * attrs.dilations[a], t * attrs.dilations[a]
                                 + (x.shape[2 + a] - 1) * attrs.strides[a] + 1, attrs.strides[a])
                           for a, t in enumerate(taps))
            full[(slice(None),) * 3 + region] += contrib
        lo = [max(0, p) for p in pb]
        crop = full[(slice(None),) * 3 + tuple(slice(lo[a], lo[a] + out[a]) for a in range(n_sp))]
        y = np.zeros((n, g, o, *out), acc)
        shift = [max(0, -p) for p in pb]  # negative begin padding shifts the output right
        y[(slice(None),) * 3 + tuple(slice(shift[a], shift[a] + crop.shape[3 + a]) for a in range(n_sp))] = \
            crop[(slice(None),) * 3 + tuple(slice(0, out[a] - shift[a]) for a in range(n_sp))]
        return [y.reshape(n, g * o, *out).astype(x.dtype)]


@register
class ConvolutionBackpropData(_Backprop):
    types = ("ConvolutionBackpropData",)


@register
class GroupConvolutionBackpropData(_Backprop):
    types = ("GroupConvolutionBackpropData",)
    grouped = True
