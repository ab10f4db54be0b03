"""DFT-7, IDFT-7, RDFT-9 and IRDFT-9 against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, lookup
from irlint.types import DYNAMIC, F32, I64, Dim, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
o7 = pytest.importorskip("openvino.opset7")
o9 = pytest.importorskip("openvino.opset9")

RNG = np.random.default_rng(73)


def _model(fn, x, axes, sizes):
    p = o7.parameter(list(x.shape), np.float32, name="x")
    args = [p, o7.constant(np.array(axes, np.int64))]
    if sizes is not None:
        args.append(o7.constant(np.array(sizes, np.int64)))
    return ov.Model([o7.result(fn(*args), name="y")], [p]), {"x": x}


COMPLEX_CASES = [([1, 2], None), ([-1], None), ([0, 2], [3, -1]), ([2], [9]), ([1, 2], [2, 7]), ([0, 1, 2], None)]


@pytest.mark.parametrize("axes,sizes", COMPLEX_CASES)
@pytest.mark.parametrize("name,fn", [("DFT", o7.dft), ("IDFT", o7.idft)])
def test_dft_and_idft(name, fn, axes, sizes) -> None:
    x = RNG.standard_normal((2, 4, 6, 2)).astype(np.float32)
    m, inputs = _model(fn, x, axes, sizes)
    check_op(m, inputs, name, rtol=2e-4, atol=2e-4)


@pytest.mark.parametrize("axes,sizes", [([1, 2], None), ([-1], None), ([2], [5]), ([0, 2], [1, 4])])
def test_rdft(axes, sizes) -> None:
    x = RNG.standard_normal((2, 4, 6)).astype(np.float32)
    m, inputs = _model(o9.rdft, x, axes, sizes)
    check_op(m, inputs, "RDFT", rtol=2e-4, atol=2e-4)


@pytest.mark.parametrize("axes,sizes", [([1, 2], None), ([-1], None), ([2], [5]), ([0, 1], [1, 3])])
def test_irdft(axes, sizes) -> None:
    x = RNG.standard_normal((2, 4, 4, 2)).astype(np.float32)
    m, inputs = _model(o9.irdft, x, axes, sizes)
    check_op(m, inputs, "IRDFT", rtol=2e-4, atol=2e-4)


def _dft_matrix(n_out: int, n_in: int, sign: float) -> np.ndarray:
    """[n_out, n_in]: the DFT of a signal zero-padded (or cropped) to n_out samples."""
    k = np.arange(n_out)[:, None]
    j = np.arange(min(n_in, n_out))[None, :]
    m = np.zeros((n_out, n_in), complex)
    m[:, : min(n_in, n_out)] = np.exp(sign * 2j * np.pi * k * j / n_out)
    return m


def _along(a: np.ndarray, m: np.ndarray, axis: int) -> np.ndarray:
    return np.moveaxis(np.tensordot(a, m, axes=([axis], [1])), -1, axis)


def test_real_transforms_the_cpu_plugin_gets_wrong() -> None:
    # A signal_size larger than the input (zero padding) or -1: the CPU plugin rejects the model, crashes
    # or returns uninitialised memory, and RDFT/IRDFT have no Node.evaluate. The expected values are
    # the transforms written out as explicit DFT matrices (docs/semantics.md).
    rdft, irdft = lookup("RDFT", "opset9"), lookup("IRDFT", "opset9")
    x = RNG.standard_normal((2, 4, 6)).astype(np.float32)
    want = _along(_along(x.astype(complex), _dft_matrix(3, 2, -1), 0), _dft_matrix(8, 6, -1), 2)[..., :5]
    (got,) = rdft.compute(None, [x, np.array([0, 2]), np.array([3, 8])])
    np.testing.assert_allclose(got, np.stack([want.real, want.imag], -1), rtol=1e-5, atol=1e-5)
    (got,) = rdft.compute(None, [x, np.array([1]), np.array([-1])])
    want = _along(x.astype(complex), _dft_matrix(4, 4, -1), 1)[:, :3]
    np.testing.assert_allclose(got, np.stack([want.real, want.imag], -1), rtol=1e-5, atol=1e-5)

    z = RNG.standard_normal((2, 4, 4, 2)).astype(np.float32)
    c = z[..., 0] + 1j * z[..., 1]
    inner = _along(c, _dft_matrix(3, 2, 1), 0) / 3  # axis 0 zero-padded to 3
    half = np.zeros((3, 4, 5), complex)
    half[..., :4] = inner  # the last axis holds 8 // 2 + 1 = 5 bins: zero-padded from 4
    full = np.concatenate([half, np.conj(half[..., 1:4][..., ::-1])], axis=-1)  # Hermitian: 8 bins
    want = (_along(full, _dft_matrix(8, 8, 1), 2) / 8).real
    (got,) = irdft.compute(None, [z, np.array([0, 2]), np.array([3, 8])])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_dft_shapes_and_errors() -> None:
    dft = lookup("DFT", "opset7")
    axes = TensorInfo(I64, static_shape((1,)), np.array([1], np.int64))
    (out,) = dft.infer(None, [TensorInfo(F32, (DYNAMIC, Dim(3, 9), Dim.of(2))), axes])
    assert out.shape == (DYNAMIC, Dim(3, 9), Dim.of(2))
    with pytest.raises(OpError, match="end in a dim of 2"):
        dft.infer(None, [TensorInfo(F32, static_shape((4, 3))), axes])
    with pytest.raises(OpError, match="out of range"):
        dft.infer(None, [TensorInfo(F32, static_shape((4, 3, 2))), TensorInfo(I64, static_shape((1,)),
                                                                              np.array([2], np.int64))])
    irdft = lookup("IRDFT", "opset9")
    (out,) = irdft.infer(None, [TensorInfo(F32, (DYNAMIC, Dim(3, 5), Dim.of(2))), axes])
    assert out.shape == (DYNAMIC, Dim(4, 8))
    rdft = lookup("RDFT", "opset9")
    (out,) = rdft.infer(None, [TensorInfo(F32, (Dim.of(2), Dim.of(9))), axes])
    assert out.shape == (Dim.of(2), Dim.of(5), Dim.of(2))
