"""Reshape, Squeeze, Unsqueeze, Transpose, Concat, Split, VariadicSplit, Tile vs OpenVINO CPU."""

import numpy as np
import pytest

from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset15")
ops1 = pytest.importorskip("openvino.opset1")

DTYPES = [np.float32, np.float16, np.int64, np.int32, np.bool_]


def data_of(shape, dtype):
    a = np.arange(int(np.prod(shape))).reshape(shape)
    return (a % 2).astype(dtype) if dtype == np.bool_ else (a - 3).astype(dtype)


def i64(v):
    return ops.constant(np.array(v, np.int64))


def run(build, shape, dtype, type_name, extra=None):
    x = ops.parameter(shape, dtype, name="x")
    node = build(x)
    outs = [ops.result(node.output(i), name=f"y{i}") for i in range(node.get_output_size())]
    model = ov.Model(outs, [x])
    return check_op(model, {"x": data_of(shape, dtype)}, type_name)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize(
    ("shape", "target", "special_zero"),
    [
        ([2, 3, 4], [6, -1], False),
        ([2, 3, 4], [0, -1], True),
        ([2, 3, 4], [0, 0, 2, 2], True),
        ([2, 3, 4], [-1], False),
        ([2, 3, 4], [4, 0, 2], True),
        ([1, 6], [3, 2, 1], False),
        ([0, 3], [0, -1], False),
        ([1], [], False),
    ],
)
def test_reshape(dtype, shape, target, special_zero):
    got = run(lambda x: ops.reshape(x, i64(target), special_zero), shape, dtype, "Reshape")
    assert got[0].size == int(np.prod(shape))


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_])
@pytest.mark.parametrize(
    ("shape", "axes"),
    [([1, 3, 1, 2], [0]), ([1, 3, 1, 2], [-2, 0]), ([1, 3, 1, 2], None), ([1, 3, 1, 2], [2, 2]), ([2, 1], 1)],
)
def test_squeeze(dtype, shape, axes):
    if axes is None:
        run(lambda x: ops1.squeeze(x, i64([])), shape, dtype, "Squeeze")
    else:
        run(lambda x: ops.squeeze(x, i64(axes)), shape, dtype, "Squeeze")


def test_squeeze_without_axes_input():
    x = ops.parameter([1, 3, 1], np.float32, name="x")
    model = ov.Model([ops.result(ops.squeeze(x), name="y")], [x])
    got = check_op(model, {"x": data_of([1, 3, 1], np.float32)}, "Squeeze")
    assert got[0].shape == (3,)


def test_squeeze15_allow_axis_skip_keeps_non_one_dim():
    got = run(lambda x: ops.squeeze(x, i64([0, 1]), allow_axis_skip=True), [1, 3], np.float32, "Squeeze")
    assert got[0].shape == (3,)


@pytest.mark.parametrize("dtype", [np.float16, np.int32, np.bool_])
@pytest.mark.parametrize(
    ("shape", "axes"), [([2, 3], [0]), ([2, 3], [-1, 1]), ([2, 3], [0, 3]), ([], [0]), ([3], 0)]
)
def test_unsqueeze(dtype, shape, axes):
    run(lambda x: ops.unsqueeze(x, i64(axes)), shape, dtype, "Unsqueeze")


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_])
@pytest.mark.parametrize(
    ("shape", "order"), [([2, 3, 4], [2, 0, 1]), ([2, 3, 4], []), ([2, 3], [0, 1]), ([5], [0])]
)
def test_transpose(dtype, shape, order):
    got = run(lambda x: ops.transpose(x, i64(order)), shape, dtype, "Transpose")
    want = np.transpose(data_of(shape, dtype), order or None)
    np.testing.assert_array_equal(got[0], want)


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.bool_])
@pytest.mark.parametrize("axis", [0, 1, -1, -3])
def test_concat_with_constant_operand(dtype, axis):
    shape = [2, 3, 4]
    other_shape = list(shape)
    other_shape[axis] = 1
    const = ops.constant(data_of(other_shape, dtype) if dtype != np.bool_ else np.ones(other_shape, bool))
    run(lambda x: ops.concat([x, const, x], axis), shape, dtype, "Concat")


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.float16])
@pytest.mark.parametrize(("axis", "n"), [(0, 2), (1, 3), (-1, 4), (-2, 1)])
def test_split(dtype, axis, n):
    got = run(lambda x: ops.split(x, i64(axis), n), [2, 3, 4], dtype, "Split")
    assert len(got) == n


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.bool_])
@pytest.mark.parametrize(("axis", "lengths"), [(0, [1, 1]), (1, [1, -1, 1]), (-1, [0, 3, 1]), (2, [-1])])
def test_variadic_split(dtype, axis, lengths):
    got = run(lambda x: ops.variadic_split(x, i64(axis), i64(lengths)), [2, 3, 4], dtype, "VariadicSplit")
    assert len(got) == len(lengths)


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_])
@pytest.mark.parametrize(
    ("shape", "repeats"), [([2, 3], [2, 1]), ([2, 3], [3]), ([2, 3], [2, 1, 3]), ([2], [0])]
)
def test_tile(dtype, shape, repeats):
    run(lambda x: ops.tile(x, i64(repeats)), shape, dtype, "Tile")
