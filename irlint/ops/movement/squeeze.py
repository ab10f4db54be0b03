"""Squeeze-1 / Squeeze-15: remove size-1 dims (all of them, or those named by the optional axes input).

As in OpenVINO's shape inference, an axis whose dim cannot be 1 is left in place rather than
rejected; a dynamic dim named by an axis is assumed to be 1 (unless Squeeze-15's allow_axis_skip,
which makes the rank unknown).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.fastpath import reshaper
from irlint.ops.movement.axes import as_int_array, int_values, normalize_axis, vector_length
from irlint.ops.movement.dims import dynamic_shape
from irlint.ops.movement.folding import fold
from irlint.ops.registry import register
from irlint.types import Dim


@dataclass(frozen=True)
class SqueezeAttrs:
    allow_axis_skip: bool = False  # Squeeze-15 only


def _can_be_one(d: Dim) -> bool:
    return d.lo <= 1 and (d.hi is None or d.hi >= 1)


@register
class Squeeze(Op):
    types = ("Squeeze",)
    versions = ("opset1", "opset15")
    Attrs = SqueezeAttrs
    arity = (1, 2)

    def infer(self, attrs: SqueezeAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data = inputs[0]
        shape = data.shape
        if len(inputs) > 1 and inputs[1].shape is not None and len(inputs[1].shape) > 1:
            raise OpError(f"Squeeze: axes must be a scalar or 1-D, got rank {len(inputs[1].shape)}")
        if shape is None:
            return [TensorInfo(data.etype, None)]
        axes_vals = int_values(inputs[1]) if len(inputs) > 1 else []
        if axes_vals is None:
            # Unknown axes: one axis removes at most one dim; more axes leave the rank unknown.
            n = vector_length("Squeeze", "axes", inputs[1])
            if n == 1 and shape:
                out = dynamic_shape(len(shape) - 1) if any(_can_be_one(d) for d in shape) else shape
                return [TensorInfo(data.etype, out)]
            return [TensorInfo(data.etype, None)]
        axes = {normalize_axis("Squeeze", a, len(shape)) for a in axes_vals}
        if not axes:
            if any(not d.is_static and _can_be_one(d) for d in shape):
                return [TensorInfo(data.etype, None)]
            out_shape = tuple(d for d in shape if not _can_be_one(d))
        else:
            if attrs.allow_axis_skip and any(not shape[a].is_static and _can_be_one(shape[a]) for a in axes):
                return [TensorInfo(data.etype, None)]
            out_shape = tuple(d for i, d in enumerate(shape) if not (i in axes and _can_be_one(d)))
        return fold(self, attrs, inputs, [TensorInfo(data.etype, out_shape)])

    def compute(self, attrs: SqueezeAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        if len(inputs) > 1:
            axes = {normalize_axis("Squeeze", a, x.ndim) for a in as_int_array("Squeeze", "axes", inputs[1])}
        else:
            axes = set()
        if not axes:
            axes = {i for i, n in enumerate(x.shape) if n == 1}
        keep = [n for i, n in enumerate(x.shape) if not (i in axes and n == 1)]
        return [x.reshape(keep)]

    def prepare(self, attrs: SqueezeAttrs, consts: Sequence[np.ndarray | None]):  # type: ignore[no-untyped-def]
        """Constant (or no) axes: the output shape computed by `compute` once per input shape."""
        if len(consts) > 1 and consts[1] is None:
            return None
        return reshaper(self, attrs, consts)
