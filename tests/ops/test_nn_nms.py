"""NonMaxSuppression-1/3/4/5/9 against OpenVINO's CPU plugin (hard and Soft-NMS, encodings, sorting)."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, I32, I64, Dim, static_shape
from tests.opcheck import check_op, ov_infer

ov = pytest.importorskip("openvino")
o1 = pytest.importorskip("openvino.opset1")
o3 = pytest.importorskip("openvino.opset3")
o4 = pytest.importorskip("openvino.opset4")
o5 = pytest.importorskip("openvino.opset5")
o9 = pytest.importorskip("openvino.opset9")

RNG = np.random.default_rng(43)


def _data(encoding: str = "corner"):
    """Two batches of 9 boxes in clusters (so that IoUs cross the thresholds), 3 classes, distinct scores."""
    centres = RNG.random((2, 9, 2)) * 4
    centres[:, 3:6] = centres[:, :3] + RNG.random((2, 3, 2)) * 0.4
    sizes = RNG.random((2, 9, 2)) + 0.8
    if encoding == "center":
        boxes = np.concatenate([centres[..., ::-1], sizes[..., ::-1]], axis=-1)
    else:
        boxes = np.concatenate([centres - sizes / 2, centres + sizes / 2], axis=-1)
        boxes[:, ::2] = boxes[:, ::2][..., [2, 3, 0, 1]]  # some boxes given by the other diagonal
    scores = RNG.permutation(2 * 3 * 9).reshape(2, 3, 9) / 54.0
    return boxes.astype(np.float32), scores.astype(np.float32)


def _model(factory, boxes, scores, consts, **kw):
    pb = o1.parameter(list(boxes.shape), np.float32, name="boxes")
    ps = o1.parameter(list(scores.shape), np.float32, name="scores")
    node = factory(pb, ps, *[o1.constant(np.array(v, dt)) for v, dt in consts], **kw)
    results = [o1.result(node.output(i), name=f"y{i}") for i in range(node.get_output_size())]
    return ov.Model(results, [pb, ps]), {"boxes": boxes, "scores": scores}


LIMIT, IOU, SCORE, SIGMA = (4, np.int64), (0.4, np.float32), (0.2, np.float32), (0.5, np.float32)


@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.parametrize("encoding", ["corner", "center"])
def test_nms_v5_and_v9_hard(sort, encoding) -> None:
    boxes, scores = _data(encoding)
    for factory, in ((o5.non_max_suppression,), (o9.non_max_suppression,)):
        m, inputs = _model(factory, boxes, scores, [LIMIT, IOU, SCORE], box_encoding=encoding,
                           sort_result_descending=sort)
        check_op(m, inputs, "NonMaxSuppression")


@pytest.mark.parametrize("output_type", ["i32", "i64"])
def test_nms9_soft(output_type) -> None:
    boxes, scores = _data()
    m, inputs = _model(o9.non_max_suppression, boxes, scores, [(6, np.int64), IOU, (0.05, np.float32), SIGMA],
                       output_type=output_type)
    check_op(m, inputs, "NonMaxSuppression")


def test_nms5_soft_still_drops_boxes_over_the_iou_threshold() -> None:
    # B overlaps A with IoU 0.5 >= 0.4: NMS-5's reference kernel drops it although Soft-NMS is on; the CPU
    # plugin runs NMS-5 with NMS-9's rules and keeps B with a decayed score (docs/semantics.md).
    boxes = np.array([[[0, 0, 1, 1], [0, 0, 1, 0.5], [2, 2, 3, 3]]], np.float32)
    scores = np.array([[[0.9, 0.8, 0.3]]], np.float32)
    m, inputs = _model(o5.non_max_suppression, boxes, scores, [(5, np.int64), IOU, (0.0, np.float32), SIGMA])
    want = ov_infer(m, inputs)
    assert want["y0"][:, 2].tolist() == [0, 1, 2]
    op = lookup("NonMaxSuppression", "opset5")
    attrs, _ = bind_attrs(op.Attrs, {})
    idx, sc, count = op.compute(attrs, [boxes, scores, np.int64(5), np.float32(0.4), np.float32(0), np.float32(0.5)])
    assert idx.tolist() == [[0, 0, 0], [0, 0, 2]] and count.tolist() == [2]
    np.testing.assert_allclose(sc[:, 2], [0.9, 0.3])
    nms9 = lookup("NonMaxSuppression", "opset9")
    idx9, sc9, _ = nms9.compute(attrs, [boxes, scores, np.int64(5), np.float32(0.4), np.float32(0), np.float32(0.5)])
    np.testing.assert_array_equal(idx9, want["y0"])
    np.testing.assert_allclose(sc9, want["y1"], rtol=1e-6)


@pytest.mark.parametrize("sort", [True, False])
def test_nms4(sort) -> None:
    boxes, scores = _data()
    m, inputs = _model(o4.non_max_suppression, boxes, scores, [LIMIT, IOU, SCORE], sort_result_descending=sort)
    check_op(m, inputs, "NonMaxSuppression")


@pytest.mark.parametrize("factory", [o1.non_max_suppression, o3.non_max_suppression])
@pytest.mark.parametrize("sort", [True, False])
def test_nms1_and_3_declare_fewer_rows(factory, sort) -> None:
    # NMS-1/3 declare min(boxes, limit * classes) rows; the CPU plugin writes NMS-4's longer output.
    # irlint keeps the declared shape: its rows are the plugin's first rows.
    boxes, scores = _data()
    m, inputs = _model(factory, boxes, scores, [LIMIT, IOU, SCORE], sort_result_descending=sort)
    want = ov_infer(m, inputs)["y0"]
    op = lookup("NonMaxSuppression", "opset1")
    attrs, _ = bind_attrs(op.Attrs, {"sort_result_descending": str(sort).lower()})
    (got,) = op.compute(attrs, [boxes, scores, np.int64(4), np.float32(0.4), np.float32(0.2)])
    assert got.shape == (9, 3) and want.shape == (24, 3)
    np.testing.assert_array_equal(got, want[:9])
    (info,) = op.infer(attrs, [TensorInfo(F32, static_shape(boxes.shape)), TensorInfo(F32, static_shape(scores.shape)),
                               TensorInfo(I64, (), np.array(4, np.int64))])
    assert info.shape == static_shape((9, 3))  # what OpenVINO writes on the port of an NMS-1/3 layer


def test_nms_shapes_and_errors() -> None:
    op = lookup("NonMaxSuppression", "opset9")
    attrs, _ = bind_attrs(op.Attrs, {"box_encoding": "corner", "output_type": "i32"})
    outs = op.infer(attrs, [TensorInfo(F32, static_shape((2, 9, 4))), TensorInfo(F32, static_shape((2, 3, 9))),
                            TensorInfo(I64, (), np.array(4, np.int64))])
    assert [o.etype for o in outs] == [I32, F32, I32]
    assert outs[0].shape == (Dim(0, 24), Dim.of(3)) and outs[2].shape == (Dim.of(1),)
    outs = op.infer(attrs, [TensorInfo(F32, (DYNAMIC, DYNAMIC, Dim.of(4))), TensorInfo(F32, None)])
    assert outs[0].shape == (Dim(0, None), Dim.of(3))
    with pytest.raises(OpError, match="disagree"):
        op.infer(attrs, [TensorInfo(F32, static_shape((2, 9, 4))), TensorInfo(F32, static_shape((2, 3, 8)))])
    v4 = lookup("NonMaxSuppression", "opset4")
    (out,) = v4.infer(attrs, [TensorInfo(F32, static_shape((2, 9, 4))), TensorInfo(F32, static_shape((2, 3, 9))),
                              TensorInfo(I64, (), np.array(20, np.int64))])
    assert out.shape == static_shape((54, 3))
    with pytest.raises(OpError, match="at most 5 inputs"):
        v4.infer(attrs, [TensorInfo(F32, None)] * 6)
