"""The prepared kernels' special cases against the checked `compute`, bit for bit: MatMul's direct
product with a constant 2-D B and its general path (N-D, 1-D operands, transposes, f16/bf16/int,
A of another type than B), the hot unaries' in-place f32/f64 formula against the plain formula,
the split kernels' views and copies (C-contiguous or not, a leading dim above 1), inputs whose dtype
equals f32 without being numpy's f32 object (byte-swapped), and the recurrent cells' joint product
[x, h]·[Wᵀ; Rᵀ] against the two-product step that hoisted projections take."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from irlint.ops import lookup
from irlint.ops.math.elementwise import UNARY, float_result_to_int

RNG = np.random.default_rng(16)
BF16 = np.dtype(ml_dtypes.bfloat16)


def same_bits(got, want) -> None:
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert type(g) is np.ndarray, type(g)
        assert g.dtype == w.dtype and g.shape == w.shape, f"{g.dtype}{g.shape} vs {w.dtype}{w.shape}"
        assert np.array_equal(g.astype(np.float64), np.asarray(w).astype(np.float64), equal_nan=True)
        assert g.flags.c_contiguous


def data(shape, dtype) -> np.ndarray:
    if np.dtype(dtype).kind in "iu":
        return np.asarray(RNG.integers(-5, 6, shape)).astype(dtype)
    return np.asarray(RNG.standard_normal(shape) * 2).astype(dtype)


# ----------------------------------------------------------------------------------------- MatMul

MATMUL_CASES = [
    ([1, 8], [64, 8], False, True),  # a recurrent step's x·Wᵀ: the direct product
    ([3, 8], [8, 5], False, False),
    ([8, 3], [8, 5], True, False),  # transpose_a: the general path
    ([8, 3], [5, 8], True, True),
    ([8], [8, 5], False, False),  # 1-D A
    ([8], [5, 8], True, True),  # transpose flags of a 1-D operand are ignored
    ([3, 8], [8], False, True),  # 1-D B
    ([8], [8], False, False),  # a 0-d result
    ([2, 3, 8], [8, 5], False, False),  # N-D: matmul's batch broadcasting
    ([2, 3, 8], [4, 1, 5, 8], False, True),
    ([1, 0], [0, 4], False, False),  # empty inner dim: zeros
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, BF16, np.int32])
@pytest.mark.parametrize(("a_shape", "b_shape", "ta", "tb"), MATMUL_CASES)
@pytest.mark.parametrize("const_b", [True, False])
def test_matmul_prepared_gives_compute_bits(dtype, a_shape, b_shape, ta, tb, const_b) -> None:
    op = lookup("MatMul", "opset1")
    attrs = op.Attrs(transpose_a=ta, transpose_b=tb)
    a, b = data(a_shape, dtype), data(b_shape, dtype)
    kernel = op.prepare(attrs, [None, b if const_b else None])
    want = op.compute(attrs, [a, b])
    for _ in range(2):  # the second call reuses what the first one cached
        same_bits(kernel([a, b]), want)
    # A non-contiguous A (a transposed view) reads the same values.
    at = np.ascontiguousarray(np.swapaxes(a, -1, -2)).swapaxes(-1, -2) if a.ndim > 1 else a
    same_bits(kernel([at, b]), op.compute(attrs, [at, b]))


def test_matmul_direct_product_falls_back_for_another_a() -> None:
    """A constant f32 B with an A of another type, or of another rank, or another B than the
    constant: the general path, as `compute` computes it."""
    op = lookup("MatMul", "opset1")
    attrs = op.Attrs(transpose_b=True)
    w = data([6, 4], np.float32)
    kernel = op.prepare(attrs, [None, w])
    for a, b in [(data([2, 4], np.float64), w), (data([3, 2, 4], np.float32), w), (data([4], np.float32), w),
                 (data([2, 4], np.float32), data([6, 4], np.float32)), (data([2, 4], np.float16), w)]:
        same_bits(kernel([a, b]), op.compute(attrs, [a, b]))
    # A Const read from the .bin has a dtype object of its own, equal to numpy's f32: the direct product.
    w = np.frombuffer(w.tobytes(), np.dtype(np.float32).newbyteorder("<")).reshape(6, 4)
    assert w.dtype is not np.dtype(np.float32)
    kernel = op.prepare(attrs, [None, w])
    a = data([2, 4], np.float32)
    same_bits(kernel([a, w]), op.compute(attrs, [a, w]))


def test_matmul_direct_product_mismatch_raises() -> None:
    """The direct product checks nothing itself: numpy refuses the inner dims (and the interpreter
    asks `compute` for the message)."""
    op = lookup("MatMul", "opset1")
    w = data([6, 4], np.float32)
    kernel = op.prepare(op.Attrs(transpose_b=True), [None, w])
    with pytest.raises(ValueError):
        kernel([data([2, 5], np.float32), w])


# ------------------------------------------------------------------------------------- unaries

NATIVE = [name for name in ("Sigmoid", "Tanh", "Exp", "Log", "Sqrt")]
PLAIN = {"Sigmoid": lambda x: (1.0 / (1.0 + np.exp(-x.astype(np.float64)))).astype(x.dtype),  # small: as Tanh
         "Tanh": lambda x: np.tanh(x, dtype=np.float64).astype(x.dtype),  # small: rounded once, as the CPU plugin
         "Exp": np.exp, "Log": np.log,
         "Sqrt": np.sqrt}


@pytest.mark.parametrize("name", NATIVE)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_hot_unaries_compute_the_plain_formula_in_the_element_type(name, dtype) -> None:
    """The in-place f32/f64 path (positional `out`, a 0-d one) gives the bits of the formula written
    plainly in the input's type, for every rank >= 1 and a non-contiguous input."""
    op = lookup(name, "opset1")
    kernel = op.prepare(op.Attrs(), [None])
    x = np.concatenate([data([40], dtype), np.array([-1e4, -88, -0.0, 0.0, 1e-8, 88, 1e4, np.inf, -np.inf, np.nan],
                                                     dtype)])
    with np.errstate(all="ignore"):
        for arr in (x, x.reshape(5, 10), x.reshape(5, 10)[:, ::3], x.reshape(1, 2, 25)):
            got = kernel([arr])[0]
            assert got.dtype == np.dtype(dtype) and got.shape == arr.shape
            assert np.array_equal(got, PLAIN[name](arr), equal_nan=True), name
            same_bits([got], op.compute(op.Attrs(), [arr]))


