"""Gather-1/7/8, StridedSlice and Slice-8 against OpenVINO's CPU plugin."""

import numpy as np
import pytest

from tests.opcheck import check_op, op_model

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset15")
ops1 = pytest.importorskip("openvino.opset1")
ops7 = pytest.importorskip("openvino.opset7")
ops8 = pytest.importorskip("openvino.opset8")


def data_of(shape, dtype):
    a = np.arange(int(np.prod(shape))).reshape(shape)
    return (a % 3 == 0).astype(dtype) if dtype == np.bool_ else (a + 1).astype(dtype)


def i64(v):
    return ops.constant(np.array(v, np.int64))


def run(build, shape, dtype, type_name):
    return check_op(*op_model(build, data_of(shape, dtype), shape, every_output=False), type_name)


GATHER_CASES = [
    # indices, axis, batch_dims
    ([1, 0, 2], 1, 0),
    (2, 0, 0),
    ([[0, 3], [2, 1]], -1, 0),
    ([[0, 1], [1, 0]], 1, 1),
    ([[0, 2, 1], [3, 3, 0]], 2, 1),
    ([[0, 2, 1], [3, 3, 0]], -1, -1),
]


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.int32, np.bool_, np.float16])
@pytest.mark.parametrize(("indices", "axis", "batch_dims"), GATHER_CASES)
def test_gather8(dtype, indices, axis, batch_dims):
    run(lambda x: ops8.gather(x, i64(indices), i64(axis), batch_dims), [2, 3, 4], dtype, "Gather")


@pytest.mark.parametrize(("indices", "axis", "batch_dims"), GATHER_CASES)
def test_gather7(indices, axis, batch_dims):
    run(lambda x: ops7.gather(x, i64(indices), i64(axis), batch_dims), [2, 3, 4], np.float32, "Gather")


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_gather1(dtype):
    run(lambda x: ops1.gather(x, i64([[2, 0], [1, 1]]), i64(-2)), [2, 3, 4], dtype, "Gather")


@pytest.mark.parametrize(
    ("version", "expected"),
    [(ops8, [4.0, 1.0, 0.0, 0.0]), (ops7, [0.0, 1.0, 0.0, 0.0]), (ops1, [0.0, 1.0, 0.0, 0.0])],
)
def test_gather_negative_and_out_of_range_indices(version, expected):
    got = run(lambda x: version.gather(x, i64([-1, 0, 4, -5]), i64(0)), [4], np.float32, "Gather")
    np.testing.assert_array_equal(got[0], expected)


def test_gather_i32_indices():
    idx = ops.constant(np.array([[1], [0]], np.int32))
    run(lambda x: ops8.gather(x, idx, ops.constant(np.int32(1)), 0), [2, 3], np.int64, "Gather")


SS_CASES = [
    # begin, end, strides, begin_mask, end_mask, new_axis, shrink, ellipsis
    ([0, 1, 0], [2, 3, 4], [1, 1, 2], [0, 0, 0], [0, 0, 0], [], [], []),
    ([1, 0, 0], [0, 0, 0], [1, 1, 1], [0, 1, 1], [1, 1, 1], [], [], []),
    ([-1, -1, -1], [-3, 0, -5], [-1, -1, -2], [0, 0, 0], [0, 0, 0], [], [], []),
    ([0, 0, 0], [0, 0, 0], [-1, -1, -1], [1, 1, 1], [1, 1, 1], [], [], []),
    ([1, 0], [2, 0], [1, 1], [0, 0], [0, 0], [], [1, 0], []),
    ([0, 2], [0, 3], [1, 1], [0, 0], [1, 0], [], [0, 1], []),
    ([0, 0, 0], [1, 0, 0], [1, 1, 1], [0, 0, 0], [0, 0, 0], [0, 1, 0], [1, 0, 0], []),
    ([0, 1], [0, 3], [1, 1], [0, 0], [0, 0], [], [], [1, 0]),
    ([0, 0, 2], [0, 0, 3], [1, 1, 1], [0, 0, 0], [0, 0, 0], [1, 0, 0], [0, 0, 1], [0, 1, 0]),
    ([1], [-1], [1], [0], [0], [], [], []),
    ([-10, 0], [-20, 0], [-1, 1], [0, 1], [0, 1], [], [], []),
    ([100, -100], [-100, 100], [-2, 3], [0, 0], [0, 0], [], [], []),
    ([0, 1, 0, 0], [2, 2, 4, 0], [1, 1, 1, 1], [0, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 1], [], []),
]


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_, np.float16, np.int32])
@pytest.mark.parametrize(("begin", "end", "strides", "bm", "em", "na", "sa", "el"), SS_CASES)
def test_strided_slice(dtype, begin, end, strides, bm, em, na, sa, el):
    run(
        lambda x: ops.strided_slice(x, i64(begin), i64(end), i64(strides), bm, em, na, sa, el),
        [2, 3, 4],
        dtype,
        "StridedSlice",
    )


def test_strided_slice_shrink_then_new_axis_matches_reference():
    """Shrink, new axis and an end mask together: the CPU plugin returns garbage for this
    combination on a Parameter (OpenVINO 2026.4), so the data is a Const, which the plugin
    folds with OpenVINO's reference implementation."""
    x = ops.constant(data_of([2, 3, 4], np.float32))
    node = ops.strided_slice(
        x, i64([1, 0, -1]), i64([2, 0, 0]), i64([1, 1, 1]), [0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], []
    )
    got = check_op(ov.Model([ops.result(node, name="y")], []), {}, "StridedSlice")
    np.testing.assert_array_equal(got[0], data_of([2, 3, 4], np.float32)[1, None, 2:3, :])


SLICE_CASES = [
    # start, stop, step, axes
    ([0], [1], [1], None),
    ([1, -1], [3, -5], [1, -2], [1, 2]),
    ([-1], [-100], [-1], [0]),
    ([10, 0], [-10, 100], [-1, 3], [-1, 0]),
    ([0, 0, 0], [2, 3, 4], [2, 2, 2], None),
    ([-10], [-20], [-1], [1]),
]


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_, np.int32])
@pytest.mark.parametrize(("start", "stop", "step", "axes"), SLICE_CASES)
def test_slice(dtype, start, stop, step, axes):
    def build(x):
        args = [i64(start), i64(stop), i64(step)]
        return ops8.slice(x, *args, i64(axes)) if axes is not None else ops8.slice(x, *args)

    run(build, [2, 3, 4], dtype, "Slice")
