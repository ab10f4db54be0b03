"""What a TensorIterator/Loop body computes only for outputs nothing outside reads.

OpenVINO's CPU plugin removes such outputs with their body Results, then the body Parameters that
became unused, in nested If branches too (LP714 and PM410 warn where that goes wrong); this module
finds those Parameters, and the outputs that are read but lose their body Result with an unread output
giving it too (PM415).
"""

from __future__ import annotations

from dataclasses import dataclass

from irlint.controlflow import PlanEntry, loop_plan
from irlint.controlflow.liveness import dead_inputs
from irlint.controlflow.outputs import output_ports
from irlint.engine.context import Context
from irlint.ir.model import Branch, Graph, Layer


def unread_outputs(ctx: Context, graph: Graph, layer: Layer) -> list[int]:
    """The output ports of `layer` (data outputs of its port_map) that no edge leaves."""
    read = _read_ports(ctx, graph, layer)
    return sorted(p for pe in loop_plan(layer).data_outputs if (p := pe.port) is not None and p not in read)


def _read_ports(ctx: Context, graph: Graph, layer: Layer) -> set[int | None]:
    """The output ports of `layer` some edge of `graph` leaves. For the TensorIterators, Loops and Ifs of a
    level one pass over its edges finds them all: the index by producer is not built for a large level."""
    def compute() -> dict[int | None, set[int | None]]:
        ids = {la.id for la in graph.layers if la.type in _NESTING}
        out: dict[int | None, set[int | None]] = {}
        for e in graph.edges if ids else ():
            if e.from_layer in ids:
                out.setdefault(e.from_layer, set()).add(e.from_port)
        return out

    if layer.type not in _NESTING:
        idx = ctx.index(graph)
        return {p.id for p in layer.outputs if idx.edges_out(layer.id, p.id)}
    return ctx.memo("nesting-read-ports", graph, compute).get(layer.id, set())


def read_only_for_unread(ctx: Context, graph: Graph, layer: Layer) -> set[int | None]:
    """Body Parameters read by the body whose every reader leads only to Results of unread outputs (a
    Result that is the body condition, feeds a back edge, gives a read output or no output at all keeps
    what it reads), or into an input of a nested If/TensorIterator/Loop that OpenVINO removes there
    (`dropped_inputs`)."""
    body = layer.body
    if body is None:
        return set()
    dead = _unread_results(ctx, graph, layer)
    if not dead and not _nests(body):
        return set()
    live = _live(ctx, body, dead)
    idx = ctx.index(body)
    return {p.id for p in body.parameters() if p.id not in live and idx.users(p)}


def dropped_inputs(ctx: Context, graph: Graph, layer: Layer) -> set[int | None]:
    """The input ports of `layer` (an If, TensorIterator or Loop in `graph`) that OpenVINO removes:
    those its bodies do not read (`dead_inputs`), and those whose body Parameters are read only on the
    way to Results of outputs nothing in `graph` reads (RemoveMultiSubGraphOpDanglingParamsResults
    removes the outputs, their Results, then the Parameters unused in every body); empty for other ops."""
    dropped: set[int | None] = set(dead_inputs(layer))
    if layer.type in ("Loop", "TensorIterator") and layer.body is not None:
        gone = read_only_for_unread(ctx, graph, layer)
        dropped |= {pe.port for pe in loop_plan(layer).entries
                    if pe.entry.direction == "input" and pe.body_layer in gone}
    elif layer.type == "If" and layer.branches:
        dropped |= _if_dropped(ctx, graph, layer)
    return dropped


def _if_dropped(ctx: Context, graph: Graph, layer: Layer) -> set[int | None]:
    """The data input ports of an If whose Parameter, in every branch that maps it, is read only for
    outputs of the If nothing in `graph` reads."""
    read = _read_ports(ctx, graph, layer)
    given = {b.name: output_ports(layer, b.port_map) for b in layer.branches}  # as OpenVINO maps them
    outs = {p for ports in given.values() for p in ports.values()}
    unread = {p for p in outs if p is not None and p not in read}
    if not unread and not any(_nests(b.body) for b in layer.branches):
        return set()
    alive: dict[int, bool] = {}
    for branch in layer.branches:
        ports = given[branch.name]
        dead = {e.internal_layer_id for e, p in ports.items() if p in unread}
        dead -= {e.internal_layer_id for e, p in ports.items() if p not in unread}
        live = _live(ctx, branch.body, dead)
        for e in branch.port_map:
            if e.direction == "input" and e.external_port_id is not None and e.external_port_id != 0:
                port = e.external_port_id
                alive[port] = alive.get(port, False) or e.internal_layer_id in live
    return {p for p, on in alive.items() if not on}


_NESTING = frozenset({"Loop", "TensorIterator", "If"})


def _nests(body: Graph) -> bool:
    """True when `body` holds a layer with bodies of its own, whose removals can cascade out."""
    return any(la.type in _NESTING for la in body.layers)


