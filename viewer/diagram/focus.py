"""`--focus LAYER`: the layer and its neighbourhood only. In each graph on the way to the layer (the
model's, then the bodies holding it) the layers within `radius` edges of it, or of the TI/Loop/If
holding it, are drawn, and a body's Parameters and Results; the others of that graph are one node
(`37 layers outside --focus`) that edges to and from them meet. Only the TI/Loop/If layers holding
the focus (and the focus itself) are expanded: the drawing is the size of the neighbourhood, not the model."""

from __future__ import annotations

from irlint.viewer.diagram.context import Ctx

from irlint.ir.model import Graph, Layer, Model


def find_layer(model: Model, text: str) -> Layer | None:
    """The layer named `text`, or at id path `text` (`3/body/12`); a path wins over a name."""
    by_name = None
    for _g, layer in model.layers():
        if layer.path == text:
            return layer
        if by_name is None and layer.name == text:
            by_name = layer
    return by_name


def chain(layer: Layer) -> set[str]:
    """The id paths of the layer and of every TI/Loop/If holding it ("3/body/5" -> {"3", "3/body/5"})."""
    parts = layer.path.split("/")
    return {"/".join(parts[:n]) for n in range(1, len(parts) + 1, 2)}


def plan_focus(graph: Graph, ctx: Ctx) -> str | None:
    """Hide the layers of `graph` outside the focus's neighbourhood in one node; its DOT name, or None
    when every layer is drawn."""
    if ctx.focus is None:
        return None
    on_path = chain(ctx.focus)
    centre = next((la for la in graph.layers if la.path in on_path), None)
    keep: set[int | None] = set()
    if centre is not None:  # else the branch of an If on the path that does not hold the focus: all hidden
        near = {}
        for e in graph.edges:
            near.setdefault(e.from_layer, set()).add(e.to_layer)
            near.setdefault(e.to_layer, set()).add(e.from_layer)
        keep, ring = {centre.id}, {centre.id}
        for _step in range(ctx.opts.focus_radius):
            ring = {n for x in ring for n in near.get(x, ())} - keep
            keep |= ring
    # a body's Parameters and Results stay: its port map and back edges keep their ends
    interface = ("Parameter", "Result") if graph is not ctx.model.graph else ()
    hidden = [la for la in graph.layers if la.id is not None and la.id not in keep and la.type not in interface]
    if not hidden:
        return None
    ctx.scopes += 1
    name = f"focus_rest_{ctx.scopes}"
    for la in hidden:
        ctx.hidden_in[la.path] = name
    ctx.focus_rest[name] = len(hidden)
    return name
