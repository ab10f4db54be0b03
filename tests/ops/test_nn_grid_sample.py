"""GridSample-9 against OpenVINO's CPU plugin: every mode x padding mode x align_corners."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, Dim, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
o9 = pytest.importorskip("openvino.opset9")

RNG = np.random.default_rng(31)
DATA = RNG.standard_normal((2, 3, 5, 6)).astype(np.float32)
GRID = (RNG.random((2, 4, 7, 2)) * 3 - 1.5).astype(np.float32)  # points inside and well outside [-1, 1]


@pytest.mark.parametrize("mode", ["bilinear", "bicubic", "nearest"])
@pytest.mark.parametrize("padding", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("align", [False, True])
def test_grid_sample(mode, padding, align) -> None:
    p = o9.parameter(list(DATA.shape), np.float32, name="x")
    g = o9.parameter(list(GRID.shape), np.float32, name="g")
    node = o9.grid_sample(p, g, {"align_corners": align, "mode": mode, "padding_mode": padding})
    m = ov.Model([o9.result(node, name="y")], [p, g])
    check_op(m, {"x": DATA, "g": GRID}, "GridSample", rtol=2e-4, atol=2e-5)


def test_grid_sample_shapes_and_errors() -> None:
    op = lookup("GridSample", "opset9")
    attrs, _ = bind_attrs(op.Attrs, {"align_corners": "false", "mode": "bilinear", "padding_mode": "zeros"})
    (out,) = op.infer(attrs, [TensorInfo(F32, (DYNAMIC, Dim.of(3), DYNAMIC, DYNAMIC)),
                              TensorInfo(F32, (Dim.of(2), Dim.of(4), Dim(1, 9), Dim.of(2)))])
    assert out.shape == (Dim.of(2), Dim.of(3), Dim.of(4), Dim(1, 9))
    with pytest.raises(OpError, match="end in 2"):
        op.infer(attrs, [TensorInfo(F32, static_shape((1, 3, 4, 4))), TensorInfo(F32, static_shape((1, 2, 2, 3)))])
    with pytest.raises(OpError, match="batch"):
        op.infer(attrs, [TensorInfo(F32, static_shape((2, 3, 4, 4))), TensorInfo(F32, static_shape((3, 2, 2, 2)))])
    bad, _ = bind_attrs(op.Attrs, {"mode": "linear"})
    with pytest.raises(OpError, match="mode='linear'"):
        op.infer(bad, [TensorInfo(F32, None), TensorInfo(F32, None)])
