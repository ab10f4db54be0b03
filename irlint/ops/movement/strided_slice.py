"""StridedSlice-1: numpy-style basic slicing driven by begin/end/strides inputs and five masks.

Masks are per slice-spec position, 1 = set (any other value counts as unset). begin_mask/end_mask
set mean "ignore this begin/end and take the whole extent", new_axis_mask inserts a size-1 dim,
shrink_axis_mask takes element begin[i] and drops the dim, ellipsis_mask (at most one) stands for
all input dims not named by other positions. Priority as in OpenVINO's shape inference:
ellipsis, new axis, shrink, slice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.fastpath import indexer
from irlint.ops.movement.axes import as_int_array, common_length, int_values
from irlint.ops.movement.folding import fold
from irlint.ops.movement.slice_dims import py_slice, sliced_dim
from irlint.ops.registry import register
from irlint.types import Dim, format_shape


@dataclass(frozen=True)
class StridedSliceAttrs:
    begin_mask: tuple[int, ...]
    end_mask: tuple[int, ...]
    new_axis_mask: tuple[int, ...] = ()
    shrink_axis_mask: tuple[int, ...] = ()
    ellipsis_mask: tuple[int, ...] = ()


class Step(NamedTuple):
    """One output-producing step of the plan: kind is new / shrink / slice / full."""

    kind: str
    spec: int  # position in begin/end/strides (-1 for dims not named there)
    axis: int  # input axis (-1 for a new axis)


def _is_set(mask: tuple[int, ...], i: int) -> bool:
    return i < len(mask) and mask[i] == 1


def make_plan(attrs: StridedSliceAttrs, rank: int, n_specs: int) -> list[Step]:
    """Map each slice-spec position to the input axis it reads (the ellipsis expanded)."""
    ell = [i for i in range(n_specs) if _is_set(attrs.ellipsis_mask, i)]
    if len(ell) > 1:
        raise OpError(
            f"StridedSlice: at most one ellipsis is allowed, ellipsis_mask={list(attrs.ellipsis_mask)}"
        )

    def real(i: int) -> bool:
        return not _is_set(attrs.ellipsis_mask, i) and not _is_set(attrs.new_axis_mask, i)

    n_real = sum(1 for i in range(n_specs) if real(i))
    if n_real > rank:
        raise OpError(
            f"StridedSlice: {n_real} sliced axes (begin/end of length {n_specs} minus new axes) "
            f"exceed the input rank {rank}"
        )
    plan: list[Step] = []
    axis = 0
    for i in range(n_specs):
        if _is_set(attrs.ellipsis_mask, i):
            for _ in range(rank - n_real):
                plan.append(Step("full", -1, axis))
                axis += 1
        elif _is_set(attrs.new_axis_mask, i):
            plan.append(Step("new", i, -1))
        elif _is_set(attrs.shrink_axis_mask, i):
            plan.append(Step("shrink", i, axis))
            axis += 1
        else:
            plan.append(Step("slice", i, axis))
            axis += 1
    plan.extend(Step("full", -1, a) for a in range(axis, rank))
    return plan


def _bounds(
    attrs: StridedSliceAttrs, i: int, begin: list[int], end: list[int]
) -> tuple[int | None, int | None]:
    return (
        None if _is_set(attrs.begin_mask, i) else begin[i],
        None if _is_set(attrs.end_mask, i) else end[i],
    )


@register
class StridedSlice(Op):
    types = ("StridedSlice",)
    versions = ("opset1",)
    Attrs = StridedSliceAttrs
    arity = (3, 4)

    def infer(self, attrs: StridedSliceAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data = inputs[0]
        n_specs = common_length("StridedSlice", ("begin", "end", "strides"), inputs[1:], scalar=False)
        if data.shape is None or n_specs is None:
            return [TensorInfo(data.etype, None)]
        plan = make_plan(attrs, len(data.shape), n_specs)
        begin, end = int_values(inputs[1]), int_values(inputs[2])
        strides = int_values(inputs[3]) if len(inputs) > 3 else [1] * n_specs
        out: list[Dim] = []
        for step in plan:
            if step.kind == "new":
                out.append(Dim(1, 1))
            elif step.kind == "full":
                out.append(data.shape[step.axis])
            elif step.kind == "slice":
                dim = data.shape[step.axis]
                if begin is None or end is None or strides is None:
                    out.append(Dim(0, dim.hi))
                    continue
                if strides[step.spec] == 0:
                    raise OpError(f"StridedSlice: stride {step.spec} is zero")
                start, stop = _bounds(attrs, step.spec, begin, end)
                out.append(sliced_dim(dim, start, stop, strides[step.spec]))
            elif begin is not None:  # shrink: the index must lie inside a static dim
                dim, b = data.shape[step.axis], begin[step.spec]
                if dim.is_static and not -dim.lo <= b < dim.lo:
                    raise OpError(
                        f"StridedSlice: shrink index {b} at position {step.spec} is out of range for dim "
                        f"{dim.lo} of {format_shape(data.shape)}"
                    )
        return fold(self, attrs, inputs, [TensorInfo(data.etype, tuple(out))])

    def compute(self, attrs: StridedSliceAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        return [np.array(x[self.index(attrs, inputs, x)], order="C")]

    def index(self, attrs: StridedSliceAttrs, inputs: Sequence[np.ndarray], x: np.ndarray) -> tuple[Any, ...]:
        """The basic index (slices, integers, new axes) the masks and vectors make for x.shape."""
        begin = as_int_array("StridedSlice", "begin", inputs[1])
        end = as_int_array("StridedSlice", "end", inputs[2])
        strides = as_int_array("StridedSlice", "strides", inputs[3]) if len(inputs) > 3 else [1] * len(begin)
        if not len(begin) == len(end) == len(strides):
            raise OpError("StridedSlice: begin, end and strides must have the same length")
        index: list[Any] = []
        for step in make_plan(attrs, x.ndim, len(begin)):
            if step.kind == "new":
                index.append(np.newaxis)
            elif step.kind == "full":
                index.append(slice(None))
            elif step.kind == "shrink":
                n, b = x.shape[step.axis], begin[step.spec]
                if not -n <= b < n:
                    raise OpError(f"StridedSlice: shrink index {b} is out of range for dim {n}")
                index.append(b + n if b < 0 else b)
            else:
                if strides[step.spec] == 0:
                    raise OpError(f"StridedSlice: stride {step.spec} is zero")
                start, stop = _bounds(attrs, step.spec, begin, end)
                index.append(py_slice(x.shape[step.axis], start, stop, strides[step.spec]))
        return tuple(index)

    def prepare(self, attrs: StridedSliceAttrs, consts: Sequence[np.ndarray | None]):  # type: ignore[no-untyped-def]
        """Constant begin, end (and strides): the index computed once per input shape."""
        if any(c is None for c in consts[1:]):
            return None
        return indexer(lambda args, x: self.index(attrs, args, x))
