"""Body Parameters OpenVINO replaces by Constants before its CPU plugin sees the body.

OpenVINO's core pass PushConstantToSubgraph takes each invariant input of a TensorIterator/Loop (and
each input of an If) whose value folds to a constant, puts the constant into the body and removes the
body Parameter; levels nest, so a constant pushed into an If branch or an outer Loop body makes the
inner layer's input constant too. LP714 warns where that removal breaks a Loop's current_iteration.
"""

from __future__ import annotations

from irlint.rules.levels import input_entries, parents

from irlint.controlflow import EntryKind, loop_plan
from irlint.engine.context import Context
from irlint.ir.model import Graph, Layer

# Layers whose output OpenVINO does not fold from constant inputs in this sense: they read state or
# hold bodies of their own.
NOT_FOLDED = frozenset({"Parameter", "ReadValue", "Assign", "Loop", "TensorIterator", "If", "Result"})


def pushed_parameters(ctx: Context, layer: Layer) -> set[int | None]:
    """The ids of `layer`'s body Parameters (a TensorIterator/Loop) that OpenVINO replaces by Constants."""
    body = layer.body
    if body is None:
        return set()
    invariant = {pe.body_layer for pe in loop_plan(layer).of(EntryKind.INVARIANT_INPUT)}
    return {p.id for p in body.parameters() if p.id in invariant and folds(ctx, body, p, {})}


def folds(ctx: Context, graph: Graph, layer: Layer, memo: dict[tuple[int, int | None], bool]) -> bool:
    """True when the value `layer` gives is computed from constants only, across the levels above."""
    key = (id(graph), layer.id)
    if key in memo:
        return memo[key]
    memo[key] = False  # a cycle is not constant
    got = False
    if layer.type in ("Const", "Constant"):
        got = True
    elif layer.type == "Parameter":
        got = _pushed_into(ctx, graph, layer, memo)
    elif layer.type not in NOT_FOLDED and layer.inputs:
        idx = ctx.index(graph)
        got = True
        for port in layer.inputs:
            e = idx.source(layer.id, port.id)
            src = graph.layer(e.from_layer) if e is not None else None
            if src is None or not folds(ctx, graph, src, memo):
                got = False
                break
        if not got and layer.outputs:
            got = ctx.shapes.output(layer, layer.outputs[0].id).value is not None  # a ShapeOf of static dims ...
    memo[key] = got
    return got


def _pushed_into(ctx: Context, body: Graph, param: Layer, memo: dict[tuple[int, int | None], bool]) -> bool:
    """A body Parameter whose invariant input (an If's input) folds: OpenVINO pushes the constant in."""
    up = parents(ctx).get(id(body))
    if up is None:
        return False
    outer, owner = up
    if owner.body is body and param.id not in {pe.body_layer for pe in loop_plan(owner).of(EntryKind.INVARIANT_INPUT)}:
        return False
    ports = [pe.external_port_id for pe in input_entries(owner, body) if pe.internal_layer_id == param.id]
    if len(ports) != 1:
        return False
    idx = ctx.index(outer)
    e = idx.source(owner.id, ports[0])
    src = outer.layer(e.from_layer) if e is not None else None
    return src is not None and folds(ctx, outer, src, memo)
