"""Sliding-window arithmetic shared by convolutions and pooling: padding, output sizes, windows.

Output sizes are computed on `Dim` intervals (the formulas are monotone in the input size, so the
bounds of the input interval give the bounds of the output), and windows are strided views of a
padded array, so kernels are one `einsum`/reduction instead of loops over output positions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TypeVar

import numpy as np

from irlint.ops.base import OpError
from irlint.ops.openvino_fills import PER_AXIS
from irlint.types import Dim

AUTO_PADS = ("explicit", "notset", "same_upper", "same_lower", "valid", "")


def check_auto_pad(op: str, auto_pad: str) -> str:
    mode = auto_pad.lower()
    if mode not in AUTO_PADS:
        raise OpError(f"{op}: auto_pad={auto_pad!r} is not one of explicit, same_upper, same_lower, valid")
    return "explicit" if mode in ("notset", "") else mode


A = TypeVar("A")


def fill_axes(attrs: A, n: int, names: Sequence[str] = tuple(PER_AXIS)) -> A:
    """`attrs` with each empty per-axis list of `names` (an IR that leaves it out binds it empty:
    irlint.ops.openvino_fills) read as OpenVINO's shape inference reads it: 1 (strides, dilations)
    or 0 (pads) on each of the `n` spatial axes."""
    changes = {name: (PER_AXIS[name],) * n for name in names if getattr(attrs, name) == ()}
    return dataclasses.replace(attrs, **changes) if changes else attrs  # type: ignore[type-var]


def check_lengths(op: str, n: int, **lists: Sequence[int]) -> None:
    """Every per-spatial-axis attribute must have one entry per spatial axis."""
    for name, values in lists.items():
        if len(values) != n:
            raise OpError(f"{op}: {name} has {len(values)} values, the input has {n} spatial axes")
    for name in ("strides", "dilations"):
        if name in lists and any(v < 1 for v in lists[name]):
            raise OpError(f"{op}: {name} must be positive, got {list(lists[name])}")


def same_pads(size: int, kernel: int, stride: int, dilation: int, auto_pad: str) -> tuple[int, int]:
    """(begin, end) padding of auto_pad same_upper/same_lower: output = ceil(size / stride)."""
    out = -(-size // stride)
    total = max(0, (out - 1) * stride + (kernel - 1) * dilation + 1 - size)
    small = total // 2
    return (small, total - small) if auto_pad == "same_upper" else (total - small, small)


def resolve_pads(auto_pad: str, sizes: Sequence[int], kernel: Sequence[int], strides: Sequence[int],
                 dilations: Sequence[int], pads_begin: Sequence[int],
                 pads_end: Sequence[int]) -> tuple[list[int], list[int]]:
    """Concrete pads for static spatial sizes under `auto_pad` (already normalised)."""
    n = len(sizes)
    if auto_pad == "valid":
        return [0] * n, [0] * n
    if auto_pad in ("same_upper", "same_lower"):
        pairs = [same_pads(s, k, st, d, auto_pad) for s, k, st, d in zip(sizes, kernel, strides, dilations)]
        return [p[0] for p in pairs], [p[1] for p in pairs]
    return list(pads_begin), list(pads_end)


def window_out(size: int, kernel: int, stride: int, dilation: int, pb: int, pe: int, rounding: str,
               auto_pad: str) -> int:
    """Output length along one axis for a window op (convolution or pooling) on a static size."""
    if auto_pad in ("same_upper", "same_lower"):
        return -(-size // stride)
    span = (kernel - 1) * dilation + 1
    if auto_pad == "valid":
        pb = pe = 0
    room = size + pb + pe - span
    if room < 0:
        raise OpError(f"window of {span} (kernel {kernel}, dilation {dilation}) is larger than the padded "
                      f"input ({size} + {pb} + {pe})")
    if rounding == "floor":
        return room // stride + 1
    out = -(-room // stride) + 1
    if rounding == "ceil_torch" and (out - 1) * stride >= size + pb:
        out -= 1  # the last window must start inside the input or the begin padding
    return out


def window_out_dim(d: Dim, kernel: int, stride: int, dilation: int, pb: int, pe: int, rounding: str,
                   auto_pad: str) -> Dim:
    """`window_out` on an interval: the bounds of the input give the bounds of the output."""
    if d.is_static:
        return Dim.of(window_out(d.lo, kernel, stride, dilation, pb, pe, rounding, auto_pad))
    if auto_pad == "valid":
        pb = pe = 0
    smallest = d.lo if auto_pad in ("same_upper", "same_lower") else max(d.lo, (kernel - 1) * dilation + 1 - pb - pe)
    if d.hi is not None and d.hi < smallest:
        window_out(d.hi, kernel, stride, dilation, pb, pe, rounding, auto_pad)  # raises: never fits
    lo = window_out(smallest, kernel, stride, dilation, pb, pe, rounding, auto_pad)
    hi = None if d.hi is None else window_out(d.hi, kernel, stride, dilation, pb, pe, rounding, auto_pad)
    return Dim(lo, hi)


def pad(x: np.ndarray, pads_begin: Sequence[int], pads_end: Sequence[int], value: float) -> np.ndarray:
    """Pad the trailing spatial axes of `x` (negative pads crop)."""
    n = len(pads_begin)
    lead = x.ndim - n
    crop = tuple([slice(None)] * lead + [slice(max(0, -b), x.shape[lead + i] - max(0, -e) or None)
                                         for i, (b, e) in enumerate(zip(pads_begin, pads_end))])
    x = x[crop]
    widths = [(0, 0)] * lead + [(max(0, b), max(0, e)) for b, e in zip(pads_begin, pads_end)]
    if any(w != (0, 0) for w in widths):
        x = np.pad(x, widths, constant_values=value)
    return x


def windows(x: np.ndarray, kernel: Sequence[int], strides: Sequence[int], dilations: Sequence[int],
            out: Sequence[int]) -> np.ndarray:
    """A read-only view [..., *out, *kernel] of the windows over the trailing spatial axes of `x`."""
    n = len(kernel)
    lead = x.shape[: x.ndim - n]
    lead_strides = x.strides[: x.ndim - n]
    sp = x.strides[x.ndim - n:]
    shape = (*lead, *out, *kernel)
    strides_b = (*lead_strides, *(s * st for s, st in zip(sp, strides)), *(s * d for s, d in zip(sp, dilations)))
    return np.lib.stride_tricks.as_strided(x, shape=shape, strides=strides_b, writeable=False)
