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

import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise

import graphviz
import numpy as np
from irlint.viewer import style
from irlint.viewer.buffers import CarriedBuffer, carried_buffers
from irlint.viewer.dot import Digraph, EscString, Html, escape_string, html_text
from irlint.viewer.names import short_names
from irlint.viewer.porttypes import PortTypes
from irlint.viewer.scopes import MIN_LAYERS, Scope, expanded, pinned, scope_tree
from irlint.viewer.tracecheck import split_key

from irlint.controlflow import EntryKind, PlanEntry, loop_plan
from irlint.controlflow.readings import DEFAULT_END, DEFAULT_START, DEFAULT_STRIDE, part_length
from irlint.diagnostics import Diagnostic, Severity
from irlint.ir.model import BackEdge, Branch, Graph, Layer, Model, PortMapEntry
from irlint.layerpath import iteration_label, project_its

NAME_LIMIT, EDGE_NAME_LIMIT = 40, 24  # characters of a layer name in a node label / an edge label
AUTO_COLLAPSE = 1500  # body layers in all above which bodies are drawn collapsed (dot fails at ~3,000)
LEGEND_MAX = 60
PORT_TABLE_AT = 4  # body Parameters (or Results) from which they are drawn as one port table


@dataclass
class DiagramOptions:
    depth: int | None = None  # nesting levels to expand (None: all)
    collapse: bool = False  # draw every TI/Loop as a single node
    rankdir: str = "TB"
    diagnostics: Sequence[Diagnostic] = ()  # --lint
    trace: Mapping[str, np.ndarray] | None = None  # --trace values by key
    iteration: tuple[int, ...] | int | None = None  # outer first, 0-based; inner loops not given: their last
    auto_collapse: int | None = AUTO_COLLAPSE  # None: never collapse automatically
    expand: Sequence[str] = ()  # name scopes drawn as clusters ("all": every one); others are one node
    scope_depth: int | None = None  # name scopes opened down to this nesting level (None: the automatic rule)


@dataclass
class _Ctx:
    opts: DiagramOptions
    model: Model
    collapse: bool = False
    by_layer: dict[str, list[Diagnostic]] = field(default_factory=dict)
    claims: dict[int, list[Diagnostic]] = field(default_factory=dict)  # id(edge/entry/back edge) -> findings
    number: dict[int, int] = field(default_factory=dict)  # id(diagnostic) -> legend number
    ghosts: int = 0
    entry_ghost: dict[int, str] = field(default_factory=dict)  # id(port_map entry) -> its ghost body node
    notes: list[str] = field(default_factory=list)
    trace: dict[str, dict[tuple[int, ...], dict[str, np.ndarray]]] = field(default_factory=dict)
    loops: dict[str, object] = field(default_factory=dict)  # loop path -> LoopInfo (static inference)
    short: dict[str, str] = field(default_factory=dict)  # layer name -> node label (viewer.names)
    port_types: PortTypes | None = None  # made once shape inference has run (or not)
    short_edge: dict[str, str] = field(default_factory=dict)  # layer name -> its name in edge labels
    hidden_in: dict[str, str] = field(default_factory=dict)  # layer path -> node of its collapsed scope
    scope_edges: set[tuple[str, str]] = field(default_factory=set)  # edges drawn to/from collapsed scopes
    scopes: int = 0  # scope clusters and nodes drawn so far (their DOT names)
    rows: dict[str, str] = field(default_factory=dict)  # layer path -> "table:port" of its port-table row
    inferred: Mapping[object, object] = field(default_factory=dict)  # shape inference's tensors by port_key
    in_scope_cluster: set[str] = field(default_factory=set)  # layers drawn inside an expanded scope's cluster
    folded: dict[str, str] = field(default_factory=dict)  # Const path -> its text in the row or port it feeds
    const_scopes: set[str] = field(default_factory=set)  # collapsed scope nodes that hide only Consts
    buffers: dict[str, dict[int, CarriedBuffer]] = field(default_factory=dict)  # loop path -> Parameter id -> buffer


def node_id(layer: Layer) -> str:
    return "L_" + layer.path.replace("/", "_")


def slicing_label(e: PortMapEntry, spec=None) -> str:  # type: ignore[no-untyped-def]
    """The slicing in words. With a resolved spec: the elements of the first and last iteration
    (half-open, so no reading of `end` is needed); without: OpenVINO's reading of the attributes,
    where a negative start/end counts from the end and `end` is inclusive (end=-1: through the last)."""
    if not e.sliced:
        return ""
    part = part_length(e.part_size)
    if spec is not None and spec.iterations:
        first, last = spec.bounds(0), spec.bounds(spec.iterations - 1)

        def span(b: tuple[int, int]) -> str:
            return str(b[0]) if b[1] - b[0] == 1 else f"{b[0]}..{b[1] - 1}"

        order = "reversed, " if spec.reverse else ""
        return f"axis {e.axis}: {order}{spec.iterations} slices, it 0 <- {span(first)} ... it " \
               f"{spec.iterations - 1} <- {span(last)}"
    start = DEFAULT_START if e.start is None else e.start
    end = DEFAULT_END if e.end is None else e.end
    stride = DEFAULT_STRIDE if e.stride is None else e.stride

    def where(v: int, inclusive: bool) -> str:
        if v >= 0:
            return str(v)
        if v == -1:
            return "the last" if inclusive else "last"
        return f"last{v + 1}"

    text = f"axis {e.axis}: from {where(start, False)} through {where(end, True)}, stride {stride}"
    return text + (f", {part} per iteration" if part != 1 else "")


