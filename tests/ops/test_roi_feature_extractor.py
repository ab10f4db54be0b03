"""ExperimentalDetectronROIFeatureExtractor-6 against OpenVINO's CPU plugin (node factory)."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import F32, static_shape
from tests.opcheck import check_op
from tests.opdyn import check_infer

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset6")
factory = pytest.importorskip("openvino.utils.node_factory")

RNG = np.random.default_rng(7)
NAME = "ExperimentalDetectronROIFeatureExtractor"
# Boxes spread over the levels (sqrt(area) around 56, 112, 224, 448), one outside, one without area.
ROIS = np.array([[0, 0, 50, 60], [10, 20, 120, 130], [5, 5, 230, 240], [0, 0, 500, 400], [30, 40, 30, 90],
                 [100, 90, 180, 170], [-20, -10, 60, 40], [400, 300, 700, 600]], np.float32)


def _model(attrs, shapes):
    params = [ops.parameter(list(ROIS.shape), np.float32, name="rois")]
    params += [ops.parameter(s, np.float32, name=f"f{i}") for i, s in enumerate(shapes)]
    node = factory.NodeFactory("opset6").create(NAME, [p.output(0) for p in params], attrs)
    return ov.Model([ops.result(node.output(0), name="y0"), ops.result(node.output(1), name="y1")], params)


@pytest.mark.parametrize("size,ratio,aligned", [(3, 2, False), (2, 0, False), (4, 1, True), (3, 0, True)])
def test_extract(size, ratio, aligned) -> None:
    scales = [4, 8, 16, 32]
    shapes = [[1, 3, 128 // s, 160 // s] for s in scales]
    attrs = {"output_size": size, "sampling_ratio": ratio, "pyramid_scales": scales, "aligned": aligned}
    feed = {"rois": ROIS, **{f"f{i}": RNG.standard_normal(s).astype(np.float32) for i, s in enumerate(shapes)}}
    check_op(_model(attrs, shapes), feed, NAME, rtol=1e-4, atol=1e-4)


def test_partial_shapes_and_errors() -> None:
    attrs = {"output_size": 2, "sampling_ratio": 2, "pyramid_scales": [4, 8], "aligned": False}
    params = [ops.parameter(ov.PartialShape("[?,4]"), np.float32, name="rois"),
              ops.parameter(ov.PartialShape("[1,5,?,?]"), np.float32, name="f0"),
              ops.parameter(ov.PartialShape("[1,5,?,?]"), np.float32, name="f1")]
    node = factory.NodeFactory("opset6").create(NAME, [p.output(0) for p in params], attrs)
    check_infer(ov.Model([ops.result(node.output(0), name="y")], params), NAME)
    op = lookup(NAME, "opset6")
    bad, _ = bind_attrs(op.Attrs, {"output_size": "2", "sampling_ratio": "2", "pyramid_scales": "4,8,16"})
    with pytest.raises(OpError, match="3 pyramid scales for 2"):
        op.infer(bad, [TensorInfo(F32, static_shape([3, 4]))] * 3)
