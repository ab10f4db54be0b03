"""LogSoftmax-5: ``x - max - log(sum(exp(x - max)))`` along `axis` (negative axes allowed)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.axes import normalize_axis
from irlint.ops.registry import register


@dataclass(frozen=True)
class LogSoftmaxAttrs:
    axis: int = 1


@register
class LogSoftmax(Op):
    types = ("LogSoftmax",)
    versions = ("opset5",)
    Attrs = LogSoftmaxAttrs
    infer_reads_values = False

    def infer(self, attrs: LogSoftmaxAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        x = inputs[0]
        if x.etype is not None and not x.etype.is_dynamic and not x.etype.is_float:
            raise OpError(f"LogSoftmax: input must be a floating-point tensor, got {x.etype}")
        if x.rank is not None:
            normalize_axis("LogSoftmax", attrs.axis, x.rank)
        return [TensorInfo(x.etype, x.shape)]

    def compute(self, attrs: LogSoftmaxAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        ax = normalize_axis("LogSoftmax", attrs.axis, x.ndim)
        if x.size == 0:
            return [x.copy()]
        xf = x.astype(np.float64)
        with np.errstate(all="ignore"):
            shifted = xf - np.max(xf, axis=ax, keepdims=True)
            out = shifted - np.log(np.sum(np.exp(shifted), axis=ax, keepdims=True))
        return [out.astype(x.dtype)]
