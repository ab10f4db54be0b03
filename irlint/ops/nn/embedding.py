"""EmbeddingBagOffsetsSum-3, EmbeddingBagPackedSum-3, EmbeddingSegmentsSum-3, EmbeddingBagOffsets-15 and
EmbeddingBagPacked-15: sums (or means) of table rows per bag.

Every kernel maps each index to its bag and scatters the (weighted) rows with one `np.add.at`. An
empty bag takes the row `default_index` when that input is given and non-negative, else zeros.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.movement.axes import scalar_value
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim, Shape, format_shape


@dataclass(frozen=True)
class ReductionAttrs:
    reduction: str = "sum"


def _check(op: str, inputs: Sequence[TensorInfo], index_inputs: Sequence[int], weights: int | None) -> None:
    table = inputs[0]
    if table.shape is not None and len(table.shape) < 1:
        raise OpError(f"{op}: emb_table must have rank >= 1")
    kinds = {inputs[i].etype for i in index_inputs if i < len(inputs) and inputs[i].etype is not None}
    for k in kinds:
        if not k.is_integer:
            raise OpError(f"{op}: index inputs must be integers, got {k}")
    if weights is not None and len(inputs) > weights:
        w = inputs[weights]
        if table.etype is not None and w.etype is not None and w.etype != table.etype:
            raise OpError(f"{op}: per_sample_weights is {w.etype} but emb_table is {table.etype}")


def _rows(table: TensorInfo, bags: Dim) -> Shape | None:
    return None if table.shape is None else (bags, *table.shape[1:])


def bag_reduce(table: np.ndarray, indices: np.ndarray, bag_of: np.ndarray, bags: int, weights: np.ndarray | None,
               default: int | None, mean: bool, op: str) -> np.ndarray:
    """Sum (or mean) of `table[indices]` grouped by `bag_of` into `bags` rows; empty bags from `default`."""
    idx = indices.astype(np.int64).reshape(-1)
    if idx.size and (idx.min() < 0 or idx.max() >= table.shape[0]):
        raise OpError(f"{op}: an index is outside the table of {table.shape[0]} rows")
    acc = np.float64 if table.dtype.kind == "f" else np.int64
    rows = table[idx].astype(acc)
    if weights is not None:
        rows = rows * weights.reshape(-1).astype(acc).reshape((-1,) + (1,) * (table.ndim - 1))
    out = np.zeros((bags, *table.shape[1:]), acc)
    np.add.at(out, bag_of, rows)
    counts = np.bincount(bag_of, minlength=bags)
    if mean:
        nz = counts > 0
        out[nz] = out[nz] / counts[nz].reshape((-1,) + (1,) * (table.ndim - 1))
    if default is not None and default >= 0:
        if default >= table.shape[0]:
            raise OpError(f"{op}: default_index {default} is outside the table of {table.shape[0]} rows")
        out[counts == 0] = table[default]
    return out.astype(table.dtype)


def _mean(op: str, attrs: ReductionAttrs | NoAttrs, has_weights: bool) -> bool:
    reduction = getattr(attrs, "reduction", "sum").lower()
    if reduction not in ("sum", "mean"):
        raise OpError(f"{op}: reduction={reduction!r} is not sum or mean")
    if reduction == "mean" and has_weights:
        raise OpError(f"{op}: per_sample_weights are only allowed with reduction=sum")
    return reduction == "mean"


@register
class EmbeddingBagOffsetsSum(Op):
    """emb_table, indices [K], offsets [B], optional default_index, optional per_sample_weights [K]."""

    types = ("EmbeddingBagOffsetsSum",)
    versions = ("opset3",)
    Attrs: type = NoAttrs
    arity = (3, 5)
    infer_reads_values = False

    def infer(self, attrs: ReductionAttrs | NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = self.types[0]
        _check(op, inputs, (1, 2, 3), 4)
        _mean(op, attrs, len(inputs) > 4)
        offsets = inputs[2]
        if offsets.shape is not None and len(offsets.shape) != 1:
            raise OpError(f"{op}: offsets must be 1-D, got {format_shape(offsets.shape)}")
        bags = DYNAMIC if offsets.shape is None else offsets.shape[0]
        return [TensorInfo(inputs[0].etype, _rows(inputs[0], bags))]

    def compute(self, attrs: ReductionAttrs | NoAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        op = self.types[0]
        table, indices, offsets = (np.asarray(a) for a in inputs[:3])
        mean = _mean(op, attrs, len(inputs) > 4)
        offs = offsets.astype(np.int64).reshape(-1)
        if offs.size and (offs[0] < 0 or np.any(np.diff(offs) < 0) or offs[-1] > indices.size):
            raise OpError(f"{op}: offsets {offs.tolist()} must rise from 0 within the {indices.size} indices")
        bag_of = np.searchsorted(offs, np.arange(indices.size), side="right") - 1
        default = int(np.asarray(inputs[3]).reshape(-1)[0]) if len(inputs) > 3 else None
        weights = np.asarray(inputs[4]) if len(inputs) > 4 else None
        return [bag_reduce(table, indices, bag_of, offs.size, weights, default, mean, op)]


@register
class EmbeddingBagOffsets(EmbeddingBagOffsetsSum):
    types = ("EmbeddingBagOffsets",)
    versions = ("opset15",)
    Attrs = ReductionAttrs


@register
class EmbeddingBagPackedSum(Op):
    """emb_table, indices [B, L], optional per_sample_weights [B, L]."""

    types = ("EmbeddingBagPackedSum",)
    versions = ("opset3",)
    Attrs: type = NoAttrs
    arity = (2, 3)
    infer_reads_values = False

    def infer(self, attrs: ReductionAttrs | NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = self.types[0]
        _check(op, inputs, (1,), 2)
        _mean(op, attrs, len(inputs) > 2)
        indices = inputs[1]
        if indices.shape is not None and len(indices.shape) != 2:
            raise OpError(f"{op}: indices must be 2-D [bags, bag size], got {format_shape(indices.shape)}")
        bags = DYNAMIC if indices.shape is None else indices.shape[0]
        return [TensorInfo(inputs[0].etype, _rows(inputs[0], bags))]

    def compute(self, attrs: ReductionAttrs | NoAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        op = self.types[0]
        table, indices = np.asarray(inputs[0]), np.asarray(inputs[1])
        if indices.ndim != 2:
            raise OpError(f"{op}: indices must be 2-D [bags, bag size], got shape {list(indices.shape)}")
        mean = _mean(op, attrs, len(inputs) > 2)
        bag_of = np.repeat(np.arange(indices.shape[0]), indices.shape[1])
        weights = np.asarray(inputs[2]) if len(inputs) > 2 else None
        return [bag_reduce(table, indices, bag_of, indices.shape[0], weights, None, mean, op)]


@register
class EmbeddingBagPacked(EmbeddingBagPackedSum):
    types = ("EmbeddingBagPacked",)
    versions = ("opset15",)
    Attrs = ReductionAttrs


@register
class EmbeddingSegmentsSum(Op):
    """emb_table, indices [K], segment_ids [K], num_segments, optional default_index and per_sample_weights."""

    types = ("EmbeddingSegmentsSum",)
    versions = ("opset3",)
    arity = (4, 6)

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = self.types[0]
        _check(op, inputs, (1, 2, 3, 4), 5)
        n = scalar_value(inputs[3])
        if n is not None and n < 0:
            raise OpError(f"{op}: num_segments must be non-negative, got {n}")
        return [TensorInfo(inputs[0].etype, _rows(inputs[0], DYNAMIC if n is None else Dim.of(n)))]

    def compute(self, attrs: NoAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        op = self.types[0]
        table, indices, segments = (np.asarray(a) for a in inputs[:3])
        n = int(np.asarray(inputs[3]).reshape(-1)[0])
        seg = segments.astype(np.int64).reshape(-1)
        if seg.size != indices.size:
            raise OpError(f"{op}: {seg.size} segment ids for {indices.size} indices")
        if seg.size and (seg.min() < 0 or seg.max() >= n):
            raise OpError(f"{op}: segment ids must lie in [0, {n - 1}]")
        default = int(np.asarray(inputs[4]).reshape(-1)[0]) if len(inputs) > 4 else None
        weights = np.asarray(inputs[5]) if len(inputs) > 5 else None
        return [bag_reduce(table, indices, seg, n, weights, default, False, op)]
