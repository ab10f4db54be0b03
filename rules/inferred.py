"""T21x: what shape inference finds — ops that reject their inputs, declared ports that contradict it.

Also G120: a TensorIterator directly inside a TensorIterator body (OpenVINO refuses it).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from irlint.rules.unread_outputs import kept_layers

from irlint import causes
from irlint.diagnostics import Related, Severity
from irlint.engine.context import Context
from irlint.ir.model import Graph, Layer, Port
from irlint.rule import Finding, rule
from irlint.shapes.dimless import declared_dynamic_ranks, output_shape
from irlint.shapes.merge import fits
from irlint.types import format_shape

if TYPE_CHECKING:
    from irlint.shapes import ShapeResult

SKIP = frozenset({"Parameter", "Const", "Result", "TensorIterator", "Loop"})


@rule("T210", "op-rejects-inputs", scope="model", uses_shapes=True)
def op_rejects_inputs(ctx: Context) -> Iterator[Finding]:
    """A layer's inputs (types, ranks, dims) or attributes are invalid for its op.

    What it checks:
    irlint's shape function of each op, run on the inferred inputs: broadcasting, ranks, axes,
    weight shapes of RNN cells, attribute values. Where an op's inputs are unknown nothing is
    claimed.

    Why it matters:
    OpenVINO fails validation with a message naming the op type, often an auto-generated name,
    and no line; irlint names the layer and the inputs.

    Example:
    ```xml
    <layer type="Add"> ... [2,3] + [4] ...   <!-- do not broadcast -->
    ```

    How to fix:
    Fix the producer of the offending input, or the attribute the message names.
    """
    for p in ctx.shapes.problems:
        if p.internal:
            continue
        if p.poison is not None:  # a consequence: the defect's finding carries it
            yield Finding(p.message, p.layer.loc, layer=p.layer.path, port=p.port, related=(p.poison.note(),),
                          because=(p.poison.key,),
                          effect=f"makes {p.layer.describe()} fail: "
                          f"{p.message.removeprefix(p.layer.describe() + ': ')}")
        else:
            yield Finding(p.message, p.layer.loc, layer=p.layer.path, port=p.port, claims=(causes.op(p.layer),))


@rule("T217", "attribute-filled-by-openvino", severity="warning", scope="graph")
def attribute_filled(ctx: Context, graph: Graph) -> Iterator[Finding]:
    """A layer lacks an attribute its op's specification requires, and OpenVINO fills a default.

    What it checks:
    Each layer's `<data>` against the attributes OpenVINO's reader fills when they are missing and
    then compiles and runs (measured per op and attribute; docs/rules-openvino.md has the table):
    among them Concat's `axis` (0), Reshape's `special_zero` (false), DepthToSpace's and
    SpaceToDepth's `mode` (blocks_first), Clamp's `min` and `max` (0), Elu's `alpha` (0), the
    epsilons of MVN, BatchNormInference, GroupNormalization and NormalizeL2 (0), TopK's `axis`,
    `mode` and `sort` (0, max, none), the strides and dilations (1 on every spatial axis) and pads
    (0) of the convolutions, the pads of the poolings, LRN's and ROIAlign's sizes (0). The message
    names the value. irlint computes with it, as the CPU plugin does. An attribute whose absence
    OpenVINO refuses is T210's (an error).

    Why it matters:
    The specification marks the attribute required; OpenVINO reads the layer anyway with its
    built-in default, which may not be what the file's author meant (a Concat along axis 0, a
    Clamp to [0, 0], an LRN of size 0 that gives zeros). Another runtime may refuse the file.

    Example:
    ```xml
    <layer type="Concat" version="opset1"><data/> ...   <!-- OpenVINO concatenates along axis 0 -->
    ```

    How to fix:
    Write the attribute with the value meant.
    """
    from irlint.ops.openvino_fills import filled_missing

    for layer in graph.layers:
        if layer.type in SKIP:
            continue
        for attr, value in filled_missing(layer.type, layer.version, layer.data):
            yield Finding(f"{layer.describe()} has no '{attr}' attribute, which its op requires; OpenVINO reads it "
                          f"as {value}, and irlint computes with that value", layer.data_loc or layer.loc,
                          layer=layer.path, hint=f"write {attr}=\"...\" with the value meant")


@rule("T211", "declared-output-mismatch", scope="graph", uses_shapes=True)
def declared_output_mismatch(ctx: Context, graph: Graph) -> Iterator[Finding]:
    """An output port declares dims or a precision that contradict what the op computes.

    What it checks:
    Each output port of each op (Parameters, Consts and TensorIterator/Loop ports have their own
    rules) against irlint's inferred element type and partial shape. A port without `<dim>` is a
    scalar or a dynamic rank (OpenVINO writes both so): it is held to be a scalar only when irlint
    infers a scalar or every dim and no dims-less input of the op comes from a dynamic rank the file
    declares (a Parameter of `shape="..."`), otherwise it is not compared. A scalar and a one-element
    1-D shape fit each other.

    Why it matters:
    OpenVINO never reads declared output shapes or precisions: it re-infers them, silently. A
    mismatch means the file describes a different model than the one that runs.

    Example:
    ```xml
    <layer type="MatMul"> ... <output><port id="2"><dim>1</dim><dim>128</dim></port>   <!-- computes [1,256] -->
    ```

    How to fix:
    Re-export the model, or correct the port (usually a hand edit made the dims stale).
    """
    shapes = ctx.shapes
    dynamic = ctx.memo("declared_dynamic_ranks", graph, lambda: declared_dynamic_ranks(graph, ctx.index(graph)))
    for layer in graph.layers:  # one pass over the level (no per-layer dispatch, no generator per layer)
        if layer.type in SKIP:
            continue
        for port in layer.outputs:
            f = _port_mismatch(shapes, layer, port, dynamic)
            if f is None:
                continue
            poison = shapes.poison(layer, port.id)
            if poison is None:  # another rule that reports this port (IF804) carries it, or it stands
                key = causes.port(layer, port.id)
                yield replace(f, claims=(key,), because=(key,))
            else:  # derived from a defect: its finding carries this one
                yield replace(f, related=(poison.note(),), because=(poison.key,))


def _port_mismatch(shapes: ShapeResult, layer: Layer, port: Port, dynamic: frozenset[int]) -> Finding | None:
    info = shapes.output(layer, port.id)
    if info.shape == port.shape and info.etype == port.precision:
        return None  # the common case: what the port declares is what the op computes
    if info.etype is not None and port.precision is not None and not info.etype.is_dynamic \
            and not port.precision.is_dynamic and info.etype != port.precision:
        return Finding(f"output port {port.id} of {layer.describe()} declares {port.precision.precision}, "
                      f"but the op produces {info.etype.precision}", layer.port_loc(port), layer=layer.path,
                      port=port.id, effect=f"makes output port {port.id} of {layer.describe()} "
                      f"{info.etype.precision} instead of its declared {port.precision.precision}")
    elif info.shape is not None and port.shape is not None and info.shape != port.shape \
            and not fits(info.shape, port.shape) \
            and output_shape(layer, port, lambda i=info: i, dynamic) is not None:  # no <dim>: scalar, dynamic rank
        return Finding(f"output port {port.id} of {layer.describe()} declares {format_shape(port.shape)}, "
                      f"but the op produces {format_shape(info.shape)}", layer.port_loc(port), layer=layer.path,
                      port=port.id, effect=f"makes output port {port.id} of {layer.describe()} "
                      f"{format_shape(info.shape)} instead of its declared {format_shape(port.shape)}")
    return None


@rule("T212", "shape-function-failed", severity="info", scope="model", uses_shapes=True)
def shape_function_failed(ctx: Context) -> Iterator[Finding]:
    """irlint's shape function for a layer crashed; shapes after it are unknown.

    What it checks:
    Nothing in the model: it says that irlint could not infer this layer's outputs because of a
    bug in irlint, so checks downstream of it are weaker.

    Why it matters:
    No false error follows from it; but please report it.

    Example:
    ```text
    shape function of Gather crashed: IndexError: ...
    ```

    How to fix:
    Nothing in the model; report the message with the model.
    """
    for p in ctx.shapes.problems:
        if p.internal:
            yield Finding(p.message, p.layer.loc, layer=p.layer.path, severity=Severity.INFO)


@rule("G120", "tensor-iterator-in-tensor-iterator", types=("TensorIterator",), uses_shapes=True)
def ti_in_ti(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A TensorIterator directly inside a TensorIterator body, or in the branch an If of constant
    condition in that body takes.

    What it checks:
    The layer types of every TensorIterator body, and of the taken branch of each If there whose
    condition is a constant (at any depth of such Ifs).

    Why it matters:
    OpenVINO refuses it ("No nested TensorIterator"), although the spec does not forbid it;
    Loop-in-TI, TI-in-Loop and Loop-in-Loop are accepted. OpenVINO folds an If of constant condition
    into the branch it takes, so a TensorIterator there ends up in the outer body: compile_model
    refuses it alike. In the branch that is not taken, or under an If whose condition is computed,
    it compiles and runs (measured on OpenVINO 2026.4's CPU plugin). A nested TensorIterator no
    Result reads (its outputs read only by outputs around it that nothing reads) is removed before the
    plugin sees it, and compiles.

    Example:
    ```xml
    <layer type="TensorIterator"> <body> <layers> <layer type="TensorIterator"> ...
    ```

    How to fix:
    Express the inner recurrence as a Loop (or unroll it).
    """
    if layer.body is None:
        return
    for inner, via in _folded_layers(ctx, layer.body, ()):
        if inner.type != "TensorIterator" or id(inner) not in kept_layers(ctx):  # (a walk of the model, once)
            continue
        where = "nested directly in the body" if not via else \
            f"in the branch {via[-1].describe()} takes (its condition is a constant, so OpenVINO folds it), in the body"
        related = (Related(layer.loc, "the outer TensorIterator"),
                   *(Related(i.loc, f"'{i.name}' is an If of constant condition") for i in via))
        yield Finding(f"{inner.describe()} is {where} of {layer.describe()}; OpenVINO refuses nested "
                      "TensorIterators", inner.loc, layer=inner.path, related=related,
                      hint="use a Loop for the inner recurrence")


def _folded_layers(ctx: Context, graph: Graph, via: tuple[Layer, ...]) -> Iterator[tuple[Layer, tuple[Layer, ...]]]:
    """The layers of `graph` and of the taken branches of its Ifs of constant condition (folded by
    OpenVINO into `graph`), each with the Ifs it is reached through."""
    dead = ctx.shapes.dead
    for inner in graph.layers:
        yield inner, via
        if inner.type == "If" and any(id(b.body) in dead for b in inner.branches):
            for b in inner.branches:
                if id(b.body) not in dead:
                    yield from _folded_layers(ctx, b.body, (*via, inner))
