"""SL6xx: slicing of inputs and concatenation of outputs along `axis` (start, end, stride, part_size).

The arithmetic is done once, by shape inference (`LoopInfo.slicing`, `irlint.controlflow`); these rules
only turn its results into findings and show the numbers.
"""

from __future__ import annotations

from collections.abc import Iterator

from irlint.rules.unread_outputs import dropped_inputs, unread_outputs

from irlint import causes
from irlint.controlflow import (
    CONTROL_FLOW,
    cpu_differs,
    cpu_plugin_plan,
    length_read_otherwise,
    loop_plan,
    resolve,
    spec_plan,
)
from irlint.diagnostics import Related
from irlint.engine.context import Context
from irlint.ir.declared import declared_info
from irlint.ir.model import Graph, Layer, PortMapEntry
from irlint.rule import Finding, rule
from irlint.shapes import EntrySlicing, LoopInfo, Poison
from irlint.shapes.dimless import declared_dynamic_ranks, output_shape
from irlint.shapes.merge import fits
from irlint.types import format_shape


def _describe(e: PortMapEntry) -> str:
    attrs = " ".join(f"{k}={e.attrs[k]}" for k in ("axis", "start", "end", "stride", "part_size") if k in e.attrs)
    return f"port_map <{e.direction} external_port_id={e.external_port_id} {attrs}>"


def _loop(ctx: Context, layer: Layer) -> LoopInfo | None:
    return ctx.shapes.loop(layer)


def _entry_keys(layer: Layer, sl: EntrySlicing) -> dict[str, tuple[str, ...]]:
    """An entry whose slicing fails claims its irlint.causes key (what derives from it is poisoned);
    when what it slices is itself poisoned, the slicing error follows from that defect."""
    keys = {"claims": tuple(causes.entry(layer, i) for i, x in enumerate(layer.port_map) if x is sl.entry)}
    if sl.poison is not None:
        keys["because"] = (sl.poison.key,)
    return keys


def _unread(ctx: Context, graph: Graph, layer: Layer, e: PortMapEntry) -> str:
    """A note when the entry's tensor is used by nothing: OpenVINO then removes the entry (and its body
    Parameter or the TensorIterator/Loop output) before its CPU plugin checks the slicing. A body
    Parameter read only on the way to outputs nothing reads goes too: OpenVINO removes those outputs,
    their body Results, then the Parameter left unused (`dropped_inputs`)."""
    if e.direction == "input":
        if layer.body is None or e.internal_layer_id is None:
            return ""
        if not any(ed.from_layer == e.internal_layer_id for ed in layer.body.edges):
            return (f"; nothing in the body reads Parameter {e.internal_layer_id}, so OpenVINO removes the entry "
                    "without checking it")
        if e.external_port_id is None or e.external_port_id not in dropped_inputs(ctx, graph, layer):
            return ""
        outs = ", ".join(str(o) for o in unread_outputs(ctx, graph, layer))
        which = f"output port(s) {outs}" if outs else "outputs of an If or Loop nested in the body"
        return (f"; body Parameter {e.internal_layer_id} is read only on the way to {which}, which nothing reads, "
                "so OpenVINO removes the entry without checking it")
    if any(ed.from_layer == layer.id and ed.from_port == e.external_port_id for ed in graph.edges):
        return ""
    return f"; nothing reads output port {e.external_port_id}, so OpenVINO removes the entry without checking it"


def _count_source_unread(ctx: Context, graph: Graph, layer: Layer, sl: EntrySlicing,
                         first: EntrySlicing | None) -> str:
    """The note of an entry whose tensor nothing uses (`_unread`), or else of the sliced input that sets the
    iteration count when nothing reads that one: OpenVINO removes it and counts iterations without it."""
    own = _unread(ctx, graph, layer, sl.entry)
    if own or first is None or first is sl or not _unread(ctx, graph, layer, first.entry):
        return own
    return (f"; nothing in the body reads Parameter {first.entry.internal_layer_id} of input port "
            f"{first.entry.external_port_id}, which sets that count, so OpenVINO removes that entry without "
            "checking it")