@pytest.mark.parametrize("name", NATIVE)
@pytest.mark.parametrize("dtype", [np.float16, BF16, np.int32, np.uint8])
def test_hot_unaries_of_other_types_compute_in_f64(name, dtype) -> None:
    """Narrow floats and integers: the formula in float64, rounded once to the input's type (integers
    as `float_result_to_int` rounds them, which tests/ops/test_math_ops.py holds against OpenVINO)."""
    op = lookup(name, "opset1")
    x = np.abs(data([3, 7], dtype)) if np.dtype(dtype).kind == "u" else data([3, 7], dtype)
    with np.errstate(all="ignore"):
        got = op.prepare(op.Attrs(), [None])([x])[0]
        y = PLAIN[name](x.astype(np.float64))
        want = float_result_to_int(y, np.dtype(dtype)) if np.dtype(dtype).kind in "iu" else y.astype(dtype)
    assert got.dtype == want.dtype
    assert np.array_equal(got.astype(np.float64), want.astype(np.float64), equal_nan=True)


@pytest.mark.parametrize("name", ["Sigmoid", "Tanh", "Add", "Multiply"])
def test_byte_swapped_f32_takes_the_exact_path(name) -> None:
    """An input whose dtype is f32 in the other byte order is not numpy's f32 object: the kernels'
    identity tests fail and the exact (equality) path gives `compute`'s bits and dtype."""
    op = lookup(name, "opset1")
    x = data([2, 5], np.float32).astype(">f4")
    args = [x] if name in UNARY else [x, data([2, 5], np.float32).astype(">f4")]
    kernel = op.prepare(op.Attrs(), [None] * len(args))
    with np.errstate(all="ignore"):
        same_bits(kernel(args), op.compute(op.Attrs(), args))


