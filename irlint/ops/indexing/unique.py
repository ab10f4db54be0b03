"""Unique-10: the distinct elements (or, with an `axis` input, the distinct slices along it).

Four outputs: the unique values, the index of each one's first occurrence, for every input element
(slice) the index of its unique value, and the count of each. `sorted=true` orders them ascending
(slices lexicographically), `sorted=false` by first occurrence. The number of unique values is known
only from the data, so shapes are bounded intervals, as OpenVINO infers them. Equality is IEEE's:
every NaN is its own unique value (sorted after the numbers) and -0.0 equals 0.0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.indexing.common import one_int
from irlint.ops.movement.axes import normalize_axis, scalar_value
from irlint.ops.movement.dims import dims_product
from irlint.ops.registry import register
from irlint.types import DYNAMIC, ELEMENT_TYPES, Dim, ElementType, format_shape


@dataclass(frozen=True)
class UniqueAttrs:
    sorted: bool = True
    index_element_type: str = "i64"
    count_element_type: str = "i64"


def _types(attrs: UniqueAttrs) -> tuple[ElementType, ElementType]:
    for name in ("index_element_type", "count_element_type"):
        if getattr(attrs, name) not in ("i32", "i64"):
            raise OpError(f"Unique: {name} must be i32 or i64, got {getattr(attrs, name)!r}")
    return ELEMENT_TYPES[attrs.index_element_type], ELEMENT_TYPES[attrs.count_element_type]


def _at_most(d: Dim) -> Dim:
    """1..d: between one and `d` unique values (none only when `d` is 0)."""
    if d.hi is None:
        return DYNAMIC
    return Dim(min(1, d.hi), d.hi)


@register
class Unique(Op):
    types = ("Unique",)
    versions = ("opset10",)
    Attrs = UniqueAttrs
    arity = (1, 2)

    def infer(self, attrs: UniqueAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        it, ct = _types(attrs)
        data = inputs[0]
        if len(inputs) == 2:
            ax_in = inputs[1]
            sh = ax_in.shape
            if sh is not None and (len(sh) > 1 or (len(sh) == 1 and sh[0].value not in (1, None))):
                raise OpError(f"Unique: axis must be a scalar, got shape {format_shape(ax_in.shape)}")
            axis = scalar_value(ax_in)
        else:
            axis = None
        if data.shape is None:
            return [TensorInfo(data.etype, None), TensorInfo(it, (DYNAMIC,)), TensorInfo(it, (DYNAMIC,)),
                    TensorInfo(ct, (DYNAMIC,))]
        total = dims_product(data.shape)
        some = _at_most(total)
        if len(inputs) == 1:
            return [TensorInfo(data.etype, (some,)), TensorInfo(it, (some,)), TensorInfo(it, (total,)),
                    TensorInfo(ct, (some,))]
        if axis is None:
            return [TensorInfo(data.etype, tuple(DYNAMIC for _ in data.shape)), TensorInfo(it, (some,)),
                    TensorInfo(it, (DYNAMIC,)), TensorInfo(ct, (some,))]
        ax = normalize_axis("Unique", axis, len(data.shape))
        d = data.shape[ax]
        out0 = (*data.shape[:ax], _at_most(d), *data.shape[ax + 1:])
        return [TensorInfo(data.etype, out0), TensorInfo(it, (some,)), TensorInfo(it, (d,)), TensorInfo(ct, (some,))]

    def compute(self, attrs: UniqueAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        it, ct = _types(attrs)
        x = np.asarray(inputs[0])
        if len(inputs) == 2:
            axis = one_int("Unique", "axis", inputs[1])
            ax = normalize_axis("Unique", axis, x.ndim)
            moved = np.moveaxis(x, ax, 0)
        else:
            ax, moved = None, x.reshape(-1)
        rows = moved.reshape(moved.shape[0], int(np.prod(moved.shape[1:], dtype=np.int64)))
        if rows.shape[0] == 0:
            empty = np.zeros(0, np.int64)
            values, first, inverse, counts = rows, empty, empty, empty
        else:
            values, first, inverse, counts = np.unique(rows, axis=0, return_index=True, return_inverse=True,
                                                       return_counts=True)
        inverse = np.asarray(inverse).reshape(-1)
        if not attrs.sorted and len(first):
            order = np.argsort(first, kind="stable")
            rank = np.empty_like(order)
            rank[order] = np.arange(len(order))
            values, first, counts, inverse = values[order], first[order], counts[order], rank[inverse]
        uniq = values.reshape((values.shape[0], *moved.shape[1:]))
        if ax is not None:
            uniq = np.moveaxis(uniq, 0, ax)
        return [np.ascontiguousarray(uniq).astype(x.dtype), first.astype(it.dtype), inverse.astype(it.dtype),
                counts.astype(ct.dtype)]
