"""SparseFillEmptyRows-16 against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, lookup
from irlint.types import F32, I64, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset16")

CASES = [  # values, dense shape, indices
    (np.array([1, 2, 3, 4], np.float32), [5, 6], [[0, 1], [0, 3], [2, 0], [4, 5]]),
    (np.array([7, 8], np.int32), [3, 2], [[2, 1], [1, 0]]),
    (np.array([5, 6, 7], np.float32), [3, 4], [[0, 0], [1, 1], [2, 3]]),
    (np.array([], np.float32), [2, 3], np.zeros((0, 2), np.int64)),
]


@pytest.mark.parametrize("idx_type", [np.int64, np.int32])
@pytest.mark.parametrize("values,dense,indices", CASES, ids=range(len(CASES)))
def test_fill(values, dense, indices, idx_type) -> None:
    idx = np.array(indices, idx_type).reshape(-1, 2)
    pv = ops.parameter(list(values.shape), values.dtype, name="v")
    pi = ops.parameter(list(idx.shape), idx_type, name="i")
    node = ops.sparse_fill_empty_rows(pv, ops.constant(np.array(dense, idx_type)), pi,
                                      ops.constant(np.array(-1, values.dtype)))
    model = ov.Model([ops.result(node.output(k), name=f"y{k}") for k in range(3)], [pv, pi])
    check_op(model, {"v": values, "i": idx}, "SparseFillEmptyRows")


def test_bounds_without_values_and_errors() -> None:
    op = lookup("SparseFillEmptyRows", "opset16")
    ins = [TensorInfo(F32, static_shape([4])), TensorInfo(I64, static_shape([2]), np.array([5, 6])),
           TensorInfo(I64, static_shape([4, 2])), TensorInfo(F32, static_shape([]))]
    idx, val, empty = op.infer(None, ins)
    assert idx.shape[0].lo == 0 and idx.shape[0].hi == 9 and empty.shape == static_shape([5])
    assert val.shape == (idx.shape[0],)
    with pytest.raises(OpError, match="outside the dense shape"):
        op.compute(None, [np.array([1.0], np.float32), np.array([2, 2]), np.array([[2, 0]]), np.float32(0)])


def test_partial_shapes() -> None:
    from tests.opdyn import check_infer

    pv = ops.parameter(ov.PartialShape("[?]"), np.float32, name="v")
    pi = ops.parameter(ov.PartialShape("[?,2]"), np.int64, name="i")
    node = ops.sparse_fill_empty_rows(pv, ops.constant(np.array([4, 5], np.int64)), pi,
                                      ops.constant(np.array(0, np.float32)))
    check_infer(ov.Model([ops.result(node.output(k), name=f"y{k}") for k in range(3)], [pv, pi]),
                "SparseFillEmptyRows", wider_ok=True)
