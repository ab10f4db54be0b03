"""GatherElements-6, GatherND-5/8, ScatterUpdate-3, ScatterElementsUpdate-3/12, ScatterNDUpdate-3/15 vs OpenVINO."""

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
ops3 = pytest.importorskip("openvino.opset3")
ops4 = pytest.importorskip("openvino.opset4")
ops5 = pytest.importorskip("openvino.opset5")
ops6 = pytest.importorskip("openvino.opset6")
ops8 = pytest.importorskip("openvino.opset8")
ops12 = pytest.importorskip("openvino.opset12")

RNG = np.random.default_rng(3)


def const(v, dtype=np.int64):
    return ops.constant(np.array(v, dtype))


def data(shape, dtype=np.float32):
    a = np.arange(int(np.prod(shape))).reshape(shape) - 5
    return (a % 3 == 0) if dtype == np.bool_ else a.astype(dtype)


# ----------------------------------------------------------------------------------- GatherElements

GE_CASES = [
    ([2, 3, 4], [[[0, 1, 2, 0]], [[2, 2, 1, 0]]], 1),
    ([2, 3, 4], [[[0, -1, 2, -4], [3, 1, 1, 0], [1, 1, 1, 1]]] * 2, -1),
    ([3, 2], [[2, 0], [0, 1], [1, 1], [2, 2]], 0),
    ([5], [4, -5, 0, -1], 0),
]


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.bool_])
@pytest.mark.parametrize("shape,indices,axis", GE_CASES)
def test_gather_elements(dtype, shape, indices, axis) -> None:
    idx = np.array(indices, np.int64)
    model, inputs = model_of(lambda x: ops6.gather_elements(x, const(idx), axis), data(shape, dtype))
    check_op(model, inputs, "GatherElements")
    model, inputs = model_of(lambda x, i: ops6.gather_elements(x, i, axis), data(shape, dtype),
                             extra=[("i", idx.astype(np.int32))])
    check_op(model, inputs, "GatherElements")


def test_gather_elements_partial_shapes_and_errors() -> None:
    x = ops.parameter([-1, 3, 4], np.float32, name="x")
    i = ops.parameter([2, -1, 4], np.int64, name="i")
    check_shapes(ov.Model([ops.result(ops6.gather_elements(x, i, 1))], [x, i]), "GatherElements")
    op = lookup("GatherElements", "opset6")
    with pytest.raises(OpError, match="out of range"):
        op.compute(op.Attrs(axis=0), [np.zeros(3, np.float32), np.array([3])])
    with pytest.raises(OpError, match="dim 0 differs"):
        op.infer(op.Attrs(axis=1), [TensorInfo(F32, static_shape([2, 3])), TensorInfo(I64, static_shape([3, 3]))])


# ----------------------------------------------------------------------------------------- GatherND

GND_CASES = [
    # data shape, indices, batch_dims
    ([3, 4], [[1, 2], [0, 3], [2, -1]], 0),
    ([3, 4], [[1], [-3]], 0),
    ([2, 3, 4], [[[0, 1]], [[2, 3]]], 1),
    ([2, 3, 4], [[1], [2]], 1),
    ([2, 3, 2, 2], [[[1], [0], [1]], [[0], [1], [1]]], 2),
    ([2, 3], [[[1, 2]]], 0),
]


@pytest.mark.parametrize("version,type_", [(ops8, "8"), (ops5, "5")])
@pytest.mark.parametrize("shape,indices,batch_dims", GND_CASES)
def test_gather_nd(version, type_, shape, indices, batch_dims) -> None:
    idx = np.array(indices, np.int64)
    for dtype in (np.float32, np.int64):
        model, inputs = model_of(lambda x: version.gather_nd(x, const(idx), batch_dims), data(shape, dtype))
        check_op(model, inputs, "GatherND")
    dyn = [-1] * len(shape)
    model, _ = model_of(lambda x: version.gather_nd(x, const(idx), batch_dims), data(shape), dyn)
    check_shapes(model, "GatherND")
    model, _ = model_of(lambda x, i: version.gather_nd(x, i, batch_dims), data(shape), [2, -1, *shape[2:]]
                        if len(shape) > 2 else None, extra=[("i", idx.astype(np.int32))])
    check_shapes(model, "GatherND")


def test_gather_nd_out_of_range_index() -> None:
    op = lookup("GatherND", "opset8")
    with pytest.raises(OpError, match="out of range"):
        op.compute(op.Attrs(), [np.zeros((3, 4), np.float32), np.array([[3, 0]])])
    with pytest.raises(OpError, match="exceed the rank"):
        op.infer(op.Attrs(), [TensorInfo(F32, static_shape([3])), TensorInfo(I64, static_shape([1, 2]))])


# ------------------------------------------------------------------------------------- ScatterUpdate

