"""Build a graphviz diagram of an IR model: bodies as nested clusters, port maps and back edges drawn.

`build_diagram` returns a `graphviz.Digraph` (rendering is the caller's choice, as in torchviz).
Edges carry the producer's element type and shape and the port numbers at both ends. Port-map edges
run from the outer producer into the body Parameter (labelled with the slicing in words or
"initial value"/"invariant") and from the body Result to the outer consumer ("concat axis N" or
"last value"); back edges are dashed in their own colour (the error colour is kept for errors),
drawn Parameter -> Result with the arrow reversed so dot routes them beside the body. A collapsed (or too
deep) TensorIterator/Loop is one node instead; bodies are collapsed automatically when they hold
more layers than `dot` draws reliably.

An If is a cluster holding its two branches as clusters labelled "then"/"else"; its condition is a
port node inside it, and its port maps are drawn like a TI/Loop's (into the branch Parameters, out
of the branch Results, labelled with the branch). With a trace, the branch that ran (at the
requested iteration, or at any iteration without one) is drawn bold green and labelled "taken".

With diagnostics, a finding is drawn on the element it is about: an edge, a port_map entry or a
back edge (found by its line), else its layer; elements that point at nothing (a missing layer or
port) are drawn as dashed "ghost" nodes. Every finding is numbered, and a legend lists number,
code, severity and message, so a PNG shows the messages too (an SVG also has them as tooltips).
"""

from __future__ import annotations

from dataclasses import replace

import graphviz
from irlint.viewer.diagram import style
from irlint.viewer.diagram.buffers import carried_buffers
from irlint.viewer.diagram.context import EDGE_NAME_LIMIT, NAME_LIMIT, Ctx, DiagramOptions
from irlint.viewer.diagram.dot import Digraph
from irlint.viewer.diagram.edges import draw_edges
from irlint.viewer.diagram.findings import claim_findings, draw_legend
from irlint.viewer.diagram.focus import chain, find_layer
from irlint.viewer.diagram.names import short_names
from irlint.viewer.diagram.nodes import draw_graph
from irlint.viewer.diagram.panel import panel_data
from irlint.viewer.diagram.twins import twins
from irlint.viewer.diagram.values import index_trace

from irlint.ir.model import Model


def build_diagram(model: Model, opts: DiagramOptions | None = None) -> graphviz.Digraph:
    o = opts or DiagramOptions()
    if isinstance(o.iteration, int):
        o = replace(o, iteration=(o.iteration,))
    ctx = Ctx(o, model)
    if o.focus is not None:
        ctx.focus = find_layer(model, o.focus)
        if ctx.focus is None:
            raise LookupError(f"no layer named or at id path {o.focus!r}")
        ctx.focus_chain = chain(ctx.focus)
        edges = "edge" if o.focus_radius == 1 else "edges"
        ctx.notes.append(f"focus: {ctx.focus.type} {ctx.focus.name} #{ctx.focus.path}, {o.focus_radius} {edges} around")
    names = [la.name for _g, la in model.layers()]
    ctx.short, ctx.short_edge = short_names(names, NAME_LIMIT), short_names(names, EDGE_NAME_LIMIT)
    body_layers = sum(1 for g, _la in model.layers() if g is not model.graph)
    if (o.auto_collapse is not None and body_layers > o.auto_collapse and o.depth is None and not o.collapse
            and ctx.focus is None):
        ctx.collapse = True
        ctx.notes.append(f"bodies collapsed: {body_layers} body layers are more than {o.auto_collapse} "
                         "(give --depth N to expand them anyway)")
    untyped = any(p.precision is None for _g, la in model.layers() for p in la.outputs)
    if untyped or any(la.body is not None for la in model.graph.layers):
        from irlint.shapes import infer_model

        try:
            inferred = infer_model(model)
            ctx.loops, ctx.inferred = dict(inferred.loops), inferred.outputs
        except Exception:  # a diagram must not depend on shape inference succeeding
            ctx.loops = {}
    for graph, la in model.layers():
        if la.body is not None:
            found = carried_buffers(model, la, graph)
            if found:
                ctx.buffers[la.path] = {b.parameter: b for b in found}
    if o.share_bodies and o.trace is None and not (o.collapse or ctx.collapse) and ctx.focus is None:
        # a body with findings is drawn where they are; with a trace each body has values of its own
        with_findings = {d.layer for d in o.diagnostics if d.layer is not None}
        ctx.twin = {path: first for path, first in twins(model).items()
                    if not any(p == path or p.startswith(path + "/") for p in with_findings)}
        if ctx.twin:
            ctx.notes.append(f"{len(ctx.twin)} bod{'y' if len(ctx.twin) == 1 else 'ies'} the same as one drawn "
                             "earlier shown as one node (--all-bodies draws each)")
    if o.diagnostics:
        claim_findings(ctx, model)
    if o.trace is not None:
        index_trace(ctx, o.trace)
    label = model.path + "".join(f"\n{n}" for n in ctx.notes)
    g = Digraph(model.name or "model", graph_attr={**style.GRAPH, "rankdir": o.rankdir,
                                                            "label": label, "compound": "true"},
                         node_attr=style.NODE, edge_attr=style.EDGE)
    draw_graph(g, model.graph, ctx, 0, specials={})
    draw_edges(g, model.graph, ctx, 0)
    if o.diagnostics:
        draw_legend(g, ctx)
    g.irlint_notes = list(ctx.notes)  # type: ignore[attr-defined]  # for the CLI to print
    g.irlint_panel = lambda: panel_data(ctx)  # type: ignore[attr-defined]  # the HTML page asks (reads weights)
    return g
