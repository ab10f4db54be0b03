"""PM4xx: the `<port_map>` of TensorIterator and Loop — which outer port feeds which body layer."""

from __future__ import annotations

from collections.abc import Iterator

from irlint.rules.back_edges import ELTWISE_NODES
from irlint.rules.cpu_numerics import _constant, _out_type
from irlint.rules.unread_outputs import lost_results, read_only_for_unread, unread_outputs

from irlint import causes
from irlint.controlflow import CONTROL_FLOW, EntryKind, loop_plan
from irlint.controlflow.liveness import read_layers
from irlint.diagnostics import Related, Severity
from irlint.engine.context import Context
from irlint.ir.declared import declared_info
from irlint.ir.index import GraphIndex
from irlint.ir.model import Edge, Graph, Layer, PortMapEntry
from irlint.rule import Finding, rule
from irlint.types import Dim, shape_values

LOOP_PURPOSES = {"input": "current_iteration", "output": "execution_condition"}


def is_special(layer: Layer, e: PortMapEntry) -> bool:
    """A Loop entry that is not connected to an outer port (current_iteration / execution_condition)."""
    return layer.type == "Loop" and (e.purpose is not None or e.external_port_id == -1)


def entry_text(e: PortMapEntry) -> str:
    return f"port_map <{e.direction} external_port_id={e.external_port_id} internal_layer_id={e.internal_layer_id}>"


