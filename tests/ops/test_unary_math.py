"""Unary math (trig, hyperbolic, SoftSign, Round, Identity), IsNaN/IsInf/IsFinite and LogSoftmax vs OpenVINO."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import F32, I32, static_shape
from tests.opcheck import check_op
from tests.opshapes import check_shapes

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset16")
ops5 = pytest.importorskip("openvino.opset5")
ops10 = pytest.importorskip("openvino.opset10")

RNG = np.random.default_rng(14)
X = (RNG.standard_normal((2, 3, 4)) * 2).astype(np.float32)
UNIT = np.clip(RNG.standard_normal((2, 3, 4)) * 0.5, -0.99, 0.99).astype(np.float32)
ABOVE_ONE = (RNG.random((2, 3, 4)) * 4 + 1).astype(np.float32)
SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5, -2.5], np.float32)


def model1(fn, x: np.ndarray, shape=None):
    p = ops.parameter(list(x.shape) if shape is None else shape, x.dtype, name="x")
    return ov.Model([ops.result(fn(p), name="y")], [p]), {"x": x}


UNARY = [
    ("Acos", ops.acos, UNIT), ("Asin", ops.asin, UNIT), ("Atan", ops.atan, X), ("Tan", ops.tan, UNIT),
    ("Sinh", ops.sinh, X), ("Cosh", ops.cosh, X), ("Acosh", ops.acosh, ABOVE_ONE), ("Asinh", ops.asinh, X),
    ("Atanh", ops.atanh, UNIT), ("SoftSign", ops.softsign, X),
    ("Atan", ops.atan, np.array([-5, -1, 0, 1, 7], np.int32)),
    ("Sinh", ops.sinh, np.array([-3, -1, 0, 1, 2], np.int32)),
    ("Asinh", ops.asinh, np.array([-9, 0, 2, 40], np.int64)),
    ("Cosh", ops.cosh, X.astype(np.float16)), ("SoftSign", ops.softsign, X.astype(np.float16)),
]


@pytest.mark.parametrize("name,fn,x", UNARY, ids=[f"{u[0]}-{u[2].dtype}" for u in UNARY])
def test_unary(name, fn, x) -> None:
    model, inputs = model1(fn, x)
    check_op(model, inputs, name)
    model, _ = model1(fn, x, [-1] * (x.ndim - 1) + [x.shape[-1]])
    check_shapes(model, name)


def test_unary_edge_values_follow_numpy_domains() -> None:
    # Outside the domain OpenVINO returns NaN like the C library; infinities propagate.
    x = np.array([1.5, -2.0, np.inf, np.nan, 1.0, -1.0], np.float32)
    for name, fn in (("Acos", ops.acos), ("Asin", ops.asin), ("Atanh", ops.atanh), ("Acosh", ops.acosh)):
        model, inputs = model1(fn, x)
        check_op(model, inputs, name)


@pytest.mark.parametrize("mode", ["half_to_even", "half_away_from_zero"])
def test_round(mode) -> None:
    x = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.4, -2.6, np.nan, np.inf, 3e9], np.float32)
    model, inputs = model1(lambda p: ops5.round(p, mode), x)
    got = check_op(model, inputs, "Round")[0]
    want = [-2, -2, -0, 0, 2, 2, 2, -3] if mode == "half_to_even" else [-3, -2, -1, 1, 2, 3, 2, -3]
    assert got[:8].tolist() == want
    model, inputs = model1(lambda p: ops5.round(p, mode), np.array([[-3, 0, 7]], np.int32))
    check_op(model, inputs, "Round")
    model, _ = model1(lambda p: ops5.round(p, mode), x, [-1])
    check_shapes(model, "Round")


def test_round_rejects_unknown_mode() -> None:
    op = lookup("Round", "opset5")
    attrs, _ = bind_attrs(op.Attrs, {"mode": "up"})
    with pytest.raises(OpError, match="mode"):
        op.infer(attrs, [TensorInfo(F32, static_shape([2]))])


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_])
def test_identity(dtype) -> None:
    model, inputs = model1(ops.identity, (X > 0).astype(dtype))
    check_op(model, inputs, "Identity")
    model, _ = model1(ops.identity, X.astype(dtype), [2, -1, 4])
    check_shapes(model, "Identity")


@pytest.mark.parametrize("name,fn", [("IsNaN", ops10.is_nan), ("IsFinite", ops10.is_finite),
                                     ("IsInf", ops10.is_inf)])
def test_classify(name, fn) -> None:
    model, inputs = model1(fn, SPECIAL)
    check_op(model, inputs, name)
    model, _ = model1(fn, SPECIAL, [-1])
    check_shapes(model, name)


@pytest.mark.parametrize("neg,pos", [(True, False), (False, True), (False, False)])
def test_is_inf_attributes(neg, pos) -> None:
    fn = lambda p: ops10.is_inf(p, {"detect_negative": neg, "detect_positive": pos})  # noqa: E731
    model, inputs = model1(fn, SPECIAL)
    got = check_op(model, inputs, "IsInf")[0]
    assert got.tolist() == [False, pos, neg, False, False, False, False]


def test_classify_rejects_integers() -> None:
    op = lookup("IsNaN", "opset10")
    with pytest.raises(OpError, match="floating"):
        op.infer(op.Attrs(), [TensorInfo(I32, static_shape([2]))])


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_log_softmax(axis) -> None:
    x = X.copy()
    x[0, 0, 0] = 80.0  # large values must not overflow exp
    model, inputs = model1(lambda p: ops5.log_softmax(p, axis), x)
    check_op(model, inputs, "LogSoftmax")
    model, _ = model1(lambda p: ops5.log_softmax(p, axis), x, [-1, 3, -1])
    check_shapes(model, "LogSoftmax")


def test_log_softmax_axis_out_of_range() -> None:
    op = lookup("LogSoftmax", "opset5")
    attrs, _ = bind_attrs(op.Attrs, {"axis": "3"})
    with pytest.raises(OpError, match="out of range"):
        op.infer(attrs, [TensorInfo(F32, static_shape([2, 3, 4]))])


def test_log_softmax_nan_spreads_along_the_axis() -> None:
    # One NaN makes the sum NaN, so the whole slice is NaN (the reference); the CPU plugin answers
    # -inf for the other elements (docs/semantics.md).
    op = lookup("LogSoftmax", "opset5")
    got = op.compute(op.Attrs(axis=1), [np.array([[1, np.nan, 2, 3], [1, 2, 3, 4]], np.float32)])[0]
    assert np.isnan(got[0]).all() and np.isfinite(got[1]).all()
