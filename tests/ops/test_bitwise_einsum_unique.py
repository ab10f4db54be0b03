"""BitwiseAnd/Or/Xor/Not-13, BitwiseLeftShift/RightShift-15, Einsum-7 and Unique-10 against OpenVINO."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, lookup
from irlint.types import F32, I32, static_shape
from tests.opcheck import check_op
from tests.opshapes import check_shapes

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset15")
ops7 = pytest.importorskip("openvino.opset7")
ops10 = pytest.importorskip("openvino.opset10")
ops13 = pytest.importorskip("openvino.opset13")

RNG = np.random.default_rng(5)


def model_n(build, arrays: dict[str, np.ndarray], shapes: dict[str, list] | None = None):
    params = [ops.parameter(list(a.shape) if not shapes or n not in shapes else shapes[n], a.dtype, name=n)
              for n, a in arrays.items()]
    node = build(*params)
    outs = [ops.result(node.output(i), name=f"y{i}") for i in range(node.get_output_size())]
    return ov.Model(outs, params), dict(arrays)


# ------------------------------------------------------------------------------------------- bitwise

BITWISE = [("BitwiseAnd", ops13.bitwise_and), ("BitwiseOr", ops13.bitwise_or), ("BitwiseXor", ops13.bitwise_xor)]
INT_TYPES = [np.int8, np.uint8, np.int32, np.int64, np.uint16]


def int_range(dtype):
    """The CPU plugin computes i64 bitwise ops in i32: i64 cases stay in the i32 range (docs/semantics.md)."""
    return np.iinfo(np.int32 if dtype == np.int64 else dtype)


@pytest.mark.parametrize("name,fn", BITWISE, ids=[b[0] for b in BITWISE])
@pytest.mark.parametrize("dtype", [*INT_TYPES, np.bool_])
def test_bitwise_binary(name, fn, dtype) -> None:
    if dtype == np.bool_:
        a, b = np.array([[True, False, True], [False, False, True]]), np.array([True, False, False])
    else:
        info = int_range(dtype)
        a = np.array([[info.min, -1 if info.min < 0 else 1, 0], [info.max, 5, 12]], dtype)
        b = np.array([0x0F, info.max, 6], dtype)
    model, inputs = model_n(fn, {"a": a, "b": b})
    check_op(model, inputs, name)
    model, _ = model_n(fn, {"a": a, "b": b}, {"a": [-1, 3]})
    check_shapes(model, name)


@pytest.mark.parametrize("dtype", [*INT_TYPES, np.bool_])
def test_bitwise_not(dtype) -> None:
    x = np.array([True, False]) if dtype == np.bool_ else np.array([0, 1, 7, int_range(dtype).max], dtype)
    model, inputs = model_n(ops13.bitwise_not, {"x": x})
    check_op(model, inputs, "BitwiseNot")


@pytest.mark.parametrize("name,fn", [("BitwiseLeftShift", ops.bitwise_left_shift),
                                     ("BitwiseRightShift", ops.bitwise_right_shift)])
@pytest.mark.parametrize("dtype", INT_TYPES)
def test_shifts(name, fn, dtype) -> None:
    info = np.iinfo(np.int16) if dtype == np.int64 else int_range(dtype)  # i64 results must fit i32 too
    bits = info.bits
    a = np.array([[1, 3, info.max, 0], [info.min, -7 if info.min < 0 else 7, 100, 1]], dtype)
    b = np.array([[0, 2, 1, 5], [1, 3, bits - 1, bits - 2]], dtype)  # shifts within [0, bits)
    model, inputs = model_n(fn, {"a": a, "b": b})
    check_op(model, inputs, name)
    model, _ = model_n(fn, {"a": a, "b": b[:1]}, {"a": [-1, 4]})
    check_shapes(model, name)


def test_int64_bitwise_uses_all_64_bits() -> None:
    big = np.array([np.iinfo(np.int64).max, -1, 1 << 40], np.int64)
    op = lookup("BitwiseAnd", "opset13")
    assert op.compute(op.Attrs(), [big, np.array(-1, np.int64)])[0].tolist() == big.tolist()
    op = lookup("BitwiseLeftShift", "opset15")
    assert op.compute(op.Attrs(), [np.array([1], np.int64), np.array([40], np.int64)])[0].tolist() == [1 << 40]
    op = lookup("BitwiseNot", "opset13")
    assert op.compute(op.Attrs(), [big])[0].tolist() == [np.iinfo(np.int64).min, 0, ~(1 << 40)]


def test_shift_outside_the_bit_width_and_type_checks() -> None:
    left, right = lookup("BitwiseLeftShift", "opset15"), lookup("BitwiseRightShift", "opset15")
    a, b = np.array([5, -5, 5, -5], np.int32), np.array([32, 40, -1, 33], np.int32)
    assert left.compute(left.Attrs(), [a, b])[0].tolist() == [0, 0, 0, 0]
    assert right.compute(right.Attrs(), [a, b])[0].tolist() == [0, -1, 0, -1]
    with pytest.raises(OpError, match="integer"):
        left.infer(left.Attrs(), [TensorInfo(F32, static_shape([2])), TensorInfo(F32, static_shape([2]))])
    op = lookup("BitwiseAnd", "opset13")
    with pytest.raises(OpError, match="integer or boolean"):
        op.compute(op.Attrs(), [np.ones(2, np.float32), np.ones(2, np.float32)])


# -------------------------------------------------------------------------------------------- Einsum

EINSUM = [
    ("ab,bc->ac", [(2, 3), (3, 4)]),
    ("ab,bc", [(2, 3), (3, 4)]),
    ("abc,abd->acd", [(2, 3, 4), (2, 3, 5)]),
    ("ii->i", [(3, 3)]),
    ("ab,bc->ac", [(2, 1), (3, 4)]),  # a label's dims broadcast
    ("abc->cb", [(2, 3, 4)]),
    ("...ij,...jk->...ik", [(2, 1, 2, 3), (4, 3, 2)]),
    ("a...,a...->...", [(3, 2, 4), (3, 1, 4)]),
    ("i,j->ij", [(3,), (4,)]),
    ("ab,ab,ab->a", [(2, 3), (2, 3), (2, 3)]),
    ("AbC,Cd->Abd", [(2, 3, 4), (4, 2)]),
    ("abab->ba", [(2, 3, 2, 3)]),
]


@pytest.mark.parametrize("equation,shapes", EINSUM, ids=[f"{e[0]}-{e[1]}" for e in EINSUM])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_einsum(equation, shapes, dtype) -> None:
    arrays = {f"x{i}": (RNG.standard_normal(s) * 3).astype(dtype) for i, s in enumerate(shapes)}
    build = lambda *ps: ops7.einsum(list(ps), equation)  # noqa: E731
    model, inputs = model_n(build, arrays)
    check_op(model, inputs, "Einsum", rtol=1e-4, atol=1e-4)
    model, _ = model_n(build, arrays, {"x0": [-1] * len(shapes[0])})
    check_shapes(model, "Einsum")


def test_einsum_implicit_mode_drops_repeated_labels() -> None:
    # Implicit mode outputs the labels used once, sorted (the spec, numpy): "ii" is the scalar trace and
    # "dbbc,ca" means "dbbc,ca->ad". OpenVINO keeps labels repeated inside one input ("ii" -> [3,3]) and
    # the CPU plugin fails to compile both models, so the spec's answer is checked here directly.
    op = lookup("Einsum", "opset7")
    x = np.arange(9, dtype=np.float32).reshape(3, 3)
    (out,) = op.infer(op.Attrs("ii"), [TensorInfo(F32, static_shape([3, 3]))])
    assert out.shape == ()
    assert op.compute(op.Attrs("ii"), [x])[0].tolist() == 12.0
    assert op.compute(op.Attrs("AbC"), [x.reshape(1, 3, 3)])[0].shape == (1, 3, 3)
    a, c = RNG.standard_normal((2, 3, 3, 4)).astype(np.float32), RNG.standard_normal((4, 5)).astype(np.float32)
    infos = [TensorInfo(F32, static_shape(a.shape)), TensorInfo(F32, static_shape(c.shape))]
    (out,) = op.infer(op.Attrs("dbbc,ca"), infos)
    assert out.shape == static_shape([5, 2])
    np.testing.assert_allclose(op.compute(op.Attrs("dbbc,ca"), [a, c])[0],
                               op.compute(op.Attrs("dbbc,ca->ad"), [a, c])[0])


def test_einsum_checks() -> None:
    op = lookup("Einsum", "opset7")
    with pytest.raises(OpError, match="names dims"):
        op.infer(op.Attrs("ab,bc->ac"), [TensorInfo(F32, static_shape([2, 3])), TensorInfo(F32, static_shape([4, 5]))])
    with pytest.raises(OpError, match="2 input subscripts"):
        op.infer(op.Attrs("ab,bc->ac"), [TensorInfo(F32, static_shape([2, 3]))])
    with pytest.raises(OpError, match="appears in no input"):
        op.infer(op.Attrs("ab->z"), [TensorInfo(F32, static_shape([2, 3]))])
    with pytest.raises(OpError, match="same type"):
        op.infer(op.Attrs("a,a->a"), [TensorInfo(F32, static_shape([2])), TensorInfo(I32, static_shape([2]))])


# -------------------------------------------------------------------------------------------- Unique

UNIQUE_DATA = [
    np.array([3, 1, 3, 2, 1, 7, 2], np.float32),
    np.array([[1, 2, 1], [1, 2, 1], [0, 5, 0]], np.int32),
    np.array([[[2, 2], [1, 0]], [[2, 2], [1, 0]]], np.int64),
    np.array([4, 4, 4], np.int32),
]


@pytest.mark.parametrize("x", UNIQUE_DATA, ids=["f32-1d", "i32-2d", "i64-3d", "one-value"])
@pytest.mark.parametrize("sorted_", [True, False])
@pytest.mark.parametrize("axis", [None, 0, -1])
@pytest.mark.parametrize("types", [("i64", "i64"), ("i32", "i64"), ("i64", "i32")])
def test_unique(x, sorted_, axis, types) -> None:
    def build(p):
        return ops10.unique(p, None if axis is None else ops.constant(np.int64(axis)), sorted_, *types)

    model, inputs = model_n(build, {"x": x})
    check_op(model, inputs, "Unique")
    check_shapes(model, "Unique")
    model, _ = model_n(build, {"x": x}, {"x": [-1] * x.ndim})
    check_shapes(model, "Unique")


def test_unique_empty_input() -> None:
    op = lookup("Unique", "opset10")
    outs = op.compute(op.Attrs(), [np.zeros(0, np.float32)])
    assert [o.shape for o in outs] == [(0,), (0,), (0,), (0,)]


def test_unique_nan_is_never_equal() -> None:
    # IEEE equality: every NaN is its own unique value; -0.0 equals 0.0 (the first one is kept).
    x = np.array([np.nan, 1, np.nan, -0.0, 0.0, 1], np.float32)
    model, inputs = model_n(lambda p: ops10.unique(p, None, False), {"x": x})
    got = check_op(model, inputs, "Unique")
    assert got[1].tolist() == [0, 1, 2, 3] and got[3].tolist() == [1, 2, 1, 2]
    # sorted=true: numbers ascending, then the NaNs in input order (the CPU plugin's answer here is
    # inconsistent: counts of 0, docs/semantics.md).
    op = lookup("Unique", "opset10")
    values, first, inverse, counts = op.compute(op.Attrs(sorted=True), [x])
    assert values[:2].tolist() == [0.0, 1.0] and np.isnan(values[2:]).all()
    assert first.tolist() == [3, 1, 0, 2] and counts.tolist() == [2, 2, 1, 1]
    assert inverse.tolist() == [2, 1, 3, 0, 0, 1]
