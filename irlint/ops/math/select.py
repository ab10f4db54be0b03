"""Select-1: cond ? then : else, element-wise with numpy broadcasting of all three inputs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import NotComputable, Op, OpError, TensorInfo
from irlint.ops.math.elementwise import broadcast_result, same_etype
from irlint.ops.registry import register
from irlint.types import BOOL, static_shape


@dataclass(frozen=True)
class SelectAttrs:
    auto_broadcast: str = "numpy"


@register
class Select(Op):
    types = ("Select",)
    infer_reads_values = False
    versions = ("opset1",)
    Attrs = SelectAttrs
    arity = (3, 3)

    def infer(self, attrs: SelectAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        cond, then, other = inputs
        if cond.etype is not None and cond.etype != BOOL:
            raise OpError(f"Select: the condition must be boolean, got {cond.etype}")
        etype = same_etype("Select", [then, other])
        if attrs.auto_broadcast == "pdpd":  # else and cond are broadcast into then
            return [TensorInfo(etype, broadcast_result("Select", "pdpd", [then.shape, other.shape, cond.shape]))]
        shape = broadcast_result("Select", attrs.auto_broadcast, [cond.shape, then.shape, other.shape])
        return [TensorInfo(etype, shape)]

    def compute(self, attrs: SelectAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        cond, then, other = (np.asarray(a) for a in inputs)
        if attrs.auto_broadcast == "pdpd":
            raise NotComputable("Select: irlint does not compute auto_broadcast=pdpd")
        broadcast_result("Select", attrs.auto_broadcast, [static_shape(a.shape) for a in (cond, then, other)])
        return [np.where(cond.astype(bool), then, other).astype(then.dtype)]

    def prepare(self, attrs: SelectAttrs, consts: Sequence[np.ndarray | None]):  # type: ignore[no-untyped-def]
        """numpy broadcasting checked by numpy itself (a failure is explained by `compute`); a boolean
        condition and a result already of the `then` type are not copied again."""
        if attrs.auto_broadcast != "numpy":
            return None
        boolean = np.dtype(np.bool_)

        def fast(args: Sequence[np.ndarray]) -> list[np.ndarray]:
            cond, then, other = args
            out = np.asarray(np.where(cond if cond.dtype is boolean else cond.astype(bool), then, other))
            return [out if out.dtype is then.dtype else out.astype(then.dtype)]

        return fast