def _const_value(model: Model, layer: Layer) -> str:
    """`= v` for a scalar (one-element) Const: trip counts, conditions, small constants."""
    if layer.type != "Const" or not layer.outputs or layer.outputs[0].shape is None:
        return ""
    port = layer.outputs[0]
    dims = [d.value for d in port.shape]
    if any(d is None for d in dims) or int(np.prod(dims, dtype=np.int64)) != 1 or port.precision is None:
        return ""
    try:
        v = model.weights.array(int(layer.data["offset"]), int(layer.data["size"]), port.precision, tuple(dims))
        x = np.asarray(v).reshape(-1)[0]
    except Exception:  # missing/short .bin, unparsable attributes: the lint rules report those
        return ""
    return f"= {x:.6g}" if np.asarray(v).dtype.kind == "f" else f"= {x.item()}"


def _label(ctx: _Ctx, layer: Layer, extra: str = "") -> str:
    outs = layer.outputs[:2]
    types = ", ".join(_edge_type(ctx, layer, p.id) for p in outs)
    # a Const's name says less than its value and sits beside many others in one rank: the edge length
    short = ctx.short_edge if layer.type == "Const" else ctx.short
    lines = [layer.type, short.get(layer.name, layer.name), f"#{layer.id}" + (f"  {types}" if types else "")]
    value = _const_value(ctx.model, layer)
    if value:
        lines.append(value)
    if layer.body is not None:
        lines.append(_iterations_text(ctx, layer))
    if extra:
        lines.append(extra)
    tags = _tags(ctx, ctx.by_layer.get(layer.path, []))
    if tags:
        lines.append(tags)
    return "\n".join(x for x in lines if x)


def _iterations_text(ctx: _Ctx, layer: Layer) -> str:
    info = ctx.loops.get(layer.path)
    n = getattr(info, "iterations", None)
    if n is not None:
        return f"{n} iteration{'s' if n != 1 else ''}"
    bound = getattr(info, "max_iterations", None)
    return f"at most {bound} iterations" if bound is not None else "iterations: known at run time"


def _tags(ctx: _Ctx, found: list[Diagnostic]) -> str:
    return " ".join(f"[{ctx.number[id(d)]}] {d.code}" for d in found if id(d) in ctx.number)


def _expanded(layer: Layer, level: int, ctx: _Ctx) -> bool:
    o = ctx.opts
    return ((layer.body is not None or bool(layer.branches)) and not o.collapse and not ctx.collapse
            and (o.depth is None or level < o.depth))


def build_diagram(model: Model, opts: DiagramOptions | None = None) -> graphviz.Digraph:
    o = opts or DiagramOptions()
    if isinstance(o.iteration, int):
        o = replace(o, iteration=(o.iteration,))
    ctx = _Ctx(o, model)
    names = [la.name for _g, la in model.layers()]
    ctx.short, ctx.short_edge = short_names(names, NAME_LIMIT), short_names(names, EDGE_NAME_LIMIT)
    body_layers = sum(1 for g, _la in model.layers() if g is not model.graph)
    if o.auto_collapse is not None and body_layers > o.auto_collapse and o.depth is None and not o.collapse:
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
    if o.diagnostics:
        _claim(ctx, model)
    if o.trace is not None:
        _index_trace(ctx, o.trace)
    label = model.path + "".join(f"\n{n}" for n in ctx.notes)
    g = Digraph(model.name or "model", graph_attr={**style.GRAPH, "rankdir": o.rankdir,
                                                            "label": label, "compound": "true"},
                         node_attr=style.NODE, edge_attr=style.EDGE)
    _graph(g, model.graph, ctx, 0, specials={})
    _edges(g, model.graph, ctx, 0)
    if o.diagnostics:
        _legend(g, ctx)
    g.irlint_notes = list(ctx.notes)  # type: ignore[attr-defined]  # for the CLI to print
    return g


# -- findings on elements ----------------------------------------------------------------------------
def _claim(ctx: _Ctx, model: Model) -> None:
    """Number the findings; give those on the line of an edge, port_map entry or back edge to that element."""
    diags = sorted(ctx.opts.diagnostics, key=lambda d: (-d.severity.rank, d.loc.line, d.code))
    for n, d in enumerate(diags[:LEGEND_MAX], 1):
        ctx.number[id(d)] = n
    by_line: dict[int, list[Diagnostic]] = {}
    for d in ctx.opts.diagnostics:
        if d.loc.line:
            by_line.setdefault(d.loc.line, []).append(d)
    claimed: set[int] = set()
    elements: list[object] = []
    for graph in model.graphs():
        elements.extend(graph.edges)
    for _g, layer in model.layers():
        elements.extend(layer.port_map)
        elements.extend(layer.back_edges)
        for b in layer.branches:
            elements.extend(b.port_map)
    for el in elements:
        found = by_line.get(el.loc.line)  # type: ignore[attr-defined]
        if found:
            ctx.claims[id(el)] = found
            claimed.update(id(d) for d in found)
    for d in ctx.opts.diagnostics:
        if d.layer is not None and id(d) not in claimed:
            ctx.by_layer.setdefault(d.layer, []).append(d)


def _finding_style(ctx: _Ctx, found: list[Diagnostic]) -> dict[str, str]:
    worst = max(found, key=lambda d: d.severity.rank).severity.value
    return {"color": style.SEVERITY[worst]["color"], "fontcolor": style.SEVERITY[worst]["color"],
            "penwidth": "2.5", "tooltip": "\n".join(f"{d.code} {d.message}" for d in found)[:2000]}


def _ghost(g: graphviz.Digraph, ctx: _Ctx, text: str) -> str:
    ctx.ghosts += 1
    name = f"ghost_{ctx.ghosts}"
    g.node(name, text, **style.GHOST)
    return name


def _layer_attrs(ctx: _Ctx, layer: Layer, special: str = "") -> dict[str, str]:
    attrs = dict(style.BY_TYPE.get(layer.type, {}))
    attrs["tooltip"] = f"{layer.type} {layer.name} #{layer.path}"  # the whole name: the label may be short
    found = ctx.by_layer.get(layer.path, [])
    if found:
        worst = max(found, key=lambda d: d.severity.rank).severity
        attrs.update(style.SEVERITY[worst.value])
        attrs["tooltip"] += "\n" + "\n".join(f"{d.code} {d.message}" for d in found)[:2000]
    if special:
        attrs.update(style.SPECIAL)
    return attrs


