"""BE508: a back edge that passes on a sliced body input, which the CPU plugin passes on one slice late.

A warning that names the plugin: the model is valid, irlint computes what the spec says, and the
plugin's result differs (irlint/openvino/memory.py models why; docs/conformance.md measures it).
"""

from __future__ import annotations

from collections.abc import Iterator

from irlint.rules.back_edges import edge_text

from irlint.controlflow import CONTROL_FLOW, EntryKind, loop_plan
from irlint.diagnostics import Related
from irlint.engine.context import Context
from irlint.ir.model import Graph, Layer
from irlint.openvino.memory import Kind, overwrites
from irlint.rule import Finding, rule


@rule("BE508", "back-edge-passes-slice", severity="warning", types=CONTROL_FLOW)
def back_edge_passes_slice(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A back edge passes on a sliced body input itself, or a Reshape/Squeeze/Unsqueeze of it.

    What it checks:
    Each back edge whose Parameter the body reads and whose Result reads a sliced body Parameter,
    directly or through views (irlint/openvino/memory.py, SLICE_PASSED).

    Why it matters:
    The spec passes the slice of iteration k to the back edge's Parameter in iteration k + 1. A
    body Result's memory in OpenVINO's CPU plugin is the memory of the value it reads, here the
    slice's (a view computes nothing), and the plugin copies a back edge only at the start of the
    next iteration, after the next slice is in place: the Parameter receives the slice of its own
    iteration (slices 1, 10, 100, 1000 and an initial -5 give -5, 10, 100, 1000 where the spec
    gives -5, 1, 10, 100). irlint computes the spec's values (irlint/openvino/memory.py).

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
    sliced = {pe.body_layer: pe.entry for pe in loop_plan(layer).of(EntryKind.SLICED_INPUT)}
    for o in overwrites(ctx, layer, frozenset({Kind.SLICE_PASSED})):
        if o.back_edge is None:
            continue
        be, src = o.back_edge, o.param
        via = f" through {', '.join(v.describe() for v in reversed(o.views))}" if o.views else ""
        yield Finding(f"{edge_text(be)} of {layer.describe()} passes on body {src.describe()}, the slice of input "
                      f"port {sliced[src.id].external_port_id}{via}: OpenVINO's CPU plugin copies it to the back "
                      "edge's Parameter only after the next slice is in place, so the Parameter receives the slice "
                      "of its own iteration where the spec gives the previous one", be.loc, layer=layer.path,
                      related=(Related(sliced[src.id].loc, "the sliced input"),),
                      hint="compute the value the back edge passes on (a Relu or + 0 copies it)")
