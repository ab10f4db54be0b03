"""T213, T214, T215, T218, PM416, PM420, IF807, IF810, IF811: valid IR the CPU plugin refuses or misruns.

Each is a warning that names the plugin and quotes its message: the model is valid (OpenVINO's core
reads it and infers it), and another device or a later release may compile it.
"""

from __future__ import annotations

from collections.abc import Iterator

from irlint.rules.back_edges import edge_text
from irlint.rules.cpu_numerics import _constant
from irlint.rules.pushed_constants import pushed_parameters
from irlint.rules.unread_outputs import dropped_inputs

from irlint import causes
from irlint.controlflow import EntryKind, loop_plan
from irlint.diagnostics import Related
from irlint.engine.context import Context
from irlint.ir.index import GraphIndex
from irlint.ir.model import Branch, Graph, Layer, Port
from irlint.rule import Finding, rule
from irlint.shapes.dimless import declared_dynamic_ranks, output_shape
from irlint.types import Shape, element_type, format_shape, parse_shape

DYNAMIC_RANK = "CPU plug-in doesn't support {} operation with dynamic rank"


@rule("T213", "parameter-dynamic-rank", severity="warning", scope="graph", uses_shapes=True)
def parameter_dynamic_rank(ctx: Context, graph: Graph) -> Iterator[Finding]:
    """A Parameter the CPU plugin compiles is of dynamic rank: a model input, or a loop body's Parameter.

    What it checks:
    The `<data shape>` of every Parameter of the top-level graph (`shape="..."`); each body
    Parameter of a Loop that a back edge feeds, whose rank OpenVINO's core widens to a dynamic one:
    the back edge carries a Result of another rank than the Parameter's initial value, and that
    Result is also a last-value output of the Loop (docs/semantics.md); and each body Parameter no
    input entry feeds (a Loop's current_iteration), whose declared shape OpenVINO keeps.

    Why it matters:
    The model is valid and OpenVINO reads it, but its CPU plugin compiles no Parameter of dynamic
    rank ("CPU plug-in doesn't support Parameter operation with dynamic rank"), in a body neither,
    nor any op whose output is of dynamic rank (PM420, IF807). Fixing the rank (its dims may stay
    dynamic) or reshaping the model before compiling it makes it compile.

    Example:
    ```xml
    <layer id="0" name="x" type="Parameter"><data shape="..." element_type="f32"/>
    <!-- or a Loop body Parameter [] whose back edge carries a Result [1] that is also an output -->
    ```

    How to fix:
    Declare the rank, with `-1` (or `?`) for the dims not known: `shape="?,?,10"`; or call
    `model.reshape(...)` before `compile_model`. In a Loop, make the back-edge Result the
    Parameter's rank (a Reshape or Squeeze before the Result).
    """
    plugin = f"OpenVINO reads the model, but its CPU plugin cannot compile it (\"{DYNAMIC_RANK.format('Parameter')}\")"
    if not graph.is_body:
        for p in graph.parameters():
            text = p.data.get("shape")
            try:
                dynamic = text is not None and parse_shape(text) is None
            except ValueError:
                continue  # T203/IR rules report a shape that does not parse
            if dynamic:
                yield Finding(f"{p.describe()} is of dynamic rank (shape=\"{text}\"): {plugin}",
                              p.data_loc or p.loc, layer=p.path,
                              hint="declare the rank (dims may be -1), or reshape the model before compiling it")
    for layer in graph.layers:
        if layer.type == "Loop" and layer.body is not None:
            yield from _widened_parameters(ctx, graph, layer, plugin)
        if layer.type in ("Loop", "TensorIterator") and layer.body is not None:
            yield from _unfed_parameters(layer, plugin)


