"""Layout choices made before drawing: scope nodes, folded constants, port tables and the order of back edges."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import nullcontext
from itertools import pairwise

import graphviz
from irlint.viewer.diagram.context import NAME_LIMIT, PORT_TABLE_AT, Ctx, is_expanded, node_id
from irlint.viewer.diagram.describe import const_value, edge_type
from irlint.viewer.diagram.names import short_names
from irlint.viewer.diagram.scopes import MIN_LAYERS, Scope, expanded

from irlint.controlflow import loop_plan
from irlint.ir.model import BackEdge, Graph, Layer


def plan_scopes(scope: Scope, ctx: Ctx, whole: int, names: dict[str, str], depth: int) -> None:
    """Decide which scopes are drawn as one node (their node names) and map their layers to them, before
    anything is drawn: a Const is drawn only where a drawn layer takes it (`absorb_consts`)."""
    expand = [e.strip("/") for e in ctx.opts.expand]
    for child in scope.children.values():
        if len(child.all_layers()) < MIN_LAYERS:
            continue
        if expanded(child, expand, whole, depth, ctx.opts.scope_depth):
            plan_scopes(child, ctx, whole, names, depth + 1)
        else:
            ctx.scopes += 1
            names[child.path] = f"scope_{ctx.scopes}"
            for layer in child.hidden():
                ctx.hidden_in.setdefault(layer.path, names[child.path])  # unless hidden in a twin


def absorb_consts(graph: Graph, ctx: Ctx) -> None:
    """A Const that only feeds layers of one collapsed scope is hidden in it too: weights and shape
    constants named outside the scope (`Transpose_3237` into `lstm_cell/MatMul`) say nothing that the
    scope node does not, and as nodes of their own they widen the rank they sit in."""
    consumers: dict[int | None, set[str | None]] = {}
    for e in graph.edges:
        dst = graph.layer(e.to_layer)
        consumers.setdefault(e.from_layer, set()).add(ctx.hidden_in.get(dst.path) if dst is not None else None)
    for layer in graph.layers:
        if layer.type != "Const" or layer.path in ctx.hidden_in or ctx.by_layer.get(layer.path):
            continue
        into = consumers.get(layer.id, set())
        if len(into) == 1 and None not in into:
            ctx.hidden_in[layer.path] = next(iter(into))  # type: ignore[assignment]


def hide_twin_inputs(graph: Graph, ctx: Ctx) -> None:
    """Layers that only feed a TI/Loop drawn as one node for a body drawn once (`viewer.diagram.twins`),
    directly or through each other, are hidden in that node (`--all-bodies` draws them): the loop drawn
    in full shows their counterparts (a bidirectional LSTM's backward input is reversed, transposed and
    given zero states by a dozen layers, the forward one's by the same dozen). Parameters, layers with
    findings or bodies, and what another TI/Loop/If's output flows into (a stacked LSTM's projection
    between its loops has no counterpart) stay drawn."""
    if not ctx.twin:
        return
    consumers: dict[int | None, set[str | None]] = {}
    for e in graph.edges:
        dst = graph.layer(e.to_layer)
        consumers.setdefault(e.from_layer, set()).add(dst.path if dst is not None else None)
    after_loop = {la.id for la in graph.layers if la.subgraphs()}
    grew = True
    while grew:
        grew = False
        for e in graph.edges:
            if e.from_layer in after_loop and e.to_layer not in after_loop:
                after_loop.add(e.to_layer)
                grew = True
    owner = {la.path: node_id(la) for la in graph.layers if la.path in ctx.twin}
    changed = True
    while changed:  # from the twin upwards, a layer at a time
        changed = False
        for layer in reversed(graph.layers):
            if (layer.path in owner or layer.type in ("Parameter", "Result") or layer.path in ctx.hidden_in
                    or ctx.by_layer.get(layer.path) or layer.id not in consumers or layer.id in after_loop):
                continue
            into = {owner.get(p) for p in consumers[layer.id]} if None not in consumers[layer.id] else {None}
            if len(into) == 1 and None not in into:
                owner[layer.path] = next(iter(into))  # type: ignore[assignment]
                ctx.hidden_in[layer.path] = owner[layer.path]
                ctx.twin_inputs[owner[layer.path]] = ctx.twin_inputs.get(owner[layer.path], 0) + 1
                changed = True


def fold_loop_consts(graph: Graph, ctx: Ctx, level: int) -> None:
    """A one-element Const that only feeds an expanded Loop's trip count or condition, or body
    Parameters drawn as port-table rows, is written into that port node or row (`= 0 from NAME`)
    instead of being a node of its own: TensorFlow loops start each of their counters and flags from
    one, and side by side they make the row above the body the widest of the drawing."""
    uses: dict[int | None, list[tuple[Layer | None, int | None]]] = {}
    for e in graph.edges:
        uses.setdefault(e.from_layer, []).append((graph.layer(e.to_layer), e.to_port))
    for layer in graph.layers:
        if layer.type != "Const" or layer.path in ctx.hidden_in or ctx.by_layer.get(layer.path):
            continue
        targets = uses.get(layer.id, [])
        if not targets or any(dst is None or dst.body is None for dst, _port in targets):
            continue  # the common case, decided before any weight is read
        ok = True
        for dst, port in targets:
            if dst is None or dst.body is None or dst.branches or not is_expanded(dst, level, ctx):
                ok = False
            elif not (dst.type == "Loop" and port in (0, 1)):
                entries = loop_plan(dst).input_for_port(port)
                pars = [dst.body.layer(pe.body_layer) for pe in entries]
                ok = ok and bool(pars) and all(p is not None and port_tables_drawn(dst) for p in pars)
        value = const_value(ctx.model, layer) if ok else ""
        if value:
            ctx.folded[layer.path] = f"{value} from {ctx.short_edge.get(layer.name, layer.name)}"


WEIGHTS_AT = 3  # Consts feeding one layer only, from which its node lists them instead of a node each
WEIGHTS_LINE = 40  # characters of a line of that list


def fold_weights(graph: Graph, ctx: Ctx, level: int) -> None:
    """A layer fed by three or more Consts that feed nothing else (an LSTMCell's W, R and B, a PyTorch
    LSTMSequence's five) lists them in its node (`weights` below) instead of a node per Const: side by
    side in the rank above their consumer they make it the widest of the drawing (a PyTorch LSTM in
    each branch of an If: 2,147 px wide, 1,045 with them listed). A Const with a finding, or on an edge
    with one, stays a node; the HTML page's search for a listed Const lands on its consumer's node.
    `--const-nodes` (`list_weights=False`) draws every Const as a node."""
    if not ctx.opts.list_weights:
        return
    uses: dict[int | None, list[tuple[int | None, int | None]]] = {}
    claimed: set[int | None] = set()
    for e in graph.edges:
        uses.setdefault(e.from_layer, []).append((e.to_layer, e.to_port))
        if ctx.claims.get(id(e)):
            claimed.add(e.from_layer)
    fed: dict[int | None, list[tuple[int | None, Layer]]] = {}
    for layer in graph.layers:
        if (
            layer.type != "Const"
            or layer.path in ctx.hidden_in
            or layer.path in ctx.folded
            or ctx.by_layer.get(layer.path)
            or layer.id in claimed
        ):
            continue
        targets = uses.get(layer.id, [])
        if len(targets) == 1:
            fed.setdefault(targets[0][0], []).append((targets[0][1], layer))
    for dst_id, consts in fed.items():
        dst = graph.layer(dst_id)
        if (
            len(consts) < WEIGHTS_AT
            or dst is None
            or dst.type in ("Parameter", "Result")
            or dst.path in ctx.rows
            or dst.path in ctx.hidden_in
            or dst.path in ctx.folded
            or is_expanded(dst, level, ctx)
        ):
            continue
        consts.sort(key=lambda pc: (pc[0] is None, pc[0] or 0))
        ctx.weights[dst.path] = consts
        for _port, const in consts:
            ctx.hidden_in[const.path] = node_id(dst)


def weights(ctx: Ctx, layer: Layer) -> str:
    """The Consts `fold_weights` listed in `layer`'s node: `in3,4,5 ← Consts` then their types, shapes
    and one-element values, as the debugger's inspector writes Const-fed inputs."""
    consts = ctx.weights.get(layer.path)
    if not consts:
        return ""
    lines = [f"in{','.join('?' if p is None else str(p) for p, _c in consts)} ← Consts"]
    for _port, const in consts:
        port = const.outputs[0].id if const.outputs else None
        item = " ".join(x for x in (edge_type(ctx, const, port), const_value(ctx.model, const)) if x)
        if len(lines) > 1 and len(lines[-1]) + len(item) + 2 <= WEIGHTS_LINE:
            lines[-1] += f", {item}"
        else:
            lines.append(item)
    return "\n".join(lines)


def port_tables_drawn(loop: Layer) -> bool:
    """Whether the body's Parameters and Results are drawn as port tables (either side has many)."""
    assert loop.body is not None
    counts = [sum(1 for la in loop.body.layers if la.type == t and la.id is not None) for t in ("Parameter", "Result")]
    return max(counts) >= PORT_TABLE_AT


def scope_label(path: str, parent: str) -> str:
    """A scope's path below its parent's, shortened like a layer name."""
    rel = path[len(parent) + 1:] if parent and path.startswith(parent + "/") else path
    return short_names([rel], NAME_LIMIT)[rel] + "/"


def results_last(g: graphviz.Digraph, layer: Layer, ctx: Ctx, level: int) -> None:
    """Put a body's Results table below everything else of the body (an invisible edge from each drawn
    node): the outer layers its outputs feed are then ranked below the body, not beside it."""
    table = f"{node_id(layer)}_outputs"
    if layer.body is None or not any(v.startswith(table + ":") for v in ctx.rows.values()):
        return
    drawn: dict[str, None] = {}
    for la in layer.body.layers:
        if la.id is None or la.path in ctx.rows or la.path in ctx.folded or is_expanded(la, level + 1, ctx):
            continue
        drawn[ctx.hidden_in.get(la.path, node_id(la))] = None
    for name in drawn:
        g.edge(name, table, style="invis")


def port_order(layer: Layer, specials: Mapping[int, str]) -> tuple[list[Layer], list[Layer]]:
    """The body's Parameters and Results in the order their port tables list them.

    Parameters follow the port map. Results: the special ones (execution condition) first, then those
    that feed back edges in the reverse order of the Parameters they feed, then the outputs in port
    order; the back edges, all drawn on the tables' left side, then nest instead of crossing (the
    top Parameter's arc reaches the lowest Result, the one below it the next one up)."""
    assert layer.body is not None
    first: dict[int | None, int] = {}
    for i, e in enumerate(layer.port_map):
        first.setdefault(e.internal_layer_id, i)
    params = sorted((la for la in layer.body.layers if la.type == "Parameter" and la.id is not None),
                    key=lambda la: first.get(la.id, 1 << 30))
    row = {la.id: i for i, la in enumerate(params)}
    feeds = {be.from_layer: be.to_layer for be in layer.back_edges}

    def result_key(la: Layer) -> tuple[int, int]:
        if la.id in specials:
            return 0, 0
        if feeds.get(la.id) in row:
            return 1, -row[feeds[la.id]]
        return 2, first.get(la.id, 1 << 30)

    results = sorted((la for la in layer.body.layers if la.type == "Result" and la.id is not None), key=result_key)
    return params, results


def state_order(g: graphviz.Digraph, layer: Layer, ctx: Ctx) -> list[BackEdge]:
    """The back edges in the left-to-right order of their Parameters (the port map's order).

    When every body Parameter and Result is a node of its own, the Parameters are held in the body's
    top rank and the Results in its bottom rank, each rank in one order (invisible edges): the
    Parameters and Results of the first half of the back edges (drawn on the left side) leftmost,
    then those of no back edge, then those of the rest (drawn on the right side) rightmost. Each back
    edge then runs along the outside of the body and crosses no other edge, whatever order dot would
    have chosen to shorten other edges (with the states only held in order among themselves, OpenVINO's
    own v10 LSTM TensorIterator test IR had a back edge cross an edge into the cell on each side).
    Where they all sit in one name scope's cluster the ranks are that cluster's; where some sit in one,
    the body's (dot then draws those outside the scope's box, below or above it). Rows of port tables
    are ordered by `port_order` instead."""
    assert layer.body is not None
    body = layer.body
    params, results = port_order(layer, {})
    row = {la.id: i for i, la in enumerate(params)}
    edges = sorted(layer.back_edges, key=lambda be: row.get(be.to_layer, 1 << 30))
    ends = [(body.layer(be.to_layer), body.layer(be.from_layer)) for be in edges]
    # all in one name scope's cluster drawn in the body (`lstm/TensorIterator/`): the ranks are held in it
    # (body-level ranks would draw them outside the scope's box)
    held = {(ctx.outer_cluster.get(la.path), ctx.cluster_scope.get(la.path)) for la in (*params, *results)}
    outer, inner = next(iter(held)) if len(held) == 1 else (None, None)
    scope = outer[1] if outer is not None and outer[0] == inner else None
    special = set(ctx.rows) | set(ctx.hidden_in)
    drawn = [(p, r) for p, r in ends if p is not None and r is not None and p.type == "Parameter" and p.id != r.id
             and not {p.path, r.path} & special]
    if not drawn or len(drawn) != len(ends):
        return edges
    if ctx.opts.rankdir not in ("TB", "LR") or any(la.path in special for la in (*params, *results)):
        # some in port tables or hidden: holding the states in order among themselves in one rank each
        for column in (0, 1):
            names = list(dict.fromkeys(node_id(pair[column]) for pair in drawn))
            with g.subgraph() as same:
                same.attr(rank="same")
                for a, b in pairwise(names):
                    same.edge(a, b, style="invis")
        return edges
    half = len(edges) // 2
    for column, layers, rank in ((0, params, "min"), (1, results, "max")):
        left = [pair[column] for pair in drawn[:half]]
        right = [pair[column] for pair in drawn[half:]]
        middle = [la for la in layers if la not in left and la not in right]
        names = list(dict.fromkeys(node_id(la) for la in (*left, *middle, *right)))
        if ctx.opts.rankdir == "LR":  # dot turns TB's left-to-right order into bottom-to-top
            names.reverse()
        with g.subgraph(name=scope) if scope else nullcontext(g) as cluster, cluster.subgraph() as same:
            same.attr(rank=rank)
            for name in names:
                same.node(name)
            for a, b in pairwise(names):
                same.edge(a, b, style="invis")
    return edges
