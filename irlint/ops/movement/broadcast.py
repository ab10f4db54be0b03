"""Broadcast-1/3: replicate data to a target shape (numpy, explicit with axes_mapping, bidirectional-3)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.axes import as_int_array, int_values, vector_length
from irlint.ops.movement.dims import broadcast_shapes, dynamic_shape
from irlint.ops.movement.folding import fold
from irlint.ops.registry import register
from irlint.types import Dim, Shape, format_shape, static_shape


@dataclass(frozen=True)
class BroadcastAttrs:
    mode: str = "numpy"


def _can_be(d: Dim, n: int) -> bool:
    return d.lo <= n and (d.hi is None or n <= d.hi)


def _check_numpy(data: Shape, target: Shape) -> None:
    if len(data) > len(target):
        raise OpError(
            f"Broadcast: target shape {format_shape(target)} has a smaller rank than the data "
            f"{format_shape(data)} (numpy mode)"
        )
    for d, t in zip(data, target[len(target) - len(data) :], strict=False):
        if t.is_static and not (_can_be(d, 1) or _can_be(d, t.lo)):
            raise OpError(
                f"Broadcast: data {format_shape(data)} cannot be broadcast to {format_shape(target)} "
                f"(numpy mode): dim {d} must be 1 or {t}"
            )


def _explicit_shape(data: Shape, mapping: list[int]) -> list[int] | None:
    """Positions of data dims in the target, validated (sorted, in range, one per data dim)."""
    if len(mapping) != len(data):
        raise OpError(f"Broadcast: axes_mapping {mapping} must have one entry per data dim ({len(data)})")
    if mapping != sorted(mapping) or len(set(mapping)) != len(mapping):
        raise OpError(f"Broadcast: axes_mapping {mapping} must be strictly increasing (no transposes)")
    return mapping


def _check_explicit(data: Shape, target: Shape, mapping: list[int]) -> None:
    _explicit_shape(data, mapping)
    for d, m in zip(data, mapping, strict=False):
        if not 0 <= m < len(target):
            raise OpError(f"Broadcast: axes_mapping value {m} is out of range for target rank {len(target)}")
        t = target[m]
        if t.is_static and d.is_static and d.lo not in (1, t.lo):
            raise OpError(
                f"Broadcast: data dim {d} cannot be broadcast to target dim {t} at axis {m} (explicit mode)"
            )


class _Broadcast(Op):
    types = ("Broadcast",)
    Attrs = BroadcastAttrs
    arity = (2, 3)
    modes: ClassVar[tuple[str, ...]] = ()

    def _mode(self, attrs: BroadcastAttrs) -> str:
        # Broadcast-1 spells explicit mode "none" in IR.
        mode = {"none": "explicit"}.get(attrs.mode.lower(), attrs.mode.lower())
        if mode not in self.modes:
            raise OpError(f"Broadcast: mode {attrs.mode!r} is not one of {', '.join(self.modes)}")
        return mode

    def infer(self, attrs: BroadcastAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        mode = self._mode(attrs)
        data, target_in = inputs[0], inputs[1]
        vector_length("Broadcast", "target_shape", target_in, scalar=False)  # OpenVINO: "shape rank must be 1"
        if mode == "explicit" and len(inputs) < 3:
            raise OpError("Broadcast: explicit mode needs the axes_mapping input")
        vals = int_values(target_in)
        if vals is not None and any(v < 0 for v in vals):
            raise OpError(f"Broadcast: target shape {vals} has negative dims")
        if vals is None:
            n = vector_length("Broadcast", "target_shape", target_in)
            if mode == "bidirectional" and n is not None:
                return [TensorInfo(data.etype, broadcast_shapes("Broadcast", data.shape, dynamic_shape(n)))]
            return [TensorInfo(data.etype, dynamic_shape(n) if mode != "bidirectional" else None)]
        target = static_shape(vals)
        if data.shape is None:
            return [TensorInfo(data.etype, target if mode != "bidirectional" else None)]
        out: Shape | None
        if mode == "numpy":
            _check_numpy(data.shape, target)
            out = target
        elif mode == "explicit":
            mapping = int_values(inputs[2])
            if mapping is not None:
                _check_explicit(data.shape, target, mapping)
            out = target
        else:
            out = broadcast_shapes("Broadcast", data.shape, target)
        return fold(self, attrs, inputs, [TensorInfo(data.etype, out)])

    def compute(self, attrs: BroadcastAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        mode = self._mode(attrs)
        x = np.asarray(inputs[0])
        target = as_int_array("Broadcast", "target_shape", inputs[1])
        if any(v < 0 for v in target):
            raise OpError(f"Broadcast: target shape {target} has negative dims")
        if mode == "numpy":
            _check_numpy(static_shape(x.shape), static_shape(target))
            return [np.array(np.broadcast_to(x, target), order="C")]
        if mode == "explicit":
            if len(inputs) < 3:
                raise OpError("Broadcast: explicit mode needs the axes_mapping input")
            mapping = as_int_array("Broadcast", "axes_mapping", inputs[2])
            _check_explicit(static_shape(x.shape), static_shape(target), mapping)
            placed = [1] * len(target)
            for n, m in zip(x.shape, mapping, strict=False):
                placed[m] = n
            return [np.array(np.broadcast_to(x.reshape(placed), target), order="C")]
        out = broadcast_shapes("Broadcast", static_shape(x.shape), static_shape(target))
        return [np.array(np.broadcast_to(x, [d.lo for d in out or ()]), order="C")]

    def prepare(self, attrs: BroadcastAttrs, consts: Sequence[np.ndarray | None]):  # type: ignore[no-untyped-def]
        """Constant target (and axes mapping): `compute` checks each input shape once and its result
        gives the output shape; later calls fill a fresh C-ordered array of that shape with x (in
        explicit mode x reshaped to its placed dims first): the values `compute`'s copy holds."""
        if any(c is None for c in consts[1:]):
            return None
        mode = self._mode(attrs)
        plans: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}

        def fast(args: Sequence[np.ndarray]) -> list[np.ndarray]:
            x = args[0]
            plan = plans.get(x.shape)
            if plan is None:
                out = self.compute(attrs, args)[0]
                placed = x.shape
                if mode == "explicit":
                    dims = [1] * out.ndim
                    for n, m in zip(x.shape, as_int_array("Broadcast", "axes_mapping", args[2]), strict=False):
                        dims[m] = n
                    placed = tuple(dims)
                plans[x.shape] = (placed, out.shape)
                return [out]
            placed, shape = plan
            out = np.empty(shape, x.dtype)
            np.copyto(out, x.reshape(placed))
            return [out]

        return fast


@register
class Broadcast3(_Broadcast):
    versions = ("opset3",)
    modes = ("numpy", "explicit", "bidirectional")


@register
class Broadcast1(_Broadcast):
    versions = ("opset1",)
    modes = ("numpy", "explicit")