# ---------------------------------------------------------------------------------------- splits

SPLITS = [
    ("VariadicSplit", [1, 64], 1, [16, 16, 16, 16]),  # a recurrent step's gates: views of x
    ("VariadicSplit", [1, 10, 3], 1, [2, -1, 5]),
    ("VariadicSplit", [4, 10], -1, [3, 7]),  # a leading dim above 1: C-ordered copies
    ("VariadicSplit", [10], 0, [0, 4, 6]),
    ("Split", [1, 1, 12], 2, 3),
    ("Split", [6, 4], 0, 2),  # whole rows: contiguous blocks even with a leading dim
    ("Split", [2, 6, 2], 1, 3),
]


@pytest.mark.parametrize(("name", "shape", "axis", "how"), SPLITS)
def test_split_kernels_give_compute_bits(name, shape, axis, how) -> None:
    op = lookup(name, "opset1")
    if name == "Split":
        attrs, consts = op.Attrs(num_splits=how), [None, np.array(axis, np.int64)]
    else:
        attrs, consts = op.Attrs(), [None, np.array(axis, np.int64), np.array(how, np.int64)]
    kernel = op.prepare(attrs, consts)
    x = data(shape, np.float32)
    # C-contiguous, then a non-contiguous x of the same shape (a transposed copy read back transposed).
    flipped = np.ascontiguousarray(x.T).T
    for arr in (x, x, flipped, x):
        args = [arr, *consts[1:]]
        same_bits(kernel(args), op.compute(attrs, args))


# ----------------------------------------------------------------------------------------- cells


def _cell(name: str, hid: int, inp: int, dtype):
    op = lookup(name, {"LSTMCell": "opset4", "GRUCell": "opset3", "RNNCell": "opset1"}[name])
    gates = {"LSTMCell": 4, "GRUCell": 3, "RNNCell": 1}[name]
    weights = [data([gates * hid, inp], dtype), data([gates * hid, hid], dtype), data([gates * hid], dtype)]
    states = 2 if name == "LSTMCell" else 1
    return op, op.Attrs(hidden_size=hid), states, weights


