"""Buffers a TensorFlow-style loop carries on a back edge and writes with a Scatter at the loop counter.

TensorFlow writes a `while` loop's per-step outputs into a TensorList (TensorArray) that travels as a
loop variable; OpenVINO's front end turns it into a body Parameter fed back over a back edge, written
each iteration with ScatterUpdate at an index taken from the loop counter. The Loop itself has no
sliced output for it, so nothing in the port map says "one slice per iteration": the diagram says it
instead. This module finds such buffers from the structure of the body alone (no names):

- a *counter* is the body Parameter with the `current_iteration` purpose, or a Parameter carried on a
  back edge whose Result is that Parameter plus the constant 1 (TensorFlow's `loop_counter` and
  `time`), starting from a constant outer value where one is given;
- a *carried buffer* is a back-edge Parameter -> Result pair where the Result's value is a
  ScatterUpdate-3 / ScatterNDUpdate-3 / ScatterElementsUpdate-3 whose data input comes from the
  Parameter; its index is the counter (a per-iteration buffer: iteration k writes slot k) or a
  constant (one slot every iteration overwrites, as Keras writes when it returns the last step only).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from irlint.controlflow import EntryKind, loop_plan
from irlint.ir.model import Graph, Layer, Model

SCATTERS = {"ScatterUpdate": 1, "ScatterNDUpdate": 1, "ScatterElementsUpdate": 1}  # type -> its indices port
# ops that pass a value on unchanged in what matters here (which slot, which buffer): followed through port 0
PASS_THROUGH = {"Identity", "Convert", "Reshape", "Squeeze", "Unsqueeze", "Broadcast"}
MAX_HOPS = 16


@dataclass(frozen=True)
class CarriedBuffer:
    """A back-edge-carried value written with a Scatter each iteration."""

    parameter: int  # body Parameter id that holds the buffer
    result: int  # body Result id whose back edge carries it
    writer: int  # the Scatter layer's id
    axis: int | None  # the axis written (None: not a constant)
    index: str  # "counter", "counter + K", or the constant index written ("0")
    per_iteration: bool  # the index follows the counter: iteration k writes its own slot

    def kind(self) -> str:
        return "per-iteration buffer" if self.per_iteration else "one-slot buffer"

    def describe(self) -> str:
        axis = "?" if self.axis is None else str(self.axis)
        if self.per_iteration:
            return f"per-iteration buffer [axis {axis}, index = {self.index}]"
        return f"one-slot buffer [axis {axis}, index {self.index}]: every iteration overwrites it"


class _Wiring:
    """One graph's edges by (to_layer, to_port): each hop of a walk is a lookup, not a scan."""

    def __init__(self, graph: Graph) -> None:
        self.graph = graph
        self.into = {(e.to_layer, e.to_port): e for e in reversed(graph.edges)}  # the first edge wins

    def producer(self, layer_id: int | None, port: int) -> tuple[Layer, int | None] | None:
        """The layer (and its output port) feeding input `port` of `layer_id`."""
        edge = self.into.get((layer_id, port))
        src = self.graph.layer(edge.from_layer) if edge is not None else None
        return (src, edge.from_port) if src is not None and edge is not None else None


def _input_ports(layer: Layer) -> list[int]:
    return sorted(p.id for p in layer.inputs if p.id is not None)


def _source(graph: _Wiring, layer: Layer, port_index: int = 0) -> Layer | None:
    """Walk from input number `port_index` of `layer` through pass-through ops to the first other layer."""
    ports = _input_ports(layer)
    if port_index >= len(ports):
        return None
    found = graph.producer(layer.id, ports[port_index])
    hops = 0
    while found is not None and found[0].type in PASS_THROUGH and hops < MAX_HOPS:
        nxt = _input_ports(found[0])
        found = graph.producer(found[0].id, nxt[0]) if nxt else None
        hops += 1
    return found[0] if found is not None else None


