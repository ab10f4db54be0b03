"""Step events: small frozen values the executor yields; consumers only observe them.

`frames` is the iteration stack: one (loop layer path, iteration) pair per enclosing TI/Loop, so an
event inside nested loops says exactly where it happened.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from irlint.ir.model import Layer

Frames = tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True, eq=False)
class LayerEvaluated:
    layer: Layer
    inputs: tuple[np.ndarray, ...]
    outputs: tuple[np.ndarray, ...]
    frames: Frames


@dataclass(frozen=True, slots=True, eq=False)
class BodyEntered:
    layer: Layer  # the TensorIterator / Loop
    frames: Frames


@dataclass(frozen=True, slots=True, eq=False)
class IterationStarted:
    layer: Layer
    iteration: int
    params: Mapping[int, np.ndarray]  # body Parameter id -> value for this iteration
    frames: Frames  # includes (layer.path, iteration)


@dataclass(frozen=True, slots=True, eq=False)
class IterationFinished:
    layer: Layer
    iteration: int
    results: Mapping[int, np.ndarray]  # body Result id -> value
    condition: bool | None  # Loop: the body condition; TI: None
    frames: Frames


@dataclass(frozen=True, slots=True, eq=False)
class BodyLeft:
    layer: Layer
    iterations: int
    outputs: Mapping[int, np.ndarray]  # output port id -> value
    frames: Frames


@dataclass(frozen=True, slots=True, eq=False)
class RunFinished:
    outputs: Mapping[str, np.ndarray]  # top-level Result name -> value


Event = LayerEvaluated | BodyEntered | IterationStarted | IterationFinished | BodyLeft | RunFinished
