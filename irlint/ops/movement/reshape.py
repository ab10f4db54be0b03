"""Reshape-1: a new shape for the same elements; ``-1`` is inferred, ``0`` copies (special_zero)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.fastpath import reshaper
from irlint.ops.movement.axes import as_int_array, int_values, vector_length
from irlint.ops.movement.dims import dims_product, dynamic_shape
from irlint.ops.movement.folding import fold
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim, Shape, format_shape


@dataclass(frozen=True)
class ReshapeAttrs:
    special_zero: bool


def _target_dims(pattern: list[int], in_shape: Shape | None, special_zero: bool) -> list[Dim | None]:
    """Output dims with the ``-1`` position left as None; validates the pattern."""
    if sum(1 for v in pattern if v == -1) > 1:
        raise OpError(f"Reshape: more than one -1 in the target shape {pattern}")
    out: list[Dim | None] = []
    for i, v in enumerate(pattern):
        if v == -1:
            out.append(None)
        elif v < -1:
            raise OpError(f"Reshape: invalid target dimension {v} in {pattern} (only -1 may be negative)")
        elif v == 0 and special_zero:
            if in_shape is None:
                out.append(DYNAMIC)
            elif i >= len(in_shape):
                raise OpError(
                    f"Reshape: target {pattern} copies input dim {i} (special_zero) but the input "
                    f"{format_shape(in_shape)} has rank {len(in_shape)}"
                )
            else:
                out.append(in_shape[i])
        else:
            out.append(Dim(v, v))
    return out


def _solve_minus_one(in_shape: Shape | None, dims: list[Dim | None], pattern: list[int], zero: bool) -> Dim:
    """The ``-1`` dim: input element count divided by the product of the other output dims.

    Dims copied by special_zero are the same on both sides, so they cancel out exactly (this keeps
    ``[?,3,4] -> [0,-1]`` at ``[?,12]``).
    """
    if in_shape is None:
        return DYNAMIC
    copied = {i for i, v in enumerate(pattern) if zero and v == 0}
    total = dims_product(d for i, d in enumerate(in_shape) if i not in copied)
    others = dims_product(d for i, d in enumerate(dims) if d is not None and i not in copied)
    if others.is_static and others.lo == 0:
        # Zero elements elsewhere: the -1 dim is unconstrained unless the input is empty too.
        if total.is_static and total.lo != 0:
            raise OpError(
                f"Reshape: cannot infer -1 in {pattern}: the other dims give 0 elements but the "
                f"input {format_shape(in_shape)} does not"
            )
        return Dim(1, 1) if total.hi == 0 else DYNAMIC
    if total.is_static and others.is_static:
        if total.lo % others.lo:
            raise OpError(
                f"Reshape: cannot reshape {format_shape(in_shape)} to {pattern}: the -1 dim would be "
                f"{total.lo}/{others.lo}, which is not divisible"
            )
        return Dim(total.lo // others.lo, total.lo // others.lo)
    lo = 0 if others.hi is None else -(-total.lo // others.hi)
    hi = None if total.hi is None or others.lo == 0 else total.hi // others.lo
    if hi is not None and hi < lo:
        raise OpError(f"Reshape: cannot reshape {format_shape(in_shape)} to {pattern}")
    return Dim(lo, hi)


def _pattern_rank_message(rank: int) -> str:
    """OpenVINO's Reshape-1 shape inference refuses a target shape of any rank but 1, a scalar too."""
    return f"Reshape: the target shape input must be 1-D, got rank {rank} (OpenVINO: 'Pattern shape must have rank 1')"


@register
class Reshape(Op):
    types = ("Reshape",)
    versions = ("opset1",)
    Attrs = ReshapeAttrs
    arity = (2, 2)

    def infer(self, attrs: ReshapeAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, target = inputs
        if target.shape is not None and len(target.shape) != 1:
            raise OpError(_pattern_rank_message(len(target.shape)))
        pattern = int_values(target)
        if pattern is None:
            n = vector_length("Reshape", "shape", target)
            return [TensorInfo(data.etype, dynamic_shape(n))]
        dims = _target_dims(pattern, data.shape, attrs.special_zero)
        known = [d for d in dims if d is not None]
        if None in dims:
            minus_one = _solve_minus_one(data.shape, dims, pattern, attrs.special_zero)
            shape = tuple(minus_one if d is None else d for d in dims)
        else:
            shape = tuple(known)
            # OpenVINO's core compares element counts only when every input dim is known: a
            # [0,?,?] input reshaped to [6] is read (its count is not taken as 0).
            if data.shape is not None and all(d.is_static for d in data.shape):
                src, dst = dims_product(data.shape), dims_product(shape)
                if dst.is_static and src.lo != dst.lo:
                    raise OpError(
                        f"Reshape: cannot reshape {format_shape(data.shape)} ({src.lo} elements) to "
                        f"{format_shape(shape)} ({dst.lo} elements)"
                    )
        return fold(self, attrs, inputs, [TensorInfo(data.etype, shape)])

    def compute(self, attrs: ReshapeAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        if np.ndim(inputs[1]) != 1:
            raise OpError(_pattern_rank_message(np.ndim(inputs[1])))
        pattern = as_int_array("Reshape", "shape", inputs[1])
        in_shape = tuple(Dim(d, d) for d in x.shape)
        dims = _target_dims(pattern, in_shape, attrs.special_zero)
        known = [d for d in dims if d is not None]
        if None in dims:
            m = _solve_minus_one(in_shape, dims, pattern, attrs.special_zero)
            out = [m.lo if d is None else d.lo for d in dims]
        else:
            out = [d.lo for d in known]
        if int(np.prod(out, dtype=np.int64)) != x.size:
            raise OpError(
                f"Reshape: cannot reshape {list(x.shape)} ({x.size} elements) to {out} "
                f"({int(np.prod(out, dtype=np.int64))} elements)"
            )
        return [x.reshape(out)]

    def prepare(self, attrs: ReshapeAttrs, consts: Sequence[np.ndarray | None]):  # type: ignore[no-untyped-def]
        """A constant target shape: the output shape computed by `compute` once per input shape."""
        return None if consts[1] is None else reshaper(self, attrs, consts)
