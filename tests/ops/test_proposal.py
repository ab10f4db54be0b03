"""Proposal-1/4 against OpenVINO's CPU plugin: Caffe and TensorFlow anchors, clipping, normalisation."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.ops.detection.proposal import anchors
from irlint.types import F32, static_shape
from tests.opcheck import check_op
from tests.opdyn import check_infer

ov = pytest.importorskip("openvino")
ops1 = pytest.importorskip("openvino.opset1")
ops4 = pytest.importorskip("openvino.opset4")

RNG = np.random.default_rng(44)
U = np.uint32  # the Python API wants unsigned integers for the count attributes
BASE = {"base_size": U(16), "pre_nms_topn": U(30), "post_nms_topn": U(12), "nms_thresh": 0.6, "feat_stride": U(16),
        "min_size": U(4), "ratio": [0.5, 1.0, 2.0], "scale": [2.0, 4.0]}
CASES = [
    {},
    {"framework": "tensorflow"},
    {"clip_before_nms": False, "clip_after_nms": True},
    {"normalize": True, "nms_thresh": 0.75},
    {"box_size_scale": 2.0, "box_coordinate_scale": 4.0, "min_size": U(8)},
    {"framework": "tensorflow", "normalize": True, "clip_after_nms": True},
]


def _feed(batch=2, h=4, w=5, anchors_n=6, image=(64.0, 80.0, 1.0)):
    probs = RNG.random((batch, 2 * anchors_n, h, w)).astype(np.float32)
    deltas = (RNG.standard_normal((batch, 4 * anchors_n, h, w)) * 0.3).astype(np.float32)
    return {"p": probs, "d": deltas, "i": np.array(image, np.float32)}


def _model(fn, attrs, feed, outputs=1):
    params = [ops4.parameter(list(v.shape), np.float32, name=k) for k, v in feed.items()]
    node = fn(*params, attrs)
    return ov.Model([ops4.result(node.output(k), name=f"y{k}") for k in range(outputs)], params)


@pytest.mark.parametrize("case", CASES, ids=range(len(CASES)))
def test_proposal_4(case) -> None:
    feed = _feed()
    check_op(_model(ops4.proposal, {**BASE, **case}, feed, 2), feed, "Proposal")


@pytest.mark.parametrize("case", CASES[:3], ids=range(3))
def test_proposal_1(case) -> None:
    feed = _feed(batch=1, image=(60.0, 70.0, 1.5))
    check_op(_model(ops1.proposal, {**BASE, **case}, feed), feed, "Proposal")


def test_anchors_caffe_known_values() -> None:
    # py-faster-rcnn's generate_anchors(base_size=16, ratios=[0.5, 1, 2], scales=[8]) first rows.
    attrs, _ = bind_attrs(lookup("Proposal", "opset4").Attrs, {
        "base_size": "16", "pre_nms_topn": "1", "post_nms_topn": "1", "nms_thresh": "0.5", "feat_stride": "16",
        "min_size": "1", "ratio": "0.5,1,2", "scale": "8"})
    np.testing.assert_array_equal(anchors(attrs), [[-84, -40, 99, 55], [-56, -56, 71, 71], [-36, -80, 51, 95]])


def test_partial_shapes_and_errors() -> None:
    p = ops4.parameter(ov.PartialShape("[?,12,?,?]"), np.float32, name="p")
    d = ops4.parameter(ov.PartialShape("[?,24,?,?]"), np.float32, name="d")
    i = ops4.parameter([3], np.float32, name="i")
    check_infer(ov.Model([ops4.result(ops4.proposal(p, d, i, BASE).output(0), name="y")], [p, d, i]), "Proposal")
    op = lookup("Proposal", "opset4")
    attrs, _ = bind_attrs(op.Attrs, {k: ",".join(map(str, v)) if isinstance(v, list) else str(v)
                                     for k, v in BASE.items()})
    with pytest.raises(OpError, match="need 12"):
        op.infer(attrs, [TensorInfo(F32, static_shape([1, 10, 4, 4])), TensorInfo(F32, static_shape([1, 24, 4, 4])),
                         TensorInfo(F32, static_shape([3]))])


def test_fewer_boxes_than_post_nms_topn_end_with_a_marker() -> None:
    feed = _feed(batch=2)
    attrs = {**BASE, "nms_thresh": 0.3, "post_nms_topn": U(40)}
    (rois,) = check_op(_model(ops1.proposal, attrs, feed), feed, "Proposal")
    assert (rois[:, 0] == -1).sum() == 2  # one marker per image, zero rows after it
