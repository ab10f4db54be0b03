"""Softmax-1 (non-negative axis) and Softmax-8 (negative axis allowed); IR spells the type SoftMax."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.registry import register


@dataclass(frozen=True)
class SoftmaxAttrs:
    axis: int = 1


def _axis(axis: int, rank: int | None, allow_negative: bool) -> int | None:
    if rank is None:
        return None
    if axis < 0 and not allow_negative:
        raise OpError(f"Softmax-1: axis {axis} must be non-negative (Softmax-8 allows negative axes)")
    if not -rank <= axis < rank:
        raise OpError(f"Softmax: axis {axis} is out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


def softmax(x: np.ndarray, axis: int) -> np.ndarray:
    xf = x.astype(np.float64)
    e = np.exp(xf - np.max(xf, axis=axis, keepdims=True))
    return (e / np.sum(e, axis=axis, keepdims=True)).astype(x.dtype)


@register
class Softmax1(Op):
    types = ("SoftMax", "Softmax")
    infer_reads_values = False
    versions = ("opset1",)
    Attrs = SoftmaxAttrs
    negative = False

    def infer(self, attrs: SoftmaxAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        _axis(attrs.axis, inputs[0].rank, self.negative)
        return [TensorInfo(inputs[0].etype, inputs[0].shape)]

    def compute(self, attrs: SoftmaxAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        return [softmax(x, _axis(attrs.axis, x.ndim, self.negative) or 0)]


@register
class Softmax8(Softmax1):
    versions = ("opset8",)
    negative = True
