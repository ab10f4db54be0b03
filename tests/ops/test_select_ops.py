"""TopK-1/3/11, OneHot-1 and NonZero-3 against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, lookup
from irlint.types import F32, I64, static_shape
from tests.opcheck import check_op
from tests.opcheck import op_model as model_of
from tests.opshapes import check_shapes

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset15")
ops1 = pytest.importorskip("openvino.opset1")
ops3 = pytest.importorskip("openvino.opset3")
ops11 = pytest.importorskip("openvino.opset11")
ops16 = pytest.importorskip("openvino.opset16")

RNG = np.random.default_rng(11)


def const(v, dtype=np.int64):
    return ops.constant(np.array(v, dtype))


# ---------------------------------------------------------------------------------------------- TopK

TIES = np.array([[3, 1, 3, 2, 1, 3, 0, 2], [5, 5, 5, 5, -1, 7, 7, -1]], np.float32)


def topk_model(node, x: np.ndarray, with_indices: bool):
    """Only a stable TopK's indices are defined for ties: unstable ones compare values only."""
    p = node.input_value(0).get_node()
    outs = [ops.result(node.output(0), name="y0")] + ([ops.result(node.output(1), name="y1")] if with_indices else [])
    return ov.Model(outs, [p]), {"x": x}


@pytest.mark.parametrize("mode", ["max", "min"])
@pytest.mark.parametrize("sort", ["value", "index", "none"])
@pytest.mark.parametrize("k,axis", [(3, 1), (1, -1), (8, 1), (2, 0)])
def test_topk_ties(mode, sort, k, axis) -> None:
    def x():
        return ops.parameter(list(TIES.shape), TIES.dtype, name="x")

    check_op(*topk_model(ops1.topk(x(), const(k), axis, mode, sort), TIES, False), "TopK")
    check_op(*topk_model(ops3.topk(x(), const(k), axis, mode, sort, "i64"), TIES, False), "TopK")
    check_op(*topk_model(ops11.topk(x(), const(k), axis, mode, sort, "i32", False), TIES, False), "TopK")
    if sort != "none":  # stable: ties in index order, as irlint always does
        check_op(*topk_model(ops11.topk(x(), const(k), axis, mode, sort, "i32", True), TIES, True), "TopK")
    model, _ = model_of(lambda p: ops3.topk(p, const(k), axis, mode, sort, "i32"), TIES, [-1, -1])
    check_shapes(model, "TopK")


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.int64, np.uint8])
def test_topk_dtypes_and_3d(dtype) -> None:
    x = (RNG.integers(0, 6, (2, 5, 3))).astype(dtype)
    for mode in ("max", "min"):
        model, inputs = model_of(lambda p, m=mode: ops11.topk(p, const(2), 1, m, "value", "i32", True), x)
        check_op(model, inputs, "TopK")


def test_topk_shape_with_unknown_k() -> None:
    p = ops.parameter([1, -1], np.float32, name="x")
    k = ops.parameter([], np.int64, name="k")
    check_shapes(ov.Model([ops.result(ops3.topk(p, k, 1, "max", "value").output(0))], [p, k]), "TopK")
    p = ops.parameter([2, "2..8"], np.float32, name="x")
    check_shapes(ov.Model([ops.result(ops3.topk(p, k, -1, "max", "value").output(0))], [p, k]), "TopK")


def test_topk_nan_ranks_above_numbers_and_k_checks() -> None:
    op = lookup("TopK", "opset11")
    x = np.array([[1, np.nan, 3, 2]], np.float32)
    vals, idx = op.compute(op.Attrs(axis=1, mode="max", sort="value"), [x, np.array(2)])
    assert np.isnan(vals[0, 0]) and vals[0, 1] == 3 and idx.tolist() == [[1, 2]]
    vals, idx = op.compute(op.Attrs(axis=1, mode="min", sort="value"), [x, np.array(4)])
    assert vals[0, :3].tolist() == [1, 2, 3] and idx.tolist() == [[0, 3, 2, 1]]
    with pytest.raises(OpError, match="k=5"):
        op.compute(op.Attrs(axis=1, mode="max", sort="value"), [x, np.array(5)])
    with pytest.raises(OpError, match="stable"):
        op.compute(op.Attrs(axis=1, mode="max", sort="none", stable=True), [x, np.array(2)])
    with pytest.raises(OpError, match="mode"):
        op.infer(op.Attrs(axis=1, mode="largest", sort="value"), [TensorInfo(F32, static_shape([1, 4])),
                                                                  TensorInfo(I64, ())])


