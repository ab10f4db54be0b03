"""Math ops (element-wise, activations, Select, Convert, Softmax, Reduce*) against OpenVINO's CPU plugin."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import BOOL, DYNAMIC, F32, I32, Dim, static_shape
from tests.opcheck import check_op, op_model

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

RNG = np.random.default_rng(7)


model1 = partial(op_model, every_output=False)


def model2(fn, a: np.ndarray, b: np.ndarray):
    pa = ops.parameter(list(a.shape), a.dtype, name="a")
    pb = ops.parameter(list(b.shape), b.dtype, name="b")
    return ov.Model([ops.result(fn(pa, pb), name="y")], [pa, pb]), {"a": a, "b": b}


FLOAT_X = (RNG.standard_normal((2, 3, 4)) * 2).astype(np.float32)
POS_X = (RNG.random((2, 3, 4)) * 4 + 0.1).astype(np.float32)

UNARY = [
    ("Sigmoid", ops.sigmoid, FLOAT_X), ("Tanh", ops.tanh, FLOAT_X), ("Exp", ops.exp, FLOAT_X),
    ("Log", ops.log, POS_X), ("Sqrt", ops.sqrt, POS_X), ("Erf", ops.erf, FLOAT_X),
    ("Floor", ops.floor, FLOAT_X), ("Ceiling", ops.ceiling, FLOAT_X), ("Abs", ops.abs, FLOAT_X),
    ("Negative", ops.negative, FLOAT_X), ("SoftPlus", ops.softplus, FLOAT_X),
    ("HSwish", ops.hswish, FLOAT_X), ("HSigmoid", ops.hsigmoid, FLOAT_X), ("Mish", ops.mish, FLOAT_X),
    ("Sin", ops.sin, FLOAT_X), ("Cos", ops.cos, FLOAT_X), ("Sign", ops.sign, FLOAT_X),
    ("Abs", ops.abs, np.array([-3, 0, 7, -2**31 + 1], np.int32)),
    ("Negative", ops.negative, np.array([-3, 0, 7], np.int64)),
]


@pytest.mark.parametrize("name,fn,x", UNARY, ids=[f"{u[0]}-{u[2].dtype}" for u in UNARY])
def test_unary(name, fn, x) -> None:
    model, inputs = model1(fn, x)
    check_op(model, inputs, name)


# Float-only functions on integer inputs: OpenVINO computes them in floating point and rounds to the
# nearest integer, ties to even (Sigmoid(0) = 0.5 -> 0, Exp(1) -> 3). Inputs stay where the result is
# finite and in range: beyond, the CPU plugin's values are not defined (docs/semantics.md).
SMALL = np.arange(-4, 5)
INT_UNARY = [(name, fn, domain) for name, fn, domain in [
    ("Sigmoid", ops.sigmoid, SMALL), ("Tanh", ops.tanh, SMALL), ("Exp", ops.exp, SMALL),
    ("Erf", ops.erf, SMALL), ("Sin", ops.sin, SMALL), ("Cos", ops.cos, SMALL),
    ("HSwish", ops.hswish, SMALL), ("HSigmoid", ops.hsigmoid, SMALL), ("Tan", ops.tan, SMALL),
    ("Atan", ops.atan, SMALL), ("Sinh", ops.sinh, SMALL), ("Cosh", ops.cosh, SMALL),
    ("Asinh", ops.asinh, SMALL), ("Log", ops.log, np.arange(1, 10)), ("Sqrt", ops.sqrt, np.arange(0, 9)),
    ("Acosh", ops.acosh, np.arange(1, 10)), ("Asin", ops.asin, np.arange(-1, 2)),
    ("Acos", ops.acos, np.arange(-1, 2)), ("Atanh", ops.atanh, np.array([0])),
]]


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.int8])
@pytest.mark.parametrize("name,fn,domain", INT_UNARY, ids=[u[0] for u in INT_UNARY])
def test_float_functions_on_integers_round_to_nearest(name, fn, domain, dtype) -> None:
    x = domain.astype(dtype)
    model, inputs = model1(fn, x)
    check_op(model, inputs, name, exact=True)


A_F = RNG.standard_normal((2, 3, 4)).astype(np.float32)
B_F = (RNG.standard_normal((3, 1)) + 3).astype(np.float32)
A_I = np.array([[7, -7, 9, -9], [5, 0, -1, 12]], np.int32)
B_I = np.array([2, 3, -4, 5], np.int32)

BINARY = [
    ("Add", ops.add), ("Subtract", ops.subtract), ("Multiply", ops.multiply), ("Divide", ops.divide),
    ("Maximum", ops.maximum), ("Minimum", ops.minimum), ("SquaredDifference", ops.squared_difference),
    ("FloorMod", ops.floor_mod), ("Mod", ops.mod),
]


@pytest.mark.parametrize("name,fn", BINARY, ids=[b[0] for b in BINARY])
@pytest.mark.parametrize("kind", ["f32-broadcast", "i32"])
def test_binary_arithmetic(name, fn, kind) -> None:
    a, b = (A_F, B_F) if kind.startswith("f32") else (A_I, B_I)
    model, inputs = model2(fn, a, b)
    if (name, kind) == ("Divide", "i32"):
        # The CPU plugin truncates although the IR says m_pythondiv="true"; the spec says floor.
        # We follow the spec (docs/semantics.md) and assert its answer computed independently.
        op, attrs = bound("Divide", {"m_pythondiv": "true"})
        np.testing.assert_array_equal(op.compute(attrs, [a, b])[0], np.floor_divide(a, b))
        return
    check_op(model, inputs, name)


def test_power_and_integer_division_modes() -> None:
    model, inputs = model2(ops.power, POS_X, np.array([0.5, 2.0, 1.5, 3.0], np.float32))
    check_op(model, inputs, "Power", rtol=2e-4)
    a, b = np.array([7, -7, 7, -7, 3], np.int64), np.array([2, 2, -2, -2, 0], np.int64)
    floor_op, floor_attrs = bound("Divide", {"m_pythondiv": "true"})
    trunc_op, trunc_attrs = bound("Divide", {"m_pythondiv": "false"})
    assert floor_op.compute(floor_attrs, [a, b])[0].tolist() == [3, -4, -4, 3, 0]
    assert trunc_op.compute(trunc_attrs, [a, b])[0].tolist() == [3, -3, -3, 3, 0]


@pytest.mark.parametrize("name,fn", [("Equal", ops.equal), ("NotEqual", ops.not_equal), ("Less", ops.less),
                                     ("LessEqual", ops.less_equal), ("Greater", ops.greater),
                                     ("GreaterEqual", ops.greater_equal)])
def test_comparisons(name, fn) -> None:
    a = np.array([[1, 2, 3], [3, 2, 1]], np.float32)
    model, inputs = model2(fn, a, np.array([2, 2, 2], np.float32))
    check_op(model, inputs, name)


@pytest.mark.parametrize("name,fn", [("LogicalAnd", ops.logical_and), ("LogicalOr", ops.logical_or),
                                     ("LogicalXor", ops.logical_xor)])
def test_logical(name, fn) -> None:
    a = np.array([[True, False], [True, True]])
    model, inputs = model2(fn, a, np.array([True, False]))
    check_op(model, inputs, name)
    model, inputs = model1(ops.logical_not, a)
    check_op(model, inputs, "LogicalNot")


def test_select_broadcasts_three_inputs() -> None:
    c = ops.parameter([2, 1], np.bool_, name="c")
    t = ops.parameter([2, 3], np.float32, name="t")
    e = ops.parameter([3], np.float32, name="e")
    model = ov.Model([ops.result(ops.select(c, t, e), name="y")], [c, t, e])
    check_op(model, {"c": np.array([[True], [False]]), "t": A_F[0, :2, :3], "e": np.array([9, 8, 7], np.float32)},
             "Select")


@pytest.mark.parametrize("src,dst", [(np.float32, np.int32), (np.float32, np.uint8), (np.int32, np.float32),
                                     (np.float32, np.bool_), (np.int64, np.int32), (np.float32, np.float16)])
def test_convert(src, dst) -> None:
    x = np.array([-1.7, 2.5, 3.5, 0.0, 100.9, 7.0], src) if src != np.int64 else np.array([1, -5, 7], src)
    if dst == np.uint8:
        x = np.abs(x)
    model, inputs = model1(lambda p: ops.convert(p, dst), x)
    check_op(model, inputs, "Convert")


def test_clamp_elu_gelu_swish_prelu() -> None:
    model, inputs = model1(lambda p: ops.clamp(p, -0.5, 1.5), FLOAT_X)
    check_op(model, inputs, "Clamp")
    model, inputs = model1(lambda p: ops.clamp(p, -2.5, 3.5), np.array([-5, -2, 0, 3, 9], np.int32))
    check_op(model, inputs, "Clamp")
    model, inputs = model1(lambda p: ops.elu(p, 0.7), FLOAT_X)
    check_op(model, inputs, "Elu")
    for mode in ("erf", "tanh"):
        model, inputs = model1(lambda p, m=mode: ops.gelu(p, m), FLOAT_X)
        check_op(model, inputs, "Gelu")
    model, inputs = model1(lambda p: ops.swish(p, ops.constant(np.float32(0.8))), FLOAT_X)
    check_op(model, inputs, "Swish")
    model, inputs = model1(lambda p: ops.prelu(p, ops.constant(np.array([0.1, 0.2, 0.3], np.float32))), FLOAT_X)
    check_op(model, inputs, "PReLU")


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_softmax(axis) -> None:
    model, inputs = model1(lambda p: ops.softmax(p, axis), FLOAT_X)
    check_op(model, inputs, "SoftMax")


REDUCE = [("ReduceSum", ops.reduce_sum), ("ReduceMean", ops.reduce_mean), ("ReduceMax", ops.reduce_max),
          ("ReduceMin", ops.reduce_min), ("ReduceProd", ops.reduce_prod), ("ReduceL1", ops.reduce_l1),
          ("ReduceL2", ops.reduce_l2)]


@pytest.mark.parametrize("name,fn", REDUCE, ids=[r[0] for r in REDUCE])
@pytest.mark.parametrize("axes,keep", [([1], False), ([0, -1], True), ([2], True)])
def test_reductions(name, fn, axes, keep) -> None:
    model, inputs = model1(lambda p: fn(p, ops.constant(np.array(axes, np.int64)), keep), POS_X)
    check_op(model, inputs, name)


EMPTY_AXIS_CASES = [(r, d) for r in REDUCE[2:4] for d in (np.float32, np.int32, np.uint8)
                    if (r[0], d) != ("ReduceMin", np.float32)]


@pytest.mark.parametrize("reduction,dtype", EMPTY_AXIS_CASES,
                         ids=[f"{r[0]}-{np.dtype(d).name}" for r, d in EMPTY_AXIS_CASES])
def test_reduce_max_min_over_an_empty_axis(reduction, dtype) -> None:
    """The type's starting value, as the CPU plugin gives (numpy raised: a kernel failure on ONNX's
    reduce_*_empty_set node tests). f32 ReduceMin is +inf in the reference and FLT_MAX on the plugin:
    tests/ops/test_numeric_edges.py compares that case with both, so it is left out here."""
    name, fn = reduction
    x = np.zeros((2, 0, 3), dtype)
    model, inputs = model1(lambda p: fn(p, ops.constant(np.array([1], np.int64)), True), x)
    (got,) = check_op(model, inputs, name)
    assert got.shape == (2, 1, 3)


def test_reductions_integer_and_logical() -> None:
    x = np.array([[1, -4, 7], [2, 5, -8]], np.int32)
    model, inputs = model1(lambda p: ops.reduce_mean(p, ops.constant(np.array([1], np.int64)), False), x)
    check_op(model, inputs, "ReduceMean")
    b = np.array([[True, False, True], [True, True, True]])
    for name, fn in (("ReduceLogicalAnd", ops.reduce_logical_and), ("ReduceLogicalOr", ops.reduce_logical_or)):
        model, inputs = model1(lambda p, f=fn: f(p, ops.constant(np.array([1], np.int64)), True), b)
        check_op(model, inputs, name)


# --- shape functions on partial shapes ----------------------------------------------------------


def bound(type_name: str, data: dict[str, str], version: str = "opset1"):
    op = lookup(type_name, version)
    attrs, problems = bind_attrs(op.Attrs, data)
    assert not problems
    return op, attrs


def test_binary_shape_function_broadcasts_partial_shapes() -> None:
    op, attrs = bound("Add", {"auto_broadcast": "numpy"})
    (out,) = op.infer(attrs, [TensorInfo(F32, (DYNAMIC, Dim.of(1), Dim.of(4))), TensorInfo(F32, static_shape([3, 1]))])
    assert out.shape == (DYNAMIC, Dim.of(3), Dim.of(4)) and out.etype == F32
    with pytest.raises(OpError, match="broadcast"):
        op.infer(attrs, [TensorInfo(F32, static_shape([2, 3])), TensorInfo(F32, static_shape([4]))])
    with pytest.raises(OpError, match="same type"):
        op.infer(attrs, [TensorInfo(F32, static_shape([2])), TensorInfo(I32, static_shape([2]))])
    op, attrs = bound("Add", {"auto_broadcast": "none"})
    with pytest.raises(OpError, match="equal shapes"):
        op.infer(attrs, [TensorInfo(F32, static_shape([2, 3])), TensorInfo(F32, static_shape([1, 3]))])
    op, attrs = bound("Less", {})
    (out,) = op.infer(attrs, [TensorInfo(F32, None), TensorInfo(F32, static_shape([2]))])
    assert out.etype == BOOL and out.shape is None


def test_reduce_shape_function() -> None:
    op, attrs = bound("ReduceSum", {"keep_dims": "false"})
    axes = TensorInfo(I32, static_shape([1]), np.array([-1], np.int32))
    (out,) = op.infer(attrs, [TensorInfo(F32, (DYNAMIC, Dim.of(5))), axes])
    assert out.shape == (DYNAMIC,)
    with pytest.raises(OpError, match="twice"):
        op.infer(attrs, [TensorInfo(F32, static_shape([2, 3])), TensorInfo(I32, static_shape([2]),
                                                                            np.array([1, -1], np.int32))])
    (out,) = op.infer(attrs, [TensorInfo(F32, static_shape([2, 3, 4])), TensorInfo(I32, static_shape([2]))])
    assert out.shape == (DYNAMIC,)


def test_softmax_axis_checks() -> None:
    op, attrs = bound("SoftMax", {"axis": "-1"}, "opset1")
    with pytest.raises(OpError, match="non-negative"):
        op.infer(attrs, [TensorInfo(F32, static_shape([2, 3]))])
    op, attrs = bound("SoftMax", {"axis": "-1"}, "opset8")
    assert op.infer(attrs, [TensorInfo(F32, static_shape([2, 3]))])[0].shape == static_shape([2, 3])


def test_tanh_saturates_where_the_cpu_plugin_does() -> None:
    """Tanh of f32 near +-1, truncated by a Convert to i32 (the differential campaign's amplifier): numpy's
    f32 tanh stays at 0.99999994 up to x = 10, the plugin reaches 1 at 9.01; irlint's integers must be the
    plugin's."""
    x = np.concatenate([np.linspace(-10.5, -8.5, 4001), np.linspace(8.5, 10.5, 4001)]).astype(np.float32)
    model, inputs = model1(lambda p: ops.convert(ops.tanh(p), "i32"), x)
    import openvino as ov

    want = ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})(inputs)[0]
    tanh = lookup("Tanh", "opset1")
    got = tanh.compute(tanh.Attrs(), [x])[0]
    np.testing.assert_array_equal(np.trunc(got).astype(np.int32), want)
    small = np.concatenate([tanh.compute(tanh.Attrs(), [part])[0] for part in np.array_split(x, 16)])  # <= 1024
    np.testing.assert_array_equal(np.trunc(small).astype(np.int32), want)
    scalars = [tanh.compute(tanh.Attrs(), [np.asarray(v)])[0] for v in x[::50]]  # a 0-d input's own path
    np.testing.assert_array_equal(np.trunc(scalars).astype(np.int32), want[::50])


