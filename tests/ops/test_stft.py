"""STFT-15 and ISTFT-16 against OpenVINO's CPU plugin: windows shorter than the frame, steps, layouts."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import F32, I64, static_shape
from tests.opcheck import check_op
from tests.opdyn import check_infer

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset16")

RNG = np.random.default_rng(15)
TOL = {"rtol": 1e-4, "atol": 1e-4}


def _i(v):
    return ops.constant(np.array(v, np.int64))


@pytest.mark.parametrize("transpose", [False, True])
@pytest.mark.parametrize("shape,win,size,step", [((2, 48), 16, 16, 4), ((40,), 7, 10, 3), ((1, 33), 8, 8, 8),
                                                 ((3, 20), 5, 6, 1)])
def test_stft(shape, win, size, step, transpose) -> None:
    x = RNG.standard_normal(shape).astype(np.float32)
    w = np.hanning(win).astype(np.float32) + 0.1
    px, pw = ops.parameter(list(shape), np.float32, name="x"), ops.parameter([win], np.float32, name="w")
    node = ops.stft(px, pw, _i(size), _i(step), transpose)
    check_op(ov.Model([ops.result(node, name="y")], [px, pw]), {"x": x, "w": w}, "STFT", **TOL)


@pytest.mark.parametrize("center,normalized", [(False, False), (True, False), (False, True), (True, True)])
@pytest.mark.parametrize("batch,win,size,step,frames,length", [(2, 16, 16, 4, 9, None), (None, 6, 8, 2, 5, None),
                                                               (1, 8, 8, 3, 4, 20), (2, 10, 10, 5, 3, 7)])
def test_istft(batch, win, size, step, frames, length, center, normalized) -> None:
    shape = ([batch] if batch else []) + [size // 2 + 1, frames, 2]
    x = RNG.standard_normal(shape).astype(np.float32)
    w = (np.hanning(win) + 0.2).astype(np.float32)
    px, pw = ops.parameter(shape, np.float32, name="x"), ops.parameter([win], np.float32, name="w")
    node = ops.istft(px, pw, _i(size), _i(step), center, normalized, None if length is None else _i(length))
    check_op(ov.Model([ops.result(node, name="y")], [px, pw]), {"x": x, "w": w}, "ISTFT", **TOL)


def test_partial_shapes_and_errors() -> None:
    px, pw = ops.parameter(ov.PartialShape("[?,?]"), np.float32, name="x"), ops.parameter([8], np.float32, name="w")
    check_infer(ov.Model([ops.result(ops.stft(px, pw, _i(8), _i(2), True), name="y")], [px, pw]), "STFT")
    px = ops.parameter(ov.PartialShape("[2,20..40]"), np.float32, name="x")
    check_infer(ov.Model([ops.result(ops.stft(px, pw, _i(8), _i(3), False), name="y")], [px, pw]), "STFT")
    px = ops.parameter(ov.PartialShape("[?,5,?,2]"), np.float32, name="x")
    check_infer(ov.Model([ops.result(ops.istft(px, pw, _i(8), _i(2), True, False), name="y")], [px, pw]), "ISTFT")
    op = lookup("STFT", "opset15")
    attrs, _ = bind_attrs(op.Attrs, {"transpose_frames": "false"})
    scalar = TensorInfo(I64, static_shape([]), np.array(8))
    with pytest.raises(OpError, match="longer than frame_size"):
        op.infer(attrs, [TensorInfo(F32, static_shape([20])), TensorInfo(F32, static_shape([9])), scalar, scalar])
    with pytest.raises(OpError, match="shorter than frame_size"):
        op.infer(attrs, [TensorInfo(F32, static_shape([5])), TensorInfo(F32, static_shape([8])), scalar, scalar])