@pytest.mark.parametrize("name", ["LSTMCell", "GRUCell", "RNNCell"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_cell_prepared_gives_compute_bits(name, dtype) -> None:
    op, attrs, states, weights = _cell(name, 5, 3, dtype)
    args = [data([2, 3], dtype), *(data([2, 5], dtype) * 0.5 for _ in range(states)), *weights]
    kernel = op.prepare(attrs, [None] * (1 + states) + weights)
    want = op.compute(attrs, args)
    assert all(w.dtype == np.dtype(dtype) for w in want)
    for _ in range(2):
        same_bits(kernel(args), want)


@pytest.mark.parametrize("name", ["LSTMCell", "RNNCell"])
def test_cell_joint_product_agrees_with_the_two_products(name) -> None:
    """An ordinary step sums x·Wᵀ + h·Rᵀ in one product; hoisted projections (and the Sequence ops)
    add h·Rᵀ to a precomputed x·Wᵀ: the same values up to the order of the sums."""
    op, attrs, states, weights = _cell(name, 16, 8, np.float32)
    kernel = op.prepare(attrs, [None] * (1 + states) + weights)
    args = [data([3, 8], np.float32), *(data([3, 16], np.float32) * 0.5 for _ in range(states)), *weights]
    joint = kernel(args)
    split = kernel.step(kernel.project(args[0]), args)
    for j, s in zip(joint, split):
        np.testing.assert_allclose(j, s, rtol=1e-5, atol=1e-6)
    assert kernel.wt.flags.c_contiguous and kernel.rt.flags.c_contiguous
    assert np.shares_memory(kernel.wt, kernel.wrt) and np.shares_memory(kernel.rt, kernel.wrt)


# ------------------------------------------------------------- constant operands, reductions

SCALAR_CASES = [
    ([2, 3], [1, 1], 1),  # a scale [1, 1] times a matrix: given as a 0-d operand
    ([2, 3], [1, 1], 0),
    ([4], [1], 1),
    ([4], [1, 1], 1),  # the constant has the higher rank: broadcast as it is ([1, 4] out)
    ([], [1], 0),  # a 0-d variable and a [1] constant: [1] out
    ([2, 1, 3], [1, 1], 0),
    ([2, 3], [], 1),  # a 0-d constant: the kernel itself
]


@pytest.mark.parametrize("name", ["Add", "Subtract", "Multiply", "Divide", "Power", "Maximum", "Less", "Equal"])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float16])
@pytest.mark.parametrize(("var_shape", "const_shape", "at"), SCALAR_CASES)
def test_binary_constant_of_one_element(name, dtype, var_shape, const_shape, at) -> None:
    op = lookup(name, "opset1")
    attrs = op.Attrs()
    v = data(var_shape, dtype)
    c = (np.abs(data(const_shape, dtype)) + 1).astype(dtype)  # no division by zero
    # A Const read from the .bin: a dtype object of its own.
    c = np.frombuffer(c.tobytes(), c.dtype.newbyteorder("<")).reshape(const_shape)
    consts = [None, None]
    consts[at] = c
    args = [c, v] if at == 0 else [v, c]
    kernel = op.prepare(attrs, consts)
    with np.errstate(all="ignore"):
        same_bits(kernel(args), op.compute(attrs, args))


@pytest.mark.parametrize("name", ["ReduceSum", "ReduceProd", "ReduceMax", "ReduceMean"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, BF16, np.int8, np.int32, np.uint8, np.bool_])
@pytest.mark.parametrize(("shape", "axes", "keep"), [([4], [0], False), ([2, 3, 4], [0, -1], True),
                                                    ([2, 3], [], False), ([3, 0], [1], False)])
def test_reduce_prepared_gives_compute_bits(name, dtype, shape, axes, keep) -> None:
    """The direct ufunc reduce of ReduceSum/ReduceProd (wide floats, integers, bool: the upcast
    np.sum makes, then back to the input's type) and the wrapped functions of the others."""
    if dtype is np.bool_ and name not in ("ReduceSum", "ReduceProd"):
        pytest.skip("ReduceMax/ReduceMean take numeric types only")
    op = lookup(name, "opset1")
    attrs = op.Attrs(keep_dims=keep)
    ax = np.array(axes, np.int64)
    x = data(shape, np.float32).astype(dtype) if dtype is not np.bool_ else data(shape, np.int32) > 0
    if np.dtype(dtype).kind in "iu":
        x = data(shape, np.int64).astype(dtype) * 50  # int8 sums and products wrap
    kernel = op.prepare(attrs, [None, ax])
    with np.errstate(all="ignore"):
        want = op.compute(attrs, [x, ax])
        for _ in range(2):
            same_bits(kernel([x, ax]), want)


# ------------------------------------------------------------- Concat, Transpose, Convert, Gather


