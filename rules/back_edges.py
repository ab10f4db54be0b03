"""BE5xx: `<back_edges>` — which body Result feeds which body Parameter on the next iteration."""

from __future__ import annotations

from collections.abc import Iterator

from irlint import causes
from irlint.controlflow import CONTROL_FLOW
from irlint.diagnostics import Related, Severity
from irlint.engine.context import Context
from irlint.ir.declared import declared_info
from irlint.ir.model import BackEdge, Graph, Layer
from irlint.openvino.memory import Kind, overwrites
from irlint.rule import Finding, rule
from irlint.shapes.merge import fits
from irlint.types import format_shape


def edge_text(be: BackEdge) -> str:
    return f"back edge from-layer={be.from_layer} to-layer={be.to_layer}"


def wrong_ends(layer: Layer, end: str, want: str, hint: str) -> Iterator[Finding]:
    """The back edges of `layer` whose `end` ("from" or "to") layer is missing from the body or is
    not a `want` layer (BE501 and BE502 differ only in which end and which type)."""
    if layer.body is None:
        return
    for be in layer.back_edges:
        lid = be.from_layer if end == "from" else be.to_layer
        if lid is None:
            continue
        other = layer.body.layer(lid)
        if other is None:
            yield Finding(f"{edge_text(be)} of {layer.describe()}: the body has no layer {lid}",
                          be.loc, layer=layer.path)
        elif other.type != want:
            yield Finding(f"{edge_text(be)} of {layer.describe()}: {end}-layer is {other.describe()}, not a {want}",
                          be.loc, layer=layer.path, related=(Related(other.loc, f"'{other.name}' is a {other.type}"),),
                          hint=hint)


