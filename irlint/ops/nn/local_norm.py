"""GroupNormalization-12, LRN-1 and GRN-1: normalisation by groups of channels or neighbourhoods.

LRN follows the reference kernel: the neighbourhood of an element is the box of half-width
(size - 1) // 2 along every axis in `axes` (clipped at the borders), and the sum of squares is
scaled by alpha / size ** len(axes). The box sum is taken one axis at a time with cumulative sums.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.axes import int_values, normalize_axis
from irlint.ops.movement.dims import merge
from irlint.ops.registry import register
from irlint.types import format_shape, static_shape


def _float_input(op: str, info: TensorInfo) -> None:
    if info.etype is not None and not info.etype.is_dynamic and not info.etype.is_float:
        raise OpError(f"{op}: input must be a floating-point tensor, got {info.etype}")


@dataclass(frozen=True)
class GroupNormAttrs:
    num_groups: int
    epsilon: float


@register
class GroupNormalization(Op):
    types = ("GroupNormalization",)
    versions = ("opset12",)
    Attrs = GroupNormAttrs
    arity = (3, 3)
    infer_reads_values = False

    def infer(self, attrs: GroupNormAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = "GroupNormalization"
        data, scale, bias = inputs
        _float_input(op, data)
        if attrs.num_groups < 1:
            raise OpError(f"{op}: num_groups must be positive, got {attrs.num_groups}")
        if data.shape is None:
            return [TensorInfo(data.etype, None)]
        if len(data.shape) < 2:
            raise OpError(f"{op}: data {format_shape(data.shape)} needs rank >= 2 (channels on axis 1)")
        channels = data.shape[1]
        if channels.is_static and channels.lo % attrs.num_groups:
            raise OpError(f"{op}: {channels.lo} channels do not split into {attrs.num_groups} groups")
        for name, info in (("scale", scale), ("bias", bias)):
            if info.shape is not None and (len(info.shape) != 1 or merge(info.shape[0], channels) is None):
                raise OpError(f"{op}: {name} {format_shape(info.shape)} must be 1-D with {channels} values")
        return [TensorInfo(data.etype, data.shape)]

    def compute(self, attrs: GroupNormAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        self.infer(attrs, [TensorInfo(None, static_shape(np.shape(a))) for a in inputs])
        n, c = x.shape[:2]
        g = x.astype(np.float64).reshape(n, attrs.num_groups, -1)
        mean = g.mean(axis=2, keepdims=True)
        var = ((g - mean) ** 2).mean(axis=2, keepdims=True)
        y = ((g - mean) / np.sqrt(var + attrs.epsilon)).reshape(x.shape)
        bshape = (1, c) + (1,) * (x.ndim - 2)
        y = y * np.asarray(inputs[1], np.float64).reshape(bshape) + np.asarray(inputs[2], np.float64).reshape(bshape)
        return [y.astype(x.dtype)]


@dataclass(frozen=True)
class LRNAttrs:
    alpha: float
    beta: float
    bias: float
    size: int


def box_sum(x: np.ndarray, axis: int, half: int) -> np.ndarray:
    """Sum over [i - half, i + half] along `axis`, clipped at the borders."""
    n = x.shape[axis]
    c = np.cumsum(x, axis=axis)
    c = np.concatenate([np.zeros_like(np.take(c, [0], axis=axis)), c], axis=axis)
    hi = np.minimum(np.arange(n) + half + 1, n)
    lo = np.maximum(np.arange(n) - half, 0)
    return np.take(c, hi, axis=axis) - np.take(c, lo, axis=axis)


@register
class LRN(Op):
    types = ("LRN",)
    versions = ("opset1",)
    Attrs = LRNAttrs
    arity = (2, 2)

    def infer(self, attrs: LRNAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, axes = inputs
        _float_input("LRN", data)
        if attrs.size < 0:
            raise OpError(f"LRN: size must not be negative, got {attrs.size}")
        values = int_values(axes)
        if values is not None and data.shape is not None:
            for a in values:
                normalize_axis("LRN", a, len(data.shape))
        return [TensorInfo(data.etype, data.shape)]

    def compute(self, attrs: LRNAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        axes = sorted({normalize_axis("LRN", int(a), x.ndim) for a in np.asarray(inputs[1]).reshape(-1)})
        xf = x.astype(np.float64)
        if attrs.size == 0:  # what OpenVINO reads when the IR leaves size out: the CPU plugin gives x / inf
            return [(xf * 0.0).astype(x.dtype)]
        total = xf * xf
        for a in axes:
            total = box_sum(total, a, (attrs.size - 1) // 2)
        scale = attrs.alpha / attrs.size ** len(axes)
        return [(xf / (attrs.bias + scale * total) ** attrs.beta).astype(x.dtype)]


@dataclass(frozen=True)
class GRNAttrs:
    bias: float


@register
class GRN(Op):
    types = ("GRN",)
    versions = ("opset1",)
    Attrs = GRNAttrs
    infer_reads_values = False

    def infer(self, attrs: GRNAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data = inputs[0]
        _float_input("GRN", data)
        if data.shape is not None and not 2 <= len(data.shape) <= 4:
            raise OpError(f"GRN: data {format_shape(data.shape)} must have rank 2 to 4")
        return [TensorInfo(data.etype, data.shape)]

    def compute(self, attrs: GRNAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        xf = x.astype(np.float64)
        norm = np.sqrt(np.sum(xf * xf, axis=1, keepdims=True) + attrs.bias)
        return [(xf / norm).astype(x.dtype)]
