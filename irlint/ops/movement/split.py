"""Split-1: cut a tensor into `num_splits` equal parts along the axis given as a scalar input."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.fastpath import splitter
from irlint.ops.movement.axes import as_int_array, normalize_axis, scalar_value
from irlint.ops.movement.dims import dynamic_shape
from irlint.ops.movement.folding import fold
from irlint.ops.registry import register
from irlint.types import Dim, format_shape


@dataclass(frozen=True)
class SplitAttrs:
    num_splits: int


def _part(dim: Dim, n: int, shape_text: str) -> Dim:
    if dim.is_static and dim.lo % n:
        raise OpError(
            f"Split: dim {dim.lo} of {shape_text} along the axis is not divisible by num_splits={n}"
        )
    return Dim(-(-dim.lo // n), None if dim.hi is None else dim.hi // n)


@register
class Split(Op):
    types = ("Split",)
    versions = ("opset1",)
    Attrs = SplitAttrs
    arity = (2, 2)

    def infer(self, attrs: SplitAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, axis_in = inputs
        n = attrs.num_splits
        if n <= 0:
            raise OpError(f"Split: num_splits must be positive, got {n}")
        if axis_in.shape is not None and len(axis_in.shape) != 0:
            raise OpError(f"Split: axis must be a scalar, got shape {format_shape(axis_in.shape)}")
        axis = scalar_value(axis_in)
        if data.shape is None or axis is None:
            return [TensorInfo(data.etype, dynamic_shape(data.rank)) for _ in range(n)]
        ax = normalize_axis("Split", axis, len(data.shape))
        part = _part(data.shape[ax], n, format_shape(data.shape))
        shape = (*data.shape[:ax], part, *data.shape[ax + 1 :])
        return fold(self, attrs, inputs, [TensorInfo(data.etype, shape) for _ in range(n)])

    def compute(self, attrs: SplitAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        (axis,) = as_int_array("Split", "axis", inputs[1])
        ax = normalize_axis("Split", axis, x.ndim)
        _part(Dim(x.shape[ax], x.shape[ax]), attrs.num_splits, str(list(x.shape)))
        return [np.array(p, order="C") for p in np.split(x, attrs.num_splits, axis=ax)]

    def prepare(self, attrs, consts):  # type: ignore[no-untyped-def]
        """A constant axis: the cut points computed by `compute` once per input shape."""
        return None if any(c is None for c in consts[1:]) else splitter(self, attrs, consts)
