"""NV12toRGB/BGR-8 and I420toRGB/BGR-8 against OpenVINO's CPU plugin (single and separate planes, u8/f32)."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, lookup
from irlint.types import U8, static_shape
from tests.opcheck import check_op
from tests.opdyn import check_infer

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset8")

RNG = np.random.default_rng(12)
N, H, W = 2, 4, 6


def _planes(dtype, kind, planes):
    y = RNG.integers(0, 256, (N, H, W, 1)).astype(dtype)
    u = RNG.integers(0, 256, (N, H // 2, W // 2, 1)).astype(dtype)
    v = RNG.integers(0, 256, (N, H // 2, W // 2, 1)).astype(dtype)
    if planes == 1:
        if kind == "nv12":
            chroma = np.concatenate([u, v], axis=-1).reshape(N, H // 2, W, 1)
        else:
            chroma = np.concatenate([u.reshape(N, -1), v.reshape(N, -1)], axis=1).reshape(N, H // 2, W, 1)
        return [np.concatenate([y, chroma], axis=1)]
    if kind == "nv12":
        return [y, np.concatenate([u, v], axis=-1)]
    return [y, u, v]


@pytest.mark.parametrize("planes", [1, 2])
@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
@pytest.mark.parametrize("name,fn", [("NV12toRGB", ops.nv12_to_rgb), ("NV12toBGR", ops.nv12_to_bgr),
                                     ("I420toRGB", ops.i420_to_rgb), ("I420toBGR", ops.i420_to_bgr)])
def test_convert(name, fn, dtype, planes) -> None:
    kind = name[:4].lower()
    arrays = _planes(dtype, kind, planes if kind == "nv12" else (1 if planes == 1 else 3))
    params = [ops.parameter(list(a.shape), dtype, name=f"p{i}") for i, a in enumerate(arrays)]
    model = ov.Model([ops.result(fn(*params), name="y")], params)
    feed = {f"p{i}": a for i, a in enumerate(arrays)}
    check_op(model, feed, name, atol=1e-3, exact=dtype == np.uint8)


def test_partial_shapes_and_errors() -> None:
    p = ops.parameter(ov.PartialShape("[?,?,?,1]"), np.uint8, name="y")
    check_infer(ov.Model([ops.result(ops.nv12_to_rgb(p), name="o")], [p]), "NV12toRGB")
    p = ops.parameter(ov.PartialShape("[1,6,4,1]"), np.uint8, name="y")
    check_infer(ov.Model([ops.result(ops.i420_to_bgr(p), name="o")], [p]), "I420toBGR")
    op = lookup("NV12toRGB", "opset8")
    with pytest.raises(OpError, match="divisible by 3"):
        op.infer(None, [TensorInfo(U8, static_shape([1, 5, 4, 1]))])
    with pytest.raises(OpError, match="2 channel"):
        op.infer(None, [TensorInfo(U8, static_shape([1, 4, 4, 1])), TensorInfo(U8, static_shape([1, 2, 2, 1]))])
