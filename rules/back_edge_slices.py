"""BE508: a back edge that passes on a sliced body input, which the CPU plugin passes on one slice late.

A warning that names the plugin: the model is valid, irlint computes what the spec says, and the
plugin's result differs (docs/rules-openvino.md gives the measurements).
"""

from __future__ import annotations

from collections.abc import Iterator

from irlint.rules.back_edges import VIEW_OPS, edge_text

from irlint.controlflow import CONTROL_FLOW
from irlint.diagnostics import Related
from irlint.engine.context import Context
from irlint.ir.index import GraphIndex
from irlint.ir.model import Graph, Layer
from irlint.rule import Finding, rule


@rule("BE508", "back-edge-passes-slice", severity="warning", types=CONTROL_FLOW)
def back_edge_passes_slice(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A back edge passes on a sliced body input itself, or a Reshape/Squeeze/Unsqueeze of it.

    What it checks:
    Each back edge of a TensorIterator or Loop whose Result reads a body Parameter fed by a sliced
    input, directly or through Reshape, Squeeze and Unsqueeze layers only.

    Why it matters:
    The spec passes the slice of iteration k to the back edge's Parameter in iteration k + 1. The
    CPU plugin shares the slice's memory with the Result (a view computes nothing) and copies it
    to the Parameter only after the next slice is in place, so the Parameter receives the slice
    of its own iteration: with slices 1, 10, 100, 1000 and an initial value -5, the Parameter
    holds -5, 10, 100, 1000 where the spec gives -5, 1, 10, 100 (and twice that through a
    Multiply by 2). Measured on OpenVINO 2026.4 in a TensorIterator and a Loop, forward and
    reversed slices, with and without another reader of the view; a Relu between the Parameter
    and the Result gives the spec's values. irlint computes the spec's values.

    Example:
    ```xml
    <input external_port_id="0" internal_layer_id="0" axis="0"/>   <!-- the slice -->
    <edge from-layer="0" from-port="0" to-layer="5" to-port="0"/>  <!-- Result 5 reads it -->
    <edge from-layer="5" to-layer="1"/>                            <!-- back edge to 1 -->
    ```

    How to fix:
    Compute the value the back edge passes on (e.g. add 0 or copy it with a Relu), or read the
    previous slice from a shifted copy of the input.
    """
    body = layer.body
    if body is None or not layer.back_edges:
        return
    idx = ctx.index(body)
    sliced = {pe.internal_layer_id: pe for pe in layer.port_map
              if pe.direction == "input" and pe.axis is not None and pe.purpose is None}
    for be in layer.back_edges:
        res = body.layer(be.from_layer)
        if res is None or res.type != "Result" or be.to_layer in sliced:
            continue
        views, src = _through_views(body, idx, res)
        if src is None or src.type != "Parameter" or src.id not in sliced:
            continue
        via = f" through {', '.join(v.describe() for v in reversed(views))}" if views else ""
        yield Finding(f"{edge_text(be)} of {layer.describe()} passes on body {src.describe()}, the slice of input "
                      f"port {sliced[src.id].external_port_id}{via}: OpenVINO's CPU plugin copies it to the back "
                      "edge's Parameter only after the next slice is in place, so the Parameter receives the slice "
                      "of its own iteration where the spec gives the previous one", be.loc, layer=layer.path,
                      related=(Related(sliced[src.id].loc, "the sliced input"),),
                      hint="compute the value the back edge passes on (a Relu or + 0 copies it)")


def _through_views(body: Graph, idx: GraphIndex, res: Layer) -> tuple[list[Layer], Layer | None]:
    """The views between `res` and the layer they lead back to (the Result's input 0 upwards), and that layer."""
    views: list[Layer] = []
    layer: Layer | None = res
    while layer is not None and layer.inputs:
        e = idx.source(layer.id, layer.inputs[0].id)
        layer = body.layer(e.from_layer) if e is not None else None
        if layer is None or layer.type not in VIEW_OPS or layer in views:  # a cycle (a malformed graph) ends it
            return views, layer
        views.append(layer)
    return views, None
