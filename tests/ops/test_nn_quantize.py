"""FakeQuantize against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, I32, Dim, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
o1 = pytest.importorskip("openvino.opset1")

RNG = np.random.default_rng(9)


def _model(x, il, ih, ol, oh, levels, broadcast="numpy"):
    p = o1.parameter(list(x.shape), np.float32, name="x")
    consts = [o1.constant(np.asarray(v, np.float32)) for v in (il, ih, ol, oh)]
    node = o1.fake_quantize(p, *consts, levels, broadcast)
    return ov.Model([o1.result(node, name="y")], [p]), {"x": x}


CASES = [  # input_low, input_high, output_low, output_high, levels
    (-1.0, 1.0, -1.0, 1.0, 256),
    (0.0, 2.5, 0.0, 255.0, 256),
    (-0.5, 1.5, 2.0, -2.0, 16),  # a decreasing output range
    (-2.0, 2.0, -2.0, 2.0, 2),
    (np.array([-1.0, 0.0, -2.0], np.float32).reshape(1, 3, 1, 1),
     np.array([1.0, 0.5, 2.0], np.float32).reshape(1, 3, 1, 1), 0.0, 1.0, 5),  # per channel
    (np.float32(-1.0), np.array([[[[0.5]], [[1.0]], [[3.0]]]], np.float32), -3.0,
     np.array([3.0, 1.0, 2.0, 4.0], np.float32), 7),
]


@pytest.mark.parametrize("il,ih,ol,oh,levels", CASES)
def test_fake_quantize(il, ih, ol, oh, levels) -> None:
    x = (RNG.standard_normal((2, 3, 4, 4)) * 1.5).astype(np.float32)
    m, inputs = _model(x, il, ih, ol, oh, levels)
    check_op(m, inputs, "FakeQuantize")


def test_fake_quantize_auto_broadcast_none() -> None:
    x = RNG.standard_normal((2, 3)).astype(np.float32)
    lim = np.ones((2, 3), np.float32)
    m, inputs = _model(x, -lim, lim, -2 * lim, 2 * lim, 9, "none")
    check_op(m, inputs, "FakeQuantize")


def test_fake_quantize_shapes_and_errors() -> None:
    op = lookup("FakeQuantize", "opset1")
    attrs, _ = bind_attrs(op.Attrs, {"levels": "256", "auto_broadcast": "numpy"})
    scalar = TensorInfo(F32, ())
    (out,) = op.infer(attrs, [TensorInfo(F32, (DYNAMIC, Dim.of(3))), scalar, scalar, scalar, scalar])
    assert out.shape == (DYNAMIC, Dim.of(3))
    with pytest.raises(OpError, match="do not broadcast"):
        op.infer(attrs, [TensorInfo(F32, static_shape((2, 3))), TensorInfo(F32, static_shape((4,))),
                         scalar, scalar, scalar])
    with pytest.raises(OpError, match="floating-point"):
        op.infer(attrs, [TensorInfo(I32, static_shape((2,)))] * 5)
    bad, _ = bind_attrs(op.Attrs, {"levels": "1"})
    with pytest.raises(OpError, match="levels"):
        op.infer(bad, [scalar] * 5)
