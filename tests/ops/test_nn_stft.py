"""STFT-15 against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, I64, Dim, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
o15 = pytest.importorskip("openvino.opset15")

RNG = np.random.default_rng(79)


@pytest.mark.parametrize("shape", [(2, 40), (33,)])
@pytest.mark.parametrize("window_len,size,step", [(16, 16, 4), (11, 16, 5), (8, 9, 9), (5, 5, 1)])
@pytest.mark.parametrize("transpose", [False, True])
def test_stft(shape, window_len, size, step, transpose) -> None:
    x = RNG.standard_normal(shape).astype(np.float32)
    window = np.hanning(window_len).astype(np.float32)
    p = o15.parameter(list(shape), np.float32, name="x")
    node = o15.stft(p, o15.constant(window), o15.constant(np.int64(size)), o15.constant(np.int64(step)), transpose)
    check_op(ov.Model([o15.result(node, name="y")], [p]), {"x": x}, "STFT", rtol=2e-4, atol=2e-4)


def test_stft_shapes_and_errors() -> None:
    op = lookup("STFT", "opset15")
    attrs, _ = bind_attrs(op.Attrs, {"transpose_frames": "true"})
    scalar = lambda v: TensorInfo(I64, (), np.array(v, np.int64))  # noqa: E731
    (out,) = op.infer(attrs, [TensorInfo(F32, (DYNAMIC, Dim(20, 40))), TensorInfo(F32, static_shape((16,))),
                              scalar(16), scalar(4)])
    assert out.shape == (DYNAMIC, Dim.of(9), Dim(2, 7), Dim.of(2))
    with pytest.raises(OpError, match="longer than frame_size"):
        op.infer(attrs, [TensorInfo(F32, None), TensorInfo(F32, static_shape((20,))), scalar(16), scalar(4)])
    with pytest.raises(OpError, match="shorter than frame_size"):
        op.infer(attrs, [TensorInfo(F32, static_shape((2, 10))), TensorInfo(F32, static_shape((8,))), scalar(16),
                         scalar(4)])


o16 = pytest.importorskip("openvino.opset16")


@pytest.mark.parametrize("window_len,size,step", [(16, 16, 4), (11, 16, 5), (8, 8, 8)])
@pytest.mark.parametrize("center,normalized", [(False, False), (True, False), (True, True)])
@pytest.mark.parametrize("length", [None, 37, 20])
@pytest.mark.parametrize("batched", [True, False])
def test_istft(window_len, size, step, center, normalized, length, batched) -> None:
    frames = 6
    shape = ([2] if batched else []) + [size // 2 + 1, frames, 2]
    x = RNG.standard_normal(shape).astype(np.float32)
    window = np.hanning(window_len + 2)[1:-1].astype(np.float32)  # no zero ends: every sample is covered
    p = o16.parameter(list(shape), np.float32, name="x")
    extra = [] if length is None else [o16.constant(np.int64(length))]
    node = o16.istft(p, o16.constant(window), o16.constant(np.int64(size)), o16.constant(np.int64(step)), center,
                     normalized, *extra)
    check_op(ov.Model([o16.result(node, name="y")], [p]), {"x": x}, "ISTFT", rtol=2e-4, atol=2e-4)


def test_istft_shapes() -> None:
    op = lookup("ISTFT", "opset16")
    attrs, _ = bind_attrs(op.Attrs, {"center": "true", "normalized": "false"})
    scalar = lambda v: TensorInfo(I64, (), np.array(v, np.int64))  # noqa: E731
    (out,) = op.infer(attrs, [TensorInfo(F32, (DYNAMIC, Dim.of(9), Dim(3, 5), Dim.of(2))),
                              TensorInfo(F32, static_shape((16,))), scalar(16), scalar(4)])
    assert out.shape == (DYNAMIC, Dim(8, 16))
    with pytest.raises(OpError, match="frequency bins"):
        op.infer(attrs, [TensorInfo(F32, static_shape((8, 3, 2))), TensorInfo(F32, static_shape((16,))),
                         scalar(16), scalar(4)])
