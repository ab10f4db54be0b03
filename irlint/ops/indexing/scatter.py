"""ScatterUpdate-3, ScatterElementsUpdate-3/12 and ScatterNDUpdate-3/15: write `updates` into a copy of `data`.

Updates are applied in row-major order of the indices, so with duplicate indices and no reduction
the last one wins (OpenVINO's reference; the spec leaves it undefined). Reductions follow the
reference: with ``use_init_val=false`` the target starts from the reduction's neutral value; on
booleans sum is OR and prod is AND; an integer `mean` rounds down. Negative indices count from the
end; out-of-range ones are errors. Float min/max follow the reference's ``a > b ? a : b``: an update
replaces a NaN, and a NaN update replaces the value (docs/semantics.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.indexing.common import int_indices, normalized, one_int
from irlint.ops.movement.axes import normalize_axis, scalar_value
from irlint.ops.movement.dims import merge_shapes
from irlint.ops.registry import register
from irlint.types import Shape, format_shape, static_shape

Array = np.ndarray

REDUCTIONS = ("none", "sum", "sub", "prod", "min", "max", "mean")


def _integer_input(op: str, info: TensorInfo, name: str) -> None:
    if info.etype is not None and not info.etype.is_dynamic and not info.etype.is_integer:
        raise OpError(f"{op}: {name} must be an integer tensor, got {info.etype}")


def _check_updates(op: str, updates: Shape | None, want: Shape | None) -> None:
    merge_shapes(op, updates, want, f"updates must have shape {format_shape(want)}")


def _combine(reduction: str, dtype: np.dtype) -> np.ufunc:
    """The element-wise reduction of (accumulator, update) for `reduction` on `dtype`."""
    if dtype == np.bool_:
        table = {"sum": np.logical_or, "prod": np.logical_and, "sub": np.logical_xor,
                 "min": np.logical_and, "max": np.logical_or}
    else:
        table = {"sum": np.add, "prod": np.multiply, "sub": np.subtract, "min": np.minimum, "max": np.maximum,
                 "mean": np.add}
    if reduction not in table:
        raise OpError(f"reduction {reduction!r} is not supported for {dtype}")
    return table[reduction]


def _neutral(reduction: str, dtype: np.dtype) -> object:
    if dtype == np.bool_:
        return reduction in ("prod", "min")
    if reduction in ("sum", "sub", "mean"):
        return 0
    if reduction == "prod":
        return 1
    info = np.finfo(dtype) if np.issubdtype(dtype, np.floating) else np.iinfo(dtype)
    return info.max if reduction == "min" else info.min


def apply_updates(out: Array, targets: Array, updates: Array, reduction: str, use_init_val: bool) -> Array:
    """Write `updates` at flat positions `targets` of `out`, in order, reducing duplicates."""
    flat = out.reshape(-1)
    if reduction == "none":
        # The last write to a position wins; numpy's fancy assignment does not promise an order.
        last, pos = np.unique(targets[::-1], return_index=True)
        flat[last] = updates[::-1][pos]
        return out
    fn = _combine(reduction, out.dtype)
    if not use_init_val:
        flat[targets] = _neutral(reduction, out.dtype)
    with np.errstate(all="ignore"):
        if reduction in ("min", "max") and out.dtype.kind == "f" and (np.isnan(updates).any()
                                                                      or np.isnan(flat[targets]).any()):
            # OpenVINO's reference keeps the accumulator only if it compares greater (max) or less
            # (min): a NaN on either side lets the update through. np.maximum would spread the NaN.
            better = np.greater if reduction == "max" else np.less
            for t, u in zip(targets.tolist(), updates.tolist()):
                if not better(flat[t], u):
                    flat[t] = u
        else:
            fn.at(flat, targets, updates)  # unbuffered: every duplicate is applied
        if reduction == "mean":
            counts = np.bincount(targets, minlength=flat.shape[0])
            hit = counts > 0
            n = counts[hit] + (1 if use_init_val else 0)
            if np.issubdtype(out.dtype, np.integer):
                flat[hit] = np.floor_divide(flat[hit].astype(np.int64), n).astype(out.dtype)
            else:
                flat[hit] = (flat[hit] / n).astype(out.dtype)
    return out


# ------------------------------------------------------------------------------------- ScatterUpdate


@register
class ScatterUpdate(Op):
    """ScatterUpdate-3: ``out[..., indices[j...], ...] = updates[..., j..., ...]`` along `axis` (input 3)."""

    types = ("ScatterUpdate",)
    versions = ("opset3",)
    Attrs = NoAttrs
    arity = (4, 4)

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, indices, updates, axis_in = inputs
        _integer_input("ScatterUpdate", indices, "indices")
        _integer_input("ScatterUpdate", axis_in, "axis")
        if axis_in.shape is not None and len(axis_in.shape) > 1:
            raise OpError(f"ScatterUpdate: axis must be a scalar or 1-D, got rank {len(axis_in.shape)}")
        axis = scalar_value(axis_in)
        if data.shape is not None and axis is not None and indices.shape is not None:
            ax = normalize_axis("ScatterUpdate", axis, len(data.shape))
            _check_updates("ScatterUpdate", updates.shape, data.shape[:ax] + indices.shape + data.shape[ax + 1:])
        return [TensorInfo(data.etype or updates.etype, data.shape)]

    def compute(self, attrs: NoAttrs, inputs: Sequence[Array]) -> list[Array]:
        x, upd = np.asarray(inputs[0]), np.asarray(inputs[2])
        idx = int_indices("ScatterUpdate", inputs[1])
        axis = one_int("ScatterUpdate", "axis", inputs[3])
        ax = normalize_axis("ScatterUpdate", axis, x.ndim)
        want = x.shape[:ax] + idx.shape + x.shape[ax + 1:]
        if upd.shape != want:
            raise OpError(f"ScatterUpdate: updates have shape {list(upd.shape)}, expected {list(want)}")
        idx = normalized("ScatterUpdate", idx, x.shape[ax])
        out = np.array(x, copy=True)
        moved = np.moveaxis(out, ax, 0)  # a view: writes land in `out`
        u = upd.reshape((*x.shape[:ax], idx.size, *x.shape[ax + 1:]))
        u = np.moveaxis(u, ax, 0)
        for j, i in enumerate(idx.reshape(-1).tolist()):
            moved[i] = u[j]
        return [out]


# ----------------------------------------------------------------------------- ScatterElementsUpdate


@dataclass(frozen=True)
class ScatterElementsAttrs:
    reduction: str = "none"
    use_init_val: bool = True


class _ScatterElements(Op):
    types = ("ScatterElementsUpdate",)
    arity = (4, 4)

    def infer(self, attrs: object, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, indices, updates, axis_in = inputs
        _integer_input("ScatterElementsUpdate", indices, "indices")
        _integer_input("ScatterElementsUpdate", axis_in, "axis")
        self._reduction(attrs)
        _check_updates("ScatterElementsUpdate", updates.shape, indices.shape)
        if data.shape is not None and indices.shape is not None and len(data.shape) != len(indices.shape):
            raise OpError(f"ScatterElementsUpdate: indices {format_shape(indices.shape)} must have the rank of "
                          f"data {format_shape(data.shape)}")
        axis = scalar_value(axis_in)
        if data.shape is not None and axis is not None:
            normalize_axis("ScatterElementsUpdate", axis, len(data.shape))
        return [TensorInfo(data.etype or updates.etype, data.shape)]

    def _reduction(self, attrs: object) -> str:
        r = getattr(attrs, "reduction", "none").lower()
        if r not in ("none", "sum", "prod", "min", "max", "mean"):
            raise OpError(f"ScatterElementsUpdate: reduction {r!r} is not one of none, sum, prod, min, max, mean")
        return r

    def compute(self, attrs: object, inputs: Sequence[Array]) -> list[Array]:
        x, upd = np.asarray(inputs[0]), np.asarray(inputs[2])
        idx = int_indices("ScatterElementsUpdate", inputs[1])
        axis = one_int("ScatterElementsUpdate", "axis", inputs[3])
        reduction = self._reduction(attrs)
        if idx.shape != upd.shape or idx.ndim != x.ndim:
            raise OpError(f"ScatterElementsUpdate: indices {list(idx.shape)} and updates {list(upd.shape)} must "
                          f"have one shape, of the rank of data {list(x.shape)}")
        ax = normalize_axis("ScatterElementsUpdate", axis, x.ndim)
        for k, (d, i) in enumerate(zip(x.shape, idx.shape)):
            if k != ax and i > d:
                raise OpError(f"ScatterElementsUpdate: indices dim {k} ({i}) exceeds data dim ({d})")
        idx = normalized("ScatterElementsUpdate", idx, x.shape[ax])
        coords = list(np.indices(idx.shape, sparse=False)) if idx.size else [np.zeros(0, np.int64)] * x.ndim
        coords[ax] = idx
        targets = np.ravel_multi_index(tuple(c.reshape(-1) for c in coords), x.shape) if idx.size else \
            np.zeros(0, np.int64)
        out = np.array(x, copy=True)
        apply_updates(out, targets, upd.reshape(-1), reduction, getattr(attrs, "use_init_val", True))
        return [out]


@register
class ScatterElementsUpdate12(_ScatterElements):
    versions = ("opset12",)
    Attrs = ScatterElementsAttrs


@register
class ScatterElementsUpdate3(_ScatterElements):
    versions = ("opset3",)
    Attrs = NoAttrs


# ---------------------------------------------------------------------------------- ScatterNDUpdate


@dataclass(frozen=True)
class ScatterNDAttrs:
    reduction: str = "none"


class _ScatterND(Op):
    types = ("ScatterNDUpdate",)
    arity = (3, 3)
    infer_reads_values = False

    def _reduction(self, attrs: object) -> str:
        r = getattr(attrs, "reduction", "none").lower()
        if r not in ("none", "sum", "sub", "prod", "min", "max"):
            raise OpError(f"ScatterNDUpdate: reduction {r!r} is not one of none, sum, sub, prod, min, max")
        return r

    def infer(self, attrs: object, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, indices, updates = inputs
        _integer_input("ScatterNDUpdate", indices, "indices")
        self._reduction(attrs)
        if data.shape is not None and indices.shape is not None:
            if len(indices.shape) < 1:
                raise OpError("ScatterNDUpdate: indices must have rank 1 or more")
            k = indices.shape[-1].value
            if k is not None:
                if k > len(data.shape):
                    raise OpError(f"ScatterNDUpdate: index tuples of length {k} exceed the rank of data "
                                  f"{format_shape(data.shape)}")
                _check_updates("ScatterNDUpdate", updates.shape, indices.shape[:-1] + data.shape[k:])
        return [TensorInfo(data.etype or updates.etype, data.shape)]

    def compute(self, attrs: object, inputs: Sequence[Array]) -> list[Array]:
        x, upd = np.asarray(inputs[0]), np.asarray(inputs[2])
        idx = int_indices("ScatterNDUpdate", inputs[1])
        reduction = self._reduction(attrs)
        self.infer(attrs, [TensorInfo(None, static_shape(a.shape)) for a in (x, idx, upd)])
        k = idx.shape[-1]
        tuples = idx.reshape(-1, k)
        cols = [normalized("ScatterNDUpdate", tuples[:, j], x.shape[j]) for j in range(k)]
        inner = int(np.prod(x.shape[k:], dtype=np.int64))
        base = np.ravel_multi_index(tuple(cols), x.shape[:k]) if k else np.zeros(tuples.shape[0], np.int64)
        targets = (base[:, None] * inner + np.arange(inner)[None, :]).reshape(-1)
        out = np.array(x, copy=True)
        apply_updates(out, targets, upd.reshape(-1), reduction, True)
        return [out]


@register
class ScatterNDUpdate15(_ScatterND):
    versions = ("opset15",)
    Attrs = ScatterNDAttrs


@register
class ScatterNDUpdate3(_ScatterND):
    """ScatterNDUpdate-3, which OpenVINO writes as version "opset4"."""

    versions = ("opset4",)
    Attrs = NoAttrs
