"""STFT-15 and ISTFT-16: short-time Fourier transform of [B, L] (or [L]) signals and its inverse.

As the reference kernel: a window shorter than frame_size is zero-padded on both sides (centred,
the odd sample at the end); frames start every frame_step samples and only whole frames count;
the output is [B, frames, frame_size // 2 + 1, 2], or [B, bins, frames, 2] with `transpose_frames`
(without the B dim for a 1-D signal). Frames are a strided view, so all frames are one rfft.

ISTFT reads [B, bins, frames, 2] (or without B), inverts every frame with one irfft, overlap-adds
the frames times the window and divides by the overlap-added squared window (0 where that is 0;
times sqrt(frame_size) when `normalized`); `center` drops frame_size // 2 samples at the start and
the length is `signal_length` when given (> 0), else the frames' span (minus frame_size rounded
down to even when centred), zero-filled past the data.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.axes import scalar_value
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim, format_shape, static_shape


@dataclass(frozen=True)
class STFTAttrs:
    transpose_frames: bool = False


def _frames(op: str, what: str, inputs: Sequence[TensorInfo]) -> tuple[int | None, int | None]:
    """The checks STFT and ISTFT share: input 0 (`what`) is floating-point, the window 1-D, frame_size
    and frame_step positive; returns (frame_size, frame_step) where they are known."""
    data, window = inputs[:2]
    if data.etype is not None and not data.etype.is_dynamic and not data.etype.is_float:
        raise OpError(f"{op}: {what} must be floating-point, got {data.etype}")
    if window.shape is not None and len(window.shape) != 1:
        raise OpError(f"{op}: window {format_shape(window.shape)} must be 1-D")
    size, step = scalar_value(inputs[2]), scalar_value(inputs[3])
    if (size is not None and size < 1) or (step is not None and step < 1):
        raise OpError(f"{op}: frame_size and frame_step must be positive, got {size} and {step}")
    return size, step


@register
class STFT(Op):
    types = ("STFT",)
    versions = ("opset15",)
    Attrs = STFTAttrs
    arity = (4, 4)

    def infer(self, attrs: STFTAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = "STFT"
        signal, window = inputs[:2]
        size, step = _frames(op, "signal", inputs)
        if size is not None and window.shape is not None and window.shape[0].lo > size:
            raise OpError(f"{op}: window of {window.shape[0]} samples is longer than frame_size {size}")
        if signal.shape is None:
            return [TensorInfo(signal.etype, None)]
        if len(signal.shape) not in (1, 2):
            raise OpError(f"{op}: signal {format_shape(signal.shape)} must be [B, L] or [L]")
        length = signal.shape[-1]
        if size is None or step is None:
            frames, bins = DYNAMIC, DYNAMIC if size is None else Dim.of(size // 2 + 1)
        else:
            if length.hi is not None and length.hi < size:
                raise OpError(f"{op}: signal of {length} samples is shorter than frame_size {size}")
            lo = max(length.lo, size)
            frames = Dim((lo - size) // step + 1, None if length.hi is None else (length.hi - size) // step + 1)
            bins = Dim.of(size // 2 + 1)
        body = (bins, frames) if attrs.transpose_frames else (frames, bins)
        return [TensorInfo(signal.etype, (*signal.shape[:-1], *body, Dim.of(2)))]

    def compute(self, attrs: STFTAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x, window = np.asarray(inputs[0]), np.asarray(inputs[1])
        size = int(np.asarray(inputs[2]).reshape(-1)[0])
        step = int(np.asarray(inputs[3]).reshape(-1)[0])
        self.infer(attrs, [TensorInfo(None, static_shape(x.shape)), TensorInfo(None, static_shape(window.shape)),
                           TensorInfo(None, (), np.asarray(size)), TensorInfo(None, (), np.asarray(step))])
        padded = np.zeros(size, np.float64)
        start = (size - window.shape[0]) // 2
        padded[start: start + window.shape[0]] = window
        signal = x.astype(np.float64).reshape(-1, x.shape[-1])
        count = (signal.shape[1] - size) // step + 1
        frames = np.lib.stride_tricks.as_strided(
            signal, (signal.shape[0], count, size), (signal.strides[0], signal.strides[1] * step, signal.strides[1]),
            writeable=False)
        spec = np.fft.rfft(frames * padded, axis=-1)  # [B, frames, bins]
        out = np.stack([spec.real, spec.imag], axis=-1)
        if attrs.transpose_frames:
            out = out.transpose(0, 2, 1, 3)
        if x.ndim == 1:
            out = out[0]
        return [np.ascontiguousarray(out).astype(x.dtype)]


@dataclass(frozen=True)
class ISTFTAttrs:
    center: bool = False
    normalized: bool = False


def _padded_window(window: np.ndarray, size: int) -> np.ndarray:
    padded = np.zeros(size, np.float64)
    start = (size - window.shape[0]) // 2
    padded[start: start + window.shape[0]] = window
    return padded


@register
class ISTFT(Op):
    types = ("ISTFT",)
    versions = ("opset16",)
    Attrs = ISTFTAttrs
    arity = (4, 5)

    def infer(self, attrs: ISTFTAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = "ISTFT"
        data = inputs[0]
        size, step = _frames(op, "data", inputs)
        if data.shape is None:
            return [TensorInfo(data.etype, None)]
        if len(data.shape) not in (3, 4) or data.shape[-1].hi not in (2, None):
            raise OpError(f"{op}: data {format_shape(data.shape)} must be [B, bins, frames, 2] or [bins, frames, 2]")
        bins, frames = data.shape[-3], data.shape[-2]
        if size is not None and bins.is_static and bins.lo != size // 2 + 1:
            raise OpError(f"{op}: {bins.lo} frequency bins do not match frame_size {size} ({size // 2 + 1} bins)")
        given = scalar_value(inputs[4]) if len(inputs) > 4 else None
        if given is not None and given > 0:
            length = Dim.of(given)
        elif (len(inputs) > 4 and given is None) or size is None or step is None:
            length = DYNAMIC
        else:
            cut = size & ~1 if attrs.center else 0
            lo = max(0, (max(frames.lo, 1) - 1) * step + size - cut)
            length = Dim(lo, None if frames.hi is None else max(0, (frames.hi - 1) * step + size - cut))
        return [TensorInfo(data.etype, (*data.shape[:-3], length))]

    def compute(self, attrs: ISTFTAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x, window = np.asarray(inputs[0]), np.asarray(inputs[1])
        size = int(np.asarray(inputs[2]).reshape(-1)[0])
        step = int(np.asarray(inputs[3]).reshape(-1)[0])
        infos = [TensorInfo(None, static_shape(x.shape)), TensorInfo(None, static_shape(window.shape)),
                 TensorInfo(None, (), np.asarray(size)), TensorInfo(None, (), np.asarray(step))]
        if len(inputs) > 4:
            infos.append(TensorInfo(None, (), np.asarray(inputs[4]).reshape(())))
        (info,) = self.infer(attrs, infos)
        out_len = info.shape[-1].lo  # type: ignore[index]
        data = x.astype(np.float64).reshape(-1, *x.shape[-3:])  # [B, bins, frames, 2]
        batch, _, frames, _ = data.shape
        spectra = data[..., 0] + 1j * data[..., 1]
        signals = np.fft.irfft(spectra, n=size, axis=1)  # [B, frame_size, frames]
        win = _padded_window(window, size)
        span = (frames - 1) * step + size
        total = np.zeros((batch, span))
        weight = np.zeros(span)
        starts = np.arange(frames) * step
        idx = (starts[:, None] + np.arange(size)[None, :]).reshape(-1)  # overlap-add as one scatter
        np.add.at(total, (slice(None), idx), (signals * win[None, :, None]).transpose(0, 2, 1).reshape(batch, -1))
        np.add.at(weight, idx, np.tile(win * win, frames))
        result = np.divide(total, weight, out=np.zeros_like(total), where=weight != 0)
        if attrs.normalized:
            result = result * np.sqrt(size)
        margin = size // 2 if attrs.center else 0
        out = np.zeros((batch, out_len))
        count = min(out_len, span - margin)
        out[:, :count] = result[:, margin: margin + count]
        return [(out if x.ndim == 4 else out[0]).astype(x.dtype)]
