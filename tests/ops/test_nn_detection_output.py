"""DetectionOutput-1/8 against OpenVINO's CPU plugin (SSD post-processing)."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, Dim, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
o1 = pytest.importorskip("openvino.opset1")
o8 = pytest.importorskip("openvino.opset8")

RNG = np.random.default_rng(97)
PRIORS, CLASSES = 12, 4


def _priors(normalized: bool, encoded: bool) -> np.ndarray:
    centre = RNG.random((PRIORS, 2)) * 0.8 + 0.1
    half = RNG.random((PRIORS, 2)) * 0.2 + 0.05
    boxes = np.concatenate([centre - half, centre + half], axis=1)
    if not normalized:
        boxes = np.concatenate([np.zeros((PRIORS, 1)), boxes * 300], axis=1)  # [id, x0, y0, x1, y1] in pixels
    rows = [boxes.reshape(-1)]
    if not encoded:
        rows.append(np.tile([0.1, 0.1, 0.2, 0.2], PRIORS))
    return np.stack([np.pad(r, (0, len(rows[0]) - len(r))) for r in rows])[None].astype(np.float32)


def _model(opset, attrs, *, normalized=True, encoded=False, share=True, aux=False, images=2):
    loc_classes = 1 if share else CLASSES
    loc = (RNG.standard_normal((images, PRIORS * loc_classes * 4)) * 0.5).astype(np.float32)
    conf = RNG.random((images, PRIORS * CLASSES)).astype(np.float32)
    params = [o1.parameter(list(loc.shape), np.float32, name="loc"), o1.parameter(list(conf.shape), np.float32,
                                                                                    name="conf")]
    feeds = {"loc": loc, "conf": conf}
    extra = []
    if aux:
        arm_conf = RNG.random((images, PRIORS * 2)).astype(np.float32)
        arm_loc = (RNG.standard_normal((images, PRIORS * loc_classes * 4)) * 0.3).astype(np.float32)
        extra = [o1.constant(arm_conf), o1.constant(arm_loc)]
    full = {"num_classes": CLASSES, "share_location": share, "normalized": normalized,
            "variance_encoded_in_target": encoded, "input_height": 300, "input_width": 300, **attrs}
    if opset is o8:
        full.pop("num_classes")
    node = opset.detection_output(*params, o1.constant(_priors(normalized, encoded)), full, *extra)
    return ov.Model([o1.result(node, name="y")], params), feeds


BASE = {"keep_top_k": [10], "nms_threshold": 0.45, "confidence_threshold": 0.3, "top_k": 8,
        "code_type": "caffe.PriorBoxParameter.CENTER_SIZE", "background_label_id": 0}


@pytest.mark.parametrize("opset", [o1, o8])
@pytest.mark.parametrize("variant", [
    {}, {"code_type": "caffe.PriorBoxParameter.CORNER"}, {"clip_before_nms": True}, {"clip_after_nms": True},
    {"keep_top_k": [-1], "top_k": 5}, {"keep_top_k": [3]}, {"decrease_label_id": True},
    {"background_label_id": -1, "confidence_threshold": 0.6},
])
def test_detection_output(opset, variant) -> None:
    m, feeds = _model(opset, {**BASE, **variant})
    check_op(m, feeds, "DetectionOutput", rtol=2e-4, atol=2e-5)


@pytest.mark.parametrize("kw", [{"normalized": False}, {"encoded": True}, {"share": False}, {"aux": True},
                                {"images": 1}])
def test_detection_output_layouts(kw) -> None:
    attrs = {**BASE, "objectness_score": 0.4} if kw.get("aux") else BASE
    m, feeds = _model(o8, attrs, **kw)
    check_op(m, feeds, "DetectionOutput", rtol=2e-4, atol=2e-5)


def test_detection_output_shapes() -> None:
    op = lookup("DetectionOutput", "opset8")
    attrs, _ = bind_attrs(op.Attrs, {"keep_top_k": "-1", "top_k": "5", "normalized": "true"})
    (out,) = op.infer(attrs, [TensorInfo(F32, (DYNAMIC, Dim.of(48))), TensorInfo(F32, (DYNAMIC, Dim.of(48))),
                              TensorInfo(F32, static_shape((1, 2, 48)))])
    assert out.shape == (Dim.of(1), Dim.of(1), DYNAMIC, Dim.of(7))
    (out,) = op.infer(attrs, [TensorInfo(F32, static_shape((2, 48))), TensorInfo(F32, static_shape((2, 48))),
                              TensorInfo(F32, static_shape((1, 2, 48)))])
    assert out.shape == static_shape((1, 1, 2 * 5 * 4, 7))
    with pytest.raises(OpError, match="do not split"):
        op.infer(attrs, [TensorInfo(F32, None), TensorInfo(F32, static_shape((2, 50))),
                         TensorInfo(F32, static_shape((1, 2, 48)))])
