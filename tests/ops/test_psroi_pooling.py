"""PSROIPooling-1 (average and bilinear) against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import F32, static_shape
from tests.opcheck import check_op
from tests.opdyn import check_infer

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

RNG = np.random.default_rng(5)
ROIS = np.array([[0, 0, 0, 7, 5], [1, 1.5, 2.5, 6.2, 5.5], [0, 2, 1, 3, 2], [1, 0.4, 0.6, 15.0, 11.0],
                 [0, 5, 4, 2, 1]], np.float32)


def _model(x, rois, mode, dim, group, scale, bx=1, by=1, xs=None, rs=None):
    f = ops.parameter(list(x.shape) if xs is None else xs, np.float32, name="f")
    r = ops.parameter(list(rois.shape) if rs is None else rs, np.float32, name="r")
    node = ops.psroi_pooling(f, r, dim, group, scale, bx, by, mode)
    return ov.Model([ops.result(node, name="y")], [f, r])


@pytest.mark.parametrize("dim,group,scale", [(2, 2, 1.0), (1, 3, 1.0), (3, 1, 0.5), (2, 3, 0.5)])
def test_average(dim, group, scale) -> None:
    x = RNG.standard_normal((2, dim * group * group, 6, 8)).astype(np.float32)
    check_op(_model(x, ROIS, "average", dim, group, scale), {"f": x, "r": ROIS}, "PSROIPooling")


@pytest.mark.parametrize("dim,group,bx,by,scale", [(2, 2, 2, 2, 0.125), (1, 3, 1, 2, 0.1), (3, 1, 2, 1, 0.0625),
                                                   (2, 2, 1, 1, 0.125)])
def test_bilinear(dim, group, bx, by, scale) -> None:
    x = RNG.standard_normal((2, dim * bx * by, 6, 8)).astype(np.float32)
    check_op(_model(x, ROIS, "bilinear", dim, group, scale, bx, by), {"f": x, "r": ROIS}, "PSROIPooling")


def test_partial_shapes_and_errors() -> None:
    x = np.zeros((1, 8, 4, 4), np.float32)
    check_infer(_model(x, ROIS, "average", 2, 2, 1.0, xs=ov.PartialShape("[?,8,?,?]"), rs=ov.PartialShape("[?,5]")),
                "PSROIPooling")
    op = lookup("PSROIPooling", "opset1")
    attrs, _ = bind_attrs(op.Attrs, {"output_dim": "2", "group_size": "2", "spatial_scale": "1", "mode": "average"})
    with pytest.raises(OpError, match="needs 8 input channels"):
        op.infer(attrs, [TensorInfo(F32, static_shape([1, 6, 4, 4])), TensorInfo(F32, static_shape([1, 5]))])
    with pytest.raises(OpError, match="negative"):
        op.compute(attrs, [x, np.array([[0, -1, 0, 2, 2]], np.float32)])


def test_end_marker_zeroes_the_remaining_rows() -> None:
    x = RNG.standard_normal((2, 8, 6, 8)).astype(np.float32)
    rois = np.concatenate([ROIS[:2], [[-1, 0, 0, 0, 0]], ROIS[2:3]]).astype(np.float32)
    (out,) = check_op(_model(x, rois, "average", 2, 2, 1.0), {"f": x, "r": rois}, "PSROIPooling")
    assert not out[2:].any()
