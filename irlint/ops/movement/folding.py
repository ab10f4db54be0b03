"""Constant folding inside shape functions: the small integer subgraphs that decide shapes.

When every input of a movement op carries a known value (and the result stays small), `infer`
attaches the computed value to its outputs, so ShapeOf -> Gather -> Concat -> Reshape chains
resolve statically without the interpreter.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from irlint.ops.base import Op, TensorInfo
from irlint.types import static_shape

# Folding is meant for shape arithmetic; large tensors are left to the interpreter.
MAX_FOLD_ELEMENTS = 1 << 16


def fold(op: Op, attrs: Any, inputs: Sequence[TensorInfo], outs: list[TensorInfo]) -> list[TensorInfo]:
    """`outs` with values filled in when every input value is known and small; else `outs`."""
    if not inputs or any(i.value is None for i in inputs):
        return outs
    if sum(int(np.asarray(i.value).size) for i in inputs) > MAX_FOLD_ELEMENTS:
        return outs
    if any(o.shape is not None and _too_big(o) for o in outs):
        return outs
    values = op.compute(attrs, [np.asarray(i.value) for i in inputs])
    return [TensorInfo(o.etype, static_shape(v.shape), v) for o, v in zip(outs, values, strict=False)]


def _too_big(info: TensorInfo) -> bool:
    n = 1
    for d in info.shape or ():
        if d.hi is None:
            return True
        n *= d.hi
    return n > MAX_FOLD_ELEMENTS