SU_CASES = [
    ([4, 3], [2, 0], 0),
    ([4, 3], [[1, 2]], 1),
    ([2, 3, 4], [3, 0], -1),
    ([3, 2], [1, 1], 0),  # duplicate index: the last update wins
    ([3, 2], [[2], [0]], 0),  # 2-D indices (the CPU plugin rejects scalar ones)
]


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
@pytest.mark.parametrize("shape,indices,axis", SU_CASES)
def test_scatter_update(dtype, shape, indices, axis) -> None:
    idx = np.array(indices, np.int64)
    ax = axis % len(shape)
    ushape = shape[:ax] + list(idx.shape) + shape[ax + 1:]
    upd = (RNG.standard_normal(ushape) * 10).astype(dtype)
    build = lambda x, u: ops3.scatter_update(x, const(idx), u, const(axis))  # noqa: E731
    model, inputs = model_of(build, data(shape, dtype), extra=[("u", upd)])
    check_op(model, inputs, "ScatterUpdate")
    model, _ = model_of(build, data(shape, dtype), [-1] * len(shape), extra=[("u", upd)])
    check_shapes(model, "ScatterUpdate")


def test_scatter_update_negative_indices_count_from_the_end() -> None:
    # The CPU plugin rejects negative indices at inference; irlint counts them from the end like the
    # other scatters (docs/semantics.md), checked here against the positive spelling.
    op = lookup("ScatterUpdate", "opset3")
    x, upd = data([4, 3]), np.array([[[10, 11, 12, 13]]], np.float32).reshape(4, 1, 1)[:, 0]
    neg = op.compute(op.Attrs(), [x, np.array([-1]), upd, np.array(1)])[0]
    pos = op.compute(op.Attrs(), [x, np.array([2]), upd, np.array(1)])[0]
    np.testing.assert_array_equal(neg, pos)
    assert pos[:, 2].tolist() == [10, 11, 12, 13]
    with pytest.raises(OpError, match="out of range"):
        op.compute(op.Attrs(), [x, np.array([3]), upd, np.array(1)])
    # Scalar indices (the CPU plugin rejects them): updates lose that dim.
    scalar = op.compute(op.Attrs(), [x, np.array(2), upd[:, 0], np.array(1)])[0]
    np.testing.assert_array_equal(scalar, pos)


# ----------------------------------------------------------------------------- ScatterElementsUpdate

SEU_CASES = [
    ([3, 3], [[1, 0, 2], [0, 2, 1]], 0),
    ([3, 3], [[1, 1], [-1, 0]], 1),
    ([2, 3, 4], [[[0, 3, 3, 1]], [[2, -1, 0, 0]]], -1),
    ([4], [0, 0, 3, 0, 3], 0),  # duplicates
]


@pytest.mark.parametrize("shape,indices,axis", SEU_CASES)
@pytest.mark.parametrize("version,reduction,init", [(ops3, None, True)] + [
    (ops12, r, init) for r in ("none", "sum", "prod", "min", "max", "mean") for init in (True, False)])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_scatter_elements_update(shape, indices, axis, version, reduction, init, dtype) -> None:
    idx = np.array(indices, np.int64)
    upd = (RNG.standard_normal(idx.shape) * 7).astype(dtype)
    x = data(shape, dtype)
    if reduction == "mean" and dtype == np.int32:
        # Negative integer means round down in the reference, toward zero on the CPU plugin:
        # compared here on non-negative values, the negative case in the test below.
        x, upd = np.abs(x), np.abs(upd)
    if reduction is None:
        build = lambda x, u: ops3.scatter_elements_update(x, const(idx), u, const(axis))  # noqa: E731
    else:
        build = lambda x, u: ops12.scatter_elements_update(x, const(idx), u, const(axis), reduction, init)  # noqa: E731
    model, inputs = model_of(build, x, extra=[("u", upd)])
    check_op(model, inputs, "ScatterElementsUpdate")


def test_scatter_elements_update_duplicates_and_bool() -> None:
    idx = np.array([0, 0, 3, 0, 3, 1], np.int64)
    for reduction, init in (("none", True), ("sum", True), ("mean", True), ("mean", False), ("prod", False)):
        upd = np.array([5, 3, 7, 4, 6, 2], np.int32)
        build = lambda x, u, r=reduction, i=init: ops12.scatter_elements_update(x, const(idx), u, const(0), r, i)  # noqa: E731
        model, inputs = model_of(build, np.array([1, 2, 3, 4, 5, 6, 7], np.int32), extra=[("u", upd)])
        check_op(model, inputs, "ScatterElementsUpdate")
    for reduction in ("sum", "prod", "min", "max"):
        upd = np.array([True, False, True, False, False, True])
        build = lambda x, u, r=reduction: ops12.scatter_elements_update(x, const(idx), u, const(0), r, True)  # noqa: E731
        model, inputs = model_of(build, np.array([True, False, True, False, True, False, True]), extra=[("u", upd)])
        check_op(model, inputs, "ScatterElementsUpdate")


