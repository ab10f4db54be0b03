"""Activations whose coefficients are inputs rather than attributes: Selu-1 and HardSigmoid-1.

The coefficient inputs are one-element tensors of the data's type (HardSigmoid's must be scalars;
OpenVINO checks both), so the
shape function only validates them and passes the data shape through.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.math.elementwise import same_etype
from irlint.ops.registry import register

Array = np.ndarray


def _check_coefficients(op: str, names: Sequence[str], inputs: Sequence[TensorInfo],
                        scalar: bool = False) -> list[TensorInfo]:
    """Types agree and are floating; each coefficient holds one element (`scalar`: is rank 0)."""
    data = inputs[0]
    etype = same_etype(op, inputs)
    if etype is not None and not etype.is_float:
        raise OpError(f"{op}: expects a floating-point tensor, got {etype}")
    for name, info in zip(names, inputs[1:], strict=False):
        if scalar and info.shape is not None and len(info.shape) != 0:
            raise OpError(f"{op}: input '{name}' must be a scalar, got rank {len(info.shape)}")
        if info.shape is not None and all(d.is_static for d in info.shape):
            n = int(np.prod([d.lo for d in info.shape], dtype=np.int64))
            if n != 1:
                raise OpError(f"{op}: input '{name}' must hold one element, got shape "
                              f"{[d.lo for d in info.shape]}")
    return [TensorInfo(etype if etype is not None else data.etype, data.shape)]


def _scalar(a: Array) -> float:
    return float(np.asarray(a, dtype=np.float64).reshape(-1)[0])


@register
class Selu(Op):
    """lambda * x for x > 0, lambda * alpha * (exp(x) - 1) otherwise."""

    types = ("Selu",)
    versions = ("opset1",)
    arity = (3, 3)
    infer_reads_values = False

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        return _check_coefficients("Selu", ("alpha", "lambda"), inputs)

    def compute(self, attrs: NoAttrs, inputs: Sequence[Array]) -> list[Array]:
        x = np.asarray(inputs[0])
        alpha, lam = _scalar(inputs[1]), _scalar(inputs[2])
        xf = x.astype(np.float64)
        y = lam * np.where(xf > 0, xf, alpha * np.expm1(np.minimum(xf, 0)))
        return [y.astype(x.dtype)]


@register
class HardSigmoid(Op):
    """max(0, min(1, alpha * x + beta))."""

    types = ("HardSigmoid",)
    versions = ("opset1",)
    arity = (3, 3)
    infer_reads_values = False

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        return _check_coefficients("HardSigmoid", ("alpha", "beta"), inputs, scalar=True)

    def compute(self, attrs: NoAttrs, inputs: Sequence[Array]) -> list[Array]:
        x = np.asarray(inputs[0])
        alpha, beta = _scalar(inputs[1]), _scalar(inputs[2])
        y = np.clip(alpha * x.astype(np.float64) + beta, 0.0, 1.0)
        return [y.astype(x.dtype)]
