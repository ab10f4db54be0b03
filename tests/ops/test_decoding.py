"""GatherTree-1 and CTCGreedyDecoder-1 against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import F32, I32, static_shape
from tests.opcheck import check_op
from tests.opdyn import check_infer

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

RNG = np.random.default_rng(9)


@pytest.mark.parametrize("dtype", [np.int32, np.float32])
@pytest.mark.parametrize("max_len", [[5, 3], [1, 7], [2, 5]])
def test_gather_tree(max_len, dtype) -> None:
    t, b, k = 5, 2, 3
    step = RNG.integers(0, 6, (t, b, k)).astype(dtype)
    parent = RNG.integers(0, k, (t, b, k)).astype(dtype)
    params = [ops.parameter([t, b, k], dtype, name="s"), ops.parameter([t, b, k], dtype, name="p"),
              ops.parameter([b], dtype, name="m")]
    node = ops.gather_tree(*params, ops.constant(np.array(4, dtype)))
    feed = {"s": step, "p": parent, "m": np.array(max_len, dtype)}
    check_op(ov.Model([ops.result(node, name="y")], params), feed, "GatherTree")


def test_gather_tree_zero_length_follows_the_spec() -> None:
    # A beam of length 0 is all end_token by the spec; the CPU plugin leaves it uninitialised.
    op = lookup("GatherTree", "opset1")
    step = RNG.integers(0, 6, (3, 2, 2)).astype(np.int32)
    (out,) = op.compute(None, [step, np.zeros_like(step), np.array([0, 3], np.int32), np.array(9, np.int32)])
    assert (out[:, 0] == 9).all()
    np.testing.assert_array_equal(out[:, 1, 0], [step[0, 1, 0], step[1, 1, 0], step[2, 1, 0]])


@pytest.mark.parametrize("merge", [True, False])
@pytest.mark.parametrize("lengths", [[6, 6], [3, 0], [1, 4]])
def test_ctc_greedy_decoder(lengths, merge) -> None:
    t, n, c = 6, 2, 4
    best = np.array([[1, 1, 3, 1, 2, 2], [0, 3, 3, 0, 0, 1]]).T  # [T, N], class 3 is the blank
    data = (RNG.random((t, n, c)) * 0.1).astype(np.float32)
    for ti in range(t):
        for ni in range(n):
            data[ti, ni, best[ti, ni]] = 1.0
    mask = np.array([[1.0 if ti < lengths[ni] else 0.0 for ni in range(n)] for ti in range(t)], np.float32)
    pd, pm = ops.parameter([t, n, c], np.float32, name="d"), ops.parameter([t, n], np.float32, name="m")
    node = ops.ctc_greedy_decoder(pd, pm, merge)
    check_op(ov.Model([ops.result(node, name="y")], [pd, pm]), {"d": data, "m": mask}, "CTCGreedyDecoder")


def test_partial_shapes_and_errors() -> None:
    pd, pm = ops.parameter(ov.PartialShape("[?,2,5]"), np.float32, name="d"), ops.parameter(
        ov.PartialShape("[7,?]"), np.float32, name="m")
    check_infer(ov.Model([ops.result(ops.ctc_greedy_decoder(pd, pm), name="y")], [pd, pm]), "CTCGreedyDecoder")
    s = ops.parameter(ov.PartialShape("[?,2,?]"), np.int32, name="s")
    p = ops.parameter(ov.PartialShape("[4,?,3]"), np.int32, name="p")
    m = ops.parameter(ov.PartialShape("[?]"), np.int32, name="m")
    node = ops.gather_tree(s, p, m, ops.constant(np.array(0, np.int32)))
    check_infer(ov.Model([ops.result(node, name="y")], [s, p, m]), "GatherTree")
    op = lookup("GatherTree", "opset1")
    with pytest.raises(OpError, match="batch"):
        op.infer(None, [TensorInfo(I32, static_shape([2, 3, 4]))] * 2 + [TensorInfo(I32, static_shape([2])),
                                                                         TensorInfo(I32, static_shape([]))])
    bad_parent = np.full((2, 1, 2), 5, np.int32)
    with pytest.raises(OpError, match="parent index 5"):
        op.compute(None, [np.zeros((2, 1, 2), np.int32), bad_parent, np.array([2], np.int32), np.array(0, np.int32)])
    op = lookup("CTCGreedyDecoder", "opset1")
    attrs, _ = bind_attrs(op.Attrs, {})
    with pytest.raises(OpError, match="3-D"):
        op.infer(attrs, [TensorInfo(F32, static_shape([2, 3])), TensorInfo(F32, static_shape([2, 3]))])
