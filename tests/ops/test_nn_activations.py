"""Selu and HardSigmoid against OpenVINO's CPU plugin (and through ONNX, where they come from)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.interp import run
from irlint.ops import OpError, TensorInfo, lookup
from irlint.types import DYNAMIC, F32, I32, static_shape
from tests.opcheck import check_op, ov_infer

ov = pytest.importorskip("openvino")
o1 = pytest.importorskip("openvino.opset1")

RNG = np.random.default_rng(89)
X = (RNG.standard_normal((2, 3, 5)) * 4).astype(np.float32)


def _model(fn, a, b):
    p = o1.parameter(list(X.shape), np.float32, name="x")
    node = fn(p, o1.constant(np.array(a, np.float32)), o1.constant(np.array(b, np.float32)))
    return ov.Model([o1.result(node, name="y")], [p]), {"x": X}


@pytest.mark.parametrize("alpha,lam", [(1.67326, 1.0507), (0.5, 2.0), ([1.2], [0.8])])
def test_selu(alpha, lam) -> None:
    m, inputs = _model(o1.selu, alpha, lam)
    check_op(m, inputs, "Selu")


@pytest.mark.parametrize("alpha,beta", [(0.2, 0.5), (1 / 6, 0.5), (0.7, -0.1)])
def test_hard_sigmoid(alpha, beta) -> None:
    m, inputs = _model(o1.hard_sigmoid, alpha, beta)
    check_op(m, inputs, "HardSigmoid")


def test_onnx_exports_of_both_run_like_the_cpu_plugin(tmp_path: Path) -> None:
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    graph = helper.make_graph(
        [helper.make_node("HardSigmoid", ["x"], ["h"], alpha=0.25, beta=0.4),
         helper.make_node("Selu", ["h"], ["y"], alpha=1.5, gamma=0.9)],
        "acts", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 5])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3, 5])])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), str(tmp_path / "a.onnx"))
    model = ov.convert_model(str(tmp_path / "a.onnx"))
    ov.save_model(model, str(tmp_path / "a.xml"), compress_to_fp16=False)
    xml = (tmp_path / "a.xml").read_text()
    assert 'type="HardSigmoid"' in xml and 'type="Selu"' in xml
    got = run(irlint.load(tmp_path / "a.xml"), {"x": X})
    want = ov_infer(ov.Core().read_model(str(tmp_path / "a.xml")), {"x": X})
    for name, value in want.items():
        np.testing.assert_allclose(got[name], value, rtol=1e-5, atol=1e-6)


def test_activation_shapes_and_errors() -> None:
    op = lookup("Selu", "opset1")
    one = TensorInfo(F32, static_shape((1,)))
    assert op.infer(None, [TensorInfo(F32, (DYNAMIC,)), one, one])[0].shape == (DYNAMIC,)
    with pytest.raises(OpError, match="one value"):
        op.infer(None, [TensorInfo(F32, None), TensorInfo(F32, static_shape((3,))), one])
    hard = lookup("HardSigmoid", "opset1")
    with pytest.raises(OpError, match="floating-point"):
        hard.infer(None, [TensorInfo(I32, None), one, one])
    with pytest.raises(OpError, match="a scalar"):
        hard.infer(None, [TensorInfo(F32, None), one, one])
