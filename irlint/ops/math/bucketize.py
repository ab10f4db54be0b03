"""Bucketize-3: the index of the bucket each element falls in, given sorted bucket boundaries.

With ``with_right_bound=true`` bucket i holds ``buckets[i-1] < x <= buckets[i]``, otherwise
``buckets[i-1] <= x < buckets[i]``; values past the last boundary get ``len(buckets)``. NaN, which
compares false with everything, lands where OpenVINO's binary search leaves it: bucket 0 with the
right bound, ``len(buckets)`` without.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.registry import register
from irlint.types import ELEMENT_TYPES, ElementType, format_shape


@dataclass(frozen=True)
class BucketizeAttrs:
    output_type: str = "i64"
    with_right_bound: bool = True


def _etype(attrs: BucketizeAttrs) -> ElementType:
    if attrs.output_type not in ("i32", "i64"):
        raise OpError(f"Bucketize: output_type must be i32 or i64, got {attrs.output_type!r}")
    return ELEMENT_TYPES[attrs.output_type]


@register
class Bucketize(Op):
    types = ("Bucketize",)
    versions = ("opset3",)
    Attrs = BucketizeAttrs
    arity = (2, 2)
    infer_reads_values = False

    def infer(self, attrs: BucketizeAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        buckets = inputs[1]
        if buckets.shape is not None and len(buckets.shape) != 1:
            raise OpError(f"Bucketize: buckets must be 1-D, got {format_shape(buckets.shape)}")
        return [TensorInfo(_etype(attrs), inputs[0].shape)]

    def compute(self, attrs: BucketizeAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x, buckets = np.asarray(inputs[0]), np.asarray(inputs[1])
        if buckets.ndim != 1:
            raise OpError(f"Bucketize: buckets must be 1-D, got shape {list(buckets.shape)}")
        side = "left" if attrs.with_right_bound else "right"
        common = np.result_type(x.dtype, buckets.dtype)
        out = np.searchsorted(buckets.astype(common), x.astype(common), side=side)
        if np.issubdtype(common, np.floating):
            out = np.where(np.isnan(x), 0 if attrs.with_right_bound else buckets.size, out)
        return [out.astype(_etype(attrs).dtype)]
