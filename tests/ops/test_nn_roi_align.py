"""ROIAlign-3/9 against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, I32, Dim, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
o3 = pytest.importorskip("openvino.opset3")
o9 = pytest.importorskip("openvino.opset9")

RNG = np.random.default_rng(37)
DATA = RNG.standard_normal((2, 3, 8, 10)).astype(np.float32)
ROIS = np.array([[0.5, 1.0, 6.2, 5.5], [2.0, 2.0, 2.4, 2.3], [-3.0, -2.0, 4.0, 9.5], [7.0, 1.0, 12.0, 14.0],
                 [1.0, 0.0, 9.0, 7.0]], np.float32)
BATCH = np.array([0, 1, 1, 0, 1], np.int32)


def _model(opset, mode, sampling, scale, pooled=(3, 2), **kw):
    p = opset.parameter(list(DATA.shape), np.float32, name="x")
    node = opset.roi_align(p, opset.constant(ROIS), opset.constant(BATCH), pooled[0], pooled[1], sampling, scale,
                           mode, **kw)
    return ov.Model([opset.result(node, name="y")], [p]), {"x": DATA}


@pytest.mark.parametrize("mode", ["avg", "max"])
@pytest.mark.parametrize("sampling,scale", [(2, 1.0), (0, 1.0), (1, 0.5), (3, 0.75)])
def test_roi_align_v3(mode, sampling, scale) -> None:
    m, inputs = _model(o3, mode, sampling, scale)
    check_op(m, inputs, "ROIAlign", rtol=2e-4, atol=2e-5)


@pytest.mark.parametrize("mode", ["avg", "max"])
@pytest.mark.parametrize("aligned", ["asymmetric", "half_pixel_for_nn", "half_pixel"])
@pytest.mark.parametrize("sampling", [0, 2])
def test_roi_align_v9(mode, aligned, sampling) -> None:
    m, inputs = _model(o9, mode, sampling, 0.8, pooled=(2, 4), aligned_mode=aligned)
    check_op(m, inputs, "ROIAlign", rtol=2e-4, atol=2e-5)


def test_roi_align_shapes_and_errors() -> None:
    op = lookup("ROIAlign", "opset9")
    attrs, _ = bind_attrs(op.Attrs, {"pooled_h": "3", "pooled_w": "2", "sampling_ratio": "2", "spatial_scale": "1",
                                     "mode": "avg", "aligned_mode": "half_pixel"})
    (out,) = op.infer(attrs, [TensorInfo(F32, (DYNAMIC, Dim.of(5), DYNAMIC, DYNAMIC)),
                              TensorInfo(F32, (DYNAMIC, Dim.of(4))), TensorInfo(I32, static_shape((7,)))])
    assert out.shape == (Dim.of(7), Dim.of(5), Dim.of(3), Dim.of(2))
    with pytest.raises(OpError, match="number of boxes"):
        op.infer(attrs, [TensorInfo(F32, None), TensorInfo(F32, static_shape((3, 4))),
                         TensorInfo(I32, static_shape((7,)))])
    with pytest.raises(OpError, match="batch index 5"):
        op.compute(attrs, [DATA, ROIS[:1], np.array([5], np.int32)])
    v3 = lookup("ROIAlign", "opset3")
    with pytest.raises(OpError, match="aligned_mode"):
        v3.infer(attrs, [TensorInfo(F32, None)] * 3)
