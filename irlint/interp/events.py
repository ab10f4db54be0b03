"""Step events: small values the executor yields; consumers only observe them.

They are values by contract, not frozen at run time: a frozen dataclass's constructor sets each
field through `object.__setattr__`, which made every event about 0.35 us (a sixth of the event
path on a loop of tiny tensors) dearer. Nothing in irlint assigns to an event's fields.

`frames` is the iteration stack: one (loop layer path, iteration) pair per enclosing TI/Loop, so an
event inside nested loops says exactly where it happened.

An If is shown as a body run once: BodyEntered, IterationStarted (iteration 0), the taken branch's
layers with the frame (If path, 0), IterationFinished, BodyLeft (1 iteration); these four carry
`branch` ("then"/"else", None for TI/Loop), and their params/results are keyed by the branch's
Parameter/Result ids (layer paths "<If path>/then_body/<id>").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from irlint.ir.model import Layer

Frames = tuple[tuple[str, int], ...]

# A batch's layout (the listener hook `batches`, irlint.interp.executor): per position of an iteration's
# record (its Parameters, then its Results), how that tensor's bytes follow from the others', so that a
# listener counts a batch's bytes exactly while reading only the tensors made anew in every iteration.
FRESH = -1  # a tensor made in every iteration (a Result computed by the body, a slice): read each one
FIXED = -2  # as many bytes in every iteration of one loop run (an invariant input, the current
#             iteration number, a Result that is a constant)
# r >= 0: a back edge: the tensor at position r (a Result) of the previous iteration's record, in
#         every record but a batch's first


@dataclass(slots=True, eq=False)
class LayerEvaluated:
    layer: Layer
    inputs: tuple[np.ndarray, ...]
    outputs: tuple[np.ndarray, ...]
    frames: Frames


@dataclass(slots=True, eq=False)
class BodyEntered:
    layer: Layer  # the TensorIterator / Loop / If
    frames: Frames
    branch: str | None = None  # an If's taken branch
    limit: int | None = None  # TI/Loop: at most this many iterations (slices, trip count); None: no bound


@dataclass(slots=True, eq=False)
class IterationStarted:
    layer: Layer
    iteration: int
    params: Mapping[int, np.ndarray]  # body Parameter id -> value for this iteration
    frames: Frames  # includes (layer.path, iteration)
    branch: str | None = None


@dataclass(slots=True, eq=False)
class IterationFinished:
    layer: Layer
    iteration: int
    results: Mapping[int, np.ndarray]  # body Result id -> value
    condition: bool | None  # Loop: the body condition; TI, If: None
    frames: Frames
    branch: str | None = None


@dataclass(slots=True, eq=False)
class BodyLeft:
    layer: Layer
    iterations: int
    outputs: Mapping[int, np.ndarray]  # output port id -> value
    frames: Frames
    branch: str | None = None


@dataclass(slots=True, eq=False)
class RunFinished:
    outputs: Mapping[str, np.ndarray]  # top-level Result name -> value


Event = LayerEvaluated | BodyEntered | IterationStarted | IterationFinished | BodyLeft | RunFinished
