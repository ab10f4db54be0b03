"""T216, T219: valid IR whose values OpenVINO's CPU plugin computes otherwise than the spec.

A warning that names the plugin: the model is valid, irlint computes what the spec says, and the
plugin's result differs (docs/semantics.md lists the numeric departures irlint reports at run time).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
from irlint.rules.levels import input_entries, parents

from irlint.controlflow.outputs import entry_of_port, output_ports
from irlint.diagnostics import Related
from irlint.engine.context import Context
from irlint.ir.index import GraphIndex
from irlint.ir.model import Branch, Edge, Graph, Layer
from irlint.rule import Finding, rule
from irlint.types import ElementType, element_type

# Types every value of which f16 holds exactly: a Convert from them to f16 rounds nothing.
EXACT_IN_F16 = frozenset({"boolean", "i8", "u8", "i4", "u4", "u2", "u1", "u3", "f8e4m3", "f8e5m2", "f4e2m1"})
# Ops that read no value of their input (its shape only), and ops whose bodies the walks enter.
SHAPE_ONLY = frozenset({"ShapeOf"})
BODIES = frozenset({"Loop", "TensorIterator", "If"})
# Ops whose f16 result is one of their f16 inputs' values (moved, selected or compared), never rounded;
# every other op with an f16 result computes it and rounds it to f16.
EXACT_OPS = frozenset({
    "Parameter", "Const", "Constant", "Result", "Convert", "ConvertLike", "ShapeOf", "Loop", "TensorIterator", "If",
    "ReadValue", "Assign", "Reshape", "Squeeze", "Unsqueeze", "Transpose", "Concat", "Split", "VariadicSplit",
    "Gather", "GatherND", "GatherElements", "Slice", "StridedSlice", "Broadcast", "Tile", "Select", "Relu", "ReLU",
    "Abs", "Negative", "Maximum", "Minimum", "ReduceMax", "ReduceMin", "Floor", "Ceiling", "Round", "Sign", "Pad",
    "MaxPool", "TopK", "ScatterUpdate", "ScatterNDUpdate", "ScatterElementsUpdate", "DepthToSpace", "SpaceToDepth",
    "ReverseSequence", "Reverse", "Roll", "Identity", "Clamp",
})


@rule("T216", "f16-convert-not-rounded", severity="warning", scope="graph", uses_shapes=True)
def f16_convert_not_rounded(ctx: Context, graph: Graph) -> Iterator[Finding]:
    """A value rounded to f16 and read again in another type: the CPU plugin does not round it.

    What it checks:
    Each Convert to `f16` of a non-constant value f16 does not hold exactly, and each op computing
    an f16 result from a non-constant f16 input no op rounded before (not the ops that only move,
    select or compare values), when the value reaches an op that reads it into another type; the
    walk follows the value through body port maps, If branches and back edges, and stops at a model
    output. A decompressed f16 Const rounds nothing and is not reported.

    Why it matters:
    The spec rounds at the Convert and at each f16 op, and irlint does. OpenVINO's CPU plugin
    computes every f16 tensor in f32 (its precision pass keeps f16 only at the model's edges), so a
    Convert f32 -> f16 -> f32 does nothing there and the results differ by f16's rounding (about
    1e-3 relative; beyond 65504 they stay finite). docs/conformance.md, "f16 rounding", has the
    mechanism and the measurements.

    Example:
    ```xml
    <layer id="2" name="half" type="Convert"><data destination_type="f16"/>   <!-- from f32 -->
    <layer id="3" name="back" type="Convert"><data destination_type="f32"/>
    ```

    How to fix:
    Nothing, if the rounding is not needed: remove both Converts. To get it on the CPU plugin too,
    make the f16 value a model output, or compute in f32 (convert the f16 inputs first).
    """
    idx = ctx.index(graph)
    constant: dict[Key, bool] = {}
    for layer in graph.layers:
        computes = layer.type not in EXACT_OPS and _out_type(ctx, layer) == "f16"
        if computes and not _constant(graph, idx, layer, constant):
            yield from _computed_in_f16(ctx, graph, idx, layer, constant)
            continue
        if layer.type != "Convert" or _etype(layer.data.get("destination_type")) != "f16":
            continue
        src = _source_type(ctx, graph, idx, layer)
        if src is None or src in EXACT_IN_F16 or src == "f16" or _constant(graph, idx, layer, constant):
            continue
        yield from _read_as_other(ctx, graph, idx, layer, f"rounds {_a(src)} value to f16",
                                  "OpenVINO's CPU plugin computes f16 tensors in f32 and drops the rounding (a Convert "
                                  "f32 -> f16 -> f32 is a no-op there, also across a body's port map), so its results "
                                  "differ from the spec's, which irlint computes",
                                  "remove the Convert pair if the rounding is not wanted")


# Activations computed in floating point that the CPU plugin runs as Eltwise nodes: on an integer tensor
# the spec rounds their result to the tensor's type (Sigmoid(0) = 0.5 -> 0).
FLOAT_ACTIVATIONS = frozenset({"Sigmoid", "Tanh", "Exp", "Sqrt", "Erf", "HSigmoid", "HSwish"})
# The 8-bit types the CPU plugin keeps; it computes i16, u16, i64 (and the wider unsigned) as i32, where
# its Add/Multiply/Subtract/Divide compute in integers and fuse no activation.
FUSED_INT_TYPES = frozenset({"u8", "i8"})
# The eltwise ops the plugin fuses such an activation into, by the input port the activation feeds:
# Add, Multiply and Subtract at either, Divide at input 0 only (measured on OpenVINO 2026.4).
FUSING_OPS = {"Add": (0, 1), "Multiply": (0, 1), "Subtract": (0, 1), "Divide": (0,)}
# An activation read only by another one is fused into it (the chain computed in f32, rounded once) for
# these types at every level, and for FUSED_INT_TYPES in a body compiled apart (measured on 2026.4).
CHAINED_INT_TYPES = frozenset({"i16", "i32", "i64", "u16", "u32", "u64"})
ANY_INT_TYPES = CHAINED_INT_TYPES | FUSED_INT_TYPES
READERS = {**FUSING_OPS, **{t: (0,) for t in sorted(FLOAT_ACTIVATIONS)}}


@rule("T219", "int-activation-fused-into-eltwise", severity="warning", scope="graph", uses_shapes=True)
def int_activation_fused_into_eltwise(ctx: Context, graph: Graph) -> Iterator[Finding]:
    """An integer Sigmoid (Tanh, Exp ...) read only by an eltwise op in a body or another one: the plugin rounds once.

    What it checks:
    In a TensorIterator/Loop body or an If branch (not a constant-condition If at the top level),
    each Add, Multiply, Subtract or Divide (input 0) fed by a u8/i8 Sigmoid, Tanh, Exp, Sqrt, Erf,
    HSigmoid or HSwish of a non-constant input that nothing else reads (also through no-op
    Reshape/Squeeze/Unsqueeze chains); and, at any level for the wider integer types, an integer
    activation read only by another one.

    Why it matters:
    The spec rounds the activation to the integer type, then computes: m + Sigmoid(0) is m. The CPU
    plugin fuses an activation whose only reader is an eltwise op into that op and computes the pair
    in f32, rounding once: m + 0.5 rounded half to even (docs/conformance.md, "Integer activations
    fused into eltwise ops", has the cases measured on OpenVINO 2026.4).

    Example:
    ```xml
    <layer id="5" name="s" type="Sigmoid"/>   <!-- u8 [1], in a Loop body -->
    <layer id="6" name="y" type="Add"/>       <!-- m + s: s read by nothing else -->
    ```

    How to fix:
    Compute the activation in f32 and Convert it explicitly (a Round first keeps the spec's
    rounding), or let another op read the activation.
    """
    if not _int_activations(ctx):
        return  # one pass over the level, and none for a model without integer activations
    apart = _compiled_apart(ctx, graph)
    for layer in graph.layers:
        if layer.type in READERS and (apart or layer.type in FLOAT_ACTIVATIONS):
            yield from _fused_into(ctx, graph, layer, apart)


def _fused_into(ctx: Context, graph: Graph, layer: Layer, apart: bool) -> Iterator[Finding]:
    """T219's finding on `layer`, an eltwise op or activation of `graph` (`apart`: compiled as a subgraph)."""
    chained = layer.type in FLOAT_ACTIVATIONS
    for port in READERS[layer.type]:
        if port >= len(layer.inputs):
            continue
        found = _producer(ctx, graph, layer, layer.inputs[port].id)
        if found is None:
            continue
        where, act = found
        types = (CHAINED_INT_TYPES | FUSED_INT_TYPES) if chained and apart else \
            CHAINED_INT_TYPES if chained else FUSED_INT_TYPES
        if act.type not in FLOAT_ACTIVATIONS or _out_type(ctx, act) not in types:
            continue
        aidx = ctx.index(where)
        if len(aidx.users(act)) != 1 or _constant(where, aidx, act, {}):
            continue
        et = _out_type(ctx, act)
        at = f" (at {act.path}, through an If of constant condition)" if where is not graph else ""
        feeder = ctx.index(graph).source(layer.id, layer.inputs[port].id)
        if where is graph and feeder is not None and feeder.from_layer != act.id:
            at = " (through Reshape/Squeeze/Unsqueeze layers that keep its shape, which OpenVINO removes)"
        if chained:
            yield Finding(f"{act.describe()}{at}, of type {et}, is read only by {layer.describe()} in {graph.where}: "
                          f"OpenVINO's CPU plugin fuses the two and computes {layer.type}({act.type}(...)) in f32, "
                          f"rounding once, where the spec (and irlint) rounds the {act.type} to {et} first "
                          "(Sigmoid(Sigmoid(0)): the spec 0, the plugin Sigmoid(0.5) -> 1)", layer.loc,
                          layer=layer.path, related=(Related(act.loc, f"'{act.name}' is the {act.type}"),),
                          hint="compute the activations in f32 and Convert the result explicitly, if the spec's "
                               "rounding matters")
            return
        fused = f"{layer.type}({'x, ' if port else ''}{act.type}(...){'' if port else ', x'})"
        yield Finding(f"{act.describe()}{at}, of type {et}, is read only by {layer.describe()} in {graph.where}: "
                      f"OpenVINO's CPU plugin fuses the two and computes {fused} in f32, rounding once, where the "
                      f"spec (and irlint) rounds the {act.type} to {et} first (m + Sigmoid(0): the spec m, the plugin "
                      "m + 0.5 rounded half to even)", layer.loc, layer=layer.path,
                      related=(Related(act.loc, f"'{act.name}' is the {act.type}"),),
                      hint="compute the activation in f32 and Convert it explicitly, if the spec's rounding matters")
        return


def _int_activations(ctx: Context) -> bool:
    """Whether some level holds a Sigmoid (Tanh, Exp ...) of an integer type T219 looks at: without one no
    eltwise op needs its producer resolved. Once per model."""
    return ctx.memo("int-activations", ctx.model.graph, lambda: any(
        la.type in FLOAT_ACTIVATIONS and _out_type(ctx, la) in ANY_INT_TYPES for _g, la in ctx.model.layers()))


def _producer(ctx: Context, graph: Graph, layer: Layer, port_id: int | None,
              depth: int = 0) -> tuple[Graph, Layer] | None:
    """The layer whose value input `port_id` of `layer` reads once OpenVINO has folded every If of constant
    condition on the way (into its taken branch through the output's Result, or out of that branch through
    the Parameter's input), with its level; None where a folded value has another reader or a branch is
    not the taken one."""
    idx = ctx.index(graph)
    e = idx.source(layer.id, port_id)
    src = graph.layer(e.from_layer) if e is not None else None
    if src is None or e is None or depth > 16:
        return None
    if src.type == "If":
        branch = _taken_branch(ctx, graph, src)
        if branch is None:
            return graph, src
        if len(idx.edges_out(src.id, e.from_port)) != 1:
            return None
        entry = entry_of_port(src, branch.port_map).get(e.from_port)  # as OpenVINO maps the entries
        result = branch.body.layer(entry.internal_layer_id) if entry is not None else None
        if result is None or not result.inputs:
            return None
        return _producer(ctx, branch.body, result, result.inputs[0].id, depth + 1)
    if src.type == "Parameter":
        held = parents(ctx).get(id(graph))
        if held is None or held[1].type != "If" or _taken_branch(ctx, *held) is None:
            return graph, src
        holder, owner = held
        branch = _taken_branch(ctx, holder, owner)
        if branch is None or branch.body is not graph or len(idx.users(src)) != 1:
            return None
        entry = next((m for m in branch.port_map if m.direction == "input" and m.internal_layer_id == src.id), None)
        port = owner.input(entry.external_port_id) if entry is not None and entry.external_port_id is not None \
            else None
        if port is None:
            return None
        outer = ctx.index(holder).source(owner.id, port.id)
        feeder = holder.layer(outer.from_layer) if outer is not None else None
        if feeder is None or outer is None or len(ctx.index(holder).edges_out(feeder.id, outer.from_port)) != 1:
            return None
        return _producer(ctx, holder, owner, port.id, depth + 1)
    if src.type in RESHAPES:  # a chain of them that keeps the shape: OpenVINO fuses it and removes it
        first = _noop_reshape_chain(ctx, graph, idx, src, e.from_port)
        if first is not None:
            return _producer(ctx, graph, first, first.inputs[0].id, depth + 1)
    return graph, src


RESHAPES = frozenset({"Reshape", "Squeeze", "Unsqueeze"})


def _noop_reshape_chain(ctx: Context, graph: Graph, idx: GraphIndex, last: Layer, port: int | None) -> Layer | None:
    """The first layer of the chain of Reshape/Squeeze/Unsqueeze layers ending at `last` (each read by
    nothing but the next) when the chain's input and output have the same static shape, else None.
    OpenVINO fuses such a chain into one Reshape and removes it as a no-op, so the CPU plugin's eltwise
    fusing sees the op before it (measured: u8 m + Reshape(Reshape(Sigmoid(a), [1,1]), [1]) in a Loop
    body is fused; one real Reshape, Squeeze or Unsqueeze in between keeps the pair apart)."""
    if len(idx.users(last)) != 1:
        return None
    first, seen = last, {last.id}
    while True:
        if not first.inputs:
            return None
        e = idx.source(first.id, first.inputs[0].id)
        prev = graph.layer(e.from_layer) if e is not None else None
        if prev is None or e is None or prev.id in seen:  # a cycle (a malformed graph) is no chain
            return None
        if prev.type in RESHAPES and len(idx.users(prev)) == 1:
            first = prev
            seen.add(prev.id)
            continue
        before, after = ctx.shapes.output(prev, e.from_port).shape, ctx.shapes.output(last, port).shape
        static = before is not None and all(d.value is not None for d in before)
        return first if static and before == after else None


def _taken_branch(ctx: Context, holder: Graph, owner: Layer) -> Branch | None:
    """The branch OpenVINO keeps of an If whose condition is a known constant (it folds the If into the
    level holding it); None when the condition is not known."""
    if owner.type != "If" or not owner.inputs:
        return None
    e = ctx.index(holder).source(owner.id, owner.inputs[0].id)
    cond = holder.layer(e.from_layer) if e is not None else None
    value = ctx.shapes.output(cond, e.from_port).value if cond is not None and e is not None else None
    if value is None or np.size(value) != 1:
        return None
    name = "then" if bool(np.asarray(value).reshape(-1)[0]) else "else"
    return next((b for b in owner.branches if b.name == name), None)


def _compiled_apart(ctx: Context, graph: Graph) -> bool:
    """Whether the CPU plugin compiles `graph` as a subgraph of its own: a TensorIterator/Loop body, or
    an If branch whose condition is not constant (OpenVINO folds an If of constant condition into the
    level holding it, so a branch of one at the top level is compiled with the top level)."""
    holders = parents(ctx)
    while id(graph) in holders:
        holder, owner = holders[id(graph)]
        if owner.type != "If":
            return True
        if _taken_branch(ctx, holder, owner) is None:
            return True
        graph = holder
    return False


# A layer of some graph level: the level's identity and the layer's id (layer ids repeat across levels);
# with a port where the value of one port of a layer is meant.
Key = tuple[int, int | None]
PortKey = tuple[int, int | None, int | None]


def _key(graph: Graph, layer: Layer) -> Key:
    return id(graph), layer.id


def _named(graph: Graph, where: Graph, layer: Layer) -> str:
    """`layer` as a message names it, with its level when it is not `graph`."""
    return layer.describe() if where is graph else f"{layer.describe()} at {layer.path}"


def _computed_in_f16(ctx: Context, graph: Graph, idx: GraphIndex, layer: Layer,
                     constant: dict[Key, bool]) -> Iterator[Finding]:
    """The finding on an op computing an f16 result read into another type, unless one of its f16
    inputs was rounded before on every path (that op carries the finding). A body Parameter fed by
    a back edge holds the value from outside in the first iteration: an op reading it unrounded there
    is the first of its chain, also when its own value comes back rounded in the next iteration."""
    memo: dict[PortKey, bool] = {}  # each op's own: a cycle's assumption must not leak into another op's answer
    if any(_rounded_before(ctx, graph, src, port, constant, memo) for src, port in _sources(graph, idx, layer)):
        return
    yield from _read_as_other(ctx, graph, idx, layer, "computes an f16 result",
                              "the spec rounds it to f16, as irlint does; OpenVINO's CPU plugin computes f16 ops in "
                              "f32 and does not round, so its results differ from the spec's by f16's rounding",
                              "compute in f32 if the f16 rounding is not wanted")


def _read_as_other(ctx: Context, graph: Graph, idx: GraphIndex, layer: Layer, does: str, why: str,
                   hint: str) -> Iterator[Finding]:
    """The finding on `layer`, which `does` something to an f16 value, when a reader takes that value
    into another type (`why`: what the CPU plugin does differently); none when no reader does."""
    found = _f16_reader(ctx, graph, idx, layer)
    if found is None:
        return
    where, reader = found
    out = _out_type(ctx, reader) or "another type"
    yield Finding(f"{layer.describe()} {does}, which {_named(graph, where, reader)} reads into {out}: {why}",
                  layer.loc, layer=layer.path, hint=hint,
                  related=(Related(reader.loc, f"'{reader.name}' reads the value as {out}"),))


def _sources(graph: Graph, idx: GraphIndex, layer: Layer) -> Iterator[tuple[Layer, int | None]]:
    """The layers (and their output ports) whose values `layer` reads."""
    for port in layer.inputs:
        e = idx.source(layer.id, port.id)
        src = graph.layer(e.from_layer) if e is not None else None
        if src is not None and e is not None:
            yield src, e.from_port


def _body_parameters(owner: Layer, port: int | None) -> Iterator[tuple[Graph, Layer]]:
    """The body Parameters that input `port` of a TensorIterator/Loop/If feeds."""
    if owner.body is not None:
        for pe in owner.port_map:
            if pe.direction == "input" and pe.external_port_id == port and pe.purpose is None:
                p = owner.body.layer(pe.internal_layer_id)
                if p is not None:
                    yield owner.body, p
    for b in owner.branches:
        for pe in b.port_map:
            if pe.direction == "input" and pe.external_port_id == port:
                p = b.body.layer(pe.internal_layer_id)
                if p is not None:
                    yield b.body, p


def _output_ports(owner: Layer, body: Graph, result: Layer) -> list[int]:
    """The output ports of `owner` that the body Result `result` gives."""
    entries = owner.port_map if owner.body is body else next(
        (b.port_map for b in owner.branches if b.body is body), ())
    return [p for pe, p in output_ports(owner, entries).items()  # as OpenVINO maps the entries
            if pe.internal_layer_id == result.id and p is not None and pe.purpose is None]


def _body_results(owner: Layer, port: int | None) -> Iterator[tuple[Graph, Layer]]:
    """The body Results that give output `port` of a TensorIterator/Loop/If (one per If branch)."""
    maps = [(owner.body, owner.port_map)] if owner.body is not None else []
    maps += [(b.body, b.port_map) for b in owner.branches]
    for body, entries in maps:
        for pe, given in output_ports(owner, entries).items():  # as OpenVINO maps the entries
            if given == port and pe.purpose is None:
                r = body.layer(pe.internal_layer_id)
                if r is not None:
                    yield body, r


def _rounded_before(ctx: Context, graph: Graph, layer: Layer, port: int | None, constant: dict[Key, bool],
                    memo: dict[PortKey, bool]) -> bool:
    """True when the f16 value `layer` gives (at output `port`) went through an op that rounds it (a
    computing op or a Convert to f16 of a value f16 does not hold) on a path of f16 values, followed
    across port maps, If branches and back edges; a body Parameter is rounded when its value from
    outside is and so is each back edge's (a cycle back to it assumes it is)."""
    key = (id(graph), layer.id, port if layer.type in BODIES else None)
    if key in memo:
        return memo[key]
    memo[key] = True  # in progress: a path that comes back here adds nothing to what the others say
    idx = ctx.index(graph)
    if layer.type != "Result":  # a Result has no output port: its value is its source's, checked there
        et = _info_type(ctx, layer, port if layer.type in BODIES else (layer.outputs[0].id if layer.outputs else None))
        if et is None or et.name != "f16" or _constant(graph, idx, layer, constant):
            memo[key] = False
            return False
    if layer.type in BODIES:
        got = any(_rounded_before(ctx, body, r, None, constant, memo) for body, r in _body_results(layer, port))
    elif layer.type == "Result":
        got = any(_rounded_before(ctx, graph, s, p, constant, memo) for s, p in _sources(graph, idx, layer))
    elif layer.type == "Parameter":
        got = False
        up = parents(ctx).get(id(graph))
        if up is not None:
            outer, owner = up
            ports = [pe.external_port_id for pe in input_entries(owner, graph) if pe.internal_layer_id == layer.id]
            oidx = ctx.index(outer)
            for p in ports:
                e = oidx.source(owner.id, p)
                src = outer.layer(e.from_layer) if e is not None else None
                if src is not None and e is not None and _rounded_before(ctx, outer, src, e.from_port, constant, memo):
                    got = True
            for be in owner.back_edges if owner.body is graph and got else ():
                res = graph.layer(be.from_layer) if be.to_layer == layer.id else None
                if res is not None and not _rounded_before(ctx, graph, res, None, constant, memo):
                    got = False
    elif layer.type not in EXACT_OPS:
        got = True
    elif layer.type == "Convert":
        src_type = _source_type(ctx, graph, idx, layer)
        got = src_type is not None and src_type not in EXACT_IN_F16 and src_type != "f16"
    else:
        got = any(_rounded_before(ctx, graph, s, p, constant, memo) for s, p in _sources(graph, idx, layer))
    memo[key] = got
    return got


def _etype(text: str | None) -> str | None:
    et = element_type(text) if text is not None else None
    return et.name if et is not None else None


def _info_type(ctx: Context, layer: Layer, port: int | None) -> ElementType | None:
    info = ctx.shapes.output(layer, port)
    if info.etype is not None:
        return info.etype
    p = layer.output(port) if port is not None else None
    return p.precision if p is not None else None


def _source_type(ctx: Context, graph: Graph, idx: GraphIndex, layer: Layer) -> str | None:
    """The type of the value `layer` converts; through a chain of Converts the narrowest exact one: the
    values of u8 -> f32 -> f16 are u8 values, which f16 holds."""
    e = idx.source(layer.id, 0)
    src = graph.layer(e.from_layer) if e is not None else None
    et = _info_type(ctx, src, e.from_port) if src is not None and e is not None else None
    if et is None or et.is_dynamic:
        return None
    seen = set()
    while src is not None and src.type == "Convert" and src.id not in seen:
        seen.add(src.id)
        e = idx.source(src.id, 0)
        src = graph.layer(e.from_layer) if e is not None else None
        before = _info_type(ctx, src, e.from_port) if src is not None and e is not None else None
        if before is not None and before.name in EXACT_IN_F16:
            return before.name
    return et.name


def _out_type(ctx: Context, layer: Layer) -> str | None:
    if not layer.outputs:
        return None
    et = _info_type(ctx, layer, layer.outputs[0].id)
    return et.name if et is not None and not et.is_dynamic else None


def _constant(graph: Graph, idx: GraphIndex, layer: Layer, memo: dict[Key, bool]) -> bool:
    """True when every value `layer` reads comes from Consts: OpenVINO folds it (and rounds)."""
    key = _key(graph, layer)
    if key in memo:
        return memo[key]
    memo[key] = False  # a cycle (a defect of its own) is not constant
    if layer.type in ("Const", "Constant"):
        memo[key] = True
        return True
    if not layer.inputs or layer.type in ("Parameter", "ReadValue") or layer.body is not None or layer.branches:
        return False
    for port in layer.inputs:
        e = idx.source(layer.id, port.id)
        src = graph.layer(e.from_layer) if e is not None else None
        if src is None or not _constant(graph, idx, src, memo):
            return False
    memo[key] = True
    return True


def _f16_reader(ctx: Context, graph: Graph, idx: GraphIndex, start: Layer) -> tuple[Graph, Layer] | None:
    """The first op (breadth first) that reads the f16 value `start` gives into another type, and its
    level: the walk follows the value into a body (through the port map or an If branch's), out of one
    (a body Result to its layer's output, or through a back edge to the next iteration's Parameter);
    a model output ends it (the plugin rounds an f16 output)."""
    todo: list[tuple[Graph, Sequence[Edge]]] = [(graph, idx.users(start))]
    seen: set[Key | PortKey] = {_key(graph, start)}
    while todo:
        g, edges = todo.pop(0)
        for e in edges:
            user = g.layer(e.to_layer)
            if user is None or user.type in SHAPE_ONLY or (id(g), user.id, e.to_port) in seen:
                continue
            seen.add((id(g), user.id, e.to_port))
            if user.type in BODIES:
                for body, p in _body_parameters(user, e.to_port):
                    if _key(body, p) not in seen and _out_type(ctx, p) == "f16":
                        seen.add(_key(body, p))
                        todo.append((body, ctx.index(body).users(p)))
                continue
            if user.type == "Result":
                todo += _past_result(ctx, g, user, seen)
                continue
            out = _out_type(ctx, user)
            if out == "f16":
                if _key(g, user) not in seen:
                    seen.add(_key(g, user))
                    todo.append((g, ctx.index(g).users(user)))
            elif out is not None:
                return g, user
    return None


def _past_result(ctx: Context, body: Graph, result: Layer,
                 seen: set[Key | PortKey]) -> list[tuple[Graph, Sequence[Edge]]]:
    """Where the value a body Result takes goes next: the readers of its layer's output ports, and
    those of the Parameter a back edge feeds; nothing at the top level (a model output)."""
    up = parents(ctx).get(id(body))
    if up is None:
        return []
    outer, owner = up
    out: list[tuple[Graph, Sequence[Edge]]] = []
    oidx = ctx.index(outer)
    for port in _output_ports(owner, body, result):
        if (id(outer), owner.id, port) not in seen:
            seen.add((id(outer), owner.id, port))
            out.append((outer, oidx.edges_out(owner.id, port)))
    if owner.body is body:
        for be in owner.back_edges:
            p = body.layer(be.to_layer) if be.from_layer == result.id else None
            if p is not None and _key(body, p) not in seen:
                seen.add(_key(body, p))
                out.append((body, ctx.index(body).users(p)))
    return out


def _a(word: str) -> str:
    """`word` with its indefinite article, as it is read aloud: a type name letter by letter ("an i64",
    "an f32", "a u8", "a bf16"), a word as a word ("a string", "an undefined")."""
    spelled = word[:1].isalpha() and word[1:2].isdigit()
    return f"{'an' if word[:1] in ('aefhilmnorsx' if spelled else 'aeiou') else 'a'} {word}"