def _cpu_reading(info: LoopInfo, layer: Layer, sl: EntrySlicing) -> str:
    """A note when the CPU plugin's own arithmetic (docs/semantics.md) accepts a range the spec's rejects:
    a TensorIterator range placing as many parts as the layer runs iterations, or a Loop input's
    part_size below 1 (the plugin reads parts of |stride|)."""
    e = sl.entry
    if info.plan.is_loop and e.direction == "input" and e.part_size is not None and e.part_size < 1 \
            and e.stride != 0:  # docs/semantics.md: a Loop's input is read in parts of |stride|
        return (f"; OpenVINO's CPU plugin reads a Loop's input in parts of |stride| = {abs(e.stride or 1)} "
                "whatever part_size says")
    if info.plan.is_loop or sl.dim is None or e.stride == 0:
        return ""
    plan = cpu_plugin_plan(sl.dim, 0 if e.start is None else e.start, -1 if e.end is None else e.end,
                           1 if e.stride is None else e.stride, 1 if e.part_size is None else e.part_size)
    if plan is None or plan[1] == 0 or (info.iterations is not None and plan[1] != info.iterations):
        return ""
    first, count, step = plan
    return (f"; OpenVINO's CPU plugin reads the range its own way (end exclusive, a negative value counting "
            f"from {sl.dim} + 1) and places {count} parts from element {first}, step {step}")


