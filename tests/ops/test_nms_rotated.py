"""NMSRotated-13 against OpenVINO's CPU plugin: thresholds, per-class limits, sorting, output types."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.ops.detection.nms_rotated import rotated_iou
from irlint.types import F32, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

RNG = np.random.default_rng(13)
N, C, M = 2, 2, 12


def _boxes():
    ctr = RNG.random((N, M, 2)).astype(np.float32) * 20
    wh = RNG.random((N, M, 2)).astype(np.float32) * 8 + 2
    ang = (RNG.random((N, M, 1)).astype(np.float32) - 0.5) * 3
    return np.concatenate([ctr, wh, ang], axis=-1)


@pytest.mark.parametrize("k,iou,score,desc,clockwise,out", [
    (5, 0.3, 0.1, True, True, "i64"), (10, 0.5, 0.0, False, True, "i32"), (3, 0.1, 0.3, True, False, "i64"),
    (12, 0.6, 0.2, False, False, "i64")])
def test_nms_rotated(k, iou, score, desc, clockwise, out) -> None:
    feed = {"b": _boxes(), "s": RNG.random((N, C, M)).astype(np.float32)}
    pb, ps = ops.parameter([N, M, 5], np.float32, name="b"), ops.parameter([N, C, M], np.float32, name="s")
    node = ops.nms_rotated(pb, ps, ops.constant(np.array([k], np.int64)), ops.constant(np.float32(iou)),
                           ops.constant(np.float32(score)), desc, out, clockwise)
    model = ov.Model([ops.result(node.output(i), name=f"y{i}") for i in range(3)], [pb, ps])
    check_op(model, feed, "NMSRotated")


def test_rotated_iou_known_values() -> None:
    square = np.array([0, 0, 2, 2, 0], np.float32)
    assert rotated_iou(square, square) == pytest.approx(1.0)
    assert rotated_iou(square, np.array([1, 0, 2, 2, 0], np.float32)) == pytest.approx(2 / 6)
    # A square and itself turned 45 degrees: the octagon 8 (sqrt(2) - 1) over 8 - that.
    inter = 8 * (np.sqrt(2) - 1)
    assert rotated_iou(square, np.array([0, 0, 2, 2, np.pi / 4], np.float32)) == pytest.approx(inter / (8 - inter))
    assert rotated_iou(square, np.array([5, 5, 1, 1, 0.3], np.float32)) == 0.0


def test_errors() -> None:
    op = lookup("NMSRotated", "opset13")
    attrs, _ = bind_attrs(op.Attrs, {})
    scalar = TensorInfo(F32, static_shape([]))
    with pytest.raises(OpError, match=r"\[N, M, 5\]"):
        op.infer(attrs, [TensorInfo(F32, static_shape([1, 3, 4])), TensorInfo(F32, static_shape([1, 1, 3])),
                         scalar, scalar, scalar])


def test_partial_shapes() -> None:
    from tests.opdyn import check_infer

    for shape_b, shape_s in (("[2,12,5]", "[2,2,12]"), ("[?,?,5]", "[?,2,?]")):
        pb = ops.parameter(ov.PartialShape(shape_b), np.float32, name="b")
        ps = ops.parameter(ov.PartialShape(shape_s), np.float32, name="s")
        node = ops.nms_rotated(pb, ps, ops.constant(np.array([5], np.int64)), ops.constant(np.float32(0.5)),
                               ops.constant(np.float32(0.1)))
        check_infer(ov.Model([ops.result(node.output(i), name=f"y{i}") for i in range(3)], [pb, ps]), "NMSRotated",
                    wider_ok=True)
