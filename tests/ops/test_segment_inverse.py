"""SegmentMax-16 and Inverse-14 against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import F32, I32, static_shape
from tests.opcheck import check_op
from tests.opdyn import check_infer

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset16")

RNG = np.random.default_rng(16)

SEGMENTS = [  # data, ids, num_segments
    (RNG.standard_normal((6, 3)).astype(np.float32), [0, 0, 1, 3, 3, 3], None),
    (RNG.standard_normal((5,)).astype(np.float32), [1, 1, 2, 4, 4], 7),
    (np.array([[5, -3], [2, 8], [-9, 1]], np.int32), [0, 2, 2], 2),
    (RNG.standard_normal((4, 2, 2)).astype(np.float32), [0, 1, 2, 3], 4),
]


@pytest.mark.parametrize("fill", ["ZERO", "LOWEST"])
@pytest.mark.parametrize("data,ids,num", SEGMENTS, ids=range(len(SEGMENTS)))
def test_segment_max(data, ids, num, fill) -> None:
    pd = ops.parameter(list(data.shape), data.dtype, name="d")
    node = ops.segment_max(pd, ops.constant(np.array(ids, np.int32)),
                           None if num is None else ops.constant(np.array(num, np.int64)), fill)
    check_op(ov.Model([ops.result(node, name="y")], [pd]), {"d": data}, "SegmentMax")


def test_segment_max_shapes_and_errors() -> None:
    pd = ops.parameter(ov.PartialShape("[?,3]"), np.float32, name="d")
    pi = ops.parameter(ov.PartialShape("[?]"), np.int32, name="i")
    model = ov.Model([ops.result(ops.segment_max(pd, pi, ops.constant(np.array(4, np.int32)), "ZERO"), name="y")],
                     [pd, pi])
    check_infer(model, "SegmentMax")
    model = ov.Model([ops.result(ops.segment_max(pd, pi, None, "LOWEST"), name="y")], [pd, pi])
    check_infer(model, "SegmentMax")
    op = lookup("SegmentMax", "opset16")
    attrs, _ = bind_attrs(op.Attrs, {"fill_mode": "ZERO"})
    with pytest.raises(OpError, match="non-decreasing"):
        op.infer(attrs, [TensorInfo(F32, static_shape([3])), TensorInfo(I32, static_shape([3]), np.array([0, 2, 1]))])
    with pytest.raises(OpError, match="3 segment ids for 4"):
        op.infer(attrs, [TensorInfo(F32, static_shape([4])), TensorInfo(I32, static_shape([3]))])


@pytest.mark.parametrize("adjoint", [False, True])
@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4), (1, 1), (2, 1, 2, 2)])
def test_inverse(shape, adjoint) -> None:
    x = (RNG.standard_normal(shape) + 3 * np.eye(shape[-1])).astype(np.float32)
    px = ops.parameter(list(shape), np.float32, name="x")
    check_op(ov.Model([ops.result(ops.inverse(px, adjoint), name="y")], [px]), {"x": x}, "Inverse",
             rtol=1e-3, atol=1e-4)


def test_inverse_shapes_and_errors() -> None:
    px = ops.parameter(ov.PartialShape("[?,3,?]"), np.float32, name="x")
    check_infer(ov.Model([ops.result(ops.inverse(px), name="y")], [px]), "Inverse")
    op = lookup("Inverse", "opset14")
    attrs, _ = bind_attrs(op.Attrs, {})
    with pytest.raises(OpError, match="square"):
        op.infer(attrs, [TensorInfo(F32, static_shape([2, 3]))])
    with pytest.raises(OpError, match="singular"):
        op.compute(attrs, [np.zeros((2, 2), np.float32)])
