"""Drawing edges: data edges, port-map edges into and out of bodies, back edges and dangling entries."""

from __future__ import annotations

import graphviz
from irlint.viewer.diagram import style
from irlint.viewer.diagram.context import Ctx, finding_tags, is_expanded, join_lines, node_id
from irlint.viewer.diagram.describe import edge_type, entry_text
from irlint.viewer.diagram.findings import finding_style, ghost_node
from irlint.viewer.diagram.layout import port_tables_drawn, state_order
from irlint.viewer.diagram.values import FIRST, LAST, REQUESTED, Value, branch_taken, edge_value, trace_value

from irlint.controlflow import EntryKind, PlanEntry, loop_plan
from irlint.controlflow.outputs import entry_of_port
from irlint.ir.model import Branch, Graph, Layer, PortMapEntry


def draw_back_edges(sub: graphviz.Digraph, layer: Layer, ctx: Ctx, level: int) -> None:
    assert layer.body is not None
    # Back edges leave and enter on the side: the first half (in body order, which is roughly their
    # left-to-right order) on the left, the rest on the right, so two state loops do not cross.
    sides = ("w", "e") if ctx.opts.rankdir == "TB" else ("n", "s")
    half = len(layer.back_edges) // 2
    edges = state_order(sub, layer, ctx)
    for i, be in enumerate(edges):
        side = sides[0] if i < half else sides[1]
        src, dst = layer.body.layer(be.from_layer), layer.body.layer(be.to_layer)
        found = ctx.claims.get(id(be), [])
        attrs = {**style.BACK_EDGE, "tailport": side, "headport": side}
        label = "back edge"
        buffer = ctx.buffers.get(layer.path, {}).get(be.to_layer)  # type: ignore[arg-type]
        if buffer is not None:
            attrs.update(style.BUFFER_EDGE)
            label += f"\n{buffer.describe()}"
        if found:
            attrs.update(finding_style(ctx, found))
            label += "\n" + finding_tags(ctx, found)
        carried = trace_value(ctx, src, None, level + 1, "out") if src is not None else Value()
        if carried.text:
            # out of the last iteration the loop ran, the value goes nowhere: the loop ends
            label += f"\nlast iteration, not carried: {carried.text}" if carried.final else f"\ncarried: {carried.text}"
            attrs["tooltip"] = carried.tip
        a = endpoint(src, ctx, level + 1, "out") if src is not None else \
            ghost_node(sub, ctx, f"missing layer #{be.from_layer}\n(back edge from-layer)")
        b = endpoint(dst, ctx, level + 1, "in") if dst is not None else \
            ghost_node(sub, ctx, f"missing layer #{be.to_layer}\n(back edge to-layer)")
        if ":" in a or ":" in b:  # a port-table row names its side itself
            attrs.pop("tailport")
            attrs.pop("headport")
            # a dot where it leaves the Result row, the arrow where it enters the Parameter row
            sub.edge(b, a, label=label, dir="both", arrowhead="dot", **{"arrowtail": "normal", **attrs})
            continue
        # Drawn Parameter -> Result with dir=back (the arrow at the Parameter): dot then routes it like
        # any downward edge, beside the body, instead of as a free spline that crosses the others.
        sub.edge(b, a, label=label, dir="back", **{**attrs, "tailport": attrs["headport"],
                                                    "headport": attrs["tailport"]})


