"""Selu-1 and HardSigmoid-1 (coefficients as inputs) against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, lookup
from irlint.types import F32, I32, static_shape
from tests.opcheck import check_op
from tests.opdyn import check_infer

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

X = np.array([[-30.0, -2.5, -1e-3, 0.0], [1e-3, 0.7, 3.0, 40.0]], np.float32)


def _model(fn, shape, coeffs):
    p = ops.parameter(shape, np.float32, name="x")
    c = [ops.constant(np.array(v, np.float32)) for v in coeffs]
    return ov.Model([ops.result(fn(p, *c), name="y")], [p])


@pytest.mark.parametrize("alpha,lam", [(1.6732632, 1.0507009), (0.5, 2.0), ([0.1], [1.0])])
def test_selu(alpha, lam) -> None:
    check_op(_model(ops.selu, list(X.shape), (alpha, lam)), {"x": X}, "Selu")


def test_selu_alpha_zero_follows_the_spec() -> None:
    # The CPU plugin substitutes its default alpha for 0 (docs/semantics.md); the spec gives 0 below 0.
    op = lookup("Selu", "opset1")
    (y,) = op.compute(op.Attrs(), [X, np.float32(0.0), np.float32(2.0)])
    np.testing.assert_array_equal(y, np.where(X > 0, 2 * X, 0).astype(np.float32))


@pytest.mark.parametrize("alpha,beta", [(0.2, 0.5), (1 / 6, 0.5), (-1.0, 0.25)])
def test_hard_sigmoid(alpha, beta) -> None:
    check_op(_model(ops.hard_sigmoid, list(X.shape), (alpha, beta)), {"x": X}, "HardSigmoid")


@pytest.mark.parametrize("name,fn", [("Selu", ops.selu), ("HardSigmoid", ops.hard_sigmoid)])
def test_dynamic_shapes(name, fn) -> None:
    check_infer(_model(fn, [-1, 4], (0.5, 0.5)), name)
    check_infer(_model(fn, ov.PartialShape("[1..3,?,5]"), (0.5, 0.5)), name)


def test_rejects_integer_data_and_long_coefficients() -> None:
    op = lookup("Selu", "opset1")
    with pytest.raises(OpError, match="floating-point"):
        op.infer(op.Attrs(), [TensorInfo(I32, static_shape([2]))] * 3)
    with pytest.raises(OpError, match="one element"):
        op.infer(op.Attrs(), [TensorInfo(F32, static_shape([2])), TensorInfo(F32, static_shape([2])),
                              TensorInfo(F32, static_shape([1]))])
    op = lookup("HardSigmoid", "opset1")
    with pytest.raises(OpError, match="scalar"):
        op.infer(op.Attrs(), [TensorInfo(F32, static_shape([2])), TensorInfo(F32, static_shape([1])),
                              TensorInfo(F32, static_shape([]))])
