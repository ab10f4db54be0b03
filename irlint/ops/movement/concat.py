"""Concat-1: join tensors of equal rank along `axis` (negative counts from the end)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.axes import normalize_axis
from irlint.ops.movement.dims import merge
from irlint.ops.movement.folding import fold
from irlint.ops.registry import register
from irlint.types import Dim, format_shape


@dataclass(frozen=True)
class ConcatAttrs:
    axis: int


@register
class Concat(Op):
    types = ("Concat",)
    infer_reads_values = False
    versions = ("opset1",)
    Attrs = ConcatAttrs
    arity = (1, None)

    def infer(self, attrs: ConcatAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        etype = None
        for i, t in enumerate(inputs):
            if t.etype is not None and not t.etype.is_dynamic:
                if etype is not None and t.etype != etype:
                    raise OpError(f"Concat: input {i} has element type {t.etype}, input 0 has {etype}")
                etype = etype or t.etype
        ranked = [t.shape for t in inputs if t.shape is not None]
        if not ranked:
            return [TensorInfo(etype, None)]
        rank = len(ranked[0])
        if rank == 0:
            raise OpError("Concat: scalar inputs cannot be concatenated")
        axis = normalize_axis("Concat", attrs.axis, rank)
        out: list[Dim] = list(ranked[0])
        out[axis] = Dim(0, 0)
        for i, t in enumerate(inputs):
            if t.shape is None:
                out[axis] = Dim(out[axis].lo, None)
                continue
            if len(t.shape) != rank:
                raise OpError(
                    f"Concat: input {i} has rank {len(t.shape)} ({format_shape(t.shape)}), "
                    f"expected {rank} like {format_shape(ranked[0])}"
                )
            for k, d in enumerate(t.shape):
                if k == axis:
                    a = out[axis]
                    out[axis] = Dim(a.lo + d.lo, None if a.hi is None or d.hi is None else a.hi + d.hi)
                    continue
                m = merge(out[k], d)
                if m is None:
                    raise OpError(
                        f"Concat: input {i} {format_shape(t.shape)} does not match "
                        f"{format_shape(ranked[0])} on dim {k} (only axis {axis} may differ)"
                    )
                out[k] = m
        return fold(self, attrs, inputs, [TensorInfo(etype, tuple(out))])

    def compute(self, attrs: ConcatAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        arrays = [np.asarray(a) for a in inputs]
        if arrays[0].ndim == 0:
            raise OpError("Concat: scalar inputs cannot be concatenated")
        axis = normalize_axis("Concat", attrs.axis, arrays[0].ndim)
        try:
            return [np.concatenate(arrays, axis=axis)]
        except ValueError as e:
            raise OpError(f"Concat: {e}") from None

    def prepare(self, attrs: ConcatAttrs, consts: Sequence[np.ndarray | None]):  # type: ignore[no-untyped-def]
        """The axis normalised by `compute` once per rank; then `np.concatenate` alone (what `compute`
        calls; numpy refuses what does not fit, and `compute` explains it)."""
        by_rank: dict[int, int] = {}

        def fast(args: Sequence[np.ndarray]) -> list[np.ndarray]:
            ax = by_rank.get(args[0].ndim)
            if ax is None:
                out = self.compute(attrs, args)
                by_rank[args[0].ndim] = normalize_axis("Concat", attrs.axis, args[0].ndim)
                return out
            return [np.concatenate(args, ax)]

        return fast
