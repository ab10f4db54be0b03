"""LP7xx: Loop-5's own ports — trip count, execution condition, current_iteration, body condition."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import replace

import numpy as np
from irlint.rules.back_edges import edge_text
from irlint.rules.pushed_constants import folds, pushed_parameters
from irlint.rules.unread_outputs import dropped_inputs, kept_layers, read_only_for_unread, unread_outputs

from irlint import causes
from irlint.controlflow import EntryKind, PlanEntry, loop_plan
from irlint.controlflow.liveness import read_layers
from irlint.controlflow.plan import CONDITION_PORT
from irlint.controlflow.readings import names_sub_range, sub_range, unread
from irlint.diagnostics import Related, Severity
from irlint.engine.context import Context
from irlint.ir.declared import declared_info
from irlint.ir.model import Graph, Layer
from irlint.openvino.memory import Kind, overwrites
from irlint.ops.base import TensorInfo
from irlint.rule import Finding, declared, rule
from irlint.types import BOOL, ELEMENT_TYPES, I32, I64, U8, format_shape


def _is_one_element(info: TensorInfo) -> bool | None:
    """True for a scalar or a 1-D tensor of 1 element, False if it cannot be one, None if unknown.
    OpenVINO's Loop refuses rank 2 and more even with one element ("Rank of TripCount input must
    be equal to 0 or 1"; likewise the conditions and the current iteration)."""
    if info.shape is None:
        return None
    if len(info.shape) == 0:
        return True
    if len(info.shape) > 1:
        return False
    d = info.shape[0]
    if d.is_static:
        return d.lo == 1
    return None if d.lo <= 1 else False


def _input(ctx: Context, graph: Graph, layer: Layer, port_id: int) -> TensorInfo | None:
    idx = ctx.index(graph)
    e = idx.source(layer.id, port_id)
    src = graph.layer(e.from_layer) if e is not None else None
    return ctx.shapes.output(src, e.from_port) if src is not None and e is not None else None


def _scalar_port_finding(ctx: Context, graph: Graph, layer: Layer, port_id: int, problem: str,
                         what: str) -> Finding | None:
    """A finding about the tensor feeding a Loop's scalar input port, placed at what produces it (the
    producer's output port, else the edge), with notes at the edge and at the Loop's port."""
    p = layer.input(port_id)
    if p is None:
        return None
    e = ctx.index(graph).source(layer.id, port_id)
    src = graph.layer(e.from_layer) if e is not None else None
    sp = src.output(e.from_port) if src is not None and e is not None and e.from_port is not None else None
    notes = [Related(layer.port_loc(p), f"input port {port_id} of the Loop, {what}")]
    if e is None:
        return Finding(f"{layer.describe()}: {problem}", layer.port_loc(p), layer=layer.path, port=port_id)
    if src is not None and sp is not None:
        notes.insert(0, Related(e.loc, "the edge into the Loop"))
        return Finding(f"{src.describe()} feeds {what} of {layer.describe()}: {problem}", src.port_loc(sp),
                       layer=src.path, port=sp.id, related=tuple(notes))
    return Finding(f"{layer.describe()}: {problem}", e.loc, layer=layer.path, port=port_id, related=tuple(notes))


def _claiming(ctx: Context, graph: Graph, layer: Layer, port_id: int, found: Finding) -> Finding:
    """`found` claiming the Loop's count (what follows from it is poisoned, irlint.shapes) and the layer
    that produces the port's tensor (whose own declaration then disagrees too, T204)."""
    e = ctx.index(graph).source(layer.id, port_id)
    src = graph.layer(e.from_layer) if e is not None else None
    keys = (causes.trip(layer),) + ((causes.layer(src),) if src is not None else ())
    return replace(found, claims=keys)


def _check_port(info: TensorInfo | None, allowed: tuple, what: str) -> str | None:
    if info is None:
        return None
    if info.etype is not None and info.etype not in allowed:
        return f"{what} must be {' or '.join(str(a) for a in allowed)}, got {info.etype}"
    if _is_one_element(info) is False:
        return f"{what} must be a scalar or a 1-D tensor of 1 element, got {format_shape(info.shape)}"
    return None


