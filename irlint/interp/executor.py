"""The execution engine: one compiled program per graph level, driven two ways.

TensorIterator and Loop mean what `irlint.controlflow` says (its plan classifies the entries, its
bound counts the iterations, its assembly orders the outputs); `irlint.interp.loops` compiles that
plan against the body's program once. Here it is driven with concrete arrays: a Loop checks its
body condition after each iteration (so the iteration that produced `false` is still in the scan
outputs), and zero iterations give the initial values of merged inputs and empty scan outputs.

Two drivers run the same programs, kernels and loop code:

- `evaluate` (used by `run`): a plain loop over the program, no event objects; a `Listener` (the
  trace) is called only at the points it asks for;
- `execute`: the generator of step events that the stepper, the debugger and the CLI consume.

tests/interp/test_fast_path.py checks on every example and conformance model that both give
bit-identical outputs and traces.
"""

from __future__ import annotations

import math
import time
import warnings
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from irlint.controlflow import (
    PlanEntry,
    SliceError,
    SliceSpec,
    iteration_bound,
    loop_plan,
    never_run_shape,
    resolve_entry,
    scalar_flag,
    scalar_value,
    zero_iteration_source,
)
from irlint.controlflow.bound import concrete_limit
from irlint.controlflow.plan import CONDITION_PORT, TRIP_COUNT_PORT
from irlint.gcpause import paused_gc
from irlint.interp import overflow
from irlint.interp.branches import taken_branch
from irlint.interp.codegen import (
    GENERATE_AFTER,
    GUARD_ALWAYS,
    GUARD_BY_SIZE,
    GUARD_NEVER,
    MAX_GENERATED_OPS,
    Callbacks,
    generate,
)
from irlint.interp.cpuloops import (
    CountedEntry,
    LoopSlices,
    concat_departure,
    count_departure,
    fewest_loop_slices,
    loop_slices_departure,
    sliced_departure,
)
from irlint.interp.errors import DepartureWarning, ExecutionError, RaggedParts
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
from irlint.interp.loops import (
    ALL_CPU_CHECKS,
    CONCAT,
    REGULAR_CPU_CHECKS,
    ConcatBuffer,
    LoopCode,
    LoopRun,
    ProjectedCell,
    batch_plan,
    loop_code,
)
from irlint.interp.program import BRANCH, LOOP, OP, RESULT, Instr, Program, program_for, slot_getter
from irlint.interp.quiet import restore, silence
from irlint.interp.schedule import Step
from irlint.interp.state import STATEFUL, State, Variables, assigns_of
from irlint.ir.declared import declared_info
from irlint.ir.index import GraphIndex
from irlint.ir.model import Graph, Layer, Model, PortMapEntry
from irlint.ir.weights import WeightsChanged, WeightsError
from irlint.ops import OpError, TensorInfo
from irlint.ops.misc.strings import as_strings
from irlint.ops.rnn.cells import CellKernel
from irlint.types import from_dtype, static_shape

# Ops whose output size is not bounded by the product of their input sizes: always checked against the
# memory budget first. Any other op is checked only when (input bytes)^2 could exceed the budget.
EXPLOSIVE = frozenset({
    "Broadcast", "Tile", "Range", "Pad", "LSTMSequence", "GRUSequence", "RNNSequence",
    # sizes from input values or attributes, or outer products: a small input can ask for gigabytes
    "OneHot", "Einsum", "RandomUniform", "Interpolate", "Col2Im", "ConvolutionBackpropData",
    "GroupConvolutionBackpropData", "ExtractImagePatches", "DFT", "IDFT", "RDFT", "IRDFT", "PriorBox",
    "PriorBoxClustered", "Eye",
})
# Ops whose every output is never larger than one of their inputs (the same elements reshaped, parts of
# them, one value of the same type per element, a cell's state): never checked, however large their
# inputs (a cell's weights would otherwise send it through the guard every iteration).
BOUNDED = frozenset({
    "Squeeze", "Unsqueeze", "Reshape", "Split", "VariadicSplit", "LSTMCell", "GRUCell", "RNNCell",
    "Sigmoid", "Tanh", "Relu", "Exp", "Log", "Sqrt", "Abs", "Negative", "Floor", "Ceiling", "Clamp", "Erf",
})
# What binding a program decides without its run, kept per program (by its graph, checked against the
# program) while the model lives: per op its instruction, whether it may depart (`overflow.watch_plan`),
# its memory guard, single destination slot and input getter, which of its inputs are constants, and
# its prepared kernel with the constants it was prepared from (the same objects in every run:
# `_CONST_VIEWS`). A prepared kernel holds only what its attributes and constants decide and memos of
# it by input shape or rank, so later runs reuse it (preparing every op again, and making its getter,
# cost a ten-step run a fifth of its time; a cell's weights, cast, reordered and transposed, take
# milliseconds for a 1 MB cell). Also the level's Assigns.
_BINDINGS: weakref.WeakKeyDictionary[Graph, tuple[Program, list[list[Any]], tuple[tuple[str, Layer], ...]]] = (
    weakref.WeakKeyDictionary())
# A Const's value and its bytes by layer path, per graph, kept across runs while the model lives: the
# read-only copy of its bytes from the .bin (irlint.ir.weights) is read once, not per run (reading and
# checking it again cost a short run a fifth of its time); it holds what one run holds anyway.
_CONST_VIEWS: weakref.WeakKeyDictionary[Graph, dict[str, tuple[np.ndarray, int]]] = weakref.WeakKeyDictionary()
# What a Parameter declares (`declared_info`) and, where every dim is static, its shape as ints: read
# once per layer, not per run (a short run's input checks cost it a twentieth of its time).
_DECLARED: weakref.WeakKeyDictionary[Layer, tuple[TensorInfo, tuple[int, ...] | None]] = weakref.WeakKeyDictionary()
DEFAULT_MAX_ITERATIONS = 100_000
# Body executions (iterations of every Loop and TensorIterator, at every nesting depth) one run may make:
# `--max-iterations` bounds each loop alone, so nested loops could otherwise multiply to 10^10.
DEFAULT_MAX_BODY_RUNS = 1_000_000
# A loop whose body holds no loop or If charges its iterations (and reads the clock) once per this many.
CHECK_EVERY = 4096
DEFAULT_MEMORY_BUDGET = 4 * 1024**3


@dataclass(frozen=True)
class Options:
    max_iterations: int = DEFAULT_MAX_ITERATIONS  # per Loop execution, for unbounded loops
    max_body_runs: int = DEFAULT_MAX_BODY_RUNS  # loop iterations of the whole run, all nesting depths
    time_limit: float | None = None  # seconds of wall-clock time for the run (checked between iterations)
    memory_budget: int = DEFAULT_MEMORY_BUDGET  # bytes one tensor may take
    # Run every op through its validating `compute` instead of its prepared fast kernel (slower; the
    # tests use it to show that both give the same bits).
    checked_kernels: bool = False
    # Compute a TensorIterator body cell's input projections for all iterations in one matrix product
    # before the loop (irlint.interp.loops.hoistable). Off by default: it pays with one BLAS thread
    # (OPENBLAS_NUM_THREADS=1: 9-14 % faster) and loses with OpenBLAS's threads on a loaded machine
    # (docs/performance.md); results differ from the per-iteration product in the last bits.
    hoist_cells: bool = False
    # Run each loop body (and If branch) through Python code generated for it (irlint.interp.codegen)
    # instead of interpreting its op list; the same kernels in the same order, so the same bits (the
    # tests compare both).
    generate_bodies: bool = True


