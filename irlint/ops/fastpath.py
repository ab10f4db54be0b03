"""Helpers for `Op.prepare`: kernels for the interpreter's hot loop that check once, not per call.

A prepared kernel is bound per layer and run; it must give exactly what `compute` gives on valid
inputs. Where the output's shape depends only on the input's shape and constant inputs (Squeeze,
Unsqueeze, Reshape with a constant shape, the splits), the checked `compute` runs once per input
shape and later calls only reshape or slice; what it decided is kept across runs (`_decided`), so a
short run does not pay `compute` again for every such op.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from irlint.ops.base import Op

FEW_VALUES = 64  # up to this many values `within` reads them as a Python list

# (op type, id(attrs), the constant inputs after x) -> (attrs, {x.shape: what compute decided}); the
# entry holds attrs, so its id is not reused while the entry lives. Cleared when full.
_DECIDED: dict[tuple[Any, ...], tuple[Any, dict[Any, Any]]] = {}
_MAX_DECIDED = 4096
_MAX_KEY_BYTES = 1024  # constant inputs larger than this are not keyed: their kernel decides per run


def _decided(op: Op, attrs: Any, consts: Sequence[np.ndarray | None]) -> dict[Any, Any]:
    """The memo of what `compute` decided per input shape for this op, attributes and constant inputs
    after the first (the same across runs of a model, whose programs keep their attributes)."""
    rest = consts[1:]
    if any(c is None or c.nbytes > _MAX_KEY_BYTES or c.dtype.kind not in "biu" for c in rest):
        return {}
    key = (type(op), id(attrs), *((c.dtype.str, c.shape, c.tobytes()) for c in rest))  # type: ignore[union-attr]
    got = _DECIDED.get(key)
    if got is not None and got[0] is attrs:
        return got[1]
    if len(_DECIDED) >= _MAX_DECIDED:
        _DECIDED.clear()
    memo: dict[Any, Any] = {}
    _DECIDED[key] = (attrs, memo)
    return memo


def reshaper(op: Op, attrs: Any, consts: Sequence[np.ndarray | None]) -> Callable[[list[np.ndarray]], list[np.ndarray]]:
    """A kernel for an op whose result is `x.reshape(S)`, S a function of x.shape alone (the other
    inputs constant): `compute` decides S (and checks) the first time a shape is seen."""
    shapes: dict[tuple[int, ...], tuple[int, ...]] = _decided(op, attrs, consts)

    def fast(args: list[np.ndarray]) -> list[np.ndarray]:
        x = args[0]
        shape = shapes.get(x.shape)
        if shape is None:
            out = np.asarray(op.compute(attrs, args)[0])
            shapes[x.shape] = out.shape
            return [out]
        return [x.reshape(shape)]

    return fast


def indexer(index_of: Callable[[Sequence[np.ndarray], np.ndarray], tuple[Any, ...]]
            ) -> Callable[[Sequence[np.ndarray]], list[np.ndarray]]:
    """A kernel for an op whose result is a C-ordered copy of `x[index]`, the index a function of
    x.shape alone (the other inputs constant): `index_of(args, x)` (the op's own, which checks and
    raises what `compute` raises) runs the first time a shape is seen."""
    indices: dict[tuple[int, ...], tuple[Any, ...]] = {}

    def fast(args: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = args[0]
        index = indices.get(x.shape)
        if index is None:
            index = indices[x.shape] = index_of(args, x)
        return [np.array(x[index], order="C")]

    return fast


def splitter(op: Op, attrs: Any, consts: Sequence[np.ndarray | None]) -> Callable[[list[np.ndarray]], list[np.ndarray]]:
    """A kernel for an op that cuts x into C-ordered parts along one axis at points that depend on
    x.shape alone: `compute` runs (and checks) the first time a shape is seen, and gives the points.
    When every dim before the axis is 1, each part of a C-contiguous x is a C-contiguous block of it,
    so the parts are returned as views with one contiguity test per call instead of one per part."""
    cuts: dict[tuple[int, ...], tuple[tuple[tuple[slice, ...], ...], bool]] = _decided(op, attrs, consts)
    axis = int(np.asarray(consts[1]).reshape(-1)[0])

    def fast(args: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = args[0]
        known = cuts.get(x.shape)
        if known is None:
            outs = [np.asarray(o) for o in op.compute(attrs, args)]  # checks the axis too
            ax = axis + x.ndim if axis < 0 else axis
            cuts[x.shape] = (_cut_points(ax, [o.shape[ax] for o in outs]), math.prod(x.shape[:ax]) == 1)
            return outs
        where, blocks = known
        if blocks and x.flags.c_contiguous:
            return list(map(x.__getitem__, where))
        return [_c_ordered(x[w]) for w in where]

    return fast


def _cut_points(axis: int, lengths: list[int]) -> tuple[tuple[slice, ...], ...]:
    """The index of each consecutive part of x along `axis`."""
    out, lo = [], 0
    for n in lengths:
        hi = lo + n
        out.append((slice(None),) * axis + (slice(lo, hi),))
        lo = hi
    return tuple(out)


def _c_ordered(part: np.ndarray) -> np.ndarray:
    """The part as `compute`'s C-ordered copy would hold it; a part that already is C-contiguous (a
    block of rows, or of a size-1 leading axis) is kept as a view of x (never mutated, same bits)."""
    return part if part.flags.c_contiguous else np.array(part, order="C")


def within(a: np.ndarray, lo: float, hi: float) -> bool:
    """Every value of `a` finite and within [lo, hi]. Up to FEW_VALUES values as a sorted Python list (a
    sixth of numpy's two reductions on a few values): an inf or NaN makes their sum inf or NaN, and
    without them the ends of the sorted list are the extremes."""
    if a.size <= FEW_VALUES:
        values = a.ravel().tolist()
        if not values:
            return True
        values.sort()
        return lo <= values[0] and values[-1] <= hi and math.isfinite(sum(values))
    return bool(lo <= a.min() and a.max() <= hi)
