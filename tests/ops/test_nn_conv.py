"""Convolution, GroupConvolution and their backprop-data forms against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, Dim, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

RNG = np.random.default_rng(11)


def rand(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def model(node_fn, x: np.ndarray):
    p = ops.parameter(list(x.shape), np.float32, name="x")
    return ov.Model([ops.result(node_fn(p), name="y")], [p]), {"x": x}


CONV = [  # spatial, kernel, strides, pads_begin, pads_end, dilations, auto_pad
    ((7,), (3,), [1], [0], [0], [1], "explicit"),
    ((6, 5), (3, 3), [1, 1], [1, 1], [1, 1], [1, 1], "explicit"),
    ((9, 8), (3, 2), [2, 3], [0, 1], [2, 0], [1, 1], "explicit"),
    ((9, 9), (3, 3), [1, 2], [0, 0], [0, 0], [2, 3], "explicit"),
    ((7, 6), (3, 4), [2, 2], [0, 0], [0, 0], [1, 1], "same_upper"),
    ((7, 6), (3, 4), [2, 2], [0, 0], [0, 0], [1, 2], "same_lower"),
    ((7, 6), (3, 3), [2, 1], [5, 5], [5, 5], [1, 1], "valid"),
    ((4, 5, 3), (2, 3, 2), [1, 2, 1], [1, 0, 1], [0, 1, 1], [1, 1, 2], "explicit"),
]


@pytest.mark.parametrize("spatial,kernel,strides,pb,pe,dil,auto_pad", CONV)
def test_convolution(spatial, kernel, strides, pb, pe, dil, auto_pad) -> None:
    x, w = rand(2, 3, *spatial), rand(4, 3, *kernel)
    m, inputs = model(lambda p: ops.convolution(p, ops.constant(w), strides, pb, pe, dil, auto_pad), x)
    check_op(m, inputs, "Convolution")


@pytest.mark.parametrize("spatial,kernel,strides,pb,pe,dil,auto_pad", CONV[1:6])
def test_group_convolution(spatial, kernel, strides, pb, pe, dil, auto_pad) -> None:
    x, w = rand(1, 6, *spatial), rand(3, 2, 2, *kernel)  # 3 groups of 2 in, 2 out channels
    m, inputs = model(lambda p: ops.group_convolution(p, ops.constant(w), strides, pb, pe, dil, auto_pad), x)
    check_op(m, inputs, "GroupConvolution")


def test_depthwise_convolution() -> None:
    x, w = rand(2, 4, 6, 6), rand(4, 1, 1, 3, 3)
    m, inputs = model(lambda p: ops.group_convolution(p, ops.constant(w), [1, 1], [1, 1], [1, 1], [1, 1]), x)
    check_op(m, inputs, "GroupConvolution")


BACKPROP = [  # spatial, kernel, strides, pads_begin, pads_end, dilations, auto_pad, output_padding, output_shape
    ((4,), (3,), [2], [0], [0], [1], "explicit", [0], None),
    ((3, 4), (3, 3), [2, 2], [1, 1], [1, 1], [1, 1], "explicit", [1, 1], None),
    ((3, 4), (2, 3), [1, 2], [0, 1], [1, 0], [2, 1], "explicit", [0, 0], None),
    ((3, 3), (3, 3), [2, 2], [0, 0], [0, 0], [1, 1], "same_upper", [0, 0], [6, 5]),
    ((3, 3), (3, 3), [2, 2], [0, 0], [0, 0], [1, 1], "same_lower", [0, 0], [6, 5]),
    ((3, 3), (3, 2), [2, 1], [0, 0], [0, 0], [1, 1], "valid", [0, 0], None),
    ((3, 3), (3, 3), [2, 2], [1, 0], [0, 1], [1, 1], "explicit", [0, 0], [7, 6]),
    ((2, 3, 2), (2, 2, 3), [2, 1, 2], [0, 1, 1], [1, 0, 0], [1, 2, 1], "explicit", [1, 0, 1], None),
]


def _backprop(fn, w, strides, pb, pe, dil, auto_pad, out_pad, out_shape):
    def build(p):
        shape = None if out_shape is None else ops.constant(np.array(out_shape, np.int64))
        return fn(p, ops.constant(w), output_shape=shape, strides=strides, pads_begin=pb, pads_end=pe,
                  dilations=dil, auto_pad=auto_pad, output_padding=out_pad)
    return build


@pytest.mark.parametrize("spatial,kernel,strides,pb,pe,dil,auto_pad,out_pad,out_shape", BACKPROP)
def test_convolution_backprop_data(spatial, kernel, strides, pb, pe, dil, auto_pad, out_pad, out_shape) -> None:
    x, w = rand(2, 3, *spatial), rand(3, 2, *kernel)
    m, inputs = model(_backprop(ops.convolution_backprop_data, w, strides, pb, pe, dil, auto_pad, out_pad,
                                out_shape), x)
    check_op(m, inputs, "ConvolutionBackpropData")


@pytest.mark.parametrize("spatial,kernel,strides,pb,pe,dil,auto_pad,out_pad,out_shape", BACKPROP[1:7])
def test_group_convolution_backprop_data(spatial, kernel, strides, pb, pe, dil, auto_pad, out_pad,
                                         out_shape) -> None:
    x, w = rand(1, 4, *spatial), rand(2, 2, 3, *kernel)  # 2 groups: 2 in, 3 out channels each
    m, inputs = model(_backprop(ops.group_convolution_backprop_data, w, strides, pb, pe, dil, auto_pad, out_pad,
                                out_shape), x)
    check_op(m, inputs, "GroupConvolutionBackpropData")


def _bound(type_name: str, data: dict[str, str]):
    op = lookup(type_name, "opset1")
    attrs, problems = bind_attrs(op.Attrs, data)
    assert not problems
    return op, attrs


CONV_ATTRS = {"strides": "2,2", "dilations": "1,1", "pads_begin": "1,1", "pads_end": "1,1", "auto_pad": "explicit"}


def test_convolution_shapes_with_dynamic_dims() -> None:
    op, attrs = _bound("Convolution", CONV_ATTRS)
    data = TensorInfo(F32, (DYNAMIC, Dim.of(3), Dim(5, 9), DYNAMIC))
    (out,) = op.infer(attrs, [data, TensorInfo(F32, static_shape((8, 3, 3, 3)))])
    assert out.shape == (DYNAMIC, Dim.of(8), Dim(3, 5), Dim(1, None))
    (out,) = op.infer(attrs, [TensorInfo(F32, None), TensorInfo(F32, static_shape((8, 3, 3, 3)))])
    assert out.shape is None


def test_convolution_rejects_bad_inputs() -> None:
    op, attrs = _bound("Convolution", CONV_ATTRS)
    with pytest.raises(OpError, match="channels"):
        op.infer(attrs, [TensorInfo(F32, static_shape((1, 4, 5, 5))), TensorInfo(F32, static_shape((8, 3, 3, 3)))])
    with pytest.raises(OpError, match="larger than the padded input"):
        op.infer(attrs, [TensorInfo(F32, static_shape((1, 3, 1, 5))), TensorInfo(F32, static_shape((8, 3, 5, 3)))])
    with pytest.raises(OpError, match="ranks"):
        op.infer(attrs, [TensorInfo(F32, static_shape((1, 3, 5))), TensorInfo(F32, static_shape((8, 3, 3, 3)))])
    bad, problems = bind_attrs(op.Attrs, {**CONV_ATTRS, "strides": "2"})
    assert bad is not None and not problems
    with pytest.raises(OpError, match="strides has 1 values"):
        op.infer(bad, [TensorInfo(F32, static_shape((1, 3, 5, 5))), TensorInfo(F32, static_shape((8, 3, 3, 3)))])


def test_backprop_output_shape_input_unknown_gives_dynamic_spatial() -> None:
    op, attrs = _bound("ConvolutionBackpropData", CONV_ATTRS)
    x, w = TensorInfo(F32, static_shape((1, 3, 4, 4))), TensorInfo(F32, static_shape((3, 5, 3, 3)))
    (out,) = op.infer(attrs, [x, w, TensorInfo(None, static_shape((2,)))])
    assert out.shape == (Dim.of(1), Dim.of(5), DYNAMIC, DYNAMIC)
    (out,) = op.infer(attrs, [x, w])
    assert out.shape == static_shape((1, 5, 7, 7))
