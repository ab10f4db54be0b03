"""The nn kernels on f16 tensors (IRs saved in half precision): same element type out, values as the plugin."""

from __future__ import annotations

import numpy as np
import pytest

from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

RNG = np.random.default_rng(103)
X = RNG.standard_normal((1, 4, 7, 6)).astype(np.float16)


def _c(a, dtype=np.float16):
    return ops.constant(np.asarray(a, dtype))


CASES = {
    "Convolution": lambda p: ops.convolution(p, _c(RNG.standard_normal((3, 4, 3, 3))), [1, 1], [1, 1], [1, 1],
                                             [1, 1]),
    "GroupConvolution": lambda p: ops.group_convolution(p, _c(RNG.standard_normal((2, 2, 2, 3, 3))), [2, 1], [0, 1],
                                                        [1, 0], [1, 1]),
    "ConvolutionBackpropData": lambda p: ops.convolution_backprop_data(p, _c(RNG.standard_normal((4, 2, 3, 3))),
                                                                       strides=[2, 2]),
    "MaxPool": lambda p: ops.max_pool(p, [2, 2], [1, 1], [0, 0], [0, 0], [3, 3], "ceil").output(0),
    "AvgPool": lambda p: ops.avg_pool(p, [2, 2], [1, 1], [1, 1], [3, 3], True, "ceil"),
    "MVN": lambda p: ops.mvn(p, _c([2, 3], np.int64), True, 1e-3, "inside_sqrt"),
    "Interpolate": lambda p: ops.interpolate(p, _c([11, 4], np.int64), "cubic", "sizes", axes=_c([2, 3], np.int64)),
    "NormalizeL2": lambda p: ops.normalize_l2(p, _c([1], np.int64), 1e-6, "add"),
    "GroupNormalization": lambda p: ops.group_normalization(p, _c(np.ones(4)), _c(np.zeros(4)), 2, 1e-3),
    "FakeQuantize": lambda p: ops.fake_quantize(p, _c(-1), _c(1), _c(0), _c(2), 16),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_f16(name) -> None:
    p = ops.parameter(list(X.shape), np.float16, name="x")
    m = ov.Model([ops.result(CASES[name](p), name="y")], [p])
    got = check_op(m, {"x": X}, name, rtol=5e-3, atol=5e-3)
    assert got[0].dtype == np.float16
