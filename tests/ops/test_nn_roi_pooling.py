"""ROIPooling-2 and PSROIPooling-1 against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, Dim, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
o1 = pytest.importorskip("openvino.opset1")
o2 = pytest.importorskip("openvino.opset2")

RNG = np.random.default_rng(71)


def _model(build, x):
    p = o1.parameter(list(x.shape), np.float32, name="x")
    return ov.Model([o1.result(build(p), name="y")], [p]), {"x": x}


PIXEL_BOXES = np.array([[0, 1, 2, 8, 6], [1, 0, 0, 3, 3], [1, 4.6, 3.2, 9.4, 7.7], [0, 7, 5, 6, 4],
                        [1, -2, -1, 20, 15]], np.float32)
UNIT_BOXES = np.array([[0, 0.1, 0.2, 0.8, 0.6], [1, 0.0, 0.0, 1.0, 1.0], [1, 0.45, 0.3, 0.55, 0.9]], np.float32)


@pytest.mark.parametrize("pooled", [(2, 3), (4, 4), (1, 1)])
@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_roi_pooling_max(pooled, scale) -> None:
    x = RNG.standard_normal((2, 3, 8, 10)).astype(np.float32)
    m, inputs = _model(lambda p: o2.roi_pooling(p, o1.constant(PIXEL_BOXES), output_roi=list(pooled),
                                                spatial_scale=scale, method="max"), x)
    check_op(m, inputs, "ROIPooling")


@pytest.mark.parametrize("pooled", [(2, 3), (4, 4), (1, 1), (3, 1)])
def test_roi_pooling_bilinear(pooled) -> None:
    x = RNG.standard_normal((2, 3, 8, 10)).astype(np.float32)
    m, inputs = _model(lambda p: o2.roi_pooling(p, o1.constant(UNIT_BOXES), output_roi=list(pooled),
                                                spatial_scale=1.0, method="bilinear"), x)
    check_op(m, inputs, "ROIPooling", rtol=2e-4, atol=2e-5)


@pytest.mark.parametrize("group,dim", [(2, 3), (3, 2), (1, 4)])
@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_psroi_pooling_average(group, dim, scale) -> None:
    x = RNG.standard_normal((2, dim * group * group, 8, 10)).astype(np.float32)
    boxes = PIXEL_BOXES[:3]  # the reference reads past the map for inverted boxes: those are left out
    m, inputs = _model(lambda p: o1.psroi_pooling(p, o1.constant(boxes), dim, group, scale, 1, 1, "average"), x)
    check_op(m, inputs, "PSROIPooling", rtol=2e-4, atol=2e-5)


@pytest.mark.parametrize("group,bins", [(2, (2, 2)), (3, (1, 2)), (1, (3, 1))])
def test_psroi_pooling_bilinear(group, bins) -> None:
    dim = 2
    x = RNG.standard_normal((2, dim * bins[0] * bins[1], 8, 10)).astype(np.float32)
    m, inputs = _model(lambda p: o1.psroi_pooling(p, o1.constant(UNIT_BOXES), dim, group, 1.0, bins[0], bins[1],
                                                  "bilinear"), x)
    check_op(m, inputs, "PSROIPooling", rtol=2e-4, atol=2e-5)


def test_roi_pooling_shapes_and_errors() -> None:
    op = lookup("ROIPooling", "opset2")
    attrs, _ = bind_attrs(op.Attrs, {"pooled_h": "2", "pooled_w": "3", "spatial_scale": "1", "method": "max"})
    (out,) = op.infer(attrs, [TensorInfo(F32, (DYNAMIC, Dim.of(4), DYNAMIC, DYNAMIC)), TensorInfo(F32, None)])
    assert out.shape == (DYNAMIC, Dim.of(4), Dim.of(2), Dim.of(3))
    with pytest.raises(OpError, match="\\[R, 5\\]"):
        op.infer(attrs, [TensorInfo(F32, None), TensorInfo(F32, static_shape((3, 4)))])
    with pytest.raises(OpError, match="batch id 2"):
        op.compute(attrs, [np.zeros((2, 1, 4, 4), np.float32), np.array([[2, 0, 0, 1, 1]], np.float32)])
    ps = lookup("PSROIPooling", "opset1")
    ps_attrs, _ = bind_attrs(ps.Attrs, {"output_dim": "3", "group_size": "2", "spatial_scale": "1",
                                        "mode": "average"})
    with pytest.raises(OpError, match="needs 12"):
        ps.infer(ps_attrs, [TensorInfo(F32, static_shape((1, 10, 4, 4))), TensorInfo(F32, None)])