def _graph(g: graphviz.Digraph, graph: Graph, ctx: _Ctx, level: int, specials: Mapping[int, str]) -> None:
    tree = scope_tree(la for la in graph.layers if la.id is not None)
    whole = len(tree.all_layers())
    names: dict[str, str] = {}
    _plan_scopes(tree, ctx, whole, names, 1)
    _absorb_consts(graph, ctx)
    _fold_loop_consts(graph, ctx, level)
    _scope(g, tree, ctx, level, specials, whole, graph, names, 1)


def _plan_scopes(scope: Scope, ctx: _Ctx, whole: int, names: dict[str, str], depth: int) -> None:
    """Decide which scopes are drawn as one node (their node names) and map their layers to them, before
    anything is drawn: a Const is drawn only where a drawn layer takes it (`_absorb_consts`)."""
    expand = [e.strip("/") for e in ctx.opts.expand]
    for child in scope.children.values():
        if len(child.all_layers()) < MIN_LAYERS:
            continue
        if expanded(child, expand, whole, depth, ctx.opts.scope_depth):
            _plan_scopes(child, ctx, whole, names, depth + 1)
        else:
            ctx.scopes += 1
            names[child.path] = f"scope_{ctx.scopes}"
            for layer in child.hidden():
                ctx.hidden_in[layer.path] = names[child.path]


def _absorb_consts(graph: Graph, ctx: _Ctx) -> None:
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


def _fold_loop_consts(graph: Graph, ctx: _Ctx, level: int) -> None:
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
            if dst is None or dst.body is None or dst.branches or not _expanded(dst, level, ctx):
                ok = False
            elif not (dst.type == "Loop" and port in (0, 1)):
                entries = loop_plan(dst).input_for_port(port)
                pars = [dst.body.layer(pe.body_layer) for pe in entries]
                ok = ok and bool(pars) and all(p is not None and _port_tables_drawn(dst) for p in pars)
        value = _const_value(ctx.model, layer) if ok else ""
        if value:
            ctx.folded[layer.path] = f"{value} from {ctx.short_edge.get(layer.name, layer.name)}"


def _port_tables_drawn(loop: Layer) -> bool:
    """Whether the body's Parameters and Results are drawn as port tables (either side has many)."""
    assert loop.body is not None
    counts = [sum(1 for la in loop.body.layers if la.type == t and la.id is not None) for t in ("Parameter", "Result")]
    return max(counts) >= PORT_TABLE_AT


def _scope(g: graphviz.Digraph, scope: Scope, ctx: _Ctx, level: int, specials: Mapping[int, str], whole: int,
           graph: Graph, names: Mapping[str, str], depth: int) -> None:
    """A scope's own layers, then each sub-scope: flat when small, a cluster when expanded, else one
    node standing for its layers (Parameters, Results and TI/Loop/If layers stay drawn beside it)."""
    _layers(g, scope.layers, ctx, level, specials)
    for child in scope.children.values():
        if len(child.all_layers()) < MIN_LAYERS:
            _layers(g, child.all_layers(), ctx, level, specials)
        elif child.path not in names:
            ctx.scopes += 1
            ctx.in_scope_cluster.update(la.path for la in child.all_layers())
            with g.subgraph(name=f"cluster_scope_{ctx.scopes}") as sub:
                sub.attr(label=_scope_label(child.path, scope.path), tooltip=child.path, **style.SCOPE)
                _scope(sub, child, ctx, level, specials, whole, graph, names, depth + 1)
        else:
            _collapsed_scope(g, child, scope.path, ctx, level, specials, graph, names[child.path])


def _scope_label(path: str, parent: str) -> str:
    """A scope's path below its parent's, shortened like a layer name."""
    rel = path[len(parent) + 1:] if parent and path.startswith(parent + "/") else path
    return short_names([rel], NAME_LIMIT)[rel] + "/"


def _collapsed_scope(g: graphviz.Digraph, scope: Scope, parent: str, ctx: _Ctx, level: int,
                     specials: Mapping[int, str], graph: Graph, name: str) -> None:
    hidden = [la for la in graph.layers if ctx.hidden_in.get(la.path) == name]  # with the Consts it absorbed
    if all(la.type == "Const" for la in hidden):
        ctx.const_scopes.add(name)
    found = [d for la in hidden for d in ctx.by_layer.get(la.path, [])]
    attrs = dict(style.COLLAPSED_SCOPE)
    if found:
        worst = max(found, key=lambda d: d.severity.rank).severity
        attrs.update(style.SEVERITY[worst.value])
    types = sorted({la.type for la in hidden if la.type != "Const"})
    summary = ", ".join(types[:4]) + (", ..." if len(types) > 4 else "")
    tags = _tags(ctx, found)
    label = _join(_scope_label(scope.path, parent), f"{len(hidden)} layers (--expand {scope.path})", summary, tags)
    tip = "\n".join(f"{la.type} {la.name} #{la.path}" for la in hidden[:200])
    g.node(name, label, tooltip=f"scope {scope.path}\n{tip}"[:4000], **attrs)
    _layers(g, [la for la in scope.all_layers() if pinned(la)], ctx, level, specials)


def _layers(g: graphviz.Digraph, layers: Sequence[Layer], ctx: _Ctx, level: int,
            specials: Mapping[int, str]) -> None:
    for layer in layers:
        if layer.id is None or layer.path in ctx.rows or layer.path in ctx.hidden_in or layer.path in ctx.folded:
            continue  # drawn as a row of its body's port table, or hidden in a collapsed scope
        if _expanded(layer, level, ctx) and layer.branches:
            _if_cluster(g, layer, ctx, level)
        elif _expanded(layer, level, ctx):
            _cluster(g, layer, ctx, level)
        else:
            extra = specials.get(layer.id, "")
            buffer = _buffer_of(ctx, layer)
            attrs = _layer_attrs(ctx, layer, extra)
            if buffer is not None and not ctx.by_layer.get(layer.path):
                attrs.update(style.BUFFER)
            g.node(node_id(layer), _label(ctx, layer, _join(extra, buffer.describe() if buffer else "")), **attrs)


