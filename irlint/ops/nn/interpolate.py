"""Interpolate-1, -4 and -11: resizing along chosen axes (nearest, linear, linear_onnx, cubic and,
for v11, bilinear_pillow and bicubic_pillow).

Every mode the reference kernel implements is separable: an output element is a product over the
resized axes of per-axis weights (the `linear` mode normalises by the product of per-axis sums), so
the kernel builds one small [out, in] weight matrix (or index vector for `nearest`) per axis and
applies it along that axis. Source coordinates are computed in float32, as the reference does, so
nearest-pixel rounding at .5 boundaries lands on the same pixel. Interpolate-1 is read as OpenVINO
reads it: as Interpolate-4 in sizes mode with `simple` nearest rounding and `asymmetric` or
`align_corners` coordinates (`half_pixel` for linear modes without pads unless a 4-D input resizes
axes {2, 3}).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.axes import int_values, normalize_axis
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim, Shape, format_shape, static_shape

F32 = np.float32
MODES = ("nearest", "linear", "linear_onnx", "cubic")
TRANSFORMS = ("half_pixel", "pytorch_half_pixel", "asymmetric", "tf_half_pixel_for_nn", "align_corners")
NEAREST = ("round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "simple")
EPSILON = F32(1e-6)  # added to a scale before it multiplies a dim, as OpenVINO's shape inference does


@dataclass(frozen=True)
class Interpolate4Attrs:
    mode: str
    shape_calculation_mode: str
    coordinate_transformation_mode: str = "half_pixel"
    nearest_mode: str = "round_prefer_floor"
    antialias: bool = False
    pads_begin: tuple[int, ...] = ()
    pads_end: tuple[int, ...] = ()
    cube_coeff: float = -0.75


@dataclass(frozen=True)
class Interpolate1Attrs:
    axes: tuple[int, ...]
    mode: str
    align_corners: bool = True
    antialias: bool = False
    pads_begin: tuple[int, ...] = ()
    pads_end: tuple[int, ...] = ()


@dataclass(frozen=True)
class ResizeMethod:
    """How to resize: the Interpolate-4 reading of any version."""

    mode: str
    transform: str
    nearest: str
    antialias: bool
    cube_coeff: float


# ------------------------------------------------------------------------------ coordinates


def source_coords(transform: str, out_len: int, in_len: int, scale: F32) -> np.ndarray:
    """Source coordinate (float32) of every output position along one axis."""
    x = np.arange(out_len, dtype=F32)
    if scale == F32(1) or out_len == in_len:
        return x
    half = F32(0.5)
    if transform == "half_pixel":
        return (x + half) / scale - half
    if transform == "pytorch_half_pixel":
        return (x + half) / scale - half if out_len > 1 else np.zeros(out_len, F32)
    if transform == "asymmetric":
        return x / scale
    if transform == "tf_half_pixel_for_nn":
        return (x + half) / scale
    if out_len == 1:  # align_corners
        return np.zeros(1, F32)
    return x * (F32(in_len - 1) / F32(out_len - 1))


def _round_half_away(c: np.ndarray) -> np.ndarray:
    return np.sign(c) * np.floor(np.abs(c) + F32(0.5))


def nearest_index(mode: str, c: np.ndarray, downsample: bool, in_len: int) -> np.ndarray:
    if mode == "round_prefer_floor":
        idx = np.where(c == np.trunc(c) + F32(0.5), np.floor(c), _round_half_away(c))
    elif mode == "round_prefer_ceil":
        idx = _round_half_away(c)
    elif mode == "floor":
        idx = np.floor(c)
    elif mode == "ceil":
        idx = np.ceil(c)
    else:  # simple
        idx = np.ceil(c) if downsample else np.trunc(c)
    return np.clip(idx.astype(np.int64), 0, in_len - 1)


def linear_onnx_weights(c: np.ndarray, in_len: int) -> np.ndarray:
    c = np.clip(c, F32(0), F32(in_len - 1))
    i1 = np.minimum(c.astype(np.int64), in_len - 1)
    i2 = np.minimum(i1 + 1, in_len - 1)
    d1 = np.abs(c - i1.astype(F32))
    d2 = np.abs(c - i2.astype(F32))
    same = i1 == i2
    d1 = np.where(same, F32(0.5), d1)
    d2 = np.where(same, F32(0.5), d2)
    w = np.zeros((len(c), in_len), np.float64)
    rows = np.arange(len(c))
    np.add.at(w, (rows, i1), d2)
    np.add.at(w, (rows, i2), d1)
    return w


def cubic_weights(c: np.ndarray, in_len: int, a: float) -> np.ndarray:
    base = np.floor(c)
    s = np.abs(c - base).astype(np.float64)
    coeffs = [((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a,
              ((a + 2) * s - (a + 3)) * s * s + 1,
              ((a + 2) * (1 - s) - (a + 3)) * (1 - s) * (1 - s) + 1,
              ((a * (2 - s) - 5 * a) * (2 - s) + 8 * a) * (2 - s) - 4 * a]
    w = np.zeros((len(c), in_len), np.float64)
    rows = np.arange(len(c))
    for k in range(4):
        np.add.at(w, (rows, np.clip(base.astype(np.int64) + k - 1, 0, in_len - 1)), coeffs[k])
    return w


def linear_weights(c: np.ndarray, in_len: int, scale: F32, antialias: bool) -> np.ndarray:
    """The `linear` mode: a triangle filter (widened by 1/scale with antialias), normalised per row."""
    a = float(scale) if antialias else 1.0
    r = 2 if scale > 1 else int(np.ceil(2.0 / a))
    centre = _round_half_away(c).astype(np.int64)
    offsets = np.arange(-r, r + 1)
    j = centre[:, None] + offsets[None, :]
    tri = np.maximum(0.0, 1.0 - np.abs(a * (c.astype(np.float64)[:, None] - j)))
    valid = (j >= 0) & (j < in_len)
    w = np.zeros((len(c), in_len), np.float64)
    rows = np.repeat(np.arange(len(c)), len(offsets)).reshape(j.shape)
    np.add.at(w, (rows[valid], j[valid]), tri[valid])
    total = w.sum(axis=1, keepdims=True)
    return np.divide(w, total, out=np.zeros_like(w), where=total != 0)


def _pil_filter(mode: str, t: np.ndarray, a: float) -> np.ndarray:
    t = np.abs(t)
    if mode == "bilinear_pillow":
        return np.where(t < 1, 1 - t, 0.0)
    return np.where(t < 1, ((a + 2) * t - (a + 3)) * t * t + 1, np.where(t < 2, (((t - 5) * t + 8) * t - 4) * a, 0.0))


def pillow_weights(mode: str, in_len: int, out_len: int, a: float) -> np.ndarray:
    """Pillow's resampling filter (Resample.c as the reference kernel ports it): stretched by the
    downscale factor, truncated to [center - support, center + support] and normalised per row."""
    scale = in_len / out_len
    stretch = max(scale, 1.0)
    support = (1.0 if mode == "bilinear_pillow" else 2.0) * stretch
    centre = (np.arange(out_len) + 0.5) * scale
    lo = np.maximum(np.trunc(centre - support + 0.5), 0).astype(np.int64)
    hi = np.minimum(np.trunc(centre + support + 0.5), in_len).astype(np.int64)
    cols = np.arange(in_len)
    inside = (cols[None, :] >= lo[:, None]) & (cols[None, :] < hi[:, None])
    w = np.where(inside, _pil_filter(mode, (cols[None, :] - centre[:, None] + 0.5) / stretch, a), 0.0)
    total = w.sum(axis=1, keepdims=True)
    return np.divide(w, total, out=w.copy(), where=total != 0)


def resize(x: np.ndarray, axes: Sequence[int], sizes: Sequence[int], scales: Sequence[F32],
           plan: ResizeMethod) -> np.ndarray:
    """Resize the (already padded) `x` along `axes` to `sizes`, reading coordinates with `scales`."""
    downsample = any(s < F32(1) for s in scales)
    y = x if plan.mode == "nearest" else x.astype(np.float64)
    for axis, out_len, scale in zip(axes, sizes, scales):
        in_len = x.shape[axis]
        c = source_coords(plan.transform, out_len, in_len, scale)
        if plan.mode == "nearest":
            y = np.take(y, nearest_index(plan.nearest, c, bool(scale < F32(1)), in_len), axis=axis)
            continue
        if plan.mode.endswith("_pillow"):
            w = pillow_weights(plan.mode, in_len, out_len, plan.cube_coeff)
        elif plan.mode == "linear_onnx":
            w = linear_onnx_weights(c, in_len)
        elif plan.mode == "cubic":
            w = cubic_weights(c, in_len, plan.cube_coeff)
        else:
            w = linear_weights(c, in_len, scale, plan.antialias and downsample)
        y = np.moveaxis(np.tensordot(y, w, axes=([axis], [1])), -1, axis)
    if plan.mode != "nearest" and x.dtype.kind in "iu":
        y = _round_half_away(y)
    return np.ascontiguousarray(y).astype(x.dtype)


# ------------------------------------------------------------------------------ shapes


def _pads(pads: Sequence[int], rank: int, op: str, what: str) -> list[int]:
    if len(pads) > rank:
        raise OpError(f"{op}: {what} has {len(pads)} values for rank {rank}")
    if any(p < 0 for p in pads):
        raise OpError(f"{op}: {what} must be non-negative, got {list(pads)}")
    return list(pads) + [0] * (rank - len(pads))


def padded(shape: Shape, pb: Sequence[int], pe: Sequence[int]) -> Shape:
    return tuple(Dim(d.lo + b + e, None if d.hi is None else d.hi + b + e) for d, b, e in zip(shape, pb, pe))


def scaled_dim(d: Dim, scale: F32) -> Dim:
    m = F32(scale) + EPSILON
    return Dim(int(F32(d.lo) * m), None if d.hi is None else int(F32(d.hi) * m))


def _check_axes(op: str, axes: Sequence[int], rank: int) -> list[int]:
    out = [normalize_axis(op, a, rank) for a in axes]
    if len(set(out)) != len(out):
        raise OpError(f"{op}: axes {list(axes)} repeat an axis")
    return out


class _InterpolateBase(Op):
    modes: tuple[str, ...] = MODES

    def check_plan(self, plan: ResizeMethod) -> ResizeMethod:
        op = self.types[0]
        for value, allowed, name in ((plan.mode, self.modes, "mode"), (plan.transform, TRANSFORMS,
                                     "coordinate_transformation_mode"), (plan.nearest, NEAREST, "nearest_mode")):
            if value not in allowed:
                raise OpError(f"{op}: {name}={value!r} is not one of {', '.join(allowed)}")
        return plan


@register
class Interpolate4(_InterpolateBase):
    """Interpolate-4: data, sizes, scales, optional axes; `shape_calculation_mode` picks sizes or scales."""

    types = ("Interpolate",)
    versions = ("opset4",)
    Attrs = Interpolate4Attrs
    arity = (3, 4)
    axes_input = 3

    def plan(self, attrs: Interpolate4Attrs) -> ResizeMethod:
        return self.check_plan(ResizeMethod(attrs.mode.lower(), attrs.coordinate_transformation_mode.lower(),
                                    attrs.nearest_mode.lower(), attrs.antialias, attrs.cube_coeff))

    def _by_sizes(self, attrs: Interpolate4Attrs) -> bool:
        mode = attrs.shape_calculation_mode.lower()
        if mode not in ("sizes", "scales"):
            raise OpError(f"{self.types[0]}: shape_calculation_mode={attrs.shape_calculation_mode!r} is not sizes "
                          "or scales")
        return mode == "sizes"

    def _parts(self, attrs: Interpolate4Attrs, inputs: Sequence[TensorInfo]
               ) -> tuple[TensorInfo | None, TensorInfo | None, TensorInfo | None]:
        """(sizes, scales, axes) inputs; the one the mode does not use is None for Interpolate-11."""
        axes = inputs[self.axes_input] if len(inputs) > self.axes_input else None
        return inputs[1], inputs[2], axes

    def infer(self, attrs: Interpolate4Attrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = self.types[0]
        self.plan(attrs)
        by_sizes = self._by_sizes(attrs)
        data = inputs[0]
        sizes_in, scales_in, axes_in = self._parts(attrs, inputs)
        et = sizes_in.etype if by_sizes and sizes_in is not None else None
        if et is not None and not et.is_dynamic and et.name not in ("i32", "i64", "u32", "u64"):
            raise OpError(f"{op}: sizes must be i32, i64, u32 or u64, got {et.name}")
        if data.shape is None:
            return [TensorInfo(data.etype, None)]
        rank = len(data.shape)
        pb = _pads(attrs.pads_begin, rank, op, "pads_begin")
        pe = _pads(attrs.pads_end, rank, op, "pads_end")
        shape = list(padded(data.shape, pb, pe))
        if axes_in is None:
            axes: list[int] | None = list(range(rank))
        else:
            values = int_values(axes_in)
            axes = None if values is None else _check_axes(op, values, rank)
        given = sizes_in if by_sizes else scales_in
        assert given is not None
        values = None if given.value is None else list(np.asarray(given.value).reshape(-1))
        if axes is None:  # unknown axes: any dim may be resized
            return [TensorInfo(data.etype, (DYNAMIC,) * rank)]
        if values is None:
            for a in axes:
                shape[a] = DYNAMIC
            return [TensorInfo(data.etype, tuple(shape))]
        if len(values) != len(axes):
            raise OpError(f"{op}: {'sizes' if by_sizes else 'scales'} has {len(values)} values for {len(axes)} axes")
        for a, v in zip(axes, values):
            if by_sizes:
                if int(v) < 0:
                    raise OpError(f"{op}: sizes must be non-negative, got {int(v)}")
                shape[a] = Dim.of(int(v))
            else:
                if not F32(v) > 0:
                    raise OpError(f"{op}: scales must be positive, got {float(v)}")
                shape[a] = scaled_dim(shape[a], F32(v))
        return [TensorInfo(data.etype, tuple(shape))]

    def compute(self, attrs: Interpolate4Attrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        infos = [TensorInfo(None, static_shape(np.shape(a)), np.asarray(a)) for a in inputs]
        infos[0] = TensorInfo(None, static_shape(np.shape(inputs[0])))
        (info,) = self.infer(attrs, infos)
        out_shape = [d.lo for d in info.shape]  # type: ignore[union-attr]
        x = np.asarray(inputs[0])
        rank = x.ndim
        pb = _pads(attrs.pads_begin, rank, self.types[0], "pads_begin")
        pe = _pads(attrs.pads_end, rank, self.types[0], "pads_end")
        xp = np.pad(x, list(zip(pb, pe))) if any(pb) or any(pe) else x
        _, scales_in, axes_in = self._parts(attrs, infos)
        axes = list(range(rank)) if axes_in is None else _check_axes(
            self.types[0], [int(v) for v in np.asarray(axes_in.value).reshape(-1)], rank)
        if any(xp.shape[a] == 0 and out_shape[a] > 0 for a in axes):
            raise OpError(f"{self.types[0]}: cannot resize an empty axis of {list(xp.shape)} to {out_shape}")
        if self._by_sizes(attrs):
            scales = [F32(out_shape[a]) / F32(xp.shape[a]) for a in axes]
        else:
            assert scales_in is not None
            scales = [F32(v) for v in np.asarray(scales_in.value).reshape(-1)]
        return [resize(xp, axes, [out_shape[a] for a in axes], scales, self.plan(attrs))]


@register
class Interpolate11(Interpolate4):
    """Interpolate-11: data, scales_or_sizes, optional axes."""

    versions = ("opset11",)
    arity = (2, 3)
    axes_input = 2
    modes = (*MODES, "bilinear_pillow", "bicubic_pillow")

    def _parts(self, attrs: Interpolate4Attrs, inputs: Sequence[TensorInfo]
               ) -> tuple[TensorInfo | None, TensorInfo | None, TensorInfo | None]:
        axes = inputs[2] if len(inputs) > 2 else None
        return (inputs[1], None, axes) if self._by_sizes(attrs) else (None, inputs[1], axes)

    def infer(self, attrs: Interpolate4Attrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        outs = super().infer(attrs, inputs)
        if attrs.mode.lower().endswith("_pillow") and len(inputs) > 2 and inputs[2].value is not None \
                and np.asarray(inputs[2].value).size != 2:
            raise OpError("Interpolate-11: the Pillow modes resize exactly two axes (H, W)")
        return outs


@register
class Interpolate1(_InterpolateBase):
    """Interpolate-1 (opset1): data and the target sizes of the `axes` attribute."""

    types = ("Interpolate",)
    versions = ("opset1",)
    Attrs = Interpolate1Attrs
    arity = (2, 2)

    def plan(self, attrs: Interpolate1Attrs, rank: int) -> ResizeMethod:
        mode = attrs.mode.lower()
        if mode == "linear":
            if rank > 5:
                raise OpError(f"Interpolate-1: mode linear supports ranks up to 5, got {rank}")
            mode = "linear_onnx" if rank < 5 else "linear"
        transform = "asymmetric"
        if attrs.align_corners:
            transform = "align_corners"
        elif mode in ("linear", "linear_onnx") and not any(attrs.pads_begin) and not any(attrs.pads_end) \
                and not (rank == 4 and set(attrs.axes) == {2, 3}):
            transform = "half_pixel"
        return self.check_plan(ResizeMethod(mode, transform, "simple", attrs.antialias, -0.75))

    def infer(self, attrs: Interpolate1Attrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, target = inputs
        if data.shape is None:
            return [TensorInfo(data.etype, None)]
        rank = len(data.shape)
        self.plan(attrs, rank)
        pb = _pads(attrs.pads_begin, rank, "Interpolate-1", "pads_begin")
        pe = _pads(attrs.pads_end, rank, "Interpolate-1", "pads_end")
        axes = _check_axes("Interpolate-1", attrs.axes, rank)
        shape = list(padded(data.shape, pb, pe))
        values = int_values(target)
        if values is not None and len(values) != len(axes):
            raise OpError(f"Interpolate-1: target shape has {len(values)} values for axes {list(attrs.axes)}")
        for i, a in enumerate(axes):
            shape[a] = DYNAMIC if values is None else Dim.of(values[i])
        if values is not None and any(v < 0 for v in values):
            raise OpError(f"Interpolate-1: target sizes must be non-negative, got {values}")
        return [TensorInfo(data.etype, tuple(shape))]

    def compute(self, attrs: Interpolate1Attrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        target = np.asarray(inputs[1])
        (info,) = self.infer(attrs, [TensorInfo(None, static_shape(x.shape)),
                                     TensorInfo(None, static_shape(target.shape), target)])
        out_shape = [d.lo for d in info.shape]  # type: ignore[union-attr]
        pb = _pads(attrs.pads_begin, x.ndim, "Interpolate-1", "pads_begin")
        pe = _pads(attrs.pads_end, x.ndim, "Interpolate-1", "pads_end")
        xp = np.pad(x, list(zip(pb, pe))) if any(pb) or any(pe) else x
        axes = _check_axes("Interpolate-1", attrs.axes, x.ndim)
        scales = [F32(out_shape[a]) / F32(xp.shape[a]) for a in axes]
        if any(xp.shape[a] == 0 for a in axes):
            raise OpError(f"Interpolate-1: cannot resize an empty axis of {format_shape(info.shape)}")
        return [resize(xp, axes, [out_shape[a] for a in axes], scales, self.plan(attrs, x.ndim))]
