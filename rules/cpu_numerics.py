"""T216: valid IR whose values OpenVINO's CPU plugin computes otherwise than the spec.

A warning that names the plugin: the model is valid, irlint computes what the spec says, and the
plugin's result differs (docs/semantics.md lists the numeric departures irlint reports at run time).
"""

from __future__ import annotations

from collections.abc import Iterator

from irlint.diagnostics import Related
from irlint.engine.context import Context
from irlint.ir.index import GraphIndex
from irlint.ir.model import Graph, Layer
from irlint.rule import Finding, rule
from irlint.types import ElementType, element_type

# Types every value of which f16 holds exactly: a Convert from them to f16 rounds nothing.
EXACT_IN_F16 = frozenset({"boolean", "i8", "u8", "i4", "u4", "u2", "u1", "u3", "f8e4m3", "f8e5m2", "f4e2m1"})
# Ops that read no value of their input (its shape only), and ops whose bodies the walk does not enter.
SHAPE_ONLY = frozenset({"ShapeOf"})
STOP = frozenset({"Result", "Loop", "TensorIterator", "If"})
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
    Each Convert to `f16` of a value that is not constant and whose type f16 does not hold exactly
    (f32, f64, bf16, the integers wider than 8 bits; a value that went through an 8-bit type on a
    chain of Converts before, u8 -> f32 -> f16, is held exactly), and each op that computes an f16
    result from a value that is not constant (an Add, a Multiply, a ReduceSum, a Sigmoid ...; not the
    ops that only move, select or compare f16 values, such as Reshape, Concat, Select, Relu, Maximum)
    whose f16 inputs no op of the same graph rounded before (the first rounding op of a chain carries
    the finding); from its output, the ops that keep the value in f16 are followed to the first op
    that reads it into another type (a Convert back to f32, a comparison ...). The op is reported
    when such a reader exists in the same graph. A decompressed f16 Const (Const f16 -> Convert f32)
    rounds nothing and is not reported.

    Why it matters:
    The spec rounds the value to f16 at the Convert and at each f16 op, and irlint does. OpenVINO's
    CPU plugin computes every f16 tensor of a model in f32 (measured with each inference precision,
    f32, bf16 and f16):
    a Convert f32 -> f16 -> f32 does nothing there, and the ops between the two Converts are not
    rounded either, so the plugin's results differ from the spec's by f16's rounding (about 1e-3
    relative; values beyond 65504 stay finite instead of becoming inf). The plugin rounds only where
    an f16 value leaves the model (an f16 output) and when a Convert of a constant is folded. A
    bf16 round trip is rounded by the plugin.

    Example:
    ```xml
    <layer id="2" name="half" type="Convert"><data destination_type="f16"/>   <!-- from f32 -->
    <layer id="3" name="back" type="Convert"><data destination_type="f32"/>
    ```

    How to fix:
    Nothing, if the f16 rounding is not needed: remove both Converts, and both agree. To get the
    rounding on the CPU plugin too, make the f16 value a model output, or round in f32 explicitly.
    For f16 ops: compute in f32 (convert the f16 inputs first), and both agree.
    """
    idx = ctx.index(graph)
    constant: dict[int | None, bool] = {}
    rounded: dict[int | None, bool] = {}
    for layer in graph.layers:
        computes = layer.type not in EXACT_OPS and _out_type(ctx, layer) == "f16"
        if computes and not _constant(graph, idx, layer, constant):
            yield from _computed_in_f16(ctx, graph, idx, layer, constant, rounded)
            continue
        if layer.type != "Convert" or _etype(layer.data.get("destination_type")) != "f16":
            continue
        src = _source_type(ctx, graph, idx, layer)
        if src is None or src in EXACT_IN_F16 or src == "f16" or _constant(graph, idx, layer, constant):
            continue
        reader = _f16_reader(ctx, graph, idx, layer)
        if reader is None:
            continue
        out = _out_type(ctx, reader)
        yield Finding(f"{layer.describe()} rounds a {src} value to f16, which {reader.describe()} reads into "
                      f"{out or 'another type'}: OpenVINO's CPU plugin computes f16 tensors in f32 and drops the "
                      "rounding (a Convert f32 -> f16 -> f32 is a no-op there), so its results differ from the "
                      "spec's, which irlint computes", layer.loc, layer=layer.path,
                      related=(Related(reader.loc, f"'{reader.name}' reads the value as {out or 'another type'}"),),
                      hint="remove the Convert pair if the rounding is not wanted")


def _computed_in_f16(ctx: Context, graph: Graph, idx: GraphIndex, layer: Layer, constant: dict[int | None, bool],
                     rounded: dict[int | None, bool]) -> Iterator[Finding]:
    """The finding on an op computing an f16 result read into another type, unless one of its f16
    inputs was rounded before in this graph (that op carries the finding)."""
    if any(_rounded_before(ctx, graph, idx, src, constant, rounded) for src in _sources(graph, idx, layer)):
        return
    reader = _f16_reader(ctx, graph, idx, layer)
    if reader is None:
        return
    out = _out_type(ctx, reader)
    yield Finding(f"{layer.describe()} computes an f16 result, which {reader.describe()} reads into "
                  f"{out or 'another type'}: the spec rounds it to f16, as irlint does; OpenVINO's CPU plugin "
                  "computes f16 ops in f32 and does not round, so its results differ from the spec's by f16's "
                  "rounding", layer.loc, layer=layer.path,
                  related=(Related(reader.loc, f"'{reader.name}' reads the value as {out or 'another type'}"),),
                  hint="compute in f32 if the f16 rounding is not wanted")


def _sources(graph: Graph, idx: GraphIndex, layer: Layer) -> Iterator[Layer]:
    for port in layer.inputs:
        e = idx.source(layer.id, port.id)
        src = graph.layer(e.from_layer) if e is not None else None
        if src is not None:
            yield src


def _rounded_before(ctx: Context, graph: Graph, idx: GraphIndex, layer: Layer, constant: dict[int | None, bool],
                    memo: dict[int | None, bool]) -> bool:
    """True when `layer`'s f16 value went through an op of this graph that rounds it (a computing op or
    a Convert to f16 of a value f16 does not hold) on a path of f16 values."""
    if layer.id in memo:
        return memo[layer.id]
    memo[layer.id] = False
    if _out_type(ctx, layer) != "f16" or layer.type in STOP or _constant(graph, idx, layer, constant):
        return False
    if layer.type not in EXACT_OPS:
        got = True
    elif layer.type == "Convert":
        src = _source_type(ctx, graph, idx, layer)
        got = src is not None and src not in EXACT_IN_F16 and src != "f16"
    else:
        got = any(_rounded_before(ctx, graph, idx, s, constant, memo) for s in _sources(graph, idx, layer))
    memo[layer.id] = got
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


def _constant(graph: Graph, idx: GraphIndex, layer: Layer, memo: dict[int | None, bool]) -> bool:
    """True when every value `layer` reads comes from Consts: OpenVINO folds it (and rounds)."""
    if layer.id in memo:
        return memo[layer.id]
    memo[layer.id] = False  # a cycle (a defect of its own) is not constant
    if layer.type in ("Const", "Constant"):
        memo[layer.id] = True
        return True
    if not layer.inputs or layer.type in ("Parameter", "ReadValue") or layer.body is not None:
        return False
    for port in layer.inputs:
        e = idx.source(layer.id, port.id)
        src = graph.layer(e.from_layer) if e is not None else None
        if src is None or not _constant(graph, idx, src, memo):
            return False
    memo[layer.id] = True
    return True


def _f16_reader(ctx: Context, graph: Graph, idx: GraphIndex, start: Layer) -> Layer | None:
    """The first op (breadth first) that reads the f16 value `start` gives into another type."""
    todo, seen = [start], {start.id}
    while todo:
        layer = todo.pop(0)
        for e in idx.users(layer):
            user = graph.layer(e.to_layer)
            if user is None or user.id in seen or user.type in STOP or user.type in SHAPE_ONLY:
                continue
            seen.add(user.id)
            out = _out_type(ctx, user)
            if out == "f16":
                todo.append(user)
            elif out is not None:
                return user
    return None