class Listener(Protocol):
    """Hooks of the plain driver (`evaluate`): called only when given; `layers` asks for every layer."""

    layers: bool

    def iteration_started(self, layer: Layer, iteration: int, keys: Sequence[int | None],
                          values: Sequence[np.ndarray], frames: Frames) -> None:
        """The body Parameters' values (`keys` and `values` as IterationStarted.params has them)."""

    def iteration_finished(self, layer: Layer, iteration: int, keys: Sequence[int | None],
                           values: Sequence[np.ndarray], frames: Frames) -> None:
        """The body Results' values (as IterationFinished.results has them)."""

    def layer_evaluated(self, layer: Layer, outputs: Sequence[np.ndarray], frames: Frames) -> None: ...

    # Optional, instead of the two calls above where nothing is recorded between them (no nested loop or
    # If in the body, `layers` false): `batches(layer, (param keys, result keys), layout) -> take`, asked
    # once per loop and run, where `take(first, values, outer frames) -> int` then receives iterations
    # `first`, `first + 1`, ... in batches: `values` one flat list, per iteration its Parameters' values
    # then its Results' (`layout`, irlint.interp.events, says how their bytes relate), and returns how
    # many iterations the next batch may hold (at least 1). The same records, one call per batch; a batch
    # is handed over when full, when the loop ends and when it fails, so the records come in order.


Kernel = Callable[[list[np.ndarray]], Sequence[np.ndarray]]


def execute(model: Model, inputs: Mapping[str, np.ndarray], options: Options | None = None,
            state: State | None = None) -> Iterator[Event]:
    """Run `model` on `inputs` (keyed by top-level Parameter name), yielding every step event; `state`
    (ReadValue/Assign variables) is read, and updated before RunFinished."""
    ex = _Executor(model, options or Options(), events=True, state=state, plain=False)
    try:
        bound = ex.start(inputs)
        yield from ex.events(bound, ())
        ex.variables.finish()
        yield RunFinished(ex.outputs(bound))
    finally:
        ex.close()


def evaluate(model: Model, inputs: Mapping[str, np.ndarray], options: Options | None = None,
             listener: Listener | None = None, state: State | None = None) -> dict[str, np.ndarray]:
    """Run `model` on `inputs` without events; outputs keyed by top-level Result name; `state` is
    read and, once the run succeeded, updated."""
    ex = _Executor(model, options or Options(), events=listener is not None, listener=listener, state=state)
    # The kernels' float warnings are silenced once for the whole run; the run makes no reference
    # cycles, so the cyclic collector is paused (irlint.gcpause: a trace keeps many small objects).
    with np.errstate(all="ignore"), paused_gc():
        try:
            bound = ex.start(inputs)
            bound.run(())
            ex.variables.finish()
            return ex.outputs(bound)
        finally:
            ex.close()


class _Bound:
    """A program bound for one run: its slot list (constants filled in once, reused by every
    iteration), per op the kernel prepared for its attributes and constant inputs, and `run(frames)`,
    the plain driver for this level (a generated function for a loop body, `irlint.interp.codegen`)."""

    __slots__ = ("assigns", "const_bytes", "ops", "program", "projected", "run", "runs", "slots", "steps")

    def __init__(self, program: Program, slots: list[Any], ops: list[tuple[Any, ...]],
                 projected: dict[int, ProjectedCell], const_bytes: dict[int, int],
                 assigns: tuple[tuple[str, Layer], ...]):
        self.assigns = assigns  # committed when the level finishes
        self.program = program
        self.slots = slots
        self.ops = ops  # (kind, kernel, inputs getter, single dst or -1, dsts, instr, guard), no Results
        self.projected = projected  # id(instr) -> a hoisted cell's kernel (irlint.interp.loops), also in ops
        self.run: Callable[[Frames], None] = lambda frames: None  # set by the executor's bind
        self.runs = 0  # executions so far, while interpreted before being generated
        self.const_bytes = const_bytes  # slot -> bytes, of the slots holding constants
        self.steps: list[tuple[Any, ...]] | None = None  # `ops` with the Results and layers, for the event driver