# -------------------------------------------------------------------------------------------- OneHot

@pytest.mark.parametrize("axis", [-1, 0, 1, 2])
@pytest.mark.parametrize("on,off,dtype", [(1.0, 0.0, np.float32), (5, -2, np.int32), (True, False, np.bool_)])
def test_one_hot(axis, on, off, dtype) -> None:
    idx = np.array([[0, 2, -1], [3, 1, -4]], np.int64)  # -1, -4 and 3 are outside [0, 3)
    build = lambda p: ops1.one_hot(p, const(3), const(on, dtype), const(off, dtype), axis)  # noqa: E731
    model, inputs = model_of(build, idx)
    check_op(model, inputs, "OneHot")
    model, inputs = model_of(build, idx.astype(np.int32))
    check_op(model, inputs, "OneHot")
    model, _ = model_of(build, idx, [-1, 3])
    check_shapes(model, "OneHot")


@pytest.mark.parametrize("mode", [None, "ignore_negative", "normalize"])
@pytest.mark.parametrize("axis", [-1, 0])
def test_one_hot16_negative_indices(mode, axis) -> None:
    idx = np.array([[0, 2, -1], [3, -3, -4]], np.int64)  # -4 and 3 are outside [-3, 3)
    build = lambda p: ops16.one_hot(p, const(3), const(5.0, np.float32), const(-1.0, np.float32), axis, mode)  # noqa: E731
    model, inputs = model_of(build, idx)
    got = check_op(model, inputs, "OneHot")[0]
    assert (got == 5.0).sum() == (4 if mode == "normalize" else 2)
    model, _ = model_of(build, idx, [2, -1])
    check_shapes(model, "OneHot")


def test_one_hot_folds_and_checks() -> None:
    op = lookup("OneHot", "opset1")
    infos = [TensorInfo(I64, static_shape([2]), np.array([1, 0])), TensorInfo(I64, (), np.array(2)),
             TensorInfo(F32, (), np.array(1, np.float32)), TensorInfo(F32, (), np.array(0, np.float32))]
    (out,) = op.infer(op.Attrs(axis=-1), infos)
    assert out.value.tolist() == [[0, 1], [1, 0]]
    with pytest.raises(OpError, match="same type"):
        op.infer(op.Attrs(), [*infos[:3], TensorInfo(I64, ())])
    with pytest.raises(OpError, match="out of range"):
        op.infer(op.Attrs(axis=3), infos)


# ------------------------------------------------------------------------------------------- NonZero

@pytest.mark.parametrize("output_type", ["i64", "i32"])
@pytest.mark.parametrize("x", [
    np.array([[0, 1.5], [np.nan, 0], [-0.0, -2]], np.float32),
    np.array([[[0, 3], [0, 0]], [[1, 0], [0, 4]]], np.int32),
    np.zeros((2, 3), np.float32),
    np.array([True, False, True]),
    np.array(2.0, np.float32),
], ids=["f32-nan", "i32-3d", "all-zero", "bool", "scalar"])
def test_non_zero(output_type, x) -> None:
    model, inputs = model_of(lambda p: ops3.non_zero(p, output_type), x)
    check_op(model, inputs, "NonZero")
    if x.ndim:
        check_shapes(model, "NonZero")
        model, _ = model_of(lambda p: ops3.non_zero(p, output_type), x, [-1] * x.ndim)
        check_shapes(model, "NonZero")


def test_non_zero_folds_a_known_input() -> None:
    op = lookup("NonZero", "opset3")
    (out,) = op.infer(op.Attrs(), [TensorInfo(I64, static_shape([4]), np.array([0, 7, 0, 1]))])
    assert out.shape == static_shape([1, 2]) and out.value.tolist() == [[1, 3]]
