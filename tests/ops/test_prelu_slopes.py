"""PRelu slopes as OpenVINO reads them: per channel (axis 1) when a 1-D slope is as long as the channel
dim, numpy broadcasting otherwise; irlint's kernel and shape function against the CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import F32, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

CASES = [([1, 3, 4], [4]), ([1, 3, 4], [3]), ([2, 3], [3]), ([3, 4], [4]), ([1, 3, 3], [3]), ([4], [4]),
         ([2, 4], [1, 4]), ([1, 3, 4], [3, 1]), ([2, 3, 4], [1])]


@pytest.mark.parametrize("x_shape,slope_shape", CASES, ids=[f"{x}-{s}" for x, s in CASES])
def test_slope_shapes_match_openvino(x_shape: list[int], slope_shape: list[int]) -> None:
    x = -(np.arange(np.prod(x_shape), dtype=np.float32).reshape(x_shape) + 1)
    slope = ((np.arange(np.prod(slope_shape)) + 1) / 10).astype(np.float32).reshape(slope_shape)
    p = ops.parameter(x_shape, np.float32, name="x")
    model = ov.Model([ops.result(ops.prelu(p, ops.constant(slope)), name="y")], [p])
    check_op(model, {"x": x}, "PReLU")


def test_a_slope_that_neither_matches_nor_broadcasts_is_rejected() -> None:
    """[1,3,4] with a slope of 2: OpenVINO's CPU plugin refuses to compile it ("Attempt to broadcast")."""
    op = lookup("PRelu", "opset1")
    attrs, _ = bind_attrs(op.Attrs, {})
    with pytest.raises(OpError, match="neither broadcasts"):
        op.infer(attrs, [TensorInfo(F32, static_shape([1, 3, 4])), TensorInfo(F32, static_shape([2]))])
