"""Eye-9 against OpenVINO's CPU plugin: shapes, diagonal offsets in and outside the matrix, batches."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import F32, I32, I64, static_shape
from tests.opcheck import check_op
from tests.opdyn import check_infer

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")


def _i(v, dtype=np.int64):
    return ops.constant(np.array(v, dtype))


CASES = [  # rows, cols, diagonal, batch, output type
    (3, 3, 0, None, "f32"), (2, 5, 1, None, "i32"), (4, 2, -1, None, "f32"), (3, 4, 7, None, "i64"),
    (3, 4, -9, None, "u8"), (2, 3, 0, [2], "f32"), (2, 2, -1, [2, 1, 3], "i8"), (0, 3, 0, None, "f32"),
]


@pytest.mark.parametrize("rows,cols,diag,batch,out", CASES)
def test_eye(rows, cols, diag, batch, out) -> None:
    d = ops.parameter([], np.int32, name="d")
    node = ops.eye(_i(rows), _i(cols, np.int32), d, out, None if batch is None else _i(batch, np.int32))
    model = ov.Model([ops.result(node, name="y")], [d])
    check_op(model, {"d": np.array(diag, np.int32)}, "Eye")


def test_rows_from_a_parameter() -> None:
    r = ops.parameter([1], np.int64, name="r")
    model = ov.Model([ops.result(ops.eye(r, _i(4), _i(1), "f32", _i([2])), name="y")], [r])
    check_op(model, {"r": np.array([3], np.int64)}, "Eye")
    check_infer(model, "Eye")


def test_errors() -> None:
    op = lookup("Eye", "opset9")
    attrs, _ = bind_attrs(op.Attrs, {"output_type": "f32"})
    scalar = TensorInfo(I64, static_shape([]), np.array(2, np.int64))
    with pytest.raises(OpError, match="non-negative"):
        op.infer(attrs, [TensorInfo(I64, static_shape([]), np.array(-1, np.int64)), scalar, scalar])
    with pytest.raises(OpError, match="one-element"):
        op.infer(attrs, [TensorInfo(I32, static_shape([2])), scalar, scalar])
    with pytest.raises(OpError, match="integer"):
        op.infer(attrs, [TensorInfo(F32, static_shape([])), scalar, scalar])
    bad, _ = bind_attrs(op.Attrs, {"output_type": "string"})
    with pytest.raises(OpError, match="output_type"):
        op.infer(bad, [scalar] * 3)