@pytest.mark.parametrize(("shapes", "axis"), [([[1, 8], [1, 16]], 1), ([[2, 3], [4, 3], [1, 3]], 0),
                                              ([[2, 1, 3], [2, 2, 3]], -2), ([[5]], 0)])
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_])
def test_concat_prepared_gives_compute_bits(shapes, axis, dtype) -> None:
    op = lookup("Concat", "opset1")
    attrs = op.Attrs(axis=axis)
    kernel = op.prepare(attrs, [None] * len(shapes))
    args = [data(s, np.int64).astype(dtype) for s in shapes]
    for _ in range(2):
        same_bits(kernel(args), op.compute(attrs, args))
    with pytest.raises(ValueError):  # numpy refuses a misfit; the interpreter asks `compute` why
        kernel([args[0], data([7, 7, 7], dtype)])


@pytest.mark.parametrize(("shape", "order"), [([2, 3], [1, 0]), ([2, 3, 4], [2, 0, 1]), ([2, 3, 4], []), ([5], [0]),
                                              ([], [])])
def test_transpose_prepared_gives_compute_bits(shape, order) -> None:
    op = lookup("Transpose", "opset1")
    o = np.array(order, np.int64)
    kernel = op.prepare(op.Attrs(), [None, o])
    x = data(shape, np.float32)
    for arr in (x, x, np.ascontiguousarray(x.T).T):
        same_bits(kernel([arr, o]), op.compute(op.Attrs(), [arr, o]))


CONVERT_VALUES = np.array([-3.7, -1.0, -0.0, 0.0, 0.5, 2.5, 1e10, -1e10, np.inf, -np.inf, np.nan, 255.9, 300.2])


@pytest.mark.parametrize("target", ["f32", "f64", "f16", "i32", "i64", "u8", "i8", "boolean", "bf16"])
@pytest.mark.parametrize("source", [np.float32, np.float64, np.float16, BF16, np.int32, np.int64, np.uint8, np.bool_])
def test_convert_prepared_gives_compute_bits(source, target) -> None:
    op = lookup("Convert", "opset1")
    attrs = op.Attrs(destination_type=target)
    kernel = op.prepare(attrs, [None])
    with np.errstate(all="ignore"):
        x = CONVERT_VALUES.astype(source) if np.dtype(source).kind in "fV" else (
            (CONVERT_VALUES[np.isfinite(CONVERT_VALUES)] % 200).astype(source))
        for arr in (x, x.reshape(1, -1)[:, ::2], np.asarray(x[1])):
            want = op.compute(attrs, [arr])
            if kernel is None:
                assert target == "bf16"
                continue
            same_bits(kernel([arr]), [np.asarray(w) for w in want])


@pytest.mark.parametrize("version", ["opset1", "opset7", "opset8"])
@pytest.mark.parametrize(("shape", "indices", "axis"), [
    ([4, 3], [2, 0, 3], 0), ([4, 3], [[1, 2], [0, 0]], 1), ([4, 3], [-1, 1], 0), ([4, 3], [1, 4], 0),
    ([4, 3], 2, -1), ([5], -2, 0), ([5], 7, 0), ([2, 0], 0, 1), ([4, 3], [], 0),
])
@pytest.mark.parametrize("const", [True, False])
def test_gather_prepared_gives_compute_bits(version, shape, indices, axis, const) -> None:
    """Constant indices (checked once per data shape), a scalar index (checked per call), negative
    indices (resolved in Gather-8, zeros in Gather-1/7), out-of-range indices (zeros): `compute`'s bits."""
    op = lookup("Gather", version)
    attrs = op.Attrs() if version == "opset1" else op.Attrs(batch_dims=0)
    idx = np.array(indices, np.int64 if const else np.int32)
    ax = np.array(axis, np.int64)
    kernel = op.prepare(attrs, [None, idx if const else None, ax])
    x = data(shape, np.float32)
    for arr in (x, x, np.ascontiguousarray(x.T).T):
        same_bits(kernel([arr, idx, ax]), op.compute(attrs, [arr, idx, ax]))
    if const:  # another index array than the constant one: compute
        other = np.zeros_like(idx)
        same_bits(kernel([x, other, ax]), op.compute(attrs, [x, other, ax]))


