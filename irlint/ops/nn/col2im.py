"""Col2Im-15: sum sliding-window columns back into an image (the inverse layout of im2col).

data is [N, C * kh * kw, L] (or unbatched [C * kh * kw, L]); column l holds one window of the padded
[H, W] image, windows in row-major order. Each kernel tap is added with one strided slice, so the
kernel loops over kh * kw taps, not over elements.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.axes import int_values
from irlint.ops.nn.spatial import window_out
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim, format_shape, static_shape


@dataclass(frozen=True)
class Col2ImAttrs:
    strides: tuple[int, ...] = (1, 1)
    dilations: tuple[int, ...] = (1, 1)
    pads_begin: tuple[int, ...] = (0, 0)
    pads_end: tuple[int, ...] = (0, 0)


@register
class Col2Im(Op):
    types = ("Col2Im",)
    versions = ("opset15",)
    Attrs = Col2ImAttrs
    arity = (3, 3)

    def _blocks(self, attrs: Col2ImAttrs, size: Sequence[int], kernel: Sequence[int]) -> list[int]:
        return [window_out(size[a], kernel[a], attrs.strides[a], attrs.dilations[a], attrs.pads_begin[a],
                           attrs.pads_end[a], "floor", "explicit") for a in range(2)]

    def infer(self, attrs: Col2ImAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = "Col2Im"
        data, size_in, kernel_in = inputs
        for name, values in (("strides", attrs.strides), ("dilations", attrs.dilations),
                             ("pads_begin", attrs.pads_begin), ("pads_end", attrs.pads_end)):
            if len(values) != 2:
                raise OpError(f"{op}: {name} must have 2 values, got {list(values)}")
        if min(attrs.strides) < 1 or min(attrs.dilations) < 1 or min(*attrs.pads_begin, *attrs.pads_end) < 0:
            raise OpError(f"{op}: strides and dilations must be positive and pads non-negative")
        size, kernel = int_values(size_in), int_values(kernel_in)
        for name, v in (("output_size", size), ("kernel_size", kernel)):
            if v is not None and (len(v) != 2 or min(v) < 1):
                raise OpError(f"{op}: {name} must be 2 positive values, got {v}")
        if data.shape is None:
            return [TensorInfo(data.etype, None)]
        if len(data.shape) not in (2, 3):
            raise OpError(f"{op}: data {format_shape(data.shape)} must be [N, C * kh * kw, L] or [C * kh * kw, L]")
        batch = data.shape[:-2]
        cols, length = data.shape[-2], data.shape[-1]
        channels = DYNAMIC
        if kernel is not None:
            k = kernel[0] * kernel[1]
            if cols.is_static:
                if cols.lo % k:
                    raise OpError(f"{op}: {cols.lo} rows do not split into kernel {kernel} ({k} per channel)")
                channels = Dim.of(cols.lo // k)
            if size is not None and length.is_static:
                try:
                    blocks = self._blocks(attrs, size, kernel)
                except OpError as e:
                    raise OpError(f"{op}: {e}") from None
                if blocks[0] * blocks[1] != length.lo:
                    raise OpError(f"{op}: data has {length.lo} columns, output_size {size} with kernel {kernel} "
                                  f"gives {blocks[0]} x {blocks[1]} = {blocks[0] * blocks[1]} windows")
        spatial = (DYNAMIC, DYNAMIC) if size is None else (Dim.of(size[0]), Dim.of(size[1]))
        return [TensorInfo(data.etype, (*batch, channels, *spatial))]

    def compute(self, attrs: Col2ImAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        size = [int(v) for v in np.asarray(inputs[1]).reshape(-1)]
        kernel = [int(v) for v in np.asarray(inputs[2]).reshape(-1)]
        self.infer(attrs, [TensorInfo(None, static_shape(x.shape))] +
                   [TensorInfo(None, static_shape((2,)), np.asarray(v)) for v in (size, kernel)])
        batched = x.ndim == 3
        xb = x if batched else x[np.newaxis]
        n = xb.shape[0]
        kh, kw = kernel
        c = xb.shape[1] // (kh * kw)
        bh, bw = self._blocks(attrs, size, kernel)
        cols = xb.reshape(n, c, kh, kw, bh, bw)
        (sh, sw), (dh, dw), (ph, pw) = attrs.strides, attrs.dilations, attrs.pads_begin
        padded = np.zeros((n, c, size[0] + ph + attrs.pads_end[0], size[1] + pw + attrs.pads_end[1]),
                          np.float64 if x.dtype.kind == "f" else np.int64)
        for i in range(kh):
            for j in range(kw):
                padded[:, :, i * dh: i * dh + (bh - 1) * sh + 1: sh, j * dw: j * dw + (bw - 1) * sw + 1: sw] += \
                    cols[:, :, i, j]
        out = padded[:, :, ph: ph + size[0], pw: pw + size[1]].astype(x.dtype)
        return [out if batched else out[0]]
