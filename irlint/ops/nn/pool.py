"""AvgPool-1/14/16 and MaxPool-1/8/14: pooling over strided window views of the padded input.

Follows OpenVINO's core reference: windows in ceil mode may run past the end padding (those
positions are ignored); AvgPool with exclude-pad=false divides by the full kernel size whenever any
pad is non-zero and by the count of input elements otherwise; MaxPool-8/14 returns the flattened
index of each maximum (first one on ties), counted from dimension `axis` onwards. A window that
lies wholly in the padding gives 0 (AvgPool) and the type's lowest finite value (MaxPool).
AvgPool-16 adds `dilations` (as MaxPool-8 has): the window reads every d-th element, output sizes
use the dilated kernel extent (k - 1) * d + 1, and exclude-pad counts the dilated positions that
fall inside the input; with exclude-pad=false and any pad the divisor is still the kernel size.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.nn.spatial import check_auto_pad, check_lengths, pad, resolve_pads, window_out, window_out_dim, windows
from irlint.ops.registry import register
from irlint.types import I32, I64, Dim, ElementType, Shape, element_type, format_shape


@dataclass(frozen=True)
class AvgPoolAttrs:
    strides: tuple[int, ...]
    pads_begin: tuple[int, ...]
    pads_end: tuple[int, ...]
    kernel: tuple[int, ...]
    exclude_pad: bool = field(default=False, metadata={"ir": "exclude-pad"})
    rounding_type: str = "floor"
    auto_pad: str = "explicit"


@dataclass(frozen=True)
class AvgPool16Attrs(AvgPoolAttrs):
    dilations: tuple[int, ...] = ()


@dataclass(frozen=True)
class MaxPoolAttrs:
    strides: tuple[int, ...]
    pads_begin: tuple[int, ...]
    pads_end: tuple[int, ...]
    kernel: tuple[int, ...]
    rounding_type: str = "floor"
    auto_pad: str = "explicit"
    dilations: tuple[int, ...] = ()
    index_element_type: str = "i64"
    axis: int = 0


class _Pool(Op):
    infer_reads_values = False
    roundings: tuple[str, ...] = ("floor", "ceil")

    def _geometry(self, attrs: AvgPoolAttrs | MaxPoolAttrs, shape: Shape) -> tuple[str, str, tuple[int, ...]]:
        op = self.types[0]
        if len(shape) < 3:
            raise OpError(f"{op}: input {format_shape(shape)} needs rank >= 3 ([N, C, spatial...])")
        n_sp = len(shape) - 2
        rounding = attrs.rounding_type.lower()
        if rounding not in self.roundings:
            raise OpError(f"{op}: rounding_type={attrs.rounding_type!r} is not one of {', '.join(self.roundings)}")
        auto_pad = check_auto_pad(op, attrs.auto_pad)
        dilations = getattr(attrs, "dilations", ()) or (1,) * n_sp
        check_lengths(op, n_sp, strides=attrs.strides, kernel=attrs.kernel, dilations=dilations,
                      **({} if auto_pad != "explicit" else {"pads_begin": attrs.pads_begin or (0,) * n_sp,
                                                            "pads_end": attrs.pads_end or (0,) * n_sp}))
        if any(k < 1 for k in attrs.kernel):
            raise OpError(f"{op}: kernel must be positive, got {list(attrs.kernel)}")
        return rounding, auto_pad, dilations

    def out_shape(self, attrs: AvgPoolAttrs | MaxPoolAttrs, shape: Shape) -> Shape:
        rounding, auto_pad, dilations = self._geometry(attrs, shape)
        n_sp = len(shape) - 2
        pb = attrs.pads_begin or (0,) * n_sp
        pe = attrs.pads_end or (0,) * n_sp
        dims = []
        for a in range(n_sp):
            try:
                dims.append(window_out_dim(shape[2 + a], attrs.kernel[a], attrs.strides[a], dilations[a], pb[a],
                                           pe[a], rounding, auto_pad))
            except OpError as e:
                raise OpError(f"{self.types[0]}: spatial axis {a}: {e}") from None
        return (*shape[:2], *dims)

    def windows(self, attrs: AvgPoolAttrs | MaxPoolAttrs, x: np.ndarray, fill: float
                ) -> tuple[np.ndarray, list[int], list[int], list[int], tuple[int, ...]]:
        """(window view [N, C, *out, *k], output sizes, pads_begin, pads_end, dilations) of `x` padded
        with `fill`."""
        shape = tuple(Dim.of(d) for d in x.shape)
        rounding, auto_pad, dilations = self._geometry(attrs, shape)
        n_sp = x.ndim - 2
        pb, pe = resolve_pads(auto_pad, x.shape[2:], attrs.kernel, attrs.strides, dilations,
                              attrs.pads_begin or (0,) * n_sp, attrs.pads_end or (0,) * n_sp)
        out = [window_out(x.shape[2 + a], attrs.kernel[a], attrs.strides[a], dilations[a], pb[a], pe[a], rounding,
                          "explicit") for a in range(n_sp)]
        # Ceil rounding lets the last window run past the end padding: pad far enough to read it.
        ext = [max(pe[a], (out[a] - 1) * attrs.strides[a] + (attrs.kernel[a] - 1) * dilations[a] + 1
                   - x.shape[2 + a] - pb[a]) for a in range(n_sp)]
        xp = pad(x, pb, ext, fill)
        return windows(xp, attrs.kernel, attrs.strides, dilations, out), out, pb, pe, dilations


def _avg_pool(op: _Pool, attrs: AvgPoolAttrs, x: np.ndarray) -> np.ndarray:
    n_sp = x.ndim - 2
    acc = np.float64 if x.dtype.kind == "f" else np.int64
    win, out, pb, pe, _ = op.windows(attrs, x.astype(acc), 0)
    k_axes = tuple(range(2 + n_sp, 2 + 2 * n_sp))
    total = win.sum(axis=k_axes)
    if not attrs.exclude_pad and (any(pb) or any(pe)):
        count = np.full(out, float(np.prod(attrs.kernel)))
    else:
        ones = np.ones(x.shape[2:], np.float64)
        mask_win, *_ = op.windows(attrs, ones[np.newaxis, np.newaxis], 0)
        count = mask_win.sum(axis=k_axes)[0, 0]
    with np.errstate(invalid="ignore", divide="ignore"):
        y = np.where(count > 0, total / np.maximum(count, 1), 0)
    if x.dtype.kind != "f":
        y = np.rint(y)
    return y.astype(x.dtype)


@register
class AvgPool1(_Pool):
    types = ("AvgPool",)
    versions = ("opset1",)
    Attrs = AvgPoolAttrs

    def infer(self, attrs: AvgPoolAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        x = inputs[0]
        return [TensorInfo(x.etype, None if x.shape is None else self.out_shape(attrs, x.shape))]

    def compute(self, attrs: AvgPoolAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        return [_avg_pool(self, attrs, np.asarray(inputs[0]))]


@register
class AvgPool14(AvgPool1):
    versions = ("opset14",)
    roundings = ("floor", "ceil", "ceil_torch")


@register
class AvgPool16(AvgPool14):
    versions = ("opset16",)
    Attrs = AvgPool16Attrs


def _lowest(dtype: np.dtype) -> float:
    """The value a max starts from: the type's lowest finite value, as in the reference kernel."""
    return float(np.finfo(dtype).min) if dtype.kind == "f" else int(np.iinfo(dtype).min)