class _Executor:
    def __init__(self, model: Model, options: Options, events: bool, listener: Listener | None = None,
                 state: State | None = None, plain: bool = True) -> None:
        self.model = model
        self.constant_conditions: dict[str, bool] = {}  # Loop path -> its entry condition is a Const
        self.condition_states: dict[str, int | None] = {}  # Loop path -> `condition_state_port`
        self.sized_for_trip: dict[int, int] = {}  # id(LoopRun) -> the trip count its outputs are declared for
        self.loop_codes: dict[int, LoopCode] = {}  # id(Instr) -> its loop_code, for this run
        self.read_outputs: dict[str, frozenset[int | None]] = {}  # loop path -> its output ports something reads
        self.variables = Variables(model, state)
        self.options = options
        self.consts: dict[str, np.ndarray] = {}
        self.bound: dict[int, _Bound] = {}
        self.predictions: dict[tuple[Any, ...], int] = {}  # guard(): predicted output bytes
        self.listening = events  # someone looks at iterations: keep the loop state the events show
        self.listener = listener
        self.plain = plain  # the plain driver runs (`evaluate`): loop bodies get generated drivers
        self.batch_hooks: dict[int, Any] = {}  # id(LoopCode) -> batch_hook's answer
        self.rooms: dict[int, int] = {}  # id(LoopCode) -> iterations the listener takes in its next batch
        # Input bytes above which an op's output is predicted first: size^2 > budget, as integers.
        self.threshold = math.isqrt(options.memory_budget) if options.memory_budget >= 0 else -1
        self.runs_left = options.max_body_runs  # body executions the run may still make
        self.deadline = None if options.time_limit is None else time.monotonic() + options.time_limit
        self.leaf: dict[int, bool] = {}  # id(Program) -> its body holds no loop or If
        self.remapped: set[str] = set()  # loop and If branch paths checked for outputs given by OpenVINO's order
        self.wrapped: set[str] = set()  # layers whose narrow integer result wrapped (irlint.interp.overflow)
        self.shapes: Any = None  # the model's inferred shapes (a ShapeResult), False if inference failed

    def close(self) -> None:
        """Drop the bound programs: each one's driver refers back to it (and a generated one to this
        executor), so without this a finished run would wait for the cyclic collector to be freed."""
        for bound in self.bound.values():
            bound.run = _finished
        self.bound.clear()

    # -- inputs, constants, budget ---------------------------------------------------------------
    def start(self, inputs: Mapping[str, np.ndarray]) -> _Bound:
        """The top-level program bound, with every Parameter's input checked and in its slot."""
        graph = self.model.graph
        values = {}
        for layer in graph.parameters():
            if layer.name not in inputs:
                raise ExecutionError(f"no input for Parameter '{layer.name}'", layer, "RUN-INPUT")
            values[layer.id] = self.check_input(layer, np.asarray(inputs[layer.name]))
        bound = self.bind(program_for(graph))
        for layer in bound.program.param_layers:
            if layer.id not in values:
                raise ExecutionError(f"{layer.describe()} receives no value", layer)
            slot = bound.program.params.get(layer.id)
            if slot is not None:
                bound.slots[slot] = values[layer.id]
        return bound

    def outputs(self, bound: _Bound) -> dict[str, np.ndarray]:
        slots = bound.slots
        return {i.layer.name: slots[i.srcs[0]] for i in bound.program.order if i.kind == RESULT and i.srcs}

    def check_input(self, layer: Layer, arr: np.ndarray) -> np.ndarray:
        got = _DECLARED.get(layer)
        if got is None:
            info = declared_info(layer)
            static = None if info.shape is None or not all(d.is_static for d in info.shape) else tuple(
                d.lo for d in info.shape)
            got = _DECLARED[layer] = (info, static)
        want, static = got
        if want.etype is not None and want.etype.name == "string":
            try:  # str (UTF-8) or bytes values: irlint's object array of bytes
                arr = as_strings(arr)
            except ValueError as e:
                raise ExecutionError(f"input '{layer.name}': {e}", layer, "RUN-INPUT") from None
        if want.etype is not None and want.etype.dtype is not None and arr.dtype != want.etype.dtype:
            raise ExecutionError(f"input '{layer.name}' is {arr.dtype}, the Parameter is {want.etype}", layer,
                                 "RUN-INPUT")
        if want.shape is not None and static != arr.shape:  # (a static shape: equal, or the dims decide)
            ok = len(want.shape) == arr.ndim and all(d.compatible(static_shape([n])[0])
                                                     for d, n in zip(want.shape, arr.shape))
            if not ok:
                raise ExecutionError(f"input '{layer.name}' has shape {list(arr.shape)}, the Parameter is "
                                     f"[{','.join(str(d) for d in want.shape)}]", layer, "RUN-INPUT")
        overflow.i64_input_outside_i32(layer, arr)
        return arr

    def const(self, layer: Layer, views: dict[str, tuple[np.ndarray, int]] | None = None) -> np.ndarray:
        """A Const layer's value for this run; `views`: its graph's kept views of the .bin (`_CONST_VIEWS`)."""
        cached = self.consts.get(layer.path)
        if cached is not None:
            return cached
        view = views.get(layer.path) if views is not None else None
        if view is not None:
            self.budget(layer, view[1])  # (each run has its own budget)
            self.consts[layer.path] = view[0]
            return view[0]
        info = declared_info(layer)
        shape = None if info.shape is None else [d.value for d in info.shape]
        if info.etype is None or shape is None or any(s is None for s in shape):
            raise ExecutionError(f"{layer.describe()} has no static shape and element type", layer)
        nbytes = info.etype.nbytes(int(np.prod(shape, dtype=np.int64)))
        self.budget(layer, nbytes)
        try:
            value = self.model.weights.array(int(layer.data["offset"]), int(layer.data["size"]), info.etype,
                                             tuple(shape))  # type: ignore[arg-type]
        except WeightsChanged as e:  # not the model's fault: it could not be read
            raise ExecutionError(f"{layer.describe()}: {e}", layer, "RUN-READ") from e
        except (KeyError, ValueError, WeightsError) as e:
            raise ExecutionError(f"{layer.describe()}: {e}", layer, "RUN-WEIGHTS") from e
        self.consts[layer.path] = value
        if views is not None and not value.flags.writeable and not value.flags.owndata and value.dtype.kind != "O":
            views[layer.path] = (value, nbytes)
        return value

    def budget(self, layer: Layer, nbytes: int) -> None:
        if nbytes > self.options.memory_budget:
            raise ExecutionError(f"{layer.describe()} would allocate {nbytes} bytes, more than the memory budget of "
                                 f"{self.options.memory_budget} bytes", layer, "RUN-BUDGET")

    def allocate(self, layer: Layer, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
        """Every buffer the executor itself allocates (concatenated outputs) comes from here."""
        self.budget(layer, math.prod(shape) * dtype.itemsize)
        return np.empty(shape, dtype)

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

    def guarded(self, instr: Instr, guard: int, args: Sequence[np.ndarray]) -> None:
        """The memory guard as the op's kind says (the interpreted and the event driver; generated code
        writes the same test out): always, or when its inputs' bytes pass the threshold."""
        if guard == GUARD_BY_SIZE:
            size = 0
            for a in args:
                size += a.nbytes
            if size <= self.threshold:
                return
        self.guard(instr, args)

    def guard(self, instr: Instr, args: Sequence[np.ndarray]) -> None:
        """The memory budget before an op allocates: its shape function predicts the output size (once
        per layer and input signature: shapes, types and the values of small inputs, all it reads)."""
        key = (id(instr), *((a.shape, a.dtype.str, a.tobytes() if a.size <= 64 else None) for a in args))
        predicted = self.predictions.get(key)
        try:
            if predicted is None:
                predicted = self.predictions[key] = self.predicted_bytes(instr.step, args)
            self.budget(instr.layer, predicted)
        except ExecutionError:
            raise
        except Exception as e:
            raise self.explain(instr, args, e) from e

    # -- binding a program for this run ---------------------------------------------------------
    def bind(self, program: Program, hoists: Sequence[tuple[Instr, Any]] = (), body: bool = False) -> _Bound:
        """The program's slots and kernels for this run (once per program); `hoists` are the cells whose
        kernel is wrapped to take its input projections precomputed (prepared kernels only); a `body`
        (run many times) gets a generated driver."""
        bound = self.bound.get(id(program))
        if bound is not None:
            return bound
        slots: list[Any] = [None] * program.nslots
        const_slots: dict[int, np.ndarray] = {}
        views = _CONST_VIEWS.get(program.graph) if program.consts else None
        if views is None and program.consts:
            views = _CONST_VIEWS[program.graph] = {}
        for layer, slot in program.consts:
            slots[slot] = const_slots[slot] = self.const(layer, views)
        ops, projected = [], {}
        hoisted = {id(instr) for instr, _pid in hoists}
        top = program.graph is self.model.graph
        keep = not self.options.checked_kernels
        plan, assigns = self.binding(program)
        for entry in plan:
            instr, unread, guard, single, getter, at_consts, kept_consts, kept = entry
            kernel = None
            if instr.kind == OP:
                consts = [const_slots.get(s) for s in instr.srcs] if at_consts else kept_consts
                if keep and kept is not None and all(consts[i] is kept_consts[i] for i in at_consts):
                    kernel = kept
                else:
                    kernel = self.kernel(instr, consts)
                    if keep:
                        entry[6], entry[7] = consts, kernel
                if id(instr) in hoisted and isinstance(kernel, CellKernel):
                    kernel = projected[id(instr)] = ProjectedCell(kernel)
                if instr.layer.type in STATEFUL:  # ReadValue/Assign read and write the run's variables
                    kernel = self.variables.kernel(instr.layer, kernel)
                elif unread is not None and id(instr) not in projected:  # may wrap or overflow: a departure
                    kernel = overflow.watch(instr.layer, instr.step.op.compute, instr.step.attrs,  # type: ignore[union-attr]
                                            kernel, self.wrapped, outputs_only=top and unread, consts=consts)
            ops.append((instr.kind, kernel, getter, single, instr.dsts, instr, guard))
        bound = self.bound[id(program)] = _Bound(program, slots, ops, projected,
                                                 {s: v.nbytes for s, v in const_slots.items()}, assigns)
        listener = self.listener
        if (body and self.plain and self.options.generate_bodies and len(ops) <= MAX_GENERATED_OPS
                and not (listener is not None and listener.layers)):
            bound.run = lambda frames: self.warm_up(bound, frames)
        else:
            bound.run = lambda frames: self.ops(bound, frames)
        return bound

    @staticmethod
    def binding(program: Program) -> tuple[list[list[Any]], tuple[tuple[str, Layer], ...]]:
        """`_BINDINGS`' entry of `program`: per op (Results left out) [instr, may depart (the watch plan's
        answer), guard, single destination or -1, input getter, positions of its constant inputs, the
        constants and kernel kept (None, None until a binding prepares it)], and its Assigns."""
        got = _BINDINGS.get(program.graph)
        if got is not None and got[0] is program:
            return got[1], got[2]
        consts = {slot for _layer, slot in program.consts}
        plan = []
        for instr, unread in zip(program.order, overflow.watch_plan(program)):
            if instr.kind == RESULT:
                continue
            kind = instr.layer.type
            guard = GUARD_ALWAYS if kind in EXPLOSIVE else GUARD_NEVER if kind in BOUNDED else GUARD_BY_SIZE
            at = tuple(i for i, s in enumerate(instr.srcs) if s in consts)
            plan.append([instr, unread, guard, instr.dsts[0] if len(instr.dsts) == 1 else -1, slot_getter(instr.srcs),
                         at, [None] * len(instr.srcs), None])
        assigns = assigns_of([i.layer for i in program.order])
        _BINDINGS[program.graph] = (program, plan, assigns)
        return plan, assigns

    def warm_up(self, bound: _Bound, frames: Frames) -> None:
        """A body's driver for its first executions: interpreted, then replaced by its generated code
        (`irlint.interp.codegen`) once it runs again, or at once where an earlier run compiled it
        already; callers read `bound.run` per execution."""
        bound.runs += 1
        if bound.runs > GENERATE_AFTER or bound.runs == 1:
            calls = Callbacks(self.guard, self.loop, self.branch, self.explain, self.variables.commit)
            run = generate([(kind, kernel, instr, guard) for kind, kernel, _g, _s, _d, instr, guard in bound.ops],
                           bound.slots, bound.const_bytes, self.threshold, bound.assigns, calls,
                           known_only=bound.runs == 1)
            if run is not None:
                bound.run = run
                run(frames)
                return
        self.ops(bound, frames)

    def kernel(self, instr: Instr, consts: list[np.ndarray | None]) -> Kernel:
        """The op's prepared kernel (attributes and constant inputs validated once), else its `compute`."""
        op, attrs = instr.step.op, instr.step.attrs
        assert op is not None
        if not self.options.checked_kernels:
            layer = instr.layer
            try:
                fast = op.prepare(attrs, consts)
            except OpError as e:
                raise ExecutionError(f"{layer.describe()}: {e}", layer) from e
            if fast is not None:
                return fast
        compute = op.compute

        def checked(args: list[np.ndarray]) -> list[np.ndarray]:
            return [np.asarray(o) for o in compute(attrs, args)]

        return checked

    def explain(self, instr: Instr, args: list[np.ndarray], err: Exception) -> ExecutionError:
        """A failed kernel: the op's checked path says why (OpError), else it is a kernel bug."""
        layer = instr.layer
        if isinstance(err, OpError):
            return ExecutionError(f"{layer.describe()}: {err}", layer)
        if isinstance(err, MemoryError):  # the machine ran out before the budget did: still the budget's error
            return ExecutionError(f"{layer.describe()}: out of memory while computing it (within the memory "
                                  f"budget of {self.options.memory_budget} bytes)", layer, "RUN-BUDGET")
        op = instr.step.op
        if op is not None and not self.options.checked_kernels:
            try:
                with np.errstate(all="ignore"):
                    op.compute(instr.step.attrs, args)
            except OpError as e:
                return ExecutionError(f"{layer.describe()}: {e}", layer)
            except Exception as e:
                err = e
        return ExecutionError(f"kernel of {layer.type} failed on {layer.describe()}: {type(err).__name__}: {err}",
                              layer, "RUN-INTERNAL")

    # -- the plain driver ------------------------------------------------------------------------
    def ops(self, bound: _Bound, frames: Frames) -> None:
        """Run one graph level's ops in order on its slots, interpreting its op list (the top level, a
        very large body, or every layer reported to the listener); a loop body's generated `run` does
        the same without the interpretation."""
        slots = bound.slots
        listener = self.listener
        per_layer = listener is not None and listener.layers
        for kind, kernel, inputs, single, dsts, instr, guard in bound.ops:
            args = inputs(slots)
            if kind == OP:
                if guard != GUARD_NEVER:
                    self.guarded(instr, guard, args)
                try:
                    outs = kernel(args)
                except Exception as e:
                    raise self.explain(instr, args, e) from e
            elif kind == LOOP:
                outs = self.loop(instr, args, frames)
            else:
                outs = self.branch(instr, args, frames)
            if single >= 0:
                slots[single] = outs[0]
            else:
                for d, o in zip(dsts, outs):
                    slots[d] = o
            if per_layer:
                listener.layer_evaluated(instr.layer, tuple(outs), frames)  # type: ignore[union-attr]
        if bound.assigns:
            self.variables.commit(bound.assigns)

    def loop(self, instr: Instr, args: list[np.ndarray], frames: Frames) -> tuple[np.ndarray, ...]:
        code = self.loop_codes.get(id(instr))  # (a nested loop runs once per outer iteration)
        if code is None:
            code = self.loop_codes[id(instr)] = loop_code(instr.layer)
        return self.loop_fast(code, self.start_loop(code, args), frames)

    def batch_hook(self, code: LoopCode, body: _Bound) -> tuple[Callable[[int, list, Frames], int], Any] | None:
        """The listener's taker of this loop's batches with the one getter of the Parameters' and
        Results' slots, when this loop may hand its records over in batches (else None: two calls
        per iteration)."""
        got = self.batch_hooks.get(id(code), False)
        if got is False:
            got = None
            listener = self.listener
            batches = getattr(listener, "batches", None)
            program = code.body
            if batches is not None and not listener.layers and code.param_keys is not None and not any(  # type: ignore[union-attr]
                    i.kind in (LOOP, BRANCH) for i in program.order):  # a nested loop's or If's records come between
                slots, layout, getter = batch_plan(code, body.const_bytes)
                if slots:
                    take = batches(code.layer, (code.param_keys, code.result_keys), layout)
                    got = (take, getter)
            self.batch_hooks[id(code)] = got
        return got

    def loop_fast(self, code: LoopCode, run: LoopRun, frames: Frames) -> tuple[np.ndarray, ...]:
        """`loop` for the plain driver: nobody listens, or the listener takes its records in batches
        (`batch_hook`: one call per batch rather than two per iteration, which on a tiny body
        cost more than the rest of tracing), or it is called at the start and the end of every
        iteration (a body with a nested loop or If, whose records come between, or every layer heard).
        The interpreter's hottest code, so each iteration's moves are written out here, as in
        `loop_events` (the tests run every model through both and compare)."""
        limit = run.limit
        if limit <= 0:
            return self.finish(run, 0)[0]
        body, value = self.first_iteration(code, run)
        slots, fill, current, advance = body.slots, run.fill, run.current, run.plain_advance()
        fills = bool(run.reads or run.projected)  # else `fill` has nothing to do
        cond_slot = code.cond_slot
        cur = code.has_cur and bool(code.cur_slots)
        cap, charged = self.checkpoint(run, 0, 0)
        layer = code.layer
        listener = self.listener
        take = io_values = started = finished = None
        if listener is not None:
            batched = self.batch_hook(code, body)
            if batched is not None:
                take, io_values = batched
            else:
                started, finished = listener.iteration_started, listener.iteration_finished
        batch: list[np.ndarray] = []  # iterations first, first + 1, ... not yet handed over, flat
        keep = batch.extend
        first = k = 0
        stop = self.rooms.get(id(code), 1) if take is not None else 0  # the batch is full at k == stop
        inner = frames  # a nested loop's or a listener's frames: the enclosing loops' and this iteration
        try:
            while True:
                if k and cur:
                    value = current(slots, k)
                if started is None:
                    if fills:  # (with a batch hook the body has no nested loop: `frames` are not read)
                        fill(slots, k)
                else:
                    inner = (*frames, (layer.path, k))
                    if code.param_keys is not None:
                        fill(slots, k)
                        started(layer, k, code.param_keys, code.param_values(slots), inner)
                    else:
                        params = run.params(slots, k, value)
                        started(layer, k, tuple(params), tuple(params.values()), inner)
                body.run(inner)
                if cond_slot is not None:  # `scalar_flag`, its common case inline
                    c = slots[cond_slot]
                    cond = bool(c.item()) if c.__class__ is np.ndarray and c.size == 1 else scalar_flag(c)
                else:
                    cond = None
                if finished is not None:
                    finished(layer, k, code.result_keys, code.result_values(slots), inner)
                k += 1
                if take is not None:
                    keep(io_values(slots))
                    if k == stop:
                        taken, batch, start, first = batch, [], first, k
                        keep = batch.extend
                        stop = k + take(start, taken, frames)
                if advance(slots, k, cond):
                    break
                if k >= cap:
                    cap, charged = self.checkpoint(run, k, charged)
        finally:  # at the end, and before a failure propagates: the iterations that ran are recorded
            self.runs_left -= k - charged
            if take is not None:
                self.rooms[id(code)] = take(first, batch, frames) if batch else stop - first
        return self.finish(run, k)[0]

    def first_iteration(self, code: LoopCode, run: LoopRun) -> tuple[_Bound, np.ndarray | None]:
        """What both drivers do before iteration 0: bind the body, give its state Parameters their
        initial values and the current_iteration Parameters 0; returns the bound body and that 0."""
        body = self.bind(code.body, code.hoists if self.options.hoist_cells else (), body=True)
        return body, run.enter(body.slots, body.projected, self.options.memory_budget)

    # -- the event driver ------------------------------------------------------------------------
    def events(self, bound: _Bound, frames: Frames) -> Iterator[Event]:
        """The same program as `ops`, one event per op, loop and Result."""
        slots = bound.slots
        steps = bound.steps
        if steps is None:  # the plain driver's op list with the Results in their places, and each layer
            by_instr = {id(op[5]): op for op in bound.ops}
            steps = bound.steps = []
            for i in bound.program.order:
                kind, kernel, inputs, _single, dsts, _i, guard = by_instr.get(id(i)) or (
                    RESULT, None, slot_getter(i.srcs), -1, (), i, GUARD_NEVER)
                steps.append((kind, kernel, inputs, dsts, i, guard, i.layer))
        for kind, kernel, inputs, dsts, instr, guard, layer in steps:
            args = inputs(slots)
            if kind == RESULT:
                yield LayerEvaluated(layer, args, (), frames)
                continue
            if kind == OP:
                if guard != GUARD_NEVER:
                    self.guarded(instr, guard, args)
                token = silence()  # numpy's float warnings off for the kernel only (irlint.interp.quiet)
                try:
                    outs = tuple(kernel(args))
                except Exception as e:
                    raise self.explain(instr, args, e) from e
                finally:
                    restore(token)
            elif kind == LOOP:
                outs = yield from self.loop_events(instr, args, frames)
            else:
                outs = yield from self.branch_events(instr, args, frames)
            for d, o in zip(dsts, outs):
                slots[d] = o
            ev = LayerEvaluated(layer, args, outs, frames)
            yield ev
            if ev.outputs is not outs:  # replaced while paused here (a debugger's what-if): go on with them
                for d, o in zip(dsts, ev.outputs):
                    slots[d] = o
        if bound.assigns:
            self.variables.commit(bound.assigns)

    def loop_events(self, instr: Instr, args: list[np.ndarray], frames: Frames):  # type: ignore[no-untyped-def]
        """`loop` for the event driver: an event at the start and the end of every iteration, around
        the body's own; each iteration's moves written out as in `loop_fast`."""
        code = loop_code(instr.layer)
        run = self.start_loop(code, args)
        layer = code.layer
        path = layer.path
        limit = run.limit
        yield BodyEntered(layer, frames, None, None if run.unbounded else int(limit))
        k = 0
        if limit > 0:
            body, value = self.first_iteration(code, run)
            slots, params, current, advance = body.slots, run.params, run.current, run.advance
            cond_slot, result_keys, result_values = code.cond_slot, code.result_keys, code.result_values
            cur = code.has_cur and bool(code.cur_slots)
            cap, charged = self.checkpoint(run, 0, 0)
            while True:
                if k and cur:
                    value = current(slots, k)
                inner = (*frames, (path, k))
                yield IterationStarted(layer, k, params(slots, k, value), inner)
                yield from self.events(body, inner)
                results = dict(zip(result_keys, result_values(slots)))
                cond = scalar_flag(slots[cond_slot]) if cond_slot is not None else None
                yield IterationFinished(layer, k, results, cond, inner)
                k += 1
                if advance(slots, k, cond):
                    break
                if k >= cap:
                    cap, charged = self.checkpoint(run, k, charged)
            self.runs_left -= k - charged
        outs, by_port = self.finish(run, k)
        yield BodyLeft(layer, k, by_port, frames)
        return outs

    # -- If: the taken branch as a body run once (irlint.interp.branches) ------------------------------
    def merged_rank(self, layer: Layer, port: int) -> int | None:
        """The rank shape inference gives an If's output: OpenVINO merges its branches' shapes statically
        (If::validate_and_infer_types) and its CPU plugin returns the taken branch's value in that rank.
        None where it is not known, or where inference fails (the rules report that failure)."""
        return self.inferred_output(layer, port).rank

    def inferred_output(self, layer: Layer, port: int | None) -> TensorInfo:
        """A layer output's type and shape as shape inference gives them, inferred once per model (when first
        asked) and shared with the rules (`irlint.shapes.inferred`); unknown where inference fails."""
        if self.shapes is None:
            from irlint.shapes import inferred

            try:
                self.shapes = inferred(self.model)
            except Exception:  # a failing pass knows nothing: the declared types and ranks decide
                self.shapes = False
        if self.shapes is False:
            return TensorInfo(None, None)
        return self.shapes.output(layer, port)

    def enter_branch(self, instr: Instr, args: list[np.ndarray]):  # type: ignore[no-untyped-def]
        """Both drivers: the taken branch compiled and bound, its Parameters filled from the If's inputs."""
        code = taken_branch(instr.layer, args, instr.constant_condition, self.merged_rank)
        if code.remapped and f"{instr.layer.path}/{code.kind}" not in self.remapped:  # once per branch and run
            self.remapped.add(f"{instr.layer.path}/{code.kind}")
            warnings.warn(DepartureWarning(code.remapped), stacklevel=2)
        body = self.bind(code.program, body=True)
        slots = body.slots
        for pos, slot in code.feeds:
            slots[slot] = args[pos]
        return code, body

    def branch(self, instr: Instr, args: list[np.ndarray], frames: Frames) -> tuple[np.ndarray, ...]:
        code, body = self.enter_branch(instr, args)
        slots = body.slots
        listener = self.listener
        if listener is None:
            body.run(frames)
        else:
            layer = instr.layer
            inner = (*frames, (layer.path, 0))
            listener.iteration_started(layer, 0, code.trace_params, code.param_values(slots), inner)
            body.run(inner)
            listener.iteration_finished(layer, 0, code.trace_results, code.result_values(slots), inner)
        return code.outputs(slots)

    def branch_events(self, instr: Instr, args: list[np.ndarray], frames: Frames):  # type: ignore[no-untyped-def]
        layer = instr.layer
        code, body = self.enter_branch(instr, args)
        slots = body.slots
        inner = (*frames, (layer.path, 0))
        yield BodyEntered(layer, frames, code.name)
        yield IterationStarted(layer, 0, dict(zip(code.param_keys, code.param_values(slots))), inner, code.name)
        yield from self.events(body, inner)
        yield IterationFinished(layer, 0, dict(zip(code.result_keys, code.result_values(slots))), None, inner,
                                code.name)
        outs = code.outputs(slots)
        yield BodyLeft(layer, 1, {p.id: o for p, o in zip(layer.outputs, outs)}, frames, code.name)  # type: ignore[misc]
        return outs

    # -- TensorIterator / Loop, shared by both drivers -----------------------------------------------
    def start_loop(self, code: LoopCode, args: list[np.ndarray]) -> LoopRun:
        """Slice, count and set up the outputs of one execution (what `irlint.controlflow` says)."""
        layer, plan = code.layer, code.plan
        is_loop = plan.is_loop
        if code.moved is not None and layer.path not in self.remapped:  # once per layer and run
            self.remapped.add(layer.path)
            warnings.warn(DepartureWarning(code.moved), stacklevel=3)
        outer = {p.id: a for p, a in zip(layer.inputs, args)}
        slices, counts = self.slices(layer, code.sliced, outer) if code.sliced else ({}, [])
        if not all(code.counted):  # a Loop's sliced input nothing reads: OpenVINO removes it (LoopCode.counted)
            counts = [c for c, counts_it in zip(counts, code.counted) if counts_it]
        if not is_loop and len({n for n, _ in counts}) > 1:
            raise ExecutionError(f"{layer.describe()}: sliced inputs give different iteration counts "
                                 f"{[n for n, _ in counts]}", layer)
        trip = first = None
        if is_loop:
            trip = scalar_value(outer.get(TRIP_COUNT_PORT))
            first = scalar_flag(outer.get(CONDITION_PORT))
        bound = iteration_bound(is_loop, counts, trip, first, sliced=bool(code.sliced),
                                unsliced=1 if code.sliced or is_loop else plan.unsliced_count)
        limit = concrete_limit(bound, is_loop)
        unbounded = is_loop and bound.limit is None
        state = {}
        for pe in code.states:
            if pe.port not in outer:
                raise ExecutionError(f"{layer.describe()}: a port_map entry reads input port {pe.port}, which the "
                                     f"layer does not have", layer)
            state[pe.body_layer] = outer[pe.port]
        buffers = {}
        if code.concat_outputs:
            count = None if is_loop else int(limit)
            for pe, _slot in code.concat_outputs:
                buffers[pe.port] = ConcatBuffer(layer, pe, count, limit, self.axis_of(layer, pe.entry),
                                                self.allocate, self.options.memory_budget)
        # The `state` dict is kept as the events show it when someone reads params as a dict.
        if self.listener is not None:
            keep_state = code.param_keys is None
        else:
            keep_state = self.listening
        run = LoopRun(code, limit, unbounded, state, slices, buffers, keep_state)  # type: ignore[arg-type]
        if not is_loop:
            return run
        run.entry_false = first is False
        if counts and bound.limit is not None and (trip is None or trip < 0 or trip > bound.limit):
            run.short_slices = (f"the trip count {trip}" if trip is not None and trip >= 0 else "no trip count") + \
                f" but {bound.limit} slices ({bound.source})"
        run.trip = math.inf if trip is None or trip < 0 else int(trip)
        port = self.condition_state_port(layer)  # (decided once per layer)
        if port is not None and scalar_flag(outer.get(port)) is True and math.isfinite(run.trip):
            self.sized_for_trip[id(run)] = int(run.trip)
        if code.sliced:
            run.cpu_slices = fewest_loop_slices([
                LoopSlices(pe.port, slices[pe.body_layer][2].dim, slices[pe.body_layer][1],
                           1 if pe.entry.stride is None else pe.entry.stride)
                for pe, counts_it in zip(code.sliced, code.counted) if counts_it and pe.body_layer in slices])
        return run

    def checkpoint(self, run: LoopRun, k: int, charged: int) -> tuple[int, int]:
        """Before iteration `k` (0: before the first): charge the run's body budget with the iterations up
        to `k` (`charged` of them are already), stop the run (ExecutionError) when a bound is reached, and
        return (the iteration count of the next checkpoint, the iterations now charged). A body holding a
        loop or If checks in before every iteration and charges it in advance, so that its nested loops see
        an exact count (the loop's end refunds an iteration charged but not run); any other body every
        `CHECK_EVERY` iterations."""
        self.runs_left -= k - charged
        opts = self.options
        layer = run.code.layer
        if k >= opts.max_iterations:
            self.too_many(run, k)
        if self.runs_left <= 0:
            raise ExecutionError(f"the run reached --max-body-runs {opts.max_body_runs} body executions (the "
                                 f"iterations of every Loop and TensorIterator, nested ones included) in "
                                 f"{layer.describe()} after {k} of its iterations; raise --max-body-runs if "
                                 "the model needs more", layer, "RUN-ITERATIONS")
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise ExecutionError(f"the run exceeded --time-limit {opts.time_limit:g} s in {layer.describe()} "
                                 f"after {k} of its iterations; raise --time-limit if the model needs longer",
                                 layer, "RUN-TIME")
        body = run.code.body
        leaf = self.leaf.get(id(body))
        if leaf is None:
            leaf = self.leaf[id(body)] = not any(i.kind in (LOOP, BRANCH) for i in body.order)
        if not leaf:
            self.runs_left -= 1
            return k + 1, k + 1
        return k + min(CHECK_EVERY, self.runs_left, opts.max_iterations - k), k

    def too_many(self, run: LoopRun, k: int) -> None:
        layer = run.code.layer
        why = "without its condition becoming false" if run.unbounded else f"of {run.limit}"
        raise ExecutionError(f"{layer.describe()} ran {k} iterations {why} "
                             f"(--max-iterations {self.options.max_iterations})", layer, "RUN-ITERATIONS")

    def finish(self, run: LoopRun, k: int) -> tuple[tuple[np.ndarray, ...], dict[int, np.ndarray]]:
        """The outputs after `k` iterations, in the layer's port order and by port (for BodyLeft)."""
        code = run.code
        layer = code.layer
        assert layer.body is not None
        result: dict[int, np.ndarray] = {}
        never = run.entry_false and self.never_runs(layer)
        for pe, _slot in code.outputs:
            port = pe.port
            assert port is not None
            buf = run.buffers.get(port)
            if buf is not None:
                try:
                    result[port] = buf.result(lambda parts, pe=pe: self.concatenate(layer, layer.body, pe, parts))
                except RaggedParts:
                    if port in self.outputs_read(layer):
                        raise
                    # OpenVINO removes an output nothing reads before its plugin looks at it
                    # (RemoveMultiSubGraphOpDanglingParamsResults): no value is owed for it
                    result[port] = np.zeros(0, buf.dtype or np.float32)
            elif port in run.last:
                result[port] = run.last[port]
            else:  # zero iterations: the initial value of the merged input this Result feeds back to
                result[port] = self.zero_iteration_value(run, pe, warn=not never)
        if k == 0 and code.plan.is_loop and not never and run.buffers:
            warnings.warn(DepartureWarning(
                f"{layer.describe()}: zero iterations: its concatenated output port(s) "
                f"{', '.join(str(p) for p in run.buffers)} are empty, as the spec says; OpenVINO's CPU plugin returns "
                "the previous inference's value from a used infer request, and uninitialised memory when its core "
                "fixed the output's shape from the trip count"), stacklevel=2)
        if never:
            for pe, _slot in code.outputs:  # as OpenVINO's core declares them (docs/semantics.md)
                v = result[pe.port]  # type: ignore[index]
                shape = never_run_shape(pe.kind is CONCAT, v.shape, 0, True)
                result[pe.port] = v if shape == v.shape else np.zeros(shape, v.dtype)  # type: ignore[index]
        checks = code.cpu_checks  # decided once per layer (`loop_code`): most loops need no look
        if checks == ALL_CPU_CHECKS or (checks == REGULAR_CPU_CHECKS and not run.regular(k)):
            self.cpu_departures(run, result)
        sized = self.sized_for_trip.pop(id(run), None)
        if sized is not None and k < sized:
            ports = [pe.port for pe, _slot in code.outputs
                     if pe.kind is CONCAT and pe.port in self.outputs_read(layer)]
            if ports:
                warnings.warn(DepartureWarning(
                    f"{layer.describe()}: ran {k} of its trip count {sized}, stopped by its body condition, a state "
                    "that starts as a constant true; OpenVINO's core takes that condition as always true and declares "
                    f"concatenated output port(s) {', '.join(map(str, ports))} for {sized} iterations, and the CPU "
                    f"plugin returns {sized} parts, the last {sized - k} unwritten (zeros measured), where the spec "
                    f"gives {k}"), stacklevel=2)
        if run.cpu_slices is not None:
            self.loop_slices_departure(run, k)
        return tuple(result[p.id] for p in layer.outputs), result  # type: ignore[index]

    def loop_slices_departure(self, run: LoopRun, k: int) -> None:
        """Warn where OpenVINO's CPU plugin runs out of a sliced input's parts: it cuts them |stride| long
        (irlint part_size long) and, where irlint stopped after its own last slice with the body condition
        still true, goes on to the trip count."""
        layer = run.code.layer
        short = bool(run.short_slices) and run.exhausted and k == run.limit
        plugin_runs = run.trip if short else k
        fewest = run.cpu_slices
        if fewest is None or plugin_runs <= fewest.count:
            return
        if short and fewest.count == k:  # the plugin has irlint's slices and fails where irlint stopped
            warnings.warn(DepartureWarning(
                f"{layer.describe()}: stopped after {k} iterations with the body condition still true: "
                f"{run.short_slices}; OpenVINO's CPU plugin fails here (\"Check 'iter >= 0 && iter < iter_count' "
                "failed\")"), stacklevel=3)
            return
        msg = loop_slices_departure(layer, k, plugin_runs, fewest)
        if msg is not None:
            warnings.warn(DepartureWarning(msg), stacklevel=3)

    def cpu_departures(self, run: LoopRun, result: Mapping[int, np.ndarray]) -> None:
        """Warn where OpenVINO's CPU plugin refuses this execution at inference (`irlint.interp.cpuloops`)."""
        code = run.code
        layer = code.layer
        counted: list[CountedEntry] = []
        otherwise: list[str] = []  # sliced inputs of a dim known only now that the plugin reads otherwise
        inputs_static = True
        for pe in code.sliced:
            got = run.slices.get(pe.body_layer)
            if got is None:
                continue
            _arr, axis, spec = got
            port = layer.input(pe.port) if pe.port is not None else None
            shape = port.shape if port is not None else None
            static = shape is not None and axis < len(shape) and shape[axis].value is not None
            inputs_static &= static
            if not static and not code.plan.is_loop:
                other = sliced_departure(layer, f"input port {pe.port}", axis, spec)
                otherwise += [other] if other is not None else []
            e = pe.entry
            counted.append(CountedEntry(f"input port {pe.port}", spec.dim, e.start, e.end, e.stride))
        concats: list[str] = []
        read = self.outputs_read(layer)
        for pe, _slot in code.outputs:
            buf = run.buffers.get(pe.port)  # type: ignore[arg-type]
            value = result.get(pe.port)  # type: ignore[arg-type]
            if buf is None or value is None or value.ndim == 0 or pe.port not in read:
                continue  # OpenVINO removes an output nothing reads before its CPU plugin looks at it
            e = pe.entry
            axis = self.axis(layer, e, value.ndim)
            msg = concat_departure(layer, pe.port, e.stride, buf.n, value.shape[axis])
            if msg is not None:
                concats.append(msg)
            # OpenVINO's core then declares the output's length; without a sliced input it counts the
            # iterations from the raw attributes, and a count of 0 declares a length of 0, which the plugin refuses
            if inputs_static and (buf.n > 0 or not code.plan.sliced_inputs):
                counted.append(CountedEntry(f"output port {pe.port}", value.shape[axis], e.start, e.end, e.stride))
        # The plugin counts a TensorIterator's iterations before running it, and concatenates while it runs.
        msg = count_departure(layer, counted) if not code.plan.is_loop and counted else None
        msg = msg or (concats[0] if concats else None) or (otherwise[0] if otherwise else None)
        if msg is not None:
            warnings.warn(DepartureWarning(msg), stacklevel=3)

    def zero_iteration_value(self, run: LoopRun, pe: PlanEntry, warn: bool = True) -> np.ndarray:
        """A last-value output after zero iterations: the initial value of the merged input its Result
        feeds back to; without one, zeros of the Result's declared shape (its dynamic dims 0), with a
        warning: OpenVINO's CPU plugin returns uninitialised memory there."""
        layer = run.code.layer
        target = zero_iteration_source(run.code.plan, pe)
        if target is not None and target in run.state:
            return run.state[target]
        res = layer.body.layer(pe.body_layer) if layer.body is not None else None
        port = res.inputs[0] if res is not None and res.inputs else None
        out = layer.output(pe.port)
        shape = out.shape if out is not None and out.shape is not None else port.shape if port is not None else None
        etype = (out.precision if out is not None and out.precision is not None
                 else port.precision if port is not None else None)
        if shape is None or etype is None or etype.dtype is None:
            raise ExecutionError(f"{layer.describe()}: output port {pe.port} has no value after zero iterations "
                                 "and no declared shape to give it one", layer)
        if warn:
            warnings.warn(DepartureWarning(
                f"{layer.describe()}: output port {pe.port} has no value after zero iterations (no merged input "
                "feeds it): irlint gives zeros; OpenVINO's CPU plugin returns uninitialised memory (measured: "
                "zeros, denormal garbage, or the previous inference's value)"), stacklevel=2)
        return np.zeros([d.value if d.value is not None else 0 for d in shape], etype.dtype)

    def outputs_read(self, layer: Layer) -> frozenset[int | None]:
        """The output ports of `layer` that an edge leaves (in the graph that holds it)."""
        got = self.read_outputs.get(layer.path)
        if got is None:
            got = frozenset()
            for graph in self.model.graphs():
                if any(la is layer for la in graph.layers):
                    index = GraphIndex.build(graph)
                    got = frozenset(p.id for p in layer.outputs if index.edges_out(layer.id, p.id))
                    break
            self.read_outputs[layer.path] = got
        return got

    def condition_state_port(self, layer: Layer) -> int | None:
        """For a Loop whose trip count is a Const and whose body condition Result reads a merged body Parameter
        fed by a Const, the input port of that Parameter (else None). OpenVINO's core reads such a condition
        from the Parameter's initial value (src/core/src/op/loop.cpp, `Loop::validate_and_infer_types`): a
        true one makes it "always true", and concatenated outputs are declared for the full trip count."""
        if layer.path in self.condition_states:
            return self.condition_states[layer.path]
        got = None
        plan, body = loop_plan(layer), layer.body
        cond = plan.condition
        res = body.layer(cond.body_layer) if body is not None and cond is not None else None
        if res is not None and res.inputs:
            e = GraphIndex.build(body).source(res.id, res.inputs[0].id)
            state = next((pe for pe in plan.state_inputs if e is not None and pe.body_layer == e.from_layer
                          and pe.back_edge is not None), None)
            for graph in self.model.graphs() if state is not None else ():
                if any(la is layer for la in graph.layers):
                    index = GraphIndex.build(graph)
                    srcs = [index.source(layer.id, p) for p in (TRIP_COUNT_PORT, state.port)]
                    if all(x is not None and (g := graph.layer(x.from_layer)) is not None and g.type == "Const"
                           for x in srcs):
                        got = state.port
                    break
        self.condition_states[layer.path] = got
        return got

    def never_runs(self, layer: Layer) -> bool:
        """True for a Loop whose execution condition (input port 1) comes from a Const: run zero times,
        its outputs take the shapes OpenVINO's core declares for it."""
        got = self.constant_conditions.get(layer.path)
        if got is None:
            got = False
            for graph in self.model.graphs():
                if any(la is layer for la in graph.layers):
                    edge = GraphIndex.build(graph).source(layer.id, CONDITION_PORT)
                    src = graph.layer(edge.from_layer) if edge is not None else None
                    got = src is not None and src.type == "Const"
                    break
            self.constant_conditions[layer.path] = got
        return got

    def slices(self, layer: Layer, sliced: Sequence[PlanEntry], outer: Mapping[int | None, np.ndarray]
               ) -> tuple[dict[int | None, tuple[np.ndarray, int, SliceSpec]], list[tuple[int, str]]]:
        """Each sliced input's array, axis and resolved slicing, and the iteration counts they give."""
        slices: dict[int | None, tuple[np.ndarray, int, SliceSpec]] = {}
        counts: list[tuple[int, str]] = []
        for pe in sliced:
            e = pe.entry
            if e.external_port_id not in outer:
                raise ExecutionError(f"{layer.describe()}: a port_map entry reads input port {e.external_port_id}, "
                                     f"which the layer does not have", layer)
            arr = outer[e.external_port_id]
            axis = self.axis(layer, e, arr.ndim)
            try:
                spec = resolve_entry(arr.shape[axis], layer.type == "Loop", e.start, e.end, e.stride, e.part_size)
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

    def axis_of(self, layer: Layer, e: PortMapEntry) -> Callable[[int], int]:
        return lambda rank: self.axis(layer, e, rank)

    def concatenate(self, layer: Layer, body: Graph, pe: PlanEntry, parts: list[np.ndarray]) -> np.ndarray:
        """Collected parts (already in concatenation order, rank 0 made rank 1) joined; none: the empty output."""
        e = pe.entry
        if parts:
            axis = self.axis(layer, e, parts[0].ndim)
            total = sum(p.nbytes for p in parts)
            self.budget(layer, total)
            first = parts[0].shape[:axis] + parts[0].shape[axis + 1:]
            for k, p in enumerate(parts):
                if p.ndim != parts[0].ndim or p.shape[:axis] + p.shape[axis + 1:] != first:
                    raise RaggedParts(
                        f"{layer.describe()}: output port {pe.port} concatenates parts that differ "
                        f"off the axis {axis}: iteration 0 gives {list(parts[0].shape)}, the part at {k} gives "
                        f"{list(p.shape)}, so they cannot be joined (the spec requires equal parts); OpenVINO's CPU "
                        "plugin sizes its buffer from the first part and returns memory it did not write", layer,
                        "RUN-CONCAT")
            return np.concatenate(parts, axis=axis)
        res = body.layer(e.internal_layer_id)
        info = declared_info(res) if res is None else TensorInfo(
            res.inputs[0].precision if res.inputs else None, res.inputs[0].shape if res.inputs else None)
        if info.shape is None or info.etype is None or info.etype.dtype is None:
            info = self.inferred_output(layer, pe.port)  # the port says nothing: as OpenVINO infers it
        if info.shape is None or info.etype is None or info.etype.dtype is None:
            raise ExecutionError(f"{layer.describe()}: cannot shape the empty scan output {pe.port}",
                                 layer)
        shape = [d.value if d.value is not None else 0 for d in info.shape] or [1]
        shape[self.axis(layer, e, len(shape))] = 0
        return np.zeros(shape, info.etype.dtype)


def _finished(frames: Frames) -> None:
    raise ExecutionError("the run is over: its programs were released")


def _etype(a: np.ndarray):  # type: ignore[no-untyped-def]
    try:
        return from_dtype(a.dtype)
    except KeyError:
        return None