@rule("PM401", "port-map-external-port-missing", types=CONTROL_FLOW)
def external_port_missing(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A port_map entry's `external_port_id` is not a port of the layer on the entry's side.

    What it checks:
    An `<input>` entry names one of the layer's input ports, an `<output>` entry one of its output
    ports (output ports are numbered after the input ports). Loop entries with
    `external_port_id="-1"` and a `purpose` are exempt.

    Why it matters:
    OpenVINO rejects the model with an error that names an auto-generated layer and no line.

    Example:
    ```xml
    <output external_port_id="9" internal_layer_id="11"/>   <!-- the layer has output ports 3, 4 -->
    ```

    How to fix:
    Use the id of the `<port>` this entry should connect, on the right side of the layer.
    """
    for e in layer.port_map:
        if e.external_port_id is None or e.external_port_id < 0 or is_special(layer, e):
            continue  # negative ids are PM406's business
        ports = layer.inputs if e.direction == "input" else layer.outputs
        if any(p.id == e.external_port_id for p in ports):
            continue
        other = layer.outputs if e.direction == "input" else layer.inputs
        wrong_side = any(p.id == e.external_port_id for p in other)
        side = "input" if e.direction == "input" else "output"
        why = (f"port {e.external_port_id} is an {'output' if side == 'input' else 'input'} port"
               if wrong_side else f"there is no port {e.external_port_id}")
        yield Finding(
            f"{entry_text(e)} of {layer.describe()}: {why}; its {side} ports are {[p.id for p in ports]}",
            e.loc, layer=layer.path, port=e.external_port_id,
            related=(Related(layer.loc, f"'{layer.name}' is declared here"),),
            hint=f"external_port_id of an <{e.direction}> entry is the id of one of the layer's {side} ports",
            claims=(causes.entries(layer, e.direction),),
            because=(causes.port_ids(layer),),  # the port it named may have been renamed to a duplicate
        )


@rule("PM402", "port-map-external-port-twice", types=CONTROL_FLOW)
def external_port_twice(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """Two port_map entries map the same external port.

    What it checks:
    Each input port feeds at most one body Parameter and each output port is produced by at most
    one body Result.

    Why it matters:
    An output port can hold only one tensor; OpenVINO keeps one of the entries silently. A second
    input entry for a port is almost always a typo in `external_port_id`.

    Example:
    ```xml
    <input external_port_id="1" internal_layer_id="3"/>
    <input external_port_id="1" internal_layer_id="4"/>
    ```

    How to fix:
    Point each entry at its own port.
    """
    seen: dict[tuple[str, int], PortMapEntry] = {}
    for e in layer.port_map:
        if e.external_port_id is None or is_special(layer, e):
            continue
        key = (e.direction, e.external_port_id)
        if key in seen:
            yield Finding(
                f"{entry_text(e)} of {layer.describe()}: {e.direction} port {e.external_port_id} is already mapped",
                e.loc, layer=layer.path, port=e.external_port_id,
                related=(Related(seen[key].loc, "first mapped here"),),
                claims=(causes.entries(layer, e.direction),
                        causes.conflict(layer, e.direction, e.external_port_id)),
            )
        else:
            seen[key] = e


@rule("PM403", "port-not-mapped", types=CONTROL_FLOW)
def port_not_mapped(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A data port of the TensorIterator/Loop has no port_map entry.

    What it checks:
    Every input port (for a Loop: except port 0, the trip count, and port 1, the execution
    condition) and every output port appears in an entry of the matching direction.

    Why it matters:
    An unmapped input is never seen by the body; an unmapped output has no value. OpenVINO
    rejects such models ("external port ... is not connected") without a line.

    Example:
    ```xml
    <output><port id="3"/><port id="4"/></output>
    <port_map><output external_port_id="3" internal_layer_id="9"/></port_map>   <!-- port 4? -->
    ```

    How to fix:
    Add the missing entry or remove the port (and its edges).
    """
    mapped = {(e.direction, e.external_port_id) for e in layer.port_map}
    reserved = {0, 1} if layer.type == "Loop" else set()
    for p in layer.inputs:
        if p.id is not None and p.id not in reserved and ("input", p.id) not in mapped:
            yield Finding(f"input port {p.id} of {layer.describe()} has no port_map <input> entry", layer.port_loc(p),
                          layer=layer.path, port=p.id,
                          related=((Related(layer.port_map_loc, "the port_map"),) if layer.port_map_loc else ()),
                          claims=(causes.unmapped(layer, "input"),), because=(causes.entries(layer, "input"),),
                          effect=f"leaves input port {p.id} of {layer.describe()} without a port_map <input> entry")
    for p in layer.outputs:
        if p.id is not None and ("output", p.id) not in mapped:
            yield Finding(f"output port {p.id} of {layer.describe()} has no port_map <output> entry", layer.port_loc(p),
                          layer=layer.path, port=p.id,
                          related=((Related(layer.port_map_loc, "the port_map"),) if layer.port_map_loc else ()),
                          claims=(causes.unmapped(layer, "output"),), because=(causes.entries(layer, "output"),),
                          effect=f"leaves output port {p.id} of {layer.describe()} without a port_map <output> entry")


@rule("PM404", "port-map-internal-layer-missing", types=CONTROL_FLOW)
def internal_layer_missing(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A port_map entry's `internal_layer_id` names no layer of the body.

    What it checks:
    `internal_layer_id` of every entry against the ids of the body's layers (ids restart at 0 in
    every body).

    Why it matters:
    OpenVINO refuses the model; the message names neither the entry nor the line.

    Example:
    ```xml
    <input external_port_id="0" internal_layer_id="42"/>   <!-- the body has layers 0..12 -->
    ```

    How to fix:
    Use the id of the body Parameter (input entries) or body Result (output entries).
    """
    if layer.body is None:
        return
    for e in layer.port_map:
        if e.internal_layer_id is not None and layer.body.layer(e.internal_layer_id) is None:
            yield Finding(f"{entry_text(e)} of {layer.describe()}: the body has no layer {e.internal_layer_id}",
                          e.loc, layer=layer.path,
                          hint="internal_layer_id names a layer of this layer's <body>, not of the outer graph",
                          claims=(causes.entries(layer, e.direction),))


@rule("PM405", "port-map-internal-layer-wrong-type", types=CONTROL_FLOW)
def internal_layer_wrong_type(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """An input entry points at a body layer that is not a Parameter, or an output entry at one that is not a Result.

    What it checks:
    The type of the body layer each entry names.

    Why it matters:
    Bodies connect to the outer graph only through Parameters and Results; OpenVINO rejects other
    layers.

    Example:
    ```xml
    <input external_port_id="0" internal_layer_id="2"/>   <!-- layer 2 is a Reshape -->
    ```

    How to fix:
    Point the entry at the Parameter (input) or Result (output) that carries the tensor.
    """
    if layer.body is None:
        return
    for e in layer.port_map:
        target = layer.body.layer(e.internal_layer_id)
        want = "Parameter" if e.direction == "input" else "Result"
        if target is not None and target.type != want:
            yield Finding(
                f"{entry_text(e)} of {layer.describe()}: body {target.describe()} is not a {want}",
                e.loc, layer=layer.path,
                related=(Related(target.loc, f"'{target.name}' is a {target.type}"),),
                hint=f"<{e.direction}> entries map body {want}s",
                claims=(causes.entries(layer, e.direction),),
            )


@rule("PM406", "port-map-invalid-special-entry", types=CONTROL_FLOW)
def invalid_special_entry(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """`external_port_id="-1"` or a `purpose` where the spec does not allow it, or an unknown purpose.

    What it checks:
    Only Loop entries may have `purpose`: `current_iteration` on an `<input>`,
    `execution_condition` on an `<output>`, each with `external_port_id="-1"`. A TensorIterator
    has no such entries, and `-1` never appears without a purpose.

    Why it matters:
    OpenVINO either rejects the entry or ignores the purpose, so the body is wired differently
    from what the file says.

    Example:
    ```xml
    <input external_port_id="-1" internal_layer_id="2" purpose="current_itteration"/>
    ```

    How to fix:
    Spell the purpose as the Loop spec does, or give the entry a real external port.
    """
    for e in layer.port_map:
        problem = None
        if e.purpose is not None:
            if layer.type != "Loop":
                problem = f"purpose={e.purpose!r} is only allowed on Loop entries"
            elif e.purpose != LOOP_PURPOSES[e.direction]:
                problem = (f"purpose={e.purpose!r} is not valid on an <{e.direction}> entry "
                           f"(expected {LOOP_PURPOSES[e.direction]!r})")
            elif e.external_port_id not in (-1, None):
                problem = f"a {e.purpose} entry has no external port, but external_port_id={e.external_port_id}"
        elif e.external_port_id is not None and e.external_port_id < 0:
            problem = f"external_port_id={e.external_port_id} without a purpose"
        if problem:
            yield Finding(f"{entry_text(e)} of {layer.describe()}: {problem}", e.loc, layer=layer.path,
                          claims=(causes.entries(layer, e.direction),))


@rule("PM407", "body-parameter-not-fed", types=CONTROL_FLOW)
def body_parameter_not_fed(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A body Parameter is fed by no port_map input entry (and, for a Loop, is not current_iteration).

    What it checks:
    Every Parameter of the body appears in an `<input>` entry. An error when a layer of the body
    reads the Parameter; a warning when nothing does.

    Why it matters:
    The Parameter has no value. OpenVINO reads, compiles and runs such a model without a word, and
    its CPU plugin gives the Parameter zeros in every iteration (measured on a Loop and a
    TensorIterator: a body adding 1000 times the Parameter adds nothing), so a body that reads it
    computes something else than the model says; irlint's interpreter refuses to run it. A Parameter
    that nothing reads is only dead weight: a Loop built without a current_iteration port keeps the
    Parameter meant for the iteration number this way.

    Example:
    ```xml
    <layer id="4" type="Parameter" .../>   <!-- no <input ... internal_layer_id="4"/> -->
    ```

    How to fix:
    Add an `<input>` entry from the outer port that provides its (initial) value; for a Loop's
    iteration number, an `<input external_port_id="-1" internal_layer_id="4"
    purpose="current_iteration"/>` entry; or remove a Parameter that nothing reads.
    """
    if layer.body is None:
        return
    fed = [e.internal_layer_id for e in layer.port_map if e.direction == "input"]
    idx = ctx.index(layer.body)
    where = (Related(layer.port_map_loc, "the port_map"),) if layer.port_map_loc else ()
    because = (causes.entries(layer, "input"), causes.unmapped(layer, "input"))
    for p in layer.body.parameters():
        if p.id is None or p.id in fed:
            continue
        if idx.users(p):
            yield Finding(f"body {p.describe()} of {layer.describe()} is fed by no port_map <input> entry, and the "
                          "body reads it: OpenVINO runs the model and its CPU plugin gives the Parameter zeros",
                          p.loc, layer=p.path, related=where, hint=_not_fed_hint(layer, p),
                          claims=(causes.unfed(p),), because=because,
                          effect=f"leaves body {p.describe()} unfed, though the body reads it (OpenVINO's CPU plugin "
                          "gives it zeros)")
        else:
            yield Finding(f"body {p.describe()} of {layer.describe()} is fed by no port_map <input> entry (nothing "
                          "reads it)", p.loc, layer=p.path, related=where, severity=Severity.WARNING,
                          hint=_not_fed_hint(layer, p) + ", or remove it", claims=(causes.unfed(p),), because=because,
                          effect=f"leaves body {p.describe()} unfed (nothing reads it)")


def _not_fed_hint(layer: Layer, p: Layer) -> str:
    """A Loop's integer Parameter of at most one element is most likely its lost iteration number."""
    et, shape = declared_info(p).etype, declared_info(p).shape
    if layer.type == "Loop" and et is not None and et.name in ("i32", "i64") and shape is not None \
            and len(shape) <= 1 and all(d.compatible(Dim.of(1)) for d in shape):
        return (f"if it is the iteration number, add <input external_port_id=\"-1\" internal_layer_id=\"{p.id}\" "
                "purpose=\"current_iteration\"/>")
    return "add the <input> entry that feeds it"


@rule("PM408", "body-parameter-fed-twice", types=CONTROL_FLOW)
def body_parameter_fed_twice(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A body Parameter is fed by more than one port_map input entry.

    What it checks:
    At most one `<input>` entry names each body Parameter.

    Why it matters:
    A Parameter holds one tensor; which entry wins is undefined (OpenVINO keeps one silently).

    Example:
    ```xml
    <input external_port_id="1" internal_layer_id="3"/>
    <input external_port_id="2" internal_layer_id="3"/>
    ```

    How to fix:
    Map the second outer port to its own Parameter.
    """
    seen: dict[int, PortMapEntry] = {}
    for e in layer.port_map:
        if e.direction != "input" or e.internal_layer_id is None:
            continue
        if e.internal_layer_id in seen:
            yield Finding(f"{entry_text(e)} of {layer.describe()}: body layer {e.internal_layer_id} is already fed",
                          e.loc, layer=layer.path, related=(Related(seen[e.internal_layer_id].loc, "first here"),),
                          claims=(causes.entries(layer, "input"), causes.conflict(layer, "body", e.internal_layer_id)))
        else:
            seen[e.internal_layer_id] = e


@rule("PM409", "body-result-unused", severity="warning", types=CONTROL_FLOW)
def body_result_unused(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A body Result is neither mapped to an output, nor a back-edge source, nor the Loop condition.

    What it checks:
    Every Result of the body is used by a port_map `<output>` entry or a back edge.

    Why it matters:
    Its value is computed every iteration and thrown away: usually a forgotten entry or a back
    edge that names the wrong Result. OpenVINO does not say anything.

    Example:
    ```xml
    <layer id="9" type="Result" .../>   <!-- no <output internal_layer_id="9"/>, no back edge from 9 -->
    ```

    How to fix:
    Map it, add the back edge it was meant for, or delete it and its producer chain.
    """
    if layer.body is None:
        return
    used = {e.internal_layer_id for e in layer.port_map if e.direction == "output"}
    used |= {be.from_layer for be in layer.back_edges}
    for r in layer.body.results():
        if r.id is not None and r.id not in used:
            yield Finding(f"body {r.describe()} of {layer.describe()} is never used: no port_map <output> "
                          "entry and no back edge reads it", r.loc, layer=r.path,
                          because=(causes.entries(layer, "output"),),
                          effect=f"leaves body {r.describe()} unread (no <output> entry, no back edge)")


@rule("PM410", "body-parameter-unused", severity="warning", types=CONTROL_FLOW)
def body_parameter_unused(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A mapped body Parameter is not used by any layer of the body (or only for outputs nothing reads).

    What it checks:
    Body Parameters that receive an outer input (and are not back-edge targets, see BE506) have at
    least one consumer that reads it: an input of a nested If, TensorIterator or Loop whose body
    Parameters nothing reads does not count (OpenVINO removes such inputs). In a TensorIterator whose
    sliced Parameters are all unused, or read only on the way to outputs nothing outside reads, those
    read that way are reported too.

    Why it matters:
    The outer tensor is sliced or copied every iteration for nothing; often the body reads
    another Parameter by mistake. irlint runs the body once per slice, as the spec says; OpenVINO's
    CPU plugin runs a TensorIterator whose only sliced Parameter nothing reads once (measured: four
    slices of a body adding 1 to a merged input give 1, not 4; with part_size 2, two slices, 1 too).
    It first removes outputs nothing reads, their body Results and the Parameters then unused, so a
    sliced Parameter read only for such outputs counts as unread: the body runs once (three slices
    give one part of the concatenated output that is read), and a concatenated output of stride 2
    is refused at compile ("Invalid "start","stride","end" values in an iteration component").

    Example:
    ```xml
    <input external_port_id="2" internal_layer_id="5"/>   <!-- no edge leaves layer 5 -->
    ```

    How to fix:
    Connect the Parameter where it was meant to be used, or remove it, its entry and its port.
    """
    if layer.body is None:
        return
    idx = ctx.index(layer.body)
    targets = {be.to_layer for be in layer.back_edges}
    fed = {pe.body_layer for pe in loop_plan(layer).of(EntryKind.SLICED_INPUT, EntryKind.INVARIANT_INPUT)}
    plan = loop_plan(layer)
    sliced = {pe.body_layer for pe in plan.sliced_inputs}
    read = read_layers(layer.body)  # an input of an If/TI/Loop whose body Parameters nothing reads does not read
    unread = {p.id for p in layer.body.parameters() if p.id in fed and p.id not in targets and p.id not in read}
    # read only on the way to outputs nothing reads: the CPU plugin drops those, then the Parameter
    dropped = read_only_for_unread(ctx, graph, layer) & sliced if not plan.is_loop else set()
    once = not plan.is_loop and sliced and sliced <= unread | dropped  # no sliced Parameter is read
    for p in layer.body.parameters():
        if p.id in unread:
            extra = ("; OpenVINO's CPU plugin then runs the body once, not once per slice as the spec (and irlint) "
                     "does" if once and p.id in sliced else "")
            how = ("nothing uses it" if not idx.users(p) else
                   "only inputs of nested If/TensorIterator/Loop layers read it, and their bodies do not: OpenVINO "
                   "removes those inputs")
            yield Finding(f"body {p.describe()} of {layer.describe()} receives an input but {how}{extra}",
                          p.loc, layer=p.path)
        elif p.id in dropped and once:
            outs = ", ".join(str(o) for o in unread_outputs(ctx, graph, layer))
            yield Finding(f"body {p.describe()} of {layer.describe()} is read only for output port(s) {outs}, which "
                          "nothing reads: OpenVINO's CPU plugin removes them and the Parameter, then runs the body "
                          "once, not once per slice as the spec (and irlint) does, or refuses a concatenated output "
                          "whose stride is not 1 (\"Invalid \"start\",\"stride\",\"end\" values in an iteration "
                          "component\")", p.loc, layer=p.path,
                          hint="remove the unread outputs and what computes them, or read them")


@rule("PM411", "body-layer-output-unused", severity="warning", types=CONTROL_FLOW)
def body_layer_output_unused(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A body layer's outputs reach no Result of the body.

    What it checks:
    Every layer of a TensorIterator/Loop body other than Parameters, Consts and Results has a path
    to some Result (a Result that is itself unused is PM409's business).

    Why it matters:
    The layer is computed in every iteration and its value goes nowhere: usually an edge that was
    meant to continue from it names another layer. OpenVINO drops such layers without a word.

    Example:
    ```xml
    <layer id="12" type="Sigmoid" .../>   <!-- fed by the Parameter, but no edge leaves it -->
    ```

    How to fix:
    Connect it where its value was meant to go, or delete it.
    """
    body = layer.body
    if body is None:
        return
    idx = ctx.index(body)
    live: set[int | None] = set()
    todo = [r for r in body.results() if r.id is not None]
    while todo:  # producers of Results, backwards: linear in the edges (no graph library on this path)
        la = todo.pop()
        if la.id in live:
            continue
        live.add(la.id)
        for p in la.inputs:
            e = idx.source(la.id, p.id)
            src = body.layer(e.from_layer) if e is not None else None
            if src is not None and src.id not in live:
                todo.append(src)
    for la in body.layers:
        if la.id is not None and la.id not in live and la.type not in ("Parameter", "Const", "Result"):
            yield Finding(f"body {la.describe()} of {layer.describe()}: its outputs reach no Result, so it is "
                          "computed in every iteration for nothing", la.loc, layer=la.path,
                          hint="connect it where its value was meant to go, or delete it")


@rule("PM415", "read-output-loses-result", severity="warning", types=CONTROL_FLOW)
def read_output_loses_result(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A read output shares its body Result with an output nothing reads: OpenVINO gives it another Result.

    What it checks:
    Two output entries of a TensorIterator/Loop naming the same body Result, where an edge leaves
    the one's output port and none leaves the other's (a Result that is the execution condition
    or feeds a back edge is exempt).

    Why it matters:
    The model is valid (two outputs may give one Result, e.g. its last value and its
    concatenation); irlint computes both from that Result. Before its CPU plugin builds the
    layer, OpenVINO removes each output nothing reads together with its body Result, even when
    another output gives that Result, and renumbers the other outputs' Result indices without
    touching the read output's. It then names the next body Result OpenVINO keeps, in document
    order: OpenVINO computes the output from that Result (measured on 2026.4: x + 1 instead of
    ReLU(x) in a TensorIterator, the execution condition's booleans instead of the values in a
    Loop), and refuses the model at compile where that Result's shape does not fit. With no
    Result after it, the CPU plugin fails to compile the model ("vector::_M_range_check: __n
    (which is 1) >= this->size() (which is 1)"); LP714 and LP715 report other removals that end
    in the same internal error.

    Example:
    ```xml
    <output axis="0" external_port_id="1" internal_layer_id="9"/>   <!-- read -->
    <output axis="1" external_port_id="2" internal_layer_id="9"/>   <!-- no edge leaves port 2 -->
    ```

    How to fix:
    Remove the unread output entry and its port, or read it.
    """
    for lost in lost_results(ctx, graph, layer):
        if lost.instead is None:
            what = ("its CPU plugin fails to compile the model (\"vector::_M_range_check\"): no body Result is "
                    "left for the read output")
        else:
            what = (f"output port {lost.kept.port} then gives body {lost.instead.describe()}, the next Result "
                    "OpenVINO keeps, instead: it computes something else (or refuses the model where that Result's "
                    "shape does not fit)")
        yield Finding(f"output port {lost.kept.port} of {layer.describe()} gives body {lost.result.describe()}, and "
                      f"so does output port {lost.unread.port}, which nothing reads: OpenVINO removes the unread "
                      f"output with that Result before compiling, and {what}; irlint computes port "
                      f"{lost.kept.port} from {lost.result.describe()}", lost.unread.entry.loc, layer=layer.path,
                      port=lost.unread.port,
                      related=(Related(lost.kept.entry.loc, "the read output giving the same Result"),),
                      hint=f"remove the output entry of port {lost.unread.port} and the port, or read it")


@rule("PM413", "concatenated-output-negative-axis", severity="warning", types=CONTROL_FLOW, uses_shapes=True)
def concatenated_output_negative_axis(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A concatenated output entry has a negative `axis`, which OpenVINO's CPU plugin does not count from the end.

    What it checks:
    `axis` on the `<output>` entries of a TensorIterator or Loop is not negative.

    Why it matters:
    irlint follows the specification: a negative axis counts from the end of the body Result's
    rank. OpenVINO's CPU plugin does not: it refuses a TensorIterator ("Invalid "axis" value in an
    iteration component: -2, dimensions number = 3 (out of range)"; with -1 the inference fails,
    "object is not initialized", or, where OpenVINO's core declares the output one part long, a
    [1,1,2] part of 2 iterations as [1,1,2], it gives the last iteration's part, and a consumer
    written for one part runs; the errors the spec's [1,1,4] causes downstream, a T210 or an SL606,
    name this warning's entry as their cause). A Loop's output
    holds only the last iteration's part instead of all of them, without a message (axis -1 of a
    [1,4] part), the inference fails ("has incorrect output shape[axis] after iteration for
    concatenation", axis -2), or compiling it kills the process ("free(): invalid pointer", axis -2
    of a [1,1] f16 part).

    Example:
    ```xml
    <output axis="-2" external_port_id="3" internal_layer_id="11"/>   <!-- the body Result is [1,1,3] -->
    ```

    How to fix:
    Write the non-negative axis (rank + axis).
    """
    info = ctx.shapes.loop(layer)  # the normalised axis, for the hint
    for index, e in enumerate(layer.port_map):
        if e.direction != "output" or e.axis is None or e.axis >= 0 or not e.sliced:
            continue
        norm = next((sl.axis for sl in (info.slicing if info else ()) if sl.entry is e and sl.axis is not None), None)
        hint = f"write axis=\"{norm}\"" if norm is not None else "write the non-negative axis (rank + axis)"
        what = ("refuses the TensorIterator" if layer.type == "TensorIterator"
                else "keeps only the last iteration's part, fails, or crashes the process compiling it")
        yield Finding(f"{entry_text(e)} of {layer.describe()}: axis {e.axis} is negative; OpenVINO's CPU plugin "
                      f"does not count it from the end and {what}", e.loc, layer=layer.path,
                      port=e.external_port_id, hint=hint, claims=(causes.entry(layer, index),))


IN_PLACE = frozenset({"Add", "Multiply"})
# Eltwise ops measured to write over a reshaped invariant input's memory (not Divide: the plugin computes
# it as a Multiply by a Power, one fused node).
VIEW_IN_PLACE = frozenset({"Add", "Multiply", "Subtract", "Maximum", "Minimum"})
# Reduce ops the plugin fuses a chain of activations after into (measured with Relu, Tanh and Sigmoid).
FUSING_REDUCES = frozenset({"ReduceSum", "ReduceMax"})
# Ops the CPU plugin runs in their input's memory (a view): the invariant input's memory reaches the op.
VIEWS = frozenset({"Reshape", "Squeeze", "Unsqueeze"})
# The type the CPU plugin computes a tensor of each type in (f32 inference precision): a Convert between
# two types it computes alike is a no-op there and removed (i32 -> i64 -> i32, f32 -> f16 -> f32).
PLUGIN_TYPE = {"i64": "i32", "f16": "f32"}


def _plugin_no_op_convert(ctx: Context, layer: Layer, source: Layer, port: int | None) -> bool:
    """`layer` is a Convert of `source`'s output `port` between two types the CPU plugin computes alike."""
    if layer.type != "Convert":
        return False
    dst = _out_type(ctx, layer)
    info = ctx.shapes.output(source, port)
    src = info.etype.name if info.etype is not None and not info.etype.is_dynamic else None
    return src is not None and dst is not None and PLUGIN_TYPE.get(src, src) == PLUGIN_TYPE.get(dst, dst)


@rule("PM414", "invariant-input-updated-in-place", severity="warning", types=CONTROL_FLOW, uses_shapes=True)
def invariant_input_updated_in_place(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """An invariant input the CPU plugin's Add/Multiply (or, reshaped, Subtract/Maximum/Minimum) writes over.

    What it checks:
    Each TensorIterator/Loop body Parameter x fed by an invariant input (no slicing, no back edge
    into it) in one of two forms.
    A scalar x read by an Add or a Multiply, on its input 0, whose input 1 is a scalar of the
    iteration: a Reshape, Squeeze or Unsqueeze (or a chain of them) of a body Parameter fed by a
    slice or an invariant input, or of a value computed by an op the plugin runs as no Eltwise
    node (a ReduceSum kept as [1], a Gather, a Convert, a nested Loop's output) and read only by
    that view, each of them read only by the next, except the view the op reads,
    which may also be read by a Relu, Sigmoid, Tanh, Exp, Abs, Clamp, Floor or Convert, or on input
    1 of a Subtract (the Add or Multiply itself reads it on input 1); an invariant input whose view
    is read only by the op may also be read by Results and, where its shape is not static, by any op
    but another view. x reaches the op directly or through a chain, each link the only reader of the
    one before, of Reshapes, Squeezes and Unsqueezes and of Converts
    between two types the plugin computes alike (i32 -> i64 -> i32: it computes i64 as i32; f32
    -> f16 -> f32), which it removes; then x reaches the op as `[]` or `[1]`, the shape of its
    input 1. No reader of the op is a Result or one the plugin fuses into its node (an Eltwise op
    such as a Relu, Maximum, Select or Multiply, or a Convert). Each other reader of the scalar x
    (a Reshape of x to its own shape, which OpenVINO removes, counts as its readers) is a Result,
    or an op that is no view of x (nor such a Convert), feeds the op through an If if at all, and
    runs before it in the plugin's order.
    An x of any shape that reaches input 0 of an Add, Multiply, Subtract, Maximum or Minimum
    through Reshapes, Squeezes and Unsqueezes that change its shape, the last read only by the op,
    whose output has that view's shape, whose input 1 is not constant, is read only by the op and
    is not computed by an Eltwise node (an activation after a ReduceSum or ReduceMax is fused into
    it and counts as the reduce); x's other readers (seen through the views they feed, a ShapeOf
    aside) are no Result or Concat and each runs before the op in the plugin's order (depth first
    from the body's Results in their order, every layer after its inputs in port order); not an x
    of shape [1] reshaped to [] whose op a view makes [1] again.

    Why it matters:
    The spec gives the body the same x in every iteration: a = x + s[k]. OpenVINO's CPU plugin
    computes that Add in place, in the memory that holds the invariant input, so each iteration
    reads the previous one's result as x: it computes a[k] = a[k-1] + s[k] (x 0.5 and slices 1, 10,
    100, 1000 give 1.5, 11.5, 111.5, 1111.5 where the spec gives 1.5, 10.5, 100.5, 1000.5; measured
    on OpenVINO 2026.4, TensorIterator and Loop alike). Another reader of a scalar x that runs
    before the Add changes nothing but sees the accumulated x too (a Sigmoid, Relu, Tanh, Convert
    or x * 2 whose Result comes first gives the same 1.5, 11.5, 111.5, 1111.5, the Sigmoid
    sigmoid(0.5), sigmoid(1.5), sigmoid(11.5), ...), and so does a Result reading x. For a scalar x
    it does not when another reader runs after the Add, is a Reshape of x, or feeds the Add (x +
    (s[k] + sigmoid(x))), when the Add is read by an op the plugin fuses into its node (Relu(a),
    Maximum(a, m), Select(a > m, a, m), a * m, a - m, Convert(a): x 1, slices 4, 3, 2, 1 give
    the spec's 5, 4, 3, 2 through a Relu, where a Reshape of a before the Relu gives 5, 8, 10, 11),
    when a Result reads the Add (besides a Reshape to [1]: the spec's 1.5, 10.5, 100.5, 1000.5),
    when x is of shape [1] or the Add's second input, when the op is a
    Subtract, Divide, Maximum or Power, the other input a constant, computed without a view
    (ReduceSum(s[k]) to [], a nested Loop's [] output) or computed by an Eltwise node
    (Relu(Reshape(s[k])), Reshape(Tanh(s[k]), [])), the computed value has another reader, the
    slice has another reader (a Concat of s[k] and the sum), or the
    view of the slice that the op reads is also read by a view, a Result, an Add, Multiply,
    Maximum or Negative, or on input 0 of a Subtract (s[k] * 2, 2 * s[k], s[k] + 2, x * s[k],
    s[k] - 2, s[k] - x, -s[k], Maximum(s[k], 2) beside x + s[k] give 1.5, 10.5, 100.5, 1000.5). A
    Relu, Sigmoid, Tanh, Exp, Abs, Clamp, Floor or Convert of that view, or a Subtract reading it on
    input 1 (2 - s[k], x - s[k]), keeps the Add in place whichever runs first (1.5, 11.5, 111.5,
    1111.5; x - s[k] read before the Add gives -0.5, -8.5, -88.5, -888.5), as long as x's other
    readers allow it (x - s[k] run after the Add gives the spec's values). A view of a computed
    value read only by it keeps the Add in place as a view of the slice does: Reshape(ReduceSum(s[k])
    kept as [1], []), ReduceMax, ReduceMean, ReduceProd, a Gather, a StridedSlice, a Tile, Converts
    to i32 and back, or a nested Loop's [1] output Tanh(s[k]) reshaped to [] give 1.5, 11.5, 111.5,
    1111.5 (0.5 plus the running sum of tanh(s[k]) for the Loop). A view of an invariant input p read
    elsewhere too keeps the Add in place where p's shape is dynamic: x + Reshape(p, []) with p [?] also
    read by a Concat, Relu, ReduceSum, Add or nested TensorIterator (x 5, p [1]) gives 6, 7, 8, 9 (the
    spec 6, 6, 6, 6) in a TensorIterator and a Loop, and so does a Result reading p whatever its shape;
    p of shape [1] read by a Concat or Relu, or p [?] also read by a Reshape to [1], gives the spec's
    values. Converts
    to i64 and back between x and the Add change nothing (5 and 1, 10, 100, 1000 in i32 give 6, 16,
    116, 1116); Converts to f32 and back keep x apart.
    A reader of x that feeds the op only through an If leaves it in place too: the plugin's If
    copies its inputs into its branch and the branch's output into its own memory, so x + Reshape(
    If(x > -100, s[k] * 2, s[k] * 3), []) gives 2.5, 22.5, 222.5, 2222.5 (the spec 2.5, 20.5,
    200.5, 2000.5; TensorIterator and Loop alike), and a branch reading x (Reshape(x, [1]) * s[k])
    reads the running x (1, 11, 1111, 1112111; the spec 1, 5.5, 50.5, 500.5); an If giving [] added without a view, or a
    Sigmoid of x run after the Add, computes the spec's values. OpenVINO removes a Reshape of x to
    its own shape: Reshape(x, []) * 2 run before the Add reads the running x (1, 3, 23, 223) as
    x * 2 would, where a Reshape of x to [1] keeps the spec's values.
    Reshapes of x change nothing either: x 3 reshaped to [1] and back to [] (or to [1] and added to
    a [1] slice) with slices 8, 9 gives 11, 20 where the spec gives 11, 12; an x of shape [1]
    squeezed to [] gives 11, 12.
    A view of x is the op's input 0 in the plugin, which lets an Eltwise node whose inputs have no
    other reader write its result over input 0 when that keeps the shape. x's other readers then
    see it too unless the plugin copies x first, which it does for a reader that runs after the op
    or is a Result: Reshape(x, [2,1]) + ReduceSum(s[k]), x = [0.5, 0.25], gives 1.5, 11.5, 111.5,
    and a Tanh(x) whose Result comes first reads 0.5, 1.5, 11.5 (with the Add's Result first, both
    compute the spec's values). Two equal views of x are merged into one of two readers: no
    accumulation. Divide (computed as a Multiply by a Power, one node) and a Relu of a Parameter as
    the other input (which takes the op into its node) compute the spec's values.
    irlint computes what the spec says.

    A loop known to run once never reads the changed x.

    Example:
    ```xml
    <layer id="0" name="x" type="Parameter"><data shape="" element_type="f32"/>  <!-- invariant -->
    <layer id="4" name="a" type="Add"/>   <!-- x + Reshape(s[k]) -->
    ```

    How to fix:
    Swap the op's inputs (s[k] + x), give a scalar x the shape [1], or have another reader of x
    run after the op: the plugin then computes what the spec says.
    """
    if layer.body is None:
        return
    info = ctx.shapes.loop(layer)
    runs = None if info is None else info.iterations if info.iterations is not None else info.max_iterations
    if runs is not None and runs < 2:
        return  # a value written over x is read again only from the second iteration on
    body = layer.body
    idx = ctx.index(body)
    targets = {be.to_layer for be in layer.back_edges}
    reported: set[int | None] = set()
    invariant = {pe.body_layer for pe in loop_plan(layer).of(EntryKind.INVARIANT_INPUT)}
    for pe in loop_plan(layer).of(EntryKind.INVARIANT_INPUT):
        p = body.layer(pe.body_layer)
        if p is None or p.id in targets or not p.outputs:
            continue
        if ctx.shapes.output(p, p.outputs[0].id).shape != ():
            continue
        found = None
        for first in idx.users(p):
            found = _scalar_in_place(ctx, body, idx, p, first, targets, invariant)
            if found is not None:
                break
        if found is None:
            continue
        op, via, before = found
        reported.add(p.id)
        types = ' and '.join(sorted({f'{k} as {v}' for k, v in PLUGIN_TYPE.items()}))
        why = "which the plugin computes in the same memory" if all(c.type in VIEWS for c in via) else (
            f"which the plugin removes or computes in the same memory: it computes {types}")
        through = f" (through {', '.join(c.describe() for c in via)}, {why})" if via else ""
        also = (f" (its other readers, {', '.join(r.describe() for r in before)}, run before it in the plugin's "
                "order)") if before else ""
        yield Finding(f"body {p.describe()} of {layer.describe()}, a scalar invariant input, is read as input 0 "
                      f"of {op.describe()}{through} with a value of the iteration{also}: OpenVINO's CPU plugin "
                      "computes the "
                      f"{op.type} "
                      "in place in the invariant input's memory, so each iteration reads the previous result as "
                      f"{p.name!r} (a[k] = a[k-1] {'+' if op.type == 'Add' else '*'} s[k]); irlint computes the spec's "
                      "same value every iteration", p.loc, layer=p.path,
                      related=(*(Related(c.loc, f"'{c.name}' reshapes it in place" if c.type in VIEWS else
                                         f"'{c.name}' converts it to a type the plugin computes alike")
                                 for c in via), Related(op.loc, f"'{op.name}' reads it on input 0"),
                               *(Related(r.loc, f"'{r.name}' reads it before '{op.name}' runs") for r in before)),
                      hint=f"swap the {op.type}'s inputs, or give the invariant input the shape [1]")
    order: dict[int | None, int] | None = None
    for pe in loop_plan(layer).of(EntryKind.INVARIANT_INPUT):
        p = body.layer(pe.body_layer)
        if p is None or p.id in targets or p.id in reported or not p.outputs:
            continue
        if order is None:
            order = _plugin_order(body, idx)
        found = _view_written_in_place(ctx, body, idx, p, order)
        if found is None:
            continue
        op, chain, before = found
        infix = {"Add": "+", "Multiply": "*", "Subtract": "-"}.get(op.type)
        step = f"a[k-1] {infix} s[k]" if infix else f"{op.type.lower()[:3]}(a[k-1], s[k])"
        also = (f"; its other readers ({', '.join(repr(r.name) for r in before)}) run before the {op.type} in "
                "the plugin's order and read the changed value from the second iteration on") if before else ""
        yield Finding(f"body {p.describe()} of {layer.describe()}, an invariant input, reaches input 0 of "
                      f"{op.describe()} through {', '.join(c.describe() for c in chain)}, which the plugin computes "
                      f"in its memory: OpenVINO's CPU plugin computes the {op.type} in place there, so each "
                      f"iteration reads the previous result as {p.name!r} (a[k] = {step}){also}; "
                      "irlint computes the spec's same value every iteration", p.loc, layer=p.path,
                      related=(*(Related(c.loc, f"'{c.name}' reshapes it in place") for c in chain),
                               Related(op.loc, f"'{op.name}' writes over it"),
                               *(Related(r.loc, f"'{r.name}' reads it before") for r in before)),
                      hint=f"swap the {op.type}'s inputs, or have the {op.type} read a copy of the invariant input")


def _plugin_order(body: Graph, idx: GraphIndex) -> dict[int | None, int]:
    """The position of each body layer in the CPU plugin's run: depth first from each Result in the body's
    order, every layer after its inputs taken in port order, then the layers no Result needs."""
    order: dict[int | None, int] = {}
    starts = [lay for lay in body.layers if lay.type == "Result"] + list(body.layers)
    for start in starts:
        if start.id in order:
            continue
        stack: list[tuple[Layer, int]] = [(start, 0)]
        seen = {start.id}
        while stack:
            lay, i = stack.pop()
            if i < len(lay.inputs):
                stack.append((lay, i + 1))
                e = idx.source(lay.id, lay.inputs[i].id)
                src = body.layer(e.from_layer) if e is not None else None
                if src is not None and src.id not in order and src.id not in seen:
                    seen.add(src.id)
                    stack.append((src, 0))
            elif lay.id not in order:
                order[lay.id] = len(order)
    return order


def _view_written_in_place(ctx: Context, body: Graph, idx: GraphIndex, p: Layer,
                           order: dict[int | None, int]) -> tuple[Layer, list[Layer], list[Layer]] | None:
    """(the op, the views, the other readers) when invariant input `p` reaches input 0 of an Add, Multiply or
    Subtract through Reshapes/Squeezes/Unsqueezes that change its shape, and the CPU plugin lets that op write
    its result over the views' memory, which is p's; None otherwise."""
    found = _view_chain(body, idx, p, [], [])
    if found is None:
        return None
    op, chain, others = found
    cur = chain[-1]
    if len(op.inputs) != 2 or not op.outputs:
        return None
    e = idx.source(op.id, op.inputs[1].id)
    other = body.layer(e.from_layer) if e is not None else None
    if other is None or _constant(body, idx, other, {}) or (other.type in ELTWISE_NODES
                                                             and not _fused_into_reduce(body, idx, other)):
        return None  # the plugin fuses the op into an Eltwise node computing its other operand
    if len(idx.users(other)) != 1:
        return None  # the plugin writes in place only over an op whose inputs have no other reader
    first = ctx.shapes.output(p, p.outputs[0].id).shape
    last = ctx.shapes.output(cur, cur.outputs[0].id).shape
    out = ctx.shapes.output(op, op.outputs[0].id).shape
    if first is None or last is None or last == first or out != last:
        return None  # views that keep the shape are removed; an op that broadcasts x writes elsewhere
    if shape_values(first) == (1,) and _back_to(ctx, body, idx, op, first):
        return None  # [1] -> [] -> op -> [1]: the plugin computes the op on x's [1] directly, not in place
    readers = _consumers(ctx, body, idx, others)
    if readers is None or any(order.get(r.id, -1) >= order.get(op.id, -1) for r in readers):
        return None  # a later reader (or a Result) makes the plugin copy x first
    return op, chain, readers


def _back_to(ctx: Context, body: Graph, idx: GraphIndex, op: Layer, shape: tuple) -> bool:
    """Whether `op` is read only by a view that gives it `shape` again."""
    users = idx.users(op)
    lay = body.layer(users[0].to_layer) if len(users) == 1 else None
    return lay is not None and lay.type in VIEWS and bool(lay.outputs) and \
        ctx.shapes.output(lay, lay.outputs[0].id).shape == shape


def _fused_into_reduce(body: Graph, idx: GraphIndex, layer: Layer) -> bool:
    """Whether `layer` is a chain of one-input eltwise ops over a ReduceSum/ReduceMax, each read only by the
    next: the plugin fuses the chain into the reduce node, so no Eltwise node takes the op in."""
    seen = {layer.id}
    while layer.type in ELTWISE_NODES and len(layer.inputs) == 1 and len(idx.users(layer)) == 1:
        e = idx.source(layer.id, layer.inputs[0].id)
        nxt = body.layer(e.from_layer) if e is not None else None
        if nxt is None or nxt.id in seen:  # a cycle (a malformed graph) reaches no reduce
            return False
        layer = nxt
        seen.add(nxt.id)
    return layer.type in FUSING_REDUCES and len(idx.users(layer)) == 1


def _view_of_input(ctx: Context, body: Graph, idx: GraphIndex, layer: Layer, targets: set[int | None],
                   invariant: set[int | None]) -> bool:
    """Whether `layer` is a chain of Reshapes/Squeezes/Unsqueezes, each of them read by one layer, over a body
    Parameter that no back edge feeds (a slice or an invariant input) or over a value computed by a node that
    is no Eltwise node (a ReduceSum, a Gather, a Convert, a nested Loop's output...) and read only by the
    chain: the operand with which the plugin adds a scalar in place (measured; an Eltwise node such as a Tanh
    there takes the Add into its own node instead). An invariant input may have other readers where
    `_invariant_readers_keep_in_place` says so."""
    seen = 0
    visited = {layer.id}
    view = layer
    while layer.type in VIEWS and layer.inputs:
        if len(idx.users(layer)) != 1 and (seen or not _readers_keep_in_place(body, idx, layer)):
            return False
        e = idx.source(layer.id, layer.inputs[0].id)
        nxt = body.layer(e.from_layer) if e is not None else None
        if nxt is None or nxt.id in visited:  # a cycle (a malformed graph) reaches no Parameter
            return False
        view, layer, seen = layer, nxt, seen + 1
        visited.add(nxt.id)
    if seen == 0:
        return False
    if layer.type == "Parameter" and len(idx.users(layer)) != 1:
        return layer.id in invariant and len(idx.users(view)) == 1 and \
            _invariant_readers_keep_in_place(ctx, body, idx, layer, view)
    if len(idx.users(layer)) != 1:
        return False
    if layer.type == "Parameter":
        return layer.id not in targets
    return layer.type not in ELTWISE_NODES and layer.type not in ("Const", "Result")


def _invariant_readers_keep_in_place(ctx: Context, body: Graph, idx: GraphIndex, p: Layer, view: Layer) -> bool:
    """Whether the readers of invariant input `p` besides `view` (the view the op reads) leave the op in place
    (measured): Results always; for a `p` whose shape is not static any op but another view (a Concat, Relu,
    ReduceSum, Add or nested TensorIterator reading `p` [?] leaves x + Reshape(p, []) accumulating, where with
    `p` of shape [1] they give the spec's values; a second Reshape of `p` there gives them whatever its shape)."""
    shape = ctx.shapes.output(p, p.outputs[0].id).shape if p.outputs else None
    dynamic = shape is None or not all(d.is_static for d in shape)
    for u in idx.users(p):
        r = body.layer(u.to_layer)
        if r is view:
            continue
        if r is None or r.type in VIEWS or (r.type != "Result" and not dynamic):
            return False
    return True


# Ops measured to leave the plugin's in-place Add of a scalar invariant input as it is when they also read the
# Add's other operand (a view of a slice): one-input activations and Converts, and a Subtract on its input 1.
# An Add, Multiply, Maximum, Negative, Subtract on input 0, a view or a Result there stops it (measured).
KEEP_IN_PLACE_READERS = frozenset({"Relu", "ReLU", "Sigmoid", "Tanh", "Exp", "Abs", "Clamp", "Floor", "Convert"})


def _readers_keep_in_place(body: Graph, idx: GraphIndex, view: Layer) -> bool:
    """Whether each reader of `view` besides the op that adds it to x leaves that op in place (measured): the
    op itself (an Add or Multiply reading it on input 1), one-input activations and Converts, Subtracts
    reading it on input 1 only."""
    ops = 0
    for u in idx.users(view):
        lay = body.layer(u.to_layer)
        if lay is None:
            return False
        ports = {e.to_port for e in idx.users(view) if e.to_layer == lay.id}
        if lay.type in IN_PLACE and ports == {1}:
            ops += 1
        elif not ((lay.type in KEEP_IN_PLACE_READERS and len(lay.inputs) == 1)
                  or (lay.type == "Subtract" and ports == {1})):
            return False
    return ops == 1


def _consumers(ctx: Context, body: Graph, idx: GraphIndex, others: list[tuple[Layer, Layer]]) -> list[Layer] | None:
    """The layers that read the invariant input's memory besides the op: each other reader (layer, the view
    of the chain beside it), seen through the views it feeds; None when one is a Result or a Concat, or a view
    of the same shape as the chain's (the plugin merges the two views, so the op's input has two readers)."""
    out: list[Layer] = []
    todo = list(others)
    seen: set[int | None] = set()
    while todo:
        r, twin = todo.pop()
        if r.id in seen:
            continue  # a cycle (a malformed graph), or a layer reached twice
        seen.add(r.id)
        if r.type == "ShapeOf":
            continue  # reads the shape only
        if r.type in ("Result", "Concat"):
            return None
        if r.type in VIEWS and r.outputs:
            if twin is not None and twin.outputs and \
                    ctx.shapes.output(r, r.outputs[0].id).shape == ctx.shapes.output(twin, twin.outputs[0].id).shape:
                return None
            todo += [(lay, None) for u in idx.users(r) if (lay := body.layer(u.to_layer)) is not None]
            continue
        out.append(r)
    return out


def _view_chain(body: Graph, idx: GraphIndex, cur: Layer, chain: list[Layer], others: list[tuple[Layer, Layer]]
                ) -> tuple[Layer, list[Layer], list[tuple[Layer, Layer]]] | None:
    """(op, views, other readers with the view beside each) when `cur`, through a chain of views (at least
    one), is read on input 0 of an op of VIEW_IN_PLACE that alone reads the last view; None otherwise."""
    users = idx.users(cur)
    readers = [lay for u in users if (lay := body.layer(u.to_layer)) is not None]
    if chain and len(users) == 1 and users[0].to_port == 0 and readers and readers[0].type in VIEW_IN_PLACE:
        return readers[0], chain, others
    for u, lay in zip(users, readers):
        if u.to_port != 0 or lay.type not in VIEWS or not lay.outputs or lay in chain:  # in chain: a cycle
            continue
        rest = [(r, lay) for r in readers if r is not lay]
        found = _view_chain(body, idx, lay, [*chain, lay], [*others, *rest])
        if found is not None:
            return found
    return None


def _scalar_in_place(ctx: Context, body: Graph, idx: GraphIndex, p: Layer, first: Edge, targets: set[int | None],
                     invariant: set[int | None]) -> tuple[Layer, list[Layer], list[Layer]] | None:
    """(the Add/Multiply, the removed Converts and views on the way, p's other readers) when the edge `first`
    from the scalar invariant Parameter `p` leads, on input 0 and through views and no-op Converts each read
    once, to an Add/Multiply of a view of a slice or invariant input that the CPU plugin computes in p's
    memory; None otherwise."""
    edge = first
    via: list[Layer] = []  # Converts the plugin removes and views between p and the op
    src, port = p, p.outputs[0].id
    while edge.to_port == 0:
        nxt = body.layer(edge.to_layer)
        if nxt is None or nxt in via or nxt is p:
            return None  # a cycle (a malformed graph)
        if not nxt.outputs or not (nxt.type in VIEWS or _plugin_no_op_convert(ctx, nxt, src, port)):
            break
        users = idx.users(nxt)
        if len(users) != 1:
            return None
        via.append(nxt)
        src, port = nxt, nxt.outputs[0].id
        edge = users[0]
    op = body.layer(edge.to_layer)
    if edge.to_port != 0 or op is None or op.type not in IN_PLACE or len(op.inputs) != 2:
        return None
    e = idx.source(op.id, op.inputs[1].id)
    other = body.layer(e.from_layer) if e is not None else None
    end = ctx.shapes.output(src, port).shape  # x as the op reads it
    if other is None or e is None or end not in ((), (1,)) or ctx.shapes.output(other, e.from_port).shape != end:
        return None
    if _constant(body, idx, other, {}) or not _view_of_input(ctx, body, idx, other, targets, invariant):
        return None
    if any(t is None or t.type in ELTWISE_NODES or t.type == "Convert" for t in
           (body.layer(u.to_layer) for u in idx.users(op))):
        return None  # the plugin fuses that reader into the op's node, which then writes elsewhere (measured)
    if any(t is not None and t.type == "Result" for t in (body.layer(u.to_layer) for u in idx.users(op))):
        return None  # a Result reading the op keeps it out of x's memory (measured)
    readers = _past_removed_reshapes(ctx, body, idx, p,
                                     [body.layer(u.to_layer) for u in idx.users(p) if u is not first])
    before = [r for r in readers if r is not None]
    if len(before) != len(readers) or not _leave_memory_free(ctx, body, idx, p, op, before):
        return None
    return op, via, before


def _past_removed_reshapes(ctx: Context, body: Graph, idx: GraphIndex, p: Layer,
                           readers: list[Layer | None]) -> list[Layer | None]:
    """`readers` with each Reshape of `p` that keeps its shape ([] to []) replaced by the Reshape's readers:
    OpenVINO removes such a Reshape, so its readers read p itself (measured: Reshape(x, []) * 2 run before
    the Add leaves it in place)."""
    shape = ctx.shapes.output(p, p.outputs[0].id).shape
    out: list[Layer | None] = []
    todo = list(readers)
    seen: set[int | None] = set()
    while todo:
        r = todo.pop(0)
        if r is not None and r.type == "Reshape" and r.outputs and r.id not in seen and \
                ctx.shapes.output(r, r.outputs[0].id).shape == shape:
            seen.add(r.id)
            todo += [body.layer(u.to_layer) for u in idx.users(r)]
            continue
        out.append(r)
    return out


def _leave_memory_free(ctx: Context, body: Graph, idx: GraphIndex, p: Layer, op: Layer,
                       readers: list[Layer]) -> bool:
    """Whether a scalar `p`'s other readers leave its memory to `op` (measured): each is a Result, or an op
    that is no view of p (nor a Convert the plugin removes), does not feed `op`, and runs before it in the
    plugin's order."""
    if not readers:
        return True
    order = _plugin_order(body, idx)
    feeding = _feeding(body, idx, op)
    for r in readers:
        if r.type == "Result":
            continue
        if r is op or r.id in feeding or r.type in VIEWS or _plugin_no_op_convert(ctx, r, p, p.outputs[0].id):
            return False
        if order.get(r.id, len(order)) >= order.get(op.id, -1):
            return False
    return True


def _feeding(body: Graph, idx: GraphIndex, op: Layer) -> set[int | None]:
    """The ids of the layers whose values reach `op` along paths through no If: the CPU plugin's If node
    copies its inputs into its branch's memory and the branch's output into its own, so an If reading x, or a
    reader of x feeding only an If, is done with x before the op (measured)."""
    out: set[int | None] = set()
    todo = [op]
    while todo:
        layer = todo.pop()
        for port in layer.inputs:
            e = idx.source(layer.id, port.id)
            src = body.layer(e.from_layer) if e is not None else None
            if src is not None and src.type == "If":
                continue
            if src is not None and src.id not in out:
                out.add(src.id)
                todo.append(src)
    return out
