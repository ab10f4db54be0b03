"""DepthToSpace-1, SpaceToDepth-1, ShuffleChannels-1 and Bucketize-3 against OpenVINO's CPU plugin."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, lookup
from irlint.types import F32, static_shape
from tests.opcheck import check_op, op_model
from tests.opshapes import check_shapes

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset15")
ops1 = pytest.importorskip("openvino.opset1")
ops3 = pytest.importorskip("openvino.opset3")


def data(shape, dtype=np.float32):
    return (np.arange(int(np.prod(shape))).reshape(shape) - 7).astype(dtype)


model_of = partial(op_model, every_output=False)


@pytest.mark.parametrize("mode", ["blocks_first", "depth_first"])
@pytest.mark.parametrize("shape,block", [([1, 8, 2, 3], 2), ([2, 18, 1, 2], 3), ([1, 16, 2, 1, 2], 2),
                                         ([2, 4, 3], 2), ([1, 5, 2, 2], 1)])
@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_depth_to_space(mode, shape, block, dtype) -> None:
    build = lambda p: ops1.depth_to_space(p, mode, block)  # noqa: E731
    model, inputs = model_of(build, data(shape, dtype))
    check_op(model, inputs, "DepthToSpace")
    model, _ = model_of(build, data(shape, dtype), [-1, shape[1]] + [-1] * (len(shape) - 2))
    check_shapes(model, "DepthToSpace")


@pytest.mark.parametrize("mode", ["blocks_first", "depth_first"])
@pytest.mark.parametrize("shape,block", [([1, 2, 4, 6], 2), ([2, 1, 3, 6], 3), ([1, 2, 2, 4, 2], 2),
                                         ([2, 3, 4], 2), ([1, 2, 3, 3], 1)])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_space_to_depth(mode, shape, block, dtype) -> None:
    build = lambda p: ops1.space_to_depth(p, mode, block)  # noqa: E731
    model, inputs = model_of(build, data(shape, dtype))
    check_op(model, inputs, "SpaceToDepth")
    model, _ = model_of(build, data(shape, dtype), [-1, -1, *shape[2:]])
    check_shapes(model, "SpaceToDepth")


def test_depth_space_partial_dims_and_errors() -> None:
    p = ops.parameter([1, 8, "2..5", -1], np.float32, name="x")
    check_shapes(ov.Model([ops.result(ops1.depth_to_space(p, "blocks_first", 2))], [p]), "DepthToSpace")
    p = ops.parameter([1, "1..3", "4..9", 6], np.float32, name="x")
    check_shapes(ov.Model([ops.result(ops1.space_to_depth(p, "depth_first", 2))], [p]), "SpaceToDepth")
    op = lookup("DepthToSpace", "opset1")
    with pytest.raises(OpError, match="not divisible"):
        op.infer(op.Attrs("blocks_first", 2), [TensorInfo(F32, static_shape([1, 6, 2, 2]))])
    op = lookup("SpaceToDepth", "opset1")
    with pytest.raises(OpError, match="not divisible"):
        op.compute(op.Attrs("depth_first", 2), [data([1, 1, 3, 2])])


@pytest.mark.parametrize("shape,axis,group", [([1, 6, 2, 2], 1, 3), ([2, 4, 3], -1, 3), ([4, 2], 0, 2),
                                              ([2, 6], 1, 1), ([1, 12, 1, 1], 1, 4)])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_shuffle_channels(shape, axis, group, dtype) -> None:
    build = lambda p: ops3.shuffle_channels(p, axis, group)  # noqa: E731
    model, inputs = model_of(build, data(shape, dtype))
    check_op(model, inputs, "ShuffleChannels")
    model, _ = model_of(build, data(shape, dtype), [-1] * len(shape))
    check_shapes(model, "ShuffleChannels")
    with pytest.raises(OpError, match="divisible"):
        lookup("ShuffleChannels", "opset1").infer(lookup("ShuffleChannels", "opset1").Attrs(1, 5),
                                                  [TensorInfo(F32, static_shape([1, 6]))])


@pytest.mark.parametrize("right", [True, False])
@pytest.mark.parametrize("output_type", ["i32", "i64"])
@pytest.mark.parametrize("buckets", [[-1.0, 0.0, 2.5, 4.0], [0.0], [1.0, 1.0, 3.0]])
def test_bucketize(right, output_type, buckets) -> None:
    x = np.array([[-3, -1, 0, 0.5, 2.5, 4, 9], [np.inf, -np.inf, 1, 3, 2.4, -0.0, 4.0001]], np.float32)
    build = lambda p: ops3.bucketize(p, ops.constant(np.array(buckets, np.float32)), output_type, right)  # noqa: E731
    model, inputs = model_of(build, x)
    check_op(model, inputs, "Bucketize")
    model, _ = model_of(build, x, [-1, 7])
    check_shapes(model, "Bucketize")


def test_bucketize_integers_and_mixed_types() -> None:
    x = np.array([-5, 0, 3, 7, 10, 11], np.int32)
    b = np.array([0, 3, 10], np.int64)
    model, inputs = model_of(lambda p, q: ops3.bucketize(p, q, "i64", True), x, extra=[("b", b)])
    check_op(model, inputs, "Bucketize")
    model, inputs = model_of(lambda p: ops3.bucketize(p, ops.constant(np.array([0.5, 6.5], np.float32)), "i32",
                                                      False), x)
    check_op(model, inputs, "Bucketize")


@pytest.mark.parametrize("right,nan_bucket", [(True, 0), (False, 2)])
def test_bucketize_nan(right, nan_bucket) -> None:
    x = np.array([np.nan, 1.0, 5.0, np.nan], np.float32)
    build = lambda p: ops3.bucketize(p, ops.constant(np.array([0.0, 2.0], np.float32)), "i64", right)  # noqa: E731
    got = check_op(*model_of(build, x), "Bucketize")[0]
    assert got.tolist() == [nan_bucket, 1, 2, nan_bucket]
