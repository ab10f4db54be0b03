"""An IR model as Model Explorer graphs: one graph for the model and one per body or If branch.

Each layer is a node labelled with its type, in the namespace of its name's scope (`a/b/c` puts
the layer in the collapsible group `a/b`); a TensorIterator/Loop/If node lists its bodies as
subgraphs the user steps into. Edges carry the producer's element type and shape (the `shape`
output metadata Model Explorer prints on edges), nodes carry their attributes, a Const a preview
of its value, a TI/Loop its port map and back edges in words, a body Parameter/Result what the port
map does with it; in a body graph, back edges are edges and each outer port is a node with the
port map's edges. irlint's findings become node attributes and colours; a trace's values at one
iteration become output metadata. `findings_node_data` and `trace_node_data` give the same findings
and values as Model Explorer node data (colour-coded overlays); `iteration_runs` picks the iterations
loaded as node data runs, one run per iteration, which the UI switches between.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from irlint.viewer.diagram import style
from irlint.viewer.diagram.buffers import CarriedBuffer, carried_buffers
from irlint.viewer.diagram.describe import const_preview, const_value, preview
from irlint.viewer.diagram.names import ELLIPSIS, short_names
from irlint.viewer.diagram.porttypes import PortTypes
from irlint.viewer.diagram.tracecheck import split_key
from model_explorer import graph_builder as gb
from model_explorer import node_data_builder as ndb

from irlint.controlflow import EntryKind, loop_plan
from irlint.diagnostics import Diagnostic, Severity
from irlint.ir.model import Graph, Layer, Model, Port, PortMapEntry
from irlint.layerpath import project_its
from irlint.report.text import clean

SEVERITY_VALUE = {Severity.ERROR: 3, Severity.WARNING: 2, Severity.INFO: 1}  # node data "irlint findings"
BACK_EDGE = "back edge"  # the port id of a back edge's ends in Model Explorer
PORT_MAP = "port map"  # the port id of a port-map edge's body end
LABEL_LIMIT = 24  # characters of a Parameter's or Result's name as its node's label


def label_names(names: Iterable[str]) -> dict[str, str]:
    """Names shortened for node labels as the diagram shortens them (LABEL_LIMIT characters), with "..."
    for what is left out: Model Explorer's canvas draws "…" (any character its font lacks) as "?"."""
    return {n: s.replace(ELLIPSIS, "...") for n, s in short_names(names, LABEL_LIMIT).items()}
SEVERITY_COLOURS = {  # background, border (the colours of `irlint render --lint`)
    Severity.ERROR: ("#f4cccc", "#cc0000"),
    Severity.WARNING: ("#fce5cd", "#e69138"),
    Severity.INFO: ("#cfe2f3", "#3d85c6"),
}
FIXED_ATTRS = ("name", "type", "opset", "id", "location", "iterations")
RUN_LIMIT = 24  # iterations loaded as node data runs; a longer trace loads its first and last few and a stride
EDGE_RUNS = 4  # of them the first and the last iterations


@dataclass
class Trace:
    """Recorded values by layer path, then by loop iteration (outer first), then by what
    (`in`, `out`, `outN`), and the iteration to show (outer first; deeper loops: their last)."""

    values: dict[str, dict[tuple[int, ...], dict[str, np.ndarray]]] = field(default_factory=dict)
    iteration: tuple[int, ...] = ()

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, np.ndarray], iteration: tuple[int, ...]) -> Trace:
        values: dict[str, dict[tuple[int, ...], dict[str, np.ndarray]]] = {}
        for key, value in arrays.items():
            parts = split_key(key)
            if parts is not None:
                path, it, what = parts
                values.setdefault(path, {}).setdefault(it, {})[what] = np.asarray(value)
        return cls(values, tuple(iteration))

    def at(self, layer: Layer, depth: int) -> tuple[tuple[int, ...], dict[str, np.ndarray]] | None:
        """The iteration and values of `layer` (inside `depth` loops) at the requested iteration."""
        recorded = self.values.get(layer.path)
        if not recorded:
            return None
        prefix = self.iteration[:depth]
        candidates = [it for it in recorded if len(it) == depth and it[:len(prefix)] == prefix]
        if not candidates:
            return None
        it = max(candidates)
        return it, recorded[it]

    def iterations(self) -> list[Iteration]:
        """Every iteration the trace can show, in order: the deepest recorded ones (`2.1` for an inner
        loop; `2` alone would show that loop's last iteration, as `2.<last>` does)."""
        paths: dict[tuple[int, ...], str] = {}
        for path, recorded in self.values.items():
            for it in recorded:
                paths.setdefault(it, path)
        inner = {it[:n] for it in paths for n in range(len(it))}
        out: dict[str, Iteration] = {}
        for it in sorted(set(paths) - inner):
            loops = project_its(it, paths[it])  # an If's frame (0 in keys) is no loop
            if loops:
                out.setdefault(_label(loops), Iteration(it, _label(loops)))
        return list(out.values())


