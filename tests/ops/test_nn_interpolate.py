"""Interpolate-1/4/11 against OpenVINO's CPU plugin: modes, coordinate transforms, nearest modes, pads."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, I64, Dim, static_shape
from tests.opcheck import check_op, op_model
from tests.ops.refcheck import check_reference

ov = pytest.importorskip("openvino")
o1 = pytest.importorskip("openvino.opset1")
o10 = pytest.importorskip("openvino.opset10")
o11 = pytest.importorskip("openvino.opset11")

RNG = np.random.default_rng(21)
X = RNG.standard_normal((2, 3, 5, 6)).astype(np.float32)
TRANSFORMS = ["half_pixel", "pytorch_half_pixel", "asymmetric", "tf_half_pixel_for_nn", "align_corners"]
NEAREST = ["round_prefer_floor", "round_prefer_ceil", "floor", "ceil", "simple"]


def model(build, x: np.ndarray = X):
    return op_model(build, x, every_output=False)


def c(values, dtype):
    return o1.constant(np.array(values, dtype))


def v11(p, mode, sizes=None, scales=None, axes=(2, 3), **kw):
    given = c(sizes, np.int64) if sizes is not None else c(scales, np.float32)
    calc = "sizes" if sizes is not None else "scales"
    return o11.interpolate(p, given, mode, calc, axes=c(list(axes), np.int64), **kw)


def v4(p, mode, sizes, scales, axes=(2, 3), calc="sizes", **kw):
    return o10.interpolate(p, c(sizes, np.int64), c(scales, np.float32), mode, calc, axes=c(list(axes), np.int64),
                           **kw)


@pytest.mark.parametrize("transform", TRANSFORMS)
@pytest.mark.parametrize("nearest", NEAREST)
@pytest.mark.parametrize("scales", [[2.0, 1.5], [0.6, 0.5]])
def test_nearest_v11_scales(transform, nearest, scales) -> None:
    m, inputs = model(lambda p: v11(p, "nearest", scales=scales, coordinate_transformation_mode=transform,
                                    nearest_mode=nearest))
    check_op(m, inputs, "Interpolate")


@pytest.mark.parametrize("transform", TRANSFORMS)
@pytest.mark.parametrize("nearest", ["round_prefer_floor", "simple"])
def test_nearest_v4_sizes(transform, nearest) -> None:
    m, inputs = model(lambda p: v4(p, "nearest", [8, 4], [0.0, 0.0], coordinate_transformation_mode=transform,
                                   nearest_mode=nearest))
    check_op(m, inputs, "Interpolate")


@pytest.mark.parametrize("mode", ["linear_onnx", "cubic", "linear"])
@pytest.mark.parametrize("transform", TRANSFORMS)
@pytest.mark.parametrize("sizes", [[9, 11], [3, 4], [1, 6]])
def test_linear_and_cubic_v11_sizes(mode, transform, sizes) -> None:
    m, inputs = model(lambda p: v11(p, mode, sizes=sizes, coordinate_transformation_mode=transform))
    check_op(m, inputs, "Interpolate", rtol=2e-4, atol=2e-5)


@pytest.mark.parametrize("mode", ["linear_onnx", "cubic", "linear"])
@pytest.mark.parametrize("scales", [[1.5, 2.5], [0.5, 0.7]])
def test_scales_mode_v4(mode, scales) -> None:
    m, inputs = model(lambda p: v4(p, mode, [1, 1], scales, calc="scales"))
    check_op(m, inputs, "Interpolate", rtol=2e-4, atol=2e-5)


@pytest.mark.parametrize("scales", [[0.5, 0.4], [0.6, 1.5], [0.3, 0.5]])
def test_linear_antialias(scales) -> None:
    # The CPU plugin's antialiasing filter differs from the core reference's (docs/semantics.md):
    # compared with the reference kernel.
    m, inputs = model(lambda p: v11(p, "linear", scales=scales, antialias=True))
    check_reference(m, inputs, "Interpolate")


@pytest.mark.parametrize("coeff", [-0.5, -0.75])
def test_cubic_coeff_and_pads(coeff) -> None:
    m, inputs = model(lambda p: v11(p, "cubic", sizes=[7, 10], cube_coeff=coeff, pads_begin=[0, 0, 1, 2],
                                    pads_end=[0, 0, 2, 0]))
    check_op(m, inputs, "Interpolate", rtol=2e-4, atol=2e-5)


@pytest.mark.parametrize("mode,axes,sizes", [("nearest", [3], [9]), ("cubic", [2], [8]), ("linear", [2], [7]),
                                             ("linear_onnx", [2, 3], [8, 9])])
def test_axes_subsets_and_padding(mode, axes, sizes) -> None:
    m, inputs = model(lambda p: v11(p, mode, sizes=sizes, axes=axes, pads_begin=[0, 0, 1], pads_end=[0, 0, 0, 2]))
    check_op(m, inputs, "Interpolate", rtol=2e-4, atol=2e-5)


@pytest.mark.parametrize("mode,axes,sizes", [("nearest", [1, 3], [5, 4]), ("linear", [1, 2], [2, 7]),
                                             ("nearest", [0, 1, 2, 3], [3, 2, 6, 7]), ("cubic", [0, 3], [3, 4]),
                                             ("linear_onnx", [0, 1, 2, 3], [2, 3, 8, 9])])
@pytest.mark.parametrize("pads", [False, True])
def test_non_spatial_axes_against_the_reference(mode, axes, sizes, pads) -> None:
    # The CPU plugin resizes only spatial axes (and pads channels its own way); the reference does any
    # (its linear_onnx kernel aborts the process on padded input, so that pair is not run).
    if pads and mode == "linear_onnx":
        pytest.skip("the reference linear_onnx kernel aborts on padded input")
    kw = {"pads_begin": [0, 1], "pads_end": [1, 0, 1]} if pads else {}
    m, inputs = model(lambda p: v11(p, mode, sizes=sizes, axes=axes, **kw))
    check_reference(m, inputs, "Interpolate")


def test_v11_without_axes_input() -> None:
    x = RNG.standard_normal((4, 6)).astype(np.float32)
    m, inputs = model(lambda p: o11.interpolate(p, c([8, 3], np.int64), "linear_onnx", "sizes"), x)
    check_op(m, inputs, "Interpolate", rtol=2e-4, atol=2e-5)


@pytest.mark.parametrize("mode", ["nearest", "linear", "cubic"])
@pytest.mark.parametrize("align", [True, False])
@pytest.mark.parametrize("axes,sizes", [([2, 3], [8, 4]), ([3], [10]), ([2], [3])])
def test_interpolate_v1(mode, align, axes, sizes) -> None:
    attrs = {"axes": axes, "mode": mode, "align_corners": align, "antialias": False, "pads_begin": [0],
             "pads_end": [0]}
    m, inputs = model(lambda p: o1.interpolate(p, c(sizes, np.int64), attrs))
    check_op(m, inputs, "Interpolate", rtol=2e-4, atol=2e-5)


def test_interpolate_v1_5d_linear() -> None:
    x = RNG.standard_normal((1, 2, 3, 4, 5)).astype(np.float32)
    attrs = {"axes": [2, 3, 4], "mode": "linear", "align_corners": False, "antialias": False,
             "pads_begin": [0], "pads_end": [0]}
    m, inputs = model(lambda p: o1.interpolate(p, c([5, 3, 7], np.int64), attrs), x)
    check_op(m, inputs, "Interpolate", rtol=2e-4, atol=2e-5)


def _bound(version: str, data: dict[str, str]):
    op = lookup("Interpolate", version)
    attrs, problems = bind_attrs(op.Attrs, data)
    assert not problems, problems
    return op, attrs


def test_interpolate_shapes() -> None:
    op, attrs = _bound("opset11", {"mode": "linear", "shape_calculation_mode": "scales", "pads_begin": "0,0,1,1",
                                   "pads_end": "0,0,1,1"})
    data = TensorInfo(F32, (DYNAMIC, Dim.of(3), Dim(4, 8), Dim.of(10)))
    axes = TensorInfo(I64, static_shape((2,)), np.array([2, 3], np.int64))
    scales = TensorInfo(F32, static_shape((2,)), np.array([0.5, 1.5], np.float32))
    (out,) = op.infer(attrs, [data, scales, axes])
    assert out.shape == (DYNAMIC, Dim.of(3), Dim(3, 5), Dim.of(18))
    (out,) = op.infer(attrs, [data, TensorInfo(F32, static_shape((2,))), axes])
    assert out.shape == (DYNAMIC, Dim.of(3), DYNAMIC, DYNAMIC)
    (out,) = op.infer(attrs, [data, scales, TensorInfo(I64, static_shape((2,)))])
    assert out.shape == (DYNAMIC,) * 4
    with pytest.raises(OpError, match="2 values for 1 axes"):
        op.infer(attrs, [data, scales, TensorInfo(I64, static_shape((1,)), np.array([1], np.int64))])
    with pytest.raises(OpError, match="out of range"):
        op.infer(attrs, [data, scales, TensorInfo(I64, static_shape((2,)), np.array([2, 4], np.int64))])
    _, bad = _bound("opset11", {"mode": "area", "shape_calculation_mode": "sizes"})
    with pytest.raises(OpError, match="mode='area'"):
        op.infer(bad, [data, scales, axes])
    _, pil = _bound("opset11", {"mode": "bilinear_pillow", "shape_calculation_mode": "scales"})
    with pytest.raises(OpError, match="exactly two axes"):
        op.infer(pil, [data, TensorInfo(F32, static_shape((1,)), np.array([2.0], np.float32)),
                       TensorInfo(I64, static_shape((1,)), np.array([2], np.int64))])
    v4 = lookup("Interpolate", "opset4")
    with pytest.raises(OpError, match="mode='bilinear_pillow'"):
        v4.infer(pil, [data, scales, scales, axes])


@pytest.mark.parametrize("mode", ["bilinear_pillow", "bicubic_pillow"])
@pytest.mark.parametrize("sizes", [[9, 11], [3, 4], [2, 6], [5, 9]])
@pytest.mark.parametrize("axes", [(2, 3), (3, 2)])
def test_pillow_modes(mode, sizes, axes) -> None:
    m, inputs = model(lambda p: v11(p, mode, sizes=sizes, axes=axes, cube_coeff=-0.5))
    check_op(m, inputs, "Interpolate", rtol=2e-4, atol=2e-5)
