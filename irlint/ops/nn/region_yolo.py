"""RegionYolo-0: the YOLO v2 region layer (`do_softmax`) and the YOLO v3 yolo layer.

The input holds, per region, (coords + 1 + classes) channels: box coordinates, objectness and class
scores. As the reference kernel: x, y (the first two coordinates) and objectness go through a
sigmoid; class scores through a softmax over classes (v2, output flattened from `axis` to
`end_axis`) or a sigmoid (v3, regions = len(mask)); other coordinates pass unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.axes import normalize_axis
from irlint.ops.movement.dims import dims_product
from irlint.ops.registry import register
from irlint.types import Dim, format_shape, static_shape


@dataclass(frozen=True)
class RegionYoloAttrs:
    coords: int
    classes: int
    num: int
    do_softmax: bool = True
    mask: tuple[int, ...] = ()
    axis: int = 1
    end_axis: int = 3
    anchors: tuple[float, ...] = ()


@register
class RegionYolo(Op):
    types = ("RegionYolo",)
    versions = ("opset1",)
    Attrs = RegionYoloAttrs
    infer_reads_values = False

    def _regions(self, attrs: RegionYoloAttrs) -> int:
        if attrs.coords < 0 or attrs.classes < 0 or attrs.num < 0:
            raise OpError("RegionYolo: coords, classes and num must not be negative")
        return attrs.num if attrs.do_softmax else len(attrs.mask)

    def infer(self, attrs: RegionYoloAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        regions = self._regions(attrs)
        x = inputs[0]
        if x.etype is not None and not x.etype.is_dynamic and not x.etype.is_float:
            raise OpError(f"RegionYolo: input must be floating-point, got {x.etype}")
        if x.shape is None:
            return [TensorInfo(x.etype, None)]
        if len(x.shape) != 4:
            raise OpError(f"RegionYolo: input {format_shape(x.shape)} must be 4-D [N, C, H, W]")
        if not attrs.do_softmax:
            return [TensorInfo(x.etype, (x.shape[0], Dim.of(regions * (attrs.coords + 1 + attrs.classes)),
                                         *x.shape[2:]))]
        a = normalize_axis("RegionYolo", attrs.axis, 4)
        e = normalize_axis("RegionYolo", attrs.end_axis, 4, "end_axis")
        if e < a:
            raise OpError(f"RegionYolo: end_axis {attrs.end_axis} is before axis {attrs.axis}")
        return [TensorInfo(x.etype, (*x.shape[:a], dims_product(x.shape[a:e + 1]), *x.shape[e + 1:]))]

    def compute(self, attrs: RegionYoloAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        (info,) = self.infer(attrs, [TensorInfo(None, static_shape(x.shape))])
        regions = self._regions(attrs)
        n, c, h, w = x.shape
        per = attrs.coords + 1 + attrs.classes
        if c < regions * per:
            raise OpError(f"RegionYolo: {c} channels hold fewer than {regions} regions of {per} channels")
        y = x.astype(np.float32).copy()
        r = y[:, : regions * per].reshape(n, regions, per, h, w)
        with np.errstate(over="ignore"):
            r[:, :, :2] = 1 / (1 + np.exp(-r[:, :, :2]))
            if attrs.do_softmax:
                r[:, :, attrs.coords] = 1 / (1 + np.exp(-r[:, :, attrs.coords]))
                # from the input: with coords < 2 (0 is OpenVINO's fill) the CPU plugin's softmax reads
                # class scores the sigmoid of x, y did not touch (measured)
                src = x.astype(np.float32)[:, : regions * per].reshape(n, regions, per, h, w)
                cls = src[:, :, attrs.coords + 1:]
                if attrs.classes:
                    e = np.exp(cls - cls.max(axis=2, keepdims=True))
                    r[:, :, attrs.coords + 1:] = e / e.sum(axis=2, keepdims=True)
            else:
                r[:, :, attrs.coords:] = 1 / (1 + np.exp(-r[:, :, attrs.coords:]))
        y[:, : regions * per] = r.reshape(n, regions * per, h, w)
        if not attrs.do_softmax:
            y = y[:, : regions * per]
        shape = [d.lo for d in info.shape]  # type: ignore[union-attr]
        return [y.reshape(shape).astype(x.dtype)]
