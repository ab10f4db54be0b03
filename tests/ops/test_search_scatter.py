"""SearchSorted-15 and SliceScatter-15 against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import F32, I32, static_shape
from tests.opcheck import check_op
from tests.opdyn import check_infer

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset16")


def _params(*arrays):
    return [ops.parameter(list(a.shape), a.dtype, name=f"p{i}") for i, a in enumerate(arrays)]


SEARCH = [
    (np.array([1, 3, 3, 5, 9], np.float32), np.array([[0, 3, 4], [9, 10, 3.5]], np.float32)),
    (np.array([[1, 2, 3], [0, 5, 7]], np.int32), np.array([[2, 3, 0, 4], [5, 6, 7, 8]], np.int32)),
    (np.array([[[-1, 0, 1, 1]]], np.float32), np.array([[[1.0, -2.0]]], np.float32)),
    (np.array([2, 4], np.int64), np.array(3, np.int64)),
]


@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("seq,values", SEARCH, ids=range(len(SEARCH)))
def test_search_sorted(seq, values, right) -> None:
    ps, pv = _params(seq, values)
    model = ov.Model([ops.result(ops.search_sorted(ps, pv, right), name="y")], [ps, pv])
    check_op(model, {"p0": seq, "p1": values}, "SearchSorted")


def test_search_sorted_shapes_and_errors() -> None:
    ps = ops.parameter(ov.PartialShape("[?,5]"), np.float32, name="s")
    pv = ops.parameter(ov.PartialShape("[3,?]"), np.float32, name="v")
    check_infer(ov.Model([ops.result(ops.search_sorted(ps, pv), name="y")], [ps, pv]), "SearchSorted")
    op = lookup("SearchSorted", "opset15")
    attrs, _ = bind_attrs(op.Attrs, {"output_type": "i64"})
    with pytest.raises(OpError, match="leading dim"):
        op.infer(attrs, [TensorInfo(F32, static_shape([2, 5])), TensorInfo(F32, static_shape([3, 4]))])
    with pytest.raises(OpError, match="same type"):
        op.infer(attrs, [TensorInfo(F32, static_shape([5])), TensorInfo(I32, static_shape([3]))])


DATA = np.arange(4 * 5 * 3, dtype=np.float32).reshape(4, 5, 3)
SCATTER = [  # start, stop, step, axes
    ([1], [3], [1], None), ([0, 1], [4, 5], [2, 2], [0, 1]), ([-1], [-6], [-2], [1]),
    ([2, 0], [100, 2], [1, 1], [2, 0]), ([3], [1], [1], [0]), ([-100], [100], [3], [-1]),
]


@pytest.mark.parametrize("start,stop,step,axes", SCATTER)
def test_slice_scatter(start, stop, step, axes) -> None:
    index = [slice(None)] * 3
    for k, ax in enumerate(axes if axes is not None else range(len(start))):
        index[ax] = slice(start[k], stop[k], step[k])
    upd = -np.arange(DATA[tuple(index)].size, dtype=np.float32).reshape(DATA[tuple(index)].shape) - 1
    pd, pu = _params(DATA, upd)
    c = [ops.constant(np.array(v, np.int64)) for v in (start, stop, step)]
    node = ops.slice_scatter(pd, pu, *c, None if axes is None else ops.constant(np.array(axes, np.int32)))
    check_op(ov.Model([ops.result(node, name="y")], [pd, pu]), {"p0": DATA, "p1": upd}, "SliceScatter")


def test_slice_scatter_errors() -> None:
    op = lookup("SliceScatter", "opset15")
    one = np.array([1], np.int64)
    with pytest.raises(OpError, match="updates have shape"):
        op.compute(None, [DATA, np.zeros((2, 5, 3), np.float32), one, np.array([2]), one])
    with pytest.raises(OpError, match="rank"):
        op.infer(None, [TensorInfo(F32, static_shape([4, 5])), TensorInfo(F32, static_shape([4])),
                        *[TensorInfo(I32, static_shape([1]))] * 3])


def test_slice_scatter_partial_shapes() -> None:
    pd = ops.parameter(ov.PartialShape("[?,5,2..7]"), np.float32, name="d")
    pu = ops.parameter(ov.PartialShape("[?,2,?]"), np.float32, name="u")
    c = [ops.constant(np.array(v, np.int64)) for v in ([1], [3], [1])]
    check_infer(ov.Model([ops.result(ops.slice_scatter(pd, pu, *c, ops.constant(np.array([1]))), name="y")],
                         [pd, pu]), "SliceScatter")
