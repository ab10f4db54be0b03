"""Drawing layers: plain nodes, collapsed scopes, TI/Loop and If clusters, port tables."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import graphviz
from irlint.viewer.diagram import style
from irlint.viewer.diagram.buffers import CarriedBuffer
from irlint.viewer.diagram.context import (
    PORT_TABLE_AT,
    Ctx,
    finding_tags,
    is_expanded,
    join_inline,
    join_lines,
    node_id,
)
from irlint.viewer.diagram.describe import (
    edge_type,
    entry_text,
    folded_into,
    iterations_text,
    loop_inputs,
    node_label,
    result_type,
    special_value,
)
from irlint.viewer.diagram.dot import Html, html_text
from irlint.viewer.diagram.edges import draw_back_edges, draw_dangling_entries, draw_edges
from irlint.viewer.diagram.findings import layer_attrs
from irlint.viewer.diagram.focus import plan_focus
from irlint.viewer.diagram.layout import (
    absorb_consts,
    fold_loop_consts,
    fold_weights,
    hide_twin_inputs,
    plan_scopes,
    port_order,
    port_tables_drawn,
    results_last,
    scope_label,
    weights,
)
from irlint.viewer.diagram.scopes import MIN_LAYERS, Scope, pinned, scope_tree
from irlint.viewer.diagram.twins import same_shapes
from irlint.viewer.diagram.values import branch_taken

from irlint.controlflow import EntryKind, loop_plan
from irlint.ir.model import Branch, Graph, Layer


def draw_graph(g: graphviz.Digraph, graph: Graph, ctx: Ctx, level: int, specials: Mapping[int, str]) -> None:
    tree = scope_tree(la for la in graph.layers if la.id is not None)
    whole = len(tree.all_layers())
    names: dict[str, str] = {}
    rest = plan_focus(graph, ctx)  # first: what is outside --focus, or only feeds a body drawn once,
    hide_twin_inputs(graph, ctx)  # is in no scope node
    if rest is not None:
        n = ctx.focus_rest[rest]
        g.node(rest, f"{n} layer{'s' if n != 1 else ''} outside --focus", **style.COLLAPSED_SCOPE)
    plan_scopes(tree, ctx, whole, names, 1)
    absorb_consts(graph, ctx)
    fold_loop_consts(graph, ctx, level)
    fold_weights(graph, ctx, level)
    draw_scope(g, tree, ctx, level, specials, whole, graph, names, 1)


def draw_scope(g: graphviz.Digraph, scope: Scope, ctx: Ctx, level: int, specials: Mapping[int, str], whole: int,
           graph: Graph, names: Mapping[str, str], depth: int) -> None:
    """A scope's own layers, then each sub-scope: flat when small, a cluster when expanded, else one
    node standing for its layers (Parameters, Results and TI/Loop/If layers stay drawn beside it)."""
    clusters = [c for c in scope.children.values() if len(c.all_layers()) >= MIN_LAYERS and c.path not in names]
    # the clusters around a body's Parameters and Results drawn as nodes, which back edges run beside
    ends = [c for c in clusters if any(la.type in ("Parameter", "Result") and la.path not in ctx.rows
                                       for la in c.all_layers())]
    moved = consts_into_clusters(scope.layers, ends, graph)
    draw_layers(g, [la for la in scope.layers if la.path not in moved], ctx, level, specials)
    for child in scope.children.values():
        if len(child.all_layers()) < MIN_LAYERS:
            draw_layers(g, child.all_layers(), ctx, level, specials)
        elif child.path not in names:
            ctx.scopes += 1
            ctx.in_scope_cluster.update(la.path for la in child.all_layers())
            ctx.cluster_scope.update((la.path, child.path) for la in child.all_layers())  # inner ones later
            cluster = f"cluster_scope_{ctx.scopes}"
            if depth == 1:  # drawn directly in the graph's own cluster
                ctx.outer_cluster.update((la.path, (child.path, cluster)) for la in child.all_layers())
            with g.subgraph(name=cluster) as sub:
                sub.attr(label=scope_label(child.path, scope.path), tooltip=child.path, **style.SCOPE)
                draw_layers(sub, [la for la in scope.layers if moved.get(la.path) == child.path], ctx, level, specials)
                draw_scope(sub, child, ctx, level, specials, whole, graph, names, depth + 1)
        else:
            draw_collapsed_scope(g, child, scope.path, ctx, level, specials, graph, names[child.path])


def consts_into_clusters(layers: Sequence[Layer], clusters: Sequence[Scope], graph: Graph) -> dict[str, str]:
    """Consts of a scope that only feed layers of one of the sub-scopes `clusters` (drawn as clusters), by
    path -> that sub-scope's path: they are drawn inside its cluster (an LSTMCell TensorIterator's Squeeze
    and Unsqueeze axes, named outside the cell's scope), not beside it, where the back edges running
    along the body's sides crossed their edges."""
    if not clusters:
        return {}
    owner = {la.id: c.path for c in clusters for la in c.all_layers()}
    into: dict[int | None, set[str | None]] = {}
    for e in graph.edges:
        into.setdefault(e.from_layer, set()).add(owner.get(e.to_layer))
    out = {}
    for la in layers:
        targets = into.get(la.id, set())
        if la.type == "Const" and len(targets) == 1 and None not in targets:
            out[la.path] = next(iter(targets))
    return out  # type: ignore[return-value]