# ------------------------------------------------------------------ Slice, StridedSlice, Select


@pytest.mark.parametrize(("shape", "start", "stop", "step", "axes"), [
    ([1, 16], [2], [6], [1], [1]), ([4, 6], [3, 0], [0, 6], [-1, 2], None), ([5], [-2], [100], [1], None),
    ([2, 3, 4], [1], [-100], [-1], [-1]), ([3, 4], [5], [6], [1], [0]),
])
def test_slice_prepared_gives_compute_bits(shape, start, stop, step, axes) -> None:
    op = lookup("Slice", "opset8")
    vecs = [np.array(v, np.int64) for v in (start, stop, step)] + ([np.array(axes, np.int64)] if axes else [])
    kernel = op.prepare(op.Attrs(), [None, *vecs])
    x = data(shape, np.float32)
    for arr in (x, x, np.ascontiguousarray(x.T).T):
        same_bits(kernel([arr, *vecs]), op.compute(op.Attrs(), [arr, *vecs]))


@pytest.mark.parametrize(("shape", "begin", "end", "strides", "masks"), [
    ([1, 16], [0, 2], [1, 6], [1, 1], {}),
    ([4, 6], [0, 5], [0, 0], [1, -2], {"begin_mask": (1, 0), "end_mask": (1, 1)}),
    ([4, 6], [1, 0], [2, 0], [1, 1], {"shrink_axis_mask": (1, 0), "end_mask": (0, 1)}),  # a row
    ([4, 6], [1, 2], [2, 3], [1, 1], {"shrink_axis_mask": (1, 1)}),  # one element: 0-d
    ([2, 3, 4], [0, 1], [0, 3], [1, 1], {"new_axis_mask": (1, 0)}),
    ([2, 3, 4], [0, 1], [0, 2], [1, 1], {"ellipsis_mask": (1, 0)}),
])
def test_strided_slice_prepared_gives_compute_bits(shape, begin, end, strides, masks) -> None:
    op = lookup("StridedSlice", "opset1")
    attrs = op.Attrs(**{"begin_mask": (0,) * len(begin), "end_mask": (0,) * len(begin), **masks})
    vecs = [np.array(v, np.int64) for v in (begin, end, strides)]
    kernel = op.prepare(attrs, [None, *vecs])
    x = data(shape, np.float32)
    for arr in (x, x, np.ascontiguousarray(x.T).T):
        same_bits(kernel([arr, *vecs]), op.compute(attrs, [arr, *vecs]))


def test_strided_slice_prepared_raises_what_compute_raises() -> None:
    from irlint.ops import OpError

    op = lookup("StridedSlice", "opset1")
    attrs = op.Attrs(begin_mask=(0,), end_mask=(0,), shrink_axis_mask=(1,))
    vecs = [np.array(v, np.int64) for v in ([7], [8], [1])]
    kernel = op.prepare(attrs, [None, *vecs])
    with pytest.raises(OpError, match="out of range"):
        kernel([data([3], np.float32), *vecs])


@pytest.mark.parametrize(("c_shape", "t_shape", "e_shape"), [([1, 16], [1, 16], [1, 16]), ([1, 16], [], [1]),
                                                             ([], [2, 3], [2, 3]), ([2, 1], [1, 3], [2, 3])])