def branch_ends(layer: Layer, ctx: Ctx, level: int, direction: str, port: int | None
                 ) -> list[tuple[str, str, PortMapEntry | None, str]]:
    """Where an outer edge on `port` of an expanded If continues inside: each branch's body Parameter
    (`direction` "input") or Result ("output") that its port map gives it (outputs by the order of the
    ids where one names no port, as OpenVINO reads them), labelled with the branch, or the entry's ghost
    node when the layer is missing."""
    side, missing = ("in", "to a missing layer") if direction == "input" else ("out", "from a missing layer")
    skipped = not_taken_entries(ctx, layer, level)
    ends: list[tuple[str, str, PortMapEntry | None, str]] = []
    for b in layer.branches:
        given = entry_of_port(layer, b.port_map) if direction == "output" else {}  # as OpenVINO maps outputs
        for entry in b.port_map:
            if entry.direction != direction or (given.get(port) is not entry if given else
                                                entry.external_port_id != port):
                continue
            inner = b.body.layer(entry.internal_layer_id)
            ghost = ctx.entry_ghost.get(id(entry))
            if inner is not None:
                note = trace_value(ctx, inner, None, level + 1, side).named(ctx.short_edge.get(inner.name, inner.name))
                name = f"{b.name} (not taken)" if id(entry) in skipped else b.name
                ends.append((endpoint(inner, ctx, level + 1, side), join_lines(name, note.text), entry, note.tip))
            elif ghost is not None:
                ends.append((ghost, f"{b.name}: {missing}", entry, ""))
    return ends


def draw_dangling_entries(g: graphviz.Digraph, sub: graphviz.Digraph, layer: Layer, ctx: Ctx, level: int,
                      branch: Branch | None = None) -> None:
    """Port map entries that point at no body layer or at no port of the TI/Loop (or at no data port of
    the If, for a `branch`), drawn to ghost nodes."""
    if branch is None:
        assert layer.body is not None
        body, entries, what, inner_word, port_word = layer.body, layer.port_map, "port_map", "body", "port"
        in_ports = {p.id for p in layer.inputs}
    else:
        body, entries, what = branch.body, branch.port_map, f"{branch.name}_port_map"
        inner_word, port_word = branch.name, "data port"
        in_ports = {p.id for p in layer.inputs if p.id != 0}  # port 0 is the condition
    out_ports = {p.id for p in layer.outputs}
    for e in entries:
        if branch is None and e.purpose is not None and (e.external_port_id is None or e.external_port_id < 0):
            continue
        inner = body.layer(e.internal_layer_id)
        outer_ok = e.external_port_id in (in_ports if e.direction == "input" else out_ports)
        if inner is not None and outer_ok:
            continue
        found = ctx.claims.get(id(e), [])
        attrs = {**style.PORT_MAP, **(finding_style(ctx, found) if found else {}), "style": "dashed"}
        tags = finding_tags(ctx, found)
        inner_id = endpoint(inner, ctx, level + 1, "in" if e.direction == "input" else "out") if inner else \
            ghost_node(sub, ctx, f"missing {inner_word} layer #{e.internal_layer_id}\n({what} {e.direction})")
        if outer_ok:
            ctx.entry_ghost[id(e)] = inner_id  # the outer side is drawn by draw_edges: it ends at this ghost
            continue
        outer_id = ghost_node(g, ctx, f"no {port_word} {e.external_port_id} on #{layer.id}\n({what} {e.direction})")
        a, b = (outer_id, inner_id) if e.direction == "input" else (inner_id, outer_id)
        g.edge(a, b, label=f"{what} {e.direction}" + (f"\n{tags}" if tags else ""), **attrs)


def endpoint(layer: Layer, ctx: Ctx, level: int, side: str) -> str:
    """The node an edge attaches to: the layer (or the collapsed scope hiding it), or for an expanded
    TI/Loop its first body node."""
    if layer.path in ctx.rows:
        return row_port(ctx, layer, side)
    if layer.path in ctx.hidden_in:
        return ctx.hidden_in[layer.path]
    if is_expanded(layer, level, ctx):
        first = layer.subgraphs()[0]
        inner = next((la for la in first.layers if la.id is not None), None)
        if inner is not None:
            return endpoint(inner, ctx, level + 1, side)
    return node_id(layer)


def row_port(ctx: Ctx, layer: Layer, side: str) -> str:
    """A port-table row with the side an edge uses: Parameters take edges in on the left (from outside
    and the back edges) and give them to the body on the right; Results take the body's on the right
    and give theirs (port map, back edges) on the left. Left to right (LR) every row flows left to right."""
    if ctx.opts.rankdir == "LR":
        return ctx.rows[layer.path] + (":w" if side == "in" else ":e")
    outward = (side == "in") == (layer.type == "Parameter")
    return ctx.rows[layer.path] + (":w" if outward else "")


