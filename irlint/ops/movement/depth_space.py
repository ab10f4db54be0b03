"""DepthToSpace-1, SpaceToDepth-1 and ShuffleChannels-1: channel/space rearrangements by reshape+transpose.

For data ``[N, C, D1, ..., Dk]`` and block size b, DepthToSpace moves ``b**k`` channel groups into
the spatial dims (``[N, C / b**k, D1*b, ..., Dk*b]``) and SpaceToDepth does the inverse. `mode`
says whether the block index is the outer (`blocks_first`) or inner (`depth_first`) part of the
channel index. ShuffleChannels splits `axis` into ``[group, C/group]`` and swaps the two.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.axes import normalize_axis
from irlint.ops.registry import register
from irlint.types import Dim, Shape, format_shape

MODES = ("blocks_first", "depth_first")


@dataclass(frozen=True)
class BlockAttrs:
    mode: str
    block_size: int = 1


def _scale(d: Dim, factor: int) -> Dim:
    return Dim(d.lo * factor, None if d.hi is None else d.hi * factor)


def _divide(op: str, d: Dim, factor: int, what: str) -> Dim:
    if d.is_static:
        if d.lo % factor:
            raise OpError(f"{op}: {what} {d.lo} is not divisible by {factor}")
        return Dim.of(d.lo // factor)
    return Dim(-(-d.lo // factor), None if d.hi is None else d.hi // factor)


def _check(op: str, attrs: BlockAttrs, rank: int | None) -> None:
    if attrs.mode not in MODES:
        raise OpError(f"{op}: mode must be blocks_first or depth_first, got {attrs.mode!r}")
    if attrs.block_size < 1:
        raise OpError(f"{op}: block_size must be positive, got {attrs.block_size}")
    if rank is not None and rank < 3:
        raise OpError(f"{op}: data must have rank 3 or more, got {rank}")


@register
class DepthToSpace(Op):
    types = ("DepthToSpace",)
    versions = ("opset1",)
    Attrs = BlockAttrs
    infer_reads_values = False

    def infer(self, attrs: BlockAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        shape = inputs[0].shape
        _check("DepthToSpace", attrs, None if shape is None else len(shape))
        if shape is None:
            return [TensorInfo(inputs[0].etype, None)]
        b, k = attrs.block_size, len(shape) - 2
        c = _divide("DepthToSpace", shape[1], b**k, f"channels of {format_shape(shape)}")
        return [TensorInfo(inputs[0].etype, (shape[0], c, *(_scale(d, b) for d in shape[2:])))]

    def compute(self, attrs: BlockAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        _check("DepthToSpace", attrs, x.ndim)
        b, k = attrs.block_size, x.ndim - 2
        n, c, spatial = x.shape[0], x.shape[1], x.shape[2:]
        if c % b**k:
            raise OpError(f"DepthToSpace: channels {c} are not divisible by {b**k}")
        c2 = c // b**k
        if attrs.mode == "blocks_first":
            y = x.reshape((n, *[b] * k, c2, *spatial))
            order = [0, k + 1] + [a for i in range(k) for a in (k + 2 + i, 1 + i)]
        else:
            y = x.reshape((n, c2, *[b] * k, *spatial))
            order = [0, 1] + [a for i in range(k) for a in (k + 2 + i, 2 + i)]
        out = y.transpose(order).reshape((n, c2, *(d * b for d in spatial)))
        return [np.ascontiguousarray(out)]


@register
class SpaceToDepth(Op):
    types = ("SpaceToDepth",)
    versions = ("opset1",)
    Attrs = BlockAttrs
    infer_reads_values = False

    def infer(self, attrs: BlockAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        shape = inputs[0].shape
        _check("SpaceToDepth", attrs, None if shape is None else len(shape))
        if shape is None:
            return [TensorInfo(inputs[0].etype, None)]
        b, k = attrs.block_size, len(shape) - 2
        spatial = [_divide("SpaceToDepth", d, b, f"dim {i + 2} of {format_shape(shape)}")
                   for i, d in enumerate(shape[2:])]
        return [TensorInfo(inputs[0].etype, (shape[0], _scale(shape[1], b**k), *spatial))]

    def compute(self, attrs: BlockAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        _check("SpaceToDepth", attrs, x.ndim)
        b, k = attrs.block_size, x.ndim - 2
        n, c, spatial = x.shape[0], x.shape[1], x.shape[2:]
        if any(d % b for d in spatial):
            raise OpError(f"SpaceToDepth: spatial dims {list(spatial)} are not divisible by {b}")
        small = [d // b for d in spatial]
        y = x.reshape((n, c, *[v for d in small for v in (d, b)]))
        blocks = [3 + 2 * i for i in range(k)]
        dims = [2 + 2 * i for i in range(k)]
        order = [0, *blocks, 1, *dims] if attrs.mode == "blocks_first" else [0, 1, *blocks, *dims]
        out = y.transpose(order).reshape((n, c * b**k, *small))
        return [np.ascontiguousarray(out)]


@dataclass(frozen=True)
class ShuffleAttrs:
    axis: int = 1
    group: int = 1


def _shuffle_check(attrs: ShuffleAttrs, shape: Shape) -> int:
    if len(shape) < 1:
        raise OpError("ShuffleChannels: data must have rank 1 or more")
    ax = normalize_axis("ShuffleChannels", attrs.axis, len(shape))
    if attrs.group < 1:
        raise OpError(f"ShuffleChannels: group must be positive, got {attrs.group}")
    d = shape[ax]
    if d.is_static and d.lo % attrs.group:
        raise OpError(f"ShuffleChannels: dim {ax} ({d.lo}) is not divisible by group {attrs.group}")
    return ax


@register
class ShuffleChannels(Op):
    types = ("ShuffleChannels",)
    versions = ("opset1",)
    Attrs = ShuffleAttrs
    infer_reads_values = False

    def infer(self, attrs: ShuffleAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        if inputs[0].shape is not None:
            _shuffle_check(attrs, inputs[0].shape)
        return [TensorInfo(inputs[0].etype, inputs[0].shape)]

    def compute(self, attrs: ShuffleAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        ax = _shuffle_check(attrs, tuple(Dim.of(d) for d in x.shape))
        pre = int(np.prod(x.shape[:ax], dtype=np.int64))
        post = int(np.prod(x.shape[ax + 1:], dtype=np.int64))
        y = x.reshape(pre, attrs.group, x.shape[ax] // attrs.group, post).transpose(0, 2, 1, 3)
        return [np.ascontiguousarray(y).reshape(x.shape)]
