"""Findings on the elements they are about: numbering, colours, ghost nodes for what is missing, the legend."""

from __future__ import annotations

import textwrap

import graphviz
from irlint.viewer.diagram import style
from irlint.viewer.diagram.context import LEGEND_MAX, Ctx
from irlint.viewer.diagram.dot import EscString, escape_string

from irlint.diagnostics import Diagnostic, Severity
from irlint.ir.model import Layer, Model


def claim_findings(ctx: Ctx, model: Model) -> None:
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


def finding_style(ctx: Ctx, found: list[Diagnostic]) -> dict[str, str]:
    worst = max(found, key=lambda d: d.severity.rank).severity.value
    return {"color": style.SEVERITY[worst]["color"], "fontcolor": style.SEVERITY[worst]["color"],
            "penwidth": "2.5", "tooltip": "\n".join(f"{d.code} {d.message}" for d in found)[:2000]}


def ghost_node(g: graphviz.Digraph, ctx: Ctx, text: str) -> str:
    ctx.ghosts += 1
    name = f"ghost_{ctx.ghosts}"
    g.node(name, text, **style.GHOST)
    return name


def layer_attrs(ctx: Ctx, layer: Layer, special: str = "") -> dict[str, str]:
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


def draw_legend(g: graphviz.Digraph, ctx: Ctx) -> None:
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