def _unfed_parameters(layer: Layer, plugin: str) -> Iterator[Finding]:
    """Body Parameters no input entry feeds (a Loop's current_iteration): SubGraphOp's type inference
    (src/core/src/op/loop.cpp, tensor_iterator.cpp) sets only the Parameters its input descriptions feed,
    so these keep their declared shape, and a declared dynamic rank reaches the plugin."""
    assert layer.body is not None
    fed = {e.internal_layer_id for e in layer.port_map if e.direction == "input" and e.purpose is None}
    for p in layer.body.parameters():
        text = p.data.get("shape")
        try:
            dynamic = text is not None and parse_shape(text) is None
        except ValueError:
            continue
        if dynamic and p.id not in fed:
            yield Finding(f"body {p.describe()} of {layer.describe()} is of dynamic rank (shape=\"{text}\") and no "
                          f"input entry gives it a shape (OpenVINO keeps what it declares): {plugin}",
                          p.data_loc or p.loc, layer=p.path,
                          hint="declare its rank: a current_iteration Parameter is a scalar, shape=\"\"")


def _widened_parameters(ctx: Context, graph: Graph, layer: Layer, plugin: str) -> Iterator[Finding]:
    """The Loop's back-edge Parameters whose initial value has a known rank and whose inferred shape is of
    dynamic rank: the back edge widened them (a poisoned Parameter is its defect's finding's)."""
    info = ctx.shapes.loop(layer)
    if info is None or layer.body is None:
        return
    idx = ctx.index(graph)
    for be in layer.back_edges:
        par, res = layer.body.layer(be.to_layer), layer.body.layer(be.from_layer)
        got = info.params.get(be.to_layer) if be.to_layer is not None else None
        if par is None or res is None or got is None or got.shape is not None:
            continue
        poison = info.poisoned.get(be.to_layer)
        if poison is not None and poison.key != causes.port(par, par.outputs[0].id if par.outputs else 0):
            continue  # poisoned by another defect (its own declaration OpenVINO ignores: this finding is it)
        entry = next((e for e in layer.port_map if e.direction == "input" and e.internal_layer_id == be.to_layer
                      and e.axis is None and e.purpose is None), None)
        edge = idx.source(layer.id, entry.external_port_id) if entry is not None else None
        src = graph.layer(edge.from_layer) if edge is not None else None
        initial = ctx.shapes.output(src, edge.from_port).shape if src is not None and edge is not None else None
        if initial is None:
            continue  # an initial value of unknown or dynamic rank: the finding belongs where it comes from
        feed = ctx.index(layer.body).source(res.id, res.inputs[0].id) if res.inputs else None
        producer = layer.body.layer(feed.from_layer) if feed is not None else None
        carried = ctx.shapes.output(producer, feed.from_port).shape if producer is not None and feed else None
        what = "a value of another rank" if carried is None else format_shape(carried)
        yield Finding(f"body {par.describe()} of {layer.describe()} is of dynamic rank: its initial value is "
                      f"{format_shape(initial)}, {edge_text(be)} carries {what} from {res.describe()}, which is also "
                      f"an output of the Loop, so OpenVINO's core widens the Parameter to a dynamic rank; "
                      f"{plugin}", par.loc, layer=par.path,
                      related=(Related(res.loc, "the back edge's Result"),),
                      hint="make the back-edge Result the Parameter's rank (a Reshape or Squeeze before it)")


@rule("T214", "parameter-type-dynamic", severity="warning", scope="graph")
def parameter_type_dynamic(ctx: Context, graph: Graph) -> Iterator[Finding]:
    """A model input (a top-level Parameter) declares `element_type="dynamic"` (or `undefined`, or none).

    What it checks:
    The `<data element_type>` of every Parameter of the top-level graph; a `<data>` without one
    is read by OpenVINO as dynamic.

    Why it matters:
    OpenVINO reads such a model (its ports say `UNSPECIFIED`), but its CPU plugin cannot allocate
    the input and refuses to compile it ("Memory has not been allocated", naming no layer).
    (TensorIterator body Parameters of a dynamic type are PM412's.)

    Example:
    ```xml
    <layer id="0" name="x" type="Parameter"><data shape="3" element_type="dynamic"/>
    ```

    How to fix:
    Declare the element type the model is fed with (`f32`, `i64` ...).
    """
    if graph.is_body:
        return
    for p in graph.parameters():
        if p.data_loc is None:  # no <data> at all: IR006's
            continue
        text = p.data.get("element_type")
        et = element_type(text) if text is not None else None
        if text is None or (et is not None and et.is_dynamic):
            what = f"declares element_type={text}" if text is not None else "declares no element_type (read as dynamic)"
            yield Finding(f"{p.describe()} {what}: OpenVINO reads the model, but its CPU plugin "
                          "cannot compile it (\"Memory has not been allocated\")", p.data_loc or p.loc, layer=p.path,
                          hint="declare the element type of the input")