def drawn_ref(ctx: Ctx, layer: Layer, side: str) -> str:
    """The drawn node of a layer that is not an expanded TI/Loop/If: its port-table row, its collapsed
    scope, or itself."""
    if layer.path in ctx.rows:
        return row_port(ctx, layer, side)
    return ctx.hidden_in.get(layer.path, node_id(layer))


def body_end(ctx: Ctx, loop: Layer, pe: PlanEntry, level: int, side: str, pick: str
             ) -> list[tuple[str, str, PortMapEntry | None, str]]:
    """Where an outer edge into (`side` "in") or out of ("out") an expanded TI/Loop continues inside:
    the body Parameter or Result its port_map entry `pe` names, its value as iteration `pick` sees
    it, or the entry's ghost node when the body layer is missing; empty when neither is drawn."""
    assert loop.body is not None
    entry = pe.entry
    inner_layer = loop.body.layer(entry.internal_layer_id)
    if inner_layer is None:
        ghost = ctx.entry_ghost.get(id(entry))
        missing = "to a missing body layer" if side == "in" else "from a missing body layer"
        return [(ghost, missing, entry, "")] if ghost is not None else []
    # in a port table the row says it
    kind = "" if inner_layer.path in ctx.rows else entry_text(ctx, loop, pe)
    inner = trace_value(ctx, inner_layer, None, level + 1, side, pick)
    inner = inner.named(ctx.short_edge.get(inner_layer.name, inner_layer.name))
    return [(endpoint(inner_layer, ctx, level + 1, side), join_lines(kind, inner.text), entry, inner.tip)]


