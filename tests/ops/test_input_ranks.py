"""Ranks of the small integer inputs (target shapes, axes, begin/end, split lengths): irlint's shape
functions refuse the ranks OpenVINO's validate_and_infer_types refuses, and accept those it accepts.

Each case builds the op with the openvino API, the input under test a Parameter of the given shape
(OpenVINO validates as the node is made), and feeds irlint's `infer` the same shapes, with the
attributes irlint binds from a valid variant of the layer."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo
from irlint.types import Dim, element_type
from tests.opir import bound_layer

ov = pytest.importorskip("openvino")


def _ops():
    import openvino.opset13 as ops

    return ops


def _i64(shape, name="a"):
    return _ops().parameter(shape, np.int64, name=name)


def _x():
    return _ops().parameter([2, 3, 4], np.float32, name="x")


def _c(values):
    return _ops().constant(np.array(values, np.int64))


# name: (layer type, build(shape) -> node, index of the input under test, a shape OpenVINO accepts)
BUILDERS = {
    "Reshape.shape": ("Reshape", lambda s: _ops().reshape(_ops().parameter([6], np.float32, name="x"), _i64(s), False),
                      1, [2]),
    "Broadcast.target_shape": ("Broadcast", lambda s: _ops().broadcast(_x(), _i64(s)), 1, [3]),
    "Roll.axes": ("Roll", lambda s: _ops().roll(_x(), _c([1]), _i64(s)), 2, [1]),
    "Roll.shift": ("Roll", lambda s: _ops().roll(_x(), _i64(s), _c([0])), 1, [1]),
    "StridedSlice.begin": ("StridedSlice", lambda s: _ops().strided_slice(_x(), _i64(s), _c([1]), _c([1]), [0], [0]),
                           1, [1]),
    "Slice.start": ("Slice", lambda s: _ops().slice(_x(), _i64(s), _c([1]), _c([1])), 1, [1]),
    "Slice.axes": ("Slice", lambda s: _ops().slice(_x(), _c([0]), _c([1]), _c([1]), _i64(s)), 4, [1]),
    "VariadicSplit.axis": ("VariadicSplit", lambda s: _ops().variadic_split(_x(), _i64(s), _c([1, 1])), 1, []),
    "VariadicSplit.split_lengths": ("VariadicSplit",
                                    lambda s: _ops().variadic_split(_x(), _ops().constant(np.int64(0)), _i64(s)), 2,
                                    [2]),
    "ReduceSum.axes": ("ReduceSum", lambda s: _ops().reduce_sum(_x(), _i64(s), False), 1, [1]),
    "ReduceMax.axes": ("ReduceMax", lambda s: _ops().reduce_max(_x(), _i64(s), False), 1, [1]),
    "ScatterUpdate.axis": ("ScatterUpdate", lambda s: _ops().scatter_update(
        _x(), _c([0]), _ops().parameter([1, 3, 4], np.float32, name="u"), _i64(s)), 3, []),
    "Squeeze.axes": ("Squeeze", lambda s: _ops().squeeze(_ops().parameter([1, 3, 1], np.float32, name="x"), _i64(s)),
                     1, [1]),
}

REFUSED = [  # (case, shape, OpenVINO's message)
    ("Reshape.shape", [1, 2], "Pattern shape must have rank 1"),
    ("Reshape.shape", [], "Pattern shape must have rank 1"),
    ("Broadcast.target_shape", [], "Broadcast shape rank must be 1, but has 0"),
    ("Roll.axes", [], "axes must be a 1D tensor"),
    ("StridedSlice.begin", [], "Begin input must be 1D"),
    ("Slice.start", [], "Slice `start` input must be a 1D tensor"),
    ("Slice.axes", [], "Slice `axes` input must be a 1D tensor"),
    ("VariadicSplit.axis", [1, 1], "Axis should be a scalar or of shape"),
    ("VariadicSplit.split_lengths", [], "Split lengths should be a 1-D tensor"),
    ("ReduceSum.axes", [1, 1], "Axes input must be a scalar or 1D input"),
    ("ReduceMax.axes", [1, 1], "Axes input must be a scalar or 1D input"),
    ("ScatterUpdate.axis", [1, 1], "Axis input shape is required to be scalar or 1D tensor"),
    ("Squeeze.axes", [1, 1], "should not be of rank higher than 1"),
]
ACCEPTED = [("Roll.shift", []), ("Squeeze.axes", []), ("ReduceSum.axes", []), ("VariadicSplit.axis", [1]),
            ("Reshape.shape", [2])]


def _irlint_infer(case: str, shape: list[int]) -> None:
    """irlint's shape function on the layer with input `index` of `shape` (raises OpError if refused)."""
    type_name, build, index, good = BUILDERS[case]
    node = build(good)
    params = [n.input_value(i).get_node() for n in [node] for i in range(n.get_input_size())
              if n.input_value(i).get_node().get_type_name() == "Parameter"]
    model = ov.Model([_ops().result(o) for o in node.outputs()], params)
    bound, op, attrs = bound_layer(model, type_name)
    infos = []
    for i in range(bound.get_input_size()):
        src = bound.input_value(i).get_node()
        value = src.get_data() if src.get_type_name() == "Constant" else None
        dims = shape if i == index else [d.get_length() for d in bound.get_input_partial_shape(i)]
        infos.append(TensorInfo(element_type(bound.get_input_element_type(i).get_type_name()),
                                tuple(Dim(d, d) for d in dims), value))
    op.infer(attrs, infos)


@pytest.mark.parametrize("case,shape,message", REFUSED, ids=[f"{c}-{s}" for c, s, _ in REFUSED])
def test_a_rank_openvino_refuses_is_refused(case: str, shape: list[int], message: str) -> None:
    with pytest.raises(Exception, match=message.replace("(", r"\(")):
        BUILDERS[case][1](shape)
    with pytest.raises(OpError):
        _irlint_infer(case, shape)


@pytest.mark.parametrize("case,shape", ACCEPTED, ids=[f"{c}-{s}" for c, s in ACCEPTED])
def test_a_rank_openvino_accepts_is_accepted(case: str, shape: list[int]) -> None:
    BUILDERS[case][1](shape)
    _irlint_infer(case, shape)