def _buffer_of(ctx: _Ctx, layer: Layer) -> CarriedBuffer | None:
    """The carried buffer a body Parameter holds (viewer.buffers), if it holds one."""
    if layer.type != "Parameter" or "/body/" not in layer.path or layer.id is None:
        return None
    return ctx.buffers.get(layer.path.rsplit("/body/", 1)[0], {}).get(layer.id)


def _cluster(g: graphviz.Digraph, layer: Layer, ctx: _Ctx, level: int) -> None:
    assert layer.body is not None
    specials: dict[int, str] = {}
    for pe in loop_plan(layer).of(EntryKind.CURRENT_ITERATION, EntryKind.CONDITION_OUTPUT):
        if pe.body_layer is not None:
            specials[pe.body_layer] = f"({pe.entry.purpose})"
    with g.subgraph(name="cluster_" + node_id(layer)) as sub:
        attrs = dict(style.CLUSTER)
        found = ctx.by_layer.get(layer.path, [])
        if found:
            worst = max(found, key=lambda d: d.severity.rank).severity
            attrs["color"] = style.SEVERITY[worst.value]["color"]
            attrs["penwidth"] = "2"
            attrs["tooltip"] = "\n".join(f"{d.code} {d.message}" for d in found)[:2000]
        tags = _tags(ctx, found)
        sub.attr(label=f"{layer.type} '{layer.name}' #{layer.id}, {_iterations_text(ctx, layer)}"
                       + (f"\n{tags}" if tags else ""), **attrs)
        if layer.type == "Loop" and not _port_tables_drawn(layer):  # else rows of the port table
            for pid, text in ((0, "trip count"), (1, "execution condition")):
                if layer.input(pid) is not None:
                    value = _special_value(ctx, layer, pid)
                    sub.node(f"{node_id(layer)}_in{pid}", f"{text}\n(port {pid}){value}", **style.SPECIAL_PORT)
        _port_tables(sub, layer, ctx, specials)
        _graph(sub, layer.body, ctx, level + 1, specials)
        _edges(sub, layer.body, ctx, level + 1)
        _back_edges(sub, layer, ctx, level)
        _dangling_entries(g, sub, layer, ctx, level)
        _results_last(sub, layer, ctx, level)


def _results_last(g: graphviz.Digraph, layer: Layer, ctx: _Ctx, level: int) -> None:
    """Put a body's Results table below everything else of the body (an invisible edge from each drawn
    node): the outer layers its outputs feed are then ranked below the body, not beside it."""
    table = f"{node_id(layer)}_outputs"
    if layer.body is None or not any(v.startswith(table + ":") for v in ctx.rows.values()):
        return
    drawn: dict[str, None] = {}
    for la in layer.body.layers:
        if la.id is None or la.path in ctx.rows or la.path in ctx.folded or _expanded(la, level + 1, ctx):
            continue
        drawn[ctx.hidden_in.get(la.path, node_id(la))] = None
    for name in drawn:
        g.edge(name, table, style="invis")


def _port_order(layer: Layer, specials: Mapping[int, str]) -> tuple[list[Layer], list[Layer]]:
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


def _port_tables(g: graphviz.Digraph, layer: Layer, ctx: _Ctx, specials: Mapping[int, str]) -> None:
    """A body with many Parameters or Results draws each side as one table with a row per layer (edges
    attach to the rows): side by side, six Parameters with names of 40 characters make a body thousands of pixels
    wide, stacked they take one column."""
    params, results = _port_order(layer, specials)
    if not _port_tables_drawn(layer):
        return
    assert layer.body is not None
    buffers = ctx.buffers.get(layer.path, {})
    plan = loop_plan(layer)
    feeds = _loop_inputs(ctx, layer)
    for what, layers in (("inputs", params), ("outputs", results)):
        if not layers:
            continue
        name = f"{node_id(layer)}_{what}"
        cells = [f'<TR><TD BORDER="0" ALIGN="LEFT"><B>body {"Parameters" if what == "inputs" else "Results"}'
                 "</B></TD></TR>"]
        if what == "inputs" and layer.type == "Loop":  # the trip count and condition ports come first
            for pid, text in ((0, "trip count"), (1, "execution condition")):
                if layer.input(pid) is not None:
                    value = _special_value(ctx, layer, pid).strip().replace("\n", " ")
                    cells.append(f'<TR><TD PORT="in{pid}" ALIGN="LEFT" BGCOLOR="{style.SPECIAL_PORT["fillcolor"]}">'
                                 f'{html_text(_join_line(f"{text} (port {pid})", value))}</TD></TR>')
        for la in layers:
            special = specials.get(la.id, "")  # type: ignore[arg-type]
            attrs = _layer_attrs(ctx, la, special)
            etype = _edge_type(ctx, la, la.outputs[0].id) if la.outputs else _result_type(ctx, layer.body, la)
            buffer = buffers.get(la.id)  # type: ignore[arg-type]
            role = "; ".join(_entry_text(ctx, layer, pe) + (f" (port {pe.port})" if pe.port is not None else "")
                             + _folded_into(ctx, feeds, pe.port if pe.entry.direction == "input" else None)
                             for pe in plan.entries if pe.body_layer == la.id and _entry_text(ctx, layer, pe))
            # the back edges' pairs in words: their lines run close together along the tables' side
            loops = ", ".join(f"back edge from #{be.from_layer}" if la.type == "Parameter" else
                              f"back edge to #{be.to_layer}" for be in layer.back_edges
                              if (be.to_layer if la.type == "Parameter" else be.from_layer) == la.id)
            lines = [f"#{la.id}  {ctx.short.get(la.name, la.name)}",
                     _join_line(etype, special, role),
                     _join_line(loops, buffer.describe() if buffer else "", _tags(ctx, ctx.by_layer.get(la.path, [])))]
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


