"""MulticlassNms-8/9 against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import F32, I32, Dim, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
o1 = pytest.importorskip("openvino.opset1")
o8 = pytest.importorskip("openvino.opset8")
o9 = pytest.importorskip("openvino.opset9")

RNG = np.random.default_rng(107)


def _boxes(*lead: int, count: int = 10) -> np.ndarray:
    centre = RNG.random((*lead, count, 2)) * 4
    centre[..., 3:6, :] = centre[..., :3, :] + RNG.random((*lead, 3, 2)) * 0.3
    half = RNG.random((*lead, count, 2)) * 0.8 + 0.4
    return np.concatenate([centre - half, centre + half], axis=-1).astype(np.float32)


def _scores(*shape: int) -> np.ndarray:
    """Distinct scores that never equal a threshold of the tests (see the equality test below)."""
    return ((RNG.permutation(int(np.prod(shape))).reshape(shape) + 0.5) / np.prod(shape)).astype(np.float32)


SHARED = [
    {"iou_threshold": 0.4, "score_threshold": 0.2},
    {"iou_threshold": 0.5, "score_threshold": 0.1, "sort_result_type": "classid", "keep_top_k": 7},
    {"iou_threshold": 0.5, "score_threshold": 0.1, "sort_result_type": "score", "sort_result_across_batch": True},
    {"iou_threshold": 0.5, "score_threshold": 0.1, "sort_result_type": "classid", "sort_result_across_batch": True,
     "background_class": 1, "nms_top_k": 4},
    {"iou_threshold": 0.7, "score_threshold": 0.0, "nms_eta": 0.8, "normalized": False, "output_type": "i32"},
]


@pytest.mark.parametrize("attrs", SHARED)
@pytest.mark.parametrize("opset", [o8, o9])
def test_multiclass_nms_shared_boxes(attrs, opset) -> None:
    boxes, scores = _boxes(2), _scores(2, 3, 10)
    pb = o1.parameter(list(boxes.shape), np.float32, name="b")
    ps = o1.parameter(list(scores.shape), np.float32, name="s")
    node = opset.multiclass_nms(pb, ps, **attrs)
    m = ov.Model([o1.result(node.output(i), name=f"y{i}") for i in range(3)], [pb, ps])
    check_op(m, {"b": boxes, "s": scores}, "MulticlassNms")


@pytest.mark.parametrize("attrs", SHARED[:4])
def test_multiclass_nms_per_class_boxes_with_roisnum(attrs) -> None:
    boxes, scores = _boxes(3, count=12), _scores(3, 12)
    pb = o1.parameter(list(boxes.shape), np.float32, name="b")
    ps = o1.parameter(list(scores.shape), np.float32, name="s")
    node = o9.multiclass_nms(pb, ps, o1.constant(np.array([5, 0, 7], np.int32)), **attrs)
    m = ov.Model([o1.result(node.output(i), name=f"y{i}") for i in range(3)], [pb, ps])
    check_op(m, {"b": boxes, "s": scores}, "MulticlassNms")


def test_a_score_equal_to_the_threshold_skips_the_remaining_overlap_checks() -> None:
    # B's score equals score_threshold: in the reference kernel the check against the last kept box C
    # (no overlap) leaves it at the threshold, which ends the checks, so B is kept although it overlaps
    # A; the CPU plugin checks every kept box and drops B (docs/semantics.md).
    boxes = np.array([[[0, 0, 1, 1], [5, 5, 6, 6], [0, 0, 1, 0.9]]], np.float32)
    scores = np.array([[[0.9, 0.8, 0.25]]], np.float32)
    op = lookup("MulticlassNms", "opset8")
    attrs, _ = bind_attrs(op.Attrs, {"score_threshold": "0.25", "iou_threshold": "0.5"})
    _, index, count = op.compute(attrs, [boxes, scores])
    assert count.tolist() == [3] and index.reshape(-1).tolist() == [0, 1, 2]
    pb, ps = o1.parameter([1, 3, 4], np.float32, name="b"), o1.parameter([1, 1, 3], np.float32, name="s")
    node = o8.multiclass_nms(pb, ps, score_threshold=0.25, iou_threshold=0.5)
    want = ov.Core().compile_model(ov.Model([o1.result(node.output(2), name="n")], [pb, ps]), "CPU")([boxes, scores])
    assert np.asarray(want[0]).tolist() == [2]


def test_multiclass_nms_shapes_and_errors() -> None:
    op = lookup("MulticlassNms", "opset9")
    attrs, _ = bind_attrs(op.Attrs, {"nms_top_k": "4", "keep_top_k": "6", "output_type": "i32"})
    outs = op.infer(attrs, [TensorInfo(F32, static_shape((2, 10, 4))), TensorInfo(F32, static_shape((2, 3, 10)))])
    assert outs[0].shape == (Dim(0, 12), Dim.of(6)) and outs[1].etype == I32 and outs[2].shape == (Dim.of(2),)
    with pytest.raises(OpError, match="roisnum"):
        op.infer(attrs, [TensorInfo(F32, static_shape((3, 10, 4))), TensorInfo(F32, static_shape((3, 10)))])
    bad, _ = bind_attrs(op.Attrs, {"sort_result_type": "area"})
    with pytest.raises(OpError, match="sort_result_type"):
        op.infer(bad, [TensorInfo(F32, None), TensorInfo(F32, None)])
