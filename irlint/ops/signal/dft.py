"""DFT-7, IDFT-7, RDFT-9 and IRDFT-9: multi-dimensional discrete Fourier transforms.

A complex tensor is a real one with a trailing dimension of 2 (real, imaginary). `axes` name the
transformed axes (negative axes count from the last *complex* axis for DFT/IDFT/IRDFT and from the
last axis for RDFT); the optional `signal_size` gives each transformed axis's length, the input
being trimmed or zero-padded at the end (-1 keeps the input length). IDFT and IRDFT divide by the
product of the transformed lengths. RDFT keeps the first n//2+1 bins of its last axis and IRDFT
inverts that, producing 2*(n-1) samples unless `signal_size` says otherwise. Computed in float64
with numpy's FFT and returned in the input's type.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.movement.axes import as_int_array, int_values, vector_length
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim, Shape

Array = np.ndarray


def _axes(op: str, axes: list[int], rank: int) -> list[int]:
    out = []
    for a in axes:
        if not -rank <= a < rank:
            raise OpError(f"{op}: axis {a} is out of range [{-rank}, {rank - 1}]")
        out.append(a + rank if a < 0 else a)
    if len(set(out)) != len(out):
        raise OpError(f"{op}: axes {axes} repeat an axis")
    return out


def _check_inputs(op: str, inputs: Sequence[TensorInfo], complex_in: bool) -> None:
    data = inputs[0]
    if data.etype is not None and not data.etype.is_float and not data.etype.is_dynamic:
        raise OpError(f"{op}: data must be floating-point, got {data.etype}")
    if data.shape is not None:
        need = 2 if complex_in else 1
        if len(data.shape) < need:
            raise OpError(f"{op}: data must have rank >= {need}, got {len(data.shape)}")
        if complex_in and data.shape[-1].is_static and data.shape[-1].lo != 2:
            raise OpError(f"{op}: the last dimension holds (real, imaginary) and must be 2, got {data.shape[-1].lo}")
    for name, info in zip(("axes", "signal_size"), inputs[1:], strict=False):
        if info.shape is not None and len(info.shape) != 1:
            raise OpError(f"{op}: {name} must be 1-D, got rank {len(info.shape)}")
        if info.etype is not None and not info.etype.is_integer and not info.etype.is_dynamic:
            raise OpError(f"{op}: {name} must be an integer tensor, got {info.etype}")
    if len(inputs) > 2:
        n_axes, n_sizes = vector_length(op, "axes", inputs[1]), vector_length(op, "signal_size", inputs[2])
        if n_axes is not None and n_sizes is not None and n_axes != n_sizes:
            raise OpError(f"{op}: axes has {n_axes} elements but signal_size has {n_sizes}")


class _Transform(Op):
    """Shared shape function and kernel; subclasses set the kind."""

    arity = (2, 3)
    complex_in = True
    complex_out = True
    inverse = False

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = self.types[0]
        _check_inputs(op, inputs, self.complex_in)
        data = inputs[0]
        if data.shape is None:
            return [TensorInfo(data.etype, None)]
        signal = data.shape[:-1] if self.complex_in else data.shape
        axes_vals = int_values(inputs[1])
        sizes = int_values(inputs[2]) if len(inputs) > 2 else None
        if axes_vals is None:
            if len(inputs) < 3 and self.complex_in and self.complex_out:
                return [TensorInfo(data.etype, data.shape)]
            return [TensorInfo(data.etype, self._tail((DYNAMIC,) * len(signal), data.shape))]
        axes = _axes(op, axes_vals, len(signal))
        out = list(signal)
        if len(inputs) > 2 and sizes is None:
            for a in axes:
                out[a] = DYNAMIC
            return [TensorInfo(data.etype, self._tail(tuple(out), data.shape))]
        for i, a in enumerate(axes):
            if sizes is not None and sizes[i] != -1:
                if sizes[i] < 1 and not (sizes[i] == 0 and not self.complex_out):
                    raise OpError(f"{op}: signal_size {sizes[i]} must be positive or -1")
                out[a] = Dim.of(sizes[i])
        last = axes[-1]
        n = out[last]
        if n != DYNAMIC and not self.complex_in:  # RDFT: the last transformed axis keeps n//2+1 bins
            out[last] = Dim(n.lo // 2 + 1, None if n.hi is None else n.hi // 2 + 1)
        elif n != DYNAMIC and not self.complex_out and (sizes is None or sizes[-1] == -1):  # IRDFT: 2*(n-1)
            out[last] = Dim(max(2 * (n.lo - 1), 0), None if n.hi is None else max(2 * (n.hi - 1), 0))
        return [TensorInfo(data.etype, self._tail(tuple(out), data.shape))]

    def _tail(self, dims: Shape, data: Shape | None = None) -> Shape:
        """The complex pair dim: the input's for DFT/IDFT (as OpenVINO keeps it), 2 for RDFT."""
        if not self.complex_out:
            return dims
        return dims + ((data[-1],) if self.complex_in and data is not None else (Dim.of(2),))

    def compute(self, attrs: NoAttrs, inputs: Sequence[Array]) -> list[Array]:
        op = self.types[0]
        x = np.asarray(inputs[0])
        data = x[..., 0] + 1j * x[..., 1].astype(np.float64) if self.complex_in else x.astype(np.float64)
        if self.complex_in and x.shape[-1] != 2:
            raise OpError(f"{op}: the last dimension must be 2, got {x.shape[-1]}")
        axes = _axes(op, as_int_array(op, "axes", inputs[1]), data.ndim)
        sizes = as_int_array(op, "signal_size", inputs[2]) if len(inputs) > 2 else [-1] * len(axes)
        if len(sizes) != len(axes):
            raise OpError(f"{op}: axes has {len(axes)} elements but signal_size has {len(sizes)}")
        s = [data.shape[a] if n == -1 else n for a, n in zip(axes, sizes, strict=False)]
        if not self.complex_out and sizes[-1] == -1:
            s[-1] = 2 * (data.shape[axes[-1]] - 1)
        if any(n < 1 for n in s):
            raise OpError(f"{op}: transformed lengths {s} must be positive")
        if self.complex_in and self.complex_out:
            y = (np.fft.ifftn if self.inverse else np.fft.fftn)(data, s=s, axes=axes)
        elif self.complex_out:
            y = np.fft.rfftn(data, s=s, axes=axes)
        else:
            y = np.fft.irfftn(data, s=s, axes=axes)
        if self.complex_out:
            y = np.stack([y.real, y.imag], axis=-1)
        return [np.ascontiguousarray(y).astype(x.dtype)]


@register
class DFT(_Transform):
    types = ("DFT",)
    versions = ("opset7",)


@register
class IDFT(_Transform):
    types = ("IDFT",)
    versions = ("opset7",)
    inverse = True


@register
class RDFT(_Transform):
    types = ("RDFT",)
    versions = ("opset9",)
    complex_in = False


@register
class IRDFT(_Transform):
    types = ("IRDFT",)
    versions = ("opset9",)
    complex_out = False
    inverse = True
