"""What a TensorIterator/Loop body computes only for outputs nothing outside reads.

OpenVINO's CPU plugin removes such outputs with their body Results, then the body Parameters that
became unused (LP714 and PM410 warn where that goes wrong); this module finds those Parameters.
"""

from __future__ import annotations

from irlint.controlflow import loop_plan
from irlint.controlflow.liveness import dead_inputs
from irlint.engine.context import Context
from irlint.ir.model import Graph, Layer


def unread_outputs(ctx: Context, graph: Graph, layer: Layer) -> list[int]:
    """The output ports of `layer` (data outputs of its port_map) that no edge leaves."""
    idx = ctx.index(graph)
    return sorted(p for pe in loop_plan(layer).data_outputs
                  if (p := pe.port) is not None and not idx.edges_out(layer.id, p))


def read_only_for_unread(ctx: Context, graph: Graph, layer: Layer) -> set[int | None]:
    """Body Parameters read by the body whose every reader leads only to Results of unread outputs (a
    Result that is the body condition, feeds a back edge, gives a read output or no output at all keeps
    what it reads), or into a nested TensorIterator/Loop input whose Parameter is such a one there, or
    into an input of a nested If/TensorIterator/Loop that its bodies do not read (`dead_inputs`)."""
    body = layer.body
    if body is None:
        return set()
    plan = loop_plan(layer)
    unread = set(unread_outputs(ctx, graph, layer))
    dead = {pe.body_layer for pe in plan.data_outputs if pe.port in unread}
    dead -= {pe.body_layer for pe in plan.data_outputs if pe.port not in unread}
    dead -= set(plan.back.values())
    if plan.condition is not None:
        dead.discard(plan.condition.body_layer)
    if not dead and not any(la.type in ("Loop", "TensorIterator") for la in body.layers):
        return set()
    into: dict[int | None, list[tuple[int | None, int | None]]] = {}
    for e in body.edges:
        into.setdefault(e.to_layer, []).append((e.from_layer, e.to_port))
    live: set[int | None] = set()
    todo = [r.id for r in body.results() if r.id not in dead]
    while todo:
        lid = todo.pop()
        if lid in live:
            continue
        live.add(lid)
        inner = body.layer(lid)
        dropped: set[int | None] = set(dead_inputs(inner)) if inner is not None else set()
        if inner is not None and inner.type in ("Loop", "TensorIterator") and inner.body is not None:
            gone = read_only_for_unread(ctx, body, inner)
            dropped |= {pe.port for pe in loop_plan(inner).entries
                       if pe.entry.direction == "input" and pe.body_layer in gone}
        todo += [src for src, port in into.get(lid, []) if port not in dropped]
    idx = ctx.index(body)
    return {p.id for p in body.parameters() if p.id not in live and idx.users(p)}