@pytest.mark.parametrize("cond_dtype", [np.bool_, np.float32])
@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_select_prepared_gives_compute_bits(c_shape, t_shape, e_shape, cond_dtype, dtype) -> None:
    op = lookup("Select", "opset1")
    attrs = op.Attrs()
    cond = (data(c_shape, np.float32) > 0).astype(cond_dtype)
    args = [cond, data(t_shape, dtype), data(e_shape, dtype)]
    kernel = op.prepare(attrs, [None, None, None])
    same_bits(kernel(args), op.compute(attrs, args))
    assert op.prepare(op.Attrs(auto_broadcast="none"), [None, None, None]) is None


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, BF16, np.int32, np.uint8])
@pytest.mark.parametrize(("lo", "hi"), [(-1.0, 1.0), (0.5, 0.5), (-2.5, 300.7)])
def test_clamp_prepared_gives_compute_bits(dtype, lo, hi) -> None:
    op = lookup("Clamp", "opset1")
    attrs = op.Attrs(min=lo, max=hi)
    kernel = op.prepare(attrs, [None])
    with np.errstate(all="ignore"):
        x = CONVERT_VALUES.astype(dtype) if np.dtype(dtype).kind in "fV" else (
            CONVERT_VALUES[np.isfinite(CONVERT_VALUES)] % 200).astype(dtype)
        for arr in (x, x.reshape(1, -1)[:, ::2], np.asarray(x[1])):
            same_bits(kernel([arr]), op.compute(attrs, [arr]))


# ---------------------------------------------------------------------------- Broadcast, Softmax


@pytest.mark.parametrize(("version", "mode", "shape", "target", "mapping"), [
    ("opset3", "numpy", [1, 16], [4, 16], None), ("opset3", "numpy", [3, 1], [2, 3, 5], None),
    ("opset3", "bidirectional", [4, 1], [1, 6], None), ("opset3", "bidirectional", [2, 3], [1], None),
    ("opset3", "explicit", [3], [2, 3, 4], [1]), ("opset1", "none", [2, 4], [2, 3, 4], [0, 2]),
    ("opset1", "numpy", [], [2, 2], None),
])
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_])
def test_broadcast_prepared_gives_compute_bits(version, mode, shape, target, mapping, dtype) -> None:
    op = lookup("Broadcast", version)
    attrs = op.Attrs(mode=mode)
    vecs = [np.array(target, np.int64)] + ([np.array(mapping, np.int64)] if mapping else [])
    kernel = op.prepare(attrs, [None, *vecs])
    x = data(shape, np.int64).astype(dtype)
    for arr in (x, x, np.ascontiguousarray(x.T).T):
        same_bits(kernel([arr, *vecs]), op.compute(attrs, [arr, *vecs]))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, BF16])
@pytest.mark.parametrize(("shape", "axis"), [([1, 16], 1), ([2, 3, 4], -1), ([2, 3, 4], 0), ([5], 0)])
def test_softmax_gives_the_plain_formula_bits(dtype, shape, axis) -> None:
    """Softmax in place with the ufuncs' own reductions: the bits of the formula written plainly."""
    op = lookup("Softmax", "opset8")
    attrs = op.Attrs(axis=axis)
    x = data(shape, dtype)
    x.reshape(-1)[0] = 80  # exp would overflow without the max
    xf = x.astype(np.float64)
    e = np.exp(xf - np.max(xf, axis=axis, keepdims=True))
    plain = (e / np.sum(e, axis=axis, keepdims=True)).astype(x.dtype)
    kernel = op.prepare(attrs, [None])
    for _ in range(2):
        same_bits(kernel([x]), [plain])
    same_bits(op.compute(attrs, [x]), [plain])


@pytest.mark.parametrize("output_type", ["i64", "i32", "f32"])
@pytest.mark.parametrize("shape", [[1, 16], [], [0, 3, 2]])
def test_shape_of_prepared_gives_compute_bits(output_type, shape) -> None:
    from irlint.ops import OpError

    op = lookup("ShapeOf", "opset3")
    attrs = op.Attrs(output_type=output_type)
    kernel = op.prepare(attrs, [None])
    x = data(shape, np.float32)
    if output_type == "f32":  # not an output type: no kernel, and `compute` says why
        assert kernel is None
        with pytest.raises(OpError, match="i32 or i64"):
            op.compute(attrs, [x])
        return
    same_bits(kernel([x]), op.compute(attrs, [x]))
