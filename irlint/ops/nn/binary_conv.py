"""BinaryConvolution-1 (mode xnor-popcount): a 2-D convolution of bits, each read as -1 or +1.

Follows OpenVINO's CPU plugin, the one runtime that runs the op, and the Model Optimizer that wrote
it: the u1 filter's element i is bit i % 8 counted from the lowest bit of byte i // 8 (the core
reference and `Constant` count from the highest bit, so irlint's loaded filter is reversed within
each group of 8 here, which needs a filter size that is a multiple of 8); an input element is 1
where it is > 0; padding is `pad_value` read as a real number: 1 is a 1-bit, 0 leaves the position
out of the sum (and out of the bit count), anything else is a 0-bit. Output = the sum over the
window of +1 where the bits agree and -1 where they differ (2 * popcount(xnor) - bits), in the
input's element type.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.nn.conv import Convolution
from irlint.ops.nn.spatial import check_auto_pad, fill_axes, pad, resolve_pads, window_out, windows
from irlint.ops.registry import register
from irlint.types import format_shape, static_shape


@dataclass(frozen=True)
class BinaryConvAttrs:
    strides: tuple[int, ...]
    dilations: tuple[int, ...]
    pads_begin: tuple[int, ...]
    pads_end: tuple[int, ...]
    mode: str
    pad_value: float
    auto_pad: str = "explicit"


def filter_bits(w: np.ndarray) -> np.ndarray:
    """The filter as 0/1 bits in the CPU plugin's order: u1 elements reversed in each group of 8 of
    the flat array; another element type is a bit where it is > 0."""
    if w.dtype.name != "uint1":
        return (w > 0).astype(np.int8)
    if w.size % 8:
        # The loader keeps a u1 Const's first `size` bits counted from each byte's highest bit; the
        # CPU order puts the last (size % 8) elements in the lowest bits of the last byte, dropped.
        raise OpError(f"BinaryConvolution: a u1 filter of {w.size} elements (not a multiple of 8) cannot be "
                      "read in the CPU plugin's bit order from irlint's unpacked constant")
    return w.astype(np.int8).reshape(-1, 8)[:, ::-1].reshape(w.shape)


@register
class BinaryConvolution(Op):
    types = ("BinaryConvolution",)
    versions = ("opset1",)
    Attrs = BinaryConvAttrs
    arity = (2, 2)
    infer_reads_values = False

    def _check(self, attrs: BinaryConvAttrs) -> None:
        if attrs.mode.lower() != "xnor-popcount":
            raise OpError(f"BinaryConvolution: mode={attrs.mode!r} is not xnor-popcount")

    def infer(self, attrs: BinaryConvAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        attrs = fill_axes(attrs, 2)
        self._check(attrs)
        data, filters = inputs
        for name, t in (("data", data), ("filters", filters)):
            if t.shape is not None and len(t.shape) != 4:
                raise OpError(f"BinaryConvolution: {name} {format_shape(t.shape)} must be 4-D")
        if data.etype is not None and not data.etype.is_float and not data.etype.is_dynamic:
            raise OpError(f"BinaryConvolution: data must be floating-point, got {data.etype}")
        (out,) = Convolution().infer(attrs, [data, TensorInfo(None, filters.shape)])
        return [TensorInfo(data.etype, out.shape)]

    def compute(self, attrs: BinaryConvAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x, w = np.asarray(inputs[0]), np.asarray(inputs[1])
        attrs = fill_axes(attrs, 2)
        self.infer(attrs, [TensorInfo(None, static_shape(x.shape)), TensorInfo(None, static_shape(w.shape))])
        kernel = w.shape[2:]
        auto_pad = check_auto_pad("BinaryConvolution", attrs.auto_pad)
        pb, pe = resolve_pads(auto_pad, x.shape[2:], kernel, attrs.strides, attrs.dilations,
                              attrs.pads_begin or (0, 0), attrs.pads_end or (0, 0))
        out = [window_out(x.shape[2 + a], kernel[a], attrs.strides[a], attrs.dilations[a], pb[a], pe[a], "floor",
                          "explicit") for a in range(2)]
        signs = np.where(x > 0, 1, -1).astype(np.int64)
        fill = 0 if attrs.pad_value == 0 else 1 if attrs.pad_value == 1 else -1
        win = windows(pad(signs, pb, pe, fill), kernel, attrs.strides, attrs.dilations, out)  # [N, C, *out, *k]
        w_signs = filter_bits(w).astype(np.int64) * 2 - 1
        y = np.einsum("ncyxkl,ockl->noyx", win, w_signs, optimize=True)
        return [y.astype(x.dtype)]
