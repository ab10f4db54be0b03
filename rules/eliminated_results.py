"""PM421, PM422, PM423: TensorIterator/Loop bodies OpenVINO rewrites or runs in a way that breaks them.

PM421 and PM422 follow from one pass, EliminateLoopInputsOutputs
(src/common/transformations/src/transformations/common_optimizations/eliminate_loop_inputs_outputs.cpp,
`remove_results` and the matcher callback), which OpenVINO runs before its CPU plugin sees the model:
a body Result that reads an unchanging body Parameter directly is removed and the layer's output is
wired to the outer input. `eliminated_results` models which Results it removes. PM423 follows from the
CPU plugin running a body of dynamic shapes inside a node whose ports are all static
(src/plugins/intel_cpu/src/nodes/tensoriterator.cpp, `TensorIterator::execute` -> `executeDynamicImpl`).
"""

from __future__ import annotations

from collections.abc import Iterator

from irlint.rules.pushed_constants import pushed_parameters
from irlint.rules.unread_outputs import unread_outputs

from irlint.controlflow import CONTROL_FLOW, EntryKind, loop_plan
from irlint.diagnostics import Related
from irlint.engine.context import Context
from irlint.ir.model import Graph, Layer
from irlint.rule import Finding, rule


def eliminated_results(ctx: Context, layer: Layer) -> dict[int | None, int | None]:
    """Body Result id -> the body Parameter id it reads, for the Results EliminateLoopInputsOutputs removes.

    `remove_results` takes a Parameter of an invariant or merged input (never current_iteration, never
    one pushed in as a constant) and each Result reading it directly that is not the body condition and
    whose output description, the last one naming it, is a last-value output (or that has none). A merged
    Parameter gives up its Results only when its own back edge's Result is among them (it never changes).
    """
    body = layer.body
    if body is None:
        return {}
    plan = loop_plan(layer)
    idx = ctx.index(body)
    cond = plan.condition.body_layer if plan.condition is not None else None
    last_desc: dict[int | None, EntryKind] = {}
    for pe in plan.data_outputs:
        last_desc[pe.body_layer] = pe.kind  # a map keyed by the Result: the last description wins
    pushed = pushed_parameters(ctx, layer)
    out: dict[int | None, int | None] = {}
    for pe in plan.of(EntryKind.INVARIANT_INPUT, EntryKind.MERGED_INPUT):
        param = body.layer(pe.body_layer)
        if param is None or param.type != "Parameter" or param.id in pushed:
            continue
        gone = {
            e.to_layer
            for e in idx.users(param)
            if (r := body.layer(e.to_layer)) is not None
            and r.type == "Result"
            and r.id != cond
            and last_desc.get(r.id, EntryKind.LAST_VALUE_OUTPUT) is EntryKind.LAST_VALUE_OUTPUT
        }
        if pe.kind is EntryKind.MERGED_INPUT and plan.back.get(param.id) not in gone:
            continue
        out.update(dict.fromkeys(gone, param.id))
    return out


