"""BE5xx: `<back_edges>` — which body Result feeds which body Parameter on the next iteration."""

from __future__ import annotations

from collections.abc import Iterator

from irlint import causes
from irlint.controlflow import CONTROL_FLOW
from irlint.diagnostics import Related
from irlint.engine.context import Context
from irlint.ir.declared import declared_info
from irlint.ir.index import GraphIndex
from irlint.ir.model import BackEdge, Graph, Layer
from irlint.rule import Finding, rule
from irlint.shapes.merge import fits
from irlint.types import format_shape


def edge_text(be: BackEdge) -> str:
    return f"back edge from-layer={be.from_layer} to-layer={be.to_layer}"


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
    if layer.body is None:
        return
    for be in layer.back_edges:
        if be.from_layer is None:
            continue
        src = layer.body.layer(be.from_layer)
        if src is None:
            yield Finding(f"{edge_text(be)} of {layer.describe()}: the body has no layer {be.from_layer}",
                          be.loc, layer=layer.path)
        elif src.type != "Result":
            yield Finding(f"{edge_text(be)} of {layer.describe()}: from-layer is {src.describe()}, not a Result",
                          be.loc, layer=layer.path, related=(Related(src.loc, f"'{src.name}' is a {src.type}"),),
                          hint="back edges start at a body Result; add a Result after the producing layer")


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
    if layer.body is None:
        return
    for be in layer.back_edges:
        if be.to_layer is None:
            continue
        dst = layer.body.layer(be.to_layer)
        if dst is None:
            yield Finding(f"{edge_text(be)} of {layer.describe()}: the body has no layer {be.to_layer}",
                          be.loc, layer=layer.path)
        elif dst.type != "Parameter":
            yield Finding(f"{edge_text(be)} of {layer.describe()}: to-layer is {dst.describe()}, not a Parameter",
                          be.loc, layer=layer.path, related=(Related(dst.loc, f"'{dst.name}' is a {dst.type}"),),
                          hint="back edges end at the body Parameter that receives the state")


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
    every layer that reads the Parameter. OpenVINO re-infers and may fail deep inside the body,
    or compile a model that differs from the file.

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
            yield Finding(f"{edge_text(be)} of {layer.describe()}: Result '{src.name}' receives "
                          f"{format_shape(produced_shape)}, Parameter '{dst.name}' is {format_shape(want.shape)}",
                          be.loc, layer=layer.path,
                          related=(Related(src.loc, "the Result"), Related(dst.loc, "the Parameter"), *notes),
                          hint="a state whose shape changes per iteration needs dynamic dims (-1) on the Parameter",
                          claims=(param_port,), because=because,
                          effect=f"makes Result '{src.name}' carry {format_shape(produced_shape)} back into Parameter "
                          f"'{dst.name}' instead of its declared {format_shape(want.shape)}")


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


# Ops the CPU plugin runs in the memory of their input (a view): a Reshape, Squeeze or Unsqueeze that
# changes the shape (one that keeps it is removed).
VIEW_OPS = frozenset({"Reshape", "Squeeze", "Unsqueeze"})
# Eltwise ops measured to write their result over input 0's memory in a body (Subtract is not).
IN_PLACE_OPS = frozenset({"Add", "Multiply"})
# Eltwise ops measured to be fused, in u8/i8, with an Add/Multiply after them into one node that then
# writes over their input 0 (in f32 and i32 the same pair gives the spec's values).
FUSED_FIRST_OPS = frozenset({"Minimum", "Maximum", "Add", "Multiply"})
ONE_BYTE = frozenset({"u8", "i8"})
# One-input ops measured to be fused into the node of the Add/Multiply before them, which then still writes
# in place (Relu, Clamp, Abs, Sigmoid; also an Add/Multiply of a Const), views included, between E and the Result.
TAIL_OPS = frozenset({"Relu", "ReLU", "Clamp", "Abs", "Sigmoid"})
# Ops the CPU plugin runs as Eltwise nodes: one feeding E's other operand may take E into its own node
# (measured: a Relu on m), whose input 0 is then not the view.
ELTWISE_NODES = frozenset({
    "Relu", "ReLU", "Sigmoid", "Tanh", "Exp", "Sqrt", "Erf", "Abs", "Clamp", "Elu", "Gelu", "HSwish", "HSigmoid",
    "Mish", "Swish", "SoftPlus", "Round", "Floor", "Ceiling", "Negative", "Log", "Add", "Multiply", "Subtract",
    "Divide", "Minimum", "Maximum", "Power", "SquaredDifference", "PRelu", "Select", "Mod", "FloorMod",
    "LogicalNot", "LogicalAnd", "LogicalOr", "LogicalXor", "Equal", "NotEqual", "Greater", "GreaterEqual", "Less",
    "LessEqual", "FakeQuantize",
})


