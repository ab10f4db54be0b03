"""Roll-7: shift elements cyclically along `axes` by `shift` (a scalar shift applies to every axis;
an axis listed twice is shifted by the sum)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.movement.axes import as_int_array, input_rank, int_values, normalize_axis, vector_length
from irlint.ops.movement.folding import fold
from irlint.ops.registry import register


def _pairs(shift: list[int], axes: list[int], rank: int) -> tuple[list[int], list[int]]:
    if len(shift) == 1 and len(axes) > 1:
        shift = shift * len(axes)
    if len(shift) != len(axes):
        raise OpError(f"Roll: shift has {len(shift)} elements and axes {len(axes)}; they must match "
                      "(or shift be a scalar)")
    return shift, [normalize_axis("Roll", a, rank) for a in axes]


@register
class Roll(Op):
    types = ("Roll",)
    versions = ("opset7",)
    Attrs = NoAttrs
    arity = (3, 3)

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, shift, axes = inputs
        for name, info in (("shift", shift), ("axes", axes)):
            if info.etype is not None and not info.etype.is_dynamic and not info.etype.is_integer:
                raise OpError(f"Roll: {name} must be i32 or i64, got {info.etype}")
        n_shift, n_axes = vector_length("Roll", "shift", shift), vector_length("Roll", "axes", axes)
        if input_rank(shift) == 1 and input_rank(axes) == 0:
            raise OpError("Roll: shift is 1-D, so axes must be 1-D too, got a scalar")
        if n_shift is not None and n_axes is not None and n_shift not in (1, n_axes):
            raise OpError(f"Roll: shift has {n_shift} elements and axes {n_axes}; they must match")
        a = int_values(axes)
        if a is not None and data.rank is not None:
            for v in a:
                normalize_axis("Roll", v, data.rank)
        return fold(self, attrs, inputs, [TensorInfo(data.etype, data.shape)])

    def compute(self, attrs: NoAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        shift, axes = _pairs(as_int_array("Roll", "shift", inputs[1]), as_int_array("Roll", "axes", inputs[2]), x.ndim)
        return [np.roll(x, shift, axes) if axes else x.copy()]
