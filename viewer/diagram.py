"""Build a graphviz diagram of an IR model: bodies as nested clusters, port maps and back edges drawn.

`build_diagram` returns a `graphviz.Digraph` (rendering is the caller's choice, as in torchviz).
Port-map edges run from the outer producer into the body Parameter (labelled with the slicing or
"initial value"/"invariant") and from the body Result to the outer consumer ("concat axis N" or
"last value"); back edges are dashed, coloured and `constraint=false`. A collapsed (or too deep)
TensorIterator/Loop is one node instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import graphviz
import numpy as np
from irlint.viewer import style

from irlint.diagnostics import Diagnostic, Severity
from irlint.ir.model import Graph, Layer, Model, PortMapEntry
from irlint.types import format_shape

CONTROL_FLOW = ("TensorIterator", "Loop")


@dataclass
class DiagramOptions:
    depth: int | None = None  # nesting levels to expand (None: all)
    collapse: bool = False  # draw every TI/Loop as a single node
    rankdir: str = "TB"
    diagnostics: Sequence[Diagnostic] = ()  # --lint
    trace: Mapping[str, np.ndarray] | None = None  # --trace values by key
    iteration: int | None = None


@dataclass
class _Ctx:
    opts: DiagramOptions
    by_layer: dict[str, list[Diagnostic]] = field(default_factory=dict)


def node_id(layer: Layer) -> str:
    return "L_" + layer.path.replace("/", "_")


def slicing_label(e: PortMapEntry) -> str:
    if not e.sliced:
        return ""
    start = e.attrs.get("start", "0")
    end = e.attrs.get("end", "-1")
    stride = e.attrs.get("stride", "1")
    part = e.attrs.get("part_size", "1")
    text = f"axis {e.axis} [{start}:{end}:{stride}]"
    return text + (f" part {part}" if part != "1" else "")


def _label(layer: Layer, extra: str = "") -> str:
    shapes = ", ".join(format_shape(p.shape) for p in layer.outputs[:2])
    lines = [layer.type, layer.name[:40], f"#{layer.id}" + (f"  {shapes}" if shapes else "")]
    if extra:
        lines.append(extra)
    return "\n".join(lines)


def _expanded(layer: Layer, level: int, opts: DiagramOptions) -> bool:
    return layer.body is not None and not opts.collapse and (opts.depth is None or level < opts.depth)


def build_diagram(model: Model, opts: DiagramOptions | None = None) -> graphviz.Digraph:
    o = opts or DiagramOptions()
    ctx = _Ctx(o)
    for d in o.diagnostics:
        if d.layer is not None:
            ctx.by_layer.setdefault(d.layer, []).append(d)
    g = graphviz.Digraph(model.name or "model", graph_attr={**style.GRAPH, "rankdir": o.rankdir,
                                                            "label": model.path, "compound": "true"},
                         node_attr=style.NODE, edge_attr=style.EDGE)
    _graph(g, model.graph, ctx, 0, specials={})
    _edges(g, model.graph, ctx, 0)
    if o.diagnostics:
        _legend(g)
    return g


def _layer_attrs(ctx: _Ctx, layer: Layer, special: str = "") -> dict[str, str]:
    attrs = dict(style.BY_TYPE.get(layer.type, {}))
    found = ctx.by_layer.get(layer.path, [])
    if found:
        worst = max(found, key=lambda d: d.severity.rank).severity
        attrs.update(style.SEVERITY[worst.value])
        attrs["tooltip"] = "\n".join(f"{d.code} {d.message}" for d in found)[:2000]
    if special:
        attrs.update(style.SPECIAL)
    return attrs


def _graph(g: graphviz.Digraph, graph: Graph, ctx: _Ctx, level: int, specials: Mapping[int, str]) -> None:
    for layer in graph.layers:
        if layer.id is None:
            continue
        if _expanded(layer, level, ctx.opts):
            _cluster(g, layer, ctx, level)
        else:
            extra = specials.get(layer.id, "")
            g.node(node_id(layer), _label(layer, extra), **_layer_attrs(ctx, layer, extra))


def _cluster(g: graphviz.Digraph, layer: Layer, ctx: _Ctx, level: int) -> None:
    assert layer.body is not None
    specials: dict[int, str] = {}
    for e in layer.port_map:
        if e.purpose and e.internal_layer_id is not None:
            specials[e.internal_layer_id] = f"({e.purpose})"
    with g.subgraph(name="cluster_" + node_id(layer)) as sub:
        attrs = dict(style.CLUSTER)
        found = ctx.by_layer.get(layer.path, [])
        if found:
            worst = max(found, key=lambda d: d.severity.rank).severity
            attrs["color"] = style.SEVERITY[worst.value]["color"]
            attrs["tooltip"] = "\n".join(f"{d.code} {d.message}" for d in found)[:2000]
        sub.attr(label=f"{layer.type} '{layer.name}' #{layer.id}", **attrs)
        if layer.type == "Loop":
            for pid, text in ((0, "trip count"), (1, "execution condition")):
                if layer.input(pid) is not None:
                    sub.node(f"{node_id(layer)}_in{pid}", f"{text}\n(port {pid})", **style.SPECIAL_PORT)
        _graph(sub, layer.body, ctx, level + 1, specials)
        _edges(sub, layer.body, ctx, level + 1)
        for be in layer.back_edges:
            src, dst = layer.body.layer(be.from_layer), layer.body.layer(be.to_layer)
            if src is not None and dst is not None:
                sub.edge(_endpoint(src, ctx, level + 1, "out"), _endpoint(dst, ctx, level + 1, "in"),
                         label="back edge", **style.BACK_EDGE)


def _endpoint(layer: Layer, ctx: _Ctx, level: int, side: str) -> str:
    """The node an edge attaches to: the layer, or for an expanded TI/Loop its first body node."""
    if _expanded(layer, level, ctx.opts):
        assert layer.body is not None
        inner = next((la for la in layer.body.layers if la.id is not None), None)
        if inner is not None:
            return _endpoint(inner, ctx, level + 1, side)
    return node_id(layer)


def _trace_note(ctx: _Ctx, layer: Layer, port: int | None) -> str:
    t, k = ctx.opts.trace, ctx.opts.iteration
    if t is None or k is None:
        return ""
    wanted = [":in", f":out{port}", ":out"] if layer.type in ("Parameter", "Result") else [f":out{port}"]
    for key, value in t.items():
        base, _, what = key.rpartition(":")
        path, _, its = base.partition("@")
        if path == layer.path and its and its.split(".")[-1] == str(k) and f":{what}" in wanted:
            v = np.asarray(value)
            if v.size <= 4:
                return f"it {k}: {np.array2string(v.reshape(-1), precision=3)}"
            f = v.astype(np.float64)
            return f"it {k}: {list(v.shape)} [{np.nanmin(f):.3g}, {np.nanmax(f):.3g}]"
    return ""


def _edges(g: graphviz.Digraph, graph: Graph, ctx: _Ctx, level: int) -> None:
    for e in graph.edges:
        src, dst = graph.layer(e.from_layer), graph.layer(e.to_layer)
        if src is None or dst is None:
            continue
        src_exp, dst_exp = _expanded(src, level, ctx.opts), _expanded(dst, level, ctx.opts)
        note = _trace_note(ctx, src, e.from_port)
        if not src_exp and not dst_exp:
            g.edge(node_id(src), node_id(dst), label=note)
            continue
        # Into an expanded TI/Loop: to the body Parameter its port_map names (or the Loop's special port).
        targets: list[tuple[str, str]] = []
        if dst_exp:
            if dst.type == "Loop" and e.to_port in (0, 1):
                targets.append((f"{node_id(dst)}_in{e.to_port}", ""))
            for entry in dst.port_map:
                if entry.direction == "input" and entry.external_port_id == e.to_port and dst.body is not None:
                    par = dst.body.layer(entry.internal_layer_id)
                    if par is not None:
                        kind = slicing_label(entry) or ("initial value" if any(
                            be.to_layer == par.id for be in dst.back_edges) else "invariant")
                        targets.append((_endpoint(par, ctx, level + 1, "in"), kind))
        else:
            targets.append((node_id(dst), ""))
        sources: list[tuple[str, str]] = []
        if src_exp:
            for entry in src.port_map:
                if entry.direction == "output" and entry.external_port_id == e.from_port and src.body is not None:
                    res = src.body.layer(entry.internal_layer_id)
                    if res is not None:
                        kind = f"concat axis {entry.axis}" if entry.sliced else "last value"
                        if entry.sliced and entry.stride is not None and entry.stride < 0:
                            kind += " (reversed)"
                        sources.append((_endpoint(res, ctx, level + 1, "out"), kind))
        else:
            sources.append((node_id(src), ""))
        for s_node, s_kind in sources:
            for t_node, t_kind in targets:
                label = " / ".join(x for x in (s_kind, t_kind, note) if x)
                g.edge(s_node, t_node, label=label, **style.PORT_MAP)


def _legend(g: graphviz.Digraph) -> None:
    with g.subgraph(name="cluster_legend") as sub:
        sub.attr(label="diagnostics", **style.CLUSTER)
        for sev in Severity:
            sub.node(f"legend_{sev.value}", sev.value, **style.SEVERITY[sev.value])