@rule("T215", "const-type-dynamic", severity="warning", scope="graph")
def const_type_dynamic(ctx: Context, graph: Graph) -> Iterator[Finding]:
    """A Const declares `element_type="dynamic"` (or `undefined`).

    What it checks:
    The `<data element_type>` of every Const, at every graph level.

    Why it matters:
    OpenVINO reads such a Const (its bytes are taken as they are), but its CPU plugin refuses to
    compile the model ("unsupported src_prc: dynamic"). A Const's type is what its bytes are: it
    is never unknown.

    Example:
    ```xml
    <layer id="1" name="c" type="Const"><data element_type="dynamic" shape="3" offset="0" size="12"/>
    ```

    How to fix:
    Declare the type the bytes hold (`f32` for 12 bytes of shape [3]).
    """
    for c in graph.layers:
        if c.type not in ("Const", "Constant"):
            continue
        text = c.data.get("element_type")
        et = element_type(text) if text is not None else None
        if et is not None and et.is_dynamic:
            yield Finding(f"{c.describe()} declares element_type={text}: OpenVINO reads the model, but its CPU plugin "
                          "cannot compile it (\"unsupported src_prc: dynamic\")", c.data_loc or c.loc, layer=c.path,
                          hint="declare the element type the Const's bytes hold")


