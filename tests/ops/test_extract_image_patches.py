"""ExtractImagePatches-3 against OpenVINO's CPU plugin: sizes, strides, dilation rates, padding modes."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import F32, static_shape
from tests.opcheck import check_op
from tests.opdyn import check_infer

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

X = np.arange(2 * 3 * 7 * 6, dtype=np.float32).reshape(2, 3, 7, 6) + 1


@pytest.mark.parametrize("pad", ["valid", "same_upper", "same_lower"])
@pytest.mark.parametrize("sizes,strides,rates", [([2, 2], [1, 1], [1, 1]), ([3, 2], [2, 3], [1, 1]),
                                                 ([2, 3], [3, 2], [2, 1]), ([1, 1], [4, 4], [1, 1]),
                                                 ([4, 4], [1, 2], [2, 2])])
def test_patches(sizes, strides, rates, pad) -> None:
    p = ops.parameter(list(X.shape), np.float32, name="x")
    node = ops.extract_image_patches(p, sizes, strides, rates, pad)
    check_op(ov.Model([ops.result(node, name="y")], [p]), {"x": X}, "ExtractImagePatches")


@pytest.mark.parametrize("shape", ["[?,3,?,6]", "[1..4,3,5..9,6]"])
@pytest.mark.parametrize("pad", ["valid", "same_upper"])
def test_partial_shapes(shape, pad) -> None:
    p = ops.parameter(ov.PartialShape(shape), np.float32, name="x")
    node = ops.extract_image_patches(p, [3, 2], [2, 1], [1, 2], pad)
    check_infer(ov.Model([ops.result(node, name="y")], [p]), "ExtractImagePatches")


def test_errors() -> None:
    op = lookup("ExtractImagePatches", "opset3")
    attrs, _ = bind_attrs(op.Attrs, {"sizes": "2,2", "strides": "1,1", "rates": "1,1", "auto_pad": "full"})
    with pytest.raises(OpError, match="auto_pad"):
        op.infer(attrs, [TensorInfo(F32, static_shape([1, 1, 4, 4]))])
    attrs, _ = bind_attrs(op.Attrs, {"sizes": "2", "strides": "1,1", "rates": "1,1", "auto_pad": "valid"})
    with pytest.raises(OpError, match="sizes"):
        op.infer(attrs, [TensorInfo(F32, static_shape([1, 1, 4, 4]))])
