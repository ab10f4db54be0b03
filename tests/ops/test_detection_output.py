"""DetectionOutput-1/8 against OpenVINO's CPU plugin: code types, shared/per-class locations, top k,
keep top k, clipping, MXNet label decrease, unnormalised priors, variances in the priors or not, ARM."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import F32, static_shape
from tests.opcheck import check_op
from tests.opdyn import check_infer

ov = pytest.importorskip("openvino")
ops1 = pytest.importorskip("openvino.opset1")
ops8 = pytest.importorskip("openvino.opset8")

RNG = np.random.default_rng(33)
N, P, C = 2, 12, 4


def _priors(normalized: bool, with_var: bool, batch: int = 1) -> np.ndarray:
    xy = RNG.random((P, 2)).astype(np.float32) * 0.7
    wh = RNG.random((P, 2)).astype(np.float32) * 0.3 + 0.05
    boxes = np.concatenate([xy, xy + wh], axis=1)
    if not normalized:
        boxes = np.concatenate([np.zeros((P, 1), np.float32), boxes * 300], axis=1)
    size = boxes.shape[1]
    rows = [boxes.reshape(-1)]
    if with_var:
        var = np.zeros(P * size, np.float32)  # four variances per prior, whatever the box size
        var[:P * 4] = np.tile(np.array([0.1, 0.1, 0.2, 0.2], np.float32), P)
        rows.append(var)
    return np.tile(np.stack(rows)[None], (batch, 1, 1))


BASE = {"keep_top_k": [10], "nms_threshold": 0.45, "background_label_id": 0, "normalized": True,
        "code_type": "caffe.PriorBoxParameter.CENTER_SIZE", "share_location": True, "confidence_threshold": 0.05}
CASES = [
    {},
    {"code_type": "caffe.PriorBoxParameter.CORNER", "top_k": 5},
    {"share_location": False, "keep_top_k": [-1], "top_k": 4},
    {"clip_before_nms": True, "clip_after_nms": True, "nms_threshold": 0.2},
    {"decrease_label_id": True, "keep_top_k": [6]},
    {"normalized": False, "input_height": 300, "input_width": 300},
    {"variance_encoded_in_target": True, "background_label_id": -1},
    {"keep_top_k": [3], "confidence_threshold": 0.3},
]


def _inputs(attrs: dict, arm: bool = False):
    loc_classes = 1 if attrs.get("share_location", True) else C
    loc = (RNG.standard_normal((N, P * loc_classes * 4)) * 0.5).astype(np.float32)
    conf = RNG.random((N, P, C)).astype(np.float32)
    conf = (conf / conf.sum(axis=2, keepdims=True)).reshape(N, P * C)
    pri = _priors(attrs.get("normalized", True), not attrs.get("variance_encoded_in_target", False))
    feed = {"loc": loc, "conf": conf, "pri": pri}
    if arm:
        feed["aconf"] = RNG.random((N, P * 2)).astype(np.float32)
        feed["aloc"] = (RNG.standard_normal((N, P * 4)) * 0.3).astype(np.float32)
    return feed


def _model(fn, attrs: dict, feed: dict):
    params = {k: ops8.parameter(list(v.shape), np.float32, name=k) for k, v in feed.items()}
    extra = [params["aconf"], params["aloc"]] if "aconf" in params else []
    node = fn(params["loc"], params["conf"], params["pri"], attrs, *extra)
    return ov.Model([ops8.result(node, name="y")], list(params.values()))


@pytest.mark.parametrize("case", CASES, ids=range(len(CASES)))
def test_opset8(case) -> None:
    attrs = {**BASE, **case}
    feed = _inputs(attrs)
    check_op(_model(ops8.detection_output, attrs, feed), feed, "DetectionOutput")


@pytest.mark.parametrize("case", CASES[:4], ids=range(4))
def test_opset1(case) -> None:
    attrs = {**BASE, **case, "num_classes": C}
    feed = _inputs(attrs)
    check_op(_model(ops1.detection_output, attrs, feed), feed, "DetectionOutput")


def test_arm_inputs() -> None:
    attrs = {**BASE, "objectness_score": 0.4}
    feed = _inputs(attrs, arm=True)
    check_op(_model(ops8.detection_output, attrs, feed), feed, "DetectionOutput")


def test_partial_shapes_and_errors() -> None:
    for case in ({}, {"keep_top_k": [-1], "top_k": 3}, {"keep_top_k": [-1]}):
        attrs = {**BASE, **case}
        loc = ops8.parameter(ov.PartialShape(f"[?,{P * 4}]"), np.float32, name="loc")
        conf = ops8.parameter(ov.PartialShape(f"[?,{P * C}]"), np.float32, name="conf")
        pri = ops8.parameter(ov.PartialShape(f"[1,2,{P * 4}]"), np.float32, name="pri")
        node = ops8.detection_output(loc, conf, pri, attrs)
        check_infer(ov.Model([ops8.result(node, name="y")], [loc, conf, pri]), "DetectionOutput")
    op = lookup("DetectionOutput", "opset8")
    bad, _ = bind_attrs(op.Attrs, {"keep_top_k": "5", "nms_threshold": "0.5", "code_type": "caffe.X"})
    with pytest.raises(OpError, match="code_type"):
        op.infer(bad, [TensorInfo(F32, static_shape([1, 8]))] * 3)


def test_priors_per_image() -> None:
    attrs = dict(BASE)
    feed = _inputs(attrs)
    feed["pri"] = np.concatenate([_priors(True, True), _priors(True, True)])
    check_op(_model(ops8.detection_output, attrs, feed), feed, "DetectionOutput")
