import numpy as np
import pytest

from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_relu_matches_openvino(dtype):
    x = ops.parameter([2, 3], dtype, name="x")
    model = ov.Model([ops.result(ops.relu(x), name="y")], [x])
    data = (np.arange(6).reshape(2, 3) - 3).astype(dtype)
    check_op(model, {"x": data}, "ReLU")
