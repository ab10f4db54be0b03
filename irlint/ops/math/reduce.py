"""Reduce* ops: data and an integer axes input; `keep_dims` keeps reduced axes as 1.

Duplicate or out-of-range axes are errors (as in OpenVINO). Integer ReduceMean divides in the
element type (truncating); ReduceL2 of integers rounds the square root like OpenVINO's reference.
ReduceMax/ReduceMin skip NaNs and give the type's lowest value / +inf over an empty axis, and
ReduceMean gives 0 there, as OpenVINO's reference (docs/semantics.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import ml_dtypes
import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.lowp import in_f32, refuse_nf4
from irlint.ops.registry import register
from irlint.types import BOOL, NARROW_FLOATS, Dim, Shape

Array = np.ndarray


@dataclass(frozen=True)
class ReduceAttrs:
    keep_dims: bool = False


def _axes(op: str, values: Sequence[int], rank: int) -> list[int]:
    out = []
    for a in values:
        if not -rank <= a < max(rank, 1):
            raise OpError(f"{op}: axis {a} is out of range for rank {rank}")
        n = a + rank if a < 0 else a
        if n in out:
            raise OpError(f"{op}: axis {a} is listed twice")
        out.append(n)
    return out


def _mean(x: Array, axis: tuple[int, ...], keepdims: bool) -> Array:
    if np.issubdtype(x.dtype, np.integer):
        count = int(np.prod([x.shape[a] for a in axis])) if axis else 1
        s = np.sum(x, axis=axis, keepdims=keepdims, dtype=np.int64)
        return (np.trunc(s / max(count, 1))).astype(x.dtype)
    if x.size == 0:  # an empty axis: 0, as OpenVINO (numpy would give 0 / 0)
        return np.sum(x, axis=axis, keepdims=keepdims)
    return np.mean(x, axis=axis, keepdims=keepdims)


@lru_cache(maxsize=64)
def _extremes(dtype: np.dtype) -> tuple[object, object]:
    """(start of a maximum, start of a minimum) for `dtype`, as OpenVINO's reference starts ReduceMax
    and ReduceMin: f32's (or f64's, the integer's) lowest value rounded to the type (-inf for f16 and
    bf16), and +inf where the type has one; f8e4m3/f8e8m0/f4e2m1 take their extremes."""
    if dtype.kind in "iub" or (dtype.kind == "V" and "int" in dtype.name):
        info = ml_dtypes.iinfo(dtype)
        return dtype.type(info.min), dtype.type(info.max)
    info = ml_dtypes.finfo(dtype)
    inf = np.array(np.inf, np.float32).astype(dtype)
    if not np.isinf(inf.astype(np.float32)):  # f8e4m3, f8e8m0, f4e2m1: the largest finite values
        return dtype.type(info.min), dtype.type(info.max)
    if dtype.itemsize < 4:  # f32's lowest rounded to f16/bf16/f8e5m2 is -inf, in the reference too
        return (-inf)[()], inf[()]
    return dtype.type(info.min), inf[()]


def _max(x: Array, axis: tuple[int, ...], keepdims: bool) -> Array:
    """`acc = v > acc ? v : acc` from the lowest value: NaNs are skipped, an empty axis gives the lowest."""
    return np.fmax.reduce(x, axis=axis, keepdims=keepdims, initial=_extremes(x.dtype)[0])


def _min(x: Array, axis: tuple[int, ...], keepdims: bool) -> Array:
    """`acc = v < acc ? v : acc` from +inf: NaNs are skipped, an empty axis gives +inf (or the largest)."""
    return np.fmin.reduce(x, axis=axis, keepdims=keepdims, initial=_extremes(x.dtype)[1])


def _l2(x: Array, axis: tuple[int, ...], keepdims: bool) -> Array:
    y = np.sqrt(np.sum(x.astype(np.float64) ** 2, axis=axis, keepdims=keepdims))
    return np.round(y) if np.issubdtype(x.dtype, np.integer) else y


# Sums and products of narrow floats accumulate in f32 and round once (`in_f32`, as OpenVINO).
REDUCTIONS: dict[str, Callable[[Array, tuple[int, ...], bool], Array]] = {
    "ReduceSum": in_f32(lambda x, a, k: np.sum(x, axis=a, keepdims=k)),
    "ReduceProd": in_f32(lambda x, a, k: np.prod(x, axis=a, keepdims=k)),
    "ReduceMax": _max,
    "ReduceMin": _min,
    "ReduceMean": in_f32(_mean),
    "ReduceL1": in_f32(lambda x, a, k: np.sum(np.abs(x), axis=a, keepdims=k)),
    "ReduceL2": in_f32(_l2),
    "ReduceLogicalAnd": lambda x, a, k: np.all(x, axis=a, keepdims=k),
    "ReduceLogicalOr": lambda x, a, k: np.any(x, axis=a, keepdims=k),
}
VERSIONS = {"ReduceL1": ("opset4",), "ReduceL2": ("opset4",)}
# The reductions that are one ufunc's `reduce` for wide floats and integers: `np.sum` and `np.prod`
# call exactly it (same bits) behind a Python-level wrapper that costs more than summing a small tensor.
UFUNC_REDUCE = {"ReduceSum": np.add, "ReduceProd": np.multiply}
_WIDE = (np.dtype(np.float32), np.dtype(np.float64))


def _mean_wide(x: Array, axis: tuple[int, ...], keepdims: bool) -> Array:
    """`np.mean` of a non-empty f32/f64 x step by step, as numpy computes it (the ufunc sum, then a
    division by the count as an intp, in place), without its Python wrappers."""
    count = 1
    for a in axis:
        count *= x.shape[a]
    s = np.add.reduce(x, axis, None, None, keepdims)
    if type(s) is np.ndarray:
        return np.true_divide(s, np.intp(count), out=s, casting="unsafe")
    return s.dtype.type(s / np.intp(count))


class Reduce(Op):
    Attrs = ReduceAttrs
    arity = (2, 2)
    fn: Callable[[Array, tuple[int, ...], bool], Array]
    logical = False

    def infer(self, attrs: ReduceAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        name = self.types[0]
        data, axes = inputs
        if self.logical and data.etype is not None and data.etype != BOOL:
            raise OpError(f"{name}: data must be boolean, got {data.etype}")
        if axes.etype is not None and not axes.etype.is_integer:
            raise OpError(f"{name}: axes must be an integer tensor, got {axes.etype}")
        if axes.shape is not None and len(axes.shape) > 1:
            raise OpError(f"{name}: axes must be a scalar or 1-D, got rank {len(axes.shape)}")
        if data.shape is None:
            return [TensorInfo(data.etype, None)]
        rank = len(data.shape)
        if axes.value is None:
            if attrs.keep_dims:
                return [TensorInfo(data.etype, tuple(Dim(min(d.lo, 1), d.hi) for d in data.shape))]
            n = axes.shape[0].value if axes.shape and len(axes.shape) == 1 else None
            return [TensorInfo(data.etype, None if n is None else (Dim(0, None),) * (rank - n))]
        ax = _axes(name, [int(v) for v in np.asarray(axes.value).reshape(-1)], rank)
        shape: Shape = tuple(
            Dim(1, 1) if i in ax else d for i, d in enumerate(data.shape) if attrs.keep_dims or i not in ax
        )
        return [TensorInfo(data.etype, shape)]

    def compute(self, attrs: ReduceAttrs, inputs: Sequence[Array]) -> list[Array]:
        x = np.asarray(inputs[0])
        refuse_nf4(self.types[0], x)
        ax = tuple(_axes(self.types[0], [int(v) for v in np.asarray(inputs[1]).reshape(-1)], x.ndim))
        out = np.asarray(type(self).fn(x, ax, attrs.keep_dims))
        return [out.astype(x.dtype, copy=False)]

    def prepare(self, attrs: ReduceAttrs, consts: Sequence[Array | None]):  # type: ignore[no-untyped-def]
        """Constant axes: normalised by `compute` once per input rank."""
        if consts[1] is None:
            return None
        fn, keep = type(self).fn, attrs.keep_dims
        direct = UFUNC_REDUCE.get(self.types[0])
        mean = self.types[0] == "ReduceMean"
        values = [int(v) for v in np.asarray(consts[1]).reshape(-1)]
        by_rank: dict[int, tuple[int, ...]] = {}

        def fast(args: list[Array]) -> list[Array]:
            x = args[0]
            ax = by_rank.get(x.ndim)
            if ax is None:
                out = self.compute(attrs, args)
                by_rank[x.ndim] = tuple(_axes(self.types[0], values, x.ndim))
                return out
            if direct is not None and x.dtype not in NARROW_FLOATS:  # narrow floats: f32 via `fn`
                out = np.asarray(direct.reduce(x, ax, None, None, keep))
            elif mean and x.dtype in _WIDE and x.size:
                out = np.asarray(_mean_wide(x, ax, keep))
            else:
                out = np.asarray(fn(x, ax, keep))
            return [out.astype(x.dtype, copy=False)]

        return fast


for _name, _fn in REDUCTIONS.items():
    register(type(_name, (Reduce,), {"types": (_name,), "versions": VERSIONS.get(_name, ("opset1",)),
                                      "fn": staticmethod(_fn), "logical": "Logical" in _name}))
