"""RegionYolo-0 against OpenVINO's CPU plugin (YOLO v2 region and YOLO v3 yolo layers)."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, Dim
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
o1 = pytest.importorskip("openvino.opset1")

RNG = np.random.default_rng(67)


@pytest.mark.parametrize("axis,end_axis", [(1, 3), (2, 3), (0, 1)])
def test_region_yolo_v2(axis, end_axis) -> None:
    x = (RNG.standard_normal((2, 5 * (4 + 1 + 3), 3, 4)) * 2).astype(np.float32)
    p = o1.parameter(list(x.shape), np.float32, name="x")
    node = o1.region_yolo(p, 4, 3, 5, True, [], axis, end_axis, [1.0, 2.0])
    check_op(ov.Model([o1.result(node, name="y")], [p]), {"x": x}, "RegionYolo")


@pytest.mark.parametrize("mask", [[0, 1, 2], [3, 4]])
def test_yolo_v3(mask) -> None:
    x = (RNG.standard_normal((2, len(mask) * (4 + 1 + 6), 4, 4)) * 2).astype(np.float32)
    p = o1.parameter(list(x.shape), np.float32, name="x")
    node = o1.region_yolo(p, 4, 6, 9, False, mask, 1, 3, [float(v) for v in range(18)])
    check_op(ov.Model([o1.result(node, name="y")], [p]), {"x": x}, "RegionYolo")


def test_region_yolo_shapes() -> None:
    op = lookup("RegionYolo", "opset1")
    attrs, _ = bind_attrs(op.Attrs, {"coords": "4", "classes": "20", "num": "5", "do_softmax": "true",
                                     "axis": "1", "end_axis": "3"})
    (out,) = op.infer(attrs, [TensorInfo(F32, (DYNAMIC, Dim.of(125), Dim.of(13), Dim.of(13)))])
    assert out.shape == (DYNAMIC, Dim.of(125 * 169))
    v3, _ = bind_attrs(op.Attrs, {"coords": "4", "classes": "80", "num": "9", "do_softmax": "false", "mask": "0,1,2"})
    (out,) = op.infer(v3, [TensorInfo(F32, (Dim.of(1), Dim.of(255), DYNAMIC, Dim.of(26)))])
    assert out.shape == (Dim.of(1), Dim.of(255), DYNAMIC, Dim.of(26))
    with pytest.raises(OpError, match="fewer than"):
        op.compute(v3, [np.zeros((1, 200, 2, 2), np.float32)])
