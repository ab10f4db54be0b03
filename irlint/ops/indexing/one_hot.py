"""OneHot-1/16: `on_value` where ``indices == position along the new axis``, `off_value` elsewhere.

An index outside ``[0, depth)`` gives a row of `off_value`. Negative indices do too in OneHot-1 and
with OneHot-16's ``negative_indices_mode="ignore_negative"``; ``"normalize"`` counts them from the
end (``-1`` is ``depth-1``; below ``-depth`` still gives `off_value`). The output type is `on_value`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.indexing.common import int_indices
from irlint.ops.movement.axes import normalize_axis, scalar_value
from irlint.ops.movement.folding import fold
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim, format_shape


@dataclass(frozen=True)
class OneHotAttrs:
    axis: int = -1


@dataclass(frozen=True)
class OneHot16Attrs:
    axis: int = -1
    negative_indices_mode: str = "ignore_negative"


def _scalar_input(name: str, info: TensorInfo) -> None:
    shape = info.shape
    if shape is not None and (len(shape) > 1 or (len(shape) == 1 and shape[0].value not in (1, None))):
        raise OpError(f"OneHot: {name} must be a scalar, got shape {format_shape(shape)}")


@register
class OneHot(Op):
    types = ("OneHot",)
    versions = ("opset1",)
    Attrs = OneHotAttrs
    arity = (4, 4)

    def infer(self, attrs: OneHotAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        indices, depth_in, on, off = inputs
        mode = getattr(attrs, "negative_indices_mode", "ignore_negative")
        if mode not in ("ignore_negative", "normalize"):
            raise OpError(f"OneHot: negative_indices_mode must be ignore_negative or normalize, got {mode!r}")
        for name, info in (("depth", depth_in), ("on_value", on), ("off_value", off)):
            _scalar_input(name, info)
        if on.etype is not None and off.etype is not None and on.etype != off.etype:
            raise OpError(f"OneHot: on_value ({on.etype}) and off_value ({off.etype}) must have the same type")
        if indices.etype is not None and not indices.etype.is_dynamic and not indices.etype.is_integer:
            raise OpError(f"OneHot: indices must be integers, got {indices.etype}")
        depth = scalar_value(depth_in)
        if depth is not None and depth < 0:
            raise OpError(f"OneHot: depth must not be negative, got {depth}")
        if indices.shape is None:
            return [TensorInfo(on.etype or off.etype, None)]
        ax = normalize_axis("OneHot", attrs.axis, len(indices.shape) + 1)
        d = DYNAMIC if depth is None else Dim.of(depth)
        out = TensorInfo(on.etype or off.etype, (*indices.shape[:ax], d, *indices.shape[ax:]))
        return fold(self, attrs, inputs, [out])

    def compute(self, attrs: OneHotAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        idx = int_indices("OneHot", inputs[0])
        mode = getattr(attrs, "negative_indices_mode", "ignore_negative")
        if mode not in ("ignore_negative", "normalize"):
            raise OpError(f"OneHot: negative_indices_mode must be ignore_negative or normalize, got {mode!r}")
        depth_arr, on, off = (np.asarray(a) for a in inputs[1:])
        if depth_arr.size != 1 or on.size != 1 or off.size != 1:
            raise OpError("OneHot: depth, on_value and off_value must be scalars")
        depth = int(depth_arr.reshape(-1)[0])
        if depth < 0:
            raise OpError(f"OneHot: depth must not be negative, got {depth}")
        ax = normalize_axis("OneHot", attrs.axis, idx.ndim + 1)
        if mode == "normalize":
            idx = np.where(idx < 0, idx + depth, idx)
        positions = np.arange(depth).reshape((depth,) + (1,) * (idx.ndim - ax))
        hot = np.expand_dims(idx, ax) == positions
        return [np.where(hot, on.reshape(()), off.reshape(())).astype(on.dtype)]


@register
class OneHot16(OneHot):
    versions = ("opset16",)
    Attrs = OneHot16Attrs
