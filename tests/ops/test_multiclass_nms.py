"""MulticlassNms-8/9 against OpenVINO's CPU plugin: sorting modes, top k limits, background class,
unnormalised boxes, adaptive threshold, per-class boxes with roisnum."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import F32, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
ops8 = pytest.importorskip("openvino.opset8")
ops9 = pytest.importorskip("openvino.opset9")

RNG = np.random.default_rng(88)
N, C, M = 2, 3, 10


def _boxes(shape):
    xy = RNG.random((*shape, 2)).astype(np.float32) * 0.6
    wh = RNG.random((*shape, 2)).astype(np.float32) * 0.35 + 0.02
    return np.concatenate([xy, xy + wh], axis=-1)


CASES = [
    {"iou_threshold": 0.5, "score_threshold": 0.2},
    {"iou_threshold": 0.3, "score_threshold": 0.1, "sort_result_type": "classid", "keep_top_k": 6},
    {"iou_threshold": 0.5, "score_threshold": 0.0, "sort_result_type": "score", "sort_result_across_batch": True,
     "nms_top_k": 4},
    {"iou_threshold": 0.4, "score_threshold": 0.2, "sort_result_type": "classid", "sort_result_across_batch": True,
     "background_class": 0, "output_type": "i32"},
    {"iou_threshold": 0.8, "score_threshold": 0.1, "nms_eta": 0.7, "normalized": False},
]


def _run(fn, attrs, feed):
    params = [ops9.parameter(list(v.shape), v.dtype, name=k) for k, v in feed.items()]
    node = fn(*params, **attrs)
    model = ov.Model([ops9.result(node.output(k), name=f"y{k}") for k in range(3)], params)
    return check_op(model, feed, "MulticlassNms")


@pytest.mark.parametrize("attrs", CASES, ids=range(len(CASES)))
@pytest.mark.parametrize("version", [8, 9])
def test_shared_boxes(attrs, version) -> None:
    feed = {"boxes": _boxes((N, M)) * (1 if attrs.get("normalized", True) else 100),
            "scores": RNG.random((N, C, M)).astype(np.float32)}
    _run((ops8 if version == 8 else ops9).multiclass_nms, attrs, feed)


@pytest.mark.parametrize("attrs", CASES[:4], ids=range(4))
def test_per_class_boxes_with_roisnum(attrs) -> None:
    feed = {"boxes": _boxes((C, 9)), "scores": RNG.random((C, 9)).astype(np.float32),
            "roisnum": np.array([4, 0, 5], np.int32)}
    _run(ops9.multiclass_nms, attrs, feed)


def test_errors() -> None:
    op = lookup("MulticlassNms", "opset9")
    attrs, _ = bind_attrs(op.Attrs, {"sort_result_type": "area"})
    with pytest.raises(OpError, match="sort_result_type"):
        op.infer(attrs, [TensorInfo(F32, static_shape([1, 3, 4])), TensorInfo(F32, static_shape([1, 2, 3]))])
    attrs, _ = bind_attrs(op.Attrs, {})
    with pytest.raises(OpError, match="without roisnum"):
        op.infer(attrs, [TensorInfo(F32, static_shape([2, 3, 4])), TensorInfo(F32, static_shape([2, 3]))])


@pytest.mark.parametrize("version", [8, 9])
def test_partial_shapes(version) -> None:
    from tests.opdyn import check_infer

    ops_v = ops8 if version == 8 else ops9
    b = ops_v.parameter(ov.PartialShape("[?,10,4]"), np.float32, name="b")
    s = ops_v.parameter(ov.PartialShape("[?,3,10]"), np.float32, name="s")
    node = ops_v.multiclass_nms(b, s, keep_top_k=5)
    check_infer(ov.Model([ops_v.result(node.output(k), name=f"y{k}") for k in range(3)], [b, s]), "MulticlassNms",
                wider_ok=True)
