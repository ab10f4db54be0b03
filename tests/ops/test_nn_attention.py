"""ScaledDotProductAttention-13 against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, I32, Dim, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
o13 = pytest.importorskip("openvino.opset13")

RNG = np.random.default_rng(13)


def rand(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape).astype(np.float32)


def _model(q, k, v, mask=None, scale=None, causal=False, mask_param=False):
    params = [o13.parameter(list(a.shape), np.float32, name=n) for n, a in (("q", q), ("k", k), ("v", v))]
    feeds = {"q": q, "k": k, "v": v}
    extra = []
    if mask is not None:
        if mask_param:
            mp = o13.parameter(list(mask.shape), mask.dtype, name="mask")
            params.append(mp)
            feeds["mask"] = mask
            extra.append(mp)
        else:
            extra.append(o13.constant(mask))
    if scale is not None:
        extra.append(o13.constant(np.array(scale, np.float32)))
    node = o13.scaled_dot_product_attention(*params[:3], *extra, causal=causal)
    return ov.Model([o13.result(node, name="y")], params), feeds


SHAPES = [((2, 4, 3), (2, 5, 3), (2, 5, 6)), ((1, 2, 4, 8), (1, 2, 4, 8), (1, 2, 4, 8)),
          ((2, 3, 5, 4), (1, 3, 6, 4), (2, 1, 6, 2))]


@pytest.mark.parametrize("qs,ks,vs", SHAPES)
@pytest.mark.parametrize("causal", [False, True])
def test_sdpa_plain_and_causal(qs, ks, vs, causal) -> None:
    m, feeds = _model(rand(*qs), rand(*ks), rand(*vs), causal=causal)
    check_op(m, feeds, "ScaledDotProductAttention")


@pytest.mark.parametrize("qs,ks,vs", SHAPES)
def test_sdpa_float_mask_and_scale(qs, ks, vs) -> None:
    mask = rand(qs[-2], ks[-2])
    m, feeds = _model(rand(*qs), rand(*ks), rand(*vs), mask=mask, scale=0.3)
    check_op(m, feeds, "ScaledDotProductAttention")


def test_sdpa_boolean_mask() -> None:
    q, k, v = rand(2, 3, 4, 8), rand(2, 3, 5, 8), rand(2, 3, 5, 8)
    mask = RNG.random((2, 1, 4, 5)) > 0.4
    mask[..., 0] = True  # every row keeps one key: no row is wholly masked
    m, feeds = _model(q, k, v, mask=mask, mask_param=True)
    check_op(m, feeds, "ScaledDotProductAttention")


def test_sdpa_causal_ignores_the_mask() -> None:
    q, k, v = rand(1, 4, 8), rand(1, 4, 8), rand(1, 4, 8)
    m, feeds = _model(q, k, v, mask=rand(4, 4), causal=True)
    check_op(m, feeds, "ScaledDotProductAttention")


def test_sdpa_shapes_and_errors() -> None:
    op = lookup("ScaledDotProductAttention", "opset13")
    attrs, _ = bind_attrs(op.Attrs, {"causal": "false"})
    q = TensorInfo(F32, (DYNAMIC, Dim.of(8), Dim(1, 64), Dim.of(16)))
    k = TensorInfo(F32, (Dim.of(1), Dim.of(8), DYNAMIC, Dim.of(16)))
    v = TensorInfo(F32, (Dim.of(1), Dim.of(8), DYNAMIC, Dim.of(32)))
    (out,) = op.infer(attrs, [q, k, v])
    assert out.shape == (DYNAMIC, Dim.of(8), Dim(1, 64), Dim.of(32))
    with pytest.raises(OpError, match="feature dim"):
        op.infer(attrs, [TensorInfo(F32, static_shape((1, 2, 3))), TensorInfo(F32, static_shape((1, 2, 4))), v])
    with pytest.raises(OpError, match="source length"):
        op.infer(attrs, [TensorInfo(F32, static_shape((1, 2, 4))), TensorInfo(F32, static_shape((1, 5, 4))),
                         TensorInfo(F32, static_shape((1, 6, 4)))])
    with pytest.raises(OpError, match="floating-point"):
        op.infer(attrs, [TensorInfo(I32, None)] * 3)
    with pytest.raises(OpError, match="do not broadcast"):
        op.infer(attrs, [TensorInfo(F32, static_shape((2, 3, 4))), TensorInfo(F32, static_shape((3, 5, 4))),
                         TensorInfo(F32, static_shape((1, 5, 4)))])


@pytest.mark.parametrize("sink_shape", [(2, 4, 1), (1, 4, 1)])
def test_sdpa_sink_input(sink_shape) -> None:
    # The Python factory has no sink argument: the sixth input is attached to the node directly.
    q, k, v = rand(2, 4, 8), rand(2, 5, 8), rand(2, 5, 3)
    params = [o13.parameter(list(a.shape), np.float32, name=n) for n, a in (("q", q), ("k", k), ("v", v))]
    mask, scale, sink = o13.constant(rand(4, 5)), o13.constant(np.float32(0.4)), o13.constant(rand(*sink_shape))
    node = o13.scaled_dot_product_attention(*params, mask, scale)
    node.set_arguments([*params, mask, scale, sink])
    node.validate_and_infer_types()
    m = ov.Model([o13.result(node, name="y")], params)
    check_op(m, {"q": q, "k": k, "v": v}, "ScaledDotProductAttention")
