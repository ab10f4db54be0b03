"""CTCLoss-4 against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, I32, Dim, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
o4 = pytest.importorskip("openvino.opset4")

RNG = np.random.default_rng(53)
LOGITS = RNG.standard_normal((3, 7, 5)).astype(np.float32)
LABELS = np.array([[1, 1, 2, 0, 3, 0, 0], [2, 3, 3, 3, 1, 0, 0], [0, 2, 0, 2, 1, 1, 4]], np.int32)


@pytest.mark.parametrize("collapse,merge_repeated,unique", [(False, True, False), (True, True, False),
                                                            (False, False, False), (True, False, False),
                                                            (False, True, True), (False, False, True)])
@pytest.mark.parametrize("blank", [None, 0])
def test_ctc_loss(collapse, merge_repeated, unique, blank) -> None:
    labels = LABELS if blank is None else np.where(LABELS == 0, 4, LABELS)  # keep the blank out of the labels
    labels = np.where(labels == 4, 3, labels) if blank is None else labels
    p = o4.parameter(list(LOGITS.shape), np.float32, name="x")
    extra = [] if blank is None else [o4.constant(np.array(blank, np.int32))]
    node = o4.ctc_loss(p, o4.constant(np.array([7, 6, 7], np.int32)), o4.constant(labels),
                       o4.constant(np.array([3, 5, 4], np.int32)), *extra, preprocess_collapse_repeated=collapse,
                       ctc_merge_repeated=merge_repeated, unique=unique)
    check_op(ov.Model([o4.result(node, name="y")], [p]), {"x": LOGITS}, "CTCLoss", rtol=2e-4, atol=2e-4)


def test_ctc_loss_shapes_and_errors() -> None:
    op = lookup("CTCLoss", "opset4")
    attrs, _ = bind_attrs(op.Attrs, {})
    (out,) = op.infer(attrs, [TensorInfo(F32, (DYNAMIC, Dim.of(7), Dim.of(5))), TensorInfo(I32, static_shape((3,))),
                              TensorInfo(I32, static_shape((3, 7))), TensorInfo(I32, None)])
    assert out.shape == (Dim.of(3),)
    with pytest.raises(OpError, match="batch size"):
        op.infer(attrs, [TensorInfo(F32, static_shape((2, 7, 5))), TensorInfo(I32, static_shape((3,))),
                         TensorInfo(I32, None), TensorInfo(I32, None)])
    with pytest.raises(OpError, match="label length 5"):
        op.compute(attrs, [LOGITS, np.array([4, 4, 4], np.int32), LABELS, np.array([5, 1, 1], np.int32)])
