"""Pad-1/12, Reverse-1, ReverseSequence-1, Roll-7 and CumSum-3 against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, lookup
from irlint.types import F32, I64, static_shape
from tests.opcheck import check_op
from tests.opshapes import check_shapes

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset15")
ops1 = pytest.importorskip("openvino.opset1")
ops3 = pytest.importorskip("openvino.opset3")
ops12 = pytest.importorskip("openvino.opset12")


def const(v, dtype=np.int64):
    return ops.constant(np.array(v, dtype))


def data(shape, dtype=np.float32):
    a = np.arange(int(np.prod(shape))).reshape(shape) - 4
    return (a % 3 == 0) if dtype == np.bool_ else a.astype(dtype)


def model_of(build, x: np.ndarray, shape=None):
    p = ops.parameter(list(x.shape) if shape is None else shape, x.dtype, name="x")
    node = build(p)
    return ov.Model([ops.result(node.output(i), name=f"y{i}") for i in range(node.get_output_size())], [p]), {"x": x}


# ----------------------------------------------------------------------------------------------- Pad

PADS = [([1, 0, 2], [0, 2, 1]), ([0, 1, 0], [1, 0, 0]), ([2, 2, 3], [1, 2, 3])]
NEG_PADS = [([-1, 1, 0], [1, 0, -2]), ([0, -2, 1], [-1, 2, 0])]


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric"])
@pytest.mark.parametrize("begin,end", PADS + NEG_PADS)
@pytest.mark.parametrize("version", [ops1, ops12], ids=["v1", "v12"])
def test_pad(mode, begin, end, version) -> None:
    x = data([3, 3, 4])
    value = const(9.5, np.float32) if mode == "constant" else None
    build = lambda p: version.pad(p, const(begin), const(end), mode, value)  # noqa: E731
    model, inputs = model_of(build, x)
    check_op(model, inputs, "Pad")
    model, _ = model_of(build, x, [-1, 3, "2..6"])
    check_shapes(model, "Pad")


@pytest.mark.parametrize("dtype", [np.int32, np.bool_, np.int64, np.float16, np.uint8])
def test_pad_dtypes_and_default_value(dtype) -> None:
    model, inputs = model_of(lambda p: ops12.pad(p, const([1, 0]), const([0, 2]), "constant"), data([2, 3], dtype))
    check_op(model, inputs, "Pad")
    model, inputs = model_of(lambda p: ops12.pad(p, const([1, 1]), const([1, 0]), "symmetric"), data([2, 3], dtype))
    check_op(model, inputs, "Pad")


def test_pad_shape_with_unknown_pads_and_limits() -> None:
    x = ops.parameter([2, 3], np.float32, name="x")
    b = ops.parameter([2], np.int64, name="b")
    check_shapes(ov.Model([ops.result(ops12.pad(x, b, const([1, 1]), "constant"))], [x, b]), "Pad")
    op = lookup("Pad", "opset12")
    with pytest.raises(OpError, match="at most dim-1"):
        op.compute(op.Attrs("reflect"), [data([3]), np.array([3]), np.array([0])])
    op.compute(op.Attrs("symmetric"), [data([3]), np.array([3]), np.array([0])])
    with pytest.raises(OpError, match="negative size"):
        op.infer(op.Attrs("constant"), [TensorInfo(F32, static_shape([2])), TensorInfo(I64, (1,), np.array([-2])),
                                        TensorInfo(I64, (1,), np.array([-1]))])


# ------------------------------------------------------------------------------------------- Reverse

def reverse(p, axes, mode):
    from openvino.utils.node_factory import NodeFactory

    dtype = np.bool_ if mode == "mask" else np.int64
    return NodeFactory("opset1").create("Reverse", [p.output(0), const(axes, dtype).output(0)], {"mode": mode})


@pytest.mark.parametrize("axes,mode", [([0], "index"), ([2, 0], "index"), ([-1], "index"), ([], "index"),
                                       ([True, False, True], "mask"), ([False, False, False], "mask")])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.bool_])
def test_reverse(axes, mode, dtype) -> None:
    model, inputs = model_of(lambda p: reverse(p, axes, mode), data([2, 3, 4], dtype))
    check_op(model, inputs, "Reverse")
    model, _ = model_of(lambda p: reverse(p, axes, mode), data([2, 3, 4], dtype), [-1, 3, -1])
    check_shapes(model, "Reverse")


def test_reverse_checks() -> None:
    op = lookup("Reverse", "opset1")
    with pytest.raises(OpError, match="repeat"):
        op.compute(op.Attrs("index"), [data([2, 3]), np.array([1, -1])])
    with pytest.raises(OpError, match="mask has 1"):
        op.compute(op.Attrs("mask"), [data([2, 3]), np.array([True])])
    with pytest.raises(OpError, match="1-D"):
        op.compute(op.Attrs("index"), [data([2, 3]), np.array(1)])


# ----------------------------------------------------------------------------------- ReverseSequence

@pytest.mark.parametrize("batch_axis,seq_axis,lengths", [
    (0, 1, [4, 1, 0]), (1, 0, [2, 3, 1, 0]), (0, -1, [5, 2, 3]), (-3, 2, [1, 5, 4]), (2, 1, [3, 4, 1, 2, 0]),
])
@pytest.mark.parametrize("ltype", [np.int32, np.int64, np.float32])
def test_reverse_sequence(batch_axis, seq_axis, lengths, ltype) -> None:
    shape = [3, 4, 5]
    x = data(shape)
    build = lambda p: ops1.reverse_sequence(p, const(lengths, ltype), batch_axis, seq_axis)  # noqa: E731
    model, inputs = model_of(build, x)
    check_op(model, inputs, "ReverseSequence")
    model, _ = model_of(build, x, [-1, 4, -1])
    check_shapes(model, "ReverseSequence")


def test_reverse_sequence_checks() -> None:
    op = lookup("ReverseSequence", "opset1")
    with pytest.raises(OpError, match="must lie in"):
        op.compute(op.Attrs(0, 1), [data([2, 3]), np.array([4, 1])])
    with pytest.raises(OpError, match="2 elements"):
        op.infer(op.Attrs(0, 1), [TensorInfo(F32, static_shape([3, 3])), TensorInfo(I64, static_shape([2]))])


# ---------------------------------------------------------------------------------------------- Roll

@pytest.mark.parametrize("shift,axes", [(2, 0), ([1, -2], [0, 2]), ([3, 3, 3], [0, 1, 2]), ([1, 2], [1, 1]),
                                        ([-7], [-1]), ([0], [1])])
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_])
def test_roll(shift, axes, dtype) -> None:
    build = lambda p: ops.roll(p, const(shift), const(axes))  # noqa: E731
    model, inputs = model_of(build, data([2, 3, 4], dtype))
    check_op(model, inputs, "Roll")
    model, _ = model_of(build, data([2, 3, 4], dtype), [-1, -1, 4])
    check_shapes(model, "Roll")


def test_roll_i32_inputs_and_checks() -> None:
    model, inputs = model_of(lambda p: ops.roll(p, const([1, 1], np.int32), const([0, 1], np.int32)), data([3, 2]))
    check_op(model, inputs, "Roll")
    op = lookup("Roll", "opset7")
    # A scalar shift with several axes shifts each of them (the spec); the CPU plugin rejects the
    # model (docs/semantics.md), so the answer is checked against the spelled-out shifts.
    x = data([2, 3, 4])
    np.testing.assert_array_equal(op.compute(op.Attrs(), [x, np.array(3), np.array([0, 1, 2])])[0],
                                  op.compute(op.Attrs(), [x, np.array([3, 3, 3]), np.array([0, 1, 2])])[0])
    np.testing.assert_array_equal(op.compute(op.Attrs(), [x, np.array(3), np.array([0, 1, 2])])[0],
                                  np.roll(x, (1, 0, 3), (0, 1, 2)))
    with pytest.raises(OpError, match="must match"):
        op.compute(op.Attrs(), [data([3, 2]), np.array([1, 2]), np.array([0, 1, 1])])


# -------------------------------------------------------------------------------------------- CumSum

@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int64, np.float16])
def test_cumsum(exclusive, reverse, axis, dtype) -> None:
    build = lambda p: ops3.cumsum(p, const(axis), exclusive, reverse)  # noqa: E731
    model, inputs = model_of(build, data([2, 3, 4], dtype))
    check_op(model, inputs, "CumSum")
    model, _ = model_of(build, data([2, 3, 4], dtype), [-1, 3, -1])
    check_shapes(model, "CumSum")


def test_cumsum_default_axis_and_i32_axis() -> None:
    # The axis input is optional in the spec (default 0); OpenVINO's Python API always writes it.
    op = lookup("CumSum", "opset3")
    x = data([3, 2])
    got = op.compute(op.Attrs(exclusive=True), [x])[0]
    np.testing.assert_array_equal(got, np.concatenate([np.zeros((1, 2), np.float32), np.cumsum(x, 0)[:-1]]))
    model, inputs = model_of(lambda p: ops3.cumsum(p, const(1, np.int32)), x)
    check_op(model, inputs, "CumSum")