def test_scatter_elements_update_integer_mean_rounds_down() -> None:
    # OpenVINO's reference rounds an integer mean down (towards -inf); the CPU plugin truncates.
    op = lookup("ScatterElementsUpdate", "opset12")
    x = np.array([-5, 4, 0], np.int32)
    idx, upd = np.array([0, 0, 1, 2]), np.array([-6, 0, 1, -1], np.int32)
    got = op.compute(op.Attrs("mean", True), [x, idx, upd, np.array(0)])[0]
    assert got.tolist() == [-4, 2, -1]  # (-5-6+0)/3 = -3.67, (4+1)/2 = 2.5, (0-1)/2 = -0.5
    got = op.compute(op.Attrs("mean", False), [x, idx, upd, np.array(0)])[0]
    assert got.tolist() == [-3, 1, -1]
    np.testing.assert_allclose(op.compute(op.Attrs("mean", True), [x.astype(np.float32), idx,
                                          upd.astype(np.float32), np.array(0)])[0], [-11 / 3, 2.5, -0.5])


def test_scatter_elements_update_partial_shapes() -> None:
    x = ops.parameter([-1, 3], np.float32, name="x")
    i = ops.parameter([-1, 2], np.int64, name="i")
    u = ops.parameter([2, -1], np.float32, name="u")
    model = ov.Model([ops.result(ops12.scatter_elements_update(x, i, u, const(1), "sum"))], [x, i, u])
    check_shapes(model, "ScatterElementsUpdate")
    op = lookup("ScatterElementsUpdate", "opset12")
    with pytest.raises(OpError, match="out of range"):
        op.compute(op.Attrs(), [np.zeros(3, np.float32), np.array([-4]), np.zeros(1, np.float32), np.array(0)])


# ----------------------------------------------------------------------------------- ScatterNDUpdate

SND_CASES = [
    ([4, 3], [[1], [3]]),
    ([4, 3], [[1, 2], [-1, 0], [0, -3]]),
    ([2, 3, 2], [[[0, 1], [1, 2]], [[1, 0], [0, 1]]]),
    ([4], [[1], [1], [3], [1]]),  # duplicates: the last one wins (ScatterNDUpdate-3 leaves it undefined)
]


@pytest.mark.parametrize("shape,indices", SND_CASES)
@pytest.mark.parametrize("version,reduction", [(ops4, None)] + [(ops, r) for r in
                                                                 ("none", "sum", "sub", "prod", "min", "max")])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_scatter_nd_update(shape, indices, version, reduction, dtype) -> None:
    idx = np.array(indices, np.int64)
    k = idx.shape[-1]
    upd = (RNG.standard_normal(list(idx.shape[:-1]) + shape[k:]) * 5).astype(dtype)
    if reduction is None:
        build = lambda x, u: version.scatter_nd_update(x, const(idx), u)  # noqa: E731
    else:
        build = lambda x, u: version.scatter_nd_update(x, const(idx), u, reduction)  # noqa: E731
    model, inputs = model_of(build, data(shape, dtype), extra=[("u", upd)])
    check_op(model, inputs, "ScatterNDUpdate")
    model, _ = model_of(build, data(shape, dtype), [-1] * len(shape), extra=[("u", upd)])
    check_shapes(model, "ScatterNDUpdate")


def test_scatter_nd_update_errors() -> None:
    op = lookup("ScatterNDUpdate", "opset15")
    with pytest.raises(OpError, match="out of range"):
        op.compute(op.Attrs(), [np.zeros(3, np.float32), np.array([[3]]), np.zeros(1, np.float32)])
    with pytest.raises(OpError, match="updates"):
        op.infer(op.Attrs(), [TensorInfo(F32, static_shape([4, 3])), TensorInfo(I64, static_shape([2, 1])),
                              TensorInfo(F32, static_shape([2, 4]))])


@pytest.mark.parametrize("type_name", ["ScatterElementsUpdate", "ScatterNDUpdate"])
def test_scatter_min_max_with_nan_follow_the_reference(type_name) -> None:
    # The reference's `acc > upd ? acc : upd`: the update wins whenever a NaN is involved. The CPU
    # plugin keeps the accumulator instead ([nan, 1, 5, nan] for max; docs/semantics.md).
    x = np.array([np.nan, 1, 2, np.nan], np.float32)
    u = np.array([1, np.nan, 5, np.nan], np.float32)
    idx = np.arange(4)
    if type_name == "ScatterElementsUpdate":
        op = lookup(type_name, "opset12")
        run = lambda r: op.compute(op.Attrs(r), [x, idx, u, np.array(0)])[0]  # noqa: E731
    else:
        op = lookup(type_name, "opset15")
        run = lambda r: op.compute(op.Attrs(r), [x, idx.reshape(4, 1), u])[0]  # noqa: E731
    np.testing.assert_array_equal(run("max"), [1, np.nan, 5, np.nan])
    np.testing.assert_array_equal(run("min"), [1, np.nan, 2, np.nan])
    np.testing.assert_array_equal(run("sum"), [np.nan, np.nan, 7, np.nan])
