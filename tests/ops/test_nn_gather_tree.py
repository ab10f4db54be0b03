"""GatherTree-1 against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, lookup
from irlint.types import DYNAMIC, I32, Dim, static_shape
from tests.opcheck import check_op, ov_infer

ov = pytest.importorskip("openvino")
o1 = pytest.importorskip("openvino.opset1")

RNG = np.random.default_rng(83)


@pytest.mark.parametrize("dtype", [np.int32, np.float32])
@pytest.mark.parametrize("lengths", [[6, 6, 6], [4, 0, 9], [1, 3, 5]])
def test_gather_tree(dtype, lengths) -> None:
    steps, batch, beams, end = 6, 3, 4, 7
    ids = RNG.integers(0, 9, (steps, batch, beams)).astype(dtype)
    parents = RNG.integers(0, beams, (steps, batch, beams)).astype(dtype)
    p = o1.parameter([steps, batch, beams], dtype, name="ids")
    node = o1.gather_tree(p, o1.constant(parents), o1.constant(np.array(lengths, dtype)),
                          o1.constant(np.array(end, dtype)))
    m = ov.Model([o1.result(node, name="y")], [p])
    if 0 not in lengths:
        check_op(m, {"ids": ids}, "GatherTree", exact=True)
        return
    # A batch row with max_seq_len 0: the CPU plugin leaves its output uninitialised, the reference
    # kernel writes end_token everywhere (docs/semantics.md). The other rows are compared.
    op = lookup("GatherTree", "opset1")
    (got,) = op.compute(None, [ids, parents, np.array(lengths, dtype), np.array(end, dtype)])
    want = ov_infer(m, {"ids": ids})["y"]
    rows = [i for i, n in enumerate(lengths) if n]
    np.testing.assert_array_equal(got[:, rows], want[:, rows])
    assert (got[:, lengths.index(0)] == end).all()


def test_gather_tree_shapes_and_errors() -> None:
    op = lookup("GatherTree", "opset1")
    (out,) = op.infer(None, [TensorInfo(I32, (DYNAMIC, Dim.of(3), DYNAMIC)), TensorInfo(I32, (Dim.of(5), DYNAMIC,
                             Dim.of(4))), TensorInfo(I32, static_shape((3,))), TensorInfo(I32, ())])
    assert out.shape == static_shape((5, 3, 4))
    with pytest.raises(OpError, match="one value per batch row"):
        op.infer(None, [TensorInfo(I32, static_shape((5, 3, 4)))] * 2 + [TensorInfo(I32, static_shape((2,))),
                                                                        TensorInfo(I32, ())])
