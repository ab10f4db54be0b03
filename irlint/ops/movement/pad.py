"""Pad-1 and Pad-12: grow (or, with negative pads, crop) each dim by pads_begin/pads_end.

Modes: `constant` (input 3, default 0), `edge`, `reflect` (mirror without the border element, pad
at most dim-1) and `symmetric` (mirror with it, pad at most dim). Padded elements are taken from
the whole input, then negative pads crop, so ``reflect`` with begin=-1 still mirrors around the
original first element (OpenVINO's reference does the same). OpenVINO accepts negative pads in
Pad-1 as well as Pad-12, and so do we.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.axes import as_int_array, common_length, int_values
from irlint.ops.movement.dims import dynamic_shape
from irlint.ops.movement.folding import fold
from irlint.ops.registry import register
from irlint.types import Dim, format_shape

MODES = ("constant", "edge", "reflect", "symmetric")


@dataclass(frozen=True)
class PadAttrs:
    pad_mode: str = "constant"


def _grow(op: str, d: Dim, begin: int, end: int, axis: int) -> Dim:
    lo = d.lo + begin + end
    hi = None if d.hi is None else d.hi + begin + end
    if hi is not None and hi < 0:
        raise OpError(f"{op}: pads {begin} and {end} leave axis {axis} of size {d} with a negative size")
    return Dim(max(lo, 0), hi)


def _check_mode_limits(mode: str, dims: Sequence[Dim], begin: Sequence[int], end: Sequence[int]) -> None:
    if mode not in ("reflect", "symmetric"):
        return
    extra = 1 if mode == "reflect" else 0
    for k, (d, b, e) in enumerate(zip(dims, begin, end)):
        if d.hi is not None and max(b, e) > d.hi - extra:
            raise OpError(f"Pad: {mode} mode pads axis {k} (size {d}) by {max(b, e)}; at most "
                          f"{'dim-1' if extra else 'dim'} is allowed")


@register
class Pad(Op):
    types = ("Pad",)
    versions = ("opset1", "opset12")
    Attrs = PadAttrs
    arity = (3, 4)

    def infer(self, attrs: PadAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        if attrs.pad_mode not in MODES:
            raise OpError(f"Pad: pad_mode {attrs.pad_mode!r} is not one of {', '.join(MODES)}")
        data = inputs[0]
        if len(inputs) == 4:
            v = inputs[3]
            if v.shape is not None and len(v.shape) != 0:
                raise OpError(f"Pad: pad_value must be a scalar, got shape {format_shape(v.shape)}")
            if v.etype is not None and data.etype is not None and v.etype != data.etype:
                raise OpError(f"Pad: pad_value is {v.etype} but data is {data.etype}")
        n = common_length("Pad", ["pads_begin", "pads_end"], inputs[1:3])
        rank = data.rank if data.rank is not None else n
        if data.rank is not None and n is not None and n != data.rank:
            raise OpError(f"Pad: pads have {n} elements but data {format_shape(data.shape)} has rank {data.rank}")
        begin, end = int_values(inputs[1]), int_values(inputs[2])
        if data.shape is None or begin is None or end is None:
            return [TensorInfo(data.etype, dynamic_shape(rank))]
        _check_mode_limits(attrs.pad_mode, data.shape, begin, end)
        shape = tuple(_grow("Pad", d, b, e, k) for k, (d, b, e) in enumerate(zip(data.shape, begin, end)))
        return fold(self, attrs, inputs, [TensorInfo(data.etype, shape)])

    def compute(self, attrs: PadAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        begin = as_int_array("Pad", "pads_begin", inputs[1])
        end = as_int_array("Pad", "pads_end", inputs[2])
        if attrs.pad_mode not in MODES:
            raise OpError(f"Pad: pad_mode {attrs.pad_mode!r} is not one of {', '.join(MODES)}")
        if len(begin) != x.ndim or len(end) != x.ndim:
            raise OpError(f"Pad: pads have {len(begin)} and {len(end)} elements; data has rank {x.ndim}")
        dims = [Dim.of(s) for s in x.shape]
        for k, (d, b, e) in enumerate(zip(dims, begin, end)):
            _grow("Pad", d, b, e, k)
        _check_mode_limits(attrs.pad_mode, dims, begin, end)
        widths = [(max(b, 0), max(e, 0)) for b, e in zip(begin, end)]
        if attrs.pad_mode == "constant":
            value = np.asarray(inputs[3]).reshape(()) if len(inputs) == 4 else 0
            out = np.pad(x, widths, mode="constant", constant_values=value)
        elif x.size == 0 and any(w != (0, 0) for w in widths):
            raise OpError(f"Pad: {attrs.pad_mode} mode cannot pad an empty tensor")
        else:
            out = np.pad(x, widths, mode=attrs.pad_mode)
        crop = tuple(slice(max(-b, 0), out.shape[k] - max(-e, 0)) for k, (b, e) in enumerate(zip(begin, end)))
        return [np.ascontiguousarray(out[crop])]