@rule("LP701", "loop-trip-count-type", types=("Loop",), uses_shapes=True)
def trip_count_type(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """The trip count (Loop input 0) is not an i32/i64 scalar or 1-element 1-D tensor.

    What it checks:
    The element type and shape of the tensor feeding input port 0.

    Why it matters:
    The spec defines the trip count as an integer scalar or 1-element tensor; OpenVINO rejects
    others when it validates the Loop, a one-element tensor of rank 2 or more included ("Rank of
    TripCount input must be equal to 0 or 1").

    Example:
    ```xml
    <layer type="Const"><data element_type="f32" shape="" .../>   <!-- feeds Loop port 0 -->
    ```

    How to fix:
    Feed an i64 (or i32) scalar; use -1 for "no limit".
    """
    problem = _check_port(_input(ctx, graph, layer, 0), (I32, I64), "the trip count (input 0)")
    found = _scalar_port_finding(ctx, graph, layer, 0, problem, "the trip count") if problem else None
    if found is not None:
        yield _claiming(ctx, graph, layer, 0, found)


@rule("LP702", "loop-condition-type", types=("Loop",), uses_shapes=True)
def condition_type(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """The execution condition (Loop input 1) is not a boolean scalar or 1-element 1-D tensor.

    What it checks:
    The element type and shape of the tensor feeding input port 1.

    Why it matters:
    The spec requires a boolean; OpenVINO rejects other types, and ranks above 1 even of one
    element ("Rank of ExecutionCondition input must be equal to 0 or 1").

    Example:
    ```xml
    <layer type="Const"><data element_type="i64" shape="1" .../>   <!-- feeds Loop port 1 -->
    ```

    How to fix:
    Feed a boolean scalar (Convert to boolean if needed).
    """
    problem = _check_port(_input(ctx, graph, layer, 1), (BOOL,), "the execution condition (input 1)")
    found = _scalar_port_finding(ctx, graph, layer, 1, problem, "the execution condition") if problem else None
    if found is not None:
        yield _claiming(ctx, graph, layer, 1, found)


@rule("LP703", "loop-condition-output-missing", types=("Loop",))
def condition_output_missing(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A Loop has no (or more than one) `purpose="execution_condition"` output entry.

    What it checks:
    Exactly one `<output external_port_id="-1" purpose="execution_condition"/>` entry, pointing at
    a body Result.

    Why it matters:
    The body must say whether to run the next iteration; OpenVINO's reader requires the entry.

    Example:
    ```xml
    <port_map> ... </port_map>   <!-- no execution_condition entry -->
    ```

    How to fix:
    Add the entry naming the body Result that computes the condition (a Const true for a plain
    for-loop).
    """
    entries = [pe.entry for pe in loop_plan(layer).of(EntryKind.CONDITION_OUTPUT)]
    loc = layer.port_map_loc or layer.loc
    if not entries:
        yield Finding(f"{layer.describe()} has no port_map <output purpose=\"execution_condition\"> entry", loc,
                      layer=layer.path, hint="name the body Result that computes whether to continue",
                      because=(causes.entries(layer, "output"),))
    for e in entries[1:]:
        yield Finding(f"{layer.describe()} has more than one execution_condition entry", e.loc, layer=layer.path,
                      related=(Related(entries[0].loc, "the first one"),))


def _deferred_by(ctx: Context, graph: Graph, layer: Layer, by_condition: bool) -> str | None:
    """Why the CPU plugin checks a special port's type at the Loop's first run rather than at compile: an
    input port of dynamic shape, or (`by_condition`: for the body condition's type) an execution condition
    (input port 1) whose value is not known before the model runs with an output of dynamic shape
    (measured on 2026.4: either alone is checked at compile, a current_iteration type is checked at
    compile then, and a trip count from a model input defers nothing). None when the check happens at
    compile."""
    for p in layer.inputs:
        info = _input(ctx, graph, layer, p.id)
        if info is not None and (info.shape is None or any(not d.is_static for d in info.shape)):
            return f"input port {p.id} of the Loop being of dynamic shape"
    cond = _input(ctx, graph, layer, CONDITION_PORT) if by_condition else None
    dynamic_out = next((p.id for p in layer.outputs if (o := ctx.shapes.output(layer, p.id)).shape is None
                        or any(not d.is_static for d in o.shape)), None)
    if cond is not None and cond.value is None and dynamic_out is not None:
        return (f"the Loop's execution condition (input port {CONDITION_PORT}) being computed when the model runs "
                f"and its output port {dynamic_out} of dynamic shape")
    return None


@rule("LP704", "loop-body-condition-type", types=("Loop",), uses_shapes=True)
def body_condition_type(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """The body Result named by the execution_condition entry is not a boolean scalar or 1-element 1-D tensor.

    What it checks:
    The element type and shape reaching that Result.

    Why it matters:
    The Loop reads it to decide whether to continue, and the spec says it is "a scalar or 1D tensor
    with 1 element of boolean type". OpenVINO refuses ranks above 1 at read ("Rank of
    BodyExecutionCondition output must be equal to 0 or 1") and reads any element type; its CPU
    plugin runs a u8 condition, nonzero as true (2, 4 and 255 continue, 0 stops), and refuses every
    other type (i8, i32, i64, f16, f32: "Check 'mem->getDataType() == memory::data_type::u8'
    failed"): at compile, or, when an input of the Loop has a dynamic shape (or an output has one
    and the execution condition is computed at run time), at the first inference that runs the Loop
    (compile_model accepts it; a Loop in an If branch no inference takes is never refused). A Loop no Result
    reads (its outputs read only by outputs of the layers around it that nothing reads) is removed
    before the CPU plugin sees it: the model compiles and runs (measured with an i32 and an f32
    condition); a rank above 1 is still refused at read.

    Example:
    ```xml
    <output external_port_id="-1" internal_layer_id="9" purpose="execution_condition"/>  <!-- Result 9 is f32 -->
    ```

    How to fix:
    Compute a boolean (e.g. with Less or Greater) and feed it to the Result.
    """
    info = ctx.shapes.loop(layer)
    cond = loop_plan(layer).condition
    entry = cond.entry if cond is not None else None
    if info is None or entry is None or layer.body is None:
        return
    body_condition = info.body_condition if info.body_condition.etype or info.body_condition.shape else None
    problem = _check_port(body_condition, (BOOL,), "the body condition")
    etype = body_condition.etype if body_condition is not None else None
    read_time = body_condition is not None and body_condition.shape is not None and len(body_condition.shape) > 1
    if problem and not read_time and id(layer) not in kept_layers(ctx):
        problem += ("; no Result reads what the Loop computes (through the outputs read around it), so OpenVINO "
                    "removes the Loop before its CPU plugin checks it")
    elif problem and etype == U8:  # the type is what _check_port names first
        problem += "; OpenVINO's CPU plugin runs it, reading a nonzero value as true"
    elif problem and etype is not None and etype != BOOL:
        deferred = _deferred_by(ctx, graph, layer, by_condition=True)
        problem += ("; OpenVINO's CPU plugin takes only boolean or u8 and refuses it at compile" if deferred is None
                    else f"; OpenVINO's CPU plugin takes only boolean or u8; {deferred}, it compiles the Loop and "
                    "refuses it at the first inference that runs the Loop")
    if problem:
        res = layer.body.layer(entry.internal_layer_id)
        if res is None:
            yield Finding(f"{layer.describe()}: {problem}", entry.loc, layer=layer.path)
        else:
            yield Finding(f"body {res.describe()} of {layer.describe()}: {problem}", res.loc, layer=res.path,
                          related=(Related(entry.loc, "the execution_condition entry naming it"),))


@rule("LP705", "loop-current-iteration-invalid", types=("Loop",), uses_shapes=True)
def current_iteration_invalid(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """The current_iteration Parameter is repeated, mistyped, or has an external port or an axis.

    What it checks:
    At most one `purpose="current_iteration"` entry, with `external_port_id="-1"` and no `axis`,
    naming an i32/i64 body Parameter that is a scalar or a 1-element 1-D tensor.

    Why it matters:
    The Loop writes the iteration number there. The CPU plugin converts i16, u16, u32, u64 and i64
    to i32 and takes those (a warning for the four the spec does not name); it refuses other types
    at compile, or at the first inference that runs an iteration when an input is dynamic. An
    unread Parameter an input entry feeds is removed with that input, and the kept index then names
    the next body Parameter; a Loop no Result reads is removed before the check. An entry with an
    axis is read as a sliced input of port -1 and refused (docs/conformance.md, "current_iteration").

    Example:
    ```xml
    <input external_port_id="-1" internal_layer_id="2" purpose="current_iteration"/>  <!-- Parameter 2 is f32 -->
    ```

    How to fix:
    Declare the Parameter as i64 (or i32) with shape "" and Convert inside the body if needed.
    """
    entries = [pe.entry for pe in loop_plan(layer).of(EntryKind.CURRENT_ITERATION)]
    for e in entries[1:]:
        yield Finding(f"{layer.describe()} has more than one current_iteration entry", e.loc, layer=layer.path,
                      related=(Related(entries[0].loc, "the first one"),))
    for e in entries:
        if e.sliced:
            yield Finding(f"the current_iteration entry of {layer.describe()} has axis={e.attrs['axis']!r}: OpenVINO "
                          "reads it as a sliced input of port -1 and refuses the Loop (\"Number of inputs must be "
                          "the same as number of input descriptions\")", e.loc, layer=layer.path,
                          hint="remove the axis: the Loop writes the iteration number, nothing is sliced")
        param = layer.body.layer(e.internal_layer_id) if layer.body else None
        if param is None or param.type != "Parameter":
            continue
        info = declared_info(param)
        problem = _check_port(info, (I32, I64), "the current_iteration Parameter")
        if not problem:
            continue
        severity = None
        if info.etype is not None and info.etype not in (I32, I64):  # the type is what _check_port names first
            removed = _removed_current_iteration(layer, param)
            if removed:
                problem += removed
            elif info.etype in CPU_ITERATION_TYPES and _is_one_element(info) is not False:
                problem += (f" (the spec names only these); OpenVINO's CPU plugin takes it: it converts "
                            f"{info.etype} to i32 before it compiles and writes the iteration number into it")
                severity = Severity.WARNING
            elif id(layer) not in kept_layers(ctx):
                problem += ("; no Result reads what the Loop computes (through the outputs read around it), so "
                            "OpenVINO removes the Loop before its CPU plugin checks it")
            else:
                problem += _refused_current_iteration(ctx, graph, layer)
        yield Finding(f"body {param.describe()} of {layer.describe()}: {problem}", param.data_loc or param.loc,
                      layer=param.path, related=(Related(e.loc, "the current_iteration entry naming it"),),
                      severity=severity)


# The element types OpenVINO's CPU plugin takes for the current_iteration Parameter: its precision pass
# converts i16, u16, u32, u64 and i64 to i32 before the Loop node checks for i32 (measured on 2026.4).
CPU_ITERATION_TYPES = tuple(ELEMENT_TYPES[n] for n in ("i16", "u16", "i32", "u32", "i64", "u64"))


def _refused_current_iteration(ctx: Context, graph: Graph, layer: Layer) -> str:
    """When the CPU plugin refuses a current_iteration Parameter of another type: at compile, or, in a Loop
    with an input of dynamic shape (a static Loop in the body of a dynamic one is checked at compile),
    when an inference runs an iteration."""
    deferred = _deferred_by(ctx, graph, layer, by_condition=False)
    takes = "it takes only i16, u16, i32, u32, i64 or u64"
    if deferred is None:
        return f"; OpenVINO's CPU plugin refuses it at compile ({takes})"
    return (f"; OpenVINO's CPU plugin refuses it ({takes}); {deferred}, it compiles the Loop and refuses it at the "
            "first inference that runs an iteration of the Loop")


def _removed_current_iteration(layer: Layer, param: Layer) -> str:
    """What OpenVINO does when nothing in the body reads the current_iteration Parameter and an input entry
    feeds it (measured on 2026.4): it removes the Parameter with that input, keeps the current_iteration
    index, and the index then names the body Parameter that moved into its place; the CPU plugin checks
    (and writes) that one. Empty when the Parameter stays."""
    body = layer.body
    if body is None:
        return ""
    kinds = (EntryKind.SLICED_INPUT, EntryKind.MERGED_INPUT, EntryKind.INVARIANT_INPUT)
    fed = {pe.entry.internal_layer_id for pe in loop_plan(layer).entries if pe.kind in kinds}
    read = {e.from_layer for e in body.edges}
    params = [x for x in body.layers if x.type == "Parameter"]
    removed = {x.id for x in params if x.id in fed and x.id not in read}
    if param.id not in removed:
        return ""
    kept = [x for x in params if x.id not in removed]
    index = params.index(param)
    head = (f"; nothing in the body reads it and an input entry feeds it, so OpenVINO removes it and its "
            f"current_iteration index {index} then names ")
    if index >= len(kept):
        return head + "no body Parameter"
    then = kept[index]
    etype = declared_info(then).etype
    if etype in CPU_ITERATION_TYPES:
        return head + f"body {then.describe()}, of type {etype}, which the CPU plugin takes"
    return (head + f"body {then.describe()}, of type {etype}, which the CPU plugin refuses (it takes only i16, u16, "
            "i32, u32, i64 or u64)")


LP706 = replace(declared("LP706", "loop-slicing-attributes-rejected", """\
A Loop port_map entry whose slicing attributes OpenVINO rejects (never reported).

What it checks:
Nothing any more. The code keeps its meaning — a Loop entry's slicing attributes that OpenVINO
refuses — but OpenVINO 2026.4 refuses none: its IR reader and core read any start, end, stride and
part_size on a Loop's input and output entries, and its CPU plugin compiles them (only the Python
API's `Loop.get_concatenated_slices` insists on 0/-1/1/1). What a Loop does with them is checked by
LP709 (start/end are ignored), SL607 (the CPU plugin reads other elements), SL603 (no slicing at
all) and SL608 (a concatenated part the CPU plugin refuses).

Why it matters:
Nothing to report: such a Loop is read, compiled and run.

Example:
```xml
<input axis="0" external_port_id="2" internal_layer_id="1" start="-1" end="0" stride="-1"/>  <!-- valid -->
```

How to fix:
Nothing to fix.
"""), pack=__name__)  # a rule of this pack, without a check


@rule("LP709", "loop-slice-range-ignored", severity="warning", types=("Loop",), uses_shapes=True)
def slice_range_ignored(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A Loop's sliced input or concatenated output names a sub-range, which OpenVINO ignores.

    What it checks:
    `start`/`end` on a Loop's `<input axis>` or `<output axis>` entry that, read as a
    TensorIterator's are (negative values count from the end, end inclusive), select less than the
    whole axis.

    Why it matters:
    A Loop takes the same attributes as a TensorIterator, but OpenVINO's core and its CPU plugin do
    not read `start` and `end` on a Loop: a sliced input is cut over the whole axis, forwards from
    element 0 or backwards from the last element as the stride's sign says, and a concatenated
    output holds every iteration's part. irlint does the same, so the model does not compute what
    the attributes say (measured: `start="1" end="3"` with trip count 3 reads elements 0, 1, 2).

    Example:
    ```xml
    <input axis="0" external_port_id="2" internal_layer_id="0" start="1" end="3" stride="1" part_size="1"/>
    ```

    How to fix:
    Slice the wanted range outside the Loop (StridedSlice) and iterate over all of it, or use a
    TensorIterator, which honours start and end.
    """
    info = ctx.shapes.loop(layer)
    for sl in info.slicing if info else ():
        e = sl.entry
        if sl.spec is not None:
            named = sub_range(sl.spec)
            if named is None:
                continue
            what = (f"name elements {named[0]}..{named[1]} of the {sl.spec.dim} along axis {sl.axis}, but OpenVINO's "
                    f"core and CPU plugin ignore start/end on a Loop and use the whole axis (elements "
                    f"{sl.spec.start}..{sl.spec.end})")
        elif e.sliced and names_sub_range(e.start, e.end, e.stride):
            what = "name a sub-range of the axis, but OpenVINO's core and CPU plugin ignore start/end on a Loop and " \
                   "use the whole axis"
        else:
            continue
        yield Finding(f"Loop port_map <{e.direction} external_port_id={e.external_port_id}> of {layer.describe()}: "
                      f"start={e.start} end={e.end} {what}", e.loc, layer=layer.path, port=e.external_port_id,
                      hint="slice the range outside the Loop, or use a TensorIterator")


@rule("LP707", "loop-never-ends", severity="warning", types=("Loop",), uses_shapes=True)
def never_ends(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A Loop with an unbounded trip count (-1) whose body condition is constant true.

    What it checks:
    A trip count known to be negative together with a body condition that folds to true (and an
    execution condition that is not false).

    Why it matters:
    The Loop never terminates: inference hangs. (irlint's interpreter stops it at
    --max-iterations.)

    Example:
    ```xml
    trip count Const -1, body condition Result fed by a Const true
    ```

    How to fix:
    Give a trip count, or compute the condition from the loop state.
    """
    info = ctx.shapes.loop(layer)
    if info is None:
        return
    trip = info.trip_count.value
    cond = info.body_condition.value
    start = info.condition.value
    if trip is None or cond is None or np.asarray(trip).size != 1 or np.asarray(cond).size != 1:
        return
    if any(sl.entry.direction == "input" and sl.spec is not None for sl in info.slicing):
        return  # its slices end it (LP708 says that OpenVINO's CPU plugin fails there instead)
    trip_count = _trip(info)  # None for a trip count of another type (LP701's)
    if trip_count is not None and trip_count < 0 and bool(np.asarray(cond).reshape(-1)[0]) and not (
        start is not None and not bool(np.asarray(start).reshape(-1)[0])
    ):
        p = layer.input(0)
        yield Finding(f"{layer.describe()} never ends: the trip count is -1 and the body condition is always true",
                      layer.port_loc(p) if p else layer.loc, layer=layer.path, port=0)


@rule("LP708", "loop-more-iterations-than-slices", severity="warning", types=("Loop",), uses_shapes=True)
def more_iterations_than_slices(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A Loop's trip count exceeds the number of slices of a sliced input.

    What it checks:
    A known trip count against the slice count of every sliced input; a trip count of -1 with a
    body condition that is always true runs past every slice.

    Why it matters:
    The spec does not say what the extra iterations read; OpenVINO's CPU plugin fails at inference
    ("Check 'iter >= 0 && iter < iter_count' failed"), irlint stops after the last slice (with a
    run-time warning; also when the trip count is only known at run time). A sliced input whose body
    Parameter nothing reads is not reported and does not count iterations: OpenVINO removes it and
    runs the trip count, and so does irlint.

    Example:
    ```xml
    trip count 10, <input axis="0" .../> over a tensor of 4 rows
    ```

    How to fix:
    Make the trip count the number of slices (or stop the loop with its condition).
    """
    info = ctx.shapes.loop(layer)
    trip = _trip(info) if info is not None else None  # None for a trip count of another type (LP701's)
    if info is None or trip is None:
        return
    endless = trip < 0 and _scalar(info.body_condition, (BOOL,)) == 1 and _start(info) != 0
    read = read_layers(layer.body) if layer.body is not None else set()
    for sl in info.slicing:
        if sl.entry.direction != "input" or sl.spec is None or not (trip > sl.spec.iterations or endless):
            continue
        if sl.entry.internal_layer_id not in read:
            continue  # nothing reads its slices: OpenVINO removes the input and runs the trip count
        what = (f"trip count {trip} exceeds" if trip >= 0 else
                "no trip count (-1) and a body condition that is always true run past")
        yield Finding(f"{layer.describe()}: {what} the {sl.spec.iterations} slices of input "
                      f"port {sl.entry.external_port_id}; irlint stops after the last slice, OpenVINO's CPU plugin "
                      "fails at inference (\"Check 'iter >= 0 && iter < iter_count' failed\")", sl.entry.loc,
                      layer=layer.path, port=sl.entry.external_port_id)


def _scalar(info: TensorInfo, allowed: tuple) -> int | None:
    """The constant in a 1-element port of an allowed type (else None: unknown, or LP701/LP702's)."""
    v = info.value
    if v is None or info.etype not in allowed or np.asarray(v).size != 1:
        return None
    return int(np.asarray(v).reshape(-1)[0])


def _trip(info) -> int | None:  # type: ignore[no-untyped-def]
    return _scalar(info.trip_count, (I32, I64))


def _start(info) -> int | None:  # type: ignore[no-untyped-def]
    return _scalar(info.condition, (BOOL,))


def _zero_runs(info) -> tuple[bool, bool]:  # type: ignore[no-untyped-def]
    """(may run zero times, surely runs zero times because a constant says so) for a Loop's LoopInfo."""
    trip, start = _trip(info), _start(info)
    never = trip == 0 or start == 0
    return never or trip is None or start is None, never


@rule("LP710", "loop-zero-iteration-output-undefined", severity="warning", types=("Loop",), uses_shapes=True)
def zero_iteration_output_undefined(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A last-value output of a Loop that may run zero times has no value then.

    What it checks:
    Loops whose trip count or execution condition (input ports 0 and 1) is not a known constant,
    or is a constant 0 trip count: each last-value output (an `<output>` entry without `axis`) whose
    body Result no back edge feeds back into a merged input.

    Why it matters:
    After zero iterations a last-value output is the initial value of the merged input its Result
    feeds back to (irlint, and OpenVINO's CPU plugin alike); without one it has no value. OpenVINO's
    CPU plugin then returns uninitialised memory (measured: zeros, denormal garbage, or the previous
    inference's value); irlint returns zeros and warns at run time. A constant-false execution
    condition is not reported: OpenVINO's core then declares the output empty, and irlint and the
    CPU plugin return it so.

    Example:
    ```xml
    <output external_port_id="4" internal_layer_id="7"/>   <!-- Result 7 = x * 2, no back edge -->
    ```

    How to fix:
    Feed the value back through a merged input whose initial value says what zero iterations give,
    or make sure the Loop runs at least once.
    """
    info = ctx.shapes.loop(layer)
    if info is None or _start(info) == 0:
        return
    may, _never = _zero_runs(info)
    if not may:
        return
    plan = info.plan
    for pe in plan.of(EntryKind.LAST_VALUE_OUTPUT):
        if plan.fed_back_from(pe.body_layer) is not None:
            continue
        why = ("its trip count is 0" if _trip(info) == 0
               else "its trip count or execution condition is only known at run time")
        yield Finding(f"output port {pe.port} of {layer.describe()} has no value when the Loop runs zero times "
                      f"({why}): no back edge feeds its body Result into a merged input; OpenVINO's CPU plugin then "
                      "returns uninitialised memory (measured: zeros, denormal garbage, or the previous inference's "
                      "value)",
                      pe.entry.loc, layer=layer.path, port=pe.port,
                      hint="feed the value back through a merged input whose initial value is the zero-iteration "
                           "answer")


@rule("LP711", "loop-zero-iterations-refused", severity="warning", types=("Loop",), uses_shapes=True)
def zero_iterations_refused(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A Loop that never runs (a constant trip count 0 or false condition) and that OpenVINO's CPU plugin refuses.

    What it checks:
    A Loop whose trip count is the constant 0 or whose execution condition is the constant false,
    when all its inputs are constants, or when it has a concatenated output.

    Why it matters:
    The model is valid (OpenVINO's core reads it and infers its shapes; irlint runs it: zero
    iterations), but OpenVINO's CPU plugin does not compile it (measured on 2026.4): with constant
    inputs its constant folding runs the core's reference, which refuses ("Zero count of iteration
    not supported"); with a concatenated output a constant trip count 0 crashes the process
    (SIGFPE; refused instead when a concatenated part is longer than |stride|, see SL608) and a
    constant false condition is refused ("Shape mismatch for tensor iterator port"). A trip count
    that is 0 only at run time (a Parameter) runs: the concatenated output is empty.

    Example:
    ```xml
    trip count Const 0, <output axis="0" .../>
    ```

    How to fix:
    Remove the Loop (its outputs are known: the merged inputs' initial values and empty
    concatenations), or compute the trip count at run time.
    """
    info = ctx.shapes.loop(layer)
    if info is None:
        return
    _may, never = _zero_runs(info)
    if not never:
        return
    false_start = _start(info) == 0
    port = 1 if false_start else 0
    what = "its execution condition is the constant false" if false_start else "its trip count is the constant 0"
    constant = all(ctx.shapes.output(src, e.from_port).value is not None
                   for p in layer.inputs
                   if (e := ctx.index(graph).source(layer.id, p.id)) is not None
                   and (src := graph.layer(e.from_layer)) is not None)
    if constant:
        refusal = "refuses to compile it: all its inputs are constants, and constant folding runs the core's " \
                  "reference (\"Zero count of iteration not supported\")"
    elif info.plan.of(EntryKind.CONCAT_OUTPUT):
        refusal = ("refuses to compile it (\"Shape mismatch for tensor iterator port\")" if false_start else
                   "crashes the process compiling it (SIGFPE)") + ": it has a concatenated output"
    else:
        return
    p = layer.input(port)
    yield Finding(f"{layer.describe()} never runs ({what}); OpenVINO's CPU plugin {refusal}",
                  layer.port_loc(p) if p else layer.loc, layer=layer.path, port=port,
                  hint="remove the Loop: zero iterations give the merged inputs' initial values and empty "
                       "concatenations")


@rule("LP712", "loop-slice-remainder-unread", severity="warning", types=("Loop",), uses_shapes=True)
def slice_remainder_unread(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A Loop's sliced axis is not a multiple of part_size: its last elements are never read.

    What it checks:
    For each sliced input of a Loop with a static length along `axis`, that part_size divides it.

    Why it matters:
    A Loop reads whole parts only: OpenVINO's CPU plugin slices the first dim - dim % part_size
    elements, forwards from element 0 or backwards from the last whole part, and leaves the rest
    unread (measured: 5 rows in parts of 2 read rows 0-1 and 2-3, or backwards 2-3 and 0-1; row 4 is
    never read). irlint does the same. A TensorIterator reports such a range as an error (SL603).

    Example:
    ```xml
    <input axis="0" external_port_id="2" internal_layer_id="0" stride="2" part_size="2"/>  <!-- 5 rows -->
    ```

    How to fix:
    Pad or cut the input to a multiple of part_size outside the Loop.
    """
    info = ctx.shapes.loop(layer)
    for sl in info.slicing if info else ():
        if sl.entry.direction != "input" or sl.spec is None:
            continue
        left = unread(sl.spec)
        if left:
            spec = sl.spec
            yield Finding(f"Loop port_map <input external_port_id={sl.entry.external_port_id}> of {layer.describe()}: "
                          f"{spec.dim} elements along axis {sl.axis} in parts of {spec.part_size}: the last {left} "
                          f"(from element {spec.dim - left}) are never read, by OpenVINO's CPU plugin or by irlint",
                          sl.entry.loc, layer=layer.path, port=sl.entry.external_port_id,
                          hint="pad or cut the input to a multiple of part_size outside the Loop")


@rule("LP713", "loop-body-condition-dynamic", severity="warning", types=("Loop",), uses_shapes=True)
def body_condition_dynamic(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A Loop's body condition is a 1-D tensor whose dim is not static: the CPU plugin fails at inference.

    What it checks:
    The shape reaching the body Result named by the execution_condition entry, as irlint infers it
    and as its input port declares it: a 1-D shape whose dim is dynamic (`[?]`, `[1..2]`).

    Why it matters:
    The spec takes a boolean scalar or 1-element 1-D tensor, and a `[?]` that holds one element at
    run time is one; irlint runs the Loop. OpenVINO reads and compiles the model, but its CPU plugin
    checks at every inference that the condition's memory is statically `[1]` and fails ("Check
    'mem->getShape() == Shape(VectorDims{1})' failed", measured on 2026.4). A static `[1]` and a
    scalar, even one reduced from a dynamic tensor, pass; a trip count or an initial execution
    condition of shape `[?]` (Loop inputs 0 and 1) passes too.

    Example:
    ```xml
    <layer id="9" type="Result"><input><port id="0" precision="BOOL"><dim>-1</dim></port></input></layer>
    ```

    How to fix:
    Make the condition a scalar (ReduceLogicalAnd over axis 0, or Squeeze of a static `[1]`), or
    Reshape it to `[1]` before the Result.
    """
    info = ctx.shapes.loop(layer)
    cond = loop_plan(layer).condition
    entry = cond.entry if cond is not None else None
    res = layer.body.layer(entry.internal_layer_id) if entry is not None and layer.body is not None else None
    if info is None or res is None:
        return
    port = res.inputs[0] if res.inputs else None
    shapes = [s for s in (info.body_condition.shape, port.shape if port is not None else None) if s is not None]
    dynamic = next((s for s in shapes if len(s) == 1 and not s[0].is_static), None)
    if dynamic is None:
        return
    yield Finding(f"body {res.describe()} of {layer.describe()}, its execution condition, is of shape "
                  f"{format_shape(dynamic)}: OpenVINO's CPU plugin fails at inference (\"Check 'mem->getShape() == "
                  "Shape(VectorDims{1})' failed\"); irlint runs it", res.loc, layer=res.path,
                  related=(Related(entry.loc, "the execution_condition entry naming it"),),
                  hint="make the condition a scalar, or Reshape it to [1] before the Result")


@rule("LP714", "loop-unread-output-plugin-error", severity="warning", types=("Loop",))
def unread_output_plugin_error(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A Loop (current_iteration set) whose unread output alone reads an earlier body Parameter: the CPU plugin fails.

    What it checks:
    A Loop with a current_iteration Parameter, and a body Parameter fed from outside and listed
    before it, read only on the way to Results of outputs nothing reads (or into a nested If,
    TensorIterator or Loop input whose Parameter is read that way there).

    Why it matters:
    The model is valid; irlint runs it. OpenVINO removes the unread output, its body Result and the
    Parameter that became unused (RemoveMultiSubGraphOpDanglingParamsResults, cascading through
    nested bodies and If branches), but leaves the current_iteration index pointing past the
    shortened list: compile_model fails ("vector::_M_range_check"). A Parameter listed after the
    current_iteration one compiles (docs/conformance.md, "Inputs removed before the plugin checks").

    Example:
    ```xml
    <input external_port_id="2" internal_layer_id="0"/>   <!-- Parameter 0, read only for output 6 -->
    <output external_port_id="6" internal_layer_id="9"/>   <!-- port 6 has no edge out -->
    <input external_port_id="-1" internal_layer_id="3" purpose="current_iteration"/>
    ```

    How to fix:
    Remove the unread output and what computes it, or read the output; listing the
    current_iteration Parameter first in the body also compiles.
    """
    body = layer.body
    plan = loop_plan(layer)
    cur = plan.current_iteration
    if body is None or cur is None:
        return
    params = body.parameters()
    at = next((i for i, p in enumerate(params) if p.id == cur.body_layer), None)
    dead = read_only_for_unread(ctx, graph, layer) if at is not None else set()
    fed = {pe.body_layer for pe in plan.state_inputs + plan.sliced_inputs}
    for p in params[:at] if at is not None else ():
        if p.id not in dead or p.id not in fed:
            continue
        outs = ", ".join(str(o) for o in unread_outputs(ctx, graph, layer))
        which = f"its output port(s) {outs}" if outs else "outputs of an If or Loop nested in its body"
        yield Finding(f"body {p.describe()} of {layer.describe()} is read only on the way to {which}, which nothing "
                      "reads, and comes before the current_iteration Parameter: OpenVINO's CPU plugin removes them "
                      "and fails to compile the model (\"vector::_M_range_check\"); irlint runs it", p.loc,
                      layer=p.path, related=(Related(cur.entry.loc, "the current_iteration entry"),),
                      hint="remove the unread output and what computes it, or read it")


def _iterating_current_iteration(ctx: Context, graph: Graph, layer: Layer) -> PlanEntry | None:
    """The Loop's current_iteration entry where a second iteration may run (with one, no back edge is
    copied and nothing the plugin writes first can be read)."""
    cur = loop_plan(layer).current_iteration
    if layer.body is None or cur is None:
        return None
    trip = _scalar(_input(ctx, graph, layer, 0) or TensorInfo(None, None), (I32, I64))
    return None if trip is not None and 0 <= trip <= 1 else cur


@rule("LP715", "loop-constant-input-plugin-error", severity="warning", types=("Loop",), uses_shapes=True)
def constant_input_plugin_error(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A Loop (current_iteration set) with a constant invariant input before it: the CPU plugin fails.

    What it checks:
    A Loop with a current_iteration Parameter, and a body Parameter listed before it that the body
    reads, fed by an invariant input (neither sliced nor merged) whose value is computed from
    constants only: a Const, ops of Consts, a ShapeOf of static dims, or the Parameter of an
    enclosing If branch or TensorIterator/Loop body whose own input is such a value.

    Why it matters:
    The model is valid; irlint and OpenVINO's core read and run it. Before compiling, OpenVINO
    (its PushConstantToSubgraph pass) replaces such a Parameter by the constant inside the body
    and removes it from the Parameter list, without moving the current_iteration index. The CPU
    plugin then fails to compile the model: with an internal error ("vector::_M_range_check: __n
    (which is 1) >= this->size() (which is 1)") when the current_iteration Parameter was the last
    one, with a failed type check ("to->getDataType() == memory::data_type::s32") when the index
    now names another Parameter (measured on 2026.4; the same Loop compiles with the
    current_iteration Parameter first, with the input fed by a model input, with a sliced or merged
    constant input, and with a constant Parameter the body does not read).

    Example:
    ```xml
    <input external_port_id="1" internal_layer_id="0"/>   <!-- invariant, fed by a Const -->
    <input external_port_id="-1" internal_layer_id="1" purpose="current_iteration"/>
    ```

    How to fix:
    List the current_iteration Parameter first in the body, or put the constant into the body
    instead of passing it in.
    """
    body = layer.body
    cur = loop_plan(layer).current_iteration  # the plugin fails at compile, whatever the trip count
    if body is None or cur is None:
        return
    params = body.parameters()
    at = next((i for i, p in enumerate(params) if p.id == cur.body_layer), None)
    pushed = pushed_parameters(ctx, layer) if at else set()
    idx = ctx.index(body)
    for p in params[:at] if at is not None else ():
        if p.id not in pushed or not idx.users(p):
            continue
        yield Finding(f"body {p.describe()} of {layer.describe()} takes a constant invariant input and comes before "
                      "the current_iteration Parameter: OpenVINO moves the constant into the body and removes the "
                      "Parameter without moving the current_iteration index, and its CPU plugin fails to compile the "
                      "model (\"vector::_M_range_check\"); irlint runs it", p.loc, layer=p.path,
                      related=(Related(cur.entry.loc, "the current_iteration entry"),),
                      hint="list the current_iteration Parameter first in the body")


# Element types OpenVINO's core evaluate (its reference implementation) lacks per op type, measured on
# 2026.4 by folding a nested Loop whose body holds the op with that input type.
_NO_CORE_EVALUATE: dict[str, frozenset[str]] = {
    **{t: frozenset({"i8", "u8", "i16", "u16"}) for t in (
        "Greater", "GreaterEqual", "Less", "LessEqual", "NotEqual", "Maximum", "Multiply", "Divide", "Power",
        "Abs", "ReLU", "Relu", "Sign")},
    "Negative": frozenset({"i8", "u8", "i16", "u16", "u32", "u64"}),
    "Minimum": frozenset({"i8", "i16"}),
    "Subtract": frozenset({"i16", "u16"}),
    "FloorMod": frozenset({"i16", "u16"}),
}


@rule("LP716", "loop-folded-nested-evaluate-error", severity="warning", types=("Loop",), uses_shapes=True)
def folded_nested_evaluate_error(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A Loop whose inputs are all constant holds a Loop whose body uses an op type OpenVINO cannot evaluate.

    What it checks:
    A Loop whose every input (trip count, condition and body inputs) is computed from constants only,
    with a Loop in its body whose body (at any depth) holds an op OpenVINO's core cannot evaluate for
    its input element type: Greater, GreaterEqual, Less, LessEqual, NotEqual, Maximum, Multiply,
    Divide, Power, Abs, ReLU, Sign on i8/u8/i16/u16; Negative also on u32/u64; Minimum on i8/i16;
    Subtract and FloorMod on i16/u16.

    Why it matters:
    The model is valid; irlint runs it. Before compiling, OpenVINO's constant folding evaluates the
    outer Loop with its reference implementation, which runs the nested Loop's body op by op; the
    op's core evaluate has no kernel for that element type, and compile_model fails with
    "Evaluation failed on opset5::Loop ..." naming the nested Loop (measured on 2026.4). The same
    op directly in the outer Loop's body, or with the outer Loop fed by a model input, compiles.

    Example:
    ```xml
    <layer type="Loop">   <!-- trip count, condition and inputs all Consts -->
      <body> ... <layer type="Loop"> <body> ... <layer type="Greater"/>   <!-- on u8 -->
    ```

    How to fix:
    Feed the outer Loop from a model input, or compute the op in a wider type (i32, f32).
    """
    body = layer.body
    if body is None or not any(x.type == "Loop" for x in body.layers):
        return
    if not _inputs_fold(ctx, graph, layer):
        return
    for inner in body.layers:
        if inner.type != "Loop" or inner.body is None:
            continue
        yield from _unevaluable_ops(ctx, inner, layer)


def _unevaluable_ops(ctx: Context, inner: Layer, outer: Layer) -> Iterator[Finding]:
    """The ops under `inner` (at any depth) whose core evaluate lacks their input element type."""
    stack = list(inner.subgraphs())
    while stack:
        g = stack.pop()
        idx = ctx.index(g)
        for op in g.layers:
            stack.extend(op.subgraphs())
            missing = _NO_CORE_EVALUATE.get(op.type)
            if not missing or not op.inputs:
                continue
            e = idx.source(op.id, op.inputs[0].id)
            src = g.layer(e.from_layer) if e is not None else None
            et = ctx.shapes.output(src, e.from_port).etype if src is not None and e is not None else None
            if et is None or str(et) not in missing:
                continue
            yield Finding(f"{op.describe()} on {et} sits in a Loop nested in {outer.describe()}, whose inputs are all "
                          f"constant: OpenVINO's constant folding evaluates {outer.describe()}, its core has no {et} "
                          f"{op.type}, and compile_model fails (\"Evaluation failed on opset5::Loop\"); irlint runs it",
                          op.loc, layer=op.path, related=(Related(outer.loc, "the constant-fed Loop"),),
                          hint="feed the outer Loop from a model input or compute the op in i32/f32")


@rule("LP717", "loop-constant-fed-dynamic-output-plugin-error", severity="warning", types=("Loop",),
      uses_shapes=True)
def constant_fed_dynamic_output(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A Loop whose inputs are all constant, with a computed body condition and a read concatenated output.

    What it checks:
    A Loop whose every input (trip count, initial condition and body inputs) is computed from
    constants only, whose body execution condition is not computed from the body's own Consts (one
    computed from a body Parameter counts, even one fed by a constant), and with a concatenated output
    that something outside the Loop reads.

    Why it matters:
    The model is valid; irlint runs it. OpenVINO's core cannot tell how many iterations run, so it
    declares the concatenated output with a dynamic dim along its axis and its constant folding
    leaves the Loop in place. The CPU plugin asks for static memory for the output of that shape
    (a node fed by constants only; one model input anywhere among its inputs avoids it) and
    compile_model fails ("Check 'm_pMemDesc->isDefined()' failed ... Can not create StaticMemory
    object. The memory desc is undefined", measured on 2026.4), also inside an If branch. The same
    Loop compiles with one input (trip count, initial condition or a body input) fed by a model
    input, with a body condition computed from the body's own Consts, with only last-value outputs
    read, and with the concatenated output unread.

    Example:
    ```xml
    <input axis="0" external_port_id="3" internal_layer_id="1"/>   <!-- fed by a Const -->
    <output axis="1" external_port_id="6" internal_layer_id="31"/>  <!-- read outside -->
    <output external_port_id="-1" internal_layer_id="32" purpose="execution_condition"/>  <!-- computed -->
    ```

    How to fix:
    Feed one of the Loop's inputs from a model input, or compute the Loop's result outside OpenVINO
    and store it as a Const.
    """
    body = layer.body
    plan = loop_plan(layer)
    cond = plan.condition
    if body is None or cond is None:
        return
    if not _inputs_fold(ctx, graph, layer):
        return
    idx = ctx.index(graph)
    res = body.layer(cond.body_layer)
    e = ctx.index(body).source(res.id, res.inputs[0].id) if res is not None and res.inputs else None
    src = body.layer(e.from_layer) if e is not None else None
    if src is None or _body_constant(ctx, body, src):
        return
    if _folds_away(ctx, graph, layer):
        return
    for out in plan.of(EntryKind.CONCAT_OUTPUT):
        if not idx.edges_out(layer.id, out.port):
            continue
        yield Finding(f"concatenated output port {out.port} of {layer.describe()} is read, the Loop's inputs are all "
                      "constant and its body condition is computed: OpenVINO leaves the output's length dynamic and "
                      "its CPU plugin fails to compile the model (\"Can not create StaticMemory object. The memory "
                      "desc is undefined\"); irlint runs it", out.entry.loc, layer=layer.path, port=out.port,
                      related=(Related(cond.entry.loc, "the execution_condition entry"),),
                      hint="feed one of the Loop's inputs from a model input")


def _lacks_evaluate(ctx: Context, g: Graph, op: Layer) -> bool:
    """Whether OpenVINO's core has no evaluate for `op` on the element type of its input 0 (_NO_CORE_EVALUATE)."""
    missing = _NO_CORE_EVALUATE.get(op.type)
    if not missing or not op.inputs:
        return False
    e = ctx.index(g).source(op.id, op.inputs[0].id)
    src = g.layer(e.from_layer) if e is not None else None
    et = ctx.shapes.output(src, e.from_port).etype if src is not None and e is not None else None
    return et is not None and str(et) in missing


def _folds_away(ctx: Context, graph: Graph, layer: Layer) -> bool:
    """Whether OpenVINO's ConstantFolding replaces the constant-fed `layer` by its values: it evaluates the
    ops computing its inputs and then the Loop itself with the core reference (op by op through the body,
    src/core/reference/src/op/loop.cpp), which works when every one of those ops has a core evaluate for
    its element type. One without (a u8 Relu, say) leaves the Loop in place for the CPU plugin."""
    idx = ctx.index(graph)
    dropped = dropped_inputs(ctx, graph, layer)
    stack = [graph.layer(e.from_layer) for p in layer.inputs if p.id not in dropped
             for e in [idx.source(layer.id, p.id)] if e is not None]
    seen: set[int | None] = set()
    while stack:  # the ops computing the Loop's inputs, up to the Consts
        op = stack.pop()
        if op is None or op.id in seen:
            continue
        seen.add(op.id)
        if _lacks_evaluate(ctx, graph, op):
            return False
        stack.extend(graph.layer(e.from_layer) for p in op.inputs for e in [idx.source(op.id, p.id)] if e is not None)
    bodies = list(layer.subgraphs())
    while bodies:
        g = bodies.pop()
        for op in g.layers:
            bodies.extend(op.subgraphs())
            if _lacks_evaluate(ctx, g, op):
                return False
    return True


def _body_constant(ctx: Context, body: Graph, layer: Layer) -> bool:
    """True when `layer` is computed from the body's own Consts (no body Parameter), as OpenVINO's core
    shape inference sees a body condition; a constant pushed in through an input does not count."""
    idx = ctx.index(body)
    stack, seen = [layer], set()
    while stack:
        cur = stack.pop()
        if cur.id in seen:
            continue
        seen.add(cur.id)
        if cur.type in ("Const", "Constant"):
            continue
        if cur.type == "Parameter" or not cur.inputs or cur.subgraphs():
            return False
        for port in cur.inputs:
            e = idx.source(cur.id, port.id)
            src = body.layer(e.from_layer) if e is not None else None
            if src is None:
                return False
            stack.append(src)
    return True


def _inputs_fold(ctx: Context, graph: Graph, layer: Layer) -> bool:
    """Whether every input of `layer` is computed from constants only (OpenVINO's constant folding reaches it),
    leaving out the inputs OpenVINO removes first, those read only for outputs nothing reads (`dropped_inputs`)."""
    idx = ctx.index(graph)
    memo: dict[tuple[int, int | None], bool] = {}
    dropped = dropped_inputs(ctx, graph, layer)
    for port in layer.inputs:
        if port.id in dropped:
            continue
        e = idx.source(layer.id, port.id)
        src = graph.layer(e.from_layer) if e is not None else None
        if src is None or not folds(ctx, graph, src, memo):
            return False
    return True


@rule("LP718", "loop-back-edge-passes-iteration", severity="warning", types=("Loop",), uses_shapes=True)
def back_edge_passes_iteration(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A back edge passes on the current_iteration Parameter itself, or a Reshape/Squeeze/Unsqueeze of it.

    What it checks:
    Back edges of a Loop whose Result reads the current_iteration Parameter directly or through
    views only.

    Why it matters:
    The spec gives the state of iteration k the iteration number k - 1. The CPU plugin prepares each
    iteration by writing the iteration number, then copying the back edges
    (src/plugins/intel_cpu/src/nodes/tensoriterator.cpp, `prepareParamsImpl`: the IterCountPortHelper
    is queued before `prepareBackEdges`); a view computes nothing and shares the Parameter's memory,
    so the state receives k, the number just written (4 iterations of s <- i, out = s + 10: the
    plugin gives 13, the spec 12). irlint computes the spec's values.

    Example:
    `<edge from-layer="R" to-layer="S"/>` where Result R reads the current_iteration Parameter.

    How to fix:
    Compute the value the back edge passes on (i + 0, or a Convert pair), or pass on i - 1 explicitly.
    """
    body = layer.body
    cur = _iterating_current_iteration(ctx, graph, layer)
    if body is None or cur is None:
        return
    for o in overwrites(ctx, layer, frozenset({Kind.ITERATION_PASSED})):
        be = o.back_edge
        assert be is not None
        via = f" through {', '.join(v.describe() for v in o.views)}" if o.views else ""
        yield Finding(f"{edge_text(be)} of {layer.describe()} passes on the current_iteration Parameter{via}: "
                      "OpenVINO's CPU plugin writes the iteration number before it copies the back edges, so the "
                      "state receives the number of its own iteration where the spec gives the previous one",
                      be.loc, layer=layer.path, related=(Related(cur.entry.loc, "the current_iteration entry"),),
                      hint="compute the value the back edge passes on (i + 0), or pass on i - 1")


@rule("LP719", "loop-condition-state-sized-for-trip-count", severity="warning", types=("Loop",), uses_shapes=True)
def condition_state_sized_for_trip_count(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A Loop's body condition is a state that starts true and that its back edge computes.

    What it checks:
    A Loop with a constant trip count whose body condition Result reads a merged body Parameter
    directly, that Parameter's initial value a constant true, its back edge computed, and with a
    concatenated output.

    Why it matters:
    OpenVINO's core reads the condition from the Parameter's initial value, takes it as always true
    (src/core/src/op/loop.cpp, `Loop::validate_and_infer_types`, the "Parameter -> execution_condition"
    case) and declares each concatenated output for the full trip count. The CPU plugin fills that
    static output while the state stays true and stops when it turns false: the rest is memory it did
    not write (zeros measured). irlint gives the parts of the iterations run, as the spec says.

    Example:
    ```xml
    <output external_port_id="-1" internal_layer_id="C" purpose="execution_condition"/>  <!-- C reads state c -->
    ```

    How to fix:
    Compute the body condition (c AND true, say) instead of passing the state on directly.
    """
    body = layer.body
    plan = loop_plan(layer)
    cond = plan.condition
    if body is None or cond is None or not plan.of(EntryKind.CONCAT_OUTPUT):
        return
    if _scalar(_input(ctx, graph, layer, 0) or TensorInfo(None, None), (I32, I64)) is None:
        return
    res = body.layer(cond.body_layer)
    e = ctx.index(body).source(res.id, res.inputs[0].id) if res is not None and res.inputs else None
    if e is None:
        return
    state = next((pe for pe in plan.of(EntryKind.MERGED_INPUT) if pe.body_layer == e.from_layer), None)
    back = body.layer(plan.back.get(e.from_layer)) if state is not None else None
    if state is None or back is None or back.id == res.id:
        return
    init = _input(ctx, graph, layer, state.port) if state.port is not None else None
    if init is None or _scalar(init, (BOOL,)) != 1:
        return
    be = ctx.index(body).source(back.id, back.inputs[0].id) if back.inputs else None
    fed = body.layer(be.from_layer) if be is not None else None
    if fed is None or _body_constant(ctx, body, fed):
        return
    for out in plan.of(EntryKind.CONCAT_OUTPUT):
        yield Finding(f"the body condition of {layer.describe()} is state {body.layer(e.from_layer).describe()}, which "
                      "starts as a constant true and which its back edge computes: OpenVINO's core takes the condition "
                      f"as always true and declares concatenated output port {out.port} for the full trip count; "
                      "the CPU plugin stops when the state turns false and leaves the rest of the output unwritten "
                      "(zeros measured) where the spec gives the parts of the iterations run", out.entry.loc,
                      layer=layer.path, port=out.port,
                      related=(Related(cond.entry.loc, "the execution_condition entry"),),
                      hint="compute the body condition from the state (c AND true) instead of passing it on")


RESERVE_LIMIT = 4 * 2**30  # bytes: a reservation beyond this fails or not by the machine, not by the model
INT32_MAX = 2**31 - 1


def _read_concat_outputs(ctx: Context, graph: Graph, layer: Layer) -> list:
    """The concatenated outputs of a Loop that OpenVINO keeps: a kept layer reads the port."""
    if id(layer) not in kept_layers(ctx):
        return []
    idx, keep = ctx.index(graph), kept_layers(ctx)
    return [pe for pe in loop_plan(layer).of(EntryKind.CONCAT_OUTPUT) if pe.port is not None
            and any(id(graph.layer(e.to_layer)) in keep for e in idx.edges_out(layer.id, pe.port))]


def _plugin_bytes(info: TensorInfo) -> int | None:
    """Bytes of a static tensor as the CPU plugin stores it with the f32 inference precision: 1-byte types
    (boolean, i8, u8, and u4/i4 widened to them) keep 1 byte, every other type is 4 (f32 or i32,
    docs/conformance.md, "The CPU plugin's element types")."""
    if info.shape is None or info.etype is None or not all(d.is_static for d in info.shape):
        return None
    return math.prod(d.lo for d in info.shape) * (1 if info.etype.bits <= 8 else 4)


@rule("LP720", "loop-concat-reserved-for-trip-count", severity="warning", types=("Loop",), uses_shapes=True)
def concat_reserved_for_trip_count(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A Loop that may stop early, with a constant trip count for which the CPU plugin reserves over 4 GiB.

    What it checks:
    A Loop with a constant trip count, a body condition that is not a constant, and a read concatenated
    output whose parts times min(trip count, 2**31 - 1) exceed 4 GiB in the plugin's types.

    Why it matters:
    The CPU plugin reads a constant i64 trip count as i32, clamped to 2**31 - 1, and its `DynamicBuffer`
    (src/plugins/intel_cpu/src/nodes/tensoriterator.cpp, `create_buffer` after `reset(lastUsedTripCount)`)
    reserves that many parts of each concatenated output after the first iteration, whenever the loop
    stops. Where the machine cannot grant the reservation, inference fails ("Failed to allocate ...
    bytes"); the spec concatenates only the iterations run. The bound is a fixed 4 GiB, so that the
    verdict does not depend on the machine that checks.

    Example:
    ```xml
    <data element_type="i64" shape="" offset="0" size="8"/>  <!-- trip count 2**63 - 1, body stops at i = 2 -->
    ```

    How to fix:
    Use the trip count -1 with the body condition, as the spec allows (the plugin then grows the buffer).
    """
    info = ctx.shapes.loop(layer)
    trip = _trip(info) if info is not None else None
    if info is None or trip is None or trip < 1 or _start(info) == 0:
        return
    if _scalar(info.body_condition, (BOOL,)) is not None or layer.body is None:
        return  # the core counts the iterations (all, or one): a static output, as large as the spec's
    iterations = min(trip, INT32_MAX)
    idx = ctx.index(layer.body)
    for out in _read_concat_outputs(ctx, graph, layer):
        res = layer.body.layer(out.body_layer)
        e = idx.source(res.id, res.inputs[0].id) if res is not None and res.inputs else None
        src = layer.body.layer(e.from_layer) if e is not None else None
        part = _plugin_bytes(ctx.shapes.output(src, e.from_port)) if src is not None and e is not None else None
        if part is None or part * iterations <= RESERVE_LIMIT:
            continue
        clamp = f"the trip count {trip} read as i32 clamps to {INT32_MAX}, so " if trip > INT32_MAX else ""
        yield Finding(f"{layer.describe()} has the constant trip count {trip} and a body condition that may stop it "
                      f"early: {clamp}OpenVINO's CPU plugin reserves {iterations} parts of {part} bytes for "
                      f"concatenated output port {out.port}, {part * iterations} bytes (over 4 GiB), after the first "
                      "iteration; inference fails where the machine cannot grant them ('Failed to allocate'), "
                      "while the spec concatenates only the iterations run", out.entry.loc,
                      layer=layer.path, port=out.port,
                      hint="use the trip count -1 with the body condition, as the spec allows")


@rule("LP721", "loop-nested-count-from-first-shapes", severity="warning", types=("Loop",), uses_shapes=True)
def nested_count_from_first_shapes(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A nested Loop whose trip count is constant on the enclosing body's first shapes only.

    What it checks:
    A Loop inside the body of a loop that may run more than once, with a body condition constant true and a
    read concatenated output, whose trip count folds to a constant with the enclosing loop's initial shapes
    but not once a back edge changes them (a count from ShapeOf of a state that grows).

    Why it matters:
    OpenVINO's core (src/core/src/op/loop.cpp, `Loop::validate_and_infer_types`) sets the Loop's iteration
    count when a validation pass finds the trip count constant and never resets it: the concatenated output
    stays declared for the first count after the back edge makes the trip count dynamic. The CPU plugin
    builds the output's `PortIteratorHelper` (tensoriterator.cpp) from that static shape, so its iteration
    count is fixed; a later outer iteration whose trip count is larger fails at inference ("iter >= 0 &&
    iter < iter_count"). The spec concatenates each outer iteration's own count of parts.

    Example:
    ```xml
    <layer type="ShapeOf"/> <!-- of the outer state g <- Concat(g, 1), its [0] the inner Loop's trip count -->
    ```

    How to fix:
    Give the inner Loop the trip count -1, the count as an invariant input k and the body condition
    i + 1 < k (measured: the plugin then concatenates each run's parts).
    """
    info = ctx.shapes.loop(layer)
    if info is None or info.core_trip is None or _trip(info) == info.core_trip or graph is ctx.model.graph:
        return
    if _scalar(info.body_condition, (BOOL,)) != 1:
        return  # the core keeps a count only with a body condition constant true
    outer = ctx.shapes.loops.get(layer.path.rsplit("/", 2)[0])
    runs = outer.iterations if outer is not None and outer.iterations is not None else outer and outer.max_iterations
    if runs is not None and runs <= 1:
        return  # the enclosing loop runs once: its first shapes are the only ones
    for out in _read_concat_outputs(ctx, graph, layer):
        yield Finding(f"the trip count of {layer.describe()} is {info.core_trip} on the first shapes of the "
                      "enclosing body and changes once its back edges change them: OpenVINO's core keeps that "
                      f"count and declares concatenated output port {out.port} for {info.core_trip} iterations; "
                      "the CPU plugin fixes the output's iteration count by it and fails at inference when a later "
                      "trip count is larger ('iter < iter_count'), where the spec concatenates each run's parts",
                      out.entry.loc, layer=layer.path, port=out.port,
                      hint="give the inner Loop the trip count -1, the count as input k, the body condition i + 1 < k")
