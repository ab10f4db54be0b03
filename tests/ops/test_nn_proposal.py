"""Proposal-1/4 against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, Dim, static_shape
from tests.opcheck import check_op, ov_infer

ov = pytest.importorskip("openvino")
o1 = pytest.importorskip("openvino.opset1")
o4 = pytest.importorskip("openvino.opset4")

RNG = np.random.default_rng(101)
BASE = {"base_size": 16, "pre_nms_topn": 40, "post_nms_topn": 12, "nms_thresh": 0.6, "feat_stride": 16,
        "min_size": 4, "ratio": [0.5, 1.0, 2.0], "scale": [2.0, 4.0], "framework": ""}


def _model(opset, attrs, image=(96.0, 128.0, 1.0), batch=2):
    anchors = len(attrs["ratio"]) * len(attrs["scale"])
    probs = RNG.permutation(batch * 2 * anchors * 6 * 8).reshape(batch, 2 * anchors, 6, 8).astype(np.float32)
    probs /= probs.max()  # distinct scores: the reference's partial sort has no tie order
    deltas = (RNG.standard_normal((batch, 4 * anchors, 6, 8)) * 0.3).astype(np.float32)
    pp = o1.parameter(list(probs.shape), np.float32, name="probs")
    pd = o1.parameter(list(deltas.shape), np.float32, name="deltas")
    unsigned = {k: np.uint32(v) for k, v in attrs.items()
                if k in ("base_size", "pre_nms_topn", "post_nms_topn", "feat_stride", "min_size")}
    node = opset.proposal(pp, pd, o1.constant(np.array(image, np.float32)), {**attrs, **unsigned})
    results = [o1.result(node.output(i), name=f"y{i}") for i in range(node.get_output_size())]
    return ov.Model(results, [pp, pd]), {"probs": probs, "deltas": deltas}


@pytest.mark.parametrize("opset", [o1, o4])
@pytest.mark.parametrize("variant", [
    {}, {"clip_before_nms": False, "clip_after_nms": True}, {"normalize": True},
    {"box_size_scale": 2.0, "box_coordinate_scale": 4.0}, {"min_size": 40},
])
def test_proposal(opset, variant) -> None:
    m, feeds = _model(opset, {**BASE, **variant})
    check_op(m, feeds, "Proposal", rtol=2e-4, atol=2e-4)


def test_proposal_fewer_boxes_than_post_nms_topn() -> None:
    m, feeds = _model(o1, {**BASE, "nms_thresh": 0.2, "post_nms_topn": 30})
    check_op(m, feeds, "Proposal", rtol=2e-4, atol=2e-4)
    # Proposal-4's scores past the last box: the CPU plugin leaves them uninitialised, the reference
    # writes 0 (docs/semantics.md); the boxes and the valid scores are compared.
    m, feeds = _model(o4, {**BASE, "nms_thresh": 0.2, "post_nms_topn": 30})
    want = ov_infer(m, feeds)
    op = lookup("Proposal", "opset4")
    attrs, _ = bind_attrs(op.Attrs, {k: ",".join(map(str, v)) if isinstance(v, list) else str(v)
                                     for k, v in {**BASE, "nms_thresh": 0.2, "post_nms_topn": 30}.items()})
    rois, probs = op.compute(attrs, [feeds["probs"], feeds["deltas"], np.array([96.0, 128.0, 1.0], np.float32)])
    np.testing.assert_allclose(rois, want["y0"], rtol=2e-4, atol=2e-4)
    valid = np.zeros(len(probs), bool)
    for b in range(2):
        block = rois[b * 30:(b + 1) * 30, 0]
        count = int(np.argmax(block == -1)) if (block == -1).any() else 30
        valid[b * 30: b * 30 + count] = True
    assert not valid.all()
    np.testing.assert_allclose(probs[valid], want["y1"][valid], rtol=2e-4, atol=2e-4)
    assert (probs[~valid] == 0).all()


@pytest.mark.parametrize("opset", [o1, o4])
def test_proposal_tensorflow(opset) -> None:
    # A square image: the CPU plugin swaps the image height and width in TensorFlow mode (its x runs
    # over rows), the core reference does not (docs/semantics.md); with H = W both clip alike.
    m, feeds = _model(opset, {**BASE, "framework": "tensorflow"}, image=(110.0, 110.0, 1.0))
    check_op(m, feeds, "Proposal", rtol=2e-4, atol=2e-4)


def test_proposal_tensorflow_clips_as_the_reference() -> None:
    op = lookup("Proposal", "opset4")
    attrs, _ = bind_attrs(op.Attrs, {k: ",".join(map(str, v)) if isinstance(v, list) else str(v)
                                     for k, v in {**BASE, "framework": "tensorflow"}.items()})
    _, feeds = _model(o4, BASE)
    rois, _ = op.compute(attrs, [feeds["probs"], feeds["deltas"], np.array([96.0, 128.0, 1.0], np.float32)])
    valid = rois[rois[:, 0] >= 0]
    assert valid[:, [1, 3]].max() <= 128 - 0 and valid[:, [2, 4]].max() <= 96  # x within width, y within height
    assert valid[:, [2, 4]].max() == 96  # some boxes reach the bottom edge: y is clipped to the height


def test_proposal_image_shape_with_two_scales() -> None:
    m, feeds = _model(o4, {**BASE, "min_size": 10}, image=(96.0, 128.0, 0.5, 2.0))
    check_op(m, feeds, "Proposal", rtol=2e-4, atol=2e-4)


def test_proposal_shapes() -> None:
    op = lookup("Proposal", "opset4")
    attrs, problems = bind_attrs(op.Attrs, {k: ",".join(map(str, v)) if isinstance(v, list) else str(v)
                                            for k, v in BASE.items()})
    assert not problems
    outs = op.infer(attrs, [TensorInfo(F32, (DYNAMIC, Dim.of(12), DYNAMIC, DYNAMIC)), TensorInfo(F32, None),
                            TensorInfo(F32, static_shape((3,)))])
    assert outs[0].shape == (DYNAMIC, Dim.of(5)) and outs[1].shape == (DYNAMIC,)
    (out,) = lookup("Proposal", "opset1").infer(attrs, [TensorInfo(F32, static_shape((2, 12, 6, 8))),
                                                        TensorInfo(F32, None), TensorInfo(F32, None)])
    assert out.shape == static_shape((24, 5))
    with pytest.raises(OpError, match="3 or 4 values"):
        op.infer(attrs, [TensorInfo(F32, None), TensorInfo(F32, None), TensorInfo(F32, static_shape((2,)))])
