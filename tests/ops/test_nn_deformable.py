"""DeformableConvolution-1/8 against OpenVINO's CPU plugin."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, Dim, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
o1 = pytest.importorskip("openvino.opset1")
o8 = pytest.importorskip("openvino.opset8")

RNG = np.random.default_rng(47)

CASES = [  # spatial, kernel, strides, pads_begin, pads_end, dilations, group, deformable_group
    ((5, 6), (3, 3), [1, 1], [1, 1], [1, 1], [1, 1], 1, 1),
    ((6, 5), (2, 3), [2, 1], [0, 1], [1, 0], [1, 2], 2, 1),
    ((5, 5), (3, 2), [1, 2], [1, 0], [0, 1], [2, 1], 1, 2),
    ((4, 6), (2, 2), [1, 1], [0, 0], [0, 0], [1, 1], 2, 4),
]


def _inputs(spatial, kernel, strides, pb, pe, dil, dg, scale):
    h, w = spatial
    ho = (h + pb[0] + pe[0] - (dil[0] * (kernel[0] - 1) + 1)) // strides[0] + 1
    wo = (w + pb[1] + pe[1] - (dil[1] * (kernel[1] - 1) + 1)) // strides[1] + 1
    taps = kernel[0] * kernel[1]
    x = RNG.standard_normal((2, 4, h, w)).astype(np.float32)
    offsets = (RNG.standard_normal((2, 2 * taps * dg, ho, wo)) * scale).astype(np.float32)
    mask = RNG.random((2, taps * dg, ho, wo)).astype(np.float32)
    return x, offsets, mask


@pytest.mark.parametrize("spatial,kernel,strides,pb,pe,dil,group,dg", CASES)
@pytest.mark.parametrize("scale", [0.7, 3.0])  # small shifts, and shifts that leave the map
def test_deformable_convolution_v1(spatial, kernel, strides, pb, pe, dil, group, dg, scale) -> None:
    x, offsets, _ = _inputs(spatial, kernel, strides, pb, pe, dil, dg, scale)
    w = RNG.standard_normal((6, 4 // group, *kernel)).astype(np.float32)
    px, po = o1.parameter(list(x.shape), np.float32, name="x"), o1.parameter(list(offsets.shape), np.float32, name="o")
    node = o1.deformable_convolution(px, po, o1.constant(w), strides, pb, pe, dil, group=group, deformable_group=dg)
    check_op(ov.Model([o1.result(node, name="y")], [px, po]), {"x": x, "o": offsets}, "DeformableConvolution",
             rtol=2e-4, atol=2e-5)


@pytest.mark.parametrize("spatial,kernel,strides,pb,pe,dil,group,dg", CASES)
@pytest.mark.parametrize("pad", [False, True])
@pytest.mark.parametrize("with_mask", [False, True])
def test_deformable_convolution_v8(spatial, kernel, strides, pb, pe, dil, group, dg, pad, with_mask) -> None:
    x, offsets, mask = _inputs(spatial, kernel, strides, pb, pe, dil, dg, 1.5)
    w = RNG.standard_normal((6, 4 // group, *kernel)).astype(np.float32)
    params = [o8.parameter(list(a.shape), np.float32, name=nm) for nm, a in (("x", x), ("o", offsets), ("m", mask))]
    node = o8.deformable_convolution(params[0], params[1], o8.constant(w), strides, pb, pe, dil,
                                     mask=params[2] if with_mask else None, group=group, deformable_group=dg,
                                     bilinear_interpolation_pad=pad)
    feeds = {"x": x, "o": offsets, "m": mask}
    used = params if with_mask else params[:2]
    check_op(ov.Model([o8.result(node, name="y")], used), {k: feeds[k] for k in ("x", "o", "m")[: len(used)]},
             "DeformableConvolution", rtol=2e-4, atol=2e-5)


def test_deformable_shapes_and_errors() -> None:
    op = lookup("DeformableConvolution", "opset8")
    attrs, _ = bind_attrs(op.Attrs, {"strides": "1,1", "dilations": "1,1", "pads_begin": "1,1", "pads_end": "1,1",
                                     "group": "2", "deformable_group": "2"})
    (out,) = op.infer(attrs, [TensorInfo(F32, (DYNAMIC, Dim.of(4), Dim(3, 9), DYNAMIC)), TensorInfo(F32, None),
                              TensorInfo(F32, static_shape((6, 2, 3, 3)))])
    assert out.shape == (DYNAMIC, Dim.of(6), Dim(3, 9), Dim(1, None))
    with pytest.raises(OpError, match="channels"):
        op.infer(attrs, [TensorInfo(F32, static_shape((1, 6, 5, 5))), TensorInfo(F32, None),
                         TensorInfo(F32, static_shape((6, 2, 3, 3)))])
    with pytest.raises(OpError, match="need 36 channels"):
        op.infer(attrs, [TensorInfo(F32, static_shape((1, 4, 5, 5))), TensorInfo(F32, static_shape((1, 18, 5, 5))),
                         TensorInfo(F32, static_shape((6, 2, 3, 3)))])