def _folded_into(ctx: _Ctx, feeds: Mapping[int | None, Layer], port: int | None) -> str:
    """` = 0 from NAME` for the folded Const feeding outer input `port` (`feeds`: the loop's inputs)."""
    src = feeds.get(port)
    return f" {ctx.folded[src.path]}" if src is not None and src.path in ctx.folded else ""


def _loop_inputs(ctx: _Ctx, loop: Layer) -> dict[int | None, Layer]:
    """The outer layer feeding each input port of `loop`."""
    graph = next((g for g, la in ctx.model.layers() if la is loop), None)
    if graph is None:
        return {}
    out: dict[int | None, Layer] = {}
    for e in graph.edges:
        src = graph.layer(e.from_layer) if e.to_layer == loop.id else None
        if src is not None:
            out.setdefault(e.to_port, src)
    return out


def _result_type(ctx: _Ctx, body: Graph, result: Layer) -> str:
    edge = next((e for e in body.edges if e.to_layer == result.id), None)
    src = body.layer(edge.from_layer) if edge is not None else None
    return _edge_type(ctx, src, edge.from_port) if src is not None and edge is not None else ""


def _join_line(*parts: str) -> str:
    return "  ".join(x for x in parts if x)


def _taken(ctx: _Ctx, layer: Layer, name: str, depth: int) -> bool:
    """Whether the trace shows the If's `name` branch running (at the requested outer loop iterations, if
    given): its layers' keys carry the enclosing iterations plus the If's own 0."""
    prefix = f"{layer.path}/{name}_body/"
    want = ctx.opts.iteration
    for path, recorded in ctx.trace.items():
        if path.startswith(prefix) and path.count("/") == prefix.count("/"):
            for it in recorded:
                if len(it) != depth + 1:
                    continue
                loops = project_its(it[:depth], layer.path)
                if want is None or loops == tuple(want)[:len(loops)]:
                    return True
    return False


def _if_cluster(g: graphviz.Digraph, layer: Layer, ctx: _Ctx, level: int) -> None:
    """An If: its condition port and a cluster per branch, the taken one marked when a trace says so."""
    with g.subgraph(name="cluster_" + node_id(layer)) as sub:
        attrs = dict(style.CLUSTER)
        found = ctx.by_layer.get(layer.path, [])
        if found:
            worst = max(found, key=lambda d: d.severity.rank).severity
            attrs.update(color=style.SEVERITY[worst.value]["color"], penwidth="2",
                         tooltip="\n".join(f"{d.code} {d.message}" for d in found)[:2000])
        tags = _tags(ctx, found)
        sub.attr(label=f"{layer.type} '{layer.name}' #{layer.id}" + (f"\n{tags}" if tags else ""), **attrs)
        if layer.input(0) is not None:
            sub.node(f"{node_id(layer)}_in0", f"condition\n(port 0){_special_value(ctx, layer, 0)}",
                     **style.SPECIAL_PORT)
        for b in layer.branches:
            with sub.subgraph(name=f"cluster_{node_id(layer)}_{b.name}") as inner:
                taken = bool(ctx.trace) and _taken(ctx, layer, b.name, level)
                inner.attr(label=f"{b.name}" + (" (taken)" if taken else ""),
                           **{**style.CLUSTER, **(style.TAKEN_BRANCH if taken else {})})
                _graph(inner, b.body, ctx, level + 1, {})
                _edges(inner, b.body, ctx, level + 1)
                _dangling_entries(g, inner, layer, ctx, level, b)


def _special_value(ctx: _Ctx, loop: Layer, port: int) -> str:
    graph = next((g for g, la in ctx.model.layers() if la is loop), None)
    if graph is None:
        return ""
    edge = next((e for e in graph.edges if e.to_layer == loop.id and e.to_port == port), None)
    src = graph.layer(edge.from_layer) if edge is not None else None
    if src is not None and src.path in ctx.folded:
        return "\n" + ctx.folded[src.path]
    value = _const_value(ctx.model, src) if src is not None else ""
    return f"\n{value}" if value else ""


def _back_edges(sub: graphviz.Digraph, layer: Layer, ctx: _Ctx, level: int) -> None:
    assert layer.body is not None
    # Back edges leave and enter on the side: the first half (in body order, which is roughly their
    # left-to-right order) on the left, the rest on the right, so two state loops do not cross.
    sides = ("w", "e") if ctx.opts.rankdir == "TB" else ("n", "s")
    half = len(layer.back_edges) // 2
    edges = _state_order(sub, layer, ctx)
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
            attrs.update(_finding_style(ctx, found))
            label += "\n" + _tags(ctx, found)
        carried = _trace_value(ctx, src, None, level + 1, "out") if src is not None else _Value()
        if carried.text:
            label += f"\ncarried: {carried.text}"
            attrs["tooltip"] = carried.tip
        a = _endpoint(src, ctx, level + 1, "out") if src is not None else \
            _ghost(sub, ctx, f"missing layer #{be.from_layer}\n(back edge from-layer)")
        b = _endpoint(dst, ctx, level + 1, "in") if dst is not None else \
            _ghost(sub, ctx, f"missing layer #{be.to_layer}\n(back edge to-layer)")
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


