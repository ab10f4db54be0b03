"""EmbeddingBag*/EmbeddingSegmentsSum against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, I32, Dim, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
o3 = pytest.importorskip("openvino.opset3")
o15 = pytest.importorskip("openvino.opset15")

RNG = np.random.default_rng(23)
TABLE = RNG.standard_normal((6, 3, 2)).astype(np.float32)
INDICES = np.array([0, 2, 3, 5, 1, 1, 4], np.int32)


def model(build):
    p = o3.parameter(list(TABLE.shape), np.float32, name="table")
    return ov.Model([o3.result(build(p), name="y")], [p]), {"table": TABLE}


def c(values, dtype=np.int32):
    return o3.constant(np.array(values, dtype))


WEIGHTS = RNG.standard_normal(7).astype(np.float32)


@pytest.mark.parametrize("offsets", [[0, 2, 5], [0, 2, 2, 7], [0, 0, 3]])
@pytest.mark.parametrize("default", [None, 4])
@pytest.mark.parametrize("weighted", [False, True])
def test_embedding_bag_offsets_sum(offsets, default, weighted) -> None:
    extra = []
    if default is not None or weighted:
        extra.append(c(default if default is not None else -1))
    if weighted:
        extra.append(o3.constant(WEIGHTS))
    m, inputs = model(lambda p: o3.embedding_bag_offsets_sum(p, c(INDICES), c(offsets), *extra))
    if offsets[-1] < len(INDICES):
        check_op(m, inputs, "EmbeddingBagOffsetsSum")
        return
    # An empty last bag (offset == number of indices): the CPU plugin rejects that offset and the op has
    # no Node.evaluate, so the spec's definition is computed bag by bag.
    op = lookup("EmbeddingBagOffsetsSum", "opset3")
    args = [TABLE, INDICES, np.array(offsets, np.int32)]
    args += [np.int32(default if default is not None else -1)] if extra else []
    args += [WEIGHTS] if weighted else []
    (got,) = op.compute(None, args)
    bounds = [*offsets, len(INDICES)]
    bags = [list(range(bounds[b], bounds[b + 1])) for b in range(len(offsets))]
    want = _by_definition(bags, WEIGHTS if weighted else None, default)
    np.testing.assert_allclose(got, want, rtol=1e-6)


def _by_definition(bags: list[list[int]], weights, default) -> np.ndarray:
    """Each bag's (weighted) sum of table rows, one bag at a time; an empty bag is the default row or 0."""
    out = []
    for positions in bags:
        if not positions:
            out.append(TABLE[default] if default is not None and default >= 0 else np.zeros(TABLE.shape[1:]))
            continue
        w = [1.0] * len(positions) if weights is None else [weights[k] for k in positions]
        out.append(sum(wk * TABLE[INDICES[k]].astype(np.float64) for wk, k in zip(w, positions)))
    return np.array(out)


@pytest.mark.parametrize("reduction", ["sum", "mean"])
@pytest.mark.parametrize("default", [None, 3])
def test_embedding_bag_offsets_v15(reduction, default) -> None:
    extra = {} if default is None else {"default_index": c(default)}
    m, inputs = model(lambda p: o15.embedding_bag_offsets(p, c(INDICES), c([0, 3, 3, 4]), reduction=reduction,
                                                          **extra))
    check_op(m, inputs, "EmbeddingBagOffsets")


@pytest.mark.parametrize("weighted", [False, True])
def test_embedding_bag_packed_sum(weighted) -> None:
    idx = np.array([[0, 2], [5, 5], [1, 4]], np.int64)
    extra = [o3.constant(RNG.standard_normal((3, 2)).astype(np.float32))] if weighted else []
    m, inputs = model(lambda p: o3.embedding_bag_packed_sum(p, c(idx, np.int64), *extra))
    check_op(m, inputs, "EmbeddingBagPackedSum")


@pytest.mark.parametrize("reduction", ["sum", "mean"])
def test_embedding_bag_packed_v15(reduction) -> None:
    idx = np.array([[0, 2, 3], [5, 5, 1]], np.int32)
    m, inputs = model(lambda p: o15.embedding_bag_packed(p, c(idx), reduction=reduction))
    check_op(m, inputs, "EmbeddingBagPacked")


@pytest.mark.parametrize("segments,num", [([0, 0, 1, 2, 2, 2, 4], 5), ([3, 1, 1, 0, 0, 0, 0], 4)])
@pytest.mark.parametrize("default", [None, 2])
@pytest.mark.parametrize("weighted", [False, True])
def test_embedding_segments_sum(segments, num, default, weighted) -> None:
    kw = {}
    if default is not None or weighted:
        kw["default_index"] = c(default if default is not None else -1)
    if weighted:
        kw["per_sample_weights"] = o3.constant(WEIGHTS)
    m, inputs = model(lambda p: o3.embedding_segments_sum(p, c(INDICES), c(segments), c(num), **kw))
    if default is not None or not weighted:
        check_op(m, inputs, "EmbeddingSegmentsSum")
        return
    # default_index -1 (given only to reach the weights input): the CPU plugin reads it as a row index
    # and fails; the spec leaves empty segments at zero. No Node.evaluate: computed segment by segment.
    op = lookup("EmbeddingSegmentsSum", "opset3")
    (got,) = op.compute(None, [TABLE, INDICES, np.array(segments, np.int32), np.int32(num), np.int32(-1), WEIGHTS])
    bags = [[k for k, sg in enumerate(segments) if sg == j] for j in range(num)]
    np.testing.assert_allclose(got, _by_definition(bags, WEIGHTS, None), rtol=1e-6)


def test_embedding_shapes_and_errors() -> None:
    op = lookup("EmbeddingSegmentsSum", "opset3")
    table = TensorInfo(F32, (DYNAMIC, Dim.of(4)))
    idx = TensorInfo(I32, static_shape((5,)))
    (out,) = op.infer(None, [table, idx, idx, TensorInfo(I32, (), np.array(7, np.int32))])
    assert out.shape == (Dim.of(7), Dim.of(4))
    (out,) = op.infer(None, [table, idx, idx, TensorInfo(I32, ())])
    assert out.shape == (DYNAMIC, Dim.of(4))
    with pytest.raises(OpError, match="integers"):
        op.infer(None, [table, TensorInfo(F32, static_shape((5,))), idx, TensorInfo(I32, ())])
    bag = lookup("EmbeddingBagOffsets", "opset15")
    attrs, _ = bind_attrs(bag.Attrs, {"reduction": "mean"})
    with pytest.raises(OpError, match="only allowed with reduction=sum"):
        bag.infer(attrs, [table, idx, idx, TensorInfo(I32, ()), TensorInfo(F32, static_shape((5,)))])
    with pytest.raises(OpError, match="outside the table"):
        bag.compute(attrs, [TABLE, np.array([0, 9], np.int32), np.array([0], np.int32)])
