"""ST90x: ReadValue/Assign variables (the state LowLatency2 leaves): pairing and declarations.

A variable is named by `variable_id`; OpenVINO pairs each Assign with the ReadValue of the same id
and its CPU plugin keeps exactly one memory per pair. Measured with openvino 2026.4
(docs/rules-openvino.md): an Assign without a ReadValue is rejected at read, a ReadValue without an
Assign, a second ReadValue or a second Assign of one id fail at the first inference, and an Assign
whose input does not fit the variable's type or shape is read but rejected at compile.
"""

from __future__ import annotations

from collections.abc import Iterator

from irlint.diagnostics import Related
from irlint.engine.context import Context
from irlint.ir.model import Layer
from irlint.rule import Finding, rule
from irlint.types import ElementType, Shape, element_type, format_shape, parse_shape


def _by_id(ctx: Context) -> tuple[dict[str, list[Layer]], dict[str, list[Layer]]]:
    """ReadValues and Assigns of every level, by variable_id, in document order (one walk of the model
    shared by the four rules below; they only read it)."""
    return ctx.memo("variables-by-id", ctx.model.graph, lambda: _collect(ctx))


def _collect(ctx: Context) -> tuple[dict[str, list[Layer]], dict[str, list[Layer]]]:
    reads: dict[str, list[Layer]] = {}
    assigns: dict[str, list[Layer]] = {}
    for _g, layer in ctx.model.layers():
        if layer.type == "ReadValue" and "variable_id" in layer.data:
            reads.setdefault(layer.data["variable_id"], []).append(layer)
        elif layer.type == "Assign" and "variable_id" in layer.data:
            assigns.setdefault(layer.data["variable_id"], []).append(layer)
    return reads, assigns


def _where(layer: Layer):  # type: ignore[no-untyped-def]
    return layer.data_loc or layer.loc


@rule("ST901", "assign-without-read-value", scope="model")
def assign_without_read_value(ctx: Context) -> Iterator[Finding]:
    """An Assign writes a variable that no ReadValue declares.

    What it checks:
    Every Assign's `variable_id` is the `variable_id` of a ReadValue somewhere in the model.

    Why it matters:
    The variable (its type and shape) is declared by its ReadValue; OpenVINO cannot build an Assign
    without it and rejects the file at read with "map::at", naming neither the layer nor the id.

    Example:
    ```xml
    <layer type="ReadValue" version="opset6"><data variable_id="h_state" .../>
    <layer type="Assign" version="opset6"><data variable_id="h_stat"/>   <!-- a typo -->
    ```

    How to fix:
    Give the Assign the `variable_id` of the ReadValue it pairs with (LowLatency2 writes them as
    `<TensorIterator>/<Parameter>/variable_<n>`).
    """
    reads, assigns = _by_id(ctx)
    for vid, layers in assigns.items():
        if vid not in reads:
            for layer in layers:
                yield Finding(f"Assign writes variable '{vid}', which no ReadValue declares", _where(layer),
                              layer=layer.path)


@rule("ST902", "read-value-without-assign", scope="model")
def read_value_without_assign(ctx: Context) -> Iterator[Finding]:
    """A ReadValue reads a variable that no Assign writes.

    What it checks:
    Every ReadValue's `variable_id` is the `variable_id` of an Assign somewhere in the model.

    Why it matters:
    OpenVINO reads and compiles the model, but the CPU plugin fails at the first inference with
    "ReadValue node ... doesn't have sibling output": it keeps a variable only as a ReadValue/Assign
    pair. Without an Assign the variable could only ever hold its initial value.

    Example:
    ```xml
    <layer type="ReadValue" version="opset6"><data variable_id="h_state" .../>
    <!-- no Assign with variable_id="h_state" -->
    ```

    How to fix:
    Add the Assign that stores the new value (the pair LowLatency2 creates), or replace the
    ReadValue by its initial value if no state is meant.
    """
    reads, assigns = _by_id(ctx)
    for vid, layers in reads.items():
        if vid not in assigns:
            for layer in layers:
                yield Finding(f"ReadValue reads variable '{vid}', which no Assign writes (OpenVINO's CPU plugin "
                              "fails at the first inference)", _where(layer), layer=layer.path)


