"""SearchSorted-15: for each value, the index where it would be inserted into a sorted sequence.

`sorted_sequence` is either 1-D (shared by all values) or has the values' leading dims with its
own last dim; the output has the values' shape. `right_mode=false` gives the first index i with
value <= sorted[i] (numpy's side="left"), `true` the first with value < sorted[i] (side="right").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.math.elementwise import same_etype
from irlint.ops.movement.dims import merge
from irlint.ops.registry import register
from irlint.types import element_type


@dataclass(frozen=True)
class SearchSortedAttrs:
    right_mode: bool = False
    output_type: str = "i64"


def _out_type(text: str):
    et = element_type(text)
    if et is None or et.name not in ("i32", "i64"):
        raise OpError(f"SearchSorted: output_type must be i32 or i64, got {text!r}")
    return et


@register
class SearchSorted(Op):
    types = ("SearchSorted",)
    versions = ("opset15",)
    Attrs = SearchSortedAttrs
    arity = (2, 2)
    infer_reads_values = False

    def infer(self, attrs: SearchSortedAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        seq, values = inputs
        et = _out_type(attrs.output_type)
        same_etype("SearchSorted", inputs)
        if seq.shape is not None and len(seq.shape) == 0:
            raise OpError("SearchSorted: sorted_sequence must have rank >= 1")
        if seq.shape is not None and values.shape is not None and len(seq.shape) > 1:
            if len(seq.shape) != len(values.shape):
                raise OpError(f"SearchSorted: a {len(seq.shape)}-D sorted_sequence needs values of the same rank, "
                              f"got rank {len(values.shape)}")
            dims = list(values.shape)
            for i, (a, b) in enumerate(zip(seq.shape[:-1], values.shape[:-1], strict=False)):
                m = merge(a, b)
                if m is None:
                    raise OpError(f"SearchSorted: leading dim {i} differs ({a} vs {b})")
                dims[i] = m
            return [TensorInfo(et, tuple(dims))]
        return [TensorInfo(et, values.shape)]

    def compute(self, attrs: SearchSortedAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        seq, values = np.asarray(inputs[0]), np.asarray(inputs[1])
        et = _out_type(attrs.output_type)
        side = "right" if attrs.right_mode else "left"
        if seq.ndim == 1:
            out = np.searchsorted(seq, values, side=side)
        else:
            if seq.shape[:-1] != values.shape[:-1]:
                raise OpError(f"SearchSorted: leading dims differ ({seq.shape} vs {values.shape})")
            rows_s = seq.reshape(-1, seq.shape[-1])
            rows_v = values.reshape(-1, values.shape[-1])
            out = np.stack([np.searchsorted(s, v, side=side) for s, v in zip(rows_s, rows_v, strict=False)]
                           ) if len(rows_s) else np.zeros(rows_v.shape, np.int64)
            out = out.reshape(values.shape)
        return [out.astype(et.dtype)]
