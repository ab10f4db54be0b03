"""Selu-1 and HardSigmoid-1: activations whose parameters are inputs (as ONNX exports them).

Selu: lambda * (x if x > 0 else alpha * (exp(x) - 1)); HardSigmoid: max(0, min(1, alpha * x + beta)).
alpha, beta and lambda hold one value of the data's type (HardSigmoid: scalars); computed in float64.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.registry import register
from irlint.types import format_shape


def _check(op: str, inputs: Sequence[TensorInfo], names: Sequence[str], scalars: bool = False) -> TensorInfo:
    x = inputs[0]
    if x.etype is not None and not x.etype.is_dynamic and not x.etype.is_float:
        raise OpError(f"{op}: data must be floating-point, got {x.etype}")
    for name, t in zip(names, inputs[1:]):
        if x.etype is not None and t.etype is not None and t.etype != x.etype:
            raise OpError(f"{op}: {name} is {t.etype} but data is {x.etype}")
        if t.shape is not None and (len(t.shape) > (0 if scalars else 1) or any(d.lo > 1 for d in t.shape)):
            what = "a scalar" if scalars else "one value"
            raise OpError(f"{op}: {name} must be {what}, got shape {format_shape(t.shape)}")
    return TensorInfo(x.etype, x.shape)


def _scalar(a: np.ndarray) -> float:
    return float(np.asarray(a, np.float64).reshape(-1)[0])


@register
class Selu(Op):
    types = ("Selu",)
    versions = ("opset1",)
    Attrs = NoAttrs
    arity = (3, 3)
    infer_reads_values = False

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        return [_check("Selu", inputs, ("alpha", "lambda"))]

    def compute(self, attrs: NoAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        alpha, lam = _scalar(inputs[1]), _scalar(inputs[2])
        xf = x.astype(np.float64)
        with np.errstate(over="ignore"):
            y = lam * np.where(xf > 0, xf, alpha * np.expm1(np.minimum(xf, 0)))
        return [y.astype(x.dtype)]


@register
class HardSigmoid(Op):
    types = ("HardSigmoid",)
    versions = ("opset1",)
    Attrs = NoAttrs
    arity = (3, 3)
    infer_reads_values = False

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        return [_check("HardSigmoid", inputs, ("alpha", "beta"), scalars=True)]

    def compute(self, attrs: NoAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        alpha, beta = _scalar(inputs[1]), _scalar(inputs[2])
        return [np.clip(alpha * x.astype(np.float64) + beta, 0.0, 1.0).astype(x.dtype)]
