"""What the HTML page's side panel shows of a layer besides its attributes, from the diagram as drawn:
the element that stands for it (its node, port-table row, cluster, or the scope, twin or loop node
hiding it), its traced values at the requested iteration, a Const's value and its line in the XML."""

from __future__ import annotations

from irlint.viewer.diagram.context import Ctx, node_id
from irlint.viewer.diagram.describe import const_preview
from irlint.viewer.diagram.values import trace_value

from irlint.ir.model import Layer

TIP_CHARS = 4000  # of a traced tensor printed into the panel


def where(ctx: Ctx, layer: Layer) -> list[str]:
    """["row", element id] for a port-table row (the SVG element `a_<node id>`), ["node", DOT name] for a
    node or cluster (the SVG group's title), or [] when nothing stands for it (a folded Const)."""
    path = layer.path
    while True:
        if path in ctx.rows:
            return ["row", "a_" + node_id(layer)] if path == layer.path else ["node", ctx.rows[path].split(":")[0]]
        for names in (ctx.hidden_in, ctx.drawn):
            if path in names:
                return ["node", names[path]]
        if path in ctx.folded or "/" not in path:
            return []
        path = path.rsplit("/", 2)[0]  # the TI/Loop/If holding it: drawn as one node, or hidden itself


def values(ctx: Ctx, layer: Layer) -> list[list[str]]:
    """[label, short text, whole tensor] of each traced value of the layer at the requested iteration."""
    if ctx.opts.iteration is None or not ctx.trace:
        return []
    depth = layer.path.count("/") // 2
    picks = (
        [("input", None, "in"), ("output", None, "out")]
        if layer.type in ("Parameter", "Result")
        else [(f"output {p.id}", p.id, None) for p in layer.outputs]
    )
    out = []
    for label, port, what in picks:
        v = trace_value(ctx, layer, port, depth, what)
        if v.text and not any(v.text == o[1] for o in out):
            out.append([label, v.text, v.tip[:TIP_CHARS]])
    return out


def panel_data(ctx: Ctx) -> dict[str, dict[str, object]]:
    """By node id: `where`, `values`, `const` and `line` of every layer of the model."""
    out: dict[str, dict[str, object]] = {}
    for _g, layer in ctx.model.layers():
        entry: dict[str, object] = {"where": where(ctx, layer), "values": values(ctx, layer), "line": layer.loc.line}
        if layer.type == "Const":
            entry["const"] = const_preview(ctx.model, layer)
        out[node_id(layer)] = entry
    return out
