"""STFT-15: short-time Fourier transform of [B, L] (or [L]) signals, one rfft per frame.

As the reference kernel: a window shorter than frame_size is zero-padded on both sides (centred,
the odd sample at the end); frames start every frame_step samples and only whole frames count;
the output is [B, frames, frame_size // 2 + 1, 2], or [B, bins, frames, 2] with `transpose_frames`
(without the B dim for a 1-D signal). Frames are a strided view, so all frames are one rfft.
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


@register
class STFT(Op):
    types = ("STFT",)
    versions = ("opset15",)
    Attrs = STFTAttrs
    arity = (4, 4)

    def infer(self, attrs: STFTAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = "STFT"
        signal, window = inputs[:2]
        if signal.etype is not None and not signal.etype.is_dynamic and not signal.etype.is_float:
            raise OpError(f"{op}: signal must be floating-point, got {signal.etype}")
        if window.shape is not None and len(window.shape) != 1:
            raise OpError(f"{op}: window {format_shape(window.shape)} must be 1-D")
        size, step = scalar_value(inputs[2]), scalar_value(inputs[3])
        if (size is not None and size < 1) or (step is not None and step < 1):
            raise OpError(f"{op}: frame_size and frame_step must be positive, got {size} and {step}")
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
