"""A prepared kernel's `Direct` (irlint.ops.direct) gives the kernel's own output, bit for bit, for
every input its test lets through, and its test refuses what the kernel treats otherwise: generated
loop bodies call `fn` inline on that promise (tests/interp/test_codegen.py runs them)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from irlint.ops import lookup
from irlint.ops.direct import UNARY_FLOATS, direct_of
from irlint.ops.math.elementwise import CLOSED_UFUNCS

RNG = np.random.default_rng(23)
DTYPES = [np.float32, np.float64, np.float16, ml_dtypes.bfloat16, np.int32, np.int64, np.uint8, np.bool_]
SHAPES = [(), (1,), (1, 8), (3, 1, 4)]


def data(shape, dtype) -> np.ndarray:
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return RNG.integers(0, 2, shape).astype(bool)
    if dtype.kind in "iu":
        return np.asarray(RNG.integers(0, 9, shape)).astype(dtype)
    return np.asarray(RNG.standard_normal(shape) * 3).astype(dtype)


def same_output(got, want: np.ndarray) -> None:
    assert type(got) is np.ndarray and got.dtype == want.dtype and got.shape == want.shape
    assert np.array_equal(got, want, equal_nan=True)


def passes_binary(direct, a: np.ndarray, b: np.ndarray) -> bool:
    """The test codegen writes for a Direct without a constant."""
    return a.__class__ is np.ndarray is b.__class__ and a.dtype is b.dtype and bool(a.ndim or b.ndim)


@pytest.mark.parametrize("name", ["Add", "Subtract", "Multiply"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_binary_direct_is_the_kernel(name: str, dtype, shape) -> None:
    op = lookup(name, "opset1")
    kernel = op.prepare(op.Attrs(), [None, None])
    direct = direct_of(kernel)
    assert direct is not None and direct.fn in CLOSED_UFUNCS and direct.const is None
    for b_shape in (shape, shape[-1:], ()):
        a, b = data(shape, dtype), data(b_shape, dtype)
        try:
            want = kernel([a, b])[0]
        except TypeError:  # (a boolean Subtract): the direct call raises the same
            with pytest.raises(TypeError):
                direct.fn(a, b)
            continue
        if passes_binary(direct, a, b):
            same_output(direct.fn(a, b), want)
        else:
            assert a.ndim == 0 and b.ndim == 0  # one dtype throughout: only two 0-d inputs are refused


@pytest.mark.parametrize("name", ["Add", "Subtract", "Multiply"])
@pytest.mark.parametrize("dtype", DTYPES[:7])
@pytest.mark.parametrize("const_shape", [(1,), (1, 1), (1, 1, 1)])
@pytest.mark.parametrize("at", [0, 1])
def test_scalar_operand_direct_is_the_kernel(name: str, dtype, const_shape, at: int) -> None:
    op = lookup(name, "opset1")
    c = data(const_shape, dtype)
    kernel = op.prepare(op.Attrs(), [c, None] if at == 0 else [None, c])
    direct = direct_of(kernel)
    assert direct is not None and direct.at == at and direct.rank == len(const_shape)
    assert direct.const is not None and direct.const.shape == ()
    for shape in SHAPES:
        for x_dtype in (dtype, np.float32):
            x = data(shape, x_dtype)
            args = [c, x] if at == 0 else [x, c]
            want = kernel(args)[0]
            passes = x.__class__ is np.ndarray and x.dtype is direct.const.dtype and x.ndim >= direct.rank
            if passes:
                got = direct.fn(direct.const, x) if at == 0 else direct.fn(x, direct.const)
                same_output(got, want)
            else:  # refused: a lower rank (the kernel broadcasts the constant's shape) or another dtype
                assert x.ndim < direct.rank or np.dtype(x_dtype) != np.dtype(dtype)


@pytest.mark.parametrize("name", ["Tanh", "Exp", "Log", "Sqrt", "Sigmoid"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32])
@pytest.mark.parametrize("shape", SHAPES)
def test_unary_direct_is_the_kernel(name: str, dtype, shape) -> None:
    op = lookup(name, "opset1")
    kernel = op.prepare(op.Attrs(), [None])
    direct = direct_of(kernel)
    assert direct is not None and direct.arity == 1
    x = np.abs(data(shape, dtype)) if name in ("Log", "Sqrt") else data(shape, dtype)
    with np.errstate(all="ignore"):
        want = kernel([x])[0]
        if x.ndim and x.dtype in UNARY_FLOATS:
            same_output(direct.fn(x), want)


def test_an_op_with_its_own_rules_has_no_direct() -> None:
    # comparisons (a boolean result), Divide and Power (integer rules), Maximum/Minimum (NaN rules)
    for name in ("Equal", "Greater", "Divide", "Power", "SquaredDifference", "Maximum", "Minimum"):
        op = lookup(name, "opset1")
        kernel = op.prepare(op.Attrs(), [None, None])
        assert direct_of(kernel) is None, name


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32])
@pytest.mark.parametrize("a_shape", [(1, 8), (3, 8), (8,), (2, 1, 8)])
@pytest.mark.parametrize("tb", [False, True])
def test_matmul_direct_is_the_kernel(dtype, a_shape, tb: bool) -> None:
    op = lookup("MatMul", "opset1")
    b = data((5, 8) if tb else (8, 5), dtype)
    kernel = op.prepare(op.Attrs(transpose_a=False, transpose_b=tb), [None, b])
    direct = direct_of(kernel)
    if np.dtype(dtype) not in UNARY_FLOATS:  # a narrow float or an integer B: no direct product
        assert direct is None
        return
    assert direct is not None and direct.exact_rank and direct.rank == 2 and direct.at == 1
    for x_dtype in (dtype, np.float32, np.float64):
        a = data(a_shape, x_dtype)
        want = kernel([a, b])[0]
        if a.dtype is direct.dtype and a.ndim == direct.rank:
            same_output(direct.fn(a, direct.const), want)
        else:
            assert a.ndim != 2 or a.dtype != np.dtype(dtype)