def draw_collapsed_scope(g: graphviz.Digraph, scope: Scope, parent: str, ctx: Ctx, level: int,
                     specials: Mapping[int, str], graph: Graph, name: str) -> None:
    hidden = [la for la in graph.layers if ctx.hidden_in.get(la.path) == name]  # with the Consts it absorbed
    if len(hidden) == 1:  # the others are drawn (TI/Loop/If, Parameters, Results): a node says more
        del ctx.hidden_in[hidden[0].path]
    if len(hidden) <= 1:  # or every layer of it feeds only a body drawn once (hidden in that node)
        draw_layers(g, [*(la for la in scope.all_layers() if pinned(la)), *hidden], ctx, level, specials)
        return
    if all(la.type == "Const" for la in hidden):
        ctx.const_scopes.add(name)
    found = [d for la in hidden for d in ctx.by_layer.get(la.path, [])]
    attrs = dict(style.COLLAPSED_SCOPE)
    if found:
        worst = max(found, key=lambda d: d.severity.rank).severity
        attrs.update(style.SEVERITY[worst.value])
    types = sorted({la.type for la in hidden if la.type != "Const"})
    summary = ", ".join(types[:4]) + (", ..." if len(types) > 4 else "")
    tags = finding_tags(ctx, found)
    label = join_lines(scope_label(scope.path, parent), f"{len(hidden)} layers (--expand {scope.path})", summary, tags)
    tip = "\n".join(f"{la.type} {la.name} #{la.path}" for la in hidden[:200])
    g.node(name, label, tooltip=f"scope {scope.path}\n{tip}"[:4000], **attrs)
    draw_layers(g, [la for la in scope.all_layers() if pinned(la)], ctx, level, specials)


def draw_layers(g: graphviz.Digraph, layers: Sequence[Layer], ctx: Ctx, level: int,
            specials: Mapping[int, str]) -> None:
    for layer in layers:
        if layer.id is None or layer.path in ctx.rows or layer.path in ctx.hidden_in or layer.path in ctx.folded:
            continue  # drawn as a row of its body's port table, or hidden in a collapsed scope
        if is_expanded(layer, level, ctx) and layer.branches:
            draw_if(g, layer, ctx, level)
        elif is_expanded(layer, level, ctx):
            draw_loop(g, layer, ctx, level)
        else:
            extra = specials.get(layer.id, "")
            buffer = buffer_of(ctx, layer)
            attrs = layer_attrs(ctx, layer, extra)
            if buffer is not None and not ctx.by_layer.get(layer.path):
                attrs.update(style.BUFFER)
            twin = ctx.twin.get(layer.path)
            same = ""
            if twin is not None:
                shapes = "" if same_shapes(layer, twin) else ", other shapes"
                same = f"body as #{twin.id} {ctx.short_edge.get(twin.name, twin.name)} (drawn once{shapes})"
            hidden = ctx.twin_inputs.get(node_id(layer), 0)
            if hidden:
                same += f"\nand {hidden} layer{'s' if hidden != 1 else ''} feeding only it"
            notes = join_lines(extra, buffer.describe() if buffer else "", same, weights(ctx, layer))
            label = node_label(ctx, layer, notes)
            g.node(node_id(layer), label, **attrs)
            ctx.drawn[layer.path] = node_id(layer)


def buffer_of(ctx: Ctx, layer: Layer) -> CarriedBuffer | None:
    """The carried buffer a body Parameter holds (viewer.diagram.buffers), if it holds one."""
    if layer.type != "Parameter" or "/body/" not in layer.path or layer.id is None:
        return None
    return ctx.buffers.get(layer.path.rsplit("/body/", 1)[0], {}).get(layer.id)


def cluster_style(ctx: Ctx, layer: Layer) -> tuple[dict[str, str], str]:
    """The cluster attributes of a TI/Loop/If, coloured by its worst finding, and its findings' tags."""
    attrs = dict(style.CLUSTER)
    found = ctx.by_layer.get(layer.path, [])
    if found:
        worst = max(found, key=lambda d: d.severity.rank).severity
        attrs.update(color=style.SEVERITY[worst.value]["color"], penwidth="2",
                     tooltip="\n".join(f"{d.code} {d.message}" for d in found)[:2000])
    return attrs, finding_tags(ctx, found)


