"""AvgPool-1/14/16 and MaxPool-1/8/14 (values and indices) against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, I32, Dim, static_shape
from tests.opcheck import check_op, ov_infer
from tests.opcheck import op_model as model

ov = pytest.importorskip("openvino")
o1 = pytest.importorskip("openvino.opset1")
o8 = pytest.importorskip("openvino.opset8")
o14 = pytest.importorskip("openvino.opset14")
o16 = pytest.importorskip("openvino.opset16")

RNG = np.random.default_rng(5)


POOLS = [  # spatial, kernel, strides, pads_begin, pads_end, rounding, auto_pad
    ((7,), [3], [2], [0], [0], "floor", "explicit"),
    ((6, 7), [2, 2], [2, 2], [0, 0], [0, 0], "floor", "explicit"),
    ((6, 7), [3, 3], [2, 2], [1, 1], [1, 1], "floor", "explicit"),
    ((6, 7), [3, 2], [2, 3], [1, 0], [0, 1], "ceil", "explicit"),
    ((7, 7), [3, 3], [2, 2], [0, 0], [0, 0], "ceil", "explicit"),
    ((6, 7), [3, 3], [2, 2], [0, 0], [0, 0], "floor", "same_upper"),
    ((6, 7), [2, 3], [2, 2], [0, 0], [0, 0], "floor", "same_lower"),
    ((6, 7), [3, 3], [1, 2], [2, 2], [2, 2], "floor", "valid"),
    ((4, 5, 6), [2, 3, 2], [1, 2, 2], [1, 0, 1], [0, 1, 1], "floor", "explicit"),
]


@pytest.mark.parametrize("exclude_pad", [True, False])
@pytest.mark.parametrize("spatial,kernel,strides,pb,pe,rounding,auto_pad", POOLS)
def test_avg_pool_v1(spatial, kernel, strides, pb, pe, rounding, auto_pad, exclude_pad) -> None:
    x = RNG.standard_normal((2, 3, *spatial)).astype(np.float32)
    m, inputs = model(lambda p: o1.avg_pool(p, strides, pb, pe, kernel, exclude_pad, rounding, auto_pad), x)
    check_op(m, inputs, "AvgPool")


# (5, 6) with kernel 2, stride 2, pads 1: ceil gives a last row window that starts in the end padding,
# which ceil_torch drops (4 rows vs 3).
V14 = [((6, 5), [3, 3]), ((5, 6), [2, 2])]


@pytest.mark.parametrize("exclude_pad", [True, False])
@pytest.mark.parametrize("rounding", ["ceil_torch", "ceil", "floor"])
@pytest.mark.parametrize("spatial,kernel", V14)
def test_avg_pool_v14_rounding(spatial, kernel, rounding, exclude_pad) -> None:
    x = RNG.standard_normal((1, 2, *spatial)).astype(np.float32)
    m, inputs = model(lambda p: o14.avg_pool(p, [2, 2], [1, 1], [1, 1], kernel, exclude_pad, rounding), x)
    if spatial == (5, 6) and rounding == "ceil" and exclude_pad:
        # The last row of windows lies wholly in the padding: the CPU plugin divides 0 by 0 (NaN),
        # the core reference writes 0 (docs/semantics.md); we follow the reference.
        op, attrs = _bound("AvgPool", "opset14", {"strides": "2,2", "pads_begin": "1,1", "pads_end": "1,1",
                                                  "kernel": "2,2", "rounding_type": "ceil", "exclude-pad": "true"})
        (got,) = op.compute(attrs, [x])
        want = ov_infer(m, inputs)["y0"]
        assert np.isnan(want[:, :, 3]).all() and (got[:, :, 3] == 0).all()
        np.testing.assert_allclose(got[:, :, :3], want[:, :, :3], rtol=1e-5, atol=1e-6)
        return
    got = check_op(m, inputs, "AvgPool")
    if spatial == (5, 6):
        assert got[0].shape[2] == (3 if rounding != "ceil" else 4)


AVG16 = [  # spatial, kernel, strides, dilations, pads_begin, pads_end, rounding (the ONNX node tests' shapes)
    ((4, 4), [2, 2], [1, 1], [2, 2], [0, 0], [0, 0], "ceil_torch"),
    ((9, 9, 9), [3, 3, 3], [3, 3, 3], [2, 2, 2], [0, 0, 0], [0, 0, 0], "floor"),
    ((10, 9), [3, 2], [2, 2], [2, 3], [1, 1], [1, 0], "ceil_torch"),
    ((8, 7), [2, 3], [2, 1], [3, 2], [1, 2], [2, 1], "floor"),
]


@pytest.mark.parametrize("exclude_pad", [True, False])
@pytest.mark.parametrize("spatial,kernel,strides,dil,pb,pe,rounding", AVG16)
def test_avg_pool_v16_dilations(spatial, kernel, strides, dil, pb, pe, rounding, exclude_pad) -> None:
    """AvgPool-16's dilations (before: bound as AvgPool-14, the shape ignored them: T211 on ONNX's
    dilated AveragePool/LpPool node tests)."""
    x = RNG.standard_normal((1, 2, *spatial)).astype(np.float32)
    m, inputs = model(lambda p: o16.avg_pool(p, strides, pb, pe, kernel, exclude_pad, rounding,
                                             dilations=dil), x)
    check_op(m, inputs, "AvgPool")


@pytest.mark.parametrize("spatial,kernel,strides,pb,pe,rounding,auto_pad", POOLS)
def test_max_pool_v1(spatial, kernel, strides, pb, pe, rounding, auto_pad) -> None:
    x = RNG.standard_normal((2, 3, *spatial)).astype(np.float32)
    m, inputs = model(lambda p: o1.max_pool(p, strides, pb, pe, kernel, rounding, auto_pad), x)
    check_op(m, inputs, "MaxPool")


MAX8 = [  # spatial, kernel, strides, dilations, pads_begin, pads_end, rounding, auto_pad, axis, index type
    ((7, 6), [3, 3], [2, 2], [1, 1], [1, 1], [1, 1], "floor", "explicit", 0, "i64"),
    ((7, 6), [3, 2], [1, 2], [2, 2], [0, 1], [1, 0], "ceil", "explicit", 2, "i32"),
    ((8, 7), [2, 3], [2, 2], [2, 1], [0, 0], [0, 0], "floor", "same_upper", 1, "i64"),
    ((8, 7), [2, 3], [2, 2], [1, 2], [0, 0], [0, 0], "floor", "same_lower", -2, "i32"),
    ((9,), [3], [2], [3], [1], [2], "ceil", "explicit", 0, "i64"),
    ((3, 4, 5), [2, 2, 2], [1, 2, 2], [1, 1, 2], [0, 1, 1], [1, 0, 1], "floor", "explicit", 0, "i64"),
]


@pytest.mark.parametrize("spatial,kernel,strides,dil,pb,pe,rounding,auto_pad,axis,itype", MAX8)
def test_max_pool_v8_values_and_indices(spatial, kernel, strides, dil, pb, pe, rounding, auto_pad, axis,
                                        itype) -> None:
    x = RNG.standard_normal((2, 3, *spatial)).astype(np.float32)
    m, inputs = model(lambda p: o8.max_pool(p, strides, dil, pb, pe, kernel, rounding, auto_pad, itype, axis), x)
    check_op(m, inputs, "MaxPool")


@pytest.mark.parametrize("rounding", ["ceil_torch", "ceil"])
@pytest.mark.parametrize("spatial,kernel", V14)
def test_max_pool_v14_rounding(spatial, kernel, rounding) -> None:
    x = RNG.standard_normal((1, 2, *spatial)).astype(np.float32)
    m, inputs = model(lambda p: o14.max_pool(p, [2, 2], [1, 1], [1, 1], [1, 1], kernel, rounding), x)
    check_op(m, inputs, "MaxPool")


def test_max_pool_integer_input_and_ties() -> None:
    x = np.array([[[[3, 3, 1], [0, 3, 2], [5, 5, 5]]]], np.int32)
    m, inputs = model(lambda p: o8.max_pool(p, [1, 1], [1, 1], [0, 0], [0, 0], [2, 2]), x)
    got = check_op(m, inputs, "MaxPool")
    assert got[1].tolist() == [[[[0, 1], [6, 7]]]]  # the first maximum of each window


def _bound(type_name: str, version: str, data: dict[str, str]):
    op = lookup(type_name, version)
    attrs, problems = bind_attrs(op.Attrs, data)
    assert not problems
    return op, attrs


POOL_ATTRS = {"strides": "2,2", "pads_begin": "0,0", "pads_end": "0,0", "kernel": "3,3", "rounding_type": "ceil"}


def test_pool_shapes_dynamic_and_errors() -> None:
    op, attrs = _bound("MaxPool", "opset8", {**POOL_ATTRS, "dilations": "1,1", "index_element_type": "i32"})
    outs = op.infer(attrs, [TensorInfo(F32, (DYNAMIC, Dim.of(3), Dim(4, 8), DYNAMIC))])
    assert [o.etype for o in outs] == [F32, I32]
    assert outs[0].shape == (DYNAMIC, Dim.of(3), Dim(2, 4), Dim(1, None))
    assert op.infer(attrs, [TensorInfo(F32, None)])[1] == TensorInfo(I32, None)
    with pytest.raises(OpError, match="larger than the padded input"):
        op.infer(attrs, [TensorInfo(F32, static_shape((1, 1, 2, 5)))])
    with pytest.raises(OpError, match="rank >= 3"):
        op.infer(attrs, [TensorInfo(F32, static_shape((4, 5)))])
    op1, attrs1 = _bound("MaxPool", "opset1", {**POOL_ATTRS, "rounding_type": "ceil_torch"})
    with pytest.raises(OpError, match="rounding_type"):
        op1.infer(attrs1, [TensorInfo(F32, static_shape((1, 1, 5, 5)))])
    assert lookup("MaxPool", "opset13") is lookup("MaxPool", "opset8")
    assert lookup("AvgPool", "opset15") is lookup("AvgPool", "opset14")
    (out,) = lookup("AvgPool", "opset1").infer(_bound("AvgPool", "opset1", POOL_ATTRS)[1],
                                                [TensorInfo(F32, static_shape((1, 2, 7, 6)))])
    assert out.shape == static_shape((1, 2, 3, 3))
