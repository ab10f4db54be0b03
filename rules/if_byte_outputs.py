"""IF813: a u8/i8 If output of dynamic shape the CPU plugin hands its reader unwritten.

A warning that names the plugin: the model is valid, irlint computes what the spec says, and the
plugin's result differs (docs/rules-openvino.md gives the measurements).
"""

from __future__ import annotations

from collections.abc import Iterator

from irlint.diagnostics import Related
from irlint.engine.context import Context
from irlint.ir.model import Graph, Layer
from irlint.rule import Finding, rule
from irlint.types import element_type

# Element types of an If output measured to be lost (u8, i8); i32 and f32 agree.
_BYTE_TYPES = frozenset({"u8", "i8"})
# How far from the If's reader the Convert is measured to matter: the reader's own Convert, and one
# behind one, two or three ReLUs (or a Reshape) fail alike.
_REACH = 4


@rule("IF813", "if-byte-output-read-then-converted", severity="warning", types=("If",), uses_shapes=True)
def if_byte_output_read_then_converted(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """An If's u8/i8 output of dynamic shape is read by an op whose value a Convert then reads.

    What it checks:
    Each If whose condition is not a constant, with an output of element type u8 or i8 and a
    dynamic dim that a layer other than a Result or a Convert reads, when a Convert reads that
    layer's output directly or through at most three other layers, and converts to f16 or i64, or
    to f32 or i32 with another Convert reading it.

    Why it matters:
    The model is valid. OpenVINO's CPU plugin hands the op reading the If's output memory that the
    If did not write, whichever branch runs; no Loop is needed. Measured on 2026.4 with x a u8
    input of shape [?] holding [0, 3, 1]: Convert(Convert(Add(x, If(Convert(ReduceSum(x), f32) > 0,
    ReLU(x), Minimum(x, 1))), f16), u8): the spec gives [0, 6, 2], five compilations of one model
    give values such as [0, 3, 1], [80, 32, 32] or [128, 118, 130]; the same If nested in an outer
    If's branch, an i8 input, x all zeros (the else branch runs), a ReLU or a Multiply reading the
    If, one to three ReLUs or a Reshape between the Add and the Convert, the If's condition taken
    from another input, a Convert to f16 or i64 alone, and pairs through f32, i32 or i64 instead
    fail alike. A static shape [3], an i32 or f32 input, a constant condition, no Convert, a
    Convert reading the If itself, a Convert of the Add to f32 or i32 alone, or a pair through i8
    agree. The cause was not located in the plugin's source, so the rule is a doubt about its
    memory reuse where it is measured to fail. irlint computes what the spec says.

    Example:
    ```xml
    <layer id="3" type="If"> ... <port id="2" precision="U8"><dim>-1</dim></port>  <!-- an Add reads it -->
    <layer id="5" type="Convert"><data destination_type="f16"/>   <!-- reads the Add -->
    ```

    How to fix:
    Give the If's input a static shape, or compute in i32 (Convert to i32 before the If).
    """
    if not layer.inputs:
        return
    if not condition_computed(ctx, graph, layer):
        return
    index = ctx.index(graph)
    for port in layer.outputs:
        info = ctx.shapes.output(layer, port.id)
        if info.etype is None or info.etype.name not in _BYTE_TYPES or info.shape is None \
                or all(d.value is not None for d in info.shape):
            continue
        for e in index.edges_out(layer.id, port.id):
            reader = graph.layer(e.to_layer)
            if reader is None or reader.type in ("Result", "Convert"):
                continue
            convert = _convert_after(graph, ctx, reader)
            if convert is None:
                continue
            yield Finding(f"output port {port.id} of {layer.describe()} is {info.etype.name} of dynamic shape and "
                          f"read by {reader.describe()}, whose value {convert.describe()} converts: OpenVINO's CPU "
                          "plugin is measured to hand the reader memory the If did not write (different on each "
                          "compilation); irlint computes the spec's",
                          layer.port_loc(port), layer=layer.path, port=port.id,
                          related=(Related(reader.loc, f"'{reader.name}' reads the If's output"),
                                   Related(convert.loc, f"'{convert.name}' converts its value")),
                          hint="give the If's input a static shape, or compute in i32")
            return


def _convert_after(graph: Graph, ctx: Context, reader: Layer) -> Layer | None:
    """A Convert reading `reader`'s output, or reached from it through at most three other layers, of a kind
    measured to fail: one to f16 or i64, or one to f32 or i32 that another Convert reads."""
    index = ctx.index(graph)

    def readers(la: Layer) -> list[Layer]:
        return [r for p in la.outputs for e in index.edges_out(la.id, p.id)
                if (r := graph.layer(e.to_layer)) is not None and r.type != "Result"]

    seen, level = {reader.id}, [reader]
    for _ in range(_REACH):
        following: list[Layer] = []
        for la in (r for prev in level for r in readers(prev)):
            if la.id in seen:
                continue
            seen.add(la.id)
            if la.type != "Convert":
                following.append(la)
                continue
            dst = element_type(la.data.get("destination_type", ""))
            twice = any(r.type == "Convert" for r in readers(la))
            if dst is not None and (dst.name in ("f16", "i64") or (dst.name in ("f32", "i32") and twice)):
                return la
        level = following
    return None


def condition_computed(ctx: Context, graph: Graph, layer: Layer) -> bool:
    """Whether the If's condition is computed at run time (OpenVINO folds an If of constant condition
    into its taken branch, and the CPU plugin then runs no If at all)."""
    cond = ctx.index(graph).source(layer.id, layer.inputs[0].id)
    src = graph.layer(cond.from_layer) if cond is not None else None
    return src is not None and cond is not None and ctx.shapes.output(src, cond.from_port).value is None