@dataclass(frozen=True)
class Iteration:
    """One iteration of a trace: its numbers as trace keys hold them, and as people type them (loops only)."""

    key: tuple[int, ...]
    label: str


def _label(loops: tuple[int, ...]) -> str:
    return ".".join(map(str, loops))


def iteration_runs(iterations: Sequence[Iteration], limit: int = RUN_LIMIT) -> tuple[list[Iteration], int]:
    """The iterations loaded as node data runs, and the stride between the middle ones (1: all).

    Each run costs the browser a request and a colour pass, so a long trace loads its first and last
    EDGE_RUNS iterations and every stride-th one between them, `limit` at most."""
    n = len(iterations)
    if n <= limit:
        return list(iterations), 1
    edge = min(EDGE_RUNS, (limit - 1) // 2)
    stride = -(-(n - 2 * edge) // (limit - 2 * edge))
    picked = [*range(edge), *range(edge, n - edge, stride), *range(n - edge, n)]
    return [iterations[i] for i in sorted(set(picked))], stride


def scope(name: str) -> str:
    """The namespace of a layer name: its `/`-separated scopes without the last part."""
    parts = [p for p in name.split("/") if p]
    return "/".join(parts[:-1])


def main_graph_id(model: Model) -> str:
    return clean(model.name or "model")


def graph_ids(model: Model) -> dict[int, list[str]]:
    """id(layer) -> the ids of its body graphs (one for TI/Loop, one per If branch). Ids are names the
    UI shows and finds graphs by: unique (a model or layer named like another's body gets ` (2)`),
    controls made visible."""
    taken = {main_graph_id(model)}

    def unique(text: str) -> str:
        text, n = clean(text), 2
        base = text
        while text in taken:
            text, n = f"{base} ({n})", n + 1
        taken.add(text)
        return text

    ids: dict[int, list[str]] = {}
    for _g, layer in model.layers():
        if layer.body is not None:
            ids[id(layer)] = [unique(f"{layer.name} #{layer.path} body")]
        elif layer.branches:
            ids[id(layer)] = [unique(f"{layer.name} #{layer.path} {b.name}") for b in layer.branches]
    return ids


@dataclass
class _Ctx:
    model: Model
    sub_ids: dict[int, list[str]]
    findings: dict[str, list[Diagnostic]]  # layer path -> findings on it
    trace: Trace | None
    loops: Mapping[str, object]
    types: PortTypes  # element types, v10 ports without precision included
    roles: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # body layer path -> port-map roles
    labels: dict[str, str] = field(default_factory=dict)  # layer path -> its node's label when not its type
    buffers: dict[str, CarriedBuffer] = field(default_factory=dict)  # body Parameter path -> the buffer it holds
    inside: dict[str, list[Diagnostic]] = field(default_factory=dict)  # TI/Loop/If path -> findings in its bodies
    entries: dict[int, str] = field(default_factory=dict)  # id(port map entry) -> what it does, in words


def convert(model: Model, diagnostics: Sequence[Diagnostic] = (), trace: Trace | None = None) -> list[gb.Graph]:
    """The model's graphs: the main graph first, then every body/branch graph (nested ones too)."""
    loops: Mapping[str, object] = {}
    inferred: Mapping[object, object] | None = None
    if any(la.body is not None for _g, la in model.layers()):
        from irlint.shapes import infer_model

        try:
            result = infer_model(model)
            loops, inferred = dict(result.loops), result.outputs
        except Exception:  # the graph must not depend on shape inference succeeding
            loops, inferred = {}, {}
    ctx = _Ctx(model, graph_ids(model), findings_by_layer(model, diagnostics), trace, loops,
               PortTypes(model, inferred))
    _roles(ctx)
    _labels(ctx)
    for graph, layer in model.layers():
        if layer.body is not None:
            for b in carried_buffers(model, layer, graph):
                par = layer.body.layer(b.parameter)
                if par is not None:
                    ctx.buffers[par.path] = b
    ctx.inside = findings_inside(ctx.findings)
    main_id = main_graph_id(model)
    graphs: list[gb.Graph] = []
    _convert_graph(ctx, model.graph, main_id, 0, graphs)
    unplaced = [d for d in diagnostics if not any(d in found for found in ctx.findings.values())]
    info = {"model": model.path, "IR version": str(model.version), "findings": str(len(diagnostics))}
    for n, d in enumerate(unplaced, 1):
        info[f"finding {n}"] = finding_text(d)
    graphs[0].groupNodeAttributes = {"": info}
    return graphs


def findings_by_layer(model: Model, diagnostics: Iterable[Diagnostic]) -> dict[str, list[Diagnostic]]:
    """Each finding on the layer it is about: its layer, or for one on an edge, port_map entry or
    back edge (found by line) the layer the edge enters or the TI/Loop/If owning the entry."""
    owner_by_line: dict[int, str] = {}
    for graph in model.graphs():
        for e in graph.edges:
            target = graph.layer(e.to_layer) or graph.layer(e.from_layer)
            if target is not None:
                owner_by_line.setdefault(e.loc.line, target.path)
    for _g, layer in model.layers():
        for el in (*layer.port_map, *layer.back_edges, *(pe for b in layer.branches for pe in b.port_map)):
            owner_by_line.setdefault(el.loc.line, layer.path)
    out: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        path = d.layer if d.layer is not None else owner_by_line.get(d.loc.line)
        if path is not None:
            out.setdefault(path, []).append(d)
    return out


def findings_inside(by_layer: Mapping[str, list[Diagnostic]]) -> dict[str, list[Diagnostic]]:
    """TI/Loop/If path -> the findings on layers of its bodies, nested ones included."""
    out: dict[str, list[Diagnostic]] = {}
    for path, found in by_layer.items():
        parts = path.split("/")
        for n in range(1, len(parts) // 2 + 1):  # "3/body/5/body/2" is in 3 and in 3/body/5
            out.setdefault("/".join(parts[:2 * n - 1]), []).extend(found)
    return out


def finding_text(d: Diagnostic) -> str:
    return f"{d.code} [{d.severity.value}] {d.message} ({d.loc.path}:{d.loc.line})"


def _roles(ctx: _Ctx) -> None:
    """What each port map entry and back edge does with a body layer, in words, by body layer path."""
    for _g, layer in ctx.model.layers():
        if layer.body is not None:
            from irlint.viewer.diagram import slicing_label

            info = ctx.loops.get(layer.path)
            for pe in loop_plan(layer).entries:
                inner = layer.body.layer(pe.body_layer)
                if inner is None:
                    continue
                e = pe.entry
                if pe.kind is EntryKind.SLICED_INPUT:
                    spec = next((s.spec for s in getattr(info, "slicing", []) if s.entry is e), None)
                    text = f"sliced from outer input {e.external_port_id}: {slicing_label(e, spec)}"
                elif pe.kind is EntryKind.MERGED_INPUT:
                    text = f"initial value from outer input {e.external_port_id} (iteration 0), then the back edge"
                elif pe.kind is EntryKind.INVARIANT_INPUT:
                    text = f"invariant: outer input {e.external_port_id} every iteration"
                elif pe.kind is EntryKind.CONCAT_OUTPUT:
                    text = f"concatenated on axis {e.axis} into outer output {e.external_port_id}"
                elif pe.kind is EntryKind.LAST_VALUE_OUTPUT:
                    text = f"last value: outer output {e.external_port_id}"
                else:
                    text = pe.kind.value
                ctx.roles.setdefault(inner.path, []).append(("port map", text))
                ctx.entries[id(e)] = text
            for be in layer.back_edges:
                src, dst = layer.body.layer(be.from_layer), layer.body.layer(be.to_layer)
                if src is not None and dst is not None:
                    ctx.roles.setdefault(src.path, []).append(
                        ("back edge", f"carried to #{dst.id} {dst.name} for the next iteration"))
                    ctx.roles.setdefault(dst.path, []).append(
                        ("back edge", f"from #{src.id} {src.name} of the previous iteration"))
        for b in layer.branches:
            for e in b.port_map:
                inner = b.body.layer(e.internal_layer_id)
                if inner is not None:
                    what = "outer input" if e.direction == "input" else "outer output"
                    ctx.roles.setdefault(inner.path, []).append(
                        ("port map", f"{b.name} branch: {what} {e.external_port_id}"))
                    ctx.entries[id(e)] = f"{b.name} branch: {what} {e.external_port_id}"


def _labels(ctx: _Ctx) -> None:
    """Node labels that say more than the type: a body's Parameters and Results by name (a Keras loop
    body has eight Parameters), and a one-element Const that feeds a Loop's trip count or condition, or
    a body's condition Result, by its value (`Const = True`): Model Explorer hides nodes labelled
    `Const`, which left the condition unconnected."""
    names = [la.name for _g, la in ctx.model.layers() if la.type in ("Parameter", "Result")]
    short = label_names(names)
    for graph, layer in ctx.model.layers():
        if layer.type in ("Parameter", "Result") and layer.name:
            ctx.labels[layer.path] = short.get(layer.name, layer.name)
        if layer.body is not None:
            conditions = {pe.body_layer for pe in loop_plan(layer).of(EntryKind.CONDITION_OUTPUT)}
            for e in layer.body.edges:
                src = layer.body.layer(e.from_layer)
                if e.to_layer in conditions and src is not None and src.type == "Const":
                    ctx.labels[src.path] = f"Const {const_value(ctx.model, src)}".strip()
        if layer.type == "Loop":
            for e in graph.edges:
                src = graph.layer(e.from_layer)
                if e.to_layer == layer.id and e.to_port in (0, 1) and src is not None and src.type == "Const":
                    ctx.labels[src.path] = f"Const {const_value(ctx.model, src)}".strip()


def _convert_graph(ctx: _Ctx, graph: Graph, graph_id: str, depth: int, out: list[gb.Graph],
                   owner: Layer | None = None, parent: Graph | None = None,
                   entries: Sequence[PortMapEntry] = ()) -> None:
    g = gb.Graph(id=graph_id)
    out.append(g)
    incoming: dict[int | None, list[gb.IncomingEdge]] = {}
    feeds: dict[tuple[int | None, int | None], Layer] = {}  # (layer id, output port) -> the Result it feeds
    for e in graph.edges:
        dst = graph.layer(e.to_layer)
        if graph.layer(e.from_layer) is None or dst is None:
            continue  # the reader's findings say so; Model Explorer cannot draw an edge to nothing
        if dst.type == "Result":
            feeds[(e.from_layer, e.from_port)] = dst
        incoming.setdefault(e.to_layer, []).append(gb.IncomingEdge(
            sourceNodeId=str(e.from_layer), sourceNodeOutputId=str(e.from_port),
            targetNodeInputId=str(e.to_port)))
    # back edges as edges of the body graph: Result -> Parameter, into the Parameter's `back edge` input
    # out of the Result's `back edge` output (Model Explorer lays out the cycle, the edge drawn upwards)
    for be in owner.back_edges if owner is not None else ():
        if graph.layer(be.from_layer) is not None and graph.layer(be.to_layer) is not None:
            incoming.setdefault(be.to_layer, []).append(gb.IncomingEdge(
                sourceNodeId=str(be.from_layer), sourceNodeOutputId=BACK_EDGE, targetNodeInputId=BACK_EDGE))
    ports = _port_map_nodes(ctx, graph, owner, parent, entries, incoming) if owner and parent else {}
    for layer in graph.layers:
        if layer.id is None:
            continue
        node = _node(ctx, graph, layer, depth, incoming.get(layer.id, []), feeds)
        for e in entries:
            if e.internal_layer_id == layer.id and f"outer {e.direction} {e.external_port_id}" in ports:
                meta = node.inputsMetadata if e.direction == "input" else node.outputsMetadata
                tag = gb.KeyValue("__tensor_tag", ctx.entries.get(id(e), PORT_MAP))
                if not any(m.id == PORT_MAP for m in meta):
                    meta.append(gb.MetadataItem(id=PORT_MAP, attrs=[tag]))
        for be in owner.back_edges if owner is not None else ():
            if be.from_layer == layer.id:
                node.outputsMetadata.append(gb.MetadataItem(id=BACK_EDGE, attrs=[
                    gb.KeyValue("__tensor_tag", f"back edge to #{be.to_layer}")]))
            if be.to_layer == layer.id:
                node.inputsMetadata.append(gb.MetadataItem(id=BACK_EDGE, attrs=[
                    gb.KeyValue("__tensor_tag", f"back edge from #{be.from_layer}")]))
        g.nodes.append(node)
    g.nodes.extend(ports.values())
    for layer in graph.layers:
        subs = ctx.sub_ids.get(id(layer), [])
        maps = [layer.port_map] if layer.body is not None else [b.port_map for b in layer.branches]
        for sub_id, sub, entries_of in zip(subs, layer.subgraphs(), maps):
            _convert_graph(ctx, sub, sub_id, depth + 1, out, layer, graph, entries_of)


def _port_map_nodes(
    ctx: _Ctx,
    body: Graph,
    owner: Layer,
    parent: Graph,
    entries: Sequence[PortMapEntry],
    incoming: dict[int | None, list[gb.IncomingEdge]],
) -> dict[str, gb.GraphNode]:
    """The port map as edges of the body graph (Model Explorer draws no edge from one graph to another):
    a node per outer port of the TI/Loop/If, `outer input 1` (labelled `outer in 1: NAME` with the outer
    layer feeding it, in ASCII: the canvas draws no arrows)
    with an edge into each body Parameter it feeds, `outer output 0` with an edge from the body Result
    that gives it; both ends' port is `port map`. Entries of no outer port (a Loop's current iteration
    and condition) and entries naming no body layer are left to the nodes' attributes."""
    nodes: dict[str, gb.GraphNode] = {}
    producers = {e.to_port: (e.from_layer, e.from_port) for e in parent.edges if e.to_layer == owner.id}
    for e in entries:
        inner = body.layer(e.internal_layer_id)
        port = e.external_port_id
        if inner is None or port is None or port < 0 or e.direction not in ("input", "output"):
            continue
        node_id = f"outer {e.direction} {port}"
        text = ctx.entries.get(id(e), f"{e.direction} port {port}")
        if node_id not in nodes:
            attrs = [gb.KeyValue("type", PORT_MAP), gb.KeyValue("port map", text)]
            label = f"outer {'in' if e.direction == 'input' else 'out'} {port}"
            outputs, inputs = [], []
            if e.direction == "input":
                src_id, src_port = producers.get(port, (None, None))
                src = parent.layer(src_id)
                outer = owner.input(port)
                shape = ctx.types.input_label(parent, owner, outer) if outer is not None else ""
                if src is not None:
                    attrs.insert(0, gb.KeyValue("name", f"#{src.id} {src.name} port {src_port}"))
                    tail = src.name.rsplit("/", 1)[-1]  # the whole name is the `name` attribute
                    label += f": {label_names([tail])[tail]}"
                outputs = [gb.MetadataItem(id="0", attrs=[gb.KeyValue("shape", shape)])]
            else:
                outer = next((p for p in owner.outputs if p.id == port), None)
                shape = ctx.types.output_label(owner, outer) if outer is not None else ""
                attrs.insert(0, gb.KeyValue("name", f"#{owner.id} {owner.name} port {port}"))
                inputs = [gb.MetadataItem(id="0", attrs=[gb.KeyValue("shape", shape)])]
            nodes[node_id] = gb.GraphNode(id=node_id, label=label, attrs=attrs, outputsMetadata=outputs,
                                          inputsMetadata=inputs)
        if e.direction == "input":
            incoming.setdefault(inner.id, []).append(
                gb.IncomingEdge(sourceNodeId=node_id, sourceNodeOutputId="0", targetNodeInputId=PORT_MAP)
            )
        else:
            nodes[node_id].incomingEdges.append(
                gb.IncomingEdge(sourceNodeId=str(inner.id), sourceNodeOutputId=PORT_MAP, targetNodeInputId="0")
            )
    return nodes


def _node(ctx: _Ctx, graph: Graph, layer: Layer, depth: int, incoming: list[gb.IncomingEdge],
          feeds: Mapping[tuple[int | None, int | None], Layer]) -> gb.GraphNode:
    attrs = [gb.KeyValue("name", layer.name), gb.KeyValue("type", layer.type),
             gb.KeyValue("opset", layer.version), gb.KeyValue("id", layer.path),
             gb.KeyValue("location", f"{layer.loc.path}:{layer.loc.line}")]
    if layer.body is not None:
        info = ctx.loops.get(layer.path)
        n = getattr(info, "iterations", None)
        attrs.append(gb.KeyValue("iterations", "known at run time" if n is None else str(n)))
        for n_entry, e in enumerate(layer.port_map):
            body_layer = layer.body.layer(e.internal_layer_id)
            inner = f"#{e.internal_layer_id} {body_layer.name}" if body_layer else f"#{e.internal_layer_id} (missing)"
            attrs.append(gb.KeyValue(f"port_map {n_entry}", f"{e.direction} port {e.external_port_id} <-> {inner}"
                                     + "".join(f", {k}={v}" for k, v in e.attrs.items()
                                               if k not in ("external_port_id", "internal_layer_id"))))
        for n_edge, be in enumerate(layer.back_edges):
            attrs.append(gb.KeyValue(f"back_edge {n_edge}", f"#{be.from_layer} -> #{be.to_layer}"))
    for key, value in layer.data.items():
        attrs.append(gb.KeyValue(f"data {key}" if key in FIXED_ATTRS else key, value))
    const = const_preview(ctx.model, layer)
    if const:
        attrs.append(gb.KeyValue("value", const))
    seen: dict[str, int] = {}
    for kind, text in ctx.roles.get(layer.path, []):
        seen[kind] = seen.get(kind, 0) + 1
        attrs.append(gb.KeyValue(f"{kind} {seen[kind]}" if seen[kind] > 1 else kind, text))
    found = sorted(ctx.findings.get(layer.path, []), key=lambda d: -d.severity.rank)
    for n_found, d in enumerate(found, 1):
        attrs.append(gb.KeyValue(f"finding {n_found}", finding_text(d)))
    inside = sorted(ctx.inside.get(layer.path, []), key=lambda d: -d.severity.rank)
    if inside:  # a body's findings, seen from the graph that holds the TI/Loop/If
        attrs.append(gb.KeyValue("findings in its bodies", f"{len(inside)}, worst: {inside[0].severity.value}"))
    buffer = ctx.buffers.get(layer.path)
    if buffer is not None:
        attrs.append(gb.KeyValue("buffer", buffer.describe()))
    node_style = None
    worst = found[0] if found else inside[0] if inside else None
    if worst is not None:
        bg, border = SEVERITY_COLOURS[worst.severity]
        node_style = gb.GraphNodeStyle(backgroundColor=bg, borderColor=border, hoveredBorderColor=border)
    elif buffer is not None:  # in the diagram's colours of a carried buffer
        bg, border = style.BUFFER["fillcolor"], style.BUFFER["color"]
        node_style = gb.GraphNodeStyle(backgroundColor=bg, borderColor=border, hoveredBorderColor=border)
    recorded = ctx.trace.at(layer, depth) if ctx.trace is not None else None
    outputs = []
    for port in layer.outputs:
        meta = [gb.KeyValue("shape", ctx.types.output_label(layer, port))]
        if port.names:
            meta.append(gb.KeyValue("__tensor_tag", ",".join(port.names)))
        value = _traced_output(ctx, layer, port, depth, recorded, feeds)
        if value is not None:
            meta.append(gb.KeyValue(_at(value[0]), preview(value[1])))
        outputs.append(gb.MetadataItem(id=str(port.id), attrs=meta))
    if recorded is not None and layer.type == "Result" and "out" in recorded[1]:
        attrs.append(gb.KeyValue(_at(recorded[0]), preview(recorded[1]["out"])))
    elif depth == 0 and layer.type == "Result" and ctx.trace is not None:
        outer = outer_output_value(ctx.model, ctx.trace, layer)
        if outer is not None:
            attrs.append(gb.KeyValue("value", preview(outer[1])))
    inputs = [gb.MetadataItem(id=str(p.id), attrs=[gb.KeyValue("shape", ctx.types.input_label(graph, layer, p))])
              for p in layer.inputs]
    return gb.GraphNode(id=str(layer.id), label=ctx.labels.get(layer.path, layer.type), namespace=scope(layer.name),
                        subgraphIds=list(ctx.sub_ids.get(id(layer), [])), attrs=attrs, incomingEdges=incoming,
                        outputsMetadata=outputs, inputsMetadata=inputs, style=node_style)


def _traced_output(ctx: _Ctx, layer: Layer, port: Port, depth: int,
                   recorded: tuple[tuple[int, ...], dict[str, np.ndarray]] | None,
                   feeds: Mapping[tuple[int | None, int | None], Layer]) -> tuple[tuple[int, ...], np.ndarray] | None:
    """The value on an output port at the iteration: recorded for the layer, or (a trace records
    body Parameters and Results by default) the value of the Result the port feeds."""
    if recorded is not None:
        value = recorded[1].get(f"out{port.id}")
        if value is None and layer.type == "Parameter":
            value = recorded[1].get("in")
        if value is not None:
            return recorded[0], value
    result = feeds.get((layer.id, port.id))
    if result is not None and ctx.trace is not None:
        at = ctx.trace.at(result, depth)
        if at is not None and "out" in at[1]:
            return at[0], at[1]["out"]
    if depth == 0 and layer.type == "Parameter" and ctx.trace is not None:
        return outer_input_value(ctx.model, ctx.trace, layer)
    return None


def outer_input_value(model: Model, trace: Trace, param: Layer) -> tuple[tuple[int, ...], np.ndarray] | None:
    """A top-level Parameter's value, which a trace records only inside the loops it feeds: the value a
    TI/Loop's body Parameter takes from it whole (initial value, invariant) at iteration 0."""
    for e in model.graph.edges:
        loop = model.graph.layer(e.to_layer)
        if e.from_layer != param.id or loop is None or loop.body is None:
            continue
        for pe in loop_plan(loop).input_for_port(e.to_port):
            inner = loop.body.layer(pe.body_layer)
            if inner is not None and pe.kind in (EntryKind.MERGED_INPUT, EntryKind.INVARIANT_INPUT):
                value = trace.values.get(inner.path, {}).get((0,), {}).get("in")
                if value is not None:
                    return (), value
    return None


def outer_output_value(model: Model, trace: Trace, result: Layer) -> tuple[tuple[int, ...], np.ndarray] | None:
    """A top-level Result's value from the TI/Loop output feeding it: the body Result's value at the last
    iteration (a last-value output) or every iteration's, concatenated on the port map's axis."""
    edge = next((e for e in model.graph.edges if e.to_layer == result.id), None)
    loop = model.graph.layer(edge.from_layer) if edge is not None else None
    if edge is None or loop is None or loop.body is None:
        return None
    for pe in loop_plan(loop).data_outputs:
        inner = loop.body.layer(pe.body_layer)
        recorded = trace.values.get(inner.path, {}) if inner is not None and pe.port == edge.from_port else {}
        parts = [(it, v["out"]) for it, v in sorted(recorded.items()) if len(it) == 1 and "out" in v]
        if not parts:
            continue
        if pe.kind is EntryKind.LAST_VALUE_OUTPUT:
            return (), parts[-1][1]
        values = [v for _it, v in parts][::-1 if pe.reversed else 1]
        try:
            return (), np.concatenate(values, axis=pe.entry.axis or 0)
        except ValueError:  # parts that do not fit: the lint rules say why
            return None
    return None


def _at(it: tuple[int, ...]) -> str:
    return f"value at iteration {'.'.join(map(str, it))}" if it else "value"


# -- node data (Model Explorer's colour-coded overlays) ---------------------------------------------
def findings_node_data(graphs: Sequence[gb.Graph], model: Model,
                       diagnostics: Sequence[Diagnostic]) -> ndb.ModelNodeData:
    """Per graph: each layer with findings, valued by its worst severity (3 error, 2 warning, 1 info),
    and each TI/Loop/If by the worst finding in its bodies when it has none of its own."""
    by_layer = findings_by_layer(model, diagnostics)
    inside = findings_inside(by_layer)
    data: dict[str, ndb.GraphNodeData] = {}
    for graph_id, layers in _layers_by_graph(graphs, model).items():
        results: dict[str, ndb.NodeDataResult] = {}
        for layer in layers:
            found = by_layer.get(layer.path) or inside.get(layer.path)
            if found:
                worst = max(found, key=lambda d: d.severity.rank).severity
                results[str(layer.id)] = ndb.NodeDataResult(value=SEVERITY_VALUE[worst],
                                                            bgColor=SEVERITY_COLOURS[worst][0])
        data[graph_id] = ndb.GraphNodeData(results=results, name="irlint findings (severity)")
    return ndb.ModelNodeData(graphsData=data)


def trace_node_data(graphs: Sequence[gb.Graph], model: Model, trace: Trace, name: str | None = None,
                    only: str | None = None) -> ndb.ModelNodeData:
    """Per graph (or the graph `only`): each traced layer valued by the largest magnitude of its value
    at the trace's iteration; `name` is the run's name in the UI."""
    data: dict[str, ndb.GraphNodeData] = {}
    depth_of = _depths(model)
    name = name or "iteration " + _label(trace.iteration)
    for graph_id, layers in _layers_by_graph(graphs, model).items():
        if only is not None and graph_id != only:
            continue
        results: dict[str, ndb.NodeDataResult] = {}
        for layer in layers:
            recorded = trace.at(layer, depth_of.get(layer.path, 0))
            if recorded is None:
                continue
            numeric = [v for v in recorded[1].values() if v.size and v.dtype.kind in "fiub"]
            if numeric:
                results[str(layer.id)] = ndb.NodeDataResult(
                    value=float(np.nanmax(np.abs(numeric[0].astype(np.float64)))))
        data[graph_id] = ndb.GraphNodeData(
            results=results, name=name,
            gradient=[ndb.GradientItem(stop=0, bgColor="#ffffff"), ndb.GradientItem(stop=1, bgColor="#ff9800")])
    return ndb.ModelNodeData(graphsData=data)


def run_name(label: str, loaded: int, total: int, stride: int) -> str:
    """The name of an iteration's node data run; a sampled trace says so in every name (no `/`:
    Model Explorer splits the source of a loaded run at it)."""
    if loaded == total:
        return f"iteration {label}"
    return f"iteration {label} ({loaded} of {total} sampled, stride {stride})"


def iteration_node_data(graphs: Sequence[gb.Graph], model: Model, trace: Trace,
                        limit: int = RUN_LIMIT) -> list[tuple[str, ndb.ModelNodeData]]:
    """One node data run per iteration, in order: at most `limit` of them (see `iteration_runs`), and
    the trace's own iteration (`--iteration`) among them whether sampled or not."""
    everything = trace.iterations()
    picked, stride = iteration_runs(everything, limit)
    runs = [(it.key, it.label, Trace(trace.values, it.key)) for it in picked]
    chosen = _label(trace.iteration)
    if all(label != chosen for _key, label, _at in runs):
        runs.append((trace.iteration, chosen, trace))
    out = []
    for _key, label, at in sorted(runs, key=lambda run: run[0]):
        name = run_name(label, len(picked), len(everything), stride)
        out.append((name, trace_node_data(graphs, model, at, name)))
    return out


def _depths(model: Model) -> dict[str, int]:
    """Layer path -> how many bodies/branches enclose it (a trace key of an If branch's layer carries
    the If's own iteration 0 too)."""
    return {la.path: la.path.count("/") // 2 for _g, la in model.layers()}


def _layers_by_graph(graphs: Sequence[gb.Graph], model: Model) -> dict[str, list[Layer]]:
    ids = graph_ids(model)
    out: dict[str, list[Layer]] = {graphs[0].id: [la for la in model.graph.layers if la.id is not None]}
    for _g, layer in model.layers():
        for sub_id, sub in zip(ids.get(id(layer), []), layer.subgraphs()):
            out[sub_id] = [la for la in sub.layers if la.id is not None]
    return out
