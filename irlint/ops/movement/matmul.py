"""MatMul-1: batched matrix product with numpy batch broadcasting and optional transposes.

A 1-D operand is a vector: A becomes [1, K], B becomes [K, 1] (transpose flags ignored for them),
and the added dim is removed from the result, as the spec says.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.direct import Direct
from irlint.ops.lowp import narrow
from irlint.ops.movement.dims import broadcast_shapes, merge
from irlint.ops.movement.folding import fold
from irlint.ops.registry import register
from irlint.types import NARROW_FLOATS, Dim, Shape, format_shape, static_shape


@dataclass(frozen=True)
class MatMulAttrs:
    transpose_a: bool = False
    transpose_b: bool = False


def _out_shape(a: Shape, b: Shape, attrs: MatMulAttrs) -> Shape:
    if not a or not b:
        raise OpError("MatMul: scalar operands are not allowed")
    one = Dim(1, 1)
    ma = (one, a[0]) if len(a) == 1 else ((*a[:-2], a[-1], a[-2]) if attrs.transpose_a else a)
    mb = (b[0], one) if len(b) == 1 else ((*b[:-2], b[-1], b[-2]) if attrs.transpose_b else b)
    if merge(ma[-1], mb[-2]) is None:
        raise OpError(
            f"MatMul: inner dims differ: A {format_shape(a)} gives K={ma[-1]}, B {format_shape(b)} gives "
            f"K={mb[-2]} (transpose_a={attrs.transpose_a}, transpose_b={attrs.transpose_b})"
        )
    batch = broadcast_shapes("MatMul", ma[:-2], mb[:-2]) or ()
    out = batch + ((ma[-2],) if len(a) > 1 else ()) + ((mb[-1],) if len(b) > 1 else ())
    return tuple(out)


@register
class MatMul(Op):
    types = ("MatMul",)
    infer_reads_values = False
    versions = ("opset1",)
    Attrs = MatMulAttrs
    arity = (2, 2)

    def infer(self, attrs: MatMulAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        a, b = inputs
        if a.etype is not None and b.etype is not None and a.etype != b.etype:
            raise OpError(f"MatMul: element types differ ({a.etype} and {b.etype})")
        etype = a.etype or b.etype
        if a.shape is None or b.shape is None:
            return [TensorInfo(etype, None)]
        return fold(self, attrs, inputs, [TensorInfo(etype, _out_shape(a.shape, b.shape, attrs))])

    def compute(self, attrs: MatMulAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        a, b = np.asarray(inputs[0]), np.asarray(inputs[1])
        shape = _out_shape(static_shape(a.shape), static_shape(b.shape), attrs)
        if a.ndim > 1 and attrs.transpose_a:
            a = np.swapaxes(a, -1, -2)
        if b.ndim > 1 and attrs.transpose_b:
            b = np.swapaxes(b, -1, -2)
        out = product(a, b)
        return [np.array(np.asarray(out).reshape([d.lo for d in shape]), order="C")]

    def prepare(self, attrs: MatMulAttrs, consts: Sequence[np.ndarray | None]):  # type: ignore[no-untyped-def]
        """`compute` with its shape check done once per pair of input shapes; a constant 2-D B (the
        weights of a recurrent step) and a 2-D A of its float type go straight to `np.dot`."""
        shapes: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[int, ...]] = {}
        ta, tb = attrs.transpose_a, attrs.transpose_b
        const_b = consts[1] if len(consts) > 1 else None
        # A constant B's transposed view, made once (the same view `compute` makes per call).
        b_view = np.swapaxes(const_b, -1, -2) if const_b is not None and tb and const_b.ndim > 1 else const_b
        # The dtype an A must have for the direct product with a constant 2-D B: B's own when it is a
        # wide float (a narrow one accumulates in f32, see `product`), as numpy's own dtype object, which
        # A's dtype is tested against by identity (the cheap test; a Const read from the .bin has an
        # equal dtype object of its own).
        direct = WIDE_FLOATS.get(const_b.dtype) if const_b is not None and const_b.ndim == 2 else None

        def general(a: np.ndarray, b: np.ndarray) -> list[np.ndarray]:
            key = (a.shape, b.shape)
            shape = shapes.get(key)
            if shape is None:
                dims = _out_shape(static_shape(a.shape), static_shape(b.shape), attrs)
                shape = shapes[key] = tuple(d.lo for d in dims)
            if ta and a.ndim > 1:
                a = np.swapaxes(a, -1, -2)
            if b is const_b:
                b = b_view
            elif tb and b.ndim > 1:
                b = np.swapaxes(b, -1, -2)
            out = product(a, b)
            if type(out) is not np.ndarray:
                out = np.asarray(out)
            if out.shape != shape:
                out = out.reshape(shape)
            # A fresh C-ordered result is what `compute`'s copy makes; the product's own output usually is one.
            return [out if out.flags.c_contiguous and out.base is None else np.array(out, order="C")]

        if direct is None or ta:
            return lambda args: general(*args)

        def fast(args: Sequence[np.ndarray]) -> list[np.ndarray]:
            a, b = args
            if b is const_b and a.dtype is direct and a.ndim == 2:
                # np.dot of two matrices: a fresh C-ordered [M, N], what `product` and `compute` give;
                # mismatched inner dims raise, and `compute` explains them.
                return [np.dot(a, b_view)]
            return general(a, b)

        fast.direct = Direct(np.dot, 2, b_view, 1, 2, exact_rank=True, dtype=direct)  # type: ignore[attr-defined]
        return fast


# The wide float dtypes, each mapped to numpy's own object for it.
WIDE_FLOATS = {np.dtype(np.float32): np.dtype(np.float32), np.dtype(np.float64): np.dtype(np.float64)}


def product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A·B of operands already transposed as the attributes say, as both `compute` and the prepared
    kernel compute it (so both give the same bits): `np.dot` when neither has more than two dims (on
    small operands it costs a third of `np.matmul`'s per-call overhead; both call BLAS on floats),
    else `np.matmul`'s batch broadcasting. Half-precision floats accumulate in f32 like the plugins do
    and are rounded once."""
    if a.dtype in NARROW_FLOATS:
        return narrow(product(a.astype(np.float32), b.astype(np.float32)), a.dtype)
    if a.ndim <= 2 and b.ndim <= 2:
        return np.dot(a, b)
    return np.matmul(a, b)
