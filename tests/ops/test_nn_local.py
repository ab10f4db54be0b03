"""GroupNormalization, LRN, GRN, AdaptiveAvgPool and AdaptiveMaxPool against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, I32, I64, Dim, static_shape
from tests.opcheck import check_op
from tests.opcheck import op_model as model

ov = pytest.importorskip("openvino")
o1 = pytest.importorskip("openvino.opset1")
o8 = pytest.importorskip("openvino.opset8")
o12 = pytest.importorskip("openvino.opset12")

RNG = np.random.default_rng(17)


@pytest.mark.parametrize("shape,groups", [((2, 6, 4), 3), ((1, 4, 3, 5), 2), ((2, 4, 3, 2), 4), ((1, 6, 2, 2, 3), 1),
                                          ((3, 8), 4)])
def test_group_normalization(shape, groups) -> None:
    x = (RNG.standard_normal(shape) * 2 + 1).astype(np.float32)
    scale, bias = RNG.standard_normal(shape[1]).astype(np.float32), RNG.standard_normal(shape[1]).astype(np.float32)
    m, inputs = model(lambda p: o12.group_normalization(p, scale, bias, groups, 1e-4), x)
    check_op(m, inputs, "GroupNormalization")


@pytest.mark.parametrize("axes", [[1], [2, 3]])
@pytest.mark.parametrize("size", [1, 3, 4, 5])
def test_lrn(axes, size) -> None:
    x = RNG.standard_normal((2, 6, 4, 5)).astype(np.float32)
    m, inputs = model(lambda p: o1.lrn(p, o1.constant(np.array(axes, np.int64)), 0.3, 0.75, 2.0, size), x)
    check_op(m, inputs, "LRN")


def _lrn_by_definition(x: np.ndarray, axes: list[int], alpha: float, beta: float, bias: float, size: int):
    """The reference kernel's loop, element by element (tiny inputs only)."""
    half = (size - 1) // 2
    out = np.empty_like(x, dtype=np.float64)
    for idx in np.ndindex(x.shape):
        box = tuple(slice(max(0, i - half), min(n, i + half + 1)) if a in axes else slice(i, i + 1)
                    for a, (i, n) in enumerate(zip(idx, x.shape)))
        total = np.sum(x[box].astype(np.float64) ** 2)
        out[idx] = x[idx] / (bias + alpha / size ** len(axes) * total) ** beta
    return out


@pytest.mark.parametrize("axes", [[1, 2, 3], [3], [0, 2]])
@pytest.mark.parametrize("size", [2, 3])
def test_lrn_other_axes_by_definition(axes, size) -> None:
    # The CPU plugin runs LRN across channels or across all spatial axes only, and LRN has no
    # Node.evaluate: other axis sets are checked against the reference kernel's definition.
    x = RNG.standard_normal((2, 3, 4, 3)).astype(np.float32)
    op = lookup("LRN", "opset1")
    attrs, _ = bind_attrs(op.Attrs, {"alpha": "0.3", "beta": "0.75", "bias": "2", "size": str(size)})
    (got,) = op.compute(attrs, [x, np.array(axes, np.int64)])
    np.testing.assert_allclose(got, _lrn_by_definition(x, axes, 0.3, 0.75, 2.0, size), rtol=1e-5)


@pytest.mark.parametrize("shape", [(2, 5), (2, 3, 4), (1, 4, 3, 2)])
@pytest.mark.parametrize("bias", [1e-6, 2.5])
def test_grn(shape, bias) -> None:
    x = RNG.standard_normal(shape).astype(np.float32)
    m, inputs = model(lambda p: o1.grn(p, bias), x)
    check_op(m, inputs, "GRN")


ADAPTIVE = [((2, 3, 7), [3]), ((1, 2, 7, 5), [3, 2]), ((1, 2, 4, 6), [4, 6]), ((1, 2, 5, 4), [8, 3]),
            ((1, 1, 3, 5, 4), [2, 2, 3]), ((1, 2, 6, 6), [1, 1])]


@pytest.mark.parametrize("shape,out", ADAPTIVE)
def test_adaptive_avg_pool(shape, out) -> None:
    x = RNG.standard_normal(shape).astype(np.float32)
    m, inputs = model(lambda p: o8.adaptive_avg_pool(p, o1.constant(np.array(out, np.int64))), x)
    check_op(m, inputs, "AdaptiveAvgPool")


@pytest.mark.parametrize("shape,out", ADAPTIVE)
def test_adaptive_max_pool(shape, out) -> None:
    x = RNG.standard_normal(shape).astype(np.float32)
    m, inputs = model(lambda p: o8.adaptive_max_pool(p, o1.constant(np.array(out, np.int32)), "i32"), x)
    got = check_op(m, inputs, "AdaptiveMaxPool")
    # i64 indices: the CPU plugin cannot emit them and the op has no Node.evaluate; same indices, wider type.
    op = lookup("AdaptiveMaxPool", "opset8")
    attrs, _ = bind_attrs(op.Attrs, {"index_element_type": "i64"})
    values, index = op.compute(attrs, [x, np.array(out, np.int64)])
    assert index.dtype == np.int64 and np.array_equal(index, got[1]) and np.array_equal(values, got[0])


def test_adaptive_max_pool_ties_take_the_first_in_row_major_order() -> None:
    x = np.array([[[[1, 7, 7], [7, 0, 7]]]], np.float32)
    m, inputs = model(lambda p: o8.adaptive_max_pool(p, o1.constant(np.array([1, 1], np.int64)), "i32"), x)
    got = check_op(m, inputs, "AdaptiveMaxPool")
    assert got[1].item() == 1


def test_local_norm_and_adaptive_shapes() -> None:
    gn = lookup("GroupNormalization", "opset12")
    attrs, _ = bind_attrs(gn.Attrs, {"num_groups": "4", "epsilon": "1e-5"})
    c6 = TensorInfo(F32, static_shape((6,)))
    with pytest.raises(OpError, match="do not split"):
        gn.infer(attrs, [TensorInfo(F32, static_shape((1, 6, 3))), c6, c6])
    assert gn.infer(attrs, [TensorInfo(F32, (DYNAMIC, DYNAMIC, Dim.of(3))), c6, c6])[0].shape == (DYNAMIC, DYNAMIC,
                                                                                                  Dim.of(3))
    amp = lookup("AdaptiveMaxPool", "opset8")
    a_attrs, _ = bind_attrs(amp.Attrs, {"index_element_type": "i32"})
    outs = amp.infer(a_attrs, [TensorInfo(F32, (DYNAMIC, Dim.of(3), Dim(4, 9), Dim.of(5))),
                               TensorInfo(I64, static_shape((2,)))])
    assert [o.etype for o in outs] == [F32, I32] and outs[0].shape == (DYNAMIC, Dim.of(3), DYNAMIC, DYNAMIC)
    with pytest.raises(OpError, match="1 values for 2 spatial axes"):
        amp.infer(a_attrs, [TensorInfo(F32, static_shape((1, 2, 3, 4))), TensorInfo(I64, static_shape((1,)))])
    lrn = lookup("LRN", "opset1")
    l_attrs, _ = bind_attrs(lrn.Attrs, {"alpha": "1", "beta": "0.5", "bias": "1", "size": "3"})
    with pytest.raises(OpError, match="out of range"):
        lrn.infer(l_attrs, [TensorInfo(F32, static_shape((1, 2, 3))), TensorInfo(I64, static_shape((1,)),
                                                                                   np.array([3]))])