@rule("BE501", "back-edge-source-not-result", types=CONTROL_FLOW)
def source_not_result(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A back edge's `from-layer` is missing from the body or is not a Result.

    What it checks:
    `from-layer` names a Result layer of the same body.

    Why it matters:
    Only body Results carry values out of an iteration. OpenVINO rejects a missing layer and
    silently drops a back edge from another layer type, so the state is never carried.

    Example:
    ```xml
    <edge from-layer="7" to-layer="3"/>   <!-- layer 7 is the LSTMCell, not its Result -->
    ```

    How to fix:
    Name the Result that holds the next value of the state.
    """
    yield from wrong_ends(layer, "from", "Result",
                          "back edges start at a body Result; add a Result after the producing layer")


@rule("BE502", "back-edge-target-not-parameter", types=CONTROL_FLOW)
def target_not_parameter(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A back edge's `to-layer` is missing from the body or is not a Parameter.

    What it checks:
    `to-layer` names a Parameter layer of the same body.

    Why it matters:
    The value must enter the next iteration through a Parameter. OpenVINO drops a back edge into
    any other layer without a word, so the recurrence silently disappears.

    Example:
    ```xml
    <edge from-layer="11" to-layer="11"/>   <!-- layer 11 is a Result -->
    ```

    How to fix:
    Point `to-layer` at the Parameter that holds the state (the one with the initial-value entry).
    """
    yield from wrong_ends(layer, "to", "Parameter", "back edges end at the body Parameter that receives the state")


@rule("BE503", "back-edge-target-twice", types=CONTROL_FLOW)
def target_twice(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """Two back edges end at the same Parameter.

    What it checks:
    At most one back edge per target Parameter.

    Why it matters:
    A Parameter receives one value per iteration; OpenVINO accepts duplicates silently and keeps
    one of them.

    Example:
    ```xml
    <edge from-layer="8" to-layer="4"/>
    <edge from-layer="9" to-layer="4"/>
    ```

    How to fix:
    Route each state to its own Parameter.
    """
    seen: dict[int, BackEdge] = {}
    for be in layer.back_edges:
        if be.to_layer is None:
            continue
        if be.to_layer in seen:
            yield Finding(f"{edge_text(be)} of {layer.describe()}: layer {be.to_layer} already receives a back edge",
                          be.loc, layer=layer.path, related=(Related(seen[be.to_layer].loc, "the first back edge"),))
        else:
            seen[be.to_layer] = be


@rule("BE504", "back-edge-without-initial-value", types=CONTROL_FLOW)
def without_initial_value(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """The Parameter a back edge feeds has no unsliced port_map input giving its first value.

    What it checks:
    Each back-edge target Parameter is named by exactly one `<input>` entry without `axis`.

    Why it matters:
    On the first iteration the state comes from outside; without the entry it has no value
    (OpenVINO rejects the model), and with a sliced entry the state is overwritten by a slice.

    Example:
    ```xml
    <edge from-layer="9" to-layer="3"/>   <!-- no <input internal_layer_id="3"/> -->
    ```

    How to fix:
    Add `<input external_port_id="..." internal_layer_id="3"/>` from the outer initial state.
    """
    if layer.body is None:
        return
    entries = {}
    for e in layer.port_map:
        if e.direction == "input" and e.internal_layer_id is not None:
            entries.setdefault(e.internal_layer_id, e)
    for be in layer.back_edges:
        dst = layer.body.layer(be.to_layer)
        if dst is None or dst.type != "Parameter":
            continue
        e = entries.get(be.to_layer)
        if e is None:
            yield Finding(f"{edge_text(be)} of {layer.describe()}: body {dst.describe()} has no port_map "
                          "<input> entry giving its initial value", be.loc, layer=layer.path,
                          related=(Related(dst.loc, "the state Parameter"),),
                          because=(causes.unfed(dst), causes.entries(layer, "input"), causes.unmapped(layer, "input")),
                          effect=f"leaves body {dst.describe()}, the state {edge_text(be)} feeds, without an initial "
                          "value")
        elif e.sliced or e.purpose is not None:
            what = "is sliced" if e.sliced else f"is the {e.purpose}"
            yield Finding(f"{edge_text(be)} of {layer.describe()}: the entry feeding body {dst.describe()} {what}; "
                          "a back-edge target needs an unsliced initial value", be.loc, layer=layer.path,
                          related=(Related(e.loc, "the entry"),))


def _result_info(ctx: Context, body: Graph, result: Layer):  # type: ignore[no-untyped-def]
    """What flows into a body Result: inferred if known, else its declared input port."""
    idx = ctx.index(body)
    if result.inputs:
        e = idx.source(result.id, result.inputs[0].id)
        src = body.layer(e.from_layer) if e else None
        if src is not None and e is not None:
            info = ctx.shapes.output(src, e.from_port)
            if info.shape is not None or info.etype is not None:
                return info, result.inputs[0]
    return None, result.inputs[0] if result.inputs else None


def _result_poison(ctx: Context, body: Graph, result: Layer):  # type: ignore[no-untyped-def]
    """The defect that the tensor reaching a body Result derives from, if any."""
    if not result.inputs:
        return None
    e = ctx.index(body).source(result.id, result.inputs[0].id)
    src = body.layer(e.from_layer) if e else None
    return ctx.shapes.poison(src, e.from_port) if src is not None and e is not None else None


@rule("BE505", "back-edge-type-mismatch", types=CONTROL_FLOW, uses_shapes=True)
def type_mismatch(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """The two ends of a back edge have different element types or incompatible shapes.

    What it checks:
    The element type of the tensor reaching the body Result equals the Parameter's; its shape fits
    the Parameter's declared shape (a shape that changes between iterations is allowed only where
    the Parameter's dims are dynamic; a scalar and a one-element 1-D shape fit each other, as
    docs/semantics.md, "Where two shapes meet", says).

    Why it matters:
    The value of iteration k becomes the input of iteration k+1: a different type or shape breaks
    every layer that reads the Parameter. OpenVINO keeps a TensorIterator's Parameter at its initial
    value's shape: its CPU plugin fails at the first inference, or restarts a dynamic state from its
    initial value each iteration; a TensorIterator of one iteration never takes the back edge: a warning.

    Example:
    ```xml
    <edge from-layer="9" to-layer="3"/>   <!-- Result 9 gets f32[1,512], Parameter 3 is f32[1,256] -->
    ```

    How to fix:
    Make the body produce the state in the Parameter's type and shape, or declare the Parameter's
    changing dims as dynamic (-1).
    """
    if layer.body is None:
        return
    for be in layer.back_edges:
        src, dst = layer.body.layer(be.from_layer), layer.body.layer(be.to_layer)
        if src is None or dst is None or src.type != "Result" or dst.type != "Parameter":
            continue
        info, port = _result_info(ctx, layer.body, src)
        poison = _result_poison(ctx, layer.body, src)
        # the Parameter's own declaration (SL605 holds it against its entry) or a poisoned value
        param_port = causes.port(dst, dst.outputs[0].id if dst.outputs else 0)
        because = (param_port,) + ((poison.key,) if poison else ())
        notes = (poison.note(),) if poison is not None else ()
        produced_et = info.etype if info is not None else (port.precision if port else None)
        # inferred (None: a dynamic rank); else the Result's port, unless it has no <dim> (maybe a dynamic rank)
        produced_shape = info.shape if info is not None and info.shape is not None else (
            port.shape if port is not None and port.shape != () else None)
        want = declared_info(dst)
        if produced_et is not None and want.etype is not None and produced_et != want.etype \
                and not want.etype.is_dynamic:  # a dynamic type is PM412's (or harmless in a Loop)
            yield Finding(f"{edge_text(be)} of {layer.describe()}: Result '{src.name}' receives {produced_et}, "
                          f"Parameter '{dst.name}' is {want.etype}", be.loc, layer=layer.path,
                          related=(Related(src.loc, "the Result"), Related(dst.loc, "the Parameter"), *notes),
                          claims=(param_port,), because=because,
                          effect=f"makes Result '{src.name}' carry {produced_et} back into Parameter '{dst.name}', "
                          f"which declares {want.etype}")
        elif not fits(produced_shape, want.shape):
            once = layer.type == "TensorIterator" and _runs_once(ctx, layer)
            yield Finding(f"{edge_text(be)} of {layer.describe()}: Result '{src.name}' receives "
                          f"{format_shape(produced_shape)}, Parameter '{dst.name}' is {format_shape(want.shape)}"
                          + (_NEVER_TAKEN if once else _SHAPE_DEPARTURE if layer.type == "TensorIterator" else ""),
                          be.loc, layer=layer.path, severity=Severity.WARNING if once else None,
                          related=(Related(src.loc, "the Result"), Related(dst.loc, "the Parameter"), *notes),
                          hint="a state whose shape changes per iteration needs dynamic dims (-1) on the Parameter",
                          claims=(param_port,), because=because,
                          effect=f"makes Result '{src.name}' carry {format_shape(produced_shape)} back into Parameter "
                          f"'{dst.name}' instead of its declared {format_shape(want.shape)}")


# OpenVINO's TensorIterator::validate_and_infer_types (src/core/src/op/tensor_iterator.cpp) gives a merged
# input's body Parameter the initial value's shape, static when that is; measured on the CPU plugin
# (OpenVINO 2026.4, f32): one iteration takes no back edge and computes the spec's values; with more,
# static inputs fail at the first inference and dynamic ones restart the state from its initial value.
_NEVER_TAKEN = ("; the layer runs one iteration, so the back edge is never taken and OpenVINO computes what "
                "the spec gives: a defect only once it iterates")
_SHAPE_DEPARTURE = ("; OpenVINO reads it, keeps the Parameter at its initial value's shape, and its CPU plugin "
                    "fails at the first inference (static inputs) or restarts the state from its initial value "
                    "each iteration (dynamic inputs)")


def _runs_once(ctx: Context, layer: Layer) -> bool:
    """A TensorIterator whose sliced inputs make one iteration: OpenVINO's own TensorIterator declares a grown
    state's Parameter with the initial value's shape, and one iteration never reads it (a Loop's file says
    what its author wrote: an error stays)."""
    info = ctx.shapes.loop(layer)
    return info is not None and info.iterations == 1


@rule("BE506", "back-edge-parameter-unused", severity="warning", types=CONTROL_FLOW)
def parameter_unused(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """The Parameter a back edge feeds is not used by any layer of the body.

    What it checks:
    Each back-edge target Parameter has at least one consumer in the body.

    Why it matters:
    The state is carried but never read: the recurrence you meant is not there (often the body
    reads the initial-value Parameter of another state instead).

    Example:
    ```xml
    <edge from-layer="9" to-layer="3"/>   <!-- no edge leaves Parameter 3 -->
    ```

    How to fix:
    Connect the Parameter to the layers that should see the previous iteration's value.
    """
    if layer.body is None:
        return
    idx = ctx.index(layer.body)
    for be in layer.back_edges:
        dst = layer.body.layer(be.to_layer)
        if dst is not None and dst.type == "Parameter" and not idx.users(dst):
            yield Finding(f"{edge_text(be)} of {layer.describe()}: body {dst.describe()} receives the state but "
                          "nothing in the body reads it", be.loc, layer=layer.path,
                          related=(Related(dst.loc, "the unused Parameter"),))


BACK_EDGE_KINDS = frozenset({Kind.SLICE_OVER_VALUE, Kind.STATE_OVER_VALUE, Kind.STATE_PASSED})


@rule("BE507", "back-edge-value-written-in-place", severity="warning", types=CONTROL_FLOW, uses_shapes=True)
def value_written_in_place(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A back edge's value that the CPU plugin writes over before it passes it on.

    What it checks:
    Each back edge whose Parameter the body reads, asking irlint/openvino/memory.py whether the
    value lives in a sliced input's memory (an Add/Multiply computed in place over a view of the
    slice, any Eltwise activation after it) or in another state's whose copy runs first.

    Why it matters:
    The plugin copies a back edge only at the start of the next iteration, after the next slice
    and the back edges before it: the Parameter receives what was copied there. h =
    tanh(Squeeze(x[k]) + h) gives tanh(2 * x[k]); a <- b, b <- a gives both b's value.

    Example:
    ```xml
    <layer id="2" type="Squeeze"/>   <!-- x[k] [1,4] to [4] -->
    <layer id="3" type="Add"/>       <!-- Squeeze + h, then Tanh: the back edge into h -->
    ```

    How to fix:
    Put the state first (h + Squeeze(x[k])), or read the slice without the view; for two states
    passed on crosswise, compute one of them (a Relu or + 0 copies it).
    """
    for o in overwrites(ctx, layer, BACK_EDGE_KINDS):
        if o.back_edge is None:
            continue
        be = o.back_edge
        if o.writer is None:
            yield Finding(f"{edge_text(be)} of {layer.describe()} passes on body {o.param.describe()}, a state whose "
                          "own back edge OpenVINO's CPU plugin copies first: the Parameter receives that state's "
                          "next value where the spec gives its current one", be.loc, layer=layer.path,
                          related=(Related(o.param.loc, f"'{o.param.name}' is written by its back edge first"),),
                          hint="compute the value passed on (a Relu or + 0 copies it)")
            continue
        view = o.views[0]
        whose = f", fused with {o.fused.describe()}, whose input 0" if o.fused is not None else ", whose input 0"
        what = ("the state's own back edge writes that Parameter's next value over it before this back edge "
                "passes it on, and the Parameter receives that value" if o.kind is Kind.STATE_OVER_VALUE else
                "the next iteration's slice (or the invariant input) overwrites it before the back edge passes "
                "it on, and the Parameter receives the slice")
        yield Finding(f"{edge_text(be)} of {layer.describe()} passes on {o.writer.describe()}{whose} is "
                      f"{view.describe()} of body {o.param.describe()}: OpenVINO's CPU plugin computes it in "
                      f"place in that Parameter's memory, so {what} where the spec gives the value",
                      be.loc, layer=layer.path,
                      related=(Related(o.writer.loc, f"'{o.writer.name}' is computed in place"),
                               Related(view.loc, f"'{view.name}' shares the Parameter's memory")),
                      hint="put the other operand first, or read the slice without reshaping it")