@rule("PM420", "loop-dynamic-rank", severity="warning", types=("TensorIterator", "Loop"), uses_shapes=True)
def loop_dynamic_rank(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A TensorIterator or Loop takes or gives a tensor of dynamic rank.

    What it checks:
    Each data input port whose producer's output is of dynamic rank, and each output port of
    dynamic rank, as OpenVINO writes them: a port without `<dim>` that is not a scalar
    (docs/rules-openvino.md, "Ports without dims"). A Loop's output becomes one when a back edge
    carries a Result of another rank into its Parameter (a `[]` Result into a `[1]` Parameter)
    and that Result is also an output: OpenVINO then widens the Parameter to a dynamic rank.

    Why it matters:
    The model is valid and OpenVINO reads it, but its CPU plugin compiles no op whose output is of
    dynamic rank ("CPU plug-in doesn't support Loop operation with dynamic rank").

    Example:
    ```xml
    <layer id="2" type="Loop"> ... <port id="3" precision="FP32"/>   <!-- a dynamic rank -->
    ```

    How to fix:
    Give the input a known rank (its dims may stay dynamic), or make the back edge carry the
    Parameter's rank (a Reshape/Unsqueeze before the Result).
    """
    dynamic = ctx.memo("declared_dynamic_ranks", graph, lambda: declared_dynamic_ranks(graph, ctx.index(graph)))
    idx = ctx.index(graph)
    plugin = f"OpenVINO reads the model, but its CPU plugin cannot compile it (\"{DYNAMIC_RANK.format(layer.type)}\")"
    for port in layer.inputs:
        if layer.type == "Loop" and port.id in (0, 1):
            continue  # the trip count and the execution condition: LP701/LP702 check their ranks
        e = idx.source(layer.id, port.id)
        src = graph.layer(e.from_layer) if e is not None else None
        src_port = src.output(e.from_port) if src is not None and e is not None else None
        if src is None or src_port is None or not _dynamic_rank(ctx, src, src_port, dynamic):
            continue
        yield Finding(f"input port {port.id} of {layer.describe()} receives a tensor of dynamic rank from "
                      f"{src.describe()}: {plugin}", layer.port_loc(port), layer=layer.path, port=port.id,
                      related=(Related(src.port_loc(src_port), f"output port {src_port.id} of '{src.name}'"),),
                      hint="give the input a known rank (dims may stay dynamic)")
    for port in layer.outputs:
        if _dynamic_rank(ctx, layer, port, dynamic):
            poison = ctx.shapes.poison(layer, port.id)  # no shape known because of a defect: its finding carries it
            yield Finding(f"output port {port.id} of {layer.describe()} is of dynamic rank: {plugin}",
                          layer.port_loc(port), layer=layer.path, port=port.id,
                          related=(poison.note(),) if poison is not None else (),
                          because=(poison.key,) if poison is not None else (),
                          hint="a back edge that carries another rank than its Parameter's widens it to a dynamic "
                               "rank; reshape the Result to the Parameter's rank")


def _dynamic_rank(ctx: Context, layer: Layer, port: Port, dynamic: frozenset[int]) -> bool:
    """A port OpenVINO writes as of dynamic rank: no `<dim>`, and not read as a scalar."""
    if port.shape != () or port.id is None:
        return False
    return output_shape(layer, port, lambda: ctx.shapes.output(layer, port.id), dynamic) is None


@rule("IF807", "if-output-dynamic-rank", severity="warning", types=("If",), uses_shapes=True)
def if_output_dynamic_rank(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """An If's output is of dynamic rank: its branches give different ranks on a condition not constant.

    What it checks:
    Each output port of an If that OpenVINO writes as of dynamic rank (no `<dim>`, not a scalar):
    the union of branches of different ranks (other than a scalar and a 1-D shape), or a branch of
    dynamic rank (docs/semantics.md, "Where two shapes meet").

    Why it matters:
    The model is valid and OpenVINO reads it, but its CPU plugin compiles no op whose output is of
    dynamic rank ("CPU plug-in doesn't support If operation with dynamic rank"). With a constant
    condition OpenVINO takes the running branch's shape and the model compiles.

    Example:
    ```xml
    <layer id="2" type="If"> ... <port id="2" precision="FP32"/>   <!-- then [2,3], else [6] -->
    ```

    How to fix:
    Make both branches give one rank (a Reshape in one of them).
    """
    dynamic = ctx.memo("declared_dynamic_ranks", graph, lambda: declared_dynamic_ranks(graph, ctx.index(graph)))
    for port in layer.outputs:
        if _dynamic_rank(ctx, layer, port, dynamic):
            # unknown because a branch derives it from a defect: a consequence, folded into that defect's finding
            poison = ctx.shapes.poison(layer, port.id)
            yield Finding(f"output port {port.id} of {layer.describe()} is of dynamic rank: OpenVINO reads the model, "
                          f"but its CPU plugin cannot compile it (\"{DYNAMIC_RANK.format('If')}\")",
                          layer.port_loc(port), layer=layer.path, port=port.id,
                          related=(poison.note(),) if poison is not None else (),
                          because=(poison.key,) if poison is not None else (),
                          hint="make both branches give one rank")


SWISH = "Swish input with beta must be scalar"


@rule("T218", "swish-fusion-beta-not-scalar", severity="warning", scope="graph", uses_shapes=True)
def swish_fusion_beta_not_scalar(ctx: Context, graph: Graph) -> Iterator[Finding]:
    """x * Sigmoid(x * b) with b a computed tensor of shape [1]: the CPU plugin fuses it into a Swish it refuses.

    What it checks:
    Each Multiply reading a Sigmoid and a value x, where the Sigmoid reads a Multiply of the same x
    and a value b that is not constant and whose shape is static, of rank 1 or more, every dim 1
    ([1], [1, 1] ...). The plugin refuses every operand order but one: inner b * x with outer
    Sigmoid * x compiles.

    Why it matters:
    The model is valid: the Multiplys broadcast b. OpenVINO's common transformations fuse the
    pattern into a Swish whose beta is b, and Swish checks that its beta is a scalar, so compiling
    on the CPU plugin fails ("Swish input with beta must be scalar", from
    SwishFusionWithSigmoidWithBeta). A constant b is folded to a scalar first and compiles; a b of
    shape [] compiles; a b of dynamic shape or of more than one element is not fused (measured on
    OpenVINO 2026.4).

    Example:
    ```xml
    <layer id="3" name="xb" type="Multiply"/>    <!-- x [1,3] times b [1], a Parameter -->
    <layer id="4" name="s" type="Sigmoid"/>
    <layer id="5" name="y" type="Multiply"/>     <!-- x times s -->
    ```

    How to fix:
    Make b a scalar (a Reshape or Squeeze to shape []), or write the model with Swish (beta a
    scalar) directly.
    """
    if not any(la.type == "Sigmoid" for la in graph.layers):
        return  # one pass over the level, and none without a Sigmoid, which the pattern reads
    idx = ctx.index(graph)
    for layer in graph.layers:
        if layer.type == "Multiply":
            yield from _swish(ctx, graph, idx, layer)


def _swish(ctx: Context, graph: Graph, idx: GraphIndex, layer: Layer) -> Iterator[Finding]:
    """T218's finding on `layer`, a Multiply of `graph`."""
    ins = [_source(graph, idx, layer, p.id) for p in layer.inputs[:2]]
    if len(ins) != 2 or None in ins:
        return
    for si in (0, 1):
        sig, x = ins[si], ins[1 - si]
        if sig[0].type != "Sigmoid":  # type: ignore[index]
            continue
        inner = _source(graph, idx, sig[0], sig[0].inputs[0].id) if sig[0].inputs else None  # type: ignore[index]
        if inner is None or inner[0].type != "Multiply" or len(inner[0].inputs) < 2:
            continue
        pair = [_source(graph, idx, inner[0], p.id) for p in inner[0].inputs[:2]]
        for xi in (0, 1):
            if pair[xi] != x or pair[1 - xi] is None:
                continue
            if xi == 1 and si == 0:  # b * x inside, Sigmoid * x outside: not fused (measured)
                continue
            beta, port = pair[1 - xi]  # type: ignore[misc]
            shape = ctx.shapes.output(beta, port).shape
            dims = [d.value for d in shape] if shape is not None else None
            if not dims or any(d != 1 for d in dims) or _constant(graph, idx, beta, {}):
                continue
            yield Finding(f"{layer.describe()} computes x * Sigmoid(x * b) with b {beta.describe()} of shape "
                          f"[{', '.join('1' for _ in dims)}], not constant: OpenVINO's CPU plugin fuses it into a "
                          f"Swish "
                          f"and refuses to compile it (\"{SWISH}\"); the model is valid and irlint computes it",
                          layer.loc, layer=layer.path,
                          related=(Related(sig[0].loc, f"'{sig[0].name}' is the Sigmoid"),  # type: ignore[index]
                                   Related(beta.loc, f"'{beta.name}' gives b")),
                          hint="reshape b to a scalar (shape []), or use Swish with a scalar beta")
            return


def _source(graph: Graph, idx: GraphIndex, layer: Layer, port_id: int) -> tuple[Layer, int | None] | None:
    """The layer and output port feeding `layer`'s input `port_id`."""
    e = idx.source(layer.id, port_id)
    src = graph.layer(e.from_layer) if e is not None else None
    return (src, e.from_port) if src is not None and e is not None else None


@rule("IF810", "if-shape-varies-in-dynamic-loop-body", severity="warning", types=("TensorIterator", "Loop"),
      uses_shapes=True)
def if_shape_varies_in_dynamic_loop_body(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A loop body with a merged input of dynamic dims holds an If whose output shape depends on the branch.

    What it checks:
    The layers directly in a TensorIterator or Loop body: when a body Parameter that a back edge
    updates has a dynamic dim, each If among them whose branches give one of its outputs
    different static shapes (then [1], else [2]) is reported.

    Why it matters:
    The model is valid: the If's output takes the shape of the branch that runs. OpenVINO's CPU
    plugin computes such a body in its dynamic-shape mode and returns values from memory that
    no iteration wrote: in the measured case (x of shape [1,?,?] merged, then branch [1], else [2],
    x = Select(x + ReduceSum(If) > t, x + ReduceSum(If), t)) three compilations of one model give
    three results, such as 1633903749 where the spec gives 6, for i64, i32 and f32 alike, in a
    TensorIterator and a Loop (OpenVINO 2026.4). The same body agrees with x of static shape, with
    branches of one shape, or without the Select; the rule warns on the structure, which is where
    the plugin is measured to fail. irlint computes what the spec says.

    Example:
    ```xml
    <layer id="1" name="x" type="Parameter"><data shape="1,?,?" element_type="i64"/>  <!-- merged -->
    <layer id="5" type="If"> ... <port id="3" precision="I64"><dim>-1</dim></port>  <!-- [1] or [2] -->
    ```

    How to fix:
    Give both branches one output shape (pad or reshape in one of them), or give the merged input a
    static shape.
    """
    if layer.body is None:
        return
    merged = {be.to_layer for be in layer.back_edges}
    dyn = [p for p in layer.body.parameters() if p.id in merged and p.outputs
           and _has_dynamic_dim(ctx.shapes.output(p, p.outputs[0].id).shape)]
    if not dyn:
        return
    for inner in layer.body.layers:
        if inner.type != "If" or len(inner.branches) != 2:
            continue
        for port in inner.outputs:
            shapes = [_branch_output_shape(ctx, b, port.id) for b in inner.branches]
            if None in shapes or shapes[0] == shapes[1]:
                continue
            then, other = (format_shape(s) for s in shapes)  # type: ignore[arg-type]
            yield Finding(f"output port {port.id} of {inner.describe()} is {then} from one branch and {other} from the "
                          f"other, in the body of {layer.describe()} whose merged input {dyn[0].describe()} has a "
                          "dynamic dim: OpenVINO's CPU plugin is measured to return values no iteration wrote from "
                          "such a body (different on each compilation); irlint computes the spec's",
                          inner.port_loc(port), layer=inner.path, port=port.id,
                          related=(Related(dyn[0].loc, f"'{dyn[0].name}' is merged and of dynamic shape"),),
                          hint="give both branches one output shape, or the merged input a static shape")
            break


# Ops on a loop state's path that, after an If's value joins the state, are measured to make the CPU plugin
# lose the state in its dynamic-shape mode (a Convert counts when it converts to a floating type).
_STATE_BREAKERS = frozenset({"Select", "Maximum", "Minimum", "ReLU"})


@rule("IF811", "if-value-in-dynamic-loop-state", severity="warning", types=("TensorIterator", "Loop"),
      uses_shapes=True)
def if_value_in_dynamic_loop_state(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A dynamic loop state takes an If's value, then passes a Select/Maximum/float Convert or meets another output.

    What it checks:
    For each back edge into a body Parameter with a dynamic dim, whether an If of the body feeds the
    state's path (Parameter to Result) and either (a) at or after the join the path goes through a
    Select, Maximum, Minimum, ReLU, a Convert to a floating type or of a u8 value, or (b) the
    state's loop output is read only by non-Result layers while another read output takes a
    computed body value of at least the state's size.

    Why it matters:
    OpenVINO's CPU plugin runs such a body in its dynamic-shape mode and does not carry the state
    from one iteration to the next: x = Convert(Convert(x + ReduceSum(If(...)), f32), i64) over two
    iterations, x of shape [?,2,3], gives x + 2 or garbage where the spec gives x + 17. The cause
    is in the plugin's reuse of dynamic memory and was not located in its source, so the rule is
    a measured pattern, not part of irlint/openvino's memory model; the measurements are in
    docs/conformance.md ("Patterns that stay patterns"). irlint computes what the spec says.

    Example:
    ```xml
    <layer id="1" name="x" type="Parameter"><data shape="?,2,3" element_type="i64"/>  <!-- merged -->
    <layer id="6" type="If"> ... </layer>      <!-- its value is summed and added to x -->
    <layer id="9" type="Convert"><data destination_type="f32"/>   <!-- x + sum, then back to i64 -->
    ```

    How to fix:
    Give the merged input a static shape, or move the Select/Convert out of the state's path (apply
    it to the loop's output instead); for (b), also read the state's output as a model output.
    """
    body = layer.body
    if body is None:
        return
    ifs = [la for la in body.layers if la.type == "If" and not _branch_shapes_differ(ctx, la)]
    if not ifs:
        return  # before the maps of the body's edges: most bodies hold no If
    out: dict[int | None, set[int | None]] = {}
    into: dict[int | None, set[int | None]] = {}
    for e in body.edges:
        out.setdefault(e.from_layer, set()).add(e.to_layer)
        into.setdefault(e.to_layer, set()).add(e.from_layer)

    def reach(start: int | None, step: dict[int | None, set[int | None]]) -> set[int | None]:
        seen: set[int | None] = set()
        todo = [start]
        while todo:
            lid = todo.pop()
            for nxt in step.get(lid, ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    reported: set[int | None] = set()
    for be in layer.back_edges:
        param = body.layer(be.to_layer)
        if param is None or param.type != "Parameter" or not param.outputs or not _has_dynamic_dim(
                ctx.shapes.output(param, param.outputs[0].id).shape):
            continue
        path = reach(param.id, out) & (reach(be.from_layer, into) | {be.from_layer})
        for inner in ifs:
            if inner.id in reported:
                continue
            fed = path & reach(inner.id, out)
            if not fed:
                continue
            breaker = next((la for lid in sorted(fed, key=lambda i: -1 if i is None else i)
                            if (la := body.layer(lid)) is not None and _breaks_state(ctx, body, la)), None)
            lost = "it returns the last iteration's value or memory no iteration wrote"
            if breaker is not None:
                why = f"the state then passes {breaker.describe()}"
                rel = Related(breaker.loc, f"'{breaker.name}' is on the state's path after the If")
                hint = "give the merged input a static shape, or apply the op to the loop's output instead"
            else:
                other = _other_computed_output(ctx, graph, layer, be.from_layer, _static_size(
                    ctx.shapes.output(param, param.outputs[0].id).shape))
                if other is None:
                    continue
                why = (f"the state's output is read only by layers other than a Result while the loop also "
                       f"outputs {other.describe()}, a value its body computes")
                lost = "it drops part of the state or returns memory no iteration wrote"
                rel = Related(other.loc, f"'{other.name}' is another output of the loop")
                hint = ("give the merged input a static shape, or also make the state's output a model output "
                        "(a Result reading it)")
            reported.add(inner.id)
            yield Finding(f"{inner.describe()} feeds the state {param.describe()} of {layer.describe()}, which has a "
                          f"dynamic dim, and {why}: OpenVINO's CPU plugin is measured not to carry such a state "
                          f"across iterations ({lost}); irlint computes the spec's",
                          inner.loc, layer=inner.path,
                          related=(Related(param.loc, f"'{param.name}' is merged and of dynamic shape"), rel),
                          hint=hint)


def _other_computed_output(ctx: Context, graph: Graph, layer: Layer, state_result: int | None,
                           state_size: int | None) -> Layer | None:
    """The body Result of another read output of `layer` that takes a computed value, when the output of
    `state_result` is read and by no Result (IF811's case (b)); else None. Only an output of at least the
    state's size counts: smaller ones were measured to agree."""
    index = ctx.index(graph)
    outputs = loop_plan(layer).data_outputs  # each with the port OpenVINO gives it
    readers = [e for pe in outputs if pe.body_layer == state_result for e in index.edges_out(layer.id, pe.port)]
    if not readers or any((r := graph.layer(e.to_layer)) is None or r.type == "Result" for e in readers):
        return None
    body = layer.body
    assert body is not None
    body_index = ctx.index(body)
    for pe in outputs:
        if pe.body_layer == state_result or not index.edges_out(layer.id, pe.port):
            continue
        res = body.layer(pe.body_layer)
        e = body_index.source(res.id, res.inputs[0].id) if res is not None and res.inputs else None
        src = body.layer(e.from_layer) if e is not None else None
        if res is None or src is None or e is None or src.type in ("Parameter", "If", "Const"):
            continue
        size = _static_size(ctx.shapes.output(src, e.from_port).shape)
        if size is not None and state_size is not None and size >= state_size:
            return res
    return None


def _static_size(shape: Shape | None) -> int | None:
    """The product of a shape's static dims (a dynamic dim counts 1), None when the rank is unknown."""
    if shape is None:
        return None
    size = 1
    for d in shape:
        size *= 1 if d.value is None else d.value
    return size


def _breaks_state(ctx: Context, body: Graph, la: Layer) -> bool:
    """Whether `la` on a dynamic state's path loses the state (IF811 (a)): a Convert to a floating type, or
    a Convert of a u8 value to another type (u8 -> i16, i32, i64 or f32 measured), or a _STATE_BREAKERS op."""
    if la.type == "Convert":
        t = element_type(la.data.get("destination_type", ""))
        if t is not None and t.name.startswith(("f", "bf")):
            return True
        src = _source(body, ctx.index(body), la, la.inputs[0].id) if la.inputs else None
        if src is None or src[1] is None or t is None:
            return False
        info = ctx.shapes.output(src[0], src[1])
        return info.etype is not None and info.etype.name == "u8" and t.name != "u8"
    return la.type in _STATE_BREAKERS


def _branch_shapes_differ(ctx: Context, layer: Layer) -> bool:
    """Whether two branches give one of the If's outputs different static shapes (IF810's case)."""
    if len(layer.branches) != 2:
        return False
    for port in layer.outputs:
        shapes = [_branch_output_shape(ctx, b, port.id) for b in layer.branches]
        if None not in shapes and shapes[0] != shapes[1]:
            return True
    return False


def _has_dynamic_dim(shape: Shape | None) -> bool:
    return shape is not None and any(d.value is None for d in shape)


def _branch_output_shape(ctx: Context, branch: Branch, port_id: int) -> Shape | None:
    """The static shape the branch's Result for If output `port_id` gives, None if unknown or dynamic."""
    for pe in branch.port_map:
        if pe.direction != "output" or pe.external_port_id != port_id:
            continue
        res = branch.body.layer(pe.internal_layer_id)
        e = ctx.index(branch.body).source(res.id, res.inputs[0].id) if res is not None and res.inputs else None
        src = branch.body.layer(e.from_layer) if e is not None else None
        if src is None or e is None:
            return None
        shape = ctx.shapes.output(src, e.from_port).shape
        return None if shape is None or _has_dynamic_dim(shape) else shape
    return None


@rule("PM416", "tensor-iterator-without-inputs-crashes", severity="warning", types=("TensorIterator",),
      uses_shapes=True)
def tensor_iterator_without_inputs_crashes(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A TensorIterator left without inputs once OpenVINO removes the unread ones and pushes constants in.

    What it checks:
    A TensorIterator each of whose sliced, merged and invariant inputs is either removed by OpenVINO
    (its body Parameter nothing reads, or reads only on the way to outputs nothing reads) or an
    invariant input whose value is computed from constants only (OpenVINO moves such a constant into
    the body and removes the Parameter); a TensorIterator without any input entry too.

    Why it matters:
    The model is valid; irlint and OpenVINO's core read and run it. OpenVINO's CPU plugin compiles
    such a TensorIterator and then kills the process at the first inference (SIGSEGV), at the top
    level and in a Loop body alike (measured on 2026.4: one constant invariant input, two, a constant
    computed by ops of Consts, no input at all, and a constant invariant input beside a sliced input
    whose Parameter only an unread output reads). The same TensorIterator with an input fed by a model
    input, with a constant sliced or merged input, and a Loop of constant inputs alike, run.

    Example:
    ```xml
    <input external_port_id="0" internal_layer_id="0"/>   <!-- invariant, fed by a Const -->
    ```

    How to fix:
    Compute the body's value outside the TensorIterator (its inputs are constants), or feed the
    TensorIterator an input that is not constant.
    """
    if layer.body is None:
        return
    kinds = (EntryKind.SLICED_INPUT, EntryKind.MERGED_INPUT, EntryKind.INVARIANT_INPUT)
    entries = [pe for pe in loop_plan(layer).entries if pe.kind in kinds]
    dropped = dropped_inputs(ctx, graph, layer)
    pushed = pushed_parameters(ctx, layer)
    if any(pe.port not in dropped and pe.body_layer not in pushed for pe in entries):
        return
    why = []
    if any(pe.port in dropped for pe in entries):
        why.append("the inputs whose body Parameters nothing reads (or reads only for outputs nothing reads) "
                   "are removed")
    if pushed:
        why.append("the constant invariant inputs are moved into the body")
    how = f"once {' and '.join(why)}, " if why else ""
    yield Finding(f"{layer.describe()}: {how}it has no input left; OpenVINO's CPU plugin compiles such a "
                  "TensorIterator and kills the process at the first inference (SIGSEGV); irlint runs it",
                  layer.loc, layer=layer.path,
                  related=tuple(Related(pe.entry.loc, "removed" if pe.port in dropped else "a constant moved "
                                        "into the body") for pe in entries),
                  hint="compute the value outside the TensorIterator, or feed it an input that is not constant")
