"""STFT-15 and ISTFT-16: short-time Fourier transform of a real signal and its overlap-add inverse.

STFT cuts [batch,] signal into frames of `frame_size` every `frame_step` samples
(floor((L - frame_size) / frame_step) + 1 frames), multiplies each by the window (zero-padded
symmetrically to frame_size when shorter) and keeps frame_size//2+1 complex bins: output
[batch,] frames, bins, 2, or [batch,] bins, frames, 2 with `transpose_frames`. ISTFT takes the
bins-first layout, inverts every frame with an inverse real DFT, multiplies it by the window,
overlap-adds the frames and divides by the overlap-added squared window (0 where that is 0;
times sqrt(frame_size) when `normalized`), drops frame_size//2 samples at the start with
`center`, and cuts or zero-fills to `signal_length` (default: the full length, minus frame_size
with `center`). STFT follows OpenVINO's reference; ISTFT follows the CPU plugin, whose windowed overlap-add (the usual
inverse) differs from the core reference's unwindowed one where frames overlap.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.axes import as_int_array, scalar_value
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim, Shape


def _window(window: np.ndarray, frame_size: int) -> np.ndarray:
    if window.ndim != 1 or window.shape[0] > frame_size:
        raise OpError(f"STFT: the window must be 1-D and at most frame_size={frame_size} long, "
                      f"got {list(window.shape)}")
    padded = np.zeros(frame_size, np.float64)
    start = (frame_size - window.shape[0]) // 2
    padded[start:start + window.shape[0]] = window
    return padded


def _params(op: str, inputs: Sequence[TensorInfo]) -> tuple[int | None, int | None]:
    data = inputs[0]
    if data.etype is not None and not data.etype.is_float and not data.etype.is_dynamic:
        raise OpError(f"{op}: expects floating-point data, got {data.etype}")
    if inputs[1].shape is not None and len(inputs[1].shape) != 1:
        raise OpError(f"{op}: the window must be 1-D, got rank {len(inputs[1].shape)}")
    size, step = scalar_value(inputs[2]), scalar_value(inputs[3])
    if size is not None and size < 1:
        raise OpError(f"{op}: frame_size must be positive, got {size}")
    if step is not None and step < 1:
        raise OpError(f"{op}: frame_step must be positive, got {step}")
    win = inputs[1].shape
    if size is not None and win is not None and win[0].is_static and win[0].lo > size:
        raise OpError(f"{op}: the window ({win[0].lo}) is longer than frame_size {size}")
    return size, step


@dataclass(frozen=True)
class STFTAttrs:
    transpose_frames: bool


@register
class STFT(Op):
    types = ("STFT",)
    versions = ("opset15",)
    Attrs = STFTAttrs
    arity = (4, 4)

    def infer(self, attrs: STFTAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        size, step = _params("STFT", inputs)
        data = inputs[0]
        if data.shape is None:
            return [TensorInfo(data.etype, None)]
        if len(data.shape) not in (1, 2):
            raise OpError(f"STFT: the signal must be 1-D or 2-D [batch, length], got rank {len(data.shape)}")
        length = data.shape[-1]
        if size is None or step is None:
            frames, bins = DYNAMIC, (DYNAMIC if size is None else Dim.of(size // 2 + 1))
        else:
            if length.hi is not None and length.hi < size:
                raise OpError(f"STFT: the signal ({length}) is shorter than frame_size {size}")
            frames = Dim((max(length.lo, size) - size) // step + 1,
                         None if length.hi is None else (length.hi - size) // step + 1)
            bins = Dim.of(size // 2 + 1)
        body: Shape = (bins, frames) if attrs.transpose_frames else (frames, bins)
        return [TensorInfo(data.etype, (*data.shape[:-1], *body, Dim.of(2)))]

    def compute(self, attrs: STFTAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        size = as_int_array("STFT", "frame_size", inputs[2])[0]
        step = as_int_array("STFT", "frame_step", inputs[3])[0]
        self.infer(attrs, [TensorInfo(None, tuple(Dim.of(d) for d in x.shape)), TensorInfo(None, None),
                           TensorInfo(None, (), np.array(size)), TensorInfo(None, (), np.array(step))])
        win = _window(np.asarray(inputs[1]), size)
        sig = x.reshape(-1, x.shape[-1]).astype(np.float64)
        frames = (sig.shape[1] - size) // step + 1
        idx = np.arange(frames)[:, None] * step + np.arange(size)[None, :]
        spec = np.fft.rfft(sig[:, idx] * win, axis=-1)  # [batch, frames, bins]
        out = np.stack([spec.real, spec.imag], axis=-1)
        if attrs.transpose_frames:
            out = out.transpose(0, 2, 1, 3)
        return [np.ascontiguousarray(out.reshape(*x.shape[:-1], *out.shape[1:])).astype(x.dtype)]


@dataclass(frozen=True)
class ISTFTAttrs:
    center: bool
    normalized: bool


@register
class ISTFT(Op):
    types = ("ISTFT",)
    versions = ("opset16",)
    Attrs = ISTFTAttrs
    arity = (4, 5)

    def infer(self, attrs: ISTFTAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        size, step = _params("ISTFT", inputs)
        data = inputs[0]
        if data.shape is None:
            return [TensorInfo(data.etype, None)]
        if len(data.shape) not in (3, 4):
            raise OpError(f"ISTFT: data must be [batch,] bins, frames, 2; got rank {len(data.shape)}")
        if size is not None and data.shape[-3].is_static and data.shape[-3].lo != size // 2 + 1:
            raise OpError(f"ISTFT: {data.shape[-3].lo} bins do not match frame_size {size} ({size // 2 + 1} bins)")
        if len(inputs) > 4:
            n = scalar_value(inputs[4])
            length = DYNAMIC if n is None else Dim.of(n)
        elif size is None or step is None or data.shape[-2] == DYNAMIC:
            length = DYNAMIC
        else:
            f = data.shape[-2]
            cut = size if attrs.center else 0
            length = Dim(max((f.lo - 1) * step + size - cut, 0),
                         None if f.hi is None else max((f.hi - 1) * step + size - cut, 0))
        return [TensorInfo(data.etype, (*data.shape[:-3], length))]

    def compute(self, attrs: ISTFTAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        size = as_int_array("ISTFT", "frame_size", inputs[2])[0]
        step = as_int_array("ISTFT", "frame_step", inputs[3])[0]
        win = _window(np.asarray(inputs[1]), size)
        spec = x.reshape(-1, *x.shape[-3:]).astype(np.float64)  # [batch, bins, frames, 2]
        if spec.shape[1] != size // 2 + 1:
            raise OpError(f"ISTFT: {spec.shape[1]} bins do not match frame_size {size}")
        frames = spec.shape[2]
        full = (frames - 1) * step + size
        margin = size // 2 if attrs.center else 0
        length = as_int_array("ISTFT", "signal_length", inputs[4])[0] if len(inputs) > 4 else (
            full - size if attrs.center else full)
        signal = np.fft.irfft(spec[..., 0] + 1j * spec[..., 1], n=size, axis=1)  # [batch, size, frames]
        acc = np.zeros((spec.shape[0], full))
        wsum = np.zeros(full)
        for f in range(frames):
            acc[:, f * step: f * step + size] += signal[:, :, f] * win
            wsum[f * step: f * step + size] += win * win
        scale = np.sqrt(size) if attrs.normalized else 1.0
        safe = np.where(wsum != 0, wsum, 1.0)
        acc = np.where(wsum != 0, acc * scale / safe, 0.0)
        out = np.zeros((spec.shape[0], max(length, 0)))
        keep = max(min(length, full - margin), 0)
        out[:, :keep] = acc[:, margin:margin + keep]
        return [out.reshape(*x.shape[:-3], max(length, 0)).astype(x.dtype)]
