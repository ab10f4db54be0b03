"""ExperimentalDetectronGenerateProposalsSingleImage-6 against OpenVINO's CPU plugin (node factory)."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import F32, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset6")
factory = pytest.importorskip("openvino.utils.node_factory")

RNG = np.random.default_rng(61)
A, H, W = 3, 4, 5
NAME = "ExperimentalDetectronGenerateProposalsSingleImage"


def _feed(image=(50.0, 60.0, 1.0)):
    xy = RNG.random((H * W * A, 2)).astype(np.float32) * 40
    wh = RNG.random((H * W * A, 2)).astype(np.float32) * 20 + 2
    return {"info": np.array(image, np.float32), "anchors": np.concatenate([xy, xy + wh], axis=1),
            "deltas": (RNG.standard_normal((A * 4, H, W)) * 0.4).astype(np.float32),
            "scores": RNG.random((A, H, W)).astype(np.float32)}


@pytest.mark.parametrize("attrs", [
    {"min_size": 0.0, "nms_threshold": 0.7, "post_nms_count": 20, "pre_nms_count": 40},
    {"min_size": 2.0, "nms_threshold": 0.5, "post_nms_count": 10, "pre_nms_count": 60},
    {"min_size": 1.0, "nms_threshold": 0.9, "post_nms_count": 30, "pre_nms_count": 35},
])
def test_proposals(attrs) -> None:
    feed = _feed()
    params = [ops.parameter(list(v.shape), np.float32, name=k) for k, v in feed.items()]
    node = factory.NodeFactory("opset6").create(NAME, [p.output(0) for p in params], attrs)
    model = ov.Model([ops.result(node.output(0), name="rois"), ops.result(node.output(1), name="scores")], params)
    check_op(model, feed, NAME)


def test_errors() -> None:
    op = lookup(NAME, "opset6")
    attrs, _ = bind_attrs(op.Attrs, {"min_size": "0", "nms_threshold": "0.5", "post_nms_count": "4",
                                     "pre_nms_count": "8"})
    with pytest.raises(OpError, match="rank 3"):
        op.infer(attrs, [TensorInfo(F32, static_shape([3])), TensorInfo(F32, static_shape([6, 4])),
                         TensorInfo(F32, static_shape([4, 2])), TensorInfo(F32, static_shape([1, 2, 3]))])
    with pytest.raises(OpError, match="do not match"):
        op.compute(attrs, [np.ones(3, np.float32), np.zeros((5, 4), np.float32), np.zeros((4, 2, 3), np.float32),
                           np.zeros((1, 2, 3), np.float32)])


@pytest.mark.parametrize("normalized", [True, False])
@pytest.mark.parametrize("counts", [(40, 20), (60, 8)])
def test_generate_proposals_9(normalized, counts) -> None:
    ops9 = pytest.importorskip("openvino.opset9")
    n = 2
    feeds = [_feed() for _ in range(n)]
    feed = {"info": np.array([[50.0, 60.0, 1.0], [45.0, 70.0, 1.5]], np.float32),
            "anchors": feeds[0]["anchors"].reshape(H, W, A, 4),
            "deltas": np.stack([f["deltas"] for f in feeds]), "scores": np.stack([f["scores"] for f in feeds])}
    params = [ops9.parameter(list(v.shape), np.float32, name=k) for k, v in feed.items()]
    node = ops9.generate_proposals(*params, 2.0, 0.6, counts[0], counts[1], normalized)
    model = ov.Model([ops9.result(node.output(k), name=f"y{k}") for k in range(3)], params)
    check_op(model, feed, "GenerateProposals")


def test_single_image_partial_shapes() -> None:
    from tests.opdyn import check_infer

    params = [ops.parameter(ov.PartialShape(s), np.float32, name=k) for k, s in
              (("info", "[3]"), ("anchors", "[?,4]"), ("deltas", "[12,?,?]"), ("scores", "[3,?,?]"))]
    attrs = {"min_size": 0.0, "nms_threshold": 0.7, "post_nms_count": 20, "pre_nms_count": 40}
    node = factory.NodeFactory("opset6").create(NAME, [p.output(0) for p in params], attrs)
    check_infer(ov.Model([ops.result(node.output(k), name=f"y{k}") for k in range(2)], params), NAME)
