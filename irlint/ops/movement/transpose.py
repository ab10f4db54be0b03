"""Transpose-1: permute dims by the order input; an empty order reverses them."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.movement.axes import as_int_array, int_values, vector_length
from irlint.ops.movement.dims import dynamic_shape
from irlint.ops.movement.folding import fold
from irlint.ops.registry import register


def _order(vals: list[int], rank: int) -> list[int]:
    if not vals:
        return list(range(rank - 1, -1, -1))
    if sorted(vals) != list(range(rank)):
        raise OpError(f"Transpose: order {vals} is not a permutation of the {rank} input axes")
    return vals


@register
class Transpose(Op):
    types = ("Transpose",)
    versions = ("opset1",)
    arity = (2, 2)

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, order = inputs
        vals = int_values(order)
        if vals is None:
            n = vector_length("Transpose", "order", order)
            if order.shape is not None and len(order.shape) != 1:
                raise OpError(f"Transpose: order must be 1-D, got rank {len(order.shape)}")
            rank = data.rank if data.rank is not None else (n if n else None)
            if n and data.rank is not None and n != data.rank:
                raise OpError(f"Transpose: order has {n} elements but the input has rank {data.rank}")
            return [TensorInfo(data.etype, dynamic_shape(rank))]
        if data.shape is None:
            return [TensorInfo(data.etype, dynamic_shape(len(vals)) if vals else None)]
        perm = _order(vals, len(data.shape))
        return fold(self, attrs, inputs, [TensorInfo(data.etype, tuple(data.shape[i] for i in perm))])

    def compute(self, attrs: NoAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        perm = _order(as_int_array("Transpose", "order", inputs[1]), x.ndim)
        return [np.array(np.transpose(x, perm), order="C")]

    def prepare(self, attrs: NoAttrs, consts: Sequence[np.ndarray | None]):  # type: ignore[no-untyped-def]
        """A constant order: checked and normalised by `compute` once per input rank, then one
        C-ordered copy of the transposed view, as `compute` makes."""
        if consts[1] is None:
            return None
        by_rank: dict[int, tuple[int, ...]] = {}

        def fast(args: Sequence[np.ndarray]) -> list[np.ndarray]:
            x = args[0]
            perm = by_rank.get(x.ndim)
            if perm is None:
                out = self.compute(attrs, args)
                by_rank[x.ndim] = tuple(_order(as_int_array("Transpose", "order", args[1]), x.ndim))
                return out
            return [x.transpose(perm).copy()]

        return fast