def draw_edges(g: graphviz.Digraph, graph: Graph, ctx: Ctx, level: int) -> None:
    for e in graph.edges:
        src, dst = graph.layer(e.from_layer), graph.layer(e.to_layer)
        if src is not None and src.path in ctx.folded:
            continue  # its value is written where it goes
        found = ctx.claims.get(id(e), [])
        extra = finding_style(ctx, found) if found else {}
        tags = finding_tags(ctx, found)
        ports = {"taillabel": "" if e.from_port is None else str(e.from_port),
                 "headlabel": "" if e.to_port is None else str(e.to_port), **style.PORT_LABEL}
        if src is None or dst is None:
            a = endpoint(src, ctx, level, "out") if src is not None else \
                ghost_node(g, ctx, f"missing layer #{e.from_layer}\n(edge from-layer)")
            b = endpoint(dst, ctx, level, "in") if dst is not None else \
                ghost_node(g, ctx, f"missing layer #{e.to_layer}\n(edge to-layer)")
            g.edge(a, b, label=join_lines("edge", tags), **{**ports, **extra, "style": "dashed"})
            continue
        src_exp, dst_exp = is_expanded(src, level, ctx), is_expanded(dst, level, ctx)
        note = edge_value(ctx, graph, src, e.from_port, dst, level)
        etype = edge_type(ctx, src, e.from_port)
        if src.path in ctx.rows or dst.path in ctx.rows:
            etype = ""  # the port-table row shows it (one label less to place in the row's rank)
        a, b = ctx.hidden_in.get(src.path), ctx.hidden_in.get(dst.path)
        if (a or b) and not src_exp and not dst_exp:
            # To, from or inside a collapsed scope: one edge per pair of drawn nodes, none inside.
            ends = (a or drawn_ref(ctx, src, "out"), b or drawn_ref(ctx, dst, "in"))
            if a != b and ends[0] != ends[1] and ends not in ctx.scope_edges:
                ctx.scope_edges.add(ends)
                # a scope of constants only ranks nowhere in particular: it is placed at the top
                # rather than in the row of its consumer, where it would widen the drawing
                free = {"constraint": "false"} if a and a in ctx.const_scopes else {}
                g.edge(*ends, label=join_lines(etype, tags), **{**extra, **free})
            continue
        if not src_exp and not dst_exp:
            tip = {"tooltip": note.tip} if note.tip else {}
            g.edge(drawn_ref(ctx, src, "out"), drawn_ref(ctx, dst, "in"), label=join_lines(etype, note.text, tags),
                   **{**ports, **extra, **tip})
            continue
        # Into an expanded TI/Loop: to the body Parameter its port_map names (or the Loop's special port).
        targets: list[tuple[str, str, PortMapEntry | None, str]] = []
        if dst_exp and dst.branches:
            if e.to_port == 0:
                targets.append((f"{node_id(dst)}_in0", "", None, ""))
            targets += branch_ends(dst, ctx, level, "input", e.to_port)
        elif dst_exp:
            assert dst.body is not None
            if dst.type == "Loop" and e.to_port in (0, 1):
                special = f"{node_id(dst)}_inputs:in{e.to_port}:w" if port_tables_drawn(dst) else \
                    f"{node_id(dst)}_in{e.to_port}"
                targets.append((special, "", None, ""))
            for pe in loop_plan(dst).input_for_port(e.to_port):
                merged = pe.kind is EntryKind.MERGED_INPUT
                targets += body_end(ctx, dst, pe, level, "in", FIRST if merged else REQUESTED)
        else:
            targets.append((drawn_ref(ctx, dst, "in"), "", None, ""))
        sources: list[tuple[str, str, PortMapEntry | None, str]] = []
        if src_exp and src.branches:
            sources += branch_ends(src, ctx, level, "output", e.from_port)
        elif src_exp:
            assert src.body is not None
            for pe in loop_plan(src).data_outputs:
                if pe.port != e.from_port:
                    continue
                concat = pe.kind is EntryKind.CONCAT_OUTPUT
                sources += body_end(ctx, src, pe, level, "out", REQUESTED if concat else LAST)
        else:
            sources.append((drawn_ref(ctx, src, "out"), note.text, None, note.tip))
        # A port of the TI/Loop with no port_map entry: the edge still shows, from/to a ghost node.
        for exp, side, port, items in ((dst_exp, dst, e.to_port, targets), (src_exp, src, e.from_port, sources)):
            if exp and not items:
                on_port = [d for d in ctx.by_layer.get(side.path, []) if d.port == port]
                ghost = ghost_node(g, ctx, f"port {port} of #{side.id}:\nno port_map entry")
                items.append((ghost, "", None, ""))
                found = found + [d for d in on_port if d not in found]
        skipped = not_taken_entries(ctx, dst, level) if dst_exp and dst.branches else set()
        for s_node, s_kind, s_entry, s_tip in sources:
            for t_node, t_kind, t_entry, t_tip in targets:
                if id(t_entry) in skipped:  # the value never reached the branch that did not run
                    s_kind, s_tip = "", ""
                entry_found = [*ctx.claims.get(id(s_entry), []), *ctx.claims.get(id(t_entry), [])]
                all_found = found + [d for d in entry_found if d not in found]
                attrs = {**style.PORT_MAP, **ports, **(finding_style(ctx, all_found) if all_found else {})}
                tip = "\n\n".join(t for t in (s_tip, t_tip) if t)
                if tip:
                    attrs["tooltip"] = tip
                # a port-table row shows the type and what the port map does; the edge names the port
                # (into an expanded loop's row: the loop's input port, out of one: its output port)
                shown = etype
                if dst_exp and ":" in t_node:
                    shown = f"port {e.to_port}"
                elif src_exp and ":" in s_node:
                    shown = f"port {e.from_port}"
                g.edge(s_node, t_node, label=join_lines(shown, s_kind, t_kind, finding_tags(ctx, all_found)), **attrs)


def not_taken_entries(ctx: Ctx, layer: Layer, level: int) -> set[int]:
    """id() of the port-map entries of an If's branch that the trace shows did not run at the requested
    iteration (empty without a trace or an iteration): no value flows into or out of that branch."""
    if not ctx.trace or ctx.opts.iteration is None:
        return set()
    taken = {b.name for b in layer.branches if branch_taken(ctx, layer, b.name, level)}
    if not taken:
        return set()  # the trace holds no layer of either branch: nothing to tell
    return {id(e) for b in layer.branches if b.name not in taken for e in b.port_map}
