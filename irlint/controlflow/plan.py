"""One TensorIterator/Loop layer's port_map and back_edges, classified once.

The classification (docs/semantics.md): an input entry with `axis` is sliced; one without `axis`
whose body Parameter a back edge targets is merged (its outer value is the first iteration's, the
back edge gives the next); any other is invariant. An output entry with `axis` is concatenated
over the iterations; one without gives the last iteration's value. A Loop adds two special entries
(`purpose="current_iteration"` on an input, `purpose="execution_condition"` on an output) and two
unmapped input ports (0: trip count, 1: execution condition). Entries that are none of these
(no external port, an unknown purpose) are `IGNORED`: the PM rules report them, nobody runs them.
A data output's `port` is the one OpenVINO gives it (`irlint.controlflow.outputs`): its id, or where
an id names no output port, the port at its rank among the ids.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from enum import Enum

from irlint.controlflow.outputs import output_ports
from irlint.ir.model import CONTROL_FLOW, BackEdge, Layer, PortMapEntry

__all__ = ["CONTROL_FLOW", "EntryKind", "LoopPlan", "PlanEntry", "loop_plan"]
TRIP_COUNT_PORT = 0  # Loop input ports without port_map entries
CONDITION_PORT = 1


class EntryKind(Enum):
    SLICED_INPUT = "sliced input"
    MERGED_INPUT = "merged input"
    INVARIANT_INPUT = "invariant input"
    CURRENT_ITERATION = "current iteration"
    CONCAT_OUTPUT = "concatenated output"
    LAST_VALUE_OUTPUT = "last-value output"
    CONDITION_OUTPUT = "execution condition"
    IGNORED = "ignored"


@dataclass(frozen=True, slots=True)
class PlanEntry:
    """A port_map entry and what it is; `back_edge` is the edge into a merged input's Parameter."""

    entry: PortMapEntry
    kind: EntryKind
    back_edge: BackEdge | None = None
    # an output entry: the output port it gives, by the order of the ids where one names no output port
    # (OpenVINO's reading, `irlint.controlflow.outputs`); an input entry: its `external_port_id`
    port: int | None = None

    @property
    def body_layer(self) -> int | None:
        return self.entry.internal_layer_id

    @property
    def reversed(self) -> bool:
        """A negative stride: slices taken, or parts concatenated, from the last iteration's end."""
        return self.entry.stride is not None and self.entry.stride < 0


@dataclass(frozen=True, slots=True)
class LoopPlan:
    """The classified entries of one TensorIterator/Loop, in file order, and its back edges."""

    layer: Layer
    is_loop: bool
    entries: tuple[PlanEntry, ...]
    back: dict[int | None, int | None]  # body Parameter id -> body Result id (the last edge wins)

    def of(self, *kinds: EntryKind) -> list[PlanEntry]:
        return [e for e in self.entries if e.kind in kinds]

    @property
    def sliced_inputs(self) -> list[PlanEntry]:
        return self.of(EntryKind.SLICED_INPUT)

    @property
    def state_inputs(self) -> list[PlanEntry]:
        """Merged and invariant inputs: the values a body Parameter holds before the first iteration."""
        return self.of(EntryKind.MERGED_INPUT, EntryKind.INVARIANT_INPUT)

    @property
    def data_outputs(self) -> list[PlanEntry]:
        """Concatenated and last-value outputs, in file order."""
        return self.of(EntryKind.CONCAT_OUTPUT, EntryKind.LAST_VALUE_OUTPUT)

    @property
    def current_iteration(self) -> PlanEntry | None:
        found = self.of(EntryKind.CURRENT_ITERATION)
        return found[0] if found else None

    @property
    def condition(self) -> PlanEntry | None:
        found = self.of(EntryKind.CONDITION_OUTPUT)
        return found[0] if found else None

    @property
    def unsliced_count(self) -> int:
        """The iterations of a TensorIterator without a sliced input: OpenVINO's core takes them from
        its first concatenated output's raw attributes, ``|end - start| // part_size`` (defaults 0, -1,
        1: once), and its CPU plugin runs as many when that range fits the output; no concatenated
        output: once."""
        for e in self.of(EntryKind.CONCAT_OUTPUT):
            start = 0 if e.entry.start is None else e.entry.start
            end = -1 if e.entry.end is None else e.entry.end
            part = 1 if e.entry.part_size is None else e.entry.part_size
            return abs(end - start) // part if part > 0 else 1
        return 1

    def input_for_port(self, port: int | None) -> list[PlanEntry]:
        """The data entries an outer input port feeds (normally one)."""
        return [e for e in self.entries if e.entry.direction == "input" and e.port == port
                and e.kind is not EntryKind.IGNORED]

    def output_for_port(self, port: int | None) -> PlanEntry | None:
        """The entry that produces an outer output port (the first, if several claim it)."""
        return next((e for e in self.data_outputs if e.port == port), None)

    def fed_back_from(self, result_id: int | None) -> int | None:
        """The body Parameter that a back edge from this Result feeds, if any."""
        return next((p for p, r in self.back.items() if r == result_id), None)


def _given(outs: dict[PortMapEntry, int | None], e: PortMapEntry) -> int | None:
    """The output port a data output entry gives; its own id where the order gives none (a repeated id)."""
    port = outs.get(e)
    return e.external_port_id if port is None else port


def _classify(e: PortMapEntry, back: dict[int | None, BackEdge], outs: dict[PortMapEntry, int | None]) -> PlanEntry:
    port = e.external_port_id
    if e.direction == "input":
        if e.purpose == "current_iteration":
            return PlanEntry(e, EntryKind.CURRENT_ITERATION, port=port)
        if e.purpose is not None or port is None or port < 0 or e.internal_layer_id is None:
            return PlanEntry(e, EntryKind.IGNORED, port=port)
        if e.sliced:
            return PlanEntry(e, EntryKind.SLICED_INPUT, port=port)
        edge = back.get(e.internal_layer_id)
        if edge is not None:
            return PlanEntry(e, EntryKind.MERGED_INPUT, edge, port=port)
        return PlanEntry(e, EntryKind.INVARIANT_INPUT, port=port)
    if e.purpose == "execution_condition":
        return PlanEntry(e, EntryKind.CONDITION_OUTPUT, port=port)
    if e.purpose is not None or port is None or port < 0:
        return PlanEntry(e, EntryKind.IGNORED, port=port)
    return PlanEntry(e, EntryKind.CONCAT_OUTPUT if e.sliced else EntryKind.LAST_VALUE_OUTPUT, port=_given(outs, e))


_PLANS: weakref.WeakKeyDictionary[Layer, LoopPlan] = weakref.WeakKeyDictionary()


def loop_plan(layer: Layer) -> LoopPlan:
    """The plan of a TensorIterator/Loop layer (built once per layer object, freed with it)."""
    plan = _PLANS.get(layer)
    if plan is None:
        edges = {be.to_layer: be for be in layer.back_edges}
        is_loop = layer.type == "Loop"
        outs = output_ports(layer, layer.port_map)
        entries = tuple(_classify(e, edges, outs) for e in layer.port_map)
        plan = LoopPlan(layer, is_loop, entries, {p: be.from_layer for p, be in edges.items()})
        _PLANS[layer] = plan
    return plan
