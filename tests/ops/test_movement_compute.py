"""ShapeOf, Broadcast-1/3, MatMul and Range-1/4 against OpenVINO's CPU plugin."""

import numpy as np
import pytest

from tests.opcheck import check_op, op_model

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset15")
ops1 = pytest.importorskip("openvino.opset1")
ops3 = pytest.importorskip("openvino.opset3")
ops4 = pytest.importorskip("openvino.opset4.ops")


def data_of(shape, dtype, seed=0):
    a = np.random.default_rng(seed).integers(-4, 5, size=shape)
    return (a > 0).astype(dtype) if dtype == np.bool_ else a.astype(dtype)


def i64(v):
    return ops.constant(np.array(v, np.int64))


def run(build, shape, dtype, type_name):
    return check_op(*op_model(build, data_of(shape, dtype), shape, every_output=False), type_name)


@pytest.mark.parametrize("shape", [[2, 3, 4], [], [0, 5]])
@pytest.mark.parametrize(("version", "out"), [(ops1, None), (ops3, "i32"), (ops3, "i64")])
def test_shape_of(shape, version, out):
    got = run(
        lambda x: version.shape_of(x) if out is None else version.shape_of(x, out),
        shape,
        np.float32,
        "ShapeOf",
    )
    np.testing.assert_array_equal(got[0], shape)


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_, np.float16])
@pytest.mark.parametrize(
    ("version", "shape", "target", "mode", "mapping"),
    [
        (ops3, [3, 1], [2, 3, 4], "NUMPY", None),
        (ops1, [1], [2, 2], "NUMPY", None),
        (ops3, [3], [2, 3, 4], "EXPLICIT", [1]),
        (ops1, [2, 1], [2, 3, 4], "EXPLICIT", [0, 2]),
        (ops3, [4, 1, 3], [2, 1], "BIDIRECTIONAL", None),
        (ops3, [1, 3], [5, 1, 1], "BIDIRECTIONAL", None),
    ],
)
def test_broadcast(dtype, version, shape, target, mode, mapping):
    def build(x):
        if mapping is None:
            return version.broadcast(x, i64(target), None, mode)
        return version.broadcast(x, i64(target), i64(mapping), mode)

    run(build, shape, dtype, "Broadcast")


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize(
    ("a", "b", "ta", "tb"),
    [
        ([2, 3], [3, 4], False, False),
        ([3, 2], [3, 4], True, False),
        ([2, 3], [4, 3], False, True),
        ([1, 8], [64, 8], False, True),  # a recurrent step's x·Wᵀ (the prepared kernel's direct np.dot)
        ([5, 1, 2, 3], [4, 3, 6], False, False),
        ([3], [2, 3, 4], True, False),
        ([2, 4, 3], [3], False, True),
        ([3], [3], False, False),
        ([1, 3, 2], [5, 4, 3], True, True),
    ],
)
def test_matmul(dtype, a, b, ta, tb):
    w = ops.constant(data_of(b, dtype, seed=1))
    run(lambda x: ops.matmul(x, w, ta, tb), a, dtype, "MatMul")


def test_matmul_two_parameters():
    a = ops.parameter([2, 3], np.float32, name="a")
    b = ops.parameter([3, 2], np.float32, name="b")
    model = ov.Model([ops.result(ops.matmul(a, b, False, False), name="y")], [a, b])
    check_op(model, {"a": data_of([2, 3], np.float32), "b": data_of([3, 2], np.float32, 2)}, "MatMul")


def _range_model(node):
    return ov.Model([ops.result(node, name="y")], [])


@pytest.mark.parametrize(
    ("start", "stop", "step", "dtype"),
    [(0, 5, 1, np.int64), (5, -3, -2, np.int32), (0.5, 3.2, 0.7, np.float32), (3, 3, 1, np.int64)],
)
def test_range1(start, stop, step, dtype):
    c = [ops.constant(np.array(v, dtype)) for v in (start, stop, step)]
    check_op(_range_model(ops1.range(*c)), {}, "Range")


@pytest.mark.parametrize(
    ("start", "stop", "step", "out"),
    [
        (0.5, 3.2, 0.7, "f32"),
        (0.5, 3.2, 0.7, "i32"),
        (-1.5, 2.5, 1.5, "i32"),
        (5.0, 0.0, -2.0, "i64"),
        (0.0, 5.0, 2.0, "f16"),
        (1.0, 10.0, 2.5, "i64"),
    ],
)
def test_range4(start, stop, step, out):
    c = [ops.constant(np.array(v, np.float32)) for v in (start, stop, step)]
    check_op(_range_model(ops4.range(*c, out)), {}, "Range")


def test_range4_mixed_input_types():
    c = [
        ops.constant(np.array(2, np.int32)),
        ops.constant(np.array(9.5, np.float32)),
        ops.constant(np.int64(3)),
    ]
    check_op(_range_model(ops4.range(*c, "f32")), {}, "Range")