def test_sigmoid_reaches_one_where_the_cpu_plugin_does() -> None:
    """Sigmoid of f32 near 1, truncated by a Convert to i32: the f32 formula 1 / (1 + exp(-x)) reaches 1
    from x = 15.9, the plugin (about correctly rounded) from 17.33; irlint's integers must be the
    plugin's, on small arrays, large ones and 0-d inputs (differential build seed 7940527)."""
    x = np.concatenate([np.linspace(-18, -15, 3001), np.linspace(15, 18, 6001)]).astype(np.float32)
    model, inputs = model1(lambda p: ops.convert(ops.sigmoid(p), "i32"), x)
    import openvino as ov

    want = ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})(inputs)[0]
    sigmoid = lookup("Sigmoid", "opset1")
    got = sigmoid.compute(sigmoid.Attrs(), [x])[0]
    assert got.dtype == np.float32
    np.testing.assert_array_equal(np.trunc(got).astype(np.int32), want)
    small = np.concatenate([sigmoid.compute(sigmoid.Attrs(), [part])[0] for part in np.array_split(x, 16)])
    np.testing.assert_array_equal(np.trunc(small).astype(np.int32), want)
    scalars = [sigmoid.compute(sigmoid.Attrs(), [np.asarray(v)])[0] for v in x[::50]]
    np.testing.assert_array_equal(np.trunc(scalars).astype(np.int32), want[::50])
