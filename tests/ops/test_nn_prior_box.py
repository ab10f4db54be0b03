"""PriorBox-1/8 and PriorBoxClustered-1 against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, I64, Dim, static_shape
from tests.opcheck import check_op
from tests.ops.refcheck import check_reference

ov = pytest.importorskip("openvino")
o1 = pytest.importorskip("openvino.opset1")
o8 = pytest.importorskip("openvino.opset8")


def _model(fn, attrs, layer=(4, 5), image=(64, 80)):
    # The sizes come through a Parameter so that the op is not folded away.
    p = o1.parameter([2], np.int64, name="layer")
    node = fn(p, o1.constant(np.array(image, np.int64)), attrs)
    return ov.Model([o1.result(node, name="y")], [p]), {"layer": np.array(layer, np.int64)}


PRIOR_BOX = [
    {"min_size": [8.0], "max_size": [16.0], "aspect_ratio": [2.0], "flip": True, "clip": False, "step": 16.0,
     "offset": 0.5, "variance": [0.1, 0.1, 0.2, 0.2]},
    {"min_size": [8.0, 12.0], "max_size": [16.0, 20.0], "aspect_ratio": [2.0, 3.0], "flip": False, "clip": True,
     "step": 0.0, "offset": 0.5, "variance": [0.1]},
    {"min_size": [0.1, 0.2], "aspect_ratio": [2.0], "flip": True, "clip": False, "step": 0.25, "offset": 0.5,
     "scale_all_sizes": False},
    {"fixed_size": [16.0, 32.0], "density": [2.0, 1.0], "aspect_ratio": [2.0], "flip": False, "clip": True,
     "step": 16.0, "offset": 0.5},
    # One fixed_ratio only: with more, OpenVINO's shape inference counts fewer priors than its kernel writes.
    {"fixed_size": [16.0], "fixed_ratio": [2.0], "density": [3.0], "clip": False, "step": 16.0,
     "offset": 0.5, "variance": [0.1, 0.2, 0.3, 0.4]},
]


@pytest.mark.parametrize("attrs", PRIOR_BOX)
@pytest.mark.parametrize("opset", [o1, o8])
def test_prior_box(attrs, opset) -> None:
    m, inputs = _model(opset.prior_box, attrs)
    check_op(m, inputs, "PriorBox", rtol=1e-5, atol=1e-6)


def test_prior_box_v8_swaps_max_and_ratio_boxes() -> None:
    # The CPU plugin cannot compile PriorBox-8 with min_max_aspect_ratios_order=false: checked against the
    # reference kernel (Node.evaluate).
    def const_model(order: bool):
        node = o8.prior_box(o1.constant(np.array([4, 5], np.int64)), o1.constant(np.array([64, 80], np.int64)),
                            {**PRIOR_BOX[0], "min_max_aspect_ratios_order": order})
        return ov.Model([o1.result(node, name="y")], [])

    got = check_reference(const_model(False), {}, "PriorBox")
    on = check_reference(const_model(True), {}, "PriorBox")
    boxes, boxes_on = got[0][0].reshape(4, 5, 4, 4), on[0][0].reshape(4, 5, 4, 4)
    np.testing.assert_array_equal(boxes[:, :, [0, 3, 1, 2]], boxes_on)  # the max box moves behind the ratio boxes


@pytest.mark.parametrize("attrs", [
    {"width": [4.0, 9.5, 20.0], "height": [6.0, 3.0, 20.0], "clip": True, "offset": 0.5, "variance": [0.1]},
    {"width": [12.0], "height": [30.0], "clip": False, "step_widths": 10.0, "step_heights": 12.0, "offset": 0.2,
     "variance": [0.1, 0.1, 0.2, 0.2]},
    {"width": [5.0, 7.0], "height": [5.0, 9.0], "clip": False, "step": 8.0, "offset": 0.5},
])
def test_prior_box_clustered(attrs) -> None:
    m, inputs = _model(o1.prior_box_clustered, attrs)
    check_op(m, inputs, "PriorBoxClustered", rtol=1e-5, atol=1e-6)


def test_prior_box_shapes_and_errors() -> None:
    op = lookup("PriorBox", "opset8")
    attrs, _ = bind_attrs(op.Attrs, {"min_size": "8", "max_size": "16", "aspect_ratio": "2", "flip": "true"})
    image = TensorInfo(I64, static_shape((2,)), np.array([64, 80], np.int64))
    (out,) = op.infer(attrs, [TensorInfo(I64, static_shape((2,)), np.array([4, 5], np.int64)), image])
    assert out.shape == static_shape((2, 4 * 4 * 5 * 4)) and out.etype == F32
    (out,) = op.infer(attrs, [TensorInfo(I64, static_shape((2,))), image])
    assert out.shape == (Dim.of(2), DYNAMIC)
    bad, _ = bind_attrs(op.Attrs, {"min_size": "8", "variance": "0.1,0.2"})
    with pytest.raises(OpError, match="variance"):
        op.infer(bad, [TensorInfo(I64, static_shape((2,))), image])
    with pytest.raises(OpError, match="2 values"):
        op.infer(attrs, [TensorInfo(I64, static_shape((3,))), image])
