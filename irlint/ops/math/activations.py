"""Activations with attributes or extra inputs: Clamp, Elu, Gelu (2 and 7), Swish, PRelu."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.math.elementwise import broadcast_result, same_etype
from irlint.ops.registry import register
from irlint.types import format_shape

Array = np.ndarray


def _same(inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
    return [TensorInfo(inputs[0].etype, inputs[0].shape)]


@dataclass(frozen=True)
class ClampAttrs:
    min: float
    max: float


@register
class Clamp(Op):
    """min(max(x, min), max); for integers the bounds are rounded inwards (ceil(min), floor(max))."""

    types = ("Clamp",)
    infer_reads_values = False
    versions = ("opset1",)
    Attrs = ClampAttrs

    def infer(self, attrs: ClampAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        if attrs.min > attrs.max:
            raise OpError(f"Clamp: min {attrs.min} is greater than max {attrs.max}")
        return _same(inputs)

    def compute(self, attrs: ClampAttrs, inputs: Sequence[Array]) -> list[Array]:
        x = np.asarray(inputs[0])
        if np.issubdtype(x.dtype, np.integer):
            info = np.iinfo(x.dtype)
            lo = max(math.ceil(attrs.min), info.min)
            hi = min(math.floor(attrs.max), info.max)
            return [np.clip(x, lo, hi).astype(x.dtype)]
        return [np.clip(x, attrs.min, attrs.max).astype(x.dtype)]

    def prepare(self, attrs: ClampAttrs, consts: Sequence[Array | None]):  # type: ignore[no-untyped-def]
        """Numpy floats: the clip `np.clip` calls (x.clip, without its wrapper); the rest: `compute`."""
        if attrs.min > attrs.max:
            return None  # `compute` refuses nothing here, `infer` does: keep the checked path
        lo, hi = attrs.min, attrs.max

        def fast(args: Sequence[Array]) -> list[Array]:
            x = args[0]
            if x.dtype.kind != "f":
                return [np.asarray(o) for o in self.compute(attrs, args)]
            out = np.asarray(x.clip(lo, hi))
            return [out if out.dtype is x.dtype else out.astype(x.dtype)]

        return fast


@dataclass(frozen=True)
class EluAttrs:
    alpha: float


@register
class Elu(Op):
    types = ("Elu",)
    infer_reads_values = False
    versions = ("opset1",)
    Attrs = EluAttrs

    def infer(self, attrs: EluAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        return _same(inputs)

    def compute(self, attrs: EluAttrs, inputs: Sequence[Array]) -> list[Array]:
        x = np.asarray(inputs[0])
        xf = x.astype(np.float64)
        return [np.where(xf > 0, xf, attrs.alpha * (np.exp(np.minimum(xf, 0)) - 1)).astype(x.dtype)]


@dataclass(frozen=True)
class GeluAttrs:
    approximation_mode: str = "ERF"


def _gelu(x: Array, mode: str) -> Array:
    xf = x.astype(np.float64)
    if mode.upper() == "TANH":
        y = 0.5 * xf * (1 + np.tanh(math.sqrt(2 / math.pi) * (xf + 0.044715 * xf**3)))
    else:
        erf = np.vectorize(math.erf, otypes=[np.float64])
        y = 0.5 * xf * (1 + erf(xf / math.sqrt(2)))
    return y.astype(x.dtype)


@register
class Gelu2(Op):
    types = ("Gelu",)
    infer_reads_values = False
    versions = ("opset2",)

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        return _same(inputs)

    def compute(self, attrs: NoAttrs, inputs: Sequence[Array]) -> list[Array]:
        return [_gelu(np.asarray(inputs[0]), "ERF")]


@register
class Gelu7(Op):
    types = ("Gelu",)
    infer_reads_values = False
    versions = ("opset7",)
    Attrs = GeluAttrs

    def infer(self, attrs: GeluAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        if attrs.approximation_mode.upper() not in ("ERF", "TANH"):
            raise OpError(f"Gelu: approximation_mode {attrs.approximation_mode!r} is not ERF or TANH")
        return _same(inputs)

    def compute(self, attrs: GeluAttrs, inputs: Sequence[Array]) -> list[Array]:
        return [_gelu(np.asarray(inputs[0]), attrs.approximation_mode)]


@register
class Swish(Op):
    """x * sigmoid(beta * x); beta is an optional scalar input (default 1)."""

    types = ("Swish",)
    infer_reads_values = False
    versions = ("opset4",)
    arity = (1, 2)

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        if len(inputs) == 2 and inputs[1].shape is not None and len(inputs[1].shape) > 1:
            raise OpError("Swish: beta must be a scalar")
        return _same(inputs)

    def compute(self, attrs: NoAttrs, inputs: Sequence[Array]) -> list[Array]:
        x = np.asarray(inputs[0])
        beta = float(np.asarray(inputs[1]).reshape(-1)[0]) if len(inputs) == 2 else 1.0
        xf = x.astype(np.float64)
        return [(xf / (1.0 + np.exp(-beta * xf))).astype(x.dtype)]


@register
class PRelu(Op):
    """x if x >= 0 else slope * x; a 1-D slope matches the channel axis (1) as OpenVINO does."""

    types = ("PRelu", "PReLU")
    infer_reads_values = False
    versions = ("opset1",)
    arity = (2, 2)

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        """A 1-D slope as long as the channel dim (axis 1) applies per channel; any other slope is
        broadcast numpy-style, as OpenVINO's reference does ([1,3,4] with a slope [4]: per last axis)."""
        same_etype("PRelu", inputs)
        x, slope = inputs
        if x.shape is None or slope.shape is None:
            return _same(inputs)
        if len(slope.shape) == 1 and len(x.shape) >= 2 and x.shape[1].compatible(slope.shape[0]) \
                and (not x.shape[1].is_static or not slope.shape[0].is_static or x.shape[1] == slope.shape[0]):
            return _same(inputs)
        try:
            broadcast_result("PRelu", "numpy", [x.shape, slope.shape])
        except OpError:
            ch = f" nor matches the {x.shape[1]} channels (axis 1)" if len(x.shape) >= 2 else ""
            raise OpError(f"PRelu: a slope of shape {format_shape(slope.shape)} neither broadcasts to the input "
                          f"{format_shape(x.shape)}{ch}") from None
        return _same(inputs)

    def compute(self, attrs: NoAttrs, inputs: Sequence[Array]) -> list[Array]:
        x, slope = (np.asarray(a) for a in inputs)
        if slope.ndim == 1 and x.ndim >= 2 and slope.size == x.shape[1]:
            slope = slope.reshape((1, -1) + (1,) * (x.ndim - 2))
        return [np.where(x >= 0, x, slope * x).astype(x.dtype)]