@rule("BE507", "back-edge-value-written-in-place", severity="warning", types=CONTROL_FLOW, uses_shapes=True)
def value_written_in_place(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A back edge's value is an Add/Multiply of a reshaped body input: the CPU plugin computes it in place.

    What it checks:
    Each back edge whose Result reads an Add or Multiply E whose input 0 is a Reshape, Squeeze or
    Unsqueeze V of a body Parameter P fed by a sliced or invariant input, or of another state's
    Parameter P whose back edge passes on something other than P and whose Parameter and Result
    both come before those of E's back edge, where V changes the shape, E's output has V's shape,
    and E, V and each of E's inputs have no other reader. In u8
    and i8 also E = Add/Multiply(m, F) (either order) where F, a Minimum, Maximum, Add or Multiply
    read only by E, has V on its input 0. E's other operand is not computed by an op the plugin
    runs as an Eltwise node (a Relu on it takes E into that node, whose input 0 is not V); over
    another state's memory it is also not a Parameter or a view (after Converts to their input's
    own type, which the plugin removes), though it may be a Parameter read only by E.
    Between E and the Result there may be a tail, each link read only by the next, of Relu,
    Clamp, Abs, Sigmoid, an Add or Multiply of a Const (which the plugin fuses into E's node) and
    views (Reshape, Squeeze, Unsqueeze), the Result reading E's shape, unless E is not fused with
    F and a view reads E directly.

    Why it matters:
    The spec passes E's value to the back edge's Parameter for the next iteration. OpenVINO's
    CPU plugin lets E (or the node it fuses F and E into) write its result over its input 0's
    memory, which V shares with P: the next iteration's slice is copied into P's memory before
    the back edge passes the value on, so the Parameter receives the slice instead (m * x[k] with
    x = [3, 4, 5, 7], m0 = 2: 6, 16, 25, 49 where the spec gives 6, 24, 120, 840; in u8,
    m * Minimum(x[k], 1) gives 2, 4, 5, 7 for 2, 2, 2, 2), and an invariant input is overwritten
    by the value (x * m gives 6, 36, 1296 for 6, 18, 54). Over another state a's memory, a's back
    edge writes a's next value there first and E's Parameter s receives it: a' = a + s with
    s' = Convert(Convert(s, i64), u8) * Minimum(Reshape(a), 1), a0 = 1, s0 = 3, gives a = 4, 8, 16
    (the spec 4, 7, 10) in a Loop, and s' = Reshape(a) * Convert(Convert(s, i64), f32) in a
    TensorIterator gives 16 (the spec 19), and s' = s * Minimum(Reshape(a), 1) in u8, s read only
    by E, a' = a + x[k] in a TensorIterator gives s = 4 (a's last value) for the spec's 0; s's
    Parameter or Result before a's, a' = a, E's other operand s also read elsewhere or a view of
    s, and the fused pair in f32 give the spec's values. Measured on
    OpenVINO 2026.4 in f32, i32
    and u8, in a Loop and a TensorIterator; E's operands the other way round, a Reshape that keeps
    the shape, a Subtract, another reader of an input, and F before E in f32 or i32 give the
    spec's values. A tail changes nothing: Relu(E), Clamp, Abs, Sigmoid (f32), E + 1, E * 1 and
    Relu(E) reshaped to [1] and back to [] give the slice too (f32: 6, 16, 25, 49; m * Minimum(x[k],
    1) in u8 through Relu and the Reshape pair: 2, 4, 5, 7), and so does E fused with F reshaped to
    [1] and back; E alone reshaped to [1] and back, with or without a Relu after the Reshapes, gives
    the spec's values.

    Example:
    ```xml
    <layer id="2" type="Reshape"/>    <!-- the [1] slice to [] -->
    <layer id="3" type="Multiply"/>   <!-- Reshape * m, m the back edge's Parameter -->
    ```

    How to fix:
    Put the other operand first (m * Reshape(x)), or read the slice (or the state) without the
    Reshape.
    """
    body = layer.body
    if body is None or not layer.back_edges:
        return
    idx = ctx.index(body)
    fed = {pe.internal_layer_id for pe in layer.port_map if pe.direction == "input" and pe.external_port_id is not None
           and pe.purpose is None}
    merged = {be.to_layer for be in layer.back_edges}
    for be in layer.back_edges:
        res = body.layer(be.from_layer)
        if res is None or res.type != "Result" or not res.inputs:
            continue
        states = _changed_states(body, idx, layer, be)
        chain = _chain_to(body, idx, _fed_by(body, idx, res, 0))
        for i, e in enumerate(chain):
            if e.type not in IN_PLACE_OPS or len(e.inputs) != 2 or len(idx.users(e)) != 1:
                continue
            if i and not _same_shape(ctx, e, chain[0]):
                continue  # the tail gives the back edge another shape
            found = _in_place_view(ctx, body, idx, e, (fed - merged) | states, states)
            after = chain[i - 1] if i else None  # the layer right after E
            if found is not None and not (found[2] is None and after is not None and after.type in VIEW_OPS):
                break  # views right after a bare E: the plugin gives the spec's values (measured)
        else:
            continue
        view, param, via = found
        whose = f", fused with {via.describe()}, whose input 0" if via is not None else ", whose input 0"
        what = ("the state's own back edge writes that Parameter's next value over it before this back edge "
                "passes it on, and the Parameter receives that value" if param.id in states else
                "the next iteration's slice (or the invariant input) overwrites it before the back edge passes "
                "it on, and the Parameter receives the slice")
        yield Finding(f"{edge_text(be)} of {layer.describe()} passes on {e.describe()}{whose} is "
                      f"{view.describe()} of body {param.describe()}: OpenVINO's CPU plugin computes it in "
                      f"place in that Parameter's memory, so {what} where the spec gives the value",
                      be.loc, layer=layer.path,
                      related=(Related(e.loc, f"'{e.name}' is computed in place"),
                               Related(view.loc, f"'{view.name}' shares the Parameter's memory")),
                      hint="put the other operand first, or read the slice without reshaping it")


def _chain_to(body: Graph, idx: GraphIndex, last: Layer | None) -> list[Layer]:
    """The layers from the one a back edge's Result reads backwards, over views and ops the plugin fuses into
    the node before them, each read only by the one after it, up to the first that is neither: each is a
    candidate E, the layers before it in the list its tail."""
    chain: list[Layer] = []
    while last is not None and last.outputs and last not in chain:  # a cycle (a malformed graph) ends it
        chain.append(last)
        if len(idx.users(last)) != 1 or not _joins_node_before(body, idx, last):
            break
        last = _fed_by(body, idx, last, 0)
    return chain


def _joins_node_before(body: Graph, idx: GraphIndex, layer: Layer) -> bool:
    """`layer` is a view or an op the plugin fuses into the node that computes its input 0."""
    if not layer.inputs:
        return False
    if layer.type in VIEW_OPS or (layer.type in TAIL_OPS and len(layer.inputs) == 1):
        return True
    k = _fed_by(body, idx, layer, 1) if layer.type in IN_PLACE_OPS and len(layer.inputs) == 2 else None
    return k is not None and k.type == "Const"


def _fed_by(body: Graph, idx: GraphIndex, layer: Layer, port_index: int) -> Layer | None:
    """The layer whose output feeds input `port_index` of `layer`."""
    if port_index >= len(layer.inputs):
        return None
    e = idx.source(layer.id, layer.inputs[port_index].id)
    return body.layer(e.from_layer) if e is not None else None


def _changed_states(body: Graph, idx: GraphIndex, layer: Layer, before: BackEdge) -> set[int | None]:
    """The back edges' Parameters whose Result does not read the Parameter itself (the plugin copies a new value
    into their memory after each iteration) and whose Parameter and Result both come before those of the back
    edge `before` in the body (measured: in any other order the plugin passes `before`'s value on first)."""
    pos = {lay.id: i for i, lay in enumerate(body.layers)}
    out: set[int | None] = set()
    for be in layer.back_edges:
        res = body.layer(be.from_layer)
        src = _fed_by(body, idx, res, 0) if res is not None and res.type == "Result" else None
        if src is None or src.id == be.to_layer or be is before:
            continue
        if pos.get(be.to_layer, -1) < pos.get(before.to_layer, -1) and \
                pos.get(be.from_layer, -1) < pos.get(before.from_layer, -1):
            out.add(be.to_layer)
    return out


def _takes_place(ctx: Context, body: Graph, idx: GraphIndex, other: Layer | None, param: Layer,
                 states: set[int | None]) -> bool:
    """Whether E's other operand leaves E in place over the view: not an Eltwise node (which takes E into its
    own node). Over a state's memory also not a view, nor a Parameter reached through Converts to their input's
    own type (which the plugin removes): measured, both give the spec's values. A Parameter E reads directly
    (read by E alone, as `_in_place_view` requires) leaves E in place."""
    if other is None:
        return True
    if other.type in ELTWISE_NODES:
        return False
    if param.id not in states or other.type == "Parameter":
        return True  # a Parameter read only by E (measured in u8: E's Parameter s receives a's next value)
    while other is not None and other.type == "Convert" and _etype(ctx, other) is not None \
            and _etype(ctx, other) == _etype(ctx, _fed_by(body, idx, other, 0)):
        other = _fed_by(body, idx, other, 0)
    return other is not None and other.type != "Parameter" and other.type not in VIEW_OPS


def _etype(ctx: Context, layer: Layer | None) -> str | None:
    """The element type of `layer`'s first output, if known."""
    if layer is None or not layer.outputs:
        return None
    et = ctx.shapes.output(layer, layer.outputs[0].id).etype
    return et.name if et is not None else None


def _in_place_view(ctx: Context, body: Graph, idx: GraphIndex, e: Layer, params: set[int | None],
                   states: set[int | None]) -> tuple[Layer, Layer, Layer | None] | None:
    """(the view, its Parameter, the fused first op or None) where E (alone, or fused with that op) writes
    over the memory of a body Parameter of `params`; None otherwise."""
    if any(len(idx.users(src)) != 1 for src in (_fed_by(body, idx, e, i) for i in (0, 1)) if src is not None):
        return None
    first, other = _fed_by(body, idx, e, 0), _fed_by(body, idx, e, 1)
    view = _view_of(ctx, body, idx, first, params)
    if view is not None:
        kept = _same_shape(ctx, first, e) and _takes_place(ctx, body, idx, other, view[1], states)
        return (*view, None) if kept else None
    et = ctx.shapes.output(e, e.outputs[0].id).etype if e.outputs else None
    if et is None or et.name not in ONE_BYTE:
        return None
    for i in (0, 1):
        f = _fed_by(body, idx, e, i)
        if f is None or f.type not in FUSED_FIRST_OPS or not f.inputs:
            continue
        srcs = [_fed_by(body, idx, f, j) for j in range(len(f.inputs))]
        if any(s is None or len(idx.users(s)) != 1 for s in srcs):
            continue
        rest = _fed_by(body, idx, e, 1 - i)
        view = _view_of(ctx, body, idx, srcs[0], params)
        if view is not None and _same_shape(ctx, srcs[0], e) and _takes_place(ctx, body, idx, rest, view[1], states):
            return (*view, f)
    return None


def _view_of(ctx: Context, body: Graph, idx: GraphIndex, v: Layer | None,
             params: set[int | None]) -> tuple[Layer, Layer] | None:
    """(v, its Parameter) when v is a Reshape/Squeeze/Unsqueeze that changes the shape of a body Parameter of
    `params` and is read by one op."""
    if v is None or v.type not in VIEW_OPS or len(idx.users(v)) != 1:
        return None
    p = _fed_by(body, idx, v, 0)
    if p is None or p.type != "Parameter" or p.id not in params or not p.outputs or not v.outputs:
        return None
    before = ctx.shapes.output(p, p.outputs[0].id).shape
    after = ctx.shapes.output(v, v.outputs[0].id).shape
    if before is None or after is None or before == after:
        return None
    return v, p


def _same_shape(ctx: Context, a: Layer | None, b: Layer) -> bool:
    """Whether `a`'s output and `b`'s output have one known shape (the plugin writes in place only then)."""
    if a is None or not a.outputs or not b.outputs:
        return False
    sa, sb = ctx.shapes.output(a, a.outputs[0].id).shape, ctx.shapes.output(b, b.outputs[0].id).shape
    return sa is not None and sa == sb