def _state_order(g: graphviz.Digraph, layer: Layer, ctx: _Ctx) -> list[BackEdge]:
    """The back edges in the left-to-right order of their Parameters (the port map's order), with the
    Parameters, and the Results they come from, held in that order in one rank each (invisible edges):
    left to right, the first half drawn on the left side and the rest on the right then never cross,
    whatever order dot would have chosen to shorten other edges (it swapped the h and c of OpenVINO's
    own v10 LSTM TensorIterator test IR)."""
    assert layer.body is not None
    body = layer.body
    params, _results = _port_order(layer, {})
    row = {la.id: i for i, la in enumerate(params)}
    edges = sorted(layer.back_edges, key=lambda be: row.get(be.to_layer, 1 << 30))
    ends = [(body.layer(be.to_layer), body.layer(be.from_layer)) for be in edges]
    drawn = [(p, r) for p, r in ends if p is not None and r is not None and p.type == "Parameter"
             and p.id != r.id and not {p.path, r.path} & (set(ctx.rows) | set(ctx.hidden_in) | ctx.in_scope_cluster)]
    if len(drawn) < 2 or len(drawn) != len(ends):
        return edges
    for column in (0, 1):
        names = list(dict.fromkeys(node_id(pair[column]) for pair in drawn))
        with g.subgraph() as same:
            same.attr(rank="same")
            for a, b in pairwise(names):
                same.edge(a, b, style="invis")
    return edges


def _branch_ends(layer: Layer, ctx: _Ctx, level: int, direction: str, port: int | None
                 ) -> list[tuple[str, str, PortMapEntry | None, str]]:
    """Where an outer edge on `port` of an expanded If continues inside: each branch's body Parameter
    (`direction` "input") or Result ("output") that its port map names, labelled with the branch, or
    the entry's ghost node when the layer is missing."""
    side, missing = ("in", "to a missing layer") if direction == "input" else ("out", "from a missing layer")
    ends: list[tuple[str, str, PortMapEntry | None, str]] = []
    for b in layer.branches:
        for entry in b.port_map:
            if entry.direction != direction or entry.external_port_id != port:
                continue
            inner = b.body.layer(entry.internal_layer_id)
            ghost = ctx.entry_ghost.get(id(entry))
            if inner is not None:
                note = _trace_value(ctx, inner, None, level + 1, side).named(ctx.short_edge.get(inner.name, inner.name))
                ends.append((_endpoint(inner, ctx, level + 1, side), _join(b.name, note.text), entry, note.tip))
            elif ghost is not None:
                ends.append((ghost, f"{b.name}: {missing}", entry, ""))
    return ends


