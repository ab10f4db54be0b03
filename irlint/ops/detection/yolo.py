"""YOLO heads: RegionYolo-1 (v2 region layer / v3 yolo layer) and ReorgYolo-2 (darknet's reorg).

RegionYolo works per batch and per anchor region on blocks of (coords + classes + 1) channels:
the first two coordinates go through a sigmoid, and so does the objectness score; the class
scores get a softmax across classes (`do_softmax`, YOLOv2, whose output is the input flattened
from `axis` to `end_axis`) or a sigmoid each (YOLOv3, whose output keeps only the `mask` regions).
ReorgYolo reads its input as [N, C/s², H*s, W*s] and gathers each s x s block into channels,
exactly as darknet's (and OpenVINO's) index arithmetic does; it is not SpaceToDepth.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.dims import dim_mul, dims_product
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim

Array = np.ndarray


@dataclass(frozen=True)
class RegionYoloAttrs:
    coords: int
    classes: int
    num: int
    do_softmax: bool
    mask: tuple[int, ...] = ()
    axis: int = 1
    end_axis: int = 3
    anchors: tuple[float, ...] = ()


def _float_data(op: str, info: TensorInfo) -> None:
    if info.etype is not None and not info.etype.is_float and not info.etype.is_dynamic:
        raise OpError(f"{op}: expects floating-point data, got {info.etype}")


@register
class RegionYolo(Op):
    types = ("RegionYolo",)
    versions = ("opset1",)
    Attrs = RegionYoloAttrs
    infer_reads_values = False

    def infer(self, attrs: RegionYoloAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data = inputs[0]
        _float_data("RegionYolo", data)
        if data.shape is None:
            return [TensorInfo(data.etype, None)]
        if len(data.shape) != 4:
            raise OpError(f"RegionYolo: input must be 4-D [N, C, H, W], got rank {len(data.shape)}")
        if attrs.do_softmax:
            rank = len(data.shape)
            axis = attrs.axis + rank if attrs.axis < 0 else attrs.axis
            end = attrs.end_axis + rank if attrs.end_axis < 0 else attrs.end_axis
            if not 0 <= axis <= end < rank:
                raise OpError(f"RegionYolo: axis {attrs.axis} .. end_axis {attrs.end_axis} is not a range of "
                              f"axes of a rank-{rank} input")
            flat = dims_product(data.shape[axis:end + 1])
            if any(d == DYNAMIC for d in data.shape[axis:end + 1]):
                flat = DYNAMIC
            return [TensorInfo(data.etype, (*data.shape[:axis], flat, *data.shape[end + 1:]))]
        channels = Dim.of(len(attrs.mask) * (attrs.classes + attrs.coords + 1))
        return [TensorInfo(data.etype, (data.shape[0], channels, *data.shape[2:]))]

    def compute(self, attrs: RegionYoloAttrs, inputs: Sequence[Array]) -> list[Array]:
        x = np.asarray(inputs[0])
        if x.ndim != 4:
            raise OpError(f"RegionYolo: input must be 4-D [N, C, H, W], got rank {x.ndim}")
        n, c, h, w = x.shape
        block = attrs.classes + attrs.coords + 1
        regions = attrs.num if attrs.do_softmax else len(attrs.mask)
        if regions * block > c:
            raise OpError(f"RegionYolo: {regions} regions of {block} channels need {regions * block} channels, "
                          f"the input has {c}")
        y = x.astype(np.float64)
        if not attrs.do_softmax:
            y = y[:, :regions * block]
        view = y[:, :regions * block].reshape(n, regions, block, h, w)
        sig = 1.0 / (1.0 + np.exp(-view))
        view[:, :, 0:2] = sig[:, :, 0:2]
        if attrs.do_softmax:
            view[:, :, attrs.coords] = sig[:, :, attrs.coords]
            scores = view[:, :, attrs.coords + 1:]
            e = np.exp(scores - scores.max(axis=2, keepdims=True))
            view[:, :, attrs.coords + 1:] = e / e.sum(axis=2, keepdims=True)
        else:
            view[:, :, attrs.coords:] = sig[:, :, attrs.coords:]
        y = np.ascontiguousarray(y)
        y[:, :regions * block] = view.reshape(n, regions * block, h, w)
        out_shape = self.infer(attrs, [TensorInfo(None, tuple(Dim.of(d) for d in x.shape))])[0].shape
        return [y.reshape([d.lo for d in out_shape]).astype(x.dtype)]


@dataclass(frozen=True)
class ReorgYoloAttrs:
    stride: int


@register
class ReorgYolo(Op):
    types = ("ReorgYolo",)
    versions = ("opset2",)
    Attrs = ReorgYoloAttrs
    infer_reads_values = False

    def infer(self, attrs: ReorgYoloAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, s = inputs[0], attrs.stride
        if s < 1:
            raise OpError(f"ReorgYolo: stride must be >= 1, got {s}")
        if data.shape is None:
            return [TensorInfo(data.etype, None)]
        if len(data.shape) != 4:
            raise OpError(f"ReorgYolo: input must be 4-D [N, C, H, W], got rank {len(data.shape)}")
        n, c, h, w = data.shape
        if c.is_static and c.lo < s * s:
            raise OpError(f"ReorgYolo: channels {c.lo} must be at least stride² = {s * s}")
        for name, d in (("height", h), ("width", w)):
            if d.is_static and d.lo % s:
                raise OpError(f"ReorgYolo: {name} {d.lo} is not a multiple of the stride {s}")
        return [TensorInfo(data.etype, (n, dim_mul(c, Dim.of(s * s)), _div(h, s), _div(w, s)))]

    def compute(self, attrs: ReorgYoloAttrs, inputs: Sequence[Array]) -> list[Array]:
        x = np.asarray(inputs[0])
        s = attrs.stride
        (out,) = self.infer(attrs, [TensorInfo(None, tuple(Dim.of(d) for d in x.shape))])
        n, c, h, w = x.shape
        co = c // (s * s)
        if c % (s * s):
            raise OpError(f"ReorgYolo: channels {c} must be a multiple of stride² = {s * s}")
        a = x.reshape(n, co, h, s, w, s)  # the input read as [N, C/s², H*s, W*s]
        y = a.transpose(0, 3, 5, 1, 2, 4).reshape(n, c, h, w)
        return [np.ascontiguousarray(y).reshape([d.lo for d in out.shape])]


def _div(d: Dim, s: int) -> Dim:
    return d if d == DYNAMIC else Dim(-(-d.lo // s), None if d.hi is None else d.hi // s)
