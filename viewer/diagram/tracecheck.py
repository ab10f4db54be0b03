"""Is a saved trace one of this model, and does it hold the iteration asked for? (`render --trace`)

A trace's keys name body layers by id path (docs/trace-format.md), so a trace of another model
usually names layers that do not exist here, or existing ones whose recorded tensors contradict
the declared port shapes and types; either way the diagram would show wrong values, so it is refused.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from irlint.ir.model import Layer, Model
from irlint.layerpath import project_its


class TraceMismatch(ValueError):
    """The trace cannot annotate this model (the message says why)."""


def parse_iteration(text: str) -> tuple[int, ...]:
    """'3' -> (3,), '2.1' -> (2, 1): outer first, 0-based."""
    parts = str(text).strip().split(".")
    # ASCII digits only (`isdigit` admits '٣' and '²'), and no more than any count of iterations can have:
    # int() refuses 4,300 digits with an error of its own
    if not all(p.isascii() and p.isdigit() and len(p) <= 19 for p in parts):
        raise TraceMismatch(f"--iteration {text!r}: expected K or K.M... (0-based, outer loop first)")
    return tuple(int(p) for p in parts)


def split_key(key: str) -> tuple[str, tuple[int, ...], str] | None:
    base, sep, what = key.rpartition(":")
    if not sep:
        return None
    path, _, its = base.partition("@")
    try:
        return path, tuple(int(x) for x in its.split(".")) if its else (), what
    except ValueError:
        return None


def _port_of(layer: Layer, what: str):  # type: ignore[no-untyped-def]
    if what == "in":
        return layer.outputs[0] if layer.outputs else None  # a body Parameter: what its output carries
    if what == "out":
        return layer.inputs[0] if layer.inputs else None  # a body Result: what it receives
    if what.startswith("out") and what[3:].isdigit():
        return next((p for p in layer.outputs if p.id == int(what[3:])), None)
    return None


def _agrees(port, value: np.ndarray) -> bool:  # type: ignore[no-untyped-def]
    if port is None:
        return True
    if port.precision is not None and port.precision.dtype is not None and value.dtype != port.precision.dtype:
        return False
    if port.shape is None:
        return True
    if len(port.shape) != value.ndim:
        return False
    return all(d.value is None or d.value == n for d, n in zip(port.shape, value.shape))


def check_trace(model: Model, trace: Mapping[str, np.ndarray], iteration: tuple[int, ...]) -> None:
    """Raise TraceMismatch if the trace is not of `model` or does not hold `iteration`."""
    layers = {la.path: la for _g, la in model.layers()}
    loops: dict[tuple[int, ...], int] = {}
    for key, value in trace.items():
        parsed = split_key(key)
        if parsed is None:
            raise TraceMismatch(f"key {key!r} is not a trace key (docs/trace-format.md)")
        path, its, what = parsed
        layer = layers.get(path)
        if layer is None:
            raise TraceMismatch(f"it records layer {path!r}, which {model.path} does not have: "
                                "is it a trace of another model?")
        if not _agrees(_port_of(layer, what), np.asarray(value)):
            port = _port_of(layer, what)
            raise TraceMismatch(f"it records {list(np.shape(value))} {np.asarray(value).dtype} for {key!r}, but "
                                f"{layer.describe()} declares {port.precision.name if port.precision else '?'}"
                                f"{[str(d) for d in port.shape] if port.shape is not None else '?'}: "
                                "is it a trace of another model?")
        its = project_its(its, path)  # --iteration counts loops; an If's frame (0 in keys) is no loop
        for n in range(1, len(its) + 1):
            prefix = its[:n - 1]
            loops[prefix] = max(loops.get(prefix, -1), its[n - 1])
    if not loops:
        raise TraceMismatch("it records no loop iteration (run with --trace on a model with a TensorIterator/Loop)")
    for n in range(1, len(iteration) + 1):
        prefix, k = iteration[:n - 1], iteration[n - 1]
        if prefix not in loops:
            raise TraceMismatch(f"iteration {'.'.join(map(str, iteration))}: the trace has no loop nested "
                                f"{n} deep{' in iteration ' + '.'.join(map(str, prefix)) if prefix else ''}")
        if k > loops[prefix]:
            where = f" in iteration {'.'.join(map(str, prefix))}" if prefix else ""
            raise TraceMismatch(f"iteration {'.'.join(map(str, iteration))} is out of range: the trace has "
                                f"iterations 0..{loops[prefix]}{where}")
