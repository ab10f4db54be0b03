"""DeformablePSROIPooling-1 against OpenVINO's CPU plugin: with and without offsets, classes, parts."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import F32, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

RNG = np.random.default_rng(17)
ROIS = np.array([[0, 2, 3, 20, 25], [1, 0, 0, 31, 31], [0, 10.4, 5.5, 12.6, 30], [1, 25, 20, 40, 45]], np.float32)


@pytest.mark.parametrize("dim,group,bins,part,classes,std", [(2, 2, (1, 1), 1, 1, 0.1), (4, 3, (2, 2), 3, 2, 0.2),
                                                             (1, 2, (3, 2), 2, 1, 0.5), (2, 2, (2, 1), 2, None, 1.0)])
def test_pooling(dim, group, bins, part, classes, std) -> None:
    x = RNG.standard_normal((2, dim * group * group, 8, 8)).astype(np.float32)
    feed = {"x": x, "r": ROIS}
    params = [ops.parameter(list(x.shape), np.float32, name="x"), ops.parameter(list(ROIS.shape), np.float32, name="r")]
    offsets = None
    if classes is not None:
        feed["o"] = (RNG.standard_normal((len(ROIS), 2 * classes, part, part)) * 0.5).astype(np.float32)
        offsets = ops.parameter(list(feed["o"].shape), np.float32, name="o")
        params.append(offsets)
    node = ops.deformable_psroi_pooling(params[0], params[1], dim, 0.25, group, "bilinear_deformable", bins[0],
                                        bins[1], std, part, offsets)
    check_op(ov.Model([ops.result(node, name="y")], params), feed, "DeformablePSROIPooling", rtol=1e-4, atol=1e-5)


def test_errors() -> None:
    op = lookup("DeformablePSROIPooling", "opset1")
    attrs, _ = bind_attrs(op.Attrs, {"output_dim": "2", "spatial_scale": "1", "group_size": "2"})
    with pytest.raises(OpError, match="needs output_dim"):
        op.infer(attrs, [TensorInfo(F32, static_shape([1, 6, 4, 4])), TensorInfo(F32, static_shape([1, 5]))])


def test_partial_shapes() -> None:
    from tests.opdyn import check_infer

    x = ops.parameter(ov.PartialShape("[?,8,?,?]"), np.float32, name="x")
    r = ops.parameter(ov.PartialShape("[?,5]"), np.float32, name="r")
    node = ops.deformable_psroi_pooling(x, r, 2, 0.25, 2)
    check_infer(ov.Model([ops.result(node, name="y")], [x, r]), "DeformablePSROIPooling")
