"""What OpenVINO does with an op attribute that is missing from `<data>`: refuse, or fill a default.

    .venv/bin/python scripts/attribute_defaults.py --report build/attribute_defaults.json
    .venv/bin/python scripts/attribute_defaults.py --report build/attribute_defaults.json --markdown table.md

For every op irlint has semantics for and every attribute irlint's op declares without a default
(tests/ and docs call these required), the script builds a small model holding one layer of that op
with the openvino Python API (`builders`), saves it as IR, deletes the attribute from that layer's
`<data>`, and asks OpenVINO in a child process (one for all models, started again after a crash or a
hang): `read_model`, the value the read op reports for the attribute (`get_attributes()`: the default
OpenVINO filled), `compile_model` on the CPU plugin (f32), then one inference (`inputs_for`). The
report lists, per op and attribute: "read" (refused at read, with the message), "compile" (read,
refused at compile), "infer" (compiled, failed at inference), "filled" (ran, with the value filled),
"timeout" or "crash", or "no model" when `builders` has no model of the op, and the codes irlint
reports on the same file. `--markdown` writes the table docs/rules-openvino.md shows from a report;
irlint/ops/openvino_fills.py lists the filled values irlint binds, and
tests/rules/test_attribute_fills.py compares irlint with OpenVINO on every model.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import pickle
import re
import select
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lxml import etree

ROOT = Path(__file__).resolve().parents[1]


def required_attributes() -> dict[tuple[str, str], list[str]]:
    """(type, opset of irlint's op) -> the attributes irlint's op requires."""
    from irlint.ops import registry

    registry._load_all()
    out: dict[tuple[str, str], list[str]] = {}
    for t, ops in registry._BY_TYPE.items():
        for op in ops:
            attrs = getattr(op, "Attrs", None)
            if attrs is None or not dataclasses.is_dataclass(attrs):
                continue
            req = [f.metadata.get("ir", f.name) for f in dataclasses.fields(attrs)
                   if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
            if req:
                out[(t, ",".join(op.versions))] = req
    return out


def builders() -> dict[tuple[str, str], Callable[[], Any]]:
    """(type, irlint op's opsets) -> a function that builds a small openvino.Model holding one layer of it.

    The attributes written are not the values OpenVINO fills, so that a missing one changes the result;
    the only Parameters are f32 data inputs (inputs_for feeds them)."""
    import numpy as np
    import openvino as ov
    import openvino.op.util as util
    import openvino.opset1 as o1
    import openvino.opset2 as o2
    import openvino.opset3 as o3
    import openvino.opset4 as o4
    import openvino.opset5 as o5
    import openvino.opset6 as o6
    import openvino.opset7 as o7
    import openvino.opset8 as o8
    import openvino.opset9 as o9
    import openvino.opset10 as o10
    import openvino.opset11 as o11
    import openvino.opset12 as o12
    import openvino.opset13 as o13
    import openvino.opset14 as o14
    import openvino.opset15 as o15
    import openvino.opset16 as o16

    rng = np.random.default_rng(7)

    def p(*shape: int) -> Any:
        return o1.parameter(list(shape), np.float32, name="x")

    def c(a: Any, dtype: Any = np.float32) -> Any:
        return o1.constant(np.asarray(a, dtype))

    def w(*shape: int) -> Any:
        return c(rng.standard_normal(shape))

    def bits(*shape: int) -> Any:
        t = ov.Tensor(ov.Type.u1, ov.Shape(list(shape)))
        t.data[...] = np.packbits(rng.integers(0, 2, int(np.prod(shape))).astype(np.uint8), bitorder="little")
        return ov.op.Constant(t)

    def model(node: Any, params: list[Any] | None = None) -> Any:
        outs = [o1.result(node.output(i), name=f"out{i}") for i in range(node.get_output_size())]
        return ov.Model(outs, params if params is not None else [
            n for n in _params(node)], "m")

    def _params(node: Any) -> list[Any]:
        seen, todo, out = set(), [node], []
        while todo:
            n = todo.pop()
            if id(n) in seen:
                continue
            seen.add(id(n))
            if n.get_type_name() == "Parameter":
                out.append(n)
            todo.extend(i.get_source_output().get_node() for i in n.inputs())
        return out

    def variable() -> Any:
        info = util.VariableInfo()
        info.data_shape, info.data_type, info.variable_id = ov.PartialShape([2, 3]), ov.Type.f32, "state"
        return util.Variable(info)

    def state(version: Any) -> Any:
        x = p(2, 3)
        if version is o6:
            var = variable()
            rv = o6.read_value(c(np.ones((2, 3))), var)
            add = o1.add(rv, x)
            return ov.Model([o1.result(add, name="out0")], [o6.assign(add, var)], [x], "m")
        rv = o3.read_value(c(np.ones((2, 3))), "state")
        add = o1.add(rv, x)
        return ov.Model([o1.result(add, name="out0")], [o3.assign(add, "state")], [x], "m")

    def rnn_inputs(gates: int, seq: bool) -> tuple[Any, ...]:
        x = p(2, 3, 4) if seq else p(2, 4)
        h = c(rng.standard_normal((2, 1, 5) if seq else (2, 5)))
        shape_w, shape_r, shape_b = ((1, gates * 5, 4), (1, gates * 5, 5), (1, gates * 5)) if seq else \
            ((gates * 5, 4), (gates * 5, 5), (gates * 5,))
        return x, h, w(*shape_w), w(*shape_r), w(*shape_b)

    def roi_align(mod: Any) -> Any:
        rois = c([[0, 0, 6, 6], [1, 2, 7, 5]])
        return model(mod.roi_align(p(2, 3, 8, 8), rois, c([0, 1], np.int32), 3, 2, 2, 0.5, "max"))

    def node(opset: str, name: str, inputs: list[Any], attrs: dict[str, Any]) -> Any:
        from openvino.utils.node_factory import NodeFactory

        return NodeFactory(opset).create(name, [i.output(0) for i in inputs], attrs)

    def proposal(mod: Any) -> Any:
        probs = rng.permutation(2 * 12 * 6 * 8).reshape(2, 12, 6, 8) / (2 * 12 * 6 * 8)
        attrs = {"base_size": np.uint32(16), "pre_nms_topn": np.uint32(40), "post_nms_topn": np.uint32(12),
                 "nms_thresh": 0.6, "feat_stride": np.uint32(16), "min_size": np.uint32(2), "ratio": [0.5, 1.0, 2.0],
                 "scale": [2.0, 4.0], "framework": ""}
        return model(mod.proposal(c(probs), c(rng.standard_normal((2, 24, 6, 8)) * 0.3), c([96.0, 128.0, 0.5]),
                                  attrs), [])

    def detection_output(mod: Any) -> Any:
        centre, half = rng.random((12, 2)) * 0.8 + 0.1, rng.random((12, 2)) * 0.2 + 0.05
        boxes = np.concatenate([centre - half, centre + half], axis=1).reshape(-1)
        priors = np.stack([boxes, np.tile([0.1, 0.1, 0.2, 0.2], 12)])[None]
        attrs = {"keep_top_k": [5], "nms_threshold": 0.45, "confidence_threshold": 0.3, "top_k": 8,
                 "code_type": "caffe.PriorBoxParameter.CENTER_SIZE", "background_label_id": 0, "share_location": True,
                 "normalized": True, "variance_encoded_in_target": False, "input_height": 300, "input_width": 300,
                 **({"num_classes": 4} if mod is o1 else {})}
        return model(mod.detection_output(c(rng.standard_normal((2, 48)) * 0.5), c(rng.random((2, 48))), c(priors),
                                          attrs), [])

    def ed_inputs(a: int = 3, h: int = 4, w: int = 5) -> tuple[Any, ...]:
        xy = rng.random((h * w * a, 2)) * 40
        anchors = np.concatenate([xy, xy + rng.random((h * w * a, 2)) * 20 + 2], axis=1)
        return anchors, rng.standard_normal((a * 4, h, w)) * 0.4, rng.permutation(a * h * w).reshape(a, h, w) / 60

    def ed_proposals() -> Any:
        anchors, deltas, scores = ed_inputs()
        return model(node("opset6", "ExperimentalDetectronGenerateProposalsSingleImage",
                          [c([50.0, 60.0, 1.0]), c(anchors), c(deltas), c(scores)],
                          {"min_size": 1.0, "nms_threshold": 0.6, "post_nms_count": 8, "pre_nms_count": 30}), [])

    def generate_proposals() -> Any:  # the CPU plugin takes deltas and scores as inputs only
        deltas, scores = (o1.parameter(shape, np.float32, name=n_) for n_, shape in
                          (("deltas", [2, 12, 4, 5]), ("scores", [2, 3, 4, 5])))
        return model(o9.generate_proposals(
            c([[50.0, 60.0, 1.0], [45.0, 70.0, 1.5]]), c(ed_inputs()[0].reshape(4, 5, 3, 4)), deltas, scores,
            1.0, 0.6, 30, 8), [deltas, scores])

    def ed_detection_output() -> Any:
        xy = rng.random((12, 2)) * 50
        rois = np.concatenate([xy, xy + rng.random((12, 2)) * 30 + 3], axis=1)
        return model(node("opset6", "ExperimentalDetectronDetectionOutput",
                          [c(rois), c(rng.standard_normal((12, 16)) * 0.3), c(rng.permutation(48).reshape(12, 4) / 48),
                           c([[80.0, 90.0, 1.0]])],
                          {"num_classes": 4, "max_delta_log_wh": 2.0, "class_agnostic_box_regression": False,
                           "deltas_weights": [1.0, 1.0, 1.0, 1.0], "max_detections_per_image": 12,
                           "post_nms_count": 5, "score_threshold": 0.3, "nms_threshold": 0.5}), [])

    def ed_roi_features() -> Any:
        rois = c([[0, 0, 50, 60], [10, 20, 120, 130], [5, 5, 230, 240], [100, 90, 180, 170]])
        maps = [c(rng.standard_normal((1, 3, 128 // s, 160 // s))) for s in (4, 8, 16, 32)]
        return model(node("opset6", "ExperimentalDetectronROIFeatureExtractor", [rois, *maps],
                          {"output_size": 3, "sampling_ratio": 2, "pyramid_scales": [4, 8, 16, 32],
                           "aligned": False}), [])

    return {
        ("Proposal", "opset1"): lambda: proposal(o1),
        ("Proposal", "opset4"): lambda: proposal(o4),
        ("DetectionOutput", "opset1"): lambda: detection_output(o1),
        ("DetectionOutput", "opset8"): lambda: detection_output(o8),
        ("ExperimentalDetectronGenerateProposalsSingleImage", "opset6"): ed_proposals,
        ("ExperimentalDetectronDetectionOutput", "opset6"): ed_detection_output,
        ("ExperimentalDetectronROIFeatureExtractor", "opset6"): ed_roi_features,
        ("GenerateProposals", "opset9"): generate_proposals,
        ("Reverse", "opset1"): lambda: model(node("opset1", "Reverse", [p(2, 3, 4), c([0, 2], np.int64)],
                                                  {"mode": "index"})),
        ("Assign", "opset3,opset6"): lambda: state(o6),
        ("ReadValue", "opset3,opset6"): lambda: state(o6),
        ("AvgPool", "opset1"): lambda: model(o1.avg_pool(p(1, 2, 7, 7), [2, 2], [1, 1], [1, 1], [3, 3], False)),
        ("AvgPool", "opset14"): lambda: model(o14.avg_pool(p(1, 2, 7, 7), [2, 2], [1, 1], [1, 1], [3, 3], False)),
        ("AvgPool", "opset16"): lambda: model(o16.avg_pool(p(1, 2, 7, 7), [2, 2], [1, 1], [1, 1], [3, 3], False,
                                                           dilations=[1, 1])),
        ("MaxPool", "opset1"): lambda: model(o1.max_pool(p(1, 2, 7, 7), [2, 2], [1, 1], [1, 1], [3, 3])),
        ("MaxPool", "opset8"): lambda: model(o8.max_pool(p(1, 2, 7, 7), [2, 2], [1, 1], [1, 1], [1, 1], [3, 3])),
        ("MaxPool", "opset14"): lambda: model(o14.max_pool(p(1, 2, 7, 7), [2, 2], [1, 1], [1, 1], [1, 1], [3, 3])),
        ("BatchNormInference", "opset1"): lambda: model(o1.batch_norm_inference(
            p(2, 3, 4), w(3), w(3), w(3), c([0.5, 1, 2]), 0.25)),
        ("BatchNormInference", "opset5"): lambda: model(o5.batch_norm_inference(
            p(2, 3, 4), w(3), w(3), w(3), c([0.5, 1, 2]), 0.25)),
        ("BinaryConvolution", "opset1"): lambda: model(o1.binary_convolution(
            p(1, 8, 6, 6), bits(3, 8, 3, 3), [2, 2], [1, 1], [1, 1], [2, 2],
            "xnor-popcount", 1.0)),
        ("Clamp", "opset1"): lambda: model(o1.clamp(p(2, 5), -0.5, 0.75)),
        ("Concat", "opset1"): lambda: model(o1.concat([p(2, 3), w(2, 3)], 1)),
        ("Convert", "opset1"): lambda: model(o1.convert(p(2, 3), np.int32)),
        ("Convolution", "opset1"): lambda: model(o1.convolution(p(1, 2, 7, 7), w(3, 2, 3, 3), [2, 2], [1, 1],
                                                                [1, 1], [2, 2])),
        ("GroupConvolution", "opset1"): lambda: model(o1.group_convolution(
            p(1, 4, 7, 7), w(2, 3, 2, 3, 3), [2, 2], [1, 1], [1, 1], [2, 2])),
        ("ConvolutionBackpropData", "opset1"): lambda: model(o1.convolution_backprop_data(
            p(1, 2, 4, 4), w(2, 3, 3, 3), [2, 2], pads_begin=[1, 1], pads_end=[1, 1], dilations=[2, 2])),
        ("GroupConvolutionBackpropData", "opset1"): lambda: model(o1.group_convolution_backprop_data(
            p(1, 4, 4, 4), w(2, 2, 3, 3, 3), [2, 2], pads_begin=[1, 1], pads_end=[1, 1], dilations=[2, 2])),
        ("DeformableConvolution", "opset1"): lambda: model(o1.deformable_convolution(
            p(1, 2, 6, 6), c(rng.standard_normal((1, 18, 3, 3)) * 0.5), w(3, 2, 3, 3), [2, 2], [1, 1], [1, 1],
            [1, 1])),
        ("DeformableConvolution", "opset8"): lambda: model(o8.deformable_convolution(
            p(1, 2, 6, 6), c(rng.standard_normal((1, 18, 3, 3)) * 0.5), w(3, 2, 3, 3), [2, 2], [1, 1], [1, 1],
            [1, 1])),
        ("DeformablePSROIPooling", "opset1"): lambda: model(o1.deformable_psroi_pooling(
            p(1, 8, 6, 6), c([[0, 1, 1, 5, 5]]), 2, 0.5, group_size=2)),
        ("DepthToSpace", "opset1"): lambda: model(o1.depth_to_space(p(1, 8, 2, 3), "depth_first", 2)),
        ("SpaceToDepth", "opset1"): lambda: model(o1.space_to_depth(p(1, 2, 4, 6), "depth_first", 2)),
        ("Einsum", "opset7"): lambda: model(o7.einsum([p(2, 3), w(3, 4)], "ij,jk->ik")),
        ("Elu", "opset1"): lambda: model(o1.elu(p(2, 5), 0.5)),
        ("Eye", "opset9"): lambda: model(o9.eye(c(3, np.int64), c(4, np.int64), c(1, np.int64), "f32"), []),
        ("ExtractImagePatches", "opset3"): lambda: model(o3.extract_image_patches(
            p(1, 2, 7, 7), [2, 2], [3, 3], [2, 2], "valid")),
        ("FakeQuantize", "opset1"): lambda: model(o1.fake_quantize(p(2, 5), c(-1), c(1), c(-2), c(2), 5)),
        ("GRN", "opset1"): lambda: model(o1.grn(p(2, 3, 4), 0.5)),
        ("GRUCell", "opset3"): lambda: model(o3.gru_cell(*rnn_inputs(3, False), 5)),
        ("LSTMCell", "opset1,opset4"): lambda: model(o4.lstm_cell(
            *(lambda x, h, w_, r, b: (x, h, c(rng.standard_normal((2, 5))), w_, r, b))(*rnn_inputs(4, False)), 5)),
        ("RNNCell", "opset1"): lambda: model(o3.rnn_cell(*rnn_inputs(1, False), 5, ["tanh"], [], [], 0.0)),
        ("GRUSequence", "opset5"): lambda: model(o5.gru_sequence(
            *(lambda x, h, w_, r, b: (x, h, c([3, 2], np.int32), w_, r, b))(*rnn_inputs(3, True)), 5, "forward")),
        ("RNNSequence", "opset5"): lambda: model(o5.rnn_sequence(
            *(lambda x, h, w_, r, b: (x, h, c([3, 2], np.int32), w_, r, b))(*rnn_inputs(1, True)), 5, "forward")),
        ("LSTMSequence", "opset5"): lambda: model(o5.lstm_sequence(
            *(lambda x, h, w_, r, b: (x, h, c(rng.standard_normal((2, 1, 5))), c([3, 2], np.int32), w_, r, b))(
                *rnn_inputs(4, True)), 5, "forward")),
        ("GroupNormalization", "opset12"): lambda: model(o12.group_normalization(p(2, 4, 3), w(4), w(4), 2, 0.5)),
        ("Interpolate", "opset1"): lambda: model(o1.interpolate(p(1, 2, 3, 4), c([5, 6], np.int64), {
            "axes": [2, 3], "mode": "linear", "align_corners": False, "antialias": False,
            "pads_begin": [0], "pads_end": [0]})),
        ("Interpolate", "opset4"): lambda: model(o10.interpolate(p(1, 2, 3, 4), c([5, 7], np.int64),
                                                                c([1.5, 1.75]), "linear", "sizes",
                                                                axes=c([2, 3], np.int64))),
        ("Interpolate", "opset11"): lambda: model(o11.interpolate(p(1, 2, 3, 4), c([2.0, 1.5]), "linear", "scales",
                                                                  axes=c([2, 3], np.int64))),
        ("LRN", "opset1"): lambda: model(o1.lrn(p(1, 4, 3, 3), c([1], np.int64), 0.5, 0.75, 2.0, 3)),
        ("MVN", "opset2"): lambda: model(o2.mvn(p(2, 3, 4), True, True, 0.5)),
        ("MVN", "opset6"): lambda: model(o6.mvn(p(2, 3, 4), c([2], np.int64), True, 0.5, "inside_sqrt")),
        ("Multinomial", "opset13"): lambda: model(o13.multinomial(
            c([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]]), c([2], np.int64), "i32", True, False, 1, 2), []),
        ("NormalizeL2", "opset1"): lambda: model(o1.normalize_l2(p(2, 3, 4), c([1], np.int64), 0.5, "max")),
        ("PSROIPooling", "opset1"): lambda: model(o1.psroi_pooling(
            p(1, 8, 6, 6), c([[0, 1, 1, 5, 5]]), 2, 2, 0.5, 1, 1, "average")),
        ("ROIAlign", "opset3"): lambda: roi_align(o3),
        ("ROIAlign", "opset9"): lambda: roi_align(o9),
        ("ROIAlignRotated", "opset15"): lambda: model(o15.roi_align_rotated(
            p(2, 3, 8, 8), c([[3, 3, 4, 2, 0.3], [4, 4, 3, 3, -0.2]]), c([0, 1], np.int32), 3, 2, 2, 0.5, True)),
        ("ROIPooling", "opset2"): lambda: model(o2.roi_pooling(
            p(1, 3, 8, 8), c([[0, 0, 0, 6, 6], [0, 2, 1, 7, 5]]), [3, 2], 0.5, "max")),
        ("RandomUniform", "opset8"): lambda: model(o8.random_uniform(c([2, 3], np.int64), c(0), c(1), "f32", 1, 2), []),
        ("Range", "opset4"): lambda: model(o12.range(c(1, np.int32), c(10, np.int32), c(3, np.int32), "f32"), []),
        ("RegionYolo", "opset1"): lambda: model(o1.region_yolo(p(1, 2 * (4 + 1 + 3), 2, 2), 4, 3, 2, True, [0, 1],
                                                               1, 3)),
        ("ReorgYolo", "opset2"): lambda: model(o2.reorg_yolo(p(1, 4, 4, 4), [2])),
        ("Reshape", "opset1"): lambda: model(o1.reshape(p(2, 3, 4), c([4, -1], np.int64), True)),
        ("SegmentMax", "opset16"): lambda: model(o16.segment_max(p(5, 2), c([0, 0, 2, 2, 3], np.int32),
                                                                 c(5, np.int32), "LOWEST")),
        ("Split", "opset1"): lambda: model(o1.split(p(2, 6), c(1, np.int64), 3)),
        ("StridedSlice", "opset1"): lambda: model(o1.strided_slice(
            p(4, 5), c([1, 1], np.int64), c([3, 4], np.int64), c([1, 2], np.int64), [1, 0], [0, 1])),
        ("TopK", "opset1,opset3,opset11"): lambda: model(o11.topk(p(3, 5), c(2, np.int64), 1, "min", "index")),
    }


def inputs_for(model: Any) -> dict[str, Any]:
    """The inputs fed to a built model: values of both signs, the same on every call."""
    import numpy as np

    rng = np.random.default_rng(3)
    return {p.get_friendly_name(): (rng.standard_normal(tuple(p.get_partial_shape().to_shape())) * 2)
            .astype(np.float32) for p in model.get_parameters()}


# attributes OpenVINO writes beside the specification's, holding the same values (and read after them):
# deleted with the attribute, so that the layer is the one the specification describes
ALIASES = {("ROIPooling", "pooled_h"): ("output_size", "output_roi"),
           ("ROIPooling", "pooled_w"): ("output_size", "output_roi")}


# attributes OpenVINO fills and runs with that irlint does not bind (it reports T210), and why
NOT_ALIGNED = {
    ("ExperimentalDetectronGenerateProposalsSingleImage", "opset6", "nms_threshold"):
        "at threshold 0 the CPU plugin's suppression keeps other boxes than irlint's model of it",
}


def drop_attribute(model: Any, typ: str, attr: str, dest: Path) -> tuple[Path, str, str]:
    """Save `model` as IR at `dest` with `attr` deleted from its one `typ` layer; (xml, layer name, value written)."""
    import openvino as ov

    ov.save_model(model, str(dest), compress_to_fp16=False)
    root = etree.parse(str(dest)).getroot()
    layer = root.find(f"./layers/layer[@type='{typ}']")
    data = layer.find("data")
    written = data.attrib.pop(attr)
    for alias in ALIASES.get((typ, attr), ()):
        data.attrib.pop(alias, None)
    dest.write_bytes(etree.tostring(root, xml_declaration=True, encoding="utf-8"))
    return dest, layer.get("name"), written


def _serve() -> None:
    """The child (`--serve`): answer (xml, layer name, attribute, inputs) requests on stdin until None
    with (verdict, message, value filled, outputs) on stdout (OpenVINO's own prints go to stderr)."""
    import numpy as np
    import openvino as ov

    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    core = ov.Core()
    while (req := _recv(sys.stdin.buffer)) is not None:
        xml, name, attr, inputs = req
        try:
            model = core.read_model(xml)
        except Exception as e:
            _send(out, ("read", _message(e), None, None))
            continue
        value = None
        for node in model.get_ops():
            if node.get_friendly_name() == name:
                value = _plain(node.get_attributes().get(attr))
        try:
            compiled = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
        except Exception as e:
            _send(out, ("compile", _message(e), value, None))
            continue
        try:
            got = compiled(inputs)
        except Exception as e:
            _send(out, ("infer", _message(e), value, None))
            continue
        _send(out, ("filled", "", value, [np.array(got[o]) for o in compiled.outputs]))


def _send(f: Any, obj: Any) -> None:
    data = pickle.dumps(obj)
    f.write(len(data).to_bytes(8, "little") + data)
    f.flush()


def _recv(f: Any) -> Any:
    head = f.read(8)
    if len(head) < 8:
        raise EOFError
    return pickle.loads(f.read(int.from_bytes(head, "little")))


def _message(e: Exception) -> str:
    """The line of OpenVINO's message that says what is wrong (its last non-empty one)."""
    lines = [ln for ln in str(e).strip().splitlines() if ln.strip()]
    return lines[-1][:200] if lines else type(e).__name__


def _plain(v: Any) -> Any:
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    try:
        return list(v)
    except TypeError:
        return str(v)


class Worker:
    """One OpenVINO child process for all requests, started again after a crash or a hang."""

    def __init__(self, timeout: float = 300) -> None:
        self.proc: subprocess.Popen[bytes] | None = None
        self.timeout = timeout

    def ask(self, xml: str, name: str, attr: str, inputs: dict[str, Any]) -> tuple[str, str, Any, Any]:
        """(verdict, message, value filled, outputs in the model's order) of OpenVINO on `xml`, fed `inputs`."""
        if self.proc is None or self.proc.poll() is not None:
            self.proc = subprocess.Popen([sys.executable, __file__, "--serve"], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            _send(self.proc.stdin, (xml, name, attr, inputs))
            if not select.select([self.proc.stdout], [], [], self.timeout)[0]:
                self._stop()
                return "timeout", f"no answer in {self.timeout:g} s", None, None
            return _recv(self.proc.stdout)
        except (EOFError, BrokenPipeError):
            code = self.proc.wait()
            return "crash", f"exit code {code}", None, None

    def _stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            assert self.proc.stdin is not None
            try:
                _send(self.proc.stdin, None)
                self.proc.wait(30)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self._stop()


def measure(typ: str, versions: str, attr: str, work: Path, worker: Worker) -> dict[str, Any]:
    """OpenVINO's verdict on the built model of (typ, versions) without `attr`, and irlint's findings."""
    import irlint
    from irlint.diagnostics import Severity

    model = builders()[(typ, versions)]()
    xml, name, written = drop_attribute(model, typ, attr, work / f"{typ}-{versions}-{attr}.xml")
    verdict, why, value, _ = worker.ask(str(xml), name, attr, inputs_for(model))
    found = irlint.check(xml)
    return {"written": written, "verdict": verdict, "why": why, "value": value,
            "irlint_errors": sorted({d.code for d in found if d.severity == Severity.ERROR}),
            "irlint_t217": any(d.code == "T217" for d in found)}


def _openvino_column(row: dict[str, Any]) -> str:
    v = row["verdict"]
    value = row.get("value")
    shown = "[" + ", ".join(map(str, value)) + "]" if isinstance(value, list) else \
        str(value).lower() if isinstance(value, bool) else str(value)
    why = re.sub(r"(\w)_\d+\b", r"\1", row.get("why", "")).replace("|", "\\|")  # no generated node numbers
    return {"no model": "not measured",
            "filled": f"read and run, as `{shown}`",
            "read": f'refused at read ("{why}")',
            "compile": f'read as `{shown}`, refused at compile ("{why}")',
            "infer": f'read as `{shown}`, compiled, fails at inference ("{why}")',
            "crash": f"the process crashes ({why})",
            "timeout": why}[v]


def _irlint_column(row: dict[str, Any]) -> str:
    if row["verdict"] == "no model":
        return "T210 (error)"
    why = NOT_ALIGNED.get((row["op"], row["versions"], row["attribute"]))
    if why is not None:
        return f"T210 (error): not aligned ({why})"
    errors = [c for c in row["irlint_errors"] if c != "T211"]  # T211: the declared ports are the written ones
    parts = ["T217 (warning)"] if row["irlint_t217"] else []
    parts += [f"{c} (error)" for c in errors]
    return " and ".join(parts) + (", computes with it" if not errors and row["irlint_t217"] else "")


def markdown(rows: list[dict[str, Any]]) -> str:
    """The table docs/rules-openvino.md shows: one row per op and attribute."""
    lines = ["| op | attribute | OpenVINO without it | irlint |", "| --- | --- | --- | --- |"]
    for r in rows:
        versions = "/".join(v.removeprefix("opset") for v in r["versions"].split(","))
        lines.append(f"| {r['op']}-{versions} | `{r['attribute']}` | {_openvino_column(r)} | {_irlint_column(r)} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--report", type=Path, required="--serve" not in (argv or sys.argv))
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--markdown", type=Path, help="write the table docs/rules-openvino.md shows from --report")
    ap.add_argument("--timeout", type=float, default=300, help="seconds to wait for OpenVINO on one model")
    args = ap.parse_args(argv)
    if args.serve:
        from irlint.orphans import die_with_parent

        die_with_parent()  # a hung OpenVINO child does not outlive a killed measurement
        _serve()
        return 0
    if args.markdown:
        args.markdown.write_text(markdown(json.loads(args.report.read_text())))
        return 0
    sys.path.insert(0, str(ROOT))
    wanted = required_attributes()
    built = builders()
    rows = []
    worker = Worker(args.timeout)
    with tempfile.TemporaryDirectory() as tmp:
        for (typ, versions), attrs in sorted(wanted.items()):
            for attr in attrs:
                if (typ, versions) not in built:
                    rows.append({"op": typ, "versions": versions, "attribute": attr, "verdict": "no model"})
                    continue
                r = measure(typ, versions, attr, Path(tmp), worker)
                rows.append({"op": typ, "versions": versions, "attribute": attr, **r})
                print(f"{typ} {versions} {attr}: {r['verdict']} {r['value']!r} {r['why'][:100]}", flush=True)
    worker.close()
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
