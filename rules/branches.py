"""IF8xx: the structure of an If (opset8) — its condition, its two branches and their port maps."""

from __future__ import annotations

from collections.abc import Iterator

from irlint import causes
from irlint.controlflow.outputs import entry_of_port, output_ports
from irlint.diagnostics import Related, Severity
from irlint.engine.context import Context
from irlint.ir.model import Branch, Graph, Layer, PortMapEntry
from irlint.rule import Finding, rule
from irlint.shapes.dimless import output_shape
from irlint.shapes.merge import one_element
from irlint.tensor import TensorInfo
from irlint.types import ELEMENT_TYPES, Dim, format_shape

IF = ("If",)
BOOLEAN = ELEMENT_TYPES["boolean"]


def _entry(b: Branch, e: PortMapEntry) -> str:
    return (f"{b.name}_port_map <{e.direction} external_port_id={e.external_port_id} "
            f"internal_layer_id={e.internal_layer_id}>")


def _entries(layer: Layer, b: Branch, direction: str) -> str:
    """The irlint.causes key of a wrong `<direction>` entry in one branch's port map."""
    return causes.entries(layer, f"{b.name}_{direction}")


@rule("IF801", "if-port-map-external-port-missing", types=IF)
def external_port_missing(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A branch port map entry's `external_port_id` is not a data port of the If on the entry's side.

    What it checks:
    An `<input>` entry of `<then_port_map>`/`<else_port_map>` names one of the If's input ports
    other than port 0 (the condition, which no branch receives); an `<output>` entry names one of
    its output ports.

    Why it matters:
    An input entry would read a tensor that does not exist: OpenVINO rejects it at read ("node index
    is out of range", naming no entry). An output entry's id is never looked up: OpenVINO's reader
    gives a branch's output entries the If's outputs in the order of their ids and runs the model
    (ids 0, 9 of outputs 2, 3 give 2, 3); irlint's interpreter does the same and warns. The spec gives such
    an entry no port, and other readers may map it otherwise.

    Example:
    ```xml
    <then_port_map><input external_port_id="7" internal_layer_id="0"/></then_port_map>  <!-- ports 0..2 -->
    ```

    How to fix:
    Use the id of the If's `<port>` the entry connects, on the right side of the layer.
    """
    inputs = [p.id for p in layer.inputs if p.id != 0]
    outputs = [p.id for p in layer.outputs]
    for b in layer.branches:
        by_order = output_ports(layer, b.port_map)
        for e in b.port_map:
            if e.external_port_id is None:
                continue
            ports = inputs if e.direction == "input" else outputs
            if e.external_port_id in ports:
                continue
            why = ("port 0 is the condition, which no branch receives" if e.direction == "input"
                   and e.external_port_id == 0 else f"there is no {e.direction} port {e.external_port_id}")
            given = by_order.get(e) if e.direction == "output" else None
            runs = ("" if given is None else
                    f"; OpenVINO gives the {b.name} branch's output entries the If's outputs in the order of their "
                    f"ids and runs the model: this entry gives output port {given} (so does irlint's interpreter)")
            yield Finding(f"{_entry(b, e)} of {layer.describe()}: {why}; its data {e.direction} ports are "
                          f"{ports}{runs}",
                          e.loc, layer=layer.path, port=e.external_port_id,
                          related=(Related(layer.loc, f"'{layer.name}' is declared here"),),
                          claims=(_entries(layer, b, e.direction),))


@rule("IF802", "if-port-map-internal-layer-wrong", types=IF)
def internal_layer_wrong(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A branch port map entry's `internal_layer_id` is not a Parameter (input) or Result (output) of that branch.

    What it checks:
    The layer each `<then_port_map>`/`<else_port_map>` entry names, in that branch's body (ids
    restart at 0 in each branch): it must exist, and be a Parameter for `<input>`, a Result for
    `<output>`.

    Why it matters:
    A branch connects to the If only through its Parameters and Results. OpenVINO rejects such a
    model at read without naming the entry.

    Example:
    ```xml
    <else_port_map><output external_port_id="3" internal_layer_id="2"/></else_port_map>  <!-- layer 2 is a Multiply -->
    ```

    How to fix:
    Point the entry at the branch's Parameter (input) or Result (output) that carries the tensor.
    """
    for b in layer.branches:
        for e in b.port_map:
            if e.internal_layer_id is None:
                continue
            target = b.body.layer(e.internal_layer_id)
            want = "Parameter" if e.direction == "input" else "Result"
            if target is None:
                yield Finding(f"{_entry(b, e)} of {layer.describe()}: the {b.name} branch has no layer "
                              f"{e.internal_layer_id}", e.loc, layer=layer.path,
                              hint=f"internal_layer_id names a layer of <{b.name}_body>",
                              claims=(_entries(layer, b, e.direction),))
            elif target.type != want:
                yield Finding(f"{_entry(b, e)} of {layer.describe()}: {b.name} branch {target.describe()} is not a "
                              f"{want}", e.loc, layer=layer.path,
                              related=(Related(target.loc, f"'{target.name}' is a {target.type}"),),
                              hint=f"<{e.direction}> entries map branch {want}s",
                              claims=(_entries(layer, b, e.direction),))


@rule("IF803", "if-output-not-produced", types=IF)
def output_not_produced(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """An output port of the If has no `<output>` entry in one of its branch port maps.

    What it checks:
    Every output port of the If appears as `external_port_id` of an `<output>` entry in both
    `<then_port_map>` and `<else_port_map>`.

    Why it matters:
    Whichever branch runs must produce every output; a branch without an entry for a port leaves
    it without a value. OpenVINO rejects the model at read.

    Example:
    ```xml
    <output><port id="3"/></output>
    <else_port_map><input external_port_id="1" internal_layer_id="0"/></else_port_map>  <!-- no output 3 -->
    ```

    How to fix:
    Add an `<output>` entry mapping the branch's Result to the port.
    """
    for b in layer.branches:
        mapped = {e.external_port_id for e in b.port_map if e.direction == "output"}
        by_order = entry_of_port(layer, b.port_map)
        where = layer.branch_port_map_loc(b.name)
        for p in layer.outputs:
            if p.id is not None and p.id not in mapped:
                other = by_order.get(p.id)
                runs = ("" if other is None else f" (OpenVINO gives it the entry of external_port_id "
                        f"{other.external_port_id}, by the order of the ids)")
                yield Finding(f"output port {p.id} of {layer.describe()} has no <output> entry in its "
                              f"{b.name}_port_map: the {b.name} branch does not produce it{runs}", layer.port_loc(p),
                              layer=layer.path, port=p.id,
                              related=((Related(where, f"the {b.name}_port_map"),) if where else ()),
                              because=(_entries(layer, b, "output"),),  # an entry meant for it names another
                              effect=f"leaves output port {p.id} of {layer.describe()} without a value from the "
                              f"{b.name} branch{runs}")


@rule("IF804", "if-branch-output-mismatch", types=IF, uses_shapes=True)
def branch_output_mismatch(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A branch Result's element type, or the If output's rank, differs from the If output port's declaration.

    What it checks:
    For every `<output>` entry of the branches that run, the inferred element type reaching the
    branch Result against the If's declared output port; and the rank of the If's output against
    the port's. The output is what OpenVINO makes of the branches: with a constant condition the
    taken branch's (the other branch's Results reach no output, and this rule does not compare
    them; OpenVINO checks that branch only against its own declarations), otherwise
    the union of both (docs/semantics.md, "Where two shapes meet": `[]` and `[1]` give `[1]`, other
    ranks 0 and 1 a dynamic 1-D shape, other different ranks a dynamic rank, which OpenVINO writes as
    a port without dims). A scalar and a one-element 1-D shape fit each other; dims may differ (a
    dim that differs between branches is declared dynamic or as an interval).

    Why it matters:
    OpenVINO takes the output's type from the branches, so a declaration that disagrees describes
    a tensor that never flows, and consumers checked against the declaration are checked against
    the wrong thing; when the branches disagree with each other in type, OpenVINO rejects the model.

    Example:
    ```xml
    <port id="3" precision="FP32"><dim>2</dim><dim>3</dim></port>  <!-- the else branch yields i32 [2,3] -->
    ```

    How to fix:
    Make both branches produce the declared type and rank (add a Convert/Reshape in the branch),
    or declare what they produce.
    """
    dead = ctx.shapes.not_running
    for b in layer.branches:
        if dead(f"{layer.path}/{b.body.kind}/"):
            continue
        idx = ctx.index(b.body)
        for e in b.port_map:
            res = b.body.layer(e.internal_layer_id)
            port = layer.output(e.external_port_id) if e.external_port_id is not None else None
            if e.direction != "output" or res is None or res.type != "Result" or not res.inputs or port is None:
                continue
            edge = idx.source(res.id, res.inputs[0].id)
            src = b.body.layer(edge.from_layer) if edge is not None else None
            if src is None or edge is None:
                continue
            got = ctx.shapes.output(src, edge.from_port)
            if (got.etype is not None and port.precision is not None and not got.etype.is_dynamic
                    and not port.precision.is_dynamic and got.etype != port.precision):
                poison = ctx.shapes.poison(src, edge.from_port)  # derived from a defect: its finding carries it
                yield Finding(f"the {b.name} branch of {layer.describe()} gives output port {port.id} element type "
                              f"{got.etype.name}, the port declares {port.precision.name}", layer.port_loc(port),
                              layer=layer.path, port=port.id,
                              related=(Related(e.loc, f"the {b.name}_port_map entry"),
                                       Related(res.loc, f"the {b.name} branch's Result"),
                                       *((poison.note(),) if poison is not None else ())),
                              claims=(causes.port(layer, port.id),),
                              because=((poison.key,) if poison is not None else ()) + (causes.port(layer, port.id),),
                              effect=f"makes the {b.name} branch give output port {port.id} of {layer.describe()} "
                              f"{got.etype.name} instead of its declared {port.precision.name}")
    for port in layer.outputs:
        merged = ctx.shapes.output(layer, port.id).shape
        declared = output_shape(layer, port, lambda s=merged: TensorInfo(None, s))
        if merged is None or declared is None or len(merged) == len(declared) or one_element(merged, declared):
            continue
        yield Finding(f"output port {port.id} of {layer.describe()} declares rank {len(declared)}, but "
                      f"{_what_runs(ctx, layer, port.id)} rank {len(merged)} ({format_shape(merged)})",
                      layer.port_loc(port), layer=layer.path, port=port.id,
                      related=tuple(Related(e.loc, f"the {b.name}_port_map entry") for b in layer.branches
                                    if (e := entry_of_port(layer, b.port_map).get(port.id)) is not None),
                      claims=(causes.port(layer, port.id),), because=(causes.port(layer, port.id),),
                      effect=f"makes output port {port.id} of {layer.describe()} {format_shape(merged)} instead of its "
                      f"declared {format_shape(declared)}")


def _what_runs(ctx: Context, layer: Layer, port_id: int | None) -> str:
    """How a message names where an If output comes from: the taken branch, or both branches' union."""
    taken = [b.name for b in layer.branches if not ctx.shapes.not_running(f"{layer.path}/{b.body.kind}/")]
    if len(taken) == 1 and len(layer.branches) == 2:
        return f"the {taken[0]} branch (its condition is a constant) gives"
    return "the union of its branches has"


@rule("IF805", "if-condition-not-boolean-scalar", types=IF, uses_shapes=True)
def condition_not_boolean_scalar(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """The If's condition (input port 0) is not a boolean of one element.

    What it checks:
    The inferred tensor reaching input port 0 (else its declaration): element type `boolean`, and
    rank 0, or rank 1 with one element.

    Why it matters:
    OpenVINO's If takes a boolean scalar (or 1-element vector) condition; it rejects another rank
    when the model is read, and the branch cannot be chosen from a tensor of several elements.

    Example:
    ```xml
    <port id="0" precision="FP32"><dim>2</dim></port>   <!-- a condition of 2 floats -->
    ```

    How to fix:
    Feed a boolean scalar: reduce the tensor (ReduceLogicalAnd/Or) or compare it (Greater ...)
    to get one.
    """
    port = layer.input(0)
    if port is None:
        yield Finding(f"{layer.describe()} has no input port 0, its condition", layer.loc, layer=layer.path)
        return
    edge = ctx.index(graph).source(layer.id, 0)
    src = graph.layer(edge.from_layer) if edge is not None else None
    got = ctx.shapes.output(src, edge.from_port) if src is not None and edge is not None else None
    etype = got.etype if got is not None and got.etype is not None else port.precision
    shape = got.shape if got is not None and got.shape is not None else port.shape
    problems = []
    if etype is not None and not etype.is_dynamic and etype != BOOLEAN:
        problems.append(f"element type {etype.name}")
    if shape is not None and (len(shape) > 1 or (len(shape) == 1 and not shape[0].compatible(Dim.of(1)))):
        problems.append(f"shape [{','.join(str(d) for d in shape)}]")
    if problems:
        yield Finding(f"the condition of {layer.describe()} has {' and '.join(problems)}; If takes a boolean of "
                      "one element (shape [] or [1])", layer.port_loc(port), layer=layer.path, port=0)


@rule("IF806", "if-branch-parameter-not-fed", types=IF)
def branch_parameter_not_fed(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A Parameter of an If branch is fed by no `<input>` entry of that branch's port map.

    What it checks:
    Every Parameter of `<then_body>` and `<else_body>` is the `internal_layer_id` of an `<input>`
    entry of its branch's port map. An error when a layer of the branch reads the Parameter; a
    warning when nothing does.

    Why it matters:
    OpenVINO reads, compiles and runs such a model without a word, and the CPU plugin gives the
    Parameter zeros: the branch computes something else than the model says (measured: then = x + y
    with y's entry removed returns x). irlint's interpreter refuses to run the branch. A Parameter
    that nothing reads changes nothing (OpenVINO runs the model and computes the same).

    Example:
    ```xml
    <then_port_map>
        <input external_port_id="1" internal_layer_id="0"/>   <!-- Parameter 1 of then_body: no entry -->
    ```

    How to fix:
    Add the `<input>` entry that feeds the Parameter (or remove the Parameter and what reads it).
    """
    for b in layer.branches:
        fed = {e.internal_layer_id for e in b.port_map if e.direction == "input"}
        where = layer.branch_port_map_loc(b.name)
        idx = ctx.index(b.body)
        for p in b.body.parameters():
            if p.id in fed:
                continue
            related = (Related(where, f"the {b.name}_port_map"),) if where else ()
            if idx.users(p):
                yield Finding(f"{b.name} branch {p.describe()} of {layer.describe()} is fed by no <input> entry of "
                              f"its {b.name}_port_map", p.loc, layer=p.path, related=related,
                              hint="OpenVINO runs the branch with zeros in this Parameter",
                              because=(_entries(layer, b, "input"),),  # the entry meant for it names another
                              effect=f"leaves {b.name} branch {p.describe()} unfed (OpenVINO gives it zeros)")
            else:
                yield Finding(f"{b.name} branch {p.describe()} of {layer.describe()} is fed by no <input> entry of "
                              f"its {b.name}_port_map (nothing reads it)", p.loc, layer=p.path, related=related,
                              severity=Severity.WARNING, hint="add the <input> entry that feeds it, or remove it",
                              because=(_entries(layer, b, "input"),),
                              effect=f"leaves {b.name} branch {p.describe()} unfed (nothing reads it)")


@rule("IF808", "if-input-entry-negative-axis", types=IF)
def input_entry_negative_axis(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """An If branch `<input>` entry carries a negative `axis`, which OpenVINO's IR reader refuses.

    What it checks:
    No `<input>` entry of `<then_port_map>`/`<else_port_map>` has an `axis` below 0.

    Why it matters:
    An If passes whole tensors to its branches: its specification gives port map entries no `axis`.
    OpenVINO's reader parses `axis` on every `<input>` entry as an unsigned integer, so a negative
    one stops it ("node <input> has attribute "axis" = "-1" which is not an unsigned 64 bit
    integer"); a non-negative `axis` on an If input entry, and any `axis` on an If output entry,
    is read and ignored.

    Example:
    ```xml
    <then_port_map><input external_port_id="1" internal_layer_id="0" axis="-1"/></then_port_map>
    ```

    How to fix:
    Delete the `axis` attribute: an If does not slice.
    """
    for b in layer.branches:
        for e in b.port_map:
            if e.direction == "input" and e.axis is not None and e.axis < 0:
                yield Finding(f"{_entry(b, e)} of {layer.describe()}: axis {e.axis} is negative; OpenVINO's IR "
                              "reader refuses it (it reads an input entry's axis as an unsigned integer), and an If "
                              "does not slice", e.loc, layer=layer.path, port=e.external_port_id,
                              hint="delete the axis attribute")


@rule("IF809", "if-input-mapped-twice", severity="warning", types=IF)
def input_mapped_twice(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """One branch port map maps an If input to two branch Parameters, which OpenVINO's reader does not do.

    What it checks:
    Within `<then_port_map>` (and within `<else_port_map>`), no two `<input>` entries share an
    `external_port_id`.

    Why it matters:
    The If passes its input to both Parameters as the file says, and irlint computes so. OpenVINO's
    reader keeps one entry per external port, the first, and leaves the second Parameter unfed: the
    CPU plugin gives it zeros without a message (measured: a then branch `tx + ty` with both mapped
    to port 1 returns x on OpenVINO, 2x on irlint). The second Parameter keeps its declared tensor
    in OpenVINO: an op of the branch that rejects what the file's reading gives it is read and run
    there, and its finding names this entry as its cause.

    Example:
    ```xml
    <then_port_map>
        <input external_port_id="1" internal_layer_id="0"/>
        <input external_port_id="1" internal_layer_id="1"/>   <!-- OpenVINO feeds layer 1 zeros -->
    </then_port_map>
    ```

    How to fix:
    Map the input to one Parameter and read that Parameter wherever the branch needs it.
    """
    for b in layer.branches:
        first: dict[int, PortMapEntry] = {}
        for e in b.port_map:
            if e.direction != "input" or e.external_port_id is None:
                continue
            if e.external_port_id in first:
                yield Finding(f"{_entry(b, e)} of {layer.describe()}: input port {e.external_port_id} is mapped "
                              f"already (to {b.name} layer {first[e.external_port_id].internal_layer_id}); OpenVINO's "
                              "reader keeps only the first entry, and its CPU plugin feeds this Parameter zeros",
                              e.loc, layer=layer.path, port=e.external_port_id,
                              related=(Related(first[e.external_port_id].loc, "the first entry"),),
                              claims=(causes.conflict(layer, f"{b.name}_input", e.external_port_id),),
                              hint="map the input to one Parameter")
            else:
                first[e.external_port_id] = e


@rule("IF820", "if-branch-result-mapped-twice", types=IF)
def branch_result_mapped_twice(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """One branch Result is mapped to two output ports of the If.

    What it checks:
    Within `<then_port_map>` and within `<else_port_map>`, no two `<output>` entries name the same
    `internal_layer_id`.

    Why it matters:
    OpenVINO associates each branch Result with exactly one If output and refuses the model at read
    ("Incorrect associating in body! Result 0 is already associated with another output!"). A Loop
    or TensorIterator may map one body Result to several outputs; an If may not.

    Example:
    ```xml
    <output external_port_id="3" internal_layer_id="3"/>
    <output external_port_id="4" internal_layer_id="3"/>   <!-- Result 3 again -->
    ```

    How to fix:
    Give the second output a Result of its own in the branch (two Results may read the same value).
    """
    for b in layer.branches:
        first: dict[int, PortMapEntry] = {}
        for e in b.port_map:
            if e.direction != "output" or e.internal_layer_id is None:
                continue
            seen = first.setdefault(e.internal_layer_id, e)
            if seen is e:
                continue
            res = b.body.layer(e.internal_layer_id)
            what = res.describe() if res is not None else f"layer {e.internal_layer_id}"
            yield Finding(f"{b.name}_port_map of {layer.describe()} maps {b.name} {what} to output port "
                          f"{e.external_port_id} as well as to port {seen.external_port_id}",
                          e.loc, layer=layer.path, port=e.external_port_id,
                          related=(Related(seen.loc, "the first entry mapping it"),),
                          hint="give each If output a Result of its own in the branch")