@rule("SL601", "slice-axis-out-of-range", types=CONTROL_FLOW, uses_shapes=True)
def axis_out_of_range(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A sliced input or concatenated output names an axis the tensor does not have.

    What it checks:
    `axis` lies in `[-rank, rank-1]` of the outer input (input entries) or of the body Result
    (output entries; a rank-0 Result concatenates on axis 0).

    Why it matters:
    OpenVINO rejects the model, naming an internal layer and no line.

    Example:
    ```xml
    <input axis="3" external_port_id="0" internal_layer_id="0"/>   <!-- input 0 is [1,25,512] -->
    ```

    How to fix:
    Use the axis along which the sequence runs (usually 0 or 1).
    """
    info = _loop(ctx, layer)
    for sl in info.slicing if info else ():
        if sl.error and sl.error.startswith("axis"):
            yield Finding(f"{_describe(sl.entry)} of {layer.describe()}: {sl.error} "
                          f"{format_shape(sl.outer.shape)}", sl.entry.loc, layer=layer.path,
                          port=sl.entry.external_port_id, **_entry_keys(layer, sl))


@rule("SL602", "negative-input-axis", severity="warning", types=CONTROL_FLOW, uses_shapes=True)
def negative_input_axis(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A sliced input entry has a negative `axis`, which OpenVINO's IR reader rejects.

    What it checks:
    `axis` on `<input>` entries is non-negative.

    Why it matters:
    The Loop spec allows negative axes, but OpenVINO's IR reader parses the input `axis` as an
    unsigned integer and refuses the file ("not an unsigned 64 bit integer").

    Example:
    ```xml
    <input axis="-2" external_port_id="0" internal_layer_id="0"/>
    ```

    How to fix:
    Write the normalised axis (rank + axis).
    """
    info = _loop(ctx, layer)
    for e in layer.port_map:
        if e.direction == "input" and e.axis is not None and e.axis < 0:
            norm = None
            for sl in info.slicing if info else ():
                if sl.entry is e and sl.axis is not None:
                    norm = sl.axis
            hint = f"write axis=\"{norm}\"" if norm is not None else "write the non-negative axis"
            yield Finding(f"{_describe(e)} of {layer.describe()}: negative axis {e.axis} is rejected by "
                          "OpenVINO's IR reader on input entries", e.loc, layer=layer.path,
                          port=e.external_port_id, hint=hint)


@rule("SL603", "slice-range-invalid", types=CONTROL_FLOW, uses_shapes=True)
def range_invalid(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """start/end/stride/part_size admit no slicing of the dimension.

    What it checks:
    After normalisation (negative counts from the end), `start` and `end` lie inside the dimension,
    `stride` is non-zero and points from start to end, and `part_size` is at least 1 and divides the
    range (end inclusive). A sliced input's dimension is the input's; a TensorIterator's concatenated
    output's is the iteration count times the body Result's length. A stride of 0 or a part_size
    below 1 is reported on any dimension, a dynamic one too.

    Why it matters:
    OpenVINO rejects such entries, or its CPU plugin reads its own way (end exclusive, parts of
    |stride|; stride 0 kills a Loop with SIGFPE). The message shows the arithmetic, and says so when
    OpenVINO removes the entry unchecked (docs/conformance.md, "Slicing as the CPU plugin reads it").

    Example:
    ```xml
    <input axis="1" start="0" end="-1" stride="1" part_size="2" .../>   <!-- dim 25 is odd -->
    ```

    How to fix:
    Fix the number the message points at; `irlint explain SL603` and docs/semantics.md describe
    how the range is read.
    """
    info = _loop(ctx, layer)
    for sl in info.slicing if info else ():
        if sl.error and not sl.error.startswith("axis"):
            note = _unread(ctx, graph, layer, sl.entry) or _cpu_reading(info, layer, sl)
            yield Finding(f"{_describe(sl.entry)} of {layer.describe()}: {sl.error}{note}", sl.entry.loc,
                          layer=layer.path, port=sl.entry.external_port_id, **_entry_keys(layer, sl))


@rule("SL604", "iteration-count-mismatch", types=CONTROL_FLOW, uses_shapes=True)
def iteration_count_mismatch(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """Sliced inputs or concatenated outputs of a TensorIterator disagree on the number of iterations.

    What it checks:
    Every sliced input of a TensorIterator gives the same iteration count ((|end-start|+1) /
    part_size), and every concatenated output places that many parts: its start/end/stride/
    part_size are read over the output it assembles (the iterations times the body Result's
    length along the axis) the way an input's are read over the input. A Loop's sliced inputs may
    differ in length (its trip count and condition decide, LP708 warns where the CPU plugin runs
    out of slices) and its outputs hold every iteration's part, so a Loop is not checked.

    Why it matters:
    The iteration count is ambiguous; OpenVINO's CPU plugin refuses the model ("There are at least
    two different iterations numbers") and its core picks one silently.

    Example:
    ```xml
    <input axis="1" external_port_id="0" .../>   <!-- 25 steps -->
    <input axis="1" external_port_id="1" .../>   <!-- 20 steps -->
    <output axis="1" external_port_id="3" start="0" end="2" .../>   <!-- places 3 parts of 25 -->
    ```

    How to fix:
    Slice tensors of equal length, or restrict one range with start/end; give a concatenated
    output the default range (start 0, end -1).
    """
    info = _loop(ctx, layer)
    if info is None or info.plan.is_loop:
        return
    first: EntrySlicing | None = None
    for sl in info.slicing:
        if sl.entry.direction != "input" or sl.spec is None:
            continue
        if first is None:
            first = sl
        elif sl.spec.iterations != first.spec.iterations:  # type: ignore[union-attr]
            yield Finding(
                f"{_describe(sl.entry)} of {layer.describe()}: gives {sl.spec.iterations} iterations "
                f"(elements {sl.spec.start}..{sl.spec.end} of {sl.spec.dim}, part_size {sl.spec.part_size}), "
                f"but {info.iterations_source}{_count_source_unread(ctx, graph, layer, sl, first)}",
                sl.entry.loc, layer=layer.path, port=sl.entry.external_port_id,
                related=(Related(first.entry.loc, "the iteration count comes from here"),),
            )
    yield from _output_count_mismatches(ctx, graph, info, layer, first)


def _output_count_mismatches(ctx: Context, graph: Graph, info: LoopInfo, layer: Layer,
                             first: EntrySlicing | None) -> Iterator[Finding]:
    """Concatenated outputs whose range places another number of parts than the iterations run."""
    n = info.iterations
    if n is None:
        return
    for sl in info.slicing:
        spec = sl.spec
        if sl.entry.direction != "output" or spec is None or spec.iterations == n:
            continue
        yield Finding(
            f"{_describe(sl.entry)} of {layer.describe()}: places {spec.iterations} parts (elements "
            f"{spec.start}..{spec.end} of the {spec.dim} the output holds, part_size {spec.part_size}), but the "
            f"layer runs {n} iterations: {info.iterations_source}{_count_source_unread(ctx, graph, layer, sl, first)}",
            sl.entry.loc, layer=layer.path, port=sl.entry.external_port_id,
            related=(Related(first.entry.loc, "the iteration count comes from here"),) if first else (),
            hint="a concatenated output normally keeps the default range (start=\"0\" end=\"-1\")")


@rule("SL605", "sliced-parameter-shape-mismatch", types=CONTROL_FLOW, uses_shapes=True)
def sliced_parameter_shape_mismatch(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A body Parameter's declared shape differs from what its port_map entry delivers.

    What it checks:
    For a sliced input: the outer shape with `part_size` on the axis. For an unsliced input: the
    outer shape itself (a back-edge target may declare dynamic dims). Declared precision must
    equal the outer element type.

    Why it matters:
    OpenVINO ignores the declared shape and re-infers the body, so the file describes a body that
    does not exist, and every declared dim downstream is suspect.

    Example:
    ```xml
    <input axis="1" external_port_id="0" internal_layer_id="0"/>   <!-- X is [1,25,512] -->
    <layer id="0" type="Parameter"><data shape="1,25,512" .../>    <!-- should be 1,1,512 -->
    ```

    How to fix:
    Declare the slice shape (the outer shape with part_size along the axis).
    """
    info = _loop(ctx, layer)
    if info is None or layer.body is None:
        return
    for e in layer.port_map:
        if e.direction != "input" or e.purpose is not None or e.internal_layer_id not in info.params:
            continue
        param = layer.body.layer(e.internal_layer_id)
        if param is None or param.type != "Parameter":
            continue
        got = info.params[e.internal_layer_id]
        declared = declared_info(param)
        own = causes.port(param, param.outputs[0].id if param.outputs else 0)
        poison = info.poisoned.get(e.internal_layer_id)
        if poison is not None and poison.key == own:
            poison = None  # the Parameter's own misfit: this finding is that defect
        keys = {"claims": (own,)}
        if poison is not None:  # what the entry delivers derives from a defect: its finding carries this one
            keys = {"because": (poison.key,)}
        if got.etype is not None and declared.etype is not None and got.etype != declared.etype \
                and not declared.etype.is_dynamic:  # a dynamic type is PM412's (or harmless in a Loop)
            yield Finding(f"body {param.describe()} declares {declared.etype} but {_describe(e)} delivers "
                          f"{got.etype}", param.loc, layer=param.path,
                          related=(Related(e.loc, "the entry"), *_noted(poison)),
                          effect=f"makes body {param.describe()} receive {got.etype} instead of its declared "
                          f"{declared.etype}", **keys)
            continue
        if got.shape is None or declared.shape is None:
            continue
        if not fits(got.shape, declared.shape):
            how = "the slice" if e.sliced else "the outer input"
            yield Finding(
                f"body {param.describe()} declares {format_shape(declared.shape)} but {how} is "
                f"{format_shape(got.shape)} ({_describe(e)} of {layer.describe()})",
                param.port_loc(param.outputs[0]) if param.outputs else param.loc, layer=param.path,
                related=(Related(e.loc, "the port_map entry"), *_noted(poison)),
                hint="a sliced Parameter has part_size along the axis and the outer dims elsewhere",
                effect=f"makes body {param.describe()} receive {format_shape(got.shape)} instead of its declared "
                f"{format_shape(declared.shape)}", **keys,
            )


def _noted(poison: Poison | None) -> tuple[Related, ...]:
    return (poison.note(),) if poison is not None else ()


@rule("SL606", "output-shape-mismatch", types=CONTROL_FLOW, uses_shapes=True)
def output_shape_mismatch(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """An output port's declared dims differ from what the body produces.

    What it checks:
    A concatenated output (entry with `axis`) has iterations x the Result's dim on the axis and
    the Result's dims elsewhere; a last-value output has exactly the Result's dims.

    Why it matters:
    OpenVINO re-infers output shapes silently; consumers of the port were written for dims that
    will not be there.

    Example:
    ```xml
    <output axis="1" external_port_id="3" internal_layer_id="12"/>   <!-- 25 iterations of [1,1,256] -->
    <port id="3"><dim>1</dim><dim>24</dim><dim>256</dim></port>      <!-- should be 25 -->
    ```

    How to fix:
    Declare the dims the message computes (or fix the iteration count).
    """
    info = _loop(ctx, layer)
    if info is None:
        return
    for pe in loop_plan(layer).data_outputs:
        e = pe.entry
        port = layer.output(pe.port) if pe.port is not None else None  # the port OpenVINO gives it
        if port is None or port.shape is None:
            continue
        inferred = ctx.shapes.output(layer, port.id)
        if inferred.shape is None:
            continue
        # a port without <dim> may be a dynamic rank
        if fits(inferred.shape, port.shape) or output_shape(layer, port, lambda i=inferred: i, ctx.memo(
                "declared_dynamic_ranks", graph, lambda: declared_dynamic_ranks(graph, ctx.index(graph)))) is None:
            continue
        if e.sliced:
            how = (f"the body Result concatenated over {info.iterations} iterations "
                   f"({info.iterations_source}) along axis {e.axis}" if info.iterations is not None
                   else f"the body Result concatenated along axis {e.axis}")
        else:
            how = "the body Result's last value"
        poison = ctx.shapes.poison(layer, port.id)
        keys = {"because": (poison.key,)} if poison is not None else {"claims": (causes.port(layer, port.id),)}
        runs = f" ({info.iterations} iterations)" if e.sliced and info.iterations is not None else ""
        yield Finding(f"output port {port.id} of {layer.describe()} declares {format_shape(port.shape)}, but "
                      f"{how} is {format_shape(inferred.shape)}", layer.port_loc(port), layer=layer.path, port=port.id,
                      related=(Related(e.loc, "the port_map entry"), *_noted(poison)),
                      effect=f"makes output port {port.id} of {layer.describe()} {format_shape(inferred.shape)}{runs} "
                      f"instead of its declared {format_shape(port.shape)}", **keys)


def _loop_parts(e: PortMapEntry) -> tuple[int, int]:
    """A Loop entry's stride and part_size, 1 where not written."""
    return (1 if e.stride is None else e.stride), (1 if e.part_size is None else e.part_size)


@rule("SL607", "slicing-depends-on-runtime", severity="warning", types=CONTROL_FLOW, uses_shapes=True)
def depends_on_runtime(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A sub-range whose slices differ between OpenVINO's core/spec reading and its CPU plugin.

    What it checks:
    Each sliced input and concatenated output: the elements the spec reads or writes per iteration
    (negative start/end from the end, end inclusive) against the CPU plugin's reading (negative as
    dim + 1 + value, end exclusive, start ignored, parts of |stride|; a Loop ignores start/end, LP709).
    On an axis known only at run time, the shortest length where the two differ; entries OpenVINO
    removes before its plugin reads them are not reported.

    Why it matters:
    The model computes other values on the CPU plugin, or fails there at inference ("iter >= 0 &&
    iter < iter_count" past the plugin's dim // |stride| parts); the measured cases are in
    docs/conformance.md, "Slicing as the CPU plugin reads it". The default range (start 0, end -1)
    and its reverse (start -1, end 0, stride -1) are safe.

    Example:
    ```xml
    <input axis="1" start="1" end="-1" .../>   <!-- spec: elements 1..T-1; CPU plugin: 0..T-2 -->
    ```

    How to fix:
    Slice the wanted range outside the TensorIterator (StridedSlice) and iterate over all of it;
    give a Loop's entry a stride of ±part_size.
    """
    info = _loop(ctx, layer)
    is_loop = layer.type == "Loop"
    for sl in info.slicing if info else ():
        output = sl.entry.direction != "input"
        if output and is_loop:
            continue  # a Loop's concatenated outputs are SL608's
        if sl.spec is None and not is_loop:  # the axis's length is known only at run time
            if _unread(ctx, graph, layer, sl.entry):
                continue  # OpenVINO removes the entry before its CPU plugin reads it
            stride, part = sl.entry.stride or 1, sl.entry.part_size or 1
            start = 0 if sl.entry.start is None else sl.entry.start
            end = -1 if sl.entry.end is None else sl.entry.end
            if output and sl.error is None and not info.plan.sliced_inputs and info.plan.unsliced_count == 0:
                # no sliced input: OpenVINO's core counts |end - start| // part_size iterations from the first
                # concatenated output, declares a length of 0 on each output's axis, and the plugin refuses it
                yield Finding(
                    f"{_describe(sl.entry)} of {layer.describe()}: without a sliced input OpenVINO's core counts "
                    "|end - start| // part_size = 0 iterations from the first concatenated output and declares a "
                    "length of 0 on the axis; OpenVINO's CPU plugin refuses the model, at compile or, on a dynamic "
                    "shape, at inference (\"Invalid \"start\",\"stride\",\"end\" values in an iteration "
                    "component\")", sl.entry.loc, layer=layer.path, port=sl.entry.external_port_id,
                    hint="give the first concatenated output |end - start| of at least part_size, or slice an input")
                continue
            if sl.error is None and (start < 0) == (end < 0) and (end - start) * stride <= 0:
                # the plugin's range runs from start to end (exclusive) whatever the length: empty or backwards
                yield Finding(
                    f"{_describe(sl.entry)} of {layer.describe()}: OpenVINO's CPU plugin reads start={start} "
                    f"end={end} as {'an empty range' if start == end else 'a range against the stride'} on any "
                    "length of the axis and refuses the model, at compile or, on a dynamic shape, at inference "
                    "(\"Invalid \"start\",\"stride\",\"end\" values\")", sl.entry.loc,
                    layer=layer.path, port=sl.entry.external_port_id,
                    hint="iterate over the whole axis (start 0, end -1) or reversed (start -1, end 0, stride -1)")
                continue
            if abs(stride) != part:
                yield Finding(
                    f"{_describe(sl.entry)} of {layer.describe()}: OpenVINO's CPU plugin needs |stride| == part_size "
                    f"(here {abs(stride)} and {part}) and refuses the model, at compile or, on a dynamic shape, at "
                    "inference (\"There are at least two different iterations numbers\")", sl.entry.loc,
                    layer=layer.path, port=sl.entry.external_port_id,
                    hint=f"write stride=\"{part if stride > 0 else -part}\"")
                continue
            dim = length_read_otherwise(start, end, stride, part) if sl.error is None else None
            if dim is not None:
                spec = resolve(dim, start, end, stride, part)
                cpu = cpu_plugin_plan(dim, start, end, stride, part)
                verb = "writes" if output else "reads"
                yield Finding(
                    f"{_describe(sl.entry)} of {layer.describe()}: the axis's length is known only at run time; "
                    f"on a length of {dim} the spec {verb} elements {_ranges(*spec_plan(spec))} along axis "
                    f"{sl.axis}, OpenVINO's CPU plugin "
                    f"{'rejects it' if cpu is None else f'{verb} {_ranges(*cpu)}'}; the result depends on the runtime",
                    sl.entry.loc, layer=layer.path, port=sl.entry.external_port_id,
                    hint="iterate over the whole axis (start 0, end -1) or reversed (start -1, end 0, stride -1) "
                    "and slice the sub-range outside the TensorIterator")
            continue
        if sl.spec is None and is_loop:  # a Loop input's axis of a length known only at run time
            stride, part = _loop_parts(sl.entry)
            if sl.error is None and sl.axis is not None and stride != 0 and part >= 1 and abs(stride) != part \
                    and not _unread(ctx, graph, layer, sl.entry):
                yield Finding(
                    f"{_describe(sl.entry)} of {layer.describe()}: irlint and OpenVINO's core read parts of part_size "
                    f"{part} along axis {sl.axis}, OpenVINO's CPU plugin parts of |stride| = {abs(stride)} into the "
                    f"body Parameter of length {part} there, dim // {abs(stride)} of them; on this axis of dynamic "
                    "length it computes other values, or fails at inference when the Loop runs more iterations than "
                    "that (\"Check 'iter >= 0 && iter < iter_count' failed\") or when it cannot give the Parameter "
                    "the part (\"ParameterMismatch: Can not clone with new dims\")", sl.entry.loc,
                    layer=layer.path, port=sl.entry.external_port_id,
                    hint=f"write stride=\"{part if stride > 0 else -part}\"")
            continue
        if sl.spec is None or not cpu_differs(sl.spec, is_loop):
            continue
        if output and sl.spec.iterations != info.iterations:
            continue  # an output placing another number of parts is SL604's error
        spec = sl.spec
        if is_loop:
            yield Finding(
                f"{_describe(sl.entry)} of {layer.describe()}: irlint and OpenVINO's core read parts of "
                f"part_size {spec.part_size} ({_ranges(*spec_plan(spec))} along axis {sl.axis}), OpenVINO's CPU "
                f"plugin parts of |stride| = {abs(spec.stride)} ({spec.dim // abs(spec.stride)} of them: it fails at "
                "inference past them); the result depends on the runtime",
                sl.entry.loc, layer=layer.path, port=sl.entry.external_port_id,
                hint=f"write stride=\"{spec.part_size if spec.stride > 0 else -spec.part_size}\"")
            continue
        cpu = cpu_plugin_plan(spec.dim, spec.raw_start, spec.raw_end, spec.stride, spec.part_size)
        verb = "writes" if output else "reads"
        cpu_text = "rejects it" if cpu is None else f"{verb} {_ranges(*cpu)}"
        yield Finding(
            f"{_describe(sl.entry)} of {layer.describe()}: the spec {verb} elements "
            f"{_ranges(*spec_plan(spec))} along axis {sl.axis}, OpenVINO's CPU plugin {cpu_text}; "
            "the result depends on the runtime",
            sl.entry.loc, layer=layer.path, port=sl.entry.external_port_id,
            hint="iterate over the whole axis and slice the sub-range outside the TensorIterator",
        )


def _ranges(first: int, count: int, step: int) -> str:
    """Slice starts as text: '1, 2, 3' or '1, 2, ..., 99' (step = part size, negative backwards)."""
    starts = [first + k * step for k in range(min(count, 3))]
    if count == 0:
        return "nothing"
    text = ", ".join(str(x) for x in starts)
    if count > 3:
        text += f", ..., {first + (count - 1) * step}"
    return text + ("" if abs(step) == 1 else f" (parts of {abs(step)})")


@rule("SL608", "concatenated-part-not-stride", severity="warning", types=("Loop",), uses_shapes=True)
def concatenated_part_not_stride(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A Loop concatenates a body value whose length on the axis is not |stride| (the CPU plugin refuses it).

    What it checks:
    For each concatenated output of a Loop, the body Result's length along `axis` against the
    entry's |stride| (1 unless written).

    Why it matters:
    The model is valid: OpenVINO's core and irlint join every iteration's value whatever its
    length. OpenVINO's CPU plugin takes |stride| elements per iteration and refuses other lengths:
    at compile time when the shapes are static ("Shape mismatch for tensor iterator port"), at
    inference otherwise ("TensorIterator (Loop) has incorrect output shape[axis] after iteration for
    concatenation. 1 is expected, but actual: 4").

    Example:
    ```xml
    <output axis="0" external_port_id="3" internal_layer_id="5"/>   <!-- Result 5 is [4,1] -->
    ```

    How to fix:
    Concatenate along an axis where the value has length 1 and reshape after the Loop.
    """
    info = _loop(ctx, layer)
    for sl in info.slicing if info else ():
        if sl.entry.direction != "output" or sl.axis is None or sl.outer.shape is None:
            continue
        shape = sl.outer.shape or ()
        d = shape[sl.axis] if shape else None
        length = 1 if d is None else d.value
        stride = abs(sl.entry.stride) if sl.entry.stride is not None else 1
        if length is None or length == stride or stride == 0:
            continue
        yield Finding(f"{_describe(sl.entry)} of {layer.describe()}: the body Result has {length} elements along axis "
                      f"{sl.axis}, the stride is {stride}; OpenVINO's CPU plugin refuses to concatenate it (\"Shape "
                      "mismatch for tensor iterator port\"), its core and irlint join the values",
                      sl.entry.loc, layer=layer.path, port=sl.entry.external_port_id,
                      hint="concatenate along an axis where the value has length 1 and reshape after the Loop")
