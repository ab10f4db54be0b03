"""VariadicSplit-1: cut a tensor along an axis into parts of the given lengths (one may be -1)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.fastpath import splitter
from irlint.ops.movement.axes import as_int_array, int_values, normalize_axis, scalar_value, vector_length
from irlint.ops.movement.dims import dynamic_shape
from irlint.ops.movement.folding import fold
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim, format_shape


def _lengths(dim: Dim, lengths: list[int]) -> list[Dim]:
    """Each part's dim along the axis; the -1 part takes what the others leave."""
    if sum(1 for v in lengths if v == -1) > 1:
        raise OpError(f"VariadicSplit: more than one -1 in split_lengths {lengths}")
    if any(v < -1 for v in lengths):
        raise OpError(f"VariadicSplit: negative length in split_lengths {lengths} (only -1 allowed)")
    fixed = sum(v for v in lengths if v != -1)
    if -1 not in lengths:
        if dim.is_static and fixed != dim.lo:
            raise OpError(f"VariadicSplit: split_lengths {lengths} sum to {fixed}, the axis has {dim.lo}")
        return [Dim(v, v) for v in lengths]
    if dim.hi is not None and fixed > dim.hi:
        raise OpError(f"VariadicSplit: split_lengths {lengths} exceed the axis dim {dim}")
    rest = Dim(max(dim.lo - fixed, 0), None if dim.hi is None else dim.hi - fixed)
    return [rest if v == -1 else Dim(v, v) for v in lengths]


@register
class VariadicSplit(Op):
    types = ("VariadicSplit",)
    versions = ("opset1",)
    arity = (3, 3)

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, axis_in, lengths_in = inputs
        if axis_in.shape is not None and len(axis_in.shape) > 0 and axis_in.shape != (Dim(1, 1),):
            raise OpError(f"VariadicSplit: axis must be a scalar or of shape [1], got {format_shape(axis_in.shape)}")
        lengths = int_values(lengths_in)
        n = vector_length("VariadicSplit", "split_lengths", lengths_in, scalar=False)
        count = len(lengths) if lengths is not None else n
        if count is None:
            raise OpError(
                "VariadicSplit: the number of outputs is unknown (split_lengths has a dynamic length)"
            )
        axis = scalar_value(axis_in)
        if data.shape is None or axis is None:
            return [TensorInfo(data.etype, dynamic_shape(data.rank)) for _ in range(count)]
        ax = normalize_axis("VariadicSplit", axis, len(data.shape))
        parts = _lengths(data.shape[ax], lengths) if lengths is not None else [DYNAMIC] * count
        outs = [TensorInfo(data.etype, (*data.shape[:ax], p, *data.shape[ax + 1 :])) for p in parts]
        return fold(self, attrs, inputs, outs)

    def compute(self, attrs: NoAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        (axis,) = as_int_array("VariadicSplit", "axis", inputs[1])
        ax = normalize_axis("VariadicSplit", axis, x.ndim)
        parts = _lengths(
            Dim(x.shape[ax], x.shape[ax]), as_int_array("VariadicSplit", "split_lengths", inputs[2])
        )
        bounds = np.cumsum([p.lo for p in parts])[:-1]
        return [np.array(p, order="C") for p in np.split(x, bounds, axis=ax)]

    def prepare(self, attrs, consts):  # type: ignore[no-untyped-def]
        """Constant axis and lengths: the cut points computed by `compute` once per input shape."""
        return None if any(c is None for c in consts[1:]) else splitter(self, attrs, consts)
