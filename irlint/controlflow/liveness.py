"""Which values a graph really reads, the way OpenVINO counts it before it runs a model.

OpenVINO removes the body Parameters of TensorIterator, Loop and If that nothing reads, then the
inputs of the op that fed only them. An edge into such an input reads nothing: a body Parameter whose
only readers are inputs of that kind is unread too (measured on the CPU plugin: a TensorIterator whose
sliced Parameter feeds only an If input neither branch reads runs its body once; a Loop's sliced input
read that way does not count iterations, and the trip count runs).
"""

from __future__ import annotations

import weakref

from irlint.controlflow.plan import CONTROL_FLOW, EntryKind, loop_plan
from irlint.ir.model import Graph, Layer

_DEAD: weakref.WeakKeyDictionary[Layer, frozenset[int]] = weakref.WeakKeyDictionary()
_READ: weakref.WeakKeyDictionary[Graph, frozenset[int | None]] = weakref.WeakKeyDictionary()
_NEVER_DEAD = (EntryKind.CURRENT_ITERATION, EntryKind.IGNORED)
_NESTING = frozenset({*CONTROL_FLOW, "If"})  # the only types `dead_inputs` can find inputs of


def read_layers(graph: Graph) -> frozenset[int | None]:
    """The ids of the layers of `graph` whose output some edge carries to an input that reads it (once per
    graph: the shape inference, the memory analysis and several rules ask of the same body)."""
    got = _READ.get(graph)
    if got is None:
        got = _READ[graph] = _read_layers(graph)
    return got


def _read_layers(graph: Graph) -> frozenset[int | None]:
    by_id = {la.id: la for la in graph.layers}
    read: set[int | None] = set()
    for e in graph.edges:
        to = by_id.get(e.to_layer)
        if to is None or e.to_port is None or to.type not in _NESTING or e.to_port not in dead_inputs(to):
            read.add(e.from_layer)
    return frozenset(read)


def dead_inputs(layer: Layer) -> frozenset[int]:
    """The input ports of a TensorIterator, Loop or If that its port maps give only to body Parameters
    nothing reads (OpenVINO removes them); empty for other ops. A port no entry maps is not counted
    here: the port-map rules report it."""
    if layer.type not in _NESTING:
        return frozenset()
    got = _DEAD.get(layer)
    if got is None:
        got = _if_dead(layer) if layer.type == "If" else _loop_dead(layer)
        _DEAD[layer] = got
    return got


def _if_dead(layer: Layer) -> frozenset[int]:
    targets: dict[int, bool] = {}  # external port -> some branch reads it
    for branch in layer.branches:
        read = read_layers(branch.body)
        for e in branch.port_map:
            if e.direction == "input" and e.external_port_id is not None and e.external_port_id != 0:
                targets[e.external_port_id] = targets.get(e.external_port_id, False) or e.internal_layer_id in read
    return frozenset(p for p, live in targets.items() if not live)


def _loop_dead(layer: Layer) -> frozenset[int]:
    if layer.body is None:
        return frozenset()
    plan = loop_plan(layer)
    read = read_layers(layer.body)
    targets: dict[int, bool] = {}
    for pe in plan.entries:
        if pe.entry.direction != "input" or pe.port is None or pe.kind in _NEVER_DEAD:
            continue
        targets[pe.port] = targets.get(pe.port, False) or pe.body_layer in read
    return frozenset(p for p, live in targets.items() if not live)