def const_array(model: Model, layer: Layer) -> np.ndarray | None:
    """A Const's value, or None when it cannot be read (no .bin, bad attributes: the rules say why)."""
    if layer.type != "Const" or not layer.outputs:
        return None
    port = layer.outputs[0]
    if port.shape is None or port.precision is None:
        return None
    dims = tuple(d.value for d in port.shape)
    if any(d is None for d in dims) or int(np.prod(dims, dtype=np.int64)) > 64:
        return None
    try:
        return np.asarray(model.weights.array(int(layer.data["offset"]), int(layer.data["size"]),
                                              port.precision, dims))  # type: ignore[arg-type]
    except Exception:
        return None


def _scalar(model: Model, layer: Layer | None) -> int | None:
    if layer is None:
        return None
    v = const_array(model, layer)
    if v is None or v.size != 1 or v.dtype.kind not in "iub":
        return None
    return int(v.reshape(-1)[0])


def _outer_start(model: Model, graph: _Wiring | None, loop: Layer, port: int | None) -> int | None:
    """The constant an outer input port of the loop starts from, if it is one."""
    if graph is None or port is None:
        return None
    found = graph.producer(loop.id, port)
    return _scalar(model, found[0]) if found is not None else None


def counters(model: Model, loop: Layer, outer: Graph | None = None) -> dict[int, int | None]:
    """Body Parameter id -> the value it holds in iteration 0 (None: not a constant) for every counter:
    the `current_iteration` Parameter (0) and each back-edge Parameter whose Result is it plus 1."""
    assert loop.body is not None
    body, around = _Wiring(loop.body), (_Wiring(outer) if outer is not None else None)
    plan = loop_plan(loop)
    found: dict[int, int | None] = {}
    current = plan.current_iteration
    if current is not None and current.body_layer is not None:
        found[current.body_layer] = 0
    for pe in plan.of(EntryKind.MERGED_INPUT):
        par, res_id = pe.body_layer, plan.back.get(pe.body_layer)
        res = body.graph.layer(res_id) if res_id is not None else None
        if par is None or res is None:
            continue
        add = _source(body, res)
        if add is None or add.type != "Add":
            continue
        ins = [_source(body, add, i) for i in range(2)]
        if any(la is not None and la.id == par and la.type == "Parameter" for la in ins) and \
                any(_scalar(model, la) == 1 for la in ins):
            found[par] = _outer_start(model, around, loop, pe.port)
    return found


def _index_text(model: Model, index: Layer | None, counts: dict[int, int | None]) -> tuple[str, bool]:
    """How the Scatter's index reads: ("counter", True), ("counter + 2", True), ("0", False), or ("?", False)."""
    if index is None:
        return "?", False
    if index.type == "Parameter" and index.id in counts:
        start = counts[index.id]
        return ("counter" if start in (0, None) else f"counter + {start}"), True
    value = const_array(model, index)
    if value is not None and value.dtype.kind in "iu":
        flat = value.reshape(-1)
        return (str(int(flat[0])) if flat.size == 1 else str(flat.tolist())), False
    return "?", False


def carried_buffers(model: Model, loop: Layer, outer: Graph | None = None) -> list[CarriedBuffer]:
    """The buffers `loop` (a TensorIterator or Loop) carries on back edges and writes with a Scatter."""
    if loop.body is None:
        return []
    body = _Wiring(loop.body)
    counts = counters(model, loop, outer)
    out: list[CarriedBuffer] = []
    for be in loop.back_edges:
        par, res = body.graph.layer(be.to_layer), body.graph.layer(be.from_layer)
        if par is None or res is None or par.type != "Parameter":
            continue
        writer = _source(body, res)
        if writer is None or writer.type not in SCATTERS:
            continue
        data = _source(body, writer, 0)
        if data is None or data.id != par.id:
            continue
        index = _source(body, writer, SCATTERS[writer.type])
        text, per_iteration = _index_text(model, index, counts)
        axis: int | None = 0 if writer.type == "ScatterNDUpdate" else None
        if writer.type != "ScatterNDUpdate":
            axis = _scalar(model, _source(body, writer, 3))
        out.append(CarriedBuffer(par.id, res.id, writer.id, axis, text, per_iteration))  # type: ignore[arg-type]
    return out
