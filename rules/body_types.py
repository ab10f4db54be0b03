"""PM412: the element types of TensorIterator body Parameters, which the CPU plugin does not take from outside."""

from __future__ import annotations

from collections.abc import Iterator

from irlint.diagnostics import Related
from irlint.engine.context import Context
from irlint.ir.model import Graph, Layer
from irlint.rule import Finding, rule
from irlint.types import element_type


@rule("PM412", "body-parameter-type-dynamic", types=("TensorIterator",), uses_shapes=True)
def body_parameter_type_dynamic(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A TensorIterator body Parameter declares `element_type="dynamic"` (or `undefined`).

    What it checks:
    The `element_type` of every Parameter in a TensorIterator body that a port_map input entry
    feeds. (In a Loop body the same declaration is harmless: OpenVINO takes the outer tensor's type,
    and the model compiles and computes correctly, so it is not reported.)

    Why it matters:
    OpenVINO writes such bodies (a body built with `ov.Type.dynamic` Parameters) and `read_model`
    accepts them, but its CPU plugin fails to compile the model with "Memory has not been
    allocated", naming no layer. irlint's shape inference uses the outer type, so the other checks
    of the body still run; SL605 and BE505 leave a dynamic declared type to this rule.

    Example:
    ```xml
    <layer id="0" type="Parameter"><data shape="1,1,4" element_type="dynamic"/>   <!-- fed f32 -->
    ```

    How to fix:
    Declare the element type the port_map entry delivers (the outer tensor's type).
    """
    body = layer.body
    if body is None:
        return
    info = ctx.shapes.loop(layer)
    for e in layer.port_map:
        if e.direction != "input":
            continue
        param = body.layer(e.internal_layer_id)
        if param is None or param.type != "Parameter":
            continue
        et = element_type(param.data.get("element_type", ""))
        if et is None or not et.is_dynamic:
            continue
        got = info.params.get(param.id) if info is not None and param.id is not None else None
        fed = f"; the entry delivers {got.etype}" if got is not None and got.etype is not None else ""
        yield Finding(f"body {param.describe()} of {layer.describe()} declares element_type={et.name}{fed}: "
                      "OpenVINO reads it, but its CPU plugin cannot compile the model",
                      param.data_loc or param.loc, layer=param.path, related=(Related(e.loc, "the port_map entry"),),
                      hint=f"declare element_type=\"{got.etype}\"" if got is not None and got.etype is not None
                      and not got.etype.is_dynamic else "declare the element type of the outer tensor")
