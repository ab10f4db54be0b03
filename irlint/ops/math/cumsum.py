"""CumSum-3: running sum along `axis` (input 1, default 0); `exclusive` leaves out the element itself,
`reverse` sums from the end. Integer sums wrap in the element type like OpenVINO's C++."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.indexing.common import one_int
from irlint.ops.movement.axes import normalize_axis, scalar_value
from irlint.ops.registry import register
from irlint.types import format_shape


@dataclass(frozen=True)
class CumSumAttrs:
    exclusive: bool = False
    reverse: bool = False


@register
class CumSum(Op):
    types = ("CumSum",)
    versions = ("opset3",)
    Attrs = CumSumAttrs
    arity = (1, 2)

    def infer(self, attrs: CumSumAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data = inputs[0]
        if len(inputs) == 2:
            ax = inputs[1]
            if ax.shape is not None and len(ax.shape) != 0:
                raise OpError(f"CumSum: axis must be a scalar, got shape {format_shape(ax.shape)}")
            if ax.etype is not None and not ax.etype.is_dynamic and not ax.etype.is_integer:
                raise OpError(f"CumSum: axis must be i32 or i64, got {ax.etype}")
            axis = scalar_value(ax)
            if axis is not None and data.rank is not None:
                normalize_axis("CumSum", axis, data.rank)
        return [TensorInfo(data.etype, data.shape)]

    def compute(self, attrs: CumSumAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        axis = one_int("CumSum", "axis", inputs[1]) if len(inputs) == 2 else 0
        if x.ndim == 0:
            return [np.zeros_like(x) if attrs.exclusive else x.copy()]
        ax = normalize_axis("CumSum", axis, x.ndim)
        y = np.flip(x, ax) if attrs.reverse else x
        with np.errstate(all="ignore"):
            out = np.cumsum(y, axis=ax, dtype=x.dtype)
        if attrs.exclusive and out.shape[ax]:
            out = np.concatenate([np.zeros_like(np.take(out, [0], axis=ax)), np.take(out, range(out.shape[ax] - 1),
                                                                                     axis=ax)], axis=ax)
        if attrs.reverse:
            out = np.flip(out, ax)
        return [np.ascontiguousarray(out)]
