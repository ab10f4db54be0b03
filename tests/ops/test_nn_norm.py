"""MVN-1/6, NormalizeL2 and BatchNormInference-1/5 against OpenVINO's CPU plugin."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, I32, Dim, static_shape
from tests.opcheck import check_op, op_model

ov = pytest.importorskip("openvino")
o1 = pytest.importorskip("openvino.opset1")
o2 = pytest.importorskip("openvino.opset2")
o5 = pytest.importorskip("openvino.opset5")
o6 = pytest.importorskip("openvino.opset6")

RNG = np.random.default_rng(3)
X = (RNG.standard_normal((2, 3, 4, 5)) * 3 + 1).astype(np.float32)


model = partial(op_model, every_output=False)


@pytest.mark.parametrize("across", [False, True])
@pytest.mark.parametrize("normalize", [False, True])
def test_mvn1(across, normalize) -> None:
    m, inputs = model(lambda p: o2.mvn(p, across, normalize, 1e-3), X)
    check_op(m, inputs, "MVN")


def test_mvn1_reduction_axes_attribute() -> None:
    op = lookup("MVN", "opset2")
    attrs, problems = bind_attrs(op.Attrs, {"eps": "0.01", "normalize_variance": "true", "reduction_axes": "0,3"})
    assert not problems
    (got,) = op.compute(attrs, [X])
    x = X.astype(np.float64)
    c = x - x.mean(axis=(0, 3), keepdims=True)
    np.testing.assert_allclose(got, c / np.sqrt((c * c).mean(axis=(0, 3), keepdims=True) + 0.01), rtol=1e-5)


@pytest.mark.parametrize("axes", [[1], [2, 3], [-1], [0, 1, 2, 3], [1, -2]])
@pytest.mark.parametrize("eps_mode", ["inside_sqrt", "outside_sqrt"])
@pytest.mark.parametrize("normalize", [True, False])
def test_mvn6(axes, eps_mode, normalize) -> None:
    m, inputs = model(lambda p: o6.mvn(p, o1.constant(np.array(axes, np.int64)), normalize, 0.5, eps_mode), X)
    check_op(m, inputs, "MVN")


@pytest.mark.parametrize("axes", [[1], [2, 3], [-1], [0, 1, 2, 3], []])
@pytest.mark.parametrize("eps_mode,eps", [("add", 1e-6), ("max", 1e-6), ("add", 30.0), ("max", 30.0)])
def test_normalize_l2(axes, eps_mode, eps) -> None:
    x = X.copy()
    x[0, 0, 0, :2] = 0
    m, inputs = model(lambda p: o1.normalize_l2(p, ov.op.Constant(np.array(axes, np.int64)), eps, eps_mode), x)
    check_op(m, inputs, "NormalizeL2")


@pytest.mark.parametrize("opset", [o1, o5])
@pytest.mark.parametrize("shape", [(2, 3), (2, 3, 5), (1, 3, 4, 5), (1, 3, 2, 2, 3)])
def test_batch_norm_inference(opset, shape) -> None:
    x = RNG.standard_normal(shape).astype(np.float32)
    gamma, beta, mean = (RNG.standard_normal(3).astype(np.float32) for _ in range(3))
    var = (RNG.random(3) + 0.1).astype(np.float32)
    m, inputs = model(lambda p: opset.batch_norm_inference(p, gamma, beta, mean, var, 1e-3), x)
    check_op(m, inputs, "BatchNormInference")


def test_norm_shape_functions_and_errors() -> None:
    mvn6 = lookup("MVN", "opset6")
    attrs, _ = bind_attrs(mvn6.Attrs, {"eps": "1e-5", "normalize_variance": "true", "eps_mode": "inside_sqrt"})
    x = TensorInfo(F32, (DYNAMIC, Dim.of(3), Dim(1, 9)))
    assert mvn6.infer(attrs, [x, TensorInfo(I32, static_shape((1,)))])[0].shape == x.shape
    with pytest.raises(OpError, match="out of range"):
        mvn6.infer(attrs, [x, TensorInfo(I32, static_shape((1,)), np.array([3], np.int32))])
    with pytest.raises(OpError, match="floating-point"):
        mvn6.infer(attrs, [TensorInfo(I32, x.shape), TensorInfo(I32, static_shape((1,)))])
    bad, _ = bind_attrs(mvn6.Attrs, {"eps": "1e-5", "normalize_variance": "true", "eps_mode": "sideways"})
    with pytest.raises(OpError, match="eps_mode"):
        mvn6.infer(bad, [x, TensorInfo(I32, static_shape((1,)))])
    bn = lookup("BatchNormInference", "opset5")
    bn_attrs, _ = bind_attrs(bn.Attrs, {"epsilon": "0.001"})
    c4 = TensorInfo(F32, static_shape((4,)))
    (out,) = bn.infer(bn_attrs, [TensorInfo(F32, (DYNAMIC, DYNAMIC, Dim.of(7))), c4, c4, c4, c4])
    assert out.shape == (DYNAMIC, Dim.of(4), Dim.of(7))
    with pytest.raises(OpError, match="channels"):
        bn.infer(bn_attrs, [TensorInfo(F32, static_shape((1, 3, 2))), c4, c4, c4, c4])
    bn0 = lookup("BatchNormInference", "opset1")
    with pytest.raises(OpError, match="channels"):  # v0 reads data from input 2
        bn0.infer(bn_attrs, [c4, c4, TensorInfo(F32, static_shape((1, 3, 2))), c4, c4])