def draw_loop(g: graphviz.Digraph, layer: Layer, ctx: Ctx, level: int) -> None:
    assert layer.body is not None
    specials: dict[int, str] = {}
    for pe in loop_plan(layer).of(EntryKind.CURRENT_ITERATION, EntryKind.CONDITION_OUTPUT):
        if pe.body_layer is not None:
            specials[pe.body_layer] = f"({pe.entry.purpose})"
    ctx.drawn[layer.path] = "cluster_" + node_id(layer)
    with g.subgraph(name="cluster_" + node_id(layer)) as sub:
        attrs, tags = cluster_style(ctx, layer)
        sub.attr(label=f"{layer.type} '{layer.name}' #{layer.id}, {iterations_text(ctx, layer)}"
                       + (f"\n{tags}" if tags else ""), **attrs)
        if layer.type == "Loop" and not port_tables_drawn(layer):  # else rows of the port table
            for pid, text in ((0, "trip count"), (1, "execution condition")):
                if layer.input(pid) is not None:
                    value = special_value(ctx, layer, pid)
                    sub.node(f"{node_id(layer)}_in{pid}", f"{text}\n(port {pid}){value}", **style.SPECIAL_PORT)
        draw_port_tables(sub, layer, ctx, specials)
        draw_graph(sub, layer.body, ctx, level + 1, specials)
        draw_edges(sub, layer.body, ctx, level + 1)
        draw_back_edges(sub, layer, ctx, level)
        draw_dangling_entries(g, sub, layer, ctx, level)
        results_last(sub, layer, ctx, level)


def draw_port_tables(g: graphviz.Digraph, layer: Layer, ctx: Ctx, specials: Mapping[int, str]) -> None:
    """A body with many Parameters or Results draws each side as one table with a row per layer (edges
    attach to the rows): side by side, six Parameters with names of 40 characters make a body thousands of pixels
    wide, stacked they take one column."""
    params, results = port_order(layer, specials)
    if not port_tables_drawn(layer):
        return
    assert layer.body is not None
    buffers = ctx.buffers.get(layer.path, {})
    plan = loop_plan(layer)
    feeds = loop_inputs(ctx, layer)
    for what, layers in (("inputs", params), ("outputs", results)):
        if not layers:
            continue
        name = f"{node_id(layer)}_{what}"
        cells = [f'<TR><TD BORDER="0" ALIGN="LEFT"><B>body {"Parameters" if what == "inputs" else "Results"}'
                 "</B></TD></TR>"]
        if what == "inputs" and layer.type == "Loop":  # the trip count and condition ports come first
            for pid, text in ((0, "trip count"), (1, "execution condition")):
                if layer.input(pid) is not None:
                    value = special_value(ctx, layer, pid).strip().replace("\n", " ")
                    cells.append(f'<TR><TD PORT="in{pid}" ALIGN="LEFT" BGCOLOR="{style.SPECIAL_PORT["fillcolor"]}">'
                                 f'{html_text(join_inline(f"{text} (port {pid})", value))}</TD></TR>')
        for la in layers:
            special = specials.get(la.id, "")  # type: ignore[arg-type]
            attrs = layer_attrs(ctx, la, special)
            etype = edge_type(ctx, la, la.outputs[0].id) if la.outputs else result_type(ctx, layer.body, la)
            buffer = buffers.get(la.id)  # type: ignore[arg-type]
            role = "; ".join(entry_text(ctx, layer, pe) + (f" (port {pe.port})" if pe.port is not None else "")
                             + folded_into(ctx, feeds, pe.port if pe.entry.direction == "input" else None)
                             for pe in plan.entries if pe.body_layer == la.id and entry_text(ctx, layer, pe))
            # the back edges' pairs in words: their lines run close together along the tables' side
            loops = ", ".join(f"back edge from #{be.from_layer}" if la.type == "Parameter" else
                              f"back edge to #{be.to_layer}" for be in layer.back_edges
                              if (be.to_layer if la.type == "Parameter" else be.from_layer) == la.id)
            # two lines a row (the back edge's label has the buffer in full): the tables set the body's height
            lines = [join_inline(f"#{la.id}  {ctx.short.get(la.name, la.name)}", loops),
                     join_inline(etype, special, role, buffer.kind() if buffer else "",
                                 finding_tags(ctx, ctx.by_layer.get(la.path, [])))]
            text = '<BR ALIGN="LEFT"/>'.join(html_text(x) for x in lines if x)
            if buffer is not None and not ctx.by_layer.get(la.path):
                attrs.update(style.BUFFER)
            fill = attrs.get("fillcolor", "#ffffff")
            border = attrs.get("color", "#000000")
            extra = f' COLOR="{border}"' if "color" in attrs else ""
            # ID and HREF: SVG gets the row's tooltip (graphviz writes it on links only) and an element
            # `a_<layer node id>` the HTML page's click finds the layer's details by
            cells.append(f'<TR><TD PORT="r{la.id}" ID="{node_id(la)}" HREF="#" ALIGN="LEFT" BALIGN="LEFT" '
                         f'BGCOLOR="{fill}"{extra} TOOLTIP="{html_text(attrs["tooltip"][:1000])}">{text}'
                         '<BR ALIGN="LEFT"/></TD></TR>')
            ctx.rows[la.path] = f"{name}:r{la.id}"
        table = f'<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="3">{"".join(cells)}</TABLE>>'
        g.node(name, Html(table),
               shape="plain", tooltip=f"{what} of {layer.type} {layer.name}")


