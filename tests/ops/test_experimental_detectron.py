"""ExperimentalDetectronPriorGridGenerator-6 and ExperimentalDetectronTopKROIs-6 against OpenVINO's CPU
plugin (built through the node factory: the Python API has no wrappers for them)."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import F32, static_shape
from tests.opcheck import check_op
from tests.opdyn import check_infer

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset6")
factory = pytest.importorskip("openvino.utils.node_factory")

RNG = np.random.default_rng(6)


def _node(name, args, attrs):
    return factory.NodeFactory("opset6").create(name, [a.output(0) for a in args], attrs)


@pytest.mark.parametrize("attrs", [{"flatten": True, "h": 0, "w": 0, "stride_x": 0.0, "stride_y": 0.0},
                                   {"flatten": False, "h": 0, "w": 0, "stride_x": 4.0, "stride_y": 8.0},
                                   {"flatten": True, "h": 4, "w": 5, "stride_x": 0.0, "stride_y": 0.0}])
def test_prior_grid_generator(attrs) -> None:
    priors = (RNG.standard_normal((3, 4)) * 8).astype(np.float32)
    p = ops.parameter([3, 4], np.float32, name="p")
    f = ops.parameter([1, 2, 4, 5], np.float32, name="f")
    i = ops.parameter([1, 3, 40, 60], np.float32, name="i")
    node = _node("ExperimentalDetectronPriorGridGenerator", [p, f, i], attrs)
    model = ov.Model([ops.result(node, name="y")], [p, f, i])
    feed = {"p": priors, "f": np.zeros((1, 2, 4, 5), np.float32), "i": np.zeros((1, 3, 40, 60), np.float32)}
    check_op(model, feed, "ExperimentalDetectronPriorGridGenerator")


@pytest.mark.parametrize("max_rois", [1, 4, 7])
def test_topk_rois(max_rois) -> None:
    rois = (RNG.random((7, 4)) * 100).astype(np.float32)
    probs = RNG.permutation(7).astype(np.float32) / 7
    r, p = ops.parameter([7, 4], np.float32, name="r"), ops.parameter([7], np.float32, name="p")
    node = _node("ExperimentalDetectronTopKROIs", [r, p], {"max_rois": max_rois})
    check_op(ov.Model([ops.result(node, name="y")], [r, p]), {"r": rois, "p": probs}, "ExperimentalDetectronTopKROIs")


def test_partial_shapes_and_errors() -> None:
    p = ops.parameter(ov.PartialShape("[?,4]"), np.float32, name="p")
    f = ops.parameter(ov.PartialShape("[1,2,?,5]"), np.float32, name="f")
    i = ops.parameter(ov.PartialShape("[1,3,?,?]"), np.float32, name="i")
    node = _node("ExperimentalDetectronPriorGridGenerator", [p, f, i],
                 {"flatten": False, "h": 0, "w": 0, "stride_x": 0.0, "stride_y": 0.0})
    check_infer(ov.Model([ops.result(node, name="y")], [p, f, i]), "ExperimentalDetectronPriorGridGenerator")
    op = lookup("ExperimentalDetectronPriorGridGenerator", "opset6")
    attrs, _ = bind_attrs(op.Attrs, {"h": "2", "w": "3"})
    with pytest.raises(OpError, match="disagree with the feature map"):
        op.compute(attrs, [np.zeros((1, 4), np.float32), np.zeros((1, 1, 4, 5)), np.zeros((1, 3, 8, 8))])
    op = lookup("ExperimentalDetectronTopKROIs", "opset6")
    attrs, _ = bind_attrs(op.Attrs, {"max_rois": "3"})
    with pytest.raises(OpError, match="5 rois but 4"):
        op.infer(attrs, [TensorInfo(F32, static_shape([5, 4])), TensorInfo(F32, static_shape([4]))])
    with pytest.raises(OpError, match="exceeds"):
        op.compute(attrs, [np.zeros((2, 4), np.float32), np.zeros(2, np.float32)])


def test_topk_rois_partial_shapes() -> None:
    r, p = ops.parameter(ov.PartialShape("[?,4]"), np.float32, name="r"), ops.parameter(
        ov.PartialShape("[?]"), np.float32, name="p")
    node = _node("ExperimentalDetectronTopKROIs", [r, p], {"max_rois": 5})
    check_infer(ov.Model([ops.result(node, name="y")], [r, p]), "ExperimentalDetectronTopKROIs")