@rule("ST903", "duplicate-variable-op", scope="model")
def duplicate_variable_op(ctx: Context) -> Iterator[Finding]:
    """Two ReadValues, or two Assigns, use one variable_id.

    What it checks:
    Each `variable_id` has at most one ReadValue and at most one Assign in the model.

    Why it matters:
    OpenVINO reads and compiles such a model, but the CPU plugin fails at the first inference
    ("Assign node ... uninitialized assigned memory" for a second Assign, "ReadValue node ...
    doesn't have sibling output" for a second ReadValue): it pairs one ReadValue with one Assign.
    Which of two Assigns would win is not defined either.

    Example:
    ```xml
    <layer id="5" type="Assign"><data variable_id="h_state"/>
    <layer id="9" type="Assign"><data variable_id="h_state"/>   <!-- second writer -->
    ```

    How to fix:
    Give each state its own variable, or compute the one value to store and Assign it once.
    """
    reads, assigns = _by_id(ctx)
    for kind, table in (("ReadValue", reads), ("Assign", assigns)):
        for vid, layers in table.items():
            for layer in layers[1:]:
                yield Finding(f"a second {kind} of variable '{vid}' (OpenVINO pairs one ReadValue with one Assign; "
                              "its CPU plugin fails at the first inference)", _where(layer), layer=layer.path,
                              related=(Related(layers[0].loc, f"the first {kind} of '{vid}'"),))


def _declared(layer: Layer) -> tuple[ElementType | None, Shape | None]:
    """The variable's type and shape as its ReadValue declares them (attributes, else its output port)."""
    et = element_type(layer.data["variable_type"]) if layer.data.get("variable_type") else None
    shape = None
    if layer.data.get("variable_shape"):
        try:
            shape = parse_shape(layer.data["variable_shape"])
        except ValueError:
            shape = None
    port = layer.outputs[0] if layer.outputs else None
    if et is None and port is not None:
        et = port.precision
    if shape is None and port is not None:
        shape = port.shape
    return et, shape


@rule("ST904", "assign-variable-mismatch", scope="model")
def assign_variable_mismatch(ctx: Context) -> Iterator[Finding]:
    """An Assign stores a value whose type or shape the variable cannot hold.

    What it checks:
    The element type and shape an Assign's input port declares against the variable's
    `variable_type`/`variable_shape` on its ReadValue (a dynamic dim or type accepts anything that
    fits it).

    Why it matters:
    OpenVINO reads the file but rejects it at compile ("The type specified in the Variable is not
    compatible with the input type", "The shape specified in the Variable is not compatible with the
    shape of the input"), without naming the layer. The next inference would read back a value of a type or
    shape the model was not built for.

    Example:
    ```xml
    <layer type="ReadValue" version="opset6"><data variable_id="h" variable_type="f32" variable_shape="1,4"/>
    <layer type="Assign" version="opset6"><data variable_id="h"/>
        <input><port id="0" precision="FP32"><dim>1</dim><dim>8</dim></port></input>
    ```

    How to fix:
    Store a value of the variable's type and shape, or relax `variable_shape` (`?` dims) where the
    state is meant to change shape.
    """
    reads, assigns = _by_id(ctx)
    for vid, layers in assigns.items():
        if vid not in reads:
            continue
        et, shape = _declared(reads[vid][0])
        for layer in layers:
            port = layer.inputs[0] if layer.inputs else None
            if port is None:
                continue
            why = None
            if et is not None and port.precision is not None and not et.is_dynamic and not port.precision.is_dynamic \
                    and et != port.precision:
                why = f"its input is {port.precision}, the variable {et}"
            elif shape is not None and port.shape is not None and (
                    len(shape) != len(port.shape) or not all(a.compatible(b) for a, b in zip(shape, port.shape))):
                why = f"its input is {format_shape(port.shape)}, the variable {format_shape(shape)}"
            if why is not None:
                yield Finding(f"Assign of variable '{vid}': {why}", layer.port_loc(port), layer=layer.path,
                              port=port.id, related=(Related(reads[vid][0].loc, f"variable '{vid}' is declared here"),))
