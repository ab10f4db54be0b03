"""CTCGreedyDecoderSeqLen-6 against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, I32, I64, Dim, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
o6 = pytest.importorskip("openvino.opset6")
o1 = pytest.importorskip("openvino.opset1")

RNG = np.random.default_rng(41)


def _logits() -> np.ndarray:
    # Few classes and repeated rows so that repeats and blanks occur.
    x = RNG.standard_normal((3, 8, 4)).astype(np.float32)
    x[:, 3] = x[:, 2]
    return x


@pytest.mark.parametrize("merge", [True, False])
@pytest.mark.parametrize("blank", [None, 0, 2])
@pytest.mark.parametrize("types", [("i32", "i32"), ("i64", "i32"), ("i32", "i64")])
def test_ctc_greedy_decoder_seq_len(merge, blank, types) -> None:
    x = _logits()
    p = o6.parameter(list(x.shape), np.float32, name="x")
    lengths = o6.constant(np.array([8, 5, 0], np.int32))
    extra = [] if blank is None else [o6.constant(np.array(blank, np.int32))]
    node = o6.ctc_greedy_decoder_seq_len(p, lengths, *extra, merge_repeated=merge, classes_index_type=types[0],
                                         sequence_length_type=types[1])
    m = ov.Model([o6.result(node.output(0), name="classes"), o6.result(node.output(1), name="lengths")], [p])
    check_op(m, {"x": x}, "CTCGreedyDecoderSeqLen")


def test_ctc_greedy_shapes_and_errors() -> None:
    op = lookup("CTCGreedyDecoderSeqLen", "opset6")
    attrs, _ = bind_attrs(op.Attrs, {"merge_repeated": "true", "classes_index_type": "i64"})
    outs = op.infer(attrs, [TensorInfo(F32, (DYNAMIC, Dim.of(7), Dim.of(5))), TensorInfo(I32, static_shape((4,)))])
    assert [o.etype for o in outs] == [I64, I32]
    assert outs[0].shape == (Dim.of(4), Dim.of(7)) and outs[1].shape == (Dim.of(4),)
    with pytest.raises(OpError, match="blank_index 5"):
        op.infer(attrs, [TensorInfo(F32, static_shape((1, 7, 5))), TensorInfo(I32, static_shape((1,))),
                         TensorInfo(I32, (), np.array(5, np.int32))])
    with pytest.raises(OpError, match="rows"):
        op.infer(attrs, [TensorInfo(F32, static_shape((2, 7, 5))), TensorInfo(I32, static_shape((3,)))])


@pytest.mark.parametrize("merge", [True, False])
def test_ctc_greedy_decoder_v1(merge) -> None:
    x = _logits().transpose(1, 0, 2).copy()  # [T, N, C]
    mask = np.ones((8, 3), np.float32)
    mask[5:, 1] = 0
    mask[0:, 2] = 0
    mask[3, 0] = 0  # row 0 ends at step 3 even though later steps are marked again
    p = o6.parameter(list(x.shape), np.float32, name="x")
    node = o1.ctc_greedy_decoder(p, o1.constant(mask), merge)
    check_op(ov.Model([o1.result(node, name="y")], [p]), {"x": x}, "CTCGreedyDecoder")
