"""SpaceToBatch-2 and BatchToSpace-2 against OpenVINO's CPU plugin (values and partial shapes)."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, lookup
from irlint.types import F32, I64, static_shape
from tests.opcheck import check_op
from tests.opdyn import check_infer

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")


def _i64(v):
    return ops.constant(np.array(v, np.int64))


def _model(fn, shape, dtype, block, begin, end):
    p = ops.parameter(shape, dtype, name="x")
    return ov.Model([ops.result(fn(p, _i64(block), _i64(begin), _i64(end)), name="y")], [p])


S2B = [  # data shape, block, pads_begin, pads_end
    ([1, 2, 4, 4], [1, 1, 2, 2], [0, 0, 0, 0], [0, 0, 0, 0]),
    ([2, 3, 3, 5], [1, 1, 2, 3], [0, 0, 1, 0], [0, 0, 0, 1]),
    ([2, 6], [1, 3], [0, 1], [0, 2]),
    ([3, 2, 2, 3, 2], [1, 2, 1, 3, 2], [0, 0, 1, 1, 0], [0, 0, 1, 2, 0]),
]


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
@pytest.mark.parametrize("shape,block,begin,end", S2B)
def test_space_to_batch(shape, block, begin, end, dtype) -> None:
    x = np.arange(np.prod(shape), dtype=dtype).reshape(shape) - 7
    check_op(_model(ops.space_to_batch, shape, dtype, block, begin, end), {"x": x}, "SpaceToBatch")


B2S = [  # data shape, block, crops_begin, crops_end
    ([4, 2, 2, 2], [1, 1, 2, 2], [0, 0, 0, 0], [0, 0, 0, 0]),
    ([12, 1, 2, 3], [1, 1, 2, 3], [0, 0, 1, 0], [0, 0, 0, 2]),
    ([6, 4], [1, 3], [0, 2], [0, 1]),
    ([8, 2, 1, 3], [1, 2, 1, 2], [0, 1, 0, 0], [0, 0, 0, 3]),
]


@pytest.mark.parametrize("dtype", [np.float32, np.int64])
@pytest.mark.parametrize("shape,block,begin,end", B2S)
def test_batch_to_space(shape, block, begin, end, dtype) -> None:
    x = np.arange(np.prod(shape), dtype=dtype).reshape(shape) * 3 - 11
    check_op(_model(ops.batch_to_space, shape, dtype, block, begin, end), {"x": x}, "BatchToSpace")


@pytest.mark.parametrize("shape", ["[?,2,?,4]", "[2..5,2,3..9,4]", "[4..8,2,3..10,4]", "[?,?,6,?]"])
def test_partial_shapes(shape) -> None:
    ps = ov.PartialShape(shape)
    check_infer(_model(ops.space_to_batch, ps, np.float32, [1, 1, 2, 2], [0, 0, 1, 0], [0, 0, 1, 0]),
                "SpaceToBatch")
    check_infer(_model(ops.batch_to_space, ps, np.float32, [1, 1, 2, 2], [0, 0, 1, 0], [0, 0, 0, 1]),
                "BatchToSpace")


def test_round_trip_and_errors() -> None:
    s2b, b2s = lookup("SpaceToBatch", "opset2"), lookup("BatchToSpace", "opset2")
    x = np.arange(2 * 3 * 4 * 6, dtype=np.float32).reshape(2, 3, 4, 6)
    args = [np.array(v, np.int64) for v in ([1, 1, 2, 3], [0, 0, 0, 0], [0, 0, 0, 0])]
    (y,) = s2b.compute(s2b.Attrs(), [x, *args])
    (z,) = b2s.compute(b2s.Attrs(), [y, *args])
    np.testing.assert_array_equal(z, x)
    vals = [TensorInfo(I64, static_shape([4]), np.array(v, np.int64)) for v in ([1, 1, 2, 3], [0] * 4, [0] * 4)]
    with pytest.raises(OpError, match="multiple of block 3"):
        s2b.infer(s2b.Attrs(), [TensorInfo(F32, static_shape([2, 3, 4, 5])), *vals])
    with pytest.raises(OpError, match="block product 6"):
        b2s.infer(b2s.Attrs(), [TensorInfo(F32, static_shape([4, 3, 4, 5])), *vals])
    bad = [TensorInfo(I64, static_shape([4]), np.array([2, 1, 1, 1], np.int64)), *vals[1:]]
    with pytest.raises(OpError, match=r"block_shape\[0\]"):
        s2b.infer(s2b.Attrs(), [TensorInfo(F32, static_shape([2, 3, 4, 5])), *bad])
    (out,) = s2b.infer(s2b.Attrs(), [TensorInfo(F32, static_shape([2, 3, 4, 6])), TensorInfo(I64, static_shape([4])),
                                     *vals[1:]])
    assert out.shape is not None and len(out.shape) == 4 and not out.shape[0].is_static
