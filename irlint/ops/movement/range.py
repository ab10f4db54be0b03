"""Range-1/4: an arithmetic sequence start, start+step, ... below stop (above, for a negative step).

Length max(ceil((stop - start) / step), 0). Range-4 with an integer output_type truncates start,
stop and step first (OpenVINO then yields an empty range if the step truncates to 0).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.movement.folding import fold
from irlint.ops.registry import register
from irlint.types import DYNAMIC, ELEMENT_TYPES, Dim, ElementType, format_shape


@dataclass(frozen=True)
class Range4Attrs:
    output_type: str


def _length(start: float, stop: float, step: float) -> int:
    if step == 0:
        raise OpError("Range: step must not be zero")
    return max(math.ceil((stop - start) / step), 0)


def _scalars(inputs: Sequence[np.ndarray]) -> list[float | int]:
    out = []
    for name, a in zip(("start", "stop", "step"), inputs, strict=False):
        arr = np.asarray(a)
        if arr.size != 1:
            raise OpError(f"Range: {name} must be a scalar, got shape {list(arr.shape)}")
        out.append(arr.reshape(()).item())
    return out


def _check_scalar_inputs(inputs: Sequence[TensorInfo]) -> None:
    for name, t in zip(("start", "stop", "step"), inputs, strict=False):
        if t.shape is not None and (
            len(t.shape) > 1 or (len(t.shape) == 1 and not t.shape[0].compatible(Dim(1, 1)))
        ):
            raise OpError(f"Range: {name} must be a scalar, got shape {format_shape(t.shape)}")


def _length_dim(inputs: Sequence[TensorInfo], integral: bool) -> tuple[Dim]:
    """The output shape: static when start, stop and step are known (so folding can run)."""
    if any(t.value is None for t in inputs):
        return (DYNAMIC,)
    start, stop, step = _scalars([np.asarray(t.value) for t in inputs])
    if integral:
        start, stop, step = math.trunc(start), math.trunc(stop), math.trunc(step)
        if step == 0 and _scalars([np.asarray(inputs[2].value)])[0] != 0:
            return (Dim(0, 0),)
    return (Dim.of(_length(start, stop, step)),)


def _sequence(start: float, stop: float, step: float, dtype: np.dtype) -> np.ndarray:
    n = _length(start, stop, step)
    if np.issubdtype(dtype, np.integer):
        return (int(start) + np.arange(n, dtype=np.int64) * int(step)).astype(dtype)
    return (start + np.arange(n, dtype=np.float64) * step).astype(dtype)


@register
class Range1(Op):
    types = ("Range",)
    versions = ("opset1",)
    arity = (3, 3)

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        _check_scalar_inputs(inputs)
        types = {t.etype for t in inputs if t.etype is not None}
        if len(types) > 1:
            raise OpError(
                f"Range: start, stop and step must have one element type, got {sorted(map(str, types))}"
            )
        etype = next(iter(types)) if types else None
        return fold(self, attrs, inputs, [TensorInfo(etype, _length_dim(inputs, integral=False))])

    def compute(self, attrs: NoAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        start, stop, step = _scalars(inputs)
        return [_sequence(start, stop, step, np.asarray(inputs[0]).dtype)]


def _out_etype(attrs: Range4Attrs) -> tuple[ElementType, np.dtype]:
    et = ELEMENT_TYPES.get(attrs.output_type)
    if et is None or et.dtype is None or not (et.is_float or et.is_integer):
        raise OpError(f"Range: output_type {attrs.output_type!r} is not a numeric element type")
    return et, et.dtype


@register
class Range4(Op):
    types = ("Range",)
    versions = ("opset4",)
    Attrs = Range4Attrs
    arity = (3, 3)

    def infer(self, attrs: Range4Attrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        _check_scalar_inputs(inputs)
        et, _ = _out_etype(attrs)
        return fold(self, attrs, inputs, [TensorInfo(et, _length_dim(inputs, integral=et.is_integer))])

    def compute(self, attrs: Range4Attrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        et, dtype = _out_etype(attrs)
        start, stop, step = _scalars(inputs)
        if step == 0:
            raise OpError("Range: step must not be zero")
        if et.is_integer:
            start, stop, step = math.trunc(start), math.trunc(stop), math.trunc(step)
            if step == 0:
                return [np.zeros(0, dtype)]
        return [_sequence(start, stop, step, dtype)]
