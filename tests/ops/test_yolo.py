"""RegionYolo-1 (YOLOv2 softmax and YOLOv3 mask modes) and ReorgYolo-2 against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import F32, static_shape
from tests.opcheck import check_op
from tests.opdyn import check_infer

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

RNG = np.random.default_rng(3)


def _model(fn, shape, **kw):
    p = ops.parameter(shape, np.float32, name="x")
    return ov.Model([ops.result(fn(p, **kw), name="y")], [p])


REGION = [  # input shape, coords, classes, num, do_softmax, mask, axis, end_axis
    ([1, 5 * (4 + 3 + 1), 3, 4], 4, 3, 5, True, [], 1, 3),
    ([2, 2 * (4 + 2 + 1), 2, 3], 4, 2, 2, True, [], 1, 3),
    ([1, 2 * (4 + 2 + 1), 2, 3], 4, 2, 2, True, [], 2, 3),
    ([1, 3 * (4 + 3 + 1), 3, 2], 4, 3, 9, False, [0, 1, 2], 1, 3),
    ([1, 2 * (4 + 5 + 1), 2, 2], 4, 5, 6, False, [3, 4], 1, 3),
    ([1, 2 * (3 + 2 + 1), 3, 3], 3, 2, 2, True, [], 1, 3),
]


@pytest.mark.parametrize("shape,coords,classes,num,soft,mask,axis,end", REGION)
def test_region_yolo(shape, coords, classes, num, soft, mask, axis, end) -> None:
    x = (RNG.standard_normal(shape) * 3).astype(np.float32)
    model = _model(ops.region_yolo, shape, coords=coords, classes=classes, num=num, do_softmax=soft, mask=mask,
                   axis=axis, end_axis=end, anchors=[1.0, 2.0])
    check_op(model, {"x": x}, "RegionYolo")


@pytest.mark.parametrize("shape", ["[?,16,?,?]", "[1..2,16,3,4]", "[1,?,3,4]"])
@pytest.mark.parametrize("soft", [True, False])
def test_region_yolo_partial_shapes(shape, soft) -> None:
    model = _model(ops.region_yolo, ov.PartialShape(shape), coords=4, classes=3, num=2, do_softmax=soft,
                   mask=[0, 1], axis=1, end_axis=3)
    check_infer(model, "RegionYolo")


@pytest.mark.parametrize("shape,stride", [([1, 4, 4, 6], 2), ([2, 8, 6, 6], 2), ([1, 9, 3, 6], 3),
                                          ([1, 12, 4, 4], 2)])
def test_reorg_yolo(shape, stride) -> None:
    x = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    check_op(_model(ops.reorg_yolo, shape, stride=[stride]), {"x": x}, "ReorgYolo")


@pytest.mark.parametrize("shape", ["[?,8,?,?]", "[1..4,8,4..8,6]"])
def test_reorg_yolo_partial_shapes(shape) -> None:
    check_infer(_model(ops.reorg_yolo, ov.PartialShape(shape), stride=[2]), "ReorgYolo")


def test_errors() -> None:
    op = lookup("ReorgYolo", "opset2")
    attrs, _ = bind_attrs(op.Attrs, {"stride": "2"})
    with pytest.raises(OpError, match="multiple of the stride"):
        op.infer(attrs, [TensorInfo(F32, static_shape([1, 4, 3, 4]))])
    with pytest.raises(OpError, match="at least"):
        op.infer(attrs, [TensorInfo(F32, static_shape([1, 2, 4, 4]))])
    op = lookup("RegionYolo", "opset1")
    attrs, _ = bind_attrs(op.Attrs, {"coords": "4", "classes": "3", "num": "5", "do_softmax": "true"})
    with pytest.raises(OpError, match="4-D"):
        op.infer(attrs, [TensorInfo(F32, static_shape([1, 40, 3]))])
    with pytest.raises(OpError, match="need 40 channels"):
        op.compute(attrs, [np.zeros((1, 20, 2, 2), np.float32)])
