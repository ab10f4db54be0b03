"""The attributes OpenVINO's reader fills when `<data>` lacks them, with the value it fills.

Measured on openvino 2026.4 by scripts/attribute_defaults.py: for each attribute irlint's op declares
without a default, a small model holding the op (built with the openvino Python API) had it deleted
from the saved IR, and `read_model`, `compile_model` (CPU, f32) and one inference accepted the layer;
the value is what the read op reports (`get_attributes`). Where OpenVINO refuses the layer (at read,
compile or inference) or crashes, the attribute is not listed and stays required (T210). irlint
binds a listed attribute to the value OpenVINO fills, so it computes what OpenVINO computes
(tests/rules/test_attribute_fills.py compares the two on every measured model), and T217 says the
attribute is missing. docs/rules-openvino.md shows every measured attribute.
"""

from __future__ import annotations

from functools import cache

from irlint.ops.base import use_fills
from irlint.ops.registry import lookup

# (op type, irlint op's opsets, attribute) -> the value OpenVINO fills, as IR text. An empty text is an
# empty list; OpenVINO's shape inference and irlint's ops read an empty per-axis list as the value
# PER_AXIS gives on every spatial axis.
FILLED: dict[tuple[str, str, str], str] = {
    ("Convolution", "opset1", "strides"): "",
    ("Convolution", "opset1", "dilations"): "",
    ("Convolution", "opset1", "pads_begin"): "",
    ("Convolution", "opset1", "pads_end"): "",
    ("GroupConvolution", "opset1", "strides"): "",
    ("GroupConvolution", "opset1", "dilations"): "",
    ("GroupConvolution", "opset1", "pads_begin"): "",
    ("GroupConvolution", "opset1", "pads_end"): "",
    ("ConvolutionBackpropData", "opset1", "strides"): "",
    ("ConvolutionBackpropData", "opset1", "dilations"): "",
    ("ConvolutionBackpropData", "opset1", "pads_begin"): "",
    ("ConvolutionBackpropData", "opset1", "pads_end"): "",
    ("GroupConvolutionBackpropData", "opset1", "strides"): "",
    ("GroupConvolutionBackpropData", "opset1", "dilations"): "",
    ("GroupConvolutionBackpropData", "opset1", "pads_begin"): "",
    ("GroupConvolutionBackpropData", "opset1", "pads_end"): "",
    ("BinaryConvolution", "opset1", "strides"): "",
    ("BinaryConvolution", "opset1", "dilations"): "",
    ("BinaryConvolution", "opset1", "pads_begin"): "",
    ("BinaryConvolution", "opset1", "pads_end"): "",
    ("DeformableConvolution", "opset1", "strides"): "",
    ("DeformableConvolution", "opset1", "dilations"): "",
    ("DeformableConvolution", "opset1", "pads_begin"): "",
    ("DeformableConvolution", "opset1", "pads_end"): "",
    ("DeformableConvolution", "opset8", "strides"): "",
    ("DeformableConvolution", "opset8", "dilations"): "",
    ("DeformableConvolution", "opset8", "pads_begin"): "",
    ("DeformableConvolution", "opset8", "pads_end"): "",
    ("AvgPool", "opset1", "pads_begin"): "",
    ("AvgPool", "opset1", "pads_end"): "",
    ("AvgPool", "opset14", "pads_begin"): "",
    ("AvgPool", "opset14", "pads_end"): "",
    ("AvgPool", "opset16", "pads_begin"): "",
    ("AvgPool", "opset16", "pads_end"): "",
    ("MaxPool", "opset1", "pads_begin"): "",
    ("MaxPool", "opset1", "pads_end"): "",
    ("MaxPool", "opset8", "pads_begin"): "",
    ("MaxPool", "opset8", "pads_end"): "",
    ("MaxPool", "opset14", "pads_begin"): "",
    ("MaxPool", "opset14", "pads_end"): "",
    ("BatchNormInference", "opset1", "epsilon"): "0",
    ("BatchNormInference", "opset5", "epsilon"): "0",
    ("BinaryConvolution", "opset1", "mode"): "xnor-popcount",
    ("BinaryConvolution", "opset1", "pad_value"): "0",
    ("Clamp", "opset1", "min"): "0",
    ("Clamp", "opset1", "max"): "0",
    ("Concat", "opset1", "axis"): "0",
    ("DeformablePSROIPooling", "opset1", "spatial_scale"): "0",
    ("DepthToSpace", "opset1", "mode"): "blocks_first",
    ("SpaceToDepth", "opset1", "mode"): "blocks_first",
    ("Elu", "opset1", "alpha"): "0",
    ("FakeQuantize", "opset1", "levels"): "0",
    ("GRN", "opset1", "bias"): "1",
    ("GroupNormalization", "opset12", "epsilon"): "0",
    ("Interpolate", "opset4", "mode"): "nearest",
    ("Interpolate", "opset4", "shape_calculation_mode"): "sizes",
    ("Interpolate", "opset11", "mode"): "nearest",
    ("LRN", "opset1", "alpha"): "0",
    ("LRN", "opset1", "beta"): "0",
    ("LRN", "opset1", "bias"): "0",
    ("LRN", "opset1", "size"): "0",
    ("MVN", "opset2", "eps"): "0",
    ("MVN", "opset6", "eps"): "0",
    ("Multinomial", "opset13", "with_replacement"): "false",
    ("Multinomial", "opset13", "log_probs"): "false",
    ("NormalizeL2", "opset1", "eps"): "0",
    ("NormalizeL2", "opset1", "eps_mode"): "add",
    ("ROIAlign", "opset3", "pooled_h"): "0",
    ("ROIAlign", "opset3", "pooled_w"): "0",
    ("ROIAlign", "opset3", "sampling_ratio"): "0",
    ("ROIAlign", "opset3", "spatial_scale"): "0",
    ("ROIAlign", "opset3", "mode"): "avg",
    ("ROIAlign", "opset9", "pooled_h"): "0",
    ("ROIAlign", "opset9", "pooled_w"): "0",
    ("ROIAlign", "opset9", "sampling_ratio"): "0",
    ("ROIAlign", "opset9", "spatial_scale"): "0",
    ("ROIAlign", "opset9", "mode"): "avg",
    ("ROIAlignRotated", "opset15", "pooled_h"): "0",
    ("ROIAlignRotated", "opset15", "pooled_w"): "0",
    ("ROIAlignRotated", "opset15", "sampling_ratio"): "0",
    ("ROIAlignRotated", "opset15", "spatial_scale"): "0",
    ("RegionYolo", "opset1", "coords"): "0",
    ("RegionYolo", "opset1", "classes"): "0",
    ("Reshape", "opset1", "special_zero"): "false",
    ("SegmentMax", "opset16", "fill_mode"): "ZERO",
    ("StridedSlice", "opset1", "end_mask"): "",
    ("TopK", "opset1,opset3,opset11", "axis"): "0",
    ("TopK", "opset1,opset3,opset11", "mode"): "max",
    ("TopK", "opset1,opset3,opset11", "sort"): "none",
    ("Reverse", "opset1", "mode"): "index",
    ("ExperimentalDetectronDetectionOutput", "opset6", "score_threshold"): "0",
    ("ExperimentalDetectronDetectionOutput", "opset6", "nms_threshold"): "0",
    ("ExperimentalDetectronDetectionOutput", "opset6", "max_delta_log_wh"): "0",
    ("ExperimentalDetectronDetectionOutput", "opset6", "post_nms_count"): "0",
    ("ExperimentalDetectronDetectionOutput", "opset6", "max_detections_per_image"): "0",
    ("ExperimentalDetectronGenerateProposalsSingleImage", "opset6", "min_size"): "0",
    ("ExperimentalDetectronGenerateProposalsSingleImage", "opset6", "pre_nms_count"): "0",
    ("ExperimentalDetectronROIFeatureExtractor", "opset6", "sampling_ratio"): "0",
    ("GenerateProposals", "opset9", "min_size"): "0",
    ("GenerateProposals", "opset9", "nms_threshold"): "0",
    ("Proposal", "opset1", "base_size"): "0",
    ("Proposal", "opset1", "pre_nms_topn"): "0",
    ("Proposal", "opset1", "nms_thresh"): "0",
    ("Proposal", "opset1", "feat_stride"): "1",
    ("Proposal", "opset1", "min_size"): "1",
    ("Proposal", "opset1", "ratio"): "",
    ("Proposal", "opset1", "scale"): "",
    ("Proposal", "opset4", "base_size"): "0",
    ("Proposal", "opset4", "pre_nms_topn"): "0",
    ("Proposal", "opset4", "nms_thresh"): "0",
    ("Proposal", "opset4", "feat_stride"): "1",
    ("Proposal", "opset4", "min_size"): "1",
    ("Proposal", "opset4", "ratio"): "",
    ("Proposal", "opset4", "scale"): "",
}

