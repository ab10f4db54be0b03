"""Tile-1: repeat a tensor along each axis; repeats and data rank are aligned from the right."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.movement.axes import as_int_array, int_values, vector_length
from irlint.ops.movement.dims import dim_mul, dynamic_shape
from irlint.ops.movement.folding import fold
from irlint.ops.registry import register
from irlint.types import Dim


def _repeats(vals: list[int]) -> list[int]:
    # OpenVINO treats a negative repeat as 0 (an empty dim) rather than rejecting it.
    return [max(v, 0) for v in vals]


@register
class Tile(Op):
    types = ("Tile",)
    versions = ("opset1",)
    arity = (2, 2)

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, reps_in = inputs
        if reps_in.shape is not None and len(reps_in.shape) != 1:
            raise OpError(f"Tile: repeats must be 1-D, got rank {len(reps_in.shape)}")
        vals = int_values(reps_in)
        if data.shape is None:
            return [TensorInfo(data.etype, None)]
        if vals is None:
            n = vector_length("Tile", "repeats", reps_in)
            return [TensorInfo(data.etype, None if n is None else dynamic_shape(max(n, len(data.shape))))]
        reps = _repeats(vals)
        rank = max(len(reps), len(data.shape))
        dims = (Dim(1, 1),) * (rank - len(data.shape)) + data.shape
        reps = [1] * (rank - len(reps)) + reps
        shape = tuple(dim_mul(d, Dim(r, r)) for d, r in zip(dims, reps, strict=False))
        return fold(self, attrs, inputs, [TensorInfo(data.etype, shape)])

    def compute(self, attrs: NoAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        reps = _repeats(as_int_array("Tile", "repeats", inputs[1]))
        return [np.tile(x, reps) if reps else x.copy()]
