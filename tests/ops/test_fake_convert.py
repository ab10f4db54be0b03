"""FakeConvert-13 against OpenVINO's CPU plugin: both f8 formats, scales, shifts, saturation, subnormals."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import F32, I32, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

RNG = np.random.default_rng(131)
X = np.concatenate([RNG.standard_normal(40) * 3, RNG.standard_normal(20) * 300, RNG.standard_normal(20) * 1e-3,
                    [0.0, -0.0, 448.0, 500.0, -1e4, 0.0625, 0.001953125, 0.0009, 57344.0, 1.5, 2.5]]).astype(
    np.float32).reshape(1, 7, 13)


@pytest.mark.parametrize("dest", ["f8e4m3", "f8e5m2"])
@pytest.mark.parametrize("scale,shift", [(1.0, None), (0.5, 0.25), ([[[2.0]], [[0.1]], [[1.0]], [[4.0]], [[0.5]],
                                                                     [[1.0]], [[3.0]]], None)])
def test_fake_convert(dest, scale, shift) -> None:
    p = ops.parameter(list(X.shape), np.float32, name="x")
    sc = ops.constant(np.array(scale, np.float32).reshape(-1) if np.ndim(scale) else np.float32(scale))
    if np.ndim(scale):
        sc = ops.constant(np.array(scale, np.float32).reshape(1, 7, 1))
    sh = None if shift is None else ops.constant(np.array(shift, np.float32))
    node = ops.fake_convert(p, sc, sh, dest)
    check_op(ov.Model([ops.result(node, name="y")], [p]), {"x": X}, "FakeConvert", rtol=0, atol=0, exact=True)


def test_errors() -> None:
    op = lookup("FakeConvert", "opset13")
    attrs, _ = bind_attrs(op.Attrs, {"destination_type": "f8e8m0"})
    with pytest.raises(OpError, match="destination_type"):
        op.infer(attrs, [TensorInfo(F32, static_shape([2])), TensorInfo(F32, static_shape([]))])
    attrs, _ = bind_attrs(op.Attrs, {})
    with pytest.raises(OpError, match="floating-point"):
        op.infer(attrs, [TensorInfo(I32, static_shape([2])), TensorInfo(I32, static_shape([]))])


@pytest.mark.parametrize("dest", ["f8e4m3", "f8e5m2"])
@pytest.mark.parametrize("scale", [1.0, 3.0])
def test_saturation_beyond_f16(dest, scale) -> None:
    x = np.array([[57344.0, 60000.0, 70000.0, 1e5, -1e5, 65504.0, 30000.0, np.inf, -np.inf]], np.float32)
    p = ops.parameter(list(x.shape), np.float32, name="x")
    node = ops.fake_convert(p, ops.constant(np.float32(scale)), None, dest)
    check_op(ov.Model([ops.result(node, name="y")], [p]), {"x": x}, "FakeConvert", exact=True)
