"""SegmentMax-16: the maximum of `data` rows grouped by sorted `segment_ids`.

Output row k is the element-wise maximum of the rows whose id is k; there are `num_segments` rows
(the optional third input) or max(id) + 1, and a row with no data is 0 (`fill_mode="ZERO"`) or the
type's lowest value (`"LOWEST"`). Ids must be non-decreasing and non-negative.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.axes import as_int_array, int_values, scalar_value
from irlint.ops.movement.dims import merge
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim


@dataclass(frozen=True)
class SegmentMaxAttrs:
    fill_mode: str


def _check_ids(ids: list[int]) -> None:
    if any(i < 0 for i in ids):
        raise OpError("SegmentMax: segment_ids must be non-negative")
    if any(b < a for a, b in pairwise(ids)):
        raise OpError("SegmentMax: segment_ids must be sorted in non-decreasing order")


@register
class SegmentMax(Op):
    types = ("SegmentMax",)
    versions = ("opset16",)
    Attrs = SegmentMaxAttrs
    arity = (2, 3)

    def infer(self, attrs: SegmentMaxAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, ids = inputs[0], inputs[1]
        if attrs.fill_mode.upper() not in ("ZERO", "LOWEST"):
            raise OpError(f"SegmentMax: fill_mode must be ZERO or LOWEST, got {attrs.fill_mode!r}")
        if ids.shape is not None and len(ids.shape) != 1:
            raise OpError(f"SegmentMax: segment_ids must be 1-D, got rank {len(ids.shape)}")
        if data.shape is not None and len(data.shape) == 0:
            raise OpError("SegmentMax: data must have rank >= 1")
        if data.shape is not None and ids.shape is not None and merge(data.shape[0], ids.shape[0]) is None:
            raise OpError(f"SegmentMax: {ids.shape[0]} segment ids for {data.shape[0]} data rows")
        vals = int_values(ids)
        if vals is not None:
            _check_ids(vals)
        if len(inputs) > 2:
            n = scalar_value(inputs[2])
            if n is not None and n < 0:
                raise OpError(f"SegmentMax: num_segments must be non-negative, got {n}")
            rows = DYNAMIC if n is None else Dim.of(n)
        else:
            rows = DYNAMIC if vals is None else Dim.of(max(vals) + 1 if vals else 0)
        return [TensorInfo(data.etype, None if data.shape is None else (rows, *data.shape[1:]))]

    def compute(self, attrs: SegmentMaxAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        ids = as_int_array("SegmentMax", "segment_ids", inputs[1])
        _check_ids(ids)
        if len(ids) != x.shape[0]:
            raise OpError(f"SegmentMax: {len(ids)} segment ids for {x.shape[0]} data rows")
        n = as_int_array("SegmentMax", "num_segments", inputs[2])[0] if len(inputs) > 2 else (
            max(ids) + 1 if ids else 0)
        if np.issubdtype(x.dtype, np.floating):
            lowest = np.finfo(x.dtype).min
        else:
            lowest = np.iinfo(x.dtype).min
        fill = lowest if attrs.fill_mode.upper() == "LOWEST" else 0
        out = np.full((n, *x.shape[1:]), fill, x.dtype)
        ids_arr = np.array(ids, np.int64)
        for k in np.unique(ids_arr):
            if k < n:
                out[k] = x[ids_arr == k].max(axis=0)
        return [out]
