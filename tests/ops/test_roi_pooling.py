"""ROIPooling-2 (max and bilinear) against OpenVINO's CPU plugin: scales, edge and malformed boxes."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import F32, static_shape
from tests.opcheck import check_op
from tests.opdyn import check_infer

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

RNG = np.random.default_rng(21)
FMAP = RNG.standard_normal((2, 3, 6, 8)).astype(np.float32)
ROIS_PIXELS = np.array([[0, 0, 0, 7, 5], [1, 2.4, 1.5, 6.6, 4.5], [0, 3, 3, 3, 3], [1, 6, 4, 2, 1],
                        [0, -4, -2, 20, 11]], np.float32)
ROIS_NORM = np.array([[0, 0, 0, 1, 1], [1, 0.1, 0.2, 0.7, 0.9], [0, 0.5, 0.5, 0.5, 0.5], [1, 0.3, 0.0, 1.0, 0.4]],
                     np.float32)


def _model(rois, pooled, scale, method, fmap_shape=None, rois_shape=None):
    f = ops.parameter(list(FMAP.shape) if fmap_shape is None else fmap_shape, np.float32, name="f")
    r = ops.parameter(list(rois.shape) if rois_shape is None else rois_shape, np.float32, name="r")
    node = ops.roi_pooling(f, r, output_roi=list(pooled), spatial_scale=scale, method=method)
    return ov.Model([ops.result(node, name="y")], [f, r])


@pytest.mark.parametrize("pooled", [(2, 2), (3, 4), (1, 1), (5, 3)])
@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_max(pooled, scale) -> None:
    model = _model(ROIS_PIXELS, pooled, scale, "max")
    check_op(model, {"f": FMAP, "r": ROIS_PIXELS}, "ROIPooling")


@pytest.mark.parametrize("pooled", [(2, 2), (3, 4), (1, 1), (1, 3)])
def test_bilinear(pooled) -> None:
    model = _model(ROIS_NORM, pooled, 1.0, "bilinear")
    check_op(model, {"f": FMAP, "r": ROIS_NORM}, "ROIPooling")


def test_partial_shapes_and_errors() -> None:
    check_infer(_model(ROIS_PIXELS, (2, 3), 1.0, "max", ov.PartialShape("[?,3,?,?]"), ov.PartialShape("[?,5]")),
                "ROIPooling")
    check_infer(_model(ROIS_PIXELS, (2, 3), 1.0, "max", ov.PartialShape("[2,?,6,8]"), ov.PartialShape("[1..9,5]")),
                "ROIPooling")
    op = lookup("ROIPooling", "opset2")
    attrs, _ = bind_attrs(op.Attrs, {"pooled_h": "2", "pooled_w": "2", "spatial_scale": "1", "method": "avg"})
    with pytest.raises(OpError, match="method"):
        op.infer(attrs, [TensorInfo(F32, static_shape([1, 1, 2, 2])), TensorInfo(F32, static_shape([1, 5]))])
    attrs, _ = bind_attrs(op.Attrs, {"pooled_h": "2", "pooled_w": "2", "spatial_scale": "1"})
    with pytest.raises(OpError, match=r"\[num_rois, 5\]"):
        op.infer(attrs, [TensorInfo(F32, static_shape([1, 1, 2, 2])), TensorInfo(F32, static_shape([1, 4]))])
    with pytest.raises(OpError, match="batch index 3"):
        op.compute(attrs, [FMAP, np.array([[3, 0, 0, 1, 1]], np.float32)])


def test_end_marker_zeroes_the_remaining_rows() -> None:
    rois = np.concatenate([ROIS_PIXELS[:2], [[-1, 0, 0, 0, 0]], ROIS_PIXELS[2:4]]).astype(np.float32)
    (out,) = check_op(_model(rois, (2, 2), 1.0, "max"), {"f": FMAP, "r": rois}, "ROIPooling")
    assert not out[2:].any()
