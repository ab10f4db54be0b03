"""Col2Im-15 against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, I64, Dim, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
o15 = pytest.importorskip("openvino.opset15")

RNG = np.random.default_rng(29)

CASES = [  # output_size, kernel, strides, dilations, pads_begin, pads_end
    ([4, 5], [2, 2], [1, 1], [1, 1], [0, 0], [0, 0]),
    ([6, 5], [3, 2], [2, 1], [1, 2], [1, 0], [0, 1]),
    ([5, 7], [2, 3], [1, 2], [2, 1], [2, 1], [1, 2]),
    ([3, 3], [3, 3], [1, 1], [1, 1], [1, 1], [1, 1]),
]


def _windows(size, kernel, strides, dil, pb, pe) -> int:
    return int(np.prod([(s + b + e - (d * (k - 1) + 1)) // st + 1
                        for s, k, st, d, b, e in zip(size, kernel, strides, dil, pb, pe)]))


@pytest.mark.parametrize("size,kernel,strides,dil,pb,pe", CASES)
@pytest.mark.parametrize("batched", [True, False])
def test_col2im(size, kernel, strides, dil, pb, pe, batched) -> None:
    c = 2
    shape = [c * kernel[0] * kernel[1], _windows(size, kernel, strides, dil, pb, pe)]
    x = RNG.standard_normal(([2] if batched else []) + shape).astype(np.float32)
    p = o15.parameter(list(x.shape), np.float32, name="x")
    node = o15.col2im(p, o15.constant(np.array(size, np.int64)), o15.constant(np.array(kernel, np.int64)),
                      strides, dil, pb, pe)
    check_op(ov.Model([o15.result(node, name="y")], [p]), {"x": x}, "Col2Im")


def test_col2im_shapes_and_errors() -> None:
    op = lookup("Col2Im", "opset15")
    attrs, _ = bind_attrs(op.Attrs, {"strides": "1,1", "dilations": "1,1", "pads_begin": "0,0", "pads_end": "0,0"})
    size = TensorInfo(I64, static_shape((2,)), np.array([4, 5], np.int64))
    kernel = TensorInfo(I64, static_shape((2,)), np.array([2, 2], np.int64))
    (out,) = op.infer(attrs, [TensorInfo(F32, (DYNAMIC, Dim.of(12), Dim.of(12))), size, kernel])
    assert out.shape == (DYNAMIC, Dim.of(3), Dim.of(4), Dim.of(5))
    (out,) = op.infer(attrs, [TensorInfo(F32, (Dim.of(12), DYNAMIC)), TensorInfo(I64, static_shape((2,))), kernel])
    assert out.shape == (Dim.of(3), DYNAMIC, DYNAMIC)
    with pytest.raises(OpError, match="windows"):
        op.infer(attrs, [TensorInfo(F32, static_shape((1, 12, 11))), size, kernel])
    with pytest.raises(OpError, match="do not split"):
        op.infer(attrs, [TensorInfo(F32, static_shape((1, 10, 12))), size, kernel])
