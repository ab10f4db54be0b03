"""Unary math added for ONNX-exported models: inverse/hyperbolic trig, Tan, SoftSign, Round, Identity.

Same table-driven shape as `elementwise.py` (one row per op, output = input type and shape). For
integer inputs OpenVINO computes in floating point and rounds back to the element type
(`float_result_to_int`: to nearest, ties to even, saturated, as its CPU plugin gives them); Round-5
itself leaves integers unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.lowp import narrow, widen
from irlint.ops.math.elementwise import Unary, float_result_to_int
from irlint.ops.registry import register
from irlint.types import is_float_dtype, is_narrow_float

Array = np.ndarray


def round_half_away(y: Array) -> Array:
    """Round to nearest, ties away from zero (C's `round`, which keeps the sign of -0.0 and -0.4)."""
    return np.copysign(np.floor(np.abs(y) + 0.5), y)


def _rounded(fn: Callable[[Array], Array]) -> Callable[[Array], Array]:
    """`fn` in float64; floats keep their dtype, integers are rounded as `float_result_to_int` says."""

    def run(x: Array) -> Array:
        with np.errstate(all="ignore"):
            if is_narrow_float(x.dtype):  # in f32 and rounded once, as OpenVINO (irlint/ops/lowp.py)
                return narrow(np.asarray(fn(x.astype(np.float32)), np.float32), x.dtype)
            y = fn(x.astype(np.float64))
            if np.issubdtype(x.dtype, np.floating):
                return y.astype(x.dtype)
            return float_result_to_int(np.asarray(y, np.float64), x.dtype)

    return run


UNARY: dict[str, tuple[Callable[[Array], Array], tuple[str, ...]]] = {
    "Acos": (_rounded(np.arccos), ("opset1",)),
    "Asin": (_rounded(np.arcsin), ("opset1",)),
    "Atan": (_rounded(np.arctan), ("opset1",)),
    "Tan": (_rounded(np.tan), ("opset1",)),
    "Sinh": (_rounded(np.sinh), ("opset1",)),
    "Cosh": (_rounded(np.cosh), ("opset1",)),
    "Acosh": (_rounded(np.arccosh), ("opset4",)),
    "Asinh": (_rounded(np.arcsinh), ("opset4",)),
    "Atanh": (_rounded(np.arctanh), ("opset4",)),
    "SoftSign": (_rounded(lambda x: x / (1.0 + np.abs(x))), ("opset9",)),
}

for _name, (_fn, _versions) in UNARY.items():
    register(type(_name, (Unary,), {"types": (_name,), "versions": _versions, "fn": staticmethod(_fn)}))


@dataclass(frozen=True)
class RoundAttrs:
    mode: str = "half_to_even"


@register
class Round(Op):
    """Round-5: `half_to_even` (banker's rounding) or `half_away_from_zero`; integers pass through."""

    types = ("Round",)
    versions = ("opset5",)
    Attrs = RoundAttrs
    infer_reads_values = False

    def infer(self, attrs: RoundAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        if attrs.mode not in ("half_to_even", "half_away_from_zero"):
            raise OpError(f"Round: mode {attrs.mode!r} is not half_to_even or half_away_from_zero")
        return [TensorInfo(inputs[0].etype, inputs[0].shape)]

    def compute(self, attrs: RoundAttrs, inputs: Sequence[Array]) -> list[Array]:
        self.infer(attrs, [TensorInfo(None, None)])
        x = np.asarray(inputs[0])
        if not is_float_dtype(x.dtype):
            return [x.copy()]
        w = widen(x)  # an integer-valued result is exact in every narrow float type
        if attrs.mode == "half_to_even":
            return [np.asarray(np.rint(w)).astype(x.dtype)]
        return [np.asarray(round_half_away(w)).astype(x.dtype)]


@register
class Identity(Op):
    """Identity-16: a copy of its input."""

    types = ("Identity",)
    versions = ("opset16",)
    infer_reads_values = False

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        # No value here: infer is memoised on shapes (infer_reads_values=False); folding calls compute.
        return [TensorInfo(inputs[0].etype, inputs[0].shape)]

    def compute(self, attrs: NoAttrs, inputs: Sequence[Array]) -> list[Array]:
        return [np.array(inputs[0], copy=True)]