@rule("PM421", "back-edge-result-eliminated", severity="warning", types=CONTROL_FLOW, uses_shapes=True)
def back_edge_result_eliminated(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A back edge whose Result reads an unchanging body Parameter directly: OpenVINO fails to compile it.

    What it checks:
    Back edges into a state whose Result is one `eliminated_results` removes (it reads an invariant
    Parameter, or a state fed back to itself, with no op between).

    Why it matters:
    The model is valid; irlint runs it. Before its CPU plugin sees the model, OpenVINO removes each
    body Result that only passes on a Parameter that never changes (an invariant input, or a state
    fed back to itself) and wires the layer's output to the outer input. When such a Result is the
    back edge of another state, the state is re-attached to a Result no longer in the body and
    compile_model fails ("vector::_M_range_check").

    Example:
    s <- p with p an invariant input, `<edge from-layer="R" to-layer="S"/>` where R reads p.

    How to fix:
    Feed the state from the outer input as its initial value, or compute the back edge's value
    (p + 0) so that the Result is not removed.
    """
    body = layer.body
    if body is None:
        return
    gone = eliminated_results(ctx, layer)
    for be in layer.back_edges:
        if be.from_layer not in gone or be.to_layer == gone[be.from_layer]:
            continue  # a state fed back to itself becomes an invariant input: no back edge is left to break
        src = body.layer(gone[be.from_layer])
        yield Finding(
            f"the back edge into body layer {be.to_layer} of {layer.describe()} comes from a Result that "
            f"reads {src.describe() if src else 'a Parameter'} directly, which never changes: OpenVINO "
            "removes that Result before its CPU plugin checks the model, and compile_model fails "
            '("vector::_M_range_check"); irlint runs it',
            be.loc,
            layer=layer.path,
            hint="compute the value the back edge passes on (+ 0), or use the outer input as the state's initial value",
        )


@rule("PM422", "eliminated-result-shared-crashes", severity="warning", types=CONTROL_FLOW, uses_shapes=True)
def eliminated_result_shared(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """Two outputs give one body Result that reads an unchanging Parameter directly: the CPU plugin crashes.

    What it checks:
    Outputs of a TensorIterator/Loop naming one body Result that `eliminated_results` removes.

    Why it matters:
    The model is valid; irlint runs it. OpenVINO removes a body Result that only passes on a Parameter
    that never changes (an invariant input, or a state fed back to itself) and wires the output to the
    outer input, but it keeps one output per Result (the last): every other output of that Result is
    wired to nothing, and compile_model kills the process (SIGSEGV).

    Example:
    `<output external_port_id="3" internal_layer_id="R"/>` and
    `<output external_port_id="4" internal_layer_id="R"/>`, R reading an invariant Parameter.

    How to fix:
    Read the outer input instead of the layer's outputs, or use one output and read it twice.
    """
    body = layer.body
    if body is None:
        return
    gone = eliminated_results(ctx, layer)
    by_result: dict[int | None, list] = {}
    for pe in loop_plan(layer).data_outputs:
        if pe.body_layer in gone:
            by_result.setdefault(pe.body_layer, []).append(pe)
    for rid, entries in by_result.items():
        if len(entries) < 2:
            continue
        src = body.layer(gone[rid])
        ports = ", ".join(str(pe.port) for pe in entries)
        yield Finding(
            f"output ports {ports} of {layer.describe()} all give body Result {rid}, which reads "
            f"{src.describe() if src else 'a Parameter'} directly and never changes: OpenVINO removes the "
            "Result and wires only the last of these outputs to the outer input, the others to nothing, "
            "and its CPU plugin kills the process (SIGSEGV); irlint runs it",
            entries[0].entry.loc,
            layer=layer.path,
            related=tuple(Related(pe.entry.loc, "another output") for pe in entries[1:]),
            hint="read the outer input instead of these outputs",
        )


def _static(shape: object) -> bool:
    return shape is not None and all(d.is_static for d in shape)  # type: ignore[attr-defined]


@rule("PM423", "dynamic-body-in-static-layer", severity="warning", types=("Loop", "TensorIterator"), uses_shapes=True)
def dynamic_body_in_static_layer(ctx: Context, graph: Graph, layer: Layer) -> Iterator[Finding]:
    """A state whose shape changes per iteration in a layer whose inputs and read outputs are static.

    What it checks:
    A merged body Parameter with dynamic dims in a TensorIterator/Loop whose input ports and read
    output ports all have static dims.

    Why it matters:
    The model is valid; irlint runs it. OpenVINO declares the state's body Parameter with dynamic
    dims. When every input of the layer and every output something reads is static (the grown state
    feeds only outputs nothing reads, which OpenVINO removes), the CPU plugin runs the dynamic body
    inside a static node and fails at the second iteration ("object is not initialized").

    Example:
    s <- Concat(s, s) in a Loop of static inputs whose only read output is another state's.

    How to fix:
    Read the grown state's output, or make a layer input's shape dynamic.
    """
    body = layer.body
    info = ctx.shapes.loop(layer)
    if body is None or (info is not None and info.max_iterations is not None and info.max_iterations <= 1):
        return  # the failure comes with the second iteration's back edges (`prepareDynamicBackEdges`)
    unread = set(unread_outputs(ctx, graph, layer))
    if not all(_static(p.shape) for p in layer.inputs):
        return
    if not all(_static(p.shape) for p in layer.outputs if p.id not in unread):
        return
    for pe in loop_plan(layer).of(EntryKind.MERGED_INPUT):
        param = body.layer(pe.body_layer)
        port = param.outputs[0] if param is not None and param.outputs else None
        if port is None or port.shape is None or _static(port.shape):
            continue
        yield Finding(
            f"state {param.describe()} of {layer.describe()} has dynamic dims (its shape changes per "
            "iteration) while every input and every read output of the layer is static: OpenVINO's CPU "
            'plugin runs the dynamic body in a static node and fails at inference ("object is not '
            'initialized"); irlint runs it',
            pe.entry.loc,
            layer=layer.path,
            hint="read the state's output, or give an input of the layer a dynamic dim",
        )
        return