# the value on every spatial axis of the per-axis lists FILLED lists as empty
PER_AXIS = {"strides": 1, "dilations": 1, "pads_begin": 0, "pads_end": 0}


def described(key: tuple[str, str, str]) -> str:
    """The value OpenVINO fills, as T217 names it."""
    text = FILLED[key]
    if text == "" and key[2] in PER_AXIS:
        return f"{PER_AXIS[key[2]]} on every spatial axis"
    if text == "":
        return "an empty list"
    return f'{key[2]}="{text}"'


@cache
def fills_by_attrs_class() -> dict[type, dict[str, str]]:
    """FILLED keyed by the Attrs class of irlint's op, as `bind_attrs` looks it up."""
    out: dict[type, dict[str, str]] = {}
    for (typ, versions, attr), text in FILLED.items():
        op = lookup(typ, versions.split(",")[0])
        if op is not None:
            out.setdefault(op.Attrs, {})[attr] = text
    return out


use_fills(fills_by_attrs_class)


def filled_missing(layer_type: str, version: str, data: dict[str, str] | object) -> list[tuple[str, str]]:
    """(attribute, the value OpenVINO fills as T217 names it) for each listed attribute `<data>` lacks."""
    listed = _listed(layer_type, version)
    if not listed:
        return []
    return [(attr, text) for attr, text in listed if attr not in data]  # type: ignore[operator]


@cache
def _listed(layer_type: str, version: str) -> tuple[tuple[str, str], ...]:
    """(attribute, as T217 names its filled value) of the op a layer type and version resolve to
    (asked once per pair: T217 looks at every layer)."""
    op = lookup(layer_type, version)
    if op is None:
        return ()
    return tuple((attr, described(key)) for attr, key in _keys_by_attrs_class().get(op.Attrs, {}).items())


@cache
def _keys_by_attrs_class() -> dict[type, dict[str, tuple[str, str, str]]]:
    """attribute -> its FILLED key, by the Attrs class of irlint's op (opsets may share one)."""
    out: dict[type, dict[str, tuple[str, str, str]]] = {}
    for key in FILLED:
        op = lookup(key[0], key[1].split(",")[0])
        if op is not None:
            out.setdefault(op.Attrs, {}).setdefault(key[2], key)
    return out
