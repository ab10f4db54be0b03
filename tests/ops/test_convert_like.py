"""ConvertLike-1 against OpenVINO's CPU plugin (the existing op had no conformance test)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")


@pytest.mark.parametrize("src,dst", [(np.float32, np.int32), (np.int32, np.float32), (np.float32, np.float16),
                                     (np.int64, np.int32), (np.float32, np.uint8)])
def test_convert_like(src, dst) -> None:
    x = np.array([[0.0, 1.7, 2.5, 100.2], [3.0, 7.9, 0.4, 12.0]]).astype(src)
    px = ops.parameter(list(x.shape), src, name="x")
    like = ops.parameter([3], dst, name="like")
    model = ov.Model([ops.result(ops.convert_like(px, like), name="y")], [px, like])
    check_op(model, {"x": x, "like": np.zeros(3, dst)}, "ConvertLike")