def _live(ctx: Context, body: Graph, dead: set[int | None]) -> set[int | None]:
    """The layers of `body` some Result other than the `dead` ones reads, through inputs OpenVINO keeps."""
    idx = ctx.index(body)
    live: set[int | None] = set()
    todo = [r.id for r in body.results() if r.id not in dead]
    while todo:
        lid = todo.pop()
        if lid in live:
            continue
        live.add(lid)
        feeds = idx.edges_into_layer(lid)
        if not feeds:
            continue
        inner = body.layer(lid)
        if inner is None or inner.type not in _NESTING:  # only these drop inputs (`dropped_inputs`)
            todo += [e.from_layer for e in feeds]
            continue
        dropped = dropped_inputs(ctx, body, inner)
        todo += [e.from_layer for e in feeds if e.to_port not in dropped]
    return live


@dataclass(frozen=True, slots=True)
class LostResult:
    """A read output whose body Result OpenVINO removes with an unread output giving the same Result:
    the output then names the next Result OpenVINO keeps (`instead`), or none."""

    kept: PlanEntry  # the read output
    unread: PlanEntry  # the unread output giving the same Result
    result: Layer  # the body Result both give
    instead: Layer | None  # the Result the read output gives after the removal; None: past the last one


def lost_results(ctx: Context, graph: Graph, layer: Layer) -> list[LostResult]:
    """The read outputs that lose their body Result when OpenVINO removes the unread outputs.

    OpenVINO (its RemoveMultiSubGraphOpDanglingParamsResults pass, before the CPU plugin builds the
    layer) removes each output nothing reads and the body Result it gives, unless that Result is the
    execution condition or feeds a back edge, and renumbers the other outputs' Result indices; an
    output giving a removed Result keeps its index, which now names the next Result kept, in the
    body's document order, or none."""
    body = layer.body
    if body is None:
        return []
    plan = loop_plan(layer)
    unread = set(unread_outputs(ctx, graph, layer))
    kept_ids = set(plan.back.values())
    if plan.condition is not None:
        kept_ids.add(plan.condition.body_layer)
    gone = {pe.body_layer: pe for pe in plan.data_outputs if pe.port in unread and pe.body_layer not in kept_ids}
    if not gone:
        return []
    results = body.results()
    found = []
    for pe in plan.data_outputs:
        if pe.port in unread or pe.body_layer not in gone:
            continue
        at = next((i for i, r in enumerate(results) if r.id == pe.body_layer), None)
        if at is None:  # no body Result (PM404, PM405)
            continue
        instead = next((r for r in results[at + 1:] if r.id not in gone), None)
        found.append(LostResult(pe, gone[pe.body_layer], results[at], instead))
    return found


def kept_layers(ctx: Context) -> frozenset[int]:
    """id() of every layer, at any depth, that OpenVINO keeps: a layer is removed when no Result of its
    graph reads it, a body Result is removed with the outputs nothing reads that give it (as
    `read_only_for_unread` says), and nothing in a removed layer's bodies is kept. A graph holding a sink
    (Assign) is kept whole: a sink keeps what it reads without a Result."""
    def compute() -> frozenset[int]:
        keep: set[int] = set()

        def walk(graph: Graph, dead: set[int | None]) -> None:
            sinks = any(la.type == "Assign" for la in graph.layers)
            live = {la.id for la in graph.layers} if sinks else _live(ctx, graph, dead)
            for la in graph.layers:
                if la.id not in live:
                    continue
                keep.add(id(la))
                if la.type in ("Loop", "TensorIterator") and la.body is not None:
                    walk(la.body, _unread_results(ctx, graph, la))
                for branch in la.branches:
                    walk(branch.body, _unread_branch_results(ctx, graph, la, branch))

        walk(ctx.model.graph, set())
        return frozenset(keep)

    return ctx.memo("kept_layers", ctx.model.graph, compute)


def _unread_results(ctx: Context, graph: Graph, layer: Layer) -> set[int | None]:
    """The body Results OpenVINO removes with the outputs of `layer` nothing reads: those only such
    outputs give, unless the Result is the body condition or feeds a back edge."""
    plan = loop_plan(layer)
    unread = set(unread_outputs(ctx, graph, layer))
    dead = {pe.body_layer for pe in plan.data_outputs if pe.port in unread}
    dead -= {pe.body_layer for pe in plan.data_outputs if pe.port not in unread}
    dead -= set(plan.back.values())
    if plan.condition is not None:
        dead.discard(plan.condition.body_layer)
    return dead


def _unread_branch_results(ctx: Context, graph: Graph, layer: Layer, branch: Branch) -> set[int | None]:
    """The Results of an If branch that only give outputs of the If nothing in `graph` reads."""
    read = _read_ports(ctx, graph, layer)
    outs = output_ports(layer, branch.port_map)  # as OpenVINO maps them
    unread = {e.internal_layer_id for e, p in outs.items() if p is not None and p not in read}
    return unread - {e.internal_layer_id for e, p in outs.items() if p is None or p in read}
