"""RandomUniform-8 against OpenVINO's CPU plugin, bit for bit: seeds, types, ranges, odd sizes."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.ops.misc.random_uniform import philox_words
from irlint.types import F32, I64, static_shape
from tests.opcheck import check_op
from tests.opdyn import check_infer

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset8")


def _model(shape, dtype, lo, hi, seed, op_seed, out):
    lo_p = ops.parameter([], dtype, name="lo")
    node = ops.random_uniform(ops.constant(np.array(shape, np.int64)), lo_p, ops.constant(np.array(hi, dtype)),
                              out, seed, op_seed)
    return ov.Model([ops.result(node, name="y")], [lo_p]), {"lo": np.array(lo, dtype)}


CASES = [  # shape, dtype, min, max, global seed, op seed, output type
    ([2, 5], np.float32, 0.0, 1.0, 150, 10, "f32"), ([7], np.float32, -3.0, 5.5, 1, 0, "f32"),
    ([3, 3], np.float32, 0.0, 1.0, 0, 7, "f32"), ([9], np.float64, -1.0, 1.0, 42, 9, "f64"),
    ([2, 3], np.int32, -10, 50, 7, 3, "i32"), ([5], np.int64, 0, 1000, 123, 456, "i64"),
    ([4, 3], np.float16, 1.0, 2.0, 5, 5, "f16"), ([0, 3], np.float32, 0.0, 1.0, 1, 1, "f32"),
    ([1030], np.float32, 0.0, 1.0, 2**40 + 3, 2**35 + 1, "f32"),
]


@pytest.mark.parametrize("shape,dtype,lo,hi,seed,op_seed,out", CASES)
def test_bit_exact(shape, dtype, lo, hi, seed, op_seed, out) -> None:
    model, feed = _model(shape, dtype, lo, hi, seed, op_seed, out)
    check_op(model, feed, "RandomUniform", exact=True)


def test_philox_known_answer() -> None:
    # Random123's published known-answer vector for philox4x32-10 with counter 0 and key 0.
    np.testing.assert_array_equal(philox_words(0, 0, 1), np.array([0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8],
                                                                  np.uint32))


def test_shapes_and_errors() -> None:
    s = ops.parameter([3], np.int64, name="s")
    node = ops.random_uniform(s, ops.constant(np.float32(0)), ops.constant(np.float32(1)), "f32", 1, 2)
    check_infer(ov.Model([ops.result(node, name="y")], [s]), "RandomUniform")
    op = lookup("RandomUniform", "opset8")
    attrs, _ = bind_attrs(op.Attrs, {"output_type": "f32", "global_seed": "1", "op_seed": "2"})
    shape = TensorInfo(I64, static_shape([1]), np.array([4]))
    with pytest.raises(OpError, match="less than"):
        op.infer(attrs, [shape, TensorInfo(F32, static_shape([]), np.float32(2)),
                         TensorInfo(F32, static_shape([]), np.float32(1))])
    bad, _ = bind_attrs(op.Attrs, {"output_type": "u8"})
    with pytest.raises(OpError, match="output_type"):
        op.infer(bad, [shape, TensorInfo(F32, static_shape([])), TensorInfo(F32, static_shape([]))])


@pytest.mark.parametrize("shape,dtype,lo,hi,seed,out", [
    ([2, 5], np.float32, 0.0, 1.0, 42, "f32"), ([7], np.float32, -2.0, 3.0, 9, "f32"),
    ([4], np.float64, 0.0, 1.0, 42, "f64"), ([3, 2], np.float16, 1.0, 3.0, 5, "f16"),
    ([6], np.int32, -5, 20, 7, "i32"), ([5], np.int64, 0, 100, 42, "i64")])
def test_pytorch_alignment_bit_exact(shape, dtype, lo, hi, seed, out) -> None:
    lo_p = ops.parameter([], dtype, name="lo")
    node = ops.random_uniform(ops.constant(np.array(shape, np.int64)), lo_p, ops.constant(np.array(hi, dtype)),
                              out, seed, 3, "pytorch")
    check_op(ov.Model([ops.result(node, name="y")], [lo_p]), {"lo": np.array(lo, dtype)}, "RandomUniform",
             exact=True)


def test_pytorch_alignment_matches_torch_rand() -> None:
    # torch.manual_seed(42); torch.rand(3) starts 0.8823, 0.9150, 0.3829 (PyTorch's documented example).
    from irlint.ops.misc.random_uniform import uniform

    np.testing.assert_allclose(uniform([3], "f32", 0.0, 1.0, 42, 0, "pytorch"), [0.8823, 0.9150, 0.3829], atol=1e-4)
