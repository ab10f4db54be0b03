"""HardSigmoid-1 and Selu-1: activations whose constants come as scalar inputs, not attributes.

HardSigmoid: ``max(0, min(1, alpha * x + beta))``; Selu: ``lambda * (x if x > 0 else alpha * (exp(x) - 1))``.
Both are what ONNX's HardSigmoid/Selu become; the constants must have the data's type. HardSigmoid
maps NaN to 1, as OpenVINO's ``std::max(0, std::min(1, v))`` does.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.math.elementwise import same_etype
from irlint.ops.registry import register
from irlint.types import format_shape


class _Scaled(Op):
    versions = ("opset1",)
    Attrs = NoAttrs
    arity = (3, 3)
    infer_reads_values = False

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        name = self.types[0]
        etype = same_etype(name, inputs)
        if etype is not None and not etype.is_float:
            raise OpError(f"{name}: inputs must be floating-point, got {etype}")
        for info in inputs[1:]:
            sh = info.shape
            if sh is not None and (len(sh) > 1 or (len(sh) == 1 and sh[0].value not in (1, None))):
                raise OpError(f"{name}: the constants must be scalars, got shape {format_shape(info.shape)}")
        return [TensorInfo(inputs[0].etype, inputs[0].shape)]

    def compute(self, attrs: NoAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x, a, b = (np.asarray(i) for i in inputs)
        if not np.issubdtype(x.dtype, np.floating):
            raise OpError(f"{self.types[0]}: inputs must be floating-point, got {x.dtype}")
        if a.size != 1 or b.size != 1:
            raise OpError(f"{self.types[0]}: the constants must be scalars")
        with np.errstate(all="ignore"):
            y = self.fn(x.astype(np.float64), float(a.reshape(-1)[0]), float(b.reshape(-1)[0]))
        return [np.asarray(y).astype(x.dtype)]

    def fn(self, x: np.ndarray, a: float, b: float) -> np.ndarray:
        raise NotImplementedError


@register
class HardSigmoid(_Scaled):
    types = ("HardSigmoid",)

    def fn(self, x: np.ndarray, a: float, b: float) -> np.ndarray:
        # max(0, min(1, v)) with C++'s std::min/max, as OpenVINO computes it: NaN gives 1.
        v = a * x + b
        return np.maximum(0.0, np.where(v < 1.0, v, 1.0))


@register
class Selu(_Scaled):
    types = ("Selu",)

    def fn(self, x: np.ndarray, a: float, b: float) -> np.ndarray:
        return b * np.where(x > 0, x, a * np.expm1(np.minimum(x, 0)))
