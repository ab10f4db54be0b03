"""ExperimentalDetectronDetectionOutput-6 against OpenVINO's CPU plugin (node factory)."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import F32, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset6")
factory = pytest.importorskip("openvino.utils.node_factory")

RNG = np.random.default_rng(66)
NAME = "ExperimentalDetectronDetectionOutput"
C = 4


def _feed(r):
    xy = RNG.random((r, 2)).astype(np.float32) * 50
    wh = RNG.random((r, 2)).astype(np.float32) * 30 + 3
    rois = np.concatenate([xy, xy + wh], axis=1)
    rois[1] = [10, 10, 5, 20]  # no extent: skipped
    return {"rois": rois, "deltas": (RNG.standard_normal((r, 4 * C)) * 0.3).astype(np.float32),
            "scores": RNG.random((r, C)).astype(np.float32), "info": np.array([[80.0, 90.0, 1.0]], np.float32)}


@pytest.mark.parametrize("r,attrs", [
    (12, {"max_detections_per_image": 12, "post_nms_count": 5, "score_threshold": 0.3, "nms_threshold": 0.5}),
    (15, {"max_detections_per_image": 10, "post_nms_count": 8, "score_threshold": 0.05, "nms_threshold": 0.7}),
    (8, {"max_detections_per_image": 20, "post_nms_count": 8, "score_threshold": 0.05, "nms_threshold": 0.7}),
    (12, {"max_detections_per_image": 12, "post_nms_count": 2, "score_threshold": 0.2, "nms_threshold": 0.3,
          "deltas_weights": [10.0, 10.0, 5.0, 5.0]}),
    (12, {"max_detections_per_image": 12, "post_nms_count": 4, "score_threshold": 0.1, "nms_threshold": 0.5,
          "class_agnostic_box_regression": True}),
])
def test_detection_output(r, attrs) -> None:
    full = {"num_classes": C, "max_delta_log_wh": 2.0, "class_agnostic_box_regression": False,
            "deltas_weights": [1.0, 1.0, 1.0, 1.0], **attrs}
    feed = _feed(r)
    params = [ops.parameter(list(v.shape), np.float32, name=k) for k, v in feed.items()]
    node = factory.NodeFactory("opset6").create(NAME, [p.output(0) for p in params], full)
    model = ov.Model([ops.result(node.output(k), name=f"y{k}") for k in range(3)], params)
    check_op(model, feed, NAME)


def test_errors() -> None:
    op = lookup(NAME, "opset6")
    attrs, _ = bind_attrs(op.Attrs, {"score_threshold": "0.1", "nms_threshold": "0.5", "max_delta_log_wh": "2",
                                     "num_classes": "3", "post_nms_count": "4", "max_detections_per_image": "5",
                                     "deltas_weights": "1,1,1"})
    with pytest.raises(OpError, match="deltas_weights"):
        op.infer(attrs, [TensorInfo(F32, static_shape([5, 4]))] * 4)


def test_partial_shapes() -> None:
    from tests.opdyn import check_infer

    attrs = {"num_classes": C, "max_delta_log_wh": 2.0, "class_agnostic_box_regression": False,
             "deltas_weights": [1.0, 1.0, 1.0, 1.0], "max_detections_per_image": 7, "post_nms_count": 3,
             "score_threshold": 0.1, "nms_threshold": 0.5}
    params = [ops.parameter(ov.PartialShape(s), np.float32, name=k) for k, s in
              (("rois", "[?,4]"), ("deltas", f"[?,{4 * C}]"), ("scores", f"[?,{C}]"), ("info", "[1,3]"))]
    node = factory.NodeFactory("opset6").create(NAME, [p.output(0) for p in params], attrs)
    check_infer(ov.Model([ops.result(node.output(k), name=f"y{k}") for k in range(3)], params), NAME)
