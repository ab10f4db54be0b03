"""MVN-1/6, NormalizeL2-1 and BatchNormInference-1/5: normalisation over axes or channels.

Kernels compute in float64 and return the input type. MVN-1 and MVN-6 `inside_sqrt` divide by
sqrt(var + eps), `outside_sqrt` by sqrt(var) + eps; NormalizeL2 with empty axes gives 1 for
non-zero elements and 0 for zeros (the reference kernel's reading of "each element divided by
its own norm").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.axes import int_values, normalize_axis
from irlint.ops.movement.dims import merge
from irlint.ops.registry import register
from irlint.types import ElementType, format_shape, static_shape


def _floats(op: str, info: TensorInfo) -> None:
    if info.etype is not None and not info.etype.is_dynamic and not info.etype.is_float:
        raise OpError(f"{op}: input must be a floating-point tensor, got {info.etype}")


def _axes(op: str, axes: Sequence[int], rank: int) -> tuple[int, ...]:
    out = tuple(sorted({normalize_axis(op, a, rank) for a in axes}))
    if len(out) != len(axes):
        raise OpError(f"{op}: axes {list(axes)} repeat an axis")
    return out


@dataclass(frozen=True)
class MVN1Attrs:
    eps: float
    normalize_variance: bool = True
    across_channels: bool = False
    reduction_axes: tuple[int, ...] | None = None


@dataclass(frozen=True)
class MVN6Attrs:
    eps: float
    normalize_variance: bool = True
    eps_mode: str = "inside_sqrt"


def mvn(x: np.ndarray, axes: tuple[int, ...], normalize_variance: bool, eps: float, inside: bool) -> np.ndarray:
    xf = x.astype(np.float64)
    centred = xf - xf.mean(axis=axes, keepdims=True)
    if normalize_variance:
        var = np.mean(centred * centred, axis=axes, keepdims=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            centred = centred / (np.sqrt(var + eps) if inside else np.sqrt(var) + eps)
    return centred.astype(x.dtype)


@register
class MVN1(Op):
    """MVN-1 (written as opset2): axes from `reduction_axes`, else from `across_channels`."""

    types = ("MVN",)
    versions = ("opset2",)
    Attrs = MVN1Attrs
    infer_reads_values = False

    def _axes(self, attrs: MVN1Attrs, rank: int) -> tuple[int, ...]:
        if attrs.reduction_axes:
            return _axes("MVN-1", attrs.reduction_axes, rank)
        if rank < 2:
            raise OpError(f"MVN-1: input of rank {rank} has no channel axis; give reduction_axes")
        return tuple(range(1 if attrs.across_channels else 2, rank))

    def infer(self, attrs: MVN1Attrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        x = inputs[0]
        _floats("MVN-1", x)
        if x.shape is not None:
            self._axes(attrs, len(x.shape))
        return [TensorInfo(x.etype, x.shape)]

    def compute(self, attrs: MVN1Attrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        return [mvn(x, self._axes(attrs, x.ndim), attrs.normalize_variance, attrs.eps, True)]


@register
class MVN6(Op):
    types = ("MVN",)
    versions = ("opset6",)
    Attrs = MVN6Attrs
    arity = (2, 2)

    def _inside(self, attrs: MVN6Attrs) -> bool:
        mode = attrs.eps_mode.lower()
        if mode not in ("inside_sqrt", "outside_sqrt"):
            raise OpError(f"MVN-6: eps_mode={attrs.eps_mode!r} is not inside_sqrt or outside_sqrt")
        return mode == "inside_sqrt"

    def infer(self, attrs: MVN6Attrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        x, axes = inputs
        _floats("MVN-6", x)
        self._inside(attrs)
        if axes.etype is not None and not axes.etype.is_integer:
            raise OpError(f"MVN-6: axes must be integers, got {axes.etype}")
        values = int_values(axes)
        if values is not None and x.shape is not None:
            _axes("MVN-6", values, len(x.shape))
        return [TensorInfo(x.etype, x.shape)]

    def compute(self, attrs: MVN6Attrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        axes = _axes("MVN-6", [int(a) for a in np.asarray(inputs[1]).reshape(-1)], x.ndim)
        return [mvn(x, axes, attrs.normalize_variance, attrs.eps, self._inside(attrs))]


@dataclass(frozen=True)
class NormalizeL2Attrs:
    eps: float
    eps_mode: str


@register
class NormalizeL2(Op):
    types = ("NormalizeL2",)
    versions = ("opset1",)
    Attrs = NormalizeL2Attrs
    arity = (2, 2)

    def _mode(self, attrs: NormalizeL2Attrs) -> str:
        mode = attrs.eps_mode.lower()
        if mode not in ("add", "max"):
            raise OpError(f"NormalizeL2: eps_mode={attrs.eps_mode!r} is not add or max")
        return mode

    def infer(self, attrs: NormalizeL2Attrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        x, axes = inputs
        _floats("NormalizeL2", x)
        self._mode(attrs)
        values = int_values(axes)
        if values is not None and x.shape is not None:
            _axes("NormalizeL2", values, len(x.shape))
        return [TensorInfo(x.etype, x.shape)]

    def compute(self, attrs: NormalizeL2Attrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        axes = _axes("NormalizeL2", [int(a) for a in np.asarray(inputs[1]).reshape(-1)], x.ndim)
        if not axes:
            return [(x != 0).astype(x.dtype)]
        xf = x.astype(np.float64)
        total = np.sum(xf * xf, axis=axes, keepdims=True)
        norm = np.sqrt(total + attrs.eps) if self._mode(attrs) == "add" else np.sqrt(np.maximum(total, attrs.eps))
        with np.errstate(divide="ignore", invalid="ignore"):
            return [(xf / norm).astype(x.dtype)]


@dataclass(frozen=True)
class BatchNormAttrs:
    epsilon: float


@register
class BatchNormInference5(Op):
    """BatchNormInference-5: inputs data, gamma, beta, mean, variance (v0 puts gamma, beta first)."""

    types = ("BatchNormInference",)
    versions = ("opset5",)
    Attrs = BatchNormAttrs
    arity = (5, 5)
    infer_reads_values = False
    order = (0, 1, 2, 3, 4)  # positions of data, gamma, beta, mean, variance among the inputs

    def infer(self, attrs: BatchNormAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, *params = (inputs[i] for i in self.order)
        if attrs.epsilon < 0:
            raise OpError(f"BatchNormInference: epsilon must be non-negative, got {attrs.epsilon}")
        etype: ElementType | None = data.etype
        for name, info in zip(("gamma", "beta", "mean", "variance"), params):
            if etype is not None and info.etype is not None and info.etype != etype:
                raise OpError(f"BatchNormInference: {name} is {info.etype} but data is {etype}")
            etype = etype or info.etype
            if info.shape is not None and len(info.shape) != 1:
                raise OpError(f"BatchNormInference: {name} must be 1-D, got {format_shape(info.shape)}")
        _floats("BatchNormInference", TensorInfo(etype, None))
        shape = data.shape
        if shape is not None:
            if len(shape) < 2:
                raise OpError(f"BatchNormInference: data {format_shape(shape)} needs rank >= 2 (channels on axis 1)")
            channels = shape[1]
            for name, info in zip(("gamma", "beta", "mean", "variance"), params):
                if info.shape is not None:
                    m = merge(channels, info.shape[0])
                    if m is None:
                        raise OpError(f"BatchNormInference: {name} has {info.shape[0]} values, data has "
                                      f"{shape[1]} channels")
                    channels = m
            shape = (shape[0], channels, *shape[2:])
        return [TensorInfo(etype, shape)]

    def compute(self, attrs: BatchNormAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x, gamma, beta, mean, var = (np.asarray(inputs[i]) for i in self.order)
        self.infer(attrs, [TensorInfo(None, static_shape(np.shape(v))) for v in inputs])
        bshape = (1, -1) + (1,) * (x.ndim - 2)
        g, b, m, v = (a.astype(np.float64).reshape(bshape) for a in (gamma, beta, mean, var))
        y = g * (x.astype(np.float64) - m) / np.sqrt(v + attrs.epsilon) + b
        return [y.astype(x.dtype)]


@register
class BatchNormInference0(BatchNormInference5):
    """BatchNormInference-1 (opset1): inputs gamma, beta, data, mean, variance."""

    versions = ("opset1",)
    order = (2, 0, 1, 3, 4)
