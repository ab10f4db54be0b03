"""The one execution engine: a generator of step events; bodies nest with `yield from`.

TensorIterator and Loop follow the specs (GUIDE.md §4): slices come from `irlint.slicing` (the
spec/core reading), back edges carry Result values to Parameters, concatenated outputs are joined
in iteration order (reversed for a negative stride), a Loop checks its body condition after each
iteration (so the iteration that produced `false` is still in the scan outputs), and zero
iterations give the initial values of merged inputs and empty scan outputs.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import numpy as np

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
from irlint.interp.plan import Step, plan_for
from irlint.ir.model import Graph, Layer, Model, PortMapEntry
from irlint.ir.weights import WeightsError
from irlint.ops import OpError, TensorInfo
from irlint.shapes.infer import declared_info
from irlint.slicing import SliceError, resolve
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
    for step in plan_for(model.graph).steps:
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
        for step in plan_for(graph).steps:
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
        body = layer.body
        assert body is not None
        is_loop = layer.type == "Loop"
        outer = {p.id: a for p, a in zip(layer.inputs, args)}
        back = {be.to_layer: be.from_layer for be in layer.back_edges}
        inputs = [e for e in layer.port_map if e.direction == "input"]
        outputs = [e for e in layer.port_map if e.direction == "output" and e.purpose is None
                   and e.external_port_id is not None and e.external_port_id >= 0]
        cond_entry = next((e for e in layer.port_map if e.direction == "output"
                           and e.purpose == "execution_condition"), None)

        slices = {}
        counts = []
        for e in inputs:
            if e.sliced and e.purpose is None:
                arr = outer[e.external_port_id]
                axis = self.axis(layer, e, arr.ndim)
                try:
                    spec = resolve(arr.shape[axis], e.start, e.end, e.stride, e.part_size)
                except SliceError as err:
                    raise ExecutionError(f"{layer.describe()}: input port {e.external_port_id}: {err}", layer) from err
                slices[e.internal_layer_id] = (arr, axis, spec)
                counts.append(spec.iterations)
        if not is_loop and len(set(counts)) > 1:
            raise ExecutionError(f"{layer.describe()}: sliced inputs give different iteration counts {counts}", layer)

        if is_loop:
            trip = _scalar(outer.get(0))
            run_first = bool(_scalar(outer.get(1), True))
            bound = trip if trip is not None and trip >= 0 else None
            if counts:
                bound = min(counts) if bound is None else min(bound, min(counts))
            limit = bound if bound is not None else float("inf")  # stopped by its condition or max_iterations
            if not run_first:
                limit = 0
        else:
            limit = counts[0] if counts else 1
        unbounded = is_loop and bound is None  # type: ignore[possibly-undefined]

        state: dict[int, np.ndarray] = {}
        for e in inputs:
            if e.purpose is None and not e.sliced:
                state[e.internal_layer_id] = outer[e.external_port_id]  # type: ignore[index]
        cur_iter = next((e for e in inputs if e.purpose == "current_iteration"), None)
        cur_decl = declared_info(body.layer(cur_iter.internal_layer_id)) if cur_iter else None  # type: ignore[arg-type]

        yield BodyEntered(layer, frames)
        concat: dict[int, list[np.ndarray]] = {e.external_port_id: [] for e in outputs if e.sliced}  # type: ignore[misc]
        last: dict[int, np.ndarray] = {}
        k = 0
        held = 0  # bytes of the scan outputs collected so far: they grow with every iteration
        while k < limit:
            params = dict(state)
            for pid, (arr, axis, spec) in slices.items():
                lo, hi = spec.bounds(k)
                params[pid] = np.take(arr, range(lo, hi), axis=axis)
            if cur_iter is not None:
                params[cur_iter.internal_layer_id] = _iteration_value(k, cur_decl)  # type: ignore[index]
            inner = (*frames, (layer.path, k))
            yield IterationStarted(layer, k, params, inner)
            values: Values = {}
            yield from self.graph(body, params, values, inner)
            results = {r.id: values[plan_src] for r in body.results()
                       if (plan_src := _result_source(body, r)) in values}
            cond = None
            if is_loop and cond_entry is not None:
                cond = bool(np.asarray(results[cond_entry.internal_layer_id]).reshape(-1)[0])
            yield IterationFinished(layer, k, results, cond, inner)
            for e in outputs:
                value = results[e.internal_layer_id]  # type: ignore[index]
                if e.sliced:
                    concat[e.external_port_id].append(value)  # type: ignore[index]
                    held += value.nbytes
                    self.budget(layer, held)
                else:
                    last[e.external_port_id] = value  # type: ignore[index]
            for pid, rid in back.items():
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
        for e in outputs:
            port = e.external_port_id
            if e.sliced:
                result[port] = self.concatenate(layer, body, e, concat[port])  # type: ignore[index]
            elif port in last:
                result[port] = last[port]  # type: ignore[index]
            else:  # zero iterations: the initial value of the merged input this Result feeds back to
                target = next((p for p, r in back.items() if r == e.internal_layer_id), None)
                if target is None or target not in state:
                    raise ExecutionError(f"{layer.describe()}: output port {port} has no value after zero iterations",
                                         layer)
                result[port] = state[target]  # type: ignore[index]
        yield BodyLeft(layer, k, result, frames)
        return result

    def axis(self, layer: Layer, e: PortMapEntry, rank: int) -> int:
        axis = e.axis if e.axis is not None else 0
        if not -rank <= axis < max(rank, 1):
            raise ExecutionError(f"{layer.describe()}: axis {axis} is outside rank {rank}", layer)
        return axis + rank if axis < 0 else axis

    def concatenate(self, layer: Layer, body: Graph, e: PortMapEntry, parts: list[np.ndarray]) -> np.ndarray:
        if parts and parts[0].ndim == 0:
            parts = [p.reshape(1) for p in parts]
        if e.stride is not None and e.stride < 0:
            parts = parts[::-1]
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


def _result_source(body: Graph, result: Layer) -> tuple[int, int] | None:
    for step in plan_for(body).steps:
        if step.layer is result:
            return step.sources[0] if step.sources else None
    return None


def _scalar(arr: np.ndarray | None, default: int | bool | None = None):  # type: ignore[no-untyped-def]
    if arr is None or np.asarray(arr).size != 1:
        return default
    v = np.asarray(arr).reshape(-1)[0]
    return bool(v) if np.asarray(arr).dtype == np.bool_ else int(v)


def _iteration_value(k: int, decl: TensorInfo | None) -> np.ndarray:
    dtype = decl.etype.dtype if decl is not None and decl.etype is not None and decl.etype.dtype is not None \
        else np.dtype(np.int64)
    value = np.array(k, dtype=dtype)
    return value.reshape(1) if decl is not None and decl.shape is not None and len(decl.shape) == 1 else value


def _etype(a: np.ndarray):  # type: ignore[no-untyped-def]
    try:
        return from_dtype(a.dtype)
    except KeyError:
        return None