@register
class MaxPool1(_Pool):
    types = ("MaxPool",)
    versions = ("opset1",)
    Attrs = MaxPoolAttrs
    with_indices = False

    def _index_type(self, attrs: MaxPoolAttrs) -> ElementType:
        et = element_type(attrs.index_element_type)
        if et not in (I32, I64):
            raise OpError(f"{self.types[0]}: index_element_type={attrs.index_element_type!r} must be i32 or i64")
        return et

    def infer(self, attrs: MaxPoolAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        x = inputs[0]
        shape = None if x.shape is None else self.out_shape(attrs, x.shape)
        outs = [TensorInfo(x.etype, shape)]
        if self.with_indices:
            if x.shape is not None and not -len(x.shape) <= attrs.axis < len(x.shape):
                raise OpError(f"{self.types[0]}: axis {attrs.axis} is out of range for rank {len(x.shape)}")
            outs.append(TensorInfo(self._index_type(attrs), shape))
        return outs

    def compute(self, attrs: MaxPoolAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        low = _lowest(x.dtype)
        win, out, pb, _, dil = self.windows(attrs, x, low)
        n_sp = x.ndim - 2
        flat = win.reshape(*win.shape[: 2 + n_sp], -1)
        # A maximum starts at the lowest finite value and only a strictly greater element replaces it:
        # a window of padding (ceil rounding) or of -inf gives that value and index 0 of its channel.
        values = np.maximum(flat.max(axis=-1), np.asarray(low, x.dtype))
        if not self.with_indices:
            return [values]
        found = values > low
        arg = np.where(found, flat.argmax(axis=-1), 0)
        k_coords = np.unravel_index(arg, attrs.kernel)
        index = np.zeros(arg.shape, np.int64)
        for a in range(n_sp):
            pos = np.arange(out[a]) * attrs.strides[a] - pb[a]
            pos = pos.reshape((1, 1, *(out[a] if b == a else 1 for b in range(n_sp))))
            coord = np.where(found, pos + k_coords[a] * dil[a], 0)
            index = index * x.shape[2 + a] + coord
        axis = attrs.axis + x.ndim if attrs.axis < 0 else attrs.axis
        plane = int(np.prod(x.shape[2:]))
        if axis <= 1:
            index = index + np.arange(x.shape[1]).reshape(1, -1, *([1] * n_sp)) * plane
        if axis == 0:
            index = index + np.arange(x.shape[0]).reshape(-1, 1, *([1] * n_sp)) * plane * x.shape[1]
        return [values, index.astype(self._index_type(attrs).dtype)]


@register
class MaxPool8(MaxPool1):
    versions = ("opset8",)
    with_indices = True


@register
class MaxPool14(MaxPool8):
    versions = ("opset14",)
    roundings = ("floor", "ceil", "ceil_torch")
