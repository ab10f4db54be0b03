"""Reverse-1 (flip the listed axes, `mode=index`, or the axes set in a boolean mask, `mode=mask`) and
ReverseSequence-1 (reverse the first ``seq_lengths[b]`` elements along `seq_axis` of each batch b).

A sequence length of 0 leaves that batch unchanged (as 1 does), like OpenVINO's CPU plugin.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.axes import normalize_axis
from irlint.ops.movement.dims import merge
from irlint.ops.movement.folding import fold
from irlint.ops.registry import register
from irlint.types import BOOL, format_shape, static_shape


@dataclass(frozen=True)
class ReverseAttrs:
    mode: str


def _axes(mode: str, axes: np.ndarray | None, rank: int) -> list[int] | None:
    if mode not in ("index", "mask"):
        raise OpError(f"Reverse: mode must be index or mask, got {mode!r}")
    if axes is None:
        return None
    a = np.asarray(axes).reshape(-1)
    if mode == "mask":
        if a.size != rank:
            raise OpError(f"Reverse: mask has {a.size} elements, data has rank {rank}")
        return [k for k in range(rank) if a[k]]
    if not np.issubdtype(a.dtype, np.integer):
        raise OpError(f"Reverse: axes must be integers in index mode, got {a.dtype}")
    out = [normalize_axis("Reverse", int(v), rank) for v in a]
    if len(set(out)) != len(out):
        raise OpError(f"Reverse: axes {a.tolist()} repeat an axis")
    return out


@register
class Reverse(Op):
    types = ("Reverse",)
    versions = ("opset1",)
    Attrs = ReverseAttrs
    arity = (2, 2)

    def infer(self, attrs: ReverseAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, axes = inputs
        if attrs.mode == "mask" and axes.etype is not None and axes.etype != BOOL:
            raise OpError(f"Reverse: mask mode needs a boolean axes input, got {axes.etype}")
        if axes.shape is not None and len(axes.shape) != 1:
            raise OpError(f"Reverse: axes must be 1-D, got {format_shape(axes.shape)}")
        if data.rank is not None:
            _axes(attrs.mode, axes.value, data.rank)
        return fold(self, attrs, inputs, [TensorInfo(data.etype, data.shape)])

    def compute(self, attrs: ReverseAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x, axes_in = np.asarray(inputs[0]), np.asarray(inputs[1])
        if axes_in.ndim != 1:
            raise OpError(f"Reverse: axes must be 1-D, got shape {list(axes_in.shape)}")
        axes = _axes(attrs.mode, axes_in, x.ndim) or []
        return [np.ascontiguousarray(np.flip(x, axis=tuple(axes))) if axes else x.copy()]


@dataclass(frozen=True)
class ReverseSequenceAttrs:
    batch_axis: int = 0
    seq_axis: int = 1


@register
class ReverseSequence(Op):
    types = ("ReverseSequence",)
    versions = ("opset1",)
    Attrs = ReverseSequenceAttrs
    arity = (2, 2)
    infer_reads_values = False

    def infer(self, attrs: ReverseSequenceAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, lengths = inputs
        if lengths.shape is not None and len(lengths.shape) != 1:
            raise OpError(f"ReverseSequence: seq_lengths must be 1-D, got {format_shape(lengths.shape)}")
        shape = data.shape
        if shape is not None:
            if len(shape) < 2:
                raise OpError(f"ReverseSequence: data must have rank 2 or more, got {format_shape(shape)}")
            b = normalize_axis("ReverseSequence", attrs.batch_axis, len(shape), "batch_axis")
            normalize_axis("ReverseSequence", attrs.seq_axis, len(shape), "seq_axis")
            if lengths.shape is not None:
                m = merge(shape[b], lengths.shape[0])
                if m is None:
                    raise OpError(f"ReverseSequence: seq_lengths has {lengths.shape[0]} elements, the batch axis "
                                  f"{b} of data {format_shape(shape)} has {shape[b]}")
                shape = (*shape[:b], m, *shape[b + 1:])
        return [TensorInfo(data.etype, shape)]

    def compute(self, attrs: ReverseSequenceAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        self.infer(attrs, [TensorInfo(None, static_shape(x.shape)), TensorInfo(None, None)])
        b = normalize_axis("ReverseSequence", attrs.batch_axis, x.ndim, "batch_axis")
        s = normalize_axis("ReverseSequence", attrs.seq_axis, x.ndim, "seq_axis")
        lengths = np.asarray(inputs[1]).reshape(-1).astype(np.int64)
        if lengths.size != x.shape[b]:
            raise OpError(f"ReverseSequence: seq_lengths has {lengths.size} elements, batch axis has {x.shape[b]}")
        if (lengths < 0).any() or (lengths > x.shape[s]).any():
            raise OpError(f"ReverseSequence: seq_lengths {lengths.tolist()} must lie in [0, {x.shape[s]}]")
        out = x.copy()
        for i, n in enumerate(lengths.tolist()):
            if n > 1:
                src = [slice(None)] * x.ndim
                src[b], src[s] = i, slice(n - 1, None, -1)
                dst = [slice(None)] * x.ndim
                dst[b], dst[s] = i, slice(0, n)
                out[tuple(dst)] = x[tuple(src)]
        return [out]
