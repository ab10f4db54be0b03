"""MatrixNms-8 against OpenVINO's CPU plugin: linear and gaussian decay, thresholds, sorting, top k."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import F32, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset8")

RNG = np.random.default_rng(99)
N, C, M = 2, 3, 9

CASES = [
    {"score_threshold": 0.1, "post_threshold": 0.05},
    {"score_threshold": 0.2, "post_threshold": 0.3, "decay_function": "gaussian", "gaussian_sigma": 2.0},
    {"score_threshold": 0.0, "post_threshold": 0.1, "nms_top_k": 5, "keep_top_k": 7, "sort_result_type": "score",
     "sort_result_across_batch": True},
    {"score_threshold": 0.1, "post_threshold": 0.1, "sort_result_type": "classid", "sort_result_across_batch": True,
     "background_class": 0, "output_type": "i32"},
    {"score_threshold": 0.1, "post_threshold": 0.0, "normalized": False, "decay_function": "gaussian",
     "gaussian_sigma": 0.5},
]


@pytest.mark.parametrize("attrs", CASES, ids=range(len(CASES)))
def test_matrix_nms(attrs) -> None:
    xy = RNG.random((N, M, 2)).astype(np.float32) * 0.6
    boxes = np.concatenate([xy, xy + RNG.random((N, M, 2)).astype(np.float32) * 0.35 + 0.02], axis=-1)
    if not attrs.get("normalized", True):
        boxes *= 50
    feed = {"boxes": boxes, "scores": RNG.random((N, C, M)).astype(np.float32)}
    params = [ops.parameter(list(v.shape), np.float32, name=k) for k, v in feed.items()]
    node = ops.matrix_nms(*params, **attrs)
    model = ov.Model([ops.result(node.output(k), name=f"y{k}") for k in range(3)], params)
    check_op(model, feed, "MatrixNms")


def test_errors() -> None:
    op = lookup("MatrixNms", "opset8")
    attrs, _ = bind_attrs(op.Attrs, {"decay_function": "cubic"})
    with pytest.raises(OpError, match="decay_function"):
        op.infer(attrs, [TensorInfo(F32, static_shape([1, 3, 4])), TensorInfo(F32, static_shape([1, 2, 3]))])


def test_partial_shapes() -> None:
    from tests.opdyn import check_infer

    b = ops.parameter(ov.PartialShape("[2,?,4]"), np.float32, name="b")
    s = ops.parameter(ov.PartialShape("[2,3,?]"), np.float32, name="s")
    node = ops.matrix_nms(b, s, keep_top_k=4)
    check_infer(ov.Model([ops.result(node.output(k), name=f"y{k}") for k in range(3)], [b, s]), "MatrixNms",
                wider_ok=True)
