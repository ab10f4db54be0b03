"""The one execution engine: a generator of step events; bodies nest with `yield from`.

TensorIterator and Loop mean what `irlint.controlflow` says (its plan classifies the entries, its
bound counts the iterations, its assembly joins the outputs); this module only drives it with
concrete arrays: a Loop checks its body condition after each iteration (so the iteration that
produced `false` is still in the scan outputs), and zero iterations give the initial values of
merged inputs and empty scan outputs.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import numpy as np

from irlint.controlflow import (
    EntryKind,
    LoopPlan,
    PlanEntry,
    SliceError,
    SliceSpec,
    concat_order,
    iteration_bound,
    iteration_value,
    loop_plan,
    resolve,
    scalar_flag,
    scalar_value,
    zero_iteration_source,
)
from irlint.controlflow.bound import runs_once_without_slices
from irlint.controlflow.plan import CONDITION_PORT, TRIP_COUNT_PORT
from irlint.interp.errors import ExecutionError
from irlint.interp.events import (
    BodyEntered,
    BodyLeft,
    Event,
    Frames,
    IterationFinished,
    IterationStarted,
    LayerEvaluated,
    RunFinished,
)
from irlint.interp.schedule import Step, schedule_for
from irlint.ir.declared import declared_info
from irlint.ir.model import Graph, Layer, Model, PortMapEntry
from irlint.ir.weights import WeightsError
from irlint.ops import OpError, TensorInfo
from irlint.types import from_dtype, static_shape

# Ops whose output size is not bounded by the product of their input sizes: always checked against the
# memory budget first. Any other op is checked only when (input bytes)^2 could exceed the budget.
EXPLOSIVE = frozenset({"Broadcast", "Tile", "Range", "Pad", "LSTMSequence", "GRUSequence", "RNNSequence"})
DEFAULT_MAX_ITERATIONS = 100_000
DEFAULT_MEMORY_BUDGET = 4 * 1024**3


@dataclass(frozen=True)
class Options:
    max_iterations: int = DEFAULT_MAX_ITERATIONS  # per Loop execution, for unbounded loops
    memory_budget: int = DEFAULT_MEMORY_BUDGET  # bytes one tensor may take


Values = dict[tuple[int, int], np.ndarray]


def execute(model: Model, inputs: Mapping[str, np.ndarray], options: Options | None = None) -> Iterator[Event]:
    """Run `model` on `inputs` (keyed by top-level Parameter name), yielding every step event."""
    ex = _Executor(model, options or Options())
    params = {}
    for layer in model.graph.parameters():
        if layer.name not in inputs:
            raise ExecutionError(f"no input for Parameter '{layer.name}'", layer, "RUN-INPUT")
        params[layer.id] = ex.check_input(layer, np.asarray(inputs[layer.name]))
    values: Values = {}
    yield from ex.graph(model.graph, params, values, ())
    outputs = {}
    for step in schedule_for(model.graph).steps:
        if step.layer.type == "Result" and step.sources:
            outputs[step.layer.name] = values[step.sources[0]]
    yield RunFinished(outputs)


class _Executor:
    def __init__(self, model: Model, options: Options) -> None:
        self.model = model
        self.options = options
        self.consts: dict[str, np.ndarray] = {}

    # -- inputs, constants, budget ---------------------------------------------------------------
    def check_input(self, layer: Layer, arr: np.ndarray) -> np.ndarray:
        want = declared_info(layer)
        if want.etype is not None and want.etype.dtype is not None and arr.dtype != want.etype.dtype:
            raise ExecutionError(f"input '{layer.name}' is {arr.dtype}, the Parameter is {want.etype}", layer,
                                 "RUN-INPUT")
        if want.shape is not None:
            ok = len(want.shape) == arr.ndim and all(d.compatible(static_shape([n])[0])
                                                     for d, n in zip(want.shape, arr.shape))
            if not ok:
                raise ExecutionError(f"input '{layer.name}' has shape {list(arr.shape)}, the Parameter is "
                                     f"[{','.join(str(d) for d in want.shape)}]", layer, "RUN-INPUT")
        return arr

    def const(self, layer: Layer) -> np.ndarray:
        cached = self.consts.get(layer.path)
        if cached is not None:
            return cached
        info = declared_info(layer)
        shape = None if info.shape is None else [d.value for d in info.shape]
        if info.etype is None or shape is None or any(s is None for s in shape):
            raise ExecutionError(f"{layer.describe()} has no static shape and element type", layer)
        self.budget(layer, info.etype.nbytes(int(np.prod(shape, dtype=np.int64))))
        try:
            value = self.model.weights.array(int(layer.data["offset"]), int(layer.data["size"]), info.etype,
                                             tuple(shape))  # type: ignore[arg-type]
        except (KeyError, ValueError, WeightsError) as e:
            raise ExecutionError(f"{layer.describe()}: {e}", layer, "RUN-WEIGHTS") from e
        self.consts[layer.path] = value
        return value

    def budget(self, layer: Layer, nbytes: int) -> None:
        if nbytes > self.options.memory_budget:
            raise ExecutionError(f"{layer.describe()} would allocate {nbytes} bytes, more than the memory budget of "
                                 f"{self.options.memory_budget} bytes", layer, "RUN-BUDGET")

    def predicted_bytes(self, step: Step, args: list[np.ndarray]) -> int:
        """Output bytes from the op's shape function on the concrete input shapes (before allocating)."""
        assert step.op is not None
        infos = [TensorInfo(_etype(a), static_shape(a.shape), a if a.size <= 64 else None) for a in args]
        total = 0
        for out in step.op.infer(step.attrs, infos):
            if out.shape is None or out.etype is None or any(d.value is None for d in out.shape):
                continue
            count = 1
            for d in out.shape:
                count *= d.value  # type: ignore[operator]
            total += out.etype.nbytes(count)
        return total

    # -- one graph level -----------------------------------------------------------------------
    def graph(self, graph: Graph, params: Mapping[int | None, np.ndarray], values: Values,
              frames: Frames) -> Iterator[Event]:
        for step in schedule_for(graph).steps:
            layer = step.layer
            if layer.type == "Parameter":
                if layer.id not in params:
                    raise ExecutionError(f"{layer.describe()} receives no value", layer)
                outs: tuple[np.ndarray, ...] = (params[layer.id],)
            elif layer.type == "Const":
                outs = (self.const(layer),)
            elif layer.type == "Result":
                yield LayerEvaluated(layer, tuple(values[s] for s in step.sources), (), frames)
                continue
            else:
                args = [values[s] for s in step.sources]
                if layer.type in ("TensorIterator", "Loop"):
                    result = yield from self.loop(layer, args, frames)
                    outs = tuple(result[p.id] for p in layer.outputs)
                else:
                    outs = self.op(step, args)
                yield LayerEvaluated(layer, tuple(args), outs, frames)
            for port, value in zip(layer.outputs, outs):
                values[(layer.id, port.id)] = value  # type: ignore[index]

    def op(self, step: Step, args: list[np.ndarray]) -> tuple[np.ndarray, ...]:
        assert step.op is not None
        try:
            # The shape function predicts the output size before anything is allocated; for ops whose
            # output cannot outgrow their inputs much, and small inputs, that check is skipped (speed).
            size = sum(a.nbytes for a in args)
            if step.layer.type in EXPLOSIVE or size * size > self.options.memory_budget:
                self.budget(step.layer, self.predicted_bytes(step, args))
            outs = step.op.compute(step.attrs, args)  # kernels silence numpy's float warnings themselves
        except OpError as e:
            raise ExecutionError(f"{step.layer.describe()}: {e}", step.layer) from e
        except ExecutionError:
            raise
        except MemoryError as e:  # the machine ran out before the budget did: still the budget's error
            raise ExecutionError(f"{step.layer.describe()}: out of memory while computing it (within the memory "
                                 f"budget of {self.options.memory_budget} bytes)", step.layer, "RUN-BUDGET") from e
        except Exception as e:  # a kernel bug: report it as such, with the op's name
            raise ExecutionError(f"kernel of {step.layer.type} failed on {step.layer.describe()}: "
                                 f"{type(e).__name__}: {e}", step.layer, "RUN-INTERNAL") from e
        return tuple(np.asarray(o) for o in outs)

    # -- TensorIterator / Loop -----------------------------------------------------------------
    def loop(self, layer: Layer, args: list[np.ndarray], frames: Frames):  # type: ignore[no-untyped-def]
        """The concrete driver of `irlint.controlflow`: slice, run the body, carry back edges, assemble."""
        body = layer.body
        assert body is not None
        plan = loop_plan(layer)
        outer = {p.id: a for p, a in zip(layer.inputs, args)}
        slices, counts = self.slices(layer, plan, outer)
        if not plan.is_loop and len({n for n, _ in counts}) > 1:
            raise ExecutionError(f"{layer.describe()}: sliced inputs give different iteration counts "
                                 f"{[n for n, _ in counts]}", layer)
        trip = scalar_value(outer.get(TRIP_COUNT_PORT)) if plan.is_loop else None
        first = scalar_flag(outer.get(CONDITION_PORT)) if plan.is_loop else None
        bound = iteration_bound(plan.is_loop, counts, trip, first)
        limit = runs_once_without_slices(bound, plan.is_loop)
        unbounded = plan.is_loop and bound.limit is None

        state: dict[int | None, np.ndarray] = {pe.body_layer: outer[pe.port] for pe in plan.state_inputs}
        cur = plan.current_iteration
        cur_decl = declared_info(body.layer(cur.body_layer)) if cur is not None else None  # type: ignore[arg-type]
        cond_entry = plan.condition if plan.is_loop else None
        outputs = plan.data_outputs

        yield BodyEntered(layer, frames)
        concat: dict[int | None, list[np.ndarray]] = {pe.port: [] for pe in outputs
                                                      if pe.kind is EntryKind.CONCAT_OUTPUT}
        last: dict[int | None, np.ndarray] = {}
        k = 0
        held = 0  # bytes of the scan outputs collected so far: they grow with every iteration
        while k < limit:
            params = dict(state)
            for pid, (arr, axis, spec) in slices.items():
                lo, hi = spec.bounds(k)
                params[pid] = np.take(arr, range(lo, hi), axis=axis)
            if cur is not None:
                params[cur.body_layer] = iteration_value(
                    k, cur_decl.etype.dtype if cur_decl is not None and cur_decl.etype is not None else None,
                    cur_decl.rank if cur_decl is not None else None)
            inner = (*frames, (layer.path, k))
            yield IterationStarted(layer, k, params, inner)
            values: Values = {}
            yield from self.graph(body, params, values, inner)
            results = {rid: values[src] for rid, src in schedule_for(body).result_sources.items() if src in values}
            cond = None
            if cond_entry is not None:
                cond = scalar_flag(results[cond_entry.body_layer])
            yield IterationFinished(layer, k, results, cond, inner)
            for pe in outputs:
                value = results[pe.body_layer]  # type: ignore[index]
                if pe.kind is EntryKind.CONCAT_OUTPUT:
                    concat[pe.port].append(value)
                    held += value.nbytes
                    self.budget(layer, held)
                else:
                    last[pe.port] = value
            for pid, rid in plan.back.items():
                if rid in results:
                    state[pid] = results[rid]  # type: ignore[index]
            k += 1
            if cond is False:
                break
            if k >= self.options.max_iterations and k < limit:
                why = "without its condition becoming false" if unbounded else f"of {limit}"
                raise ExecutionError(f"{layer.describe()} ran {k} iterations {why} "
                                     f"(--max-iterations {self.options.max_iterations})", layer, "RUN-ITERATIONS")

        result: dict[int, np.ndarray] = {}
        for pe in outputs:
            port = pe.port
            assert port is not None
            if pe.kind is EntryKind.CONCAT_OUTPUT:
                result[port] = self.concatenate(layer, body, pe, concat[port])
            elif port in last:
                result[port] = last[port]
            else:  # zero iterations: the initial value of the merged input this Result feeds back to
                target = zero_iteration_source(plan, pe)
                if target is None or target not in state:
                    raise ExecutionError(f"{layer.describe()}: output port {port} has no value after zero iterations",
                                         layer)
                result[port] = state[target]
        yield BodyLeft(layer, k, result, frames)
        return result

    def slices(self, layer: Layer, plan: LoopPlan, outer: Mapping[int | None, np.ndarray]
               ) -> tuple[dict[int | None, tuple[np.ndarray, int, SliceSpec]], list[tuple[int, str]]]:
        """Each sliced input's array, axis and resolved slicing, and the iteration counts they give."""
        slices: dict[int | None, tuple[np.ndarray, int, SliceSpec]] = {}
        counts: list[tuple[int, str]] = []
        for pe in plan.sliced_inputs:
            e = pe.entry
            arr = outer[e.external_port_id]
            axis = self.axis(layer, e, arr.ndim)
            try:
                spec = resolve(arr.shape[axis], e.start, e.end, e.stride, e.part_size)
            except SliceError as err:
                raise ExecutionError(f"{layer.describe()}: input port {e.external_port_id}: {err}", layer) from err
            slices[pe.body_layer] = (arr, axis, spec)
            counts.append((spec.iterations, f"input port {e.external_port_id}"))
        return slices, counts

    def axis(self, layer: Layer, e: PortMapEntry, rank: int) -> int:
        axis = e.axis if e.axis is not None else 0
        if not -rank <= axis < max(rank, 1):
            raise ExecutionError(f"{layer.describe()}: axis {axis} is outside rank {rank}", layer)
        return axis + rank if axis < 0 else axis

    def concatenate(self, layer: Layer, body: Graph, pe: PlanEntry, parts: list[np.ndarray]) -> np.ndarray:
        e = pe.entry
        if parts and parts[0].ndim == 0:
            parts = [p.reshape(1) for p in parts]
        parts = concat_order(pe, parts)
        if parts:
            axis = self.axis(layer, e, parts[0].ndim)
            total = sum(p.nbytes for p in parts)
            self.budget(layer, total)
            return np.concatenate(parts, axis=axis)
        res = body.layer(e.internal_layer_id)
        info = declared_info(res) if res is None else TensorInfo(
            res.inputs[0].precision if res.inputs else None, res.inputs[0].shape if res.inputs else None)
        if info.shape is None or info.etype is None or info.etype.dtype is None:
            raise ExecutionError(f"{layer.describe()}: cannot shape the empty scan output {e.external_port_id}",
                                 layer)
        shape = [d.value if d.value is not None else 0 for d in info.shape] or [1]
        shape[self.axis(layer, e, len(shape))] = 0
        return np.zeros(shape, info.etype.dtype)


def _etype(a: np.ndarray):  # type: ignore[no-untyped-def]
    try:
        return from_dtype(a.dtype)
    except KeyError:
        return None
