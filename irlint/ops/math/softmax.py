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
    """exp(x - max) / sum in float64, rounded once to x's type. The reductions are the ufuncs'
    own (what np.max and np.sum call, without their Python wrappers) and the arithmetic runs in place
    in the one float64 copy: the same operations on the same values as the plain formula."""
    e = np.array(x, np.float64)  # a copy even of a float64 x: it is overwritten below
    np.subtract(e, np.maximum.reduce(e, axis, None, None, True), e)
    np.exp(e, e)
    np.divide(e, np.add.reduce(e, axis, None, None, True), e)
    return e.astype(x.dtype, copy=False)


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

    def prepare(self, attrs: SoftmaxAttrs, consts: Sequence[np.ndarray | None]):  # type: ignore[no-untyped-def]
        """The axis checked and normalised once per input rank."""
        by_rank: dict[int, int] = {}

        def fast(args: Sequence[np.ndarray]) -> list[np.ndarray]:
            x = args[0]
            axis = by_rank.get(x.ndim)
            if axis is None:
                axis = by_rank[x.ndim] = _axis(attrs.axis, x.ndim, self.negative) or 0
            return [softmax(x, axis)]

        return fast


@register
class Softmax8(Softmax1):
    versions = ("opset8",)
    negative = True