def draw_if(g: graphviz.Digraph, layer: Layer, ctx: Ctx, level: int) -> None:
    """An If: its condition port and a cluster per branch, the taken one marked when a trace says so."""
    ctx.drawn[layer.path] = "cluster_" + node_id(layer)
    with g.subgraph(name="cluster_" + node_id(layer)) as sub:
        attrs, tags = cluster_style(ctx, layer)
        sub.attr(label=f"{layer.type} '{layer.name}' #{layer.id}" + (f"\n{tags}" if tags else ""), **attrs)
        if layer.input(0) is not None:
            sub.node(f"{node_id(layer)}_in0", f"condition\n(port 0){special_value(ctx, layer, 0)}",
                     **style.SPECIAL_PORT)
        for b in layer.branches:
            with sub.subgraph(name=f"cluster_{node_id(layer)}_{b.name}") as inner:
                taken = bool(ctx.trace) and branch_taken(ctx, layer, b.name, level)
                inner.attr(label=f"{b.name}" + (" (taken)" if taken else ""),
                           **{**style.CLUSTER, **(style.TAKEN_BRANCH if taken else {})})
                draw_branch_tables(inner, layer, b, ctx)
                draw_graph(inner, b.body, ctx, level + 1, {})
                draw_edges(inner, b.body, ctx, level + 1)
                draw_dangling_entries(g, inner, layer, ctx, level, b)


def draw_branch_tables(g: graphviz.Digraph, layer: Layer, branch: Branch, ctx: Ctx) -> None:
    """An If branch with four or more Parameters or Results draws each side as one table, as a loop body
    does (`draw_port_tables`): an ONNX sequence cache's If passes eight values through its two branches,
    a Parameter and a Result each, side by side 2,430 px wide. A row says the layer, its type and the
    If's port it takes or gives."""
    ends = {t: [la for la in branch.body.layers if la.type == t and la.id is not None] for t in ("Parameter", "Result")}
    if max(len(v) for v in ends.values()) < PORT_TABLE_AT:
        return
    ports: dict[int | None, list[str]] = {}
    for e in branch.port_map:
        what = "If input" if e.direction == "input" else "If output"
        ports.setdefault(e.internal_layer_id, []).append(f"{what} {e.external_port_id}")
    for what, layers in (("inputs", ends["Parameter"]), ("outputs", ends["Result"])):
        if not layers:
            continue
        name = f"{node_id(layer)}_{branch.name}_{what}"
        title = f"{branch.name} {'Parameters' if what == 'inputs' else 'Results'}"
        cells = [f'<TR><TD BORDER="0" ALIGN="LEFT"><B>{html_text(title)}</B></TD></TR>']
        for la in layers:
            attrs = layer_attrs(ctx, la)
            etype = edge_type(ctx, la, la.outputs[0].id) if la.outputs else result_type(ctx, branch.body, la)
            lines = [
                f"#{la.id}  {ctx.short.get(la.name, la.name)}",
                join_inline(etype, ", ".join(ports.get(la.id, [])), finding_tags(ctx, ctx.by_layer.get(la.path, []))),
            ]
            text = '<BR ALIGN="LEFT"/>'.join(html_text(x) for x in lines if x)
            extra = f' COLOR="{attrs["color"]}"' if "color" in attrs else ""
            # ID and HREF as in a loop's port table: the row's tooltip, and the HTML page's click target
            cells.append(
                f'<TR><TD PORT="r{la.id}" ID="{node_id(la)}" HREF="#" ALIGN="LEFT" BALIGN="LEFT" '
                f'BGCOLOR="{attrs.get("fillcolor", "#ffffff")}"{extra} '
                f'TOOLTIP="{html_text(attrs["tooltip"][:1000])}">{text}<BR ALIGN="LEFT"/></TD></TR>'
            )
            ctx.rows[la.path] = f"{name}:r{la.id}"
        table = f'<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="3">{"".join(cells)}</TABLE>>'
        g.node(name, Html(table), shape="plain", tooltip=f"{what} of the {branch.name} branch of {layer.name}")
