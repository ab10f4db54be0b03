"""DFT-7, IDFT-7, RDFT-9, IRDFT-9 against OpenVINO's CPU plugin: axes, signal sizes (trim, pad, -1)."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, lookup
from irlint.types import F32, I64, static_shape
from tests.opcheck import check_op
from tests.opdyn import check_infer

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

RNG = np.random.default_rng(14)
COMPLEX = RNG.standard_normal((2, 4, 6, 2)).astype(np.float32)
REAL = RNG.standard_normal((2, 4, 6)).astype(np.float32)


def _model(fn, x, axes, sizes, shape=None):
    p = ops.parameter(list(x.shape) if shape is None else shape, x.dtype, name="x")
    args = [p, ops.constant(np.array(axes, np.int64))]
    if sizes is not None:
        args.append(ops.constant(np.array(sizes, np.int64)))
    return ov.Model([ops.result(fn(*args), name="y")], [p])


CASES = [([2], None), ([1, 2], None), ([0, 1, 2], None), ([-1], None), ([1, 2], [3, 8]),
         ([2], [-1]), ([0, 2], [1, 4]), ([-2], [5])]
TOL = {"rtol": 1e-4, "atol": 1e-4}


@pytest.mark.parametrize("axes,sizes", CASES)
@pytest.mark.parametrize("name,fn", [("DFT", ops.dft), ("IDFT", ops.idft)])
def test_complex_transforms(name, fn, axes, sizes) -> None:
    check_op(_model(fn, COMPLEX, axes, sizes), {"x": COMPLEX}, name, **TOL)


# The CPU plugin's RDFT cannot zero-pad ("signal size greater than input size is not supported yet")
# and its RDFT/IRDFT fail to compile with a -1 signal size: those are checked against numpy.
@pytest.mark.parametrize("axes,sizes", [([2], None), ([1, 2], None), ([0, 1, 2], None), ([-1], None),
                                        ([1, 2], [3, 4]), ([0, 2], [1, 5]), ([-2], [2])])
def test_rdft(axes, sizes) -> None:
    check_op(_model(ops.rdft, REAL, axes, sizes), {"x": REAL}, "RDFT", **TOL)


def test_padding_and_minus_one_follow_the_spec() -> None:
    op = lookup("RDFT", "opset9")
    (y,) = op.compute(None, [REAL, np.array([1, 2], np.int64), np.array([-1, 9], np.int64)])
    want = np.fft.rfftn(REAL.astype(np.float64), s=[4, 9], axes=[1, 2])
    np.testing.assert_allclose(y, np.stack([want.real, want.imag], -1), rtol=1e-5, atol=1e-5)
    op = lookup("IRDFT", "opset9")
    (y,) = op.compute(None, [COMPLEX, np.array([0, 2], np.int64), np.array([3, -1], np.int64)])
    want = np.fft.irfftn(COMPLEX[..., 0] + 1j * COMPLEX[..., 1].astype(np.float64), s=[3, 10], axes=[0, 2])
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("axes,sizes", [([2], None), ([1, 2], None), ([0, 1, 2], None), ([1, 2], [3, 10]),
                                        ([2], [5]), ([0, 2], [1, 4]), ([-1], [11])])
def test_irdft(axes, sizes) -> None:
    check_op(_model(ops.irdft, COMPLEX, axes, sizes), {"x": COMPLEX}, "IRDFT", **TOL)


def test_round_trips() -> None:
    rdft, irdft = lookup("RDFT", "opset9"), lookup("IRDFT", "opset9")
    axes = np.array([1, 2], np.int64)
    (spec,) = rdft.compute(None, [REAL, axes])
    (back,) = irdft.compute(None, [spec, axes, np.array([4, 6], np.int64)])
    np.testing.assert_allclose(back, REAL, atol=1e-5)


@pytest.mark.parametrize("shape", ["[?,4,?,2]", "[1..3,4,5..9,2]", "[?,?,?,?]"])
@pytest.mark.parametrize("sizes", [None, [3, -1]])
@pytest.mark.parametrize("name,fn", [("DFT", ops.dft), ("IDFT", ops.idft), ("IRDFT", ops.irdft),
                                     ("RDFT", ops.rdft)])
def test_partial_shapes(name, fn, sizes, shape) -> None:
    check_infer(_model(fn, COMPLEX, [1, 2], sizes, ov.PartialShape(shape)), name)


def test_errors() -> None:
    op = lookup("DFT", "opset7")
    axes = TensorInfo(I64, static_shape([1]), np.array([3], np.int64))
    with pytest.raises(OpError, match="out of range"):
        op.infer(None, [TensorInfo(F32, static_shape([2, 3, 4, 2])), axes])
    with pytest.raises(OpError, match="must be 2"):
        op.infer(None, [TensorInfo(F32, static_shape([2, 3, 4, 3])), axes])
    two = TensorInfo(I64, static_shape([2]), np.array([0, 0], np.int64))
    with pytest.raises(OpError, match="repeat"):
        op.infer(None, [TensorInfo(F32, static_shape([2, 3, 4, 2])), two])
    with pytest.raises(OpError, match="signal_size has 2"):
        op.infer(None, [TensorInfo(F32, static_shape([2, 3, 4, 2])), axes.__class__(I64, static_shape([1])), two])
