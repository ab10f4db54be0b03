"""Unsqueeze-1: insert size-1 dims at the given axes (counted in the output rank; repeats ignored)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.fastpath import reshaper
from irlint.ops.movement.axes import as_int_array, int_values, normalize_axis, vector_length
from irlint.ops.movement.dims import dynamic_shape
from irlint.ops.movement.folding import fold
from irlint.ops.registry import register
from irlint.types import Dim, Shape


def _unsqueeze(shape: Shape, axes_vals: list[int]) -> Shape:
    if not axes_vals:
        raise OpError("Unsqueeze: axes must not be empty")
    # As OpenVINO: normalise against rank + len(axes), then drop repeats.
    axes = {normalize_axis("Unsqueeze", a, len(shape) + len(axes_vals)) for a in axes_vals}
    rank = len(shape) + len(axes)
    if max(axes) >= rank:
        raise OpError(f"Unsqueeze: axes {axes_vals} do not fit the output rank {rank}")
    rest = iter(shape)
    return tuple(Dim(1, 1) if i in axes else next(rest) for i in range(rank))


@register
class Unsqueeze(Op):
    types = ("Unsqueeze",)
    versions = ("opset1",)
    arity = (2, 2)

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, axes = inputs
        vals = int_values(axes)
        if data.shape is None:
            return [TensorInfo(data.etype, None)]
        if vals is None:
            n = vector_length("Unsqueeze", "axes", axes)
            # Without the values, only a single axis fixes the output rank.
            return [TensorInfo(data.etype, dynamic_shape(len(data.shape) + 1) if n == 1 else None)]
        return fold(self, attrs, inputs, [TensorInfo(data.etype, _unsqueeze(data.shape, vals))])

    def compute(self, attrs: NoAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        shape = _unsqueeze(tuple(Dim(n, n) for n in x.shape), as_int_array("Unsqueeze", "axes", inputs[1]))
        return [x.reshape([d.lo for d in shape])]

    def prepare(self, attrs: NoAttrs, consts: Sequence[np.ndarray | None]):  # type: ignore[no-untyped-def]
        """Constant axes: the output shape computed by `compute` once per input shape."""
        return None if consts[1] is None else reshaper(self, attrs, consts)
