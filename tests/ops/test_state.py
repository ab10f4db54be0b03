"""ReadValue-3/6 and Assign-3/6 on a fresh state (one inference) against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import F32, I32, static_shape
from tests.opcheck import check_op
from tests.opdyn import check_infer

ov = pytest.importorskip("openvino")
ops6 = pytest.importorskip("openvino.opset6")
ops3 = pytest.importorskip("openvino.opset3")
util = pytest.importorskip("openvino.op.util")


def _variable(shape, dtype=ov.Type.f32, name="v"):
    info = util.VariableInfo()
    info.data_shape, info.data_type, info.variable_id = ov.PartialShape(shape), dtype, name
    return util.Variable(info)


@pytest.mark.parametrize("dtype,ov_type", [(np.float32, ov.Type.f32), (np.int32, ov.Type.i32)])
def test_read_value_6_returns_the_initial_value(dtype, ov_type) -> None:
    x, init = ops6.parameter([2, 3], dtype, name="x"), ops6.parameter([2, 3], dtype, name="init")
    var = _variable([2, 3], ov_type)
    rv = ops6.read_value(init, var)
    add = ops6.add(rv, x)
    model = ov.Model([ops6.result(rv, name="y"), ops6.result(add, name="z")], [ops6.assign(add, var)], [x, init])
    feed = {"x": np.ones((2, 3), dtype), "init": np.arange(6, dtype=dtype).reshape(2, 3)}
    check_op(model, feed, "ReadValue")


def test_read_value_6_without_initial_value_is_zero() -> None:
    x = ops6.parameter([3], np.float32, name="x")
    var = _variable([3])
    rv = ops6.read_value(var)
    add = ops6.add(rv, x)
    model = ov.Model([ops6.result(rv, name="y")], [ops6.assign(add, var)], [x])
    check_op(model, {"x": np.ones(3, np.float32)}, "ReadValue")


def test_read_value_3() -> None:
    x, init = ops3.parameter([4], np.float32, name="x"), ops3.parameter([4], np.float32, name="init")
    rv = ops3.read_value(init, "state")
    add = ops3.add(rv, x)
    model = ov.Model([ops3.result(rv, name="y")], [ops3.assign(add, "state")], [x, init])
    check_op(model, {"x": np.full(4, 2, np.float32), "init": np.arange(4, dtype=np.float32)}, "ReadValue")


def test_assign_stores_its_input() -> None:
    # The CPU plugin gives Assign no consumable output, so its value is read back as the variable's state.
    x, init = ops6.parameter([2, 2], np.float32, name="x"), ops6.parameter([2, 2], np.float32, name="init")
    var = _variable([2, 2])
    add = ops6.add(ops6.read_value(init, var), x)
    model = ov.Model([ops6.result(add, name="y")], [ops6.assign(add, var)], [x, init])
    request = ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"}).create_infer_request()
    xs, inits = np.full((2, 2), 3, np.float32), np.eye(2, dtype=np.float32)
    request.infer([xs, inits])
    (state,) = request.query_state()
    op = lookup("Assign", "opset6")
    attrs, _ = bind_attrs(op.Attrs, {"variable_id": "v"})
    (stored,) = op.compute(attrs, [inits + xs])
    np.testing.assert_array_equal(stored, state.state.data)
    assert op.infer(attrs, [TensorInfo(F32, static_shape([2, 2]))])[0].shape == static_shape([2, 2])


def test_partial_shapes_and_errors() -> None:
    init = ops6.parameter(ov.PartialShape("[?,3]"), np.float32, name="init")
    rv = ops6.read_value(init, _variable("[?,3]"))
    check_infer(ov.Model([ops6.result(rv, name="y")], [init]), "ReadValue")
    op = lookup("ReadValue", "opset6")
    attrs, _ = bind_attrs(op.Attrs, {"variable_id": "v", "variable_type": "f32", "variable_shape": "2,3"})
    with pytest.raises(OpError, match="does not fit"):
        op.infer(attrs, [TensorInfo(F32, static_shape([3, 3]))])
    with pytest.raises(OpError, match="is i32"):
        op.infer(attrs, [TensorInfo(I32, static_shape([2, 3]))])
    bare, _ = bind_attrs(op.Attrs, {"variable_id": "v"})
    with pytest.raises(OpError, match="needs variable_type"):
        op.infer(bare, [])
