"""SliceScatter-15: a copy of `data` whose Slice-8 region (start, stop, step, axes) is `updates`.

The region is chosen exactly as Slice-8 chooses it (clamped bounds, negative steps), and
`updates` must have the region's shape; the output has data's shape and type.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.math.elementwise import same_etype
from irlint.ops.movement.axes import as_int_array, common_length, normalize_axis
from irlint.ops.movement.slice_dims import py_slice
from irlint.ops.registry import register
from irlint.types import Dim, format_shape

NAMES = ("start", "stop", "step", "axes")


@register
class SliceScatter(Op):
    types = ("SliceScatter",)
    versions = ("opset15",)
    arity = (5, 6)

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, updates = inputs[0], inputs[1]
        etype = same_etype("SliceScatter", [data, updates])
        common_length("SliceScatter", NAMES, inputs[2:])
        shape = data.shape
        if shape is not None and updates.shape is not None and len(shape) != len(updates.shape):
            raise OpError(f"SliceScatter: updates have rank {len(updates.shape)}, data rank {len(shape)}")
        if shape is None and updates.shape is not None:
            shape = tuple(Dim(0, None) for _ in updates.shape)
        return [TensorInfo(etype or data.etype, shape)]

    def compute(self, attrs: NoAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x, updates = np.asarray(inputs[0]), np.asarray(inputs[1])
        start, stop, step = (as_int_array("SliceScatter", n, a) for n, a in zip(NAMES, inputs[2:5], strict=False))
        if not len(start) == len(stop) == len(step):
            raise OpError("SliceScatter: start, stop and step must have the same length")
        if 0 in step:
            raise OpError(f"SliceScatter: step {step} contains zero")
        if len(inputs) > 5:
            axes = [normalize_axis("SliceScatter", a, x.ndim) for a in as_int_array("SliceScatter", "axes", inputs[5])]
            if len(axes) != len(start) or len(set(axes)) != len(axes):
                raise OpError("SliceScatter: axes must name distinct axes, one per start value")
        else:
            axes = list(range(len(start)))
        index: list[slice] = [slice(None)] * x.ndim
        for k, ax in enumerate(axes):
            index[ax] = py_slice(x.shape[ax], start[k], stop[k], step[k])
        out = x.copy()
        region = out[tuple(index)]
        if region.shape != updates.shape:
            raise OpError(f"SliceScatter: updates have shape {list(updates.shape)}, the slice selects "
                          f"{format_shape(tuple(Dim.of(d) for d in region.shape))}")
        out[tuple(index)] = updates
        return [out]
