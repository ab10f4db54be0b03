"""GridSample-9: sample data [N, C, H, W] at the normalised (x, y) points of grid [N, Ho, Wo, 2].

As the reference kernel: coordinates are denormalised in the grid's type; the padding mode acts on
the integer pixel indices each tap reads (zeros: outside reads 0; border: clamp; reflection: mirror,
about the edge pixels with align_corners and about the image borders without); nearest rounds half
to even; bicubic uses the 4 x 4 neighbourhood with A = -0.75. Every tap is one gather over all
output points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.dims import merge
from irlint.ops.registry import register
from irlint.types import format_shape, static_shape


@dataclass(frozen=True)
class GridSampleAttrs:
    align_corners: bool = False
    mode: str = "bilinear"
    padding_mode: str = "zeros"


def _denormalise(v: np.ndarray, size: int, align: bool) -> np.ndarray:
    one, two = v.dtype.type(1), v.dtype.type(2)
    if align:
        return (v + one) * (v.dtype.type(size) - one) / two
    return ((v + one) * v.dtype.type(size) - one) / two


def _pad_index(i: np.ndarray, size: int, mode: str, align: bool) -> tuple[np.ndarray, np.ndarray | None]:
    """(index inside [0, size), mask of valid reads or None) for integer pixel indices `i`."""
    if mode == "zeros":
        valid = (i >= 0) & (i < size)
        return np.clip(i, 0, size - 1), valid
    if mode == "border":
        return np.clip(i, 0, size - 1), None
    if align:
        period = 1 if size == 1 else 2 * (size - 1)
        r = np.abs(i) % period
        return np.where(r >= size, period - r, r), None
    period = 2 * size
    r = (i % period + period) % period
    return np.where(r >= size, period - 1 - r, r), None


def _cubic(t: np.ndarray) -> list[np.ndarray]:
    a = -0.75
    return [((a * (t + 1) - 5 * a) * (t + 1) + 8 * a) * (t + 1) - 4 * a,
            ((a + 2) * t - (a + 3)) * t * t + 1,
            ((a + 2) * (1 - t) - (a + 3)) * (1 - t) * (1 - t) + 1,
            ((a * (2 - t) - 5 * a) * (2 - t) + 8 * a) * (2 - t) - 4 * a]


@register
class GridSample(Op):
    types = ("GridSample",)
    versions = ("opset9",)
    Attrs = GridSampleAttrs
    arity = (2, 2)
    infer_reads_values = False

    def _modes(self, attrs: GridSampleAttrs) -> tuple[str, str]:
        mode, pad = attrs.mode.lower(), attrs.padding_mode.lower()
        if mode not in ("bilinear", "bicubic", "nearest"):
            raise OpError(f"GridSample: mode={attrs.mode!r} is not bilinear, bicubic or nearest")
        if pad not in ("zeros", "border", "reflection"):
            raise OpError(f"GridSample: padding_mode={attrs.padding_mode!r} is not zeros, border or reflection")
        return mode, pad

    def infer(self, attrs: GridSampleAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        self._modes(attrs)
        data, grid = inputs
        for name, t in (("data", data), ("grid", grid)):
            if t.etype is not None and not t.etype.is_dynamic and not t.etype.is_float:
                raise OpError(f"GridSample: {name} must be floating-point, got {t.etype}")
            if t.shape is not None and len(t.shape) != 4:
                raise OpError(f"GridSample: {name} {format_shape(t.shape)} must be 4-D")
        if data.shape is None or grid.shape is None:
            return [TensorInfo(data.etype, None)]
        if grid.shape[3].is_static and grid.shape[3].lo != 2:
            raise OpError(f"GridSample: grid {format_shape(grid.shape)} must end in 2 (x, y)")
        batch = merge(data.shape[0], grid.shape[0])
        if batch is None:
            raise OpError(f"GridSample: data {format_shape(data.shape)} and grid {format_shape(grid.shape)} differ "
                          "in the batch dim")
        return [TensorInfo(data.etype, (batch, data.shape[1], grid.shape[1], grid.shape[2]))]

    def compute(self, attrs: GridSampleAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        data, grid = np.asarray(inputs[0]), np.asarray(inputs[1])
        self.infer(attrs, [TensorInfo(None, static_shape(a.shape)) for a in (data, grid)])
        mode, pad = self._modes(attrs)
        n, _, h, w = data.shape
        yd = _denormalise(grid[..., 1], h, attrs.align_corners)
        xd = _denormalise(grid[..., 0], w, attrs.align_corners)
        batch = np.arange(n).reshape(n, 1, 1)
        values = data.astype(np.float64)

        def read(yi: np.ndarray, xi: np.ndarray) -> np.ndarray:
            """data[n, :, yi, xi] for every output point, padded: [N, C, Ho, Wo]."""
            ys, vy = _pad_index(yi, h, pad, attrs.align_corners)
            xs, vx = _pad_index(xi, w, pad, attrs.align_corners)
            got = np.moveaxis(values[batch, :, ys, xs], -1, 1)
            if vy is not None and vx is not None:
                got = got * (vy & vx)[:, np.newaxis]
            return got

        if mode == "nearest":
            out = read(np.rint(yd).astype(np.int64), np.rint(xd).astype(np.int64))
        else:
            y0, x0 = np.floor(yd), np.floor(xd)
            dy = (yd - y0).astype(np.float64)[:, np.newaxis]
            dx = (xd - x0).astype(np.float64)[:, np.newaxis]
            y0i, x0i = y0.astype(np.int64), x0.astype(np.int64)
            if mode == "bilinear":
                q0 = (1 - dx) * read(y0i, x0i) + dx * read(y0i, x0i + 1)
                q1 = (1 - dx) * read(y0i + 1, x0i) + dx * read(y0i + 1, x0i + 1)
                out = dy * q1 + (1 - dy) * q0
            else:
                cy, cx = _cubic(dy), _cubic(dx)
                out = sum(cy[j] * sum(cx[i] * read(y0i - 1 + j, x0i - 1 + i) for i in range(4)) for j in range(4))
        return [np.asarray(out).astype(data.dtype)]
