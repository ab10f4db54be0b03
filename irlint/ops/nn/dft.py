"""DFT-7, IDFT-7, RDFT-9 and IRDFT-9: discrete Fourier transforms over chosen axes (numpy.fft).

Complex tensors are real tensors with a trailing dim of 2 (real, imaginary); their axes count
without that dim. `signal_size` (-1 = keep) crops or zero-pads each transformed axis at its end
before the transform, as numpy's `s` does. IDFT divides by the transformed size; RDFT keeps the
size // 2 + 1 non-redundant outputs of the last transformed axis, and IRDFT produces 2 * (n - 1)
real samples there unless `signal_size` says otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.movement.axes import int_values
from irlint.ops.movement.dims import merge
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim, Shape, format_shape, static_shape


class _FourierBase(Op):
    Attrs = NoAttrs
    arity = (2, 3)
    complex_input = True
    kind = "dft"  # dft, idft, rdft or irdft

    def _axes(self, axes: list[int], rank: int) -> list[int]:
        """Axes normalised against the signal rank (the data rank without the complex dim)."""
        op = self.types[0]
        signal_rank = rank - 1 if self.complex_input else rank
        out = []
        for a in axes:
            if not -signal_rank <= a < signal_rank:
                raise OpError(f"{op}: axis {a} is out of range for a signal of rank {signal_rank}")
            out.append(a + signal_rank if a < 0 else a)
        if len(set(out)) != len(out):
            raise OpError(f"{op}: axes {axes} repeat an axis")
        return out

    def _out_shape(self, shape: Shape, axes: list[int], sizes: list[int] | None) -> Shape:
        op = self.types[0]
        if sizes is not None and len(sizes) != len(axes):
            raise OpError(f"{op}: signal_size has {len(sizes)} values for {len(axes)} axes")
        signal = list(shape[:-1] if self.complex_input else shape)
        for i, a in enumerate(axes):
            size = -1 if sizes is None else sizes[i]
            if size < -1 or size == 0:
                raise OpError(f"{op}: signal_size {size} must be positive or -1")
            last = i == len(axes) - 1
            if self.kind == "irdft" and last:
                d = signal[a]
                signal[a] = Dim.of(size) if size != -1 else Dim(max(0, 2 * (d.lo - 1)),
                                                                 None if d.hi is None else 2 * (d.hi - 1))
            elif size != -1:
                signal[a] = Dim.of(size)
            if self.kind == "rdft" and last:
                d = signal[a]
                signal[a] = Dim(d.lo // 2 + 1, None if d.hi is None else d.hi // 2 + 1)
        return tuple(signal) if self.kind == "irdft" else (*signal, Dim.of(2))

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = self.types[0]
        data, axes_in = inputs[:2]
        if data.etype is not None and not data.etype.is_dynamic and not data.etype.is_float:
            raise OpError(f"{op}: data must be floating-point, got {data.etype}")
        if data.shape is None:
            return [TensorInfo(data.etype, None)]
        if self.complex_input and (len(data.shape) < 2 or merge(data.shape[-1], Dim.of(2)) is None):
            raise OpError(f"{op}: complex data {format_shape(data.shape)} must end in a dim of 2")
        axes = int_values(axes_in)
        sizes = int_values(inputs[2]) if len(inputs) > 2 else None
        if axes is None or (len(inputs) > 2 and sizes is None):
            rank = len(data.shape) if self.kind != "rdft" else len(data.shape) + 1
            return [TensorInfo(data.etype, (DYNAMIC,) * (rank - 1 if self.kind == "irdft" else rank))]
        return [TensorInfo(data.etype, self._out_shape(data.shape, self._axes(axes, len(data.shape)), sizes))]

    def compute(self, attrs: NoAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        infos = [TensorInfo(None, static_shape(np.shape(a)), None if i == 0 else np.asarray(a))
                 for i, a in enumerate(inputs)]
        (info,) = self.infer(attrs, infos)
        axes = self._axes([int(a) for a in np.asarray(inputs[1]).reshape(-1)], x.ndim)
        out = [d.lo for d in info.shape]  # type: ignore[union-attr]
        if self.kind == "rdft":
            sizes = [out[a] for a in axes[:-1]] + [x.shape[axes[-1]] if len(inputs) < 3 or
                                                   int(np.asarray(inputs[2]).reshape(-1)[-1]) == -1
                                                   else int(np.asarray(inputs[2]).reshape(-1)[-1])]
            y = np.fft.rfftn(x.astype(np.float64), s=sizes, axes=axes)
        else:
            z = x[..., 0].astype(np.float64) + 1j * x[..., 1].astype(np.float64)
            sizes = [out[a] for a in axes]
            if self.kind == "dft":
                y = np.fft.fftn(z, s=sizes, axes=axes)
            elif self.kind == "idft":
                y = np.fft.ifftn(z, s=sizes, axes=axes)
            else:
                return [np.fft.irfftn(z, s=sizes, axes=axes).astype(x.dtype)]
        return [np.stack([y.real, y.imag], axis=-1).astype(x.dtype)]


@register
class DFT(_FourierBase):
    types = ("DFT",)
    versions = ("opset7",)


@register
class IDFT(_FourierBase):
    types = ("IDFT",)
    versions = ("opset7",)
    kind = "idft"


@register
class RDFT(_FourierBase):
    types = ("RDFT",)
    versions = ("opset9",)
    complex_input = False
    kind = "rdft"


@register
class IRDFT(_FourierBase):
    types = ("IRDFT",)
    versions = ("opset9",)
    kind = "irdft"
