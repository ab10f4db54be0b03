"""MatrixNms-8 against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import F32, I32, Dim, static_shape
from tests.opcheck import check_op
from tests.ops.test_nn_multiclass_nms import _boxes, _scores

ov = pytest.importorskip("openvino")
o1 = pytest.importorskip("openvino.opset1")
o8 = pytest.importorskip("openvino.opset8")

CASES = [
    {"score_threshold": 0.2, "post_threshold": 0.1},
    {"score_threshold": 0.1, "post_threshold": 0.2, "decay_function": "gaussian", "gaussian_sigma": 3.0},
    {"score_threshold": 0.1, "post_threshold": 0.05, "nms_top_k": 5, "keep_top_k": 8},
    {"score_threshold": 0.1, "post_threshold": 0.1, "sort_result_type": "score", "sort_result_across_batch": True},
    {"score_threshold": 0.1, "post_threshold": 0.1, "sort_result_type": "classid", "sort_result_across_batch": True,
     "background_class": 0, "output_type": "i32"},
    {"score_threshold": 0.1, "post_threshold": 0.1, "normalized": False},
]


@pytest.mark.parametrize("attrs", CASES)
def test_matrix_nms(attrs) -> None:
    boxes, scores = _boxes(2), _scores(2, 3, 10)
    pb = o1.parameter(list(boxes.shape), np.float32, name="b")
    ps = o1.parameter(list(scores.shape), np.float32, name="s")
    node = o8.matrix_nms(pb, ps, **attrs)
    m = ov.Model([o1.result(node.output(i), name=f"y{i}") for i in range(3)], [pb, ps])
    check_op(m, {"b": boxes, "s": scores}, "MatrixNms", rtol=1e-5, atol=1e-6)


def test_matrix_nms_shapes_and_errors() -> None:
    op = lookup("MatrixNms", "opset8")
    attrs, _ = bind_attrs(op.Attrs, {"nms_top_k": "4", "output_type": "i32"})
    outs = op.infer(attrs, [TensorInfo(F32, static_shape((2, 10, 4))), TensorInfo(F32, static_shape((2, 3, 10)))])
    assert outs[0].shape == (Dim(0, 24), Dim.of(6)) and outs[1].etype == I32 and outs[2].shape == (Dim.of(2),)
    bad, _ = bind_attrs(op.Attrs, {"decay_function": "cubic"})
    with pytest.raises(OpError, match="decay_function"):
        op.infer(bad, [TensorInfo(F32, None), TensorInfo(F32, None)])
