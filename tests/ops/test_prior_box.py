"""PriorBox-1/8 and PriorBoxClustered-1 against OpenVINO's CPU plugin over SSD-style attribute sets."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import F32, I32, I64, static_shape
from tests.opcheck import check_op
from tests.opdyn import check_infer

ov = pytest.importorskip("openvino")
ops8 = pytest.importorskip("openvino.opset8")
ops1 = pytest.importorskip("openvino.opset1")

BASE = {"offset": 0.5, "variance": [0.1, 0.1, 0.2, 0.2]}
PRIOR_BOX = [
    {"min_size": [30.0], "max_size": [60.0], "aspect_ratio": [2.0], "flip": True, "clip": False, "step": 8.0},
    {"min_size": [30.0], "max_size": [60.0], "aspect_ratio": [2.0, 3.0], "flip": True, "clip": True, "step": 0.0},
    {"min_size": [20.0, 40.0], "max_size": [50.0], "aspect_ratio": [0.5], "flip": False, "clip": False,
     "step": 16.0, "variance": [0.1]},
    {"min_size": [0.2], "aspect_ratio": [2.0], "flip": True, "scale_all_sizes": False, "step": 0.0},
    {"min_size": [0.1, 0.3], "aspect_ratio": [2.0, 0.5], "flip": True, "scale_all_sizes": False, "step": 0.25},
    {"fixed_size": [16.0], "density": [2.0], "aspect_ratio": [2.0], "flip": False, "step": 8.0},
    {"fixed_size": [16.0], "density": [2.0], "fixed_ratio": [1.0, 2.0], "aspect_ratio": [2.0], "step": 16.0},
    {"min_size": [30.0], "max_size": [60.0], "aspect_ratio": [2.0], "flip": True, "step": 8.0,
     "min_max_aspect_ratios_order": False},
]


def _model(fn, attrs, hw, image=(32, 48), dtype=np.int64, param_layer=False):
    img = ops8.parameter([2], dtype, name="img")
    layer = ops8.parameter([2], dtype, name="hw") if param_layer else ops8.constant(np.array(hw, dtype))
    params = [layer, img] if param_layer else [img]
    model = ov.Model([ops8.result(fn(layer, img, attrs), name="y")], params)
    feed = {"img": np.array(image, dtype)}
    if param_layer:
        feed["hw"] = np.array(hw, dtype)
    return model, feed


@pytest.mark.parametrize("attrs", PRIOR_BOX, ids=range(len(PRIOR_BOX)))
def test_prior_box_8(attrs) -> None:
    model, feed = _model(ops8.prior_box, {**BASE, **attrs}, (3, 4))
    check_op(model, feed, "PriorBox")


@pytest.mark.parametrize("attrs", [a for a in PRIOR_BOX if "min_max_aspect_ratios_order" not in a][:4])
def test_prior_box_1(attrs) -> None:
    model, feed = _model(ops1.prior_box, {**BASE, **attrs}, (2, 3), image=(40, 30), dtype=np.int32)
    check_op(model, feed, "PriorBox")


def test_prior_box_layer_from_a_parameter() -> None:
    model, feed = _model(ops8.prior_box, {**BASE, **PRIOR_BOX[0]}, (2, 2), param_layer=True)
    check_op(model, feed, "PriorBox")


CLUSTERED = [
    {"width": [10.0, 20.0], "height": [15.0, 5.0], "clip": True, "offset": 0.5},
    {"width": [30.0], "height": [40.0], "clip": False, "offset": 0.25, "step_widths": 8.0, "step_heights": 12.0},
    {"width": [8.0, 16.0, 24.0], "height": [8.0, 4.0, 30.0], "clip": False, "offset": 0.5, "step": 10.0,
     "variance": [0.1]},
]


@pytest.mark.parametrize("attrs", CLUSTERED, ids=range(len(CLUSTERED)))
def test_prior_box_clustered(attrs) -> None:
    model, feed = _model(ops1.prior_box_clustered, {"variance": [0.1, 0.1, 0.2, 0.2], **attrs}, (3, 2))
    check_op(model, feed, "PriorBoxClustered")


def test_partial_shapes_and_errors() -> None:
    model, _ = _model(ops8.prior_box, {**BASE, **PRIOR_BOX[1]}, (2, 2), param_layer=True)
    check_infer(model, "PriorBox")
    model, _ = _model(ops8.prior_box, {**BASE, **PRIOR_BOX[1]}, (5, 7))
    check_infer(model, "PriorBox")
    op = lookup("PriorBoxClustered", "opset1")
    attrs, _ = bind_attrs(op.Attrs, {"width": "1,2", "height": "3"})
    with pytest.raises(OpError, match="width has 2"):
        op.infer(attrs, [TensorInfo(I64, static_shape([2])), TensorInfo(I64, static_shape([2]))])
    op = lookup("PriorBox", "opset8")
    attrs, _ = bind_attrs(op.Attrs, {"min_size": "2"})
    with pytest.raises(OpError, match="2 elements"):
        op.infer(attrs, [TensorInfo(I32, static_shape([3])), TensorInfo(I32, static_shape([2]))])
    with pytest.raises(OpError, match="integer"):
        op.infer(attrs, [TensorInfo(F32, static_shape([2])), TensorInfo(I32, static_shape([2]))])
    # OpenVINO counts fixed_ratio boxes one way and generates them another: refuse rather than overflow.
    attrs, _ = bind_attrs(op.Attrs, {"fixed_size": "16,32", "density": "2,1", "fixed_ratio": "1,2"})
    assert op.infer(attrs, [TensorInfo(I64, static_shape([2]), np.array([3, 4])),
                            TensorInfo(I64, static_shape([2]))])[0].shape == static_shape([2, 3 * 4 * 4 * 8])
    with pytest.raises(OpError, match="generate 10 boxes per cell"):
        op.compute(attrs, [np.array([3, 4]), np.array([32, 32])])
    with pytest.raises(OpError, match="integer"):
        op.infer(attrs, [TensorInfo(F32, static_shape([2])), TensorInfo(I32, static_shape([2]))])


def test_clustered_partial_shapes() -> None:
    model, _ = _model(ops1.prior_box_clustered, {"variance": [0.1], **CLUSTERED[0]}, (2, 2), param_layer=True)
    check_infer(model, "PriorBoxClustered")
    model, _ = _model(ops1.prior_box_clustered, {"variance": [0.1], **CLUSTERED[2]}, (4, 3))
    check_infer(model, "PriorBoxClustered")


def test_a_float_offset_attribute_loads(tmp_path) -> None:
    # PriorBox's `offset` is a float: only a Const's offset/size are .bin positions (IR004).
    import irlint

    model, _ = _model(ops1.prior_box_clustered, {"variance": [0.1], **CLUSTERED[0]}, (2, 2))
    ov.save_model(model, str(tmp_path / "m.xml"))
    assert not [d for d in irlint.check(str(tmp_path / "m.xml")) if d.code == "IR004"]
