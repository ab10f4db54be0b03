"""GenerateProposals-9 against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, I32, Dim, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
o1 = pytest.importorskip("openvino.opset1")
o9 = pytest.importorskip("openvino.opset9")

RNG = np.random.default_rng(109)


def _inputs(images=2, count=3, fh=5, fw=6):
    gy, gx = np.meshgrid(np.arange(fh) * 16.0, np.arange(fw) * 16.0, indexing="ij")
    size = np.array([12.0, 24.0, 40.0])[:count]
    anchors = np.stack([gx[..., None] - size / 2, gy[..., None] - size / 2, gx[..., None] + size / 2,
                        gy[..., None] + size / 2], axis=-1).astype(np.float32)
    deltas = (RNG.standard_normal((images, count * 4, fh, fw)) * 0.3).astype(np.float32)
    scores = ((RNG.permutation(images * count * fh * fw) + 0.5) / (images * count * fh * fw)).astype(np.float32)
    info = np.array([[80.0, 96.0, 1.0], [70.0, 90.0, 1.5]], np.float32)[:images]
    return info, anchors, deltas, scores.reshape(images, count, fh, fw)


@pytest.mark.parametrize("attrs", [
    {"min_size": 2.0, "nms_threshold": 0.6, "pre_nms_count": 50, "post_nms_count": 12},
    {"min_size": 10.0, "nms_threshold": 0.3, "pre_nms_count": 200, "post_nms_count": 40, "normalized": False},
    {"min_size": 0.0, "nms_threshold": 0.8, "pre_nms_count": 20, "post_nms_count": 8, "roi_num_type": "i32"},
])
def test_generate_proposals(attrs) -> None:
    info, anchors, deltas, scores = _inputs()
    params = [o1.parameter(list(a.shape), np.float32, name=nm) for nm, a in (("d", deltas), ("s", scores))]
    node = o9.generate_proposals(o1.constant(info), o1.constant(anchors), *params, **attrs)
    m = ov.Model([o1.result(node.output(i), name=f"y{i}") for i in range(3)], params)
    check_op(m, {"d": deltas, "s": scores}, "GenerateProposals", rtol=2e-4, atol=2e-4)


def test_generate_proposals_shapes_and_errors() -> None:
    op = lookup("GenerateProposals", "opset9")
    attrs, _ = bind_attrs(op.Attrs, {"min_size": "1", "nms_threshold": "0.5", "pre_nms_count": "10",
                                     "post_nms_count": "4", "roi_num_type": "i32"})
    outs = op.infer(attrs, [TensorInfo(F32, static_shape((2, 3))), TensorInfo(F32, None), TensorInfo(F32, None),
                            TensorInfo(F32, None)])
    assert outs[0].shape == (Dim(0, 8), Dim.of(4)) and outs[2].etype == I32 and outs[2].shape == (Dim.of(2),)
    (_, _, counts) = op.infer(attrs, [TensorInfo(F32, None)] * 4)
    assert counts.shape == (DYNAMIC,)
    with pytest.raises(OpError, match="rank 4"):
        op.infer(attrs, [TensorInfo(F32, None), TensorInfo(F32, static_shape((3, 4))), TensorInfo(F32, None),
                         TensorInfo(F32, None)])
