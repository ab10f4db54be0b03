"""Relu-1: max(x, 0), element-wise; shape and type pass through."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from irlint.ops.base import NoAttrs, Op, TensorInfo
from irlint.ops.registry import register


@register
class Relu(Op):
    types = ("Relu", "ReLU")
    infer_reads_values = False
    versions = ("opset1",)

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        return [TensorInfo(inputs[0].etype, inputs[0].shape)]

    def compute(self, attrs: NoAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = inputs[0]
        return [np.maximum(x, np.zeros((), x.dtype))]
