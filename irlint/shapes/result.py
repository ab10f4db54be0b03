"""What shape inference knows after a pass over the model: per output port, per loop, per failure."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from irlint.controlflow import IterationBound, LoopPlan, SliceSpec
from irlint.controlflow.bound import UNBOUNDED
from irlint.diagnostics import Related
from irlint.ir.model import Layer, PortMapEntry
from irlint.ops.base import TensorInfo

UNKNOWN = TensorInfo(None, None)


@dataclass(frozen=True, slots=True)
class Poison:
    """A value derived from one already in error (a slice that cannot be taken, an op that rejects its
    inputs, two entries mapping one port, a trip count that is no integer): the rules that compare
    shapes report nothing of their own on it, only a consequence of the defect (`key`, an
    irlint.causes key) that the defect's finding carries as a note (irlint/engine/recovery.py)."""

    key: str
    cause: str  # what is wrong, for a note that names it
    origin: Any  # the entry or layer whose `loc` places the defect

    def note(self) -> Related:
        """The note a consequence carries when no finding of the defect absorbs it."""
        return Related(self.origin.loc, f"this follows from a defect here: {self.cause}")


@dataclass(frozen=True, slots=True)
class ShapeProblem:
    """An op rejected its inputs (OpError) or attributes; `internal` marks a crash of a shape function;
    `poison` says that an input was already poisoned (the problem follows from that defect)."""

    layer: Layer
    message: str
    port: int | None = None
    internal: bool = False
    poison: Poison | None = None


@dataclass
class EntrySlicing:
    """How one sliced/concatenated port_map entry resolved (or why it did not)."""

    entry: PortMapEntry
    outer: TensorInfo  # the TI/Loop port's tensor (input) or the body Result's tensor (output)
    axis: int | None = None  # normalised
    spec: SliceSpec | None = None
    error: str | None = None
    poison: Poison | None = None  # the tensor sliced derives from a defect (or two entries map its port)
    dim: int | None = None  # the static length of the axis the range is read over, when known


@dataclass
class LoopInfo:
    """The static view of one TensorIterator/Loop: iteration count and the slicing of its entries."""

    layer: Layer
    plan: LoopPlan
    bound: IterationBound = UNBOUNDED
    slicing: list[EntrySlicing] = field(default_factory=list)
    trip_count: TensorInfo = UNKNOWN
    condition: TensorInfo = UNKNOWN
    body_condition: TensorInfo = UNKNOWN
    params: dict[int, TensorInfo] = field(default_factory=dict)  # body Parameter id -> what it receives
    poisoned: dict[int, Poison] = field(default_factory=dict)  # body Parameter id -> what it derives from
    count_poison: Poison | None = None  # the iteration count derives from a defect
    # the trip count OpenVINO's core keeps: `Loop::validate_and_infer_types` (src/core/src/op/loop.cpp) sets
    # m_num_iterations whenever a pass finds the trip count constant and never resets it, so a nested Loop
    # keeps the count of the enclosing body's first shapes after a back edge makes them dynamic; here, the
    # last constant trip count any round of the enclosing fixed points found
    core_trip: int | None = None

    @property
    def iterations(self) -> int | None:
        """The exact iteration count, when known statically."""
        return self.bound.count

    @property
    def max_iterations(self) -> int | None:
        """An upper bound (a Loop's trip count or slice count) when the count is not known."""
        return self.bound.limit

    @property
    def iterations_source(self) -> str:
        """How the count or bound was derived, quoted in messages."""
        return self.bound.source


@dataclass
class ShapeResult:
    """Inferred tensors of every output port at every level (by layer), and each loop's view (by id path)."""

    outputs: dict[object, TensorInfo] = field(default_factory=dict)  # by `port_key`
    poisoned: dict[object, Poison] = field(default_factory=dict)  # by `port_key`: derived from a defect
    problems: list[ShapeProblem] = field(default_factory=list)
    loops: dict[str, LoopInfo] = field(default_factory=dict)
    # branch graphs that never run (an If with a constant condition), by id of the graph -> the If
    dead: dict[int, Layer] = field(default_factory=dict)
    _dead_prefixes: tuple[str, ...] | None = None

    def not_running(self, path: str | None) -> str | None:
        """For a layer path inside an If branch that never runs (at any depth), that branch's path
        ("3/else_body"); else None. OpenVINO infers the If from the branch a constant condition takes,
        and checks the other only with its own declarations."""
        if path is None or not self.dead:
            return None
        if self._dead_prefixes is None:
            self._dead_prefixes = tuple(
                f"{layer.path}/{b.body.kind}/" for layer in self.dead.values() for b in layer.branches
                if id(b.body) in self.dead)
        return next((p[:-1] for p in self._dead_prefixes if path.startswith(p)), None)

    def output(self, layer: Layer, port_id: int | None) -> TensorInfo:
        """What `layer` produces on output port `port_id` (UNKNOWN if nothing is known)."""
        if port_id is None:
            return UNKNOWN
        return self.outputs.get(port_key(layer, port_id), UNKNOWN)

    def poison(self, layer: Layer, port_id: int | None) -> Poison | None:
        """The defect that `layer`'s output port `port_id` derives from, if any."""
        if not self.poisoned or port_id is None:
            return None
        return self.poisoned.get(port_key(layer, port_id))

    def loop(self, layer: Layer) -> LoopInfo | None:
        return self.loops.get(layer.path)


def port_key(layer: Layer, port_id: int) -> object:
    """The key of an output port in `ShapeResult.outputs`: the layer itself for its first output
    port (most layers have one, and a key object per port would cost 5 MB at 100,000 layers), else
    (layer, port id). Layers are keys by identity: two layers with one id are two layers."""
    outs = layer.outputs
    return layer if outs and outs[0].id == port_id else (layer, port_id)
