"""Xor (v0, opset1) against OpenVINO's CPU plugin; built through the node factory (no Python wrapper)."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import BOOL, DYNAMIC, F32, static_shape
from tests.opcheck import check_op
from tests.opdyn import check_infer

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset1")
factory = pytest.importorskip("openvino.utils.node_factory")


def _model(shape_a, shape_b, broadcast="numpy"):
    a, b = ops.parameter(shape_a, np.bool_, name="a"), ops.parameter(shape_b, np.bool_, name="b")
    node = factory.NodeFactory("opset1").create("Xor", [a.output(0), b.output(0)], {"auto_broadcast": broadcast})
    return ov.Model([ops.result(node, name="y")], [a, b])


@pytest.mark.parametrize("sa,sb", [([2, 3], [2, 3]), ([2, 3], [3]), ([4, 1], [1, 5])])
def test_xor(sa, sb) -> None:
    rng = np.random.default_rng(1)
    a, b = rng.random(sa) > 0.5, rng.random(sb) > 0.5
    check_op(_model(sa, sb), {"a": a, "b": b}, "Xor")


def test_partial_shapes_and_errors() -> None:
    check_infer(_model(ov.PartialShape("[?,3]"), ov.PartialShape("[2..4,1]")), "Xor")
    op = lookup("Xor", "opset1")
    attrs, _ = bind_attrs(op.Attrs, {})
    with pytest.raises(OpError, match="boolean"):
        op.infer(attrs, [TensorInfo(F32, static_shape([2]))] * 2)
    assert op.infer(attrs, [TensorInfo(BOOL, (DYNAMIC,)), TensorInfo(BOOL, static_shape([1]))])[0].shape == (DYNAMIC,)
