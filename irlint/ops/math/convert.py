"""Convert-1 and ConvertLike-1: change the element type.

Float to integer truncates toward zero and wraps to the target width (what OpenVINO's CPU plugin
does for values inside the int32 range; beyond it C++ leaves the result undefined and irlint
wraps through int64). Anything to boolean is `x != 0`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.registry import register
from irlint.types import ElementType, element_type


def convert_array(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    x = np.asarray(x)
    if dtype == np.bool_:
        return x != 0
    if np.issubdtype(dtype, np.integer) and np.issubdtype(x.dtype, np.floating):
        with np.errstate(all="ignore"):
            t = np.trunc(np.nan_to_num(x.astype(np.float64), nan=0.0, posinf=0.0, neginf=0.0))
            t = np.clip(t, -(2.0**63), 2.0**63 - 1024)
            return t.astype(np.int64).astype(dtype)
    with np.errstate(all="ignore"):
        return x.astype(dtype)


@dataclass(frozen=True)
class ConvertAttrs:
    destination_type: str


def _target(name: str) -> ElementType:
    et = element_type(name)
    if et is None:
        raise OpError(f"Convert: unknown destination_type {name!r}")
    return et


@register
class Convert(Op):
    types = ("Convert",)
    infer_reads_values = False
    versions = ("opset1",)
    Attrs = ConvertAttrs

    def infer(self, attrs: ConvertAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        return [TensorInfo(_target(attrs.destination_type), inputs[0].shape)]

    def compute(self, attrs: ConvertAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        et = _target(attrs.destination_type)
        if et.dtype is None:
            raise OpError(f"Convert: destination_type {et.name} cannot be computed with numpy")
        return [convert_array(inputs[0], et.dtype)]


@register
class ConvertLike(Op):
    types = ("ConvertLike",)
    infer_reads_values = False
    versions = ("opset1",)
    arity = (2, 2)

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        return [TensorInfo(inputs[1].etype, inputs[0].shape)]

    def compute(self, attrs: NoAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        return [convert_array(inputs[0], np.asarray(inputs[1]).dtype)]
