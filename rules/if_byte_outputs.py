"""IF813: an If output of dynamic shape whose memory the CPU plugin gives away before its reader runs.

A warning that names the plugin: the model is valid, irlint computes what the spec says, and the
plugin's result differs (docs/rules-openvino.md gives the measurements).
"""

from __future__ import annotations

from collections.abc import Iterator

from irlint.diagnostics import Related
from irlint.engine.context import Context
from irlint.ir.model import Graph, Layer
from irlint.openvino.dynamic_memory import overtaking
from irlint.rule import Finding, rule


@rule("IF813", "if-output-memory-taken-before-read", severity="warning", types=("If",), uses_shapes=True)
def if_output_memory_taken_before_read(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """An If's narrow output of dynamic shape loses its memory to a wider tensor the CPU plugin computes later.

    What it checks:
    Each If on a computed condition with an output of dynamic shape that an op reads, whose elements
    the CPU plugin holds in fewer bytes (u8, i8, bf16) than those of a dynamic tensor it keeps
    between two of its nodes after the If's last reader, with no If, Loop or TensorIterator between
    them: the value between two Converts, or at the top level the output of a layer feeding a Result
    of a type the plugin computes in another (i64, f16, ...: it converts it back before the Result).

    Why it matters:
    The model is valid. The plugin lets such tensors share one memory block and, before it runs the
    nodes after an If, grows the block for the wider tensor without keeping its contents; the If's
    reader then reads memory the If did not write, whenever the shapes change (the first inference,
    a new input shape, the first iteration of a loop body). With x a u8 input of shape [?] holding
    [3, 1], Add(If(c > 0, x + x, x + x), x) beside a later output Convert(y, i64) gives [3, 1] or
    [83, 30] where the spec gives [9, 3]; put the Convert's output first, convert to i32, or give y
    fewer than a quarter of x's elements, and it agrees (irlint/openvino/dynamic_memory.py, sources).
    irlint computes what the spec says.

    Example:
    ```xml
    <layer id="3" type="If"> ... <port id="2" precision="U8"><dim>-1</dim></port>  <!-- an Add reads it -->
    <layer id="6" type="Convert"><data destination_type="i64"/>   <!-- output after the Add's -->
    ```

    How to fix:
    Give the If's input a static shape, compute in i32 (Convert to i32 before the If), or convert to
    i32/f32 instead of i64/f16.
    """
    if not layer.inputs or not condition_computed(ctx, graph, layer):
        return
    for port in layer.outputs:
        tensor = overtaking(ctx, graph, layer, port.id, top_level=not graph.is_body)
        if tensor is None:
            continue
        info = ctx.shapes.output(layer, port.id)
        reader = next(r for e in ctx.index(graph).edges_out(layer.id, port.id)
                      if (r := graph.layer(e.to_layer)) is not None and r.type != "Result")
        yield Finding(f"output port {port.id} of {layer.describe()} is {info.etype} of dynamic shape and read by "
                      f"{reader.describe()}; OpenVINO's CPU plugin can give its memory to the {tensor.etype} output of "
                      f"{tensor.producer.describe()}, which it computes later, and grow it before the reader runs "
                      "when the shapes change: the reader gets memory the If did not write (different on each "
                      "compilation); irlint computes the spec's",
                      layer.port_loc(port), layer=layer.path, port=port.id,
                      related=(Related(reader.loc, f"'{reader.name}' reads the If's output"),
                               Related(tensor.producer.loc, f"'{tensor.producer.name}' gives a wider tensor later")),
                      hint="give the If's input a static shape, compute in i32, or convert to i32/f32 "
                           "instead of i64/f16")
        return


def condition_computed(ctx: Context, graph: Graph, layer: Layer) -> bool:
    """Whether the If's condition is computed at run time (OpenVINO folds an If of constant condition
    into its taken branch, and the CPU plugin then runs no If at all)."""
    cond = ctx.index(graph).source(layer.id, layer.inputs[0].id)
    src = graph.layer(cond.from_layer) if cond is not None else None
    return src is not None and cond is not None and ctx.shapes.output(src, cond.from_port).value is None
