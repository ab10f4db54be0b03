"""Slice-8: start/stop/step per axis (ONNX-like), axes optional (default: the first len(start) axes)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.fastpath import indexer
from irlint.ops.movement.axes import as_int_array, common_length, int_values, normalize_axis
from irlint.ops.movement.folding import fold
from irlint.ops.movement.slice_dims import py_slice, sliced_dim
from irlint.ops.registry import register
from irlint.types import Dim


def _axes(vals: list[int] | None, n: int, rank: int) -> list[int] | None:
    if vals is None:
        return None
    if len(vals) != n:
        raise OpError(f"Slice: axes has {len(vals)} values, start/stop/step have {n}")
    axes = [normalize_axis("Slice", a, rank) for a in vals]
    if len(set(axes)) != len(axes):
        raise OpError(f"Slice: axes {vals} repeat an axis")
    return axes


@register
class Slice(Op):
    types = ("Slice",)
    versions = ("opset8",)
    arity = (4, 5)

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data = inputs[0]
        n = common_length("Slice", ("start", "stop", "step", "axes"), inputs[1:], scalar=False)
        if data.shape is None:
            return [TensorInfo(data.etype, None)]
        rank = len(data.shape)
        start, stop, step = (int_values(t) for t in inputs[1:4])
        if n is not None and n > rank:
            raise OpError(f"Slice: {n} sliced axes exceed the input rank {rank}")
        if step is not None and 0 in step:
            raise OpError(f"Slice: step {step} contains zero")
        axes = (
            _axes(int_values(inputs[4]), n or 0, rank)
            if len(inputs) > 4
            else (list(range(n)) if n is not None else None)
        )
        if axes is None:
            # Which axes are sliced is unknown: any dim may shrink.
            return [TensorInfo(data.etype, tuple(Dim(0, d.hi) for d in data.shape))]
        out = list(data.shape)
        for k, ax in enumerate(axes):
            if start is None or stop is None or step is None:
                out[ax] = Dim(0, data.shape[ax].hi)
            else:
                out[ax] = sliced_dim(data.shape[ax], start[k], stop[k], step[k])
        return fold(self, attrs, inputs, [TensorInfo(data.etype, tuple(out))])

    def compute(self, attrs: NoAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        return [np.array(x[self.index(inputs, x)], order="C")]

    def index(self, inputs: Sequence[np.ndarray], x: np.ndarray) -> tuple[slice, ...]:
        """The basic index that takes the slice out of x (it depends on x.shape and the other inputs)."""
        start, stop, step = (
            as_int_array("Slice", n, a) for n, a in zip(("start", "stop", "step"), inputs[1:4], strict=False)
        )
        if not len(start) == len(stop) == len(step):
            raise OpError("Slice: start, stop and step must have the same length")
        if 0 in step:
            raise OpError(f"Slice: step {step} contains zero")
        if len(inputs) > 4:
            axes = _axes(as_int_array("Slice", "axes", inputs[4]), len(start), x.ndim)
        else:
            if len(start) > x.ndim:
                raise OpError(f"Slice: {len(start)} sliced axes exceed the input rank {x.ndim}")
            axes = list(range(len(start)))
        index: list[slice] = [slice(None)] * x.ndim
        for k, ax in enumerate(axes or []):
            index[ax] = py_slice(x.shape[ax], start[k], stop[k], step[k])
        return tuple(index)

    def prepare(self, attrs: NoAttrs, consts: Sequence[np.ndarray | None]):  # type: ignore[no-untyped-def]
        """Constant start, stop, step (and axes): the index computed once per input shape."""
        return None if any(c is None for c in consts[1:]) else indexer(self.index)
