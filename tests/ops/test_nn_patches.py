"""ExtractImagePatches-3 and ReorgYolo-2 against OpenVINO's CPU plugin."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, Dim, static_shape
from tests.opcheck import check_op, op_model

ov = pytest.importorskip("openvino")
o2 = pytest.importorskip("openvino.opset2")
o3 = pytest.importorskip("openvino.opset3")

RNG = np.random.default_rng(61)


model = partial(op_model, every_output=False)


@pytest.mark.parametrize("sizes,strides,rates", [([3, 3], [5, 5], [1, 1]), ([2, 3], [1, 2], [2, 1]),
                                                 ([4, 4], [8, 8], [1, 1]), ([1, 1], [2, 3], [1, 1])])
@pytest.mark.parametrize("auto_pad", ["valid", "same_upper", "same_lower"])
def test_extract_image_patches(sizes, strides, rates, auto_pad) -> None:
    x = RNG.standard_normal((2, 3, 10, 9)).astype(np.float32)
    m, inputs = model(lambda p: o3.extract_image_patches(p, sizes, strides, rates, auto_pad), x)
    check_op(m, inputs, "ExtractImagePatches")


@pytest.mark.parametrize("shape,stride", [((1, 8, 4, 6), 2), ((2, 18, 6, 3), 3), ((1, 4, 2, 2), 1)])
def test_reorg_yolo(shape, stride) -> None:
    x = RNG.standard_normal(shape).astype(np.float32)
    m, inputs = model(lambda p: o2.reorg_yolo(p, [stride]), x)
    check_op(m, inputs, "ReorgYolo")


def test_patches_and_reorg_shapes() -> None:
    op = lookup("ExtractImagePatches", "opset3")
    attrs, _ = bind_attrs(op.Attrs, {"sizes": "3,3", "strides": "2,2", "rates": "1,1", "auto_pad": "same_upper"})
    (out,) = op.infer(attrs, [TensorInfo(F32, (DYNAMIC, Dim.of(4), Dim(5, 9), DYNAMIC))])
    assert out.shape == (DYNAMIC, Dim.of(36), Dim(3, 5), DYNAMIC)
    valid, _ = bind_attrs(op.Attrs, {"sizes": "5,5", "strides": "1,1", "rates": "2,2", "auto_pad": "valid"})
    (out,) = op.infer(valid, [TensorInfo(F32, static_shape((1, 2, 6, 6)))])
    assert out.shape == static_shape((1, 50, 0, 0))
    assert op.compute(valid, [np.ones((1, 2, 6, 6), np.float32)])[0].shape == (1, 50, 0, 0)
    reorg = lookup("ReorgYolo", "opset2")
    r_attrs, _ = bind_attrs(reorg.Attrs, {"stride": "2"})
    with pytest.raises(OpError, match="multiple of stride"):
        reorg.infer(r_attrs, [TensorInfo(F32, static_shape((1, 8, 5, 4)))])
    with pytest.raises(OpError, match="stride\\^2"):
        reorg.infer(r_attrs, [TensorInfo(F32, static_shape((1, 6, 4, 4)))])
