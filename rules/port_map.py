"""PM4xx: the `<port_map>` of TensorIterator and Loop — which outer port feeds which body layer."""

from __future__ import annotations

from collections.abc import Iterator

from irlint.rules.unread_outputs import lost_results, read_only_for_unread, unread_outputs

from irlint import causes
from irlint.controlflow import CONTROL_FLOW, EntryKind, loop_plan
from irlint.controlflow.liveness import read_layers
from irlint.controlflow.outputs import entry_of_port, output_ports
from irlint.diagnostics import Related, Severity
from irlint.engine.context import Context
from irlint.ir.declared import declared_info
from irlint.ir.model import Graph, Layer, PortMapEntry
from irlint.openvino.memory import Kind, Overwrite, overwrites
from irlint.openvino.nodes import PLUGIN_TYPE, VIEWS
from irlint.rule import Finding, rule
from irlint.types import Dim

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
    An input entry: OpenVINO rejects the model at read ("vector::_M_range_check"), naming no entry
    and no line. An output entry's id is never looked up: OpenVINO's reader gives the output
    entries the layer's outputs in the order of their ids and runs the model (ids 9, 0 of
    outputs 3, 4 give 4, 3); irlint's interpreter does the same and warns. The spec gives such an entry
    no port, and other readers may map it otherwise.

    Example:
    ```xml
    <output external_port_id="9" internal_layer_id="11"/>   <!-- the layer has output ports 3, 4 -->
    ```

    How to fix:
    Use the id of the `<port>` this entry should connect, on the right side of the layer.
    """
    by_order = output_ports(layer, layer.port_map)
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
        given = by_order.get(e) if e.direction == "output" else None
        runs = ("" if given is None else
                "; OpenVINO gives the output entries the layer's outputs in the order of their ids and runs the "
                f"model: this entry gives output port {given} (so does irlint's interpreter)")
        yield Finding(
            f"{entry_text(e)} of {layer.describe()}: {why}; its {side} ports are {[p.id for p in ports]}{runs}",
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
    by_order = entry_of_port(layer, layer.port_map)
    for p in layer.outputs:
        if p.id is not None and ("output", p.id) not in mapped:
            other = by_order.get(p.id)
            runs = ("" if other is None else f" (OpenVINO gives it the entry of external_port_id "
                    f"{other.external_port_id}, by the order of the ids)")
            yield Finding(f"output port {p.id} of {layer.describe()} has no port_map <output> entry{runs}",
                          layer.port_loc(p), layer=layer.path, port=p.id,
                          related=((Related(layer.port_map_loc, "the port_map"),) if layer.port_map_loc else ()),
                          claims=(causes.unmapped(layer, "output"),), because=(causes.entries(layer, "output"),),
                          effect=f"leaves output port {p.id} of {layer.describe()} without a port_map <output> "
                          f"entry{runs}")


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


@rule("PM414", "invariant-input-updated-in-place", severity="warning", types=CONTROL_FLOW, uses_shapes=True)
def invariant_input_updated_in_place(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """An invariant input whose memory the CPU plugin's body writes over: later iterations read the result.

    What it checks:
    Each invariant input of a loop that may run twice, asking irlint/openvino/memory.py whether a
    body op is computed in place in its memory (INVARIANT_WRITTEN).

    Why it matters:
    The spec gives the body the same invariant input in every iteration. OpenVINO's CPU plugin
    copies it into the body Parameter's memory once, before the loop; an Add or Multiply (or, over
    a Reshape/Squeeze/Unsqueeze of it, a Subtract, Maximum or Minimum) that the plugin computes in
    place there writes its result over the input, so each iteration reads the previous result:
    a = x + Reshape(s[k]) with x 0.5 and slices 1, 10, 100, 1000 gives 1.5, 11.5, 111.5, 1111.5
    where the spec gives 1.5, 10.5, 100.5, 1000.5. Other readers of x that run before the op read
    the changed x too. irlint computes the spec's values; measurements: docs/conformance.md.

    Example:
    ```xml
    <layer id="0" name="x" type="Parameter"><data shape="" element_type="f32"/>  <!-- invariant -->
    <layer id="4" name="a" type="Add"/>   <!-- x + Reshape(s[k]) -->
    ```

    How to fix:
    Swap the op's inputs (s[k] + x), give a scalar x the shape [1], or have another reader of x
    run after the op: the plugin then computes what the spec says.
    """
    for o in overwrites(ctx, layer, frozenset({Kind.INVARIANT_WRITTEN})):
        if o.writer is None:
            continue
        p, op = o.param, o.writer
        if o.scalar:
            yield _scalar_finding(layer, o)
            continue
        infix = {"Add": "+", "Multiply": "*", "Subtract": "-"}.get(op.type)
        step = f"a[k-1] {infix} s[k]" if infix else f"{op.type.lower()[:3]}(a[k-1], s[k])"
        also = (f"; its other readers ({', '.join(repr(r.name) for r in o.before)}) run before the {op.type} in "
                "the plugin's order and read the changed value from the second iteration on") if o.before else ""
        yield Finding(f"body {p.describe()} of {layer.describe()}, an invariant input, reaches input 0 of "
                      f"{op.describe()} through {', '.join(c.describe() for c in o.views)}, which the plugin "
                      f"computes in its memory: OpenVINO's CPU plugin computes the {op.type} in place there, so each "
                      f"iteration reads the previous result as {p.name!r} (a[k] = {step}){also}; "
                      "irlint computes the spec's same value every iteration", p.loc, layer=p.path,
                      related=(*(Related(c.loc, f"'{c.name}' reshapes it in place") for c in o.views),
                               Related(op.loc, f"'{op.name}' writes over it"),
                               *(Related(r.loc, f"'{r.name}' reads it before") for r in o.before)),
                      hint=f"swap the {op.type}'s inputs, or have the {op.type} read a copy of the invariant input")


def _scalar_finding(layer: Layer, o: Overwrite) -> Finding:
    """PM414's finding for a scalar invariant input read directly (or through removed Converts) by the op."""
    p, op, via, before = o.param, o.writer, o.views, o.before
    assert op is not None
    types = " and ".join(sorted({f"{k} as {v}" for k, v in PLUGIN_TYPE.items()}))
    why = "which the plugin computes in the same memory" if all(c.type in VIEWS for c in via) else (
        f"which the plugin removes or computes in the same memory: it computes {types}")
    through = f" (through {', '.join(c.describe() for c in via)}, {why})" if via else ""
    also = (f" (its other readers, {', '.join(r.describe() for r in before)}, run before it in the plugin's "
            "order)") if before else ""
    step = f"a[k-1] {'+' if op.type == 'Add' else '*'} s[k]"
    if o.then:
        step = (f"{step} and then {', '.join(repr(t.name) for t in o.then)}, which the plugin computes in the "
                "same node")
    return Finding(f"body {p.describe()} of {layer.describe()}, a scalar invariant input, is read as input 0 "
                   f"of {op.describe()}{through} with a value of the iteration{also}: OpenVINO's CPU plugin "
                   f"computes the {op.type} in place in the invariant input's memory, so each iteration reads the "
                   f"previous result as {p.name!r} (a[k] = {step}); irlint "
                   "computes the spec's same value every iteration", p.loc, layer=p.path,
                   related=(*(Related(c.loc, f"'{c.name}' reshapes it in place" if c.type in VIEWS else
                                      f"'{c.name}' converts it to a type the plugin computes alike")
                              for c in via), Related(op.loc, f"'{op.name}' reads it on input 0"),
                            *(Related(r.loc, f"'{r.name}' reads it before '{op.name}' runs") for r in before),
                            *(Related(t.loc, f"'{t.name}' is computed in the same node") for t in o.then)),
                   hint=f"swap the {op.type}'s inputs, or give the invariant input the shape [1]")