def _dangling_entries(g: graphviz.Digraph, sub: graphviz.Digraph, layer: Layer, ctx: _Ctx, level: int,
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
        attrs = {**style.PORT_MAP, **(_finding_style(ctx, found) if found else {}), "style": "dashed"}
        tags = _tags(ctx, found)
        inner_id = _endpoint(inner, ctx, level + 1, "in" if e.direction == "input" else "out") if inner else \
            _ghost(sub, ctx, f"missing {inner_word} layer #{e.internal_layer_id}\n({what} {e.direction})")
        if outer_ok:
            ctx.entry_ghost[id(e)] = inner_id  # the outer side is drawn by _edges: it ends at this ghost
            continue
        outer_id = _ghost(g, ctx, f"no {port_word} {e.external_port_id} on #{layer.id}\n({what} {e.direction})")
        a, b = (outer_id, inner_id) if e.direction == "input" else (inner_id, outer_id)
        g.edge(a, b, label=f"{what} {e.direction}" + (f"\n{tags}" if tags else ""), **attrs)


def _endpoint(layer: Layer, ctx: _Ctx, level: int, side: str) -> str:
    """The node an edge attaches to: the layer (or the collapsed scope hiding it), or for an expanded
    TI/Loop its first body node."""
    if layer.path in ctx.rows:
        return _row(ctx, layer, side)
    if layer.path in ctx.hidden_in:
        return ctx.hidden_in[layer.path]
    if _expanded(layer, level, ctx):
        first = layer.subgraphs()[0]
        inner = next((la for la in first.layers if la.id is not None), None)
        if inner is not None:
            return _endpoint(inner, ctx, level + 1, side)
    return node_id(layer)


def _row(ctx: _Ctx, layer: Layer, side: str) -> str:
    """A port-table row with the side an edge uses: Parameters take edges in on the left (from outside
    and the back edges) and give them to the body on the right; Results take the body's on the right
    and give theirs (port map, back edges) on the left. Left to right (LR) every row flows left to right."""
    if ctx.opts.rankdir == "LR":
        return ctx.rows[layer.path] + (":w" if side == "in" else ":e")
    outward = (side == "in") == (layer.type == "Parameter")
    return ctx.rows[layer.path] + (":w" if outward else "")


def _ref(ctx: _Ctx, layer: Layer, side: str) -> str:
    """The drawn node of a layer that is not an expanded TI/Loop/If: its port-table row, its collapsed
    scope, or itself."""
    if layer.path in ctx.rows:
        return _row(ctx, layer, side)
    return ctx.hidden_in.get(layer.path, node_id(layer))


# -- trace values ------------------------------------------------------------------------------------
def _index_trace(ctx: _Ctx, trace: Mapping[str, np.ndarray]) -> None:
    for key, value in trace.items():
        parts = split_key(key)
        if parts is not None:
            path, it, what = parts
            ctx.trace.setdefault(path, {}).setdefault(it, {})[what] = value


@dataclass(frozen=True)
class _Value:
    """A traced value as an edge shows it: a short label line and the whole tensor for the tooltip."""

    text: str = ""
    tip: str = ""

    def named(self, name: str) -> _Value:
        """Prefixed with (the short name of) the body layer it is about ('h_prev it 3: ...'), so that a
        port-map edge says which end of the iteration the value belongs to."""
        return replace(self, text=f"{name} {self.text}") if self.text else self


# Which iteration of the innermost loop a value is taken from: the requested one, the first (what an
# initial-value edge carries) or the last (what a last-value output delivers).
REQUESTED, FIRST, LAST = "requested", "first", "last"
TIP_ELEMENTS = 1000  # a tooltip prints at most this many elements, then numpy's summary


def _trace_value(ctx: _Ctx, layer: Layer, port: int | None, depth: int, what: str | None = None,
                 pick: str = REQUESTED) -> _Value:
    """The value `layer` produced at the requested iteration, for a layer `depth` loops deep.

    The requested iteration gives the outer loops first; a deeper loop not given shows its last
    recorded iteration, and the label always says which full iteration it is. FIRST and LAST keep
    the requested outer iterations and take the innermost loop's first or last iteration."""
    want = ctx.opts.iteration
    if want is None or not ctx.trace:
        return _Value()
    assert isinstance(want, tuple)
    recorded = ctx.trace.get(layer.path)
    if not recorded:
        return _Value()
    # the requested iteration counts loops (outer first; an If's frame is its branch, no number to give);
    # FIRST/LAST leave the innermost loop's number free
    free = 0 if pick == REQUESTED else 1
    candidates = []
    for it in recorded:
        if len(it) == depth:
            loops = project_its(it, layer.path)
            fixed = loops[:max(len(loops) - free, 0)]
            if fixed[:len(want)] == want[:len(fixed)]:
                candidates.append(it)
    if not candidates:
        return _Value()
    it = max(candidates)
    if pick == FIRST and it:
        it = min(c for c in candidates if c[:-1] == it[:-1])
    keys = [what] if what else ["in", "out", f"out{port}"] if layer.type in ("Parameter", "Result") \
        else [f"out{port}"]
    value = next((recorded[it][k] for k in keys if k in recorded[it]), None)
    if value is None:
        return _Value()
    v = np.asarray(value)
    at = f"it {iteration_label(it, layer.path)}" if it else "value"
    tip = f"{layer.name} {at}: {v.dtype}{list(v.shape)}\n" + np.array2string(
        v, precision=6, threshold=TIP_ELEMENTS, max_line_width=100)
    if v.size <= 4:
        return _Value(f"{at}: {np.array2string(v.reshape(-1), precision=3)}", tip)
    f = v.astype(np.float64)
    return _Value(f"{at}: {list(v.shape)} [{np.nanmin(f):.3g}, {np.nanmax(f):.3g}]", tip)


def _edge_value(ctx: _Ctx, graph: Graph, src: Layer, port: int | None, dst: Layer, level: int) -> _Value:
    """What flows on an edge: the producer's recorded output, or, when only a trace of Parameters and
    Results was taken, the value of the Result the edge feeds (the same tensor)."""
    value = _trace_value(ctx, src, port, level)
    if not value.text and dst.type == "Result":
        value = _trace_value(ctx, dst, None, level, "out")
    return value


def _edge_type(ctx: _Ctx, layer: Layer, port: int | None) -> str:
    """Element type and shape of an output port (`viewer.porttypes`: shape inference's type where the
    IR leaves `precision` off)."""
    p = next((p for p in layer.outputs if p.id == port), None)
    if p is None:
        return ""
    if ctx.port_types is None:
        ctx.port_types = PortTypes(ctx.model, ctx.inferred)
    return ctx.port_types.output_label(layer, p)


def _join(*parts: str) -> str:
    return "\n".join(x for x in parts if x)


def _edges(g: graphviz.Digraph, graph: Graph, ctx: _Ctx, level: int) -> None:
    for e in graph.edges:
        src, dst = graph.layer(e.from_layer), graph.layer(e.to_layer)
        if src is not None and src.path in ctx.folded:
            continue  # its value is written where it goes
        found = ctx.claims.get(id(e), [])
        extra = _finding_style(ctx, found) if found else {}
        tags = _tags(ctx, found)
        ports = {"taillabel": "" if e.from_port is None else str(e.from_port),
                 "headlabel": "" if e.to_port is None else str(e.to_port), **style.PORT_LABEL}
        if src is None or dst is None:
            a = _endpoint(src, ctx, level, "out") if src is not None else \
                _ghost(g, ctx, f"missing layer #{e.from_layer}\n(edge from-layer)")
            b = _endpoint(dst, ctx, level, "in") if dst is not None else \
                _ghost(g, ctx, f"missing layer #{e.to_layer}\n(edge to-layer)")
            g.edge(a, b, label=_join("edge", tags), **{**ports, **extra, "style": "dashed"})
            continue
        src_exp, dst_exp = _expanded(src, level, ctx), _expanded(dst, level, ctx)
        note = _edge_value(ctx, graph, src, e.from_port, dst, level)
        etype = _edge_type(ctx, src, e.from_port)
        if src.path in ctx.rows or dst.path in ctx.rows:
            etype = ""  # the port-table row shows it (one label less to place in the row's rank)
        a, b = ctx.hidden_in.get(src.path), ctx.hidden_in.get(dst.path)
        if (a or b) and not src_exp and not dst_exp:
            # To, from or inside a collapsed scope: one edge per pair of drawn nodes, none inside.
            ends = (a or _ref(ctx, src, "out"), b or _ref(ctx, dst, "in"))
            if a != b and ends not in ctx.scope_edges:
                ctx.scope_edges.add(ends)
                # a scope of constants only ranks nowhere in particular: it is placed at the top
                # rather than in the row of its consumer, where it would widen the drawing
                free = {"constraint": "false"} if a and a in ctx.const_scopes else {}
                g.edge(*ends, label=_join(etype, tags), **{**extra, **free})
            continue
        if not src_exp and not dst_exp:
            tip = {"tooltip": note.tip} if note.tip else {}
            g.edge(_ref(ctx, src, "out"), _ref(ctx, dst, "in"), label=_join(etype, note.text, tags),
                   **{**ports, **extra, **tip})
            continue
        # Into an expanded TI/Loop: to the body Parameter its port_map names (or the Loop's special port).
        targets: list[tuple[str, str, PortMapEntry | None, str]] = []
        if dst_exp and dst.branches:
            if e.to_port == 0:
                targets.append((f"{node_id(dst)}_in0", "", None, ""))
            targets += _branch_ends(dst, ctx, level, "input", e.to_port)
        elif dst_exp:
            assert dst.body is not None
            if dst.type == "Loop" and e.to_port in (0, 1):
                special = f"{node_id(dst)}_inputs:in{e.to_port}:w" if _port_tables_drawn(dst) else \
                    f"{node_id(dst)}_in{e.to_port}"
                targets.append((special, "", None, ""))
            for pe in loop_plan(dst).input_for_port(e.to_port):
                entry = pe.entry
                par = dst.body.layer(entry.internal_layer_id)
                ghost = ctx.entry_ghost.get(id(entry))
                if par is not None:
                    merged = pe.kind is EntryKind.MERGED_INPUT
                    # in a port table the row says it
                    kind = "" if par.path in ctx.rows else _entry_text(ctx, dst, pe)
                    inner = _trace_value(ctx, par, None, level + 1, "in", FIRST if merged else REQUESTED)
                    inner = inner.named(ctx.short_edge.get(par.name, par.name))
                    targets.append((_endpoint(par, ctx, level + 1, "in"), _join(kind, inner.text), entry, inner.tip))
                elif ghost is not None:
                    targets.append((ghost, "to a missing body layer", entry, ""))
        else:
            targets.append((_ref(ctx, dst, "in"), "", None, ""))
        sources: list[tuple[str, str, PortMapEntry | None, str]] = []
        if src_exp and src.branches:
            sources += _branch_ends(src, ctx, level, "output", e.from_port)
        elif src_exp:
            assert src.body is not None
            for pe in loop_plan(src).data_outputs:
                if pe.port != e.from_port:
                    continue
                entry = pe.entry
                res = src.body.layer(entry.internal_layer_id)
                ghost = ctx.entry_ghost.get(id(entry))
                if res is not None:
                    concat = pe.kind is EntryKind.CONCAT_OUTPUT
                    kind = "" if res.path in ctx.rows else _entry_text(ctx, src, pe)
                    inner = _trace_value(ctx, res, None, level + 1, "out", REQUESTED if concat else LAST)
                    inner = inner.named(ctx.short_edge.get(res.name, res.name))
                    sources.append((_endpoint(res, ctx, level + 1, "out"), _join(kind, inner.text), entry, inner.tip))
                elif ghost is not None:
                    sources.append((ghost, "from a missing body layer", entry, ""))
        else:
            sources.append((_ref(ctx, src, "out"), note.text, None, note.tip))
        # A port of the TI/Loop with no port_map entry: the edge still shows, from/to a ghost node.
        for exp, side, port, items in ((dst_exp, dst, e.to_port, targets), (src_exp, src, e.from_port, sources)):
            if exp and not items:
                on_port = [d for d in ctx.by_layer.get(side.path, []) if d.port == port]
                ghost = _ghost(g, ctx, f"port {port} of #{side.id}:\nno port_map entry")
                items.append((ghost, "", None, ""))
                found = found + [d for d in on_port if d not in found]
        for s_node, s_kind, s_entry, s_tip in sources:
            for t_node, t_kind, t_entry, t_tip in targets:
                entry_found = [*ctx.claims.get(id(s_entry), []), *ctx.claims.get(id(t_entry), [])]
                all_found = found + [d for d in entry_found if d not in found]
                attrs = {**style.PORT_MAP, **ports, **(_finding_style(ctx, all_found) if all_found else {})}
                tip = "\n\n".join(t for t in (s_tip, t_tip) if t)
                if tip:
                    attrs["tooltip"] = tip
                # a port-table row shows the type and what the port map does; the edge names the port
                shown = f"port {e.to_port if t_entry is not None else e.from_port}" if ":" in s_node + t_node else etype
                g.edge(s_node, t_node, label=_join(shown, s_kind, t_kind, _tags(ctx, all_found)), **attrs)


def _entry_text(ctx: _Ctx, loop: Layer, pe: PlanEntry) -> str:
    """What a port_map entry does, in words: the slicing, "initial value (iteration 0 only)" (a merged
    input's outer value feeds iteration 0 only; later ones arrive over the back edge, which shows
    them), "invariant", "concat axis N" (every iteration's part) or "last value" (the last iteration's)."""
    if pe.kind is EntryKind.SLICED_INPUT:
        info = ctx.loops.get(loop.path)
        spec = next((s.spec for s in getattr(info, "slicing", []) if s.entry is pe.entry), None)
        return slicing_label(pe.entry, spec)
    if pe.kind is EntryKind.MERGED_INPUT:
        return "initial value (iteration 0 only)"
    if pe.kind is EntryKind.INVARIANT_INPUT:
        return "invariant"
    if pe.kind is EntryKind.CONCAT_OUTPUT:
        return f"concat axis {pe.entry.axis}" + (" (reversed)" if pe.reversed else "")
    if pe.kind is EntryKind.LAST_VALUE_OUTPUT:
        return "last value"
    return ""


def _legend(g: graphviz.Digraph, ctx: _Ctx) -> None:
    """Numbered findings (code, severity, line, message) as a box the PNG shows, plus the colour key."""
    diags = sorted(ctx.opts.diagnostics, key=lambda d: ctx.number.get(id(d), 1 << 30))
    lines = []
    for d in diags[:LEGEND_MAX]:
        text = f"[{ctx.number[id(d)]}] {d.code} {d.severity.value} line {d.loc.line}: {d.message}"
        lines.extend(textwrap.wrap(text, 100, subsequent_indent="      ") or [text])
    if len(diags) > LEGEND_MAX:
        lines.append(f"... and {len(diags) - LEGEND_MAX} more (irlint {ctx.model.path})")
    body = EscString("".join(escape_string(line) + "\\l" for line in lines))
    with g.subgraph(name="cluster_legend") as sub:
        sub.attr(label=f"findings ({len(diags)})", **style.CLUSTER)
        sub.node("legend_findings", body or "none", **style.LEGEND)
        for sev in Severity:
            sub.node(f"legend_{sev.value}", sev.value, **style.SEVERITY[sev.value])
        sub.node("legend_back_edge_a", "Result", **style.BY_TYPE["Result"])
        sub.node("legend_back_edge_b", "Parameter", **style.BY_TYPE["Parameter"])
        sub.edge("legend_back_edge_b", "legend_back_edge_a", label="back edge (no finding)", dir="back",
                 **style.BACK_EDGE)
