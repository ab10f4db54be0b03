"""Whole models made of the nn ops: `irlint check` finds nothing, `irlint.interp.run` matches the CPU plugin.

One network comes from ONNX through openvino.convert_model (the way real IRs reach irlint), one is
a TensorIterator whose body convolves, pools and resizes each time step.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.interp import run

ov = pytest.importorskip("openvino")
onnx = pytest.importorskip("onnx")
ops = pytest.importorskip("openvino.opset13")

RNG = np.random.default_rng(59)


def _onnx_cnn(tmp: Path):
    from onnx import TensorProto, helper, numpy_helper

    def init(name, *shape):
        return numpy_helper.from_array(RNG.standard_normal(shape).astype(np.float32) * 0.5, name)

    nodes = [
        helper.make_node("Conv", ["x", "w1", "b1"], ["c1"], pads=[1, 1, 1, 1], strides=[1, 1]),
        helper.make_node("BatchNormalization", ["c1", "g", "beta", "mean", "var"], ["bn"], epsilon=1e-3),
        helper.make_node("Relu", ["bn"], ["r1"]),
        helper.make_node("MaxPool", ["r1"], ["p1"], kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1),
        helper.make_node("ConvTranspose", ["p1", "wt"], ["ct"], strides=[2, 2], pads=[1, 1, 1, 1],
                         output_padding=[1, 1]),
        helper.make_node("Resize", ["ct", "", "scales"], ["rs"], mode="linear",
                         coordinate_transformation_mode="half_pixel"),
        helper.make_node("InstanceNormalization", ["rs", "in_s", "in_b"], ["inorm"], epsilon=1e-4),
        helper.make_node("AveragePool", ["inorm"], ["ap"], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1],
                         count_include_pad=0),
        helper.make_node("Conv", ["ap", "wg"], ["gc"], group=2, dilations=[2, 2], pads=[2, 2, 2, 2]),
        helper.make_node("GlobalAveragePool", ["gc"], ["gap"]),
        helper.make_node("Flatten", ["gap"], ["flat"]),
        helper.make_node("Gemm", ["flat", "wf"], ["y"], transB=1),
    ]
    graph = helper.make_graph(
        nodes, "cnn", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 9, 9])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 5])],
        initializer=[init("w1", 4, 3, 3, 3), init("b1", 4), init("g", 4), init("beta", 4), init("mean", 4),
                     numpy_helper.from_array(RNG.random(4).astype(np.float32) + 0.5, "var"),
                     init("wt", 4, 4, 3, 3), numpy_helper.from_array(np.array([1, 1, 1.5, 1.5], np.float32), "scales"),
                     init("in_s", 4), init("in_b", 4), init("wg", 4, 2, 3, 3), init("wf", 5, 4)],
    )
    path = tmp / "cnn.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), str(path))
    return ov.convert_model(str(path))


def _onnx_detection(tmp: Path):
    """ONNX NonMaxSuppression, RoiAlign, GridSample and MaxRoiPool, as detection heads export them."""
    from onnx import TensorProto, helper, numpy_helper

    nodes = [
        helper.make_node("NonMaxSuppression", ["boxes", "scores", "max_out", "iou", "score_thr"], ["sel"],
                         center_point_box=0),
        helper.make_node("RoiAlign", ["feat", "rois", "batch_idx"], ["pooled"], mode="avg", output_height=3,
                         output_width=2, sampling_ratio=2, spatial_scale=0.5,
                         coordinate_transformation_mode="half_pixel"),
        helper.make_node("GridSample", ["feat", "grid"], ["sampled"], align_corners=0, mode="bilinear",
                         padding_mode="border"),
        helper.make_node("MaxRoiPool", ["feat", "rois5"], ["maxpooled"], pooled_shape=[2, 2], spatial_scale=0.5),
    ]
    rng = np.random.default_rng(3)
    centres = rng.random((1, 8, 2)) * 4
    boxes = np.concatenate([centres, centres + rng.random((1, 8, 2)) + 0.5], axis=-1)[..., [1, 0, 3, 2]]
    inits = [numpy_helper.from_array(boxes.astype(np.float32), "boxes"),
             numpy_helper.from_array(np.array([4], np.int64), "max_out"),
             numpy_helper.from_array(np.array([0.4], np.float32), "iou"),
             numpy_helper.from_array(np.array([0.1], np.float32), "score_thr"),
             numpy_helper.from_array(np.array([[1, 2, 9, 11], [0, 0, 5, 4]], np.float32), "rois"),
             numpy_helper.from_array(np.array([0, 0], np.int64), "batch_idx"),
             numpy_helper.from_array((rng.random((1, 5, 4, 2)) * 2.4 - 1.2).astype(np.float32), "grid"),
             numpy_helper.from_array(np.array([[0, 1, 2, 9, 11], [0, 0, 0, 5, 4]], np.float32), "rois5")]
    graph = helper.make_graph(
        nodes, "det", [helper.make_tensor_value_info("scores", TensorProto.FLOAT, [1, 2, 8]),
                       helper.make_tensor_value_info("feat", TensorProto.FLOAT, [1, 3, 8, 10])],
        [helper.make_tensor_value_info("sel", TensorProto.INT64, [None, 3]),
         helper.make_tensor_value_info("pooled", TensorProto.FLOAT, [2, 3, 3, 2]),
         helper.make_tensor_value_info("sampled", TensorProto.FLOAT, [1, 3, 5, 4]),
         helper.make_tensor_value_info("maxpooled", TensorProto.FLOAT, [2, 3, 2, 2])],
        initializer=inits)
    path = tmp / "det.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    return ov.convert_model(str(path))


def _ti_conv():
    x = ops.parameter([4, 2, 6, 6], np.float32, name="X")
    h = ops.parameter([1, 3, 3, 3], np.float32, name="H")
    xi = ops.parameter([1, 2, 6, 6], np.float32)
    hi = ops.parameter([1, 3, 3, 3], np.float32)
    conv = ops.convolution(xi, ops.constant(RNG.standard_normal((3, 2, 3, 3)).astype(np.float32)), [1, 1], [1, 1],
                           [1, 1], [1, 1])
    pooled = ops.max_pool(conv, [2, 2], [1, 1], [0, 0], [0, 0], [2, 2]).output(0)
    h2 = ops.tanh(ops.add(ops.mvn(pooled, ops.constant(np.array([2, 3], np.int64)), True, 1e-5, "inside_sqrt"), hi))
    big = ops.interpolate(h2, ops.constant(np.array([6, 6], np.int64)), "nearest", "sizes",
                          axes=ops.constant(np.array([2, 3], np.int64)))
    ro, rs = ops.result(h2), ops.result(big)
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([ro, rs], [xi, hi]))
    ti.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 0)
    ti.set_merged_input(hi, h.output(0), ro.output(0))
    outs = [ops.result(ti.get_iter_value(ro.output(0), -1), name="last"),
            ops.result(ti.get_concatenated_slices(rs.output(0), 0, 1, 1, -1, 0), name="all")]
    return ov.Model(outs, [x, h], "ti_conv")


@pytest.mark.parametrize("build", ["onnx_cnn", "onnx_cnn_dynamic", "onnx_detection", "ti_conv"])
def test_model_checks_clean_and_runs_like_the_cpu_plugin(build, tmp_path: Path) -> None:
    if build == "onnx_detection":
        model = _onnx_detection(tmp_path)
    else:
        model = _ti_conv() if build == "ti_conv" else _onnx_cnn(tmp_path)
    if build == "onnx_cnn_dynamic":  # batch, height and width unknown: shape inference works on intervals
        model.reshape({model.inputs[0]: ov.PartialShape([-1, 3, -1, -1])})
    path = tmp_path / "m.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    xml = path.read_text()
    wanted = ("NonMaxSuppression", "ROIAlign", "GridSample", "ROIPooling") if build == "onnx_detection" else \
        ("Convolution", "MaxPool", "MVN", "Interpolate")
    assert all(f'type="{t}"' in xml for t in wanted)
    findings = [d for d in irlint.check(path) if d.severity.name == "ERROR" or d.code == "G110"]
    assert not findings, [f"{d.code} {d.message}" for d in findings]

    inputs = {p.get_friendly_name(): RNG.standard_normal([d.get_length() if d.is_static else 9
                                                          for d in p.get_partial_shape()]).astype(np.float32)
              for p in model.get_parameters()}
    core = ov.Core()
    read = core.read_model(str(path))
    compiled = core.compile_model(read, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    want = compiled([inputs[p.get_friendly_name()] for p in read.get_parameters()])
    got = run(irlint.load(path), inputs)
    for i, result in enumerate(read.get_results()):
        name = result.get_friendly_name()
        w = np.asarray(want[i])
        assert got[name].shape == w.shape, f"{name}: {got[name].shape} vs OpenVINO {w.shape}"
        np.testing.assert_allclose(got[name], w, rtol=2e-4, atol=2e-5, err_msg=name)
