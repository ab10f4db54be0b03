"""A TensorIterator/Loop compiled against its body's program, and the state of one execution of it.

`LoopCode` is built once per layer from `irlint.controlflow`'s plan (never re-derived here): which
slot each body Parameter is filled from (state, slice, current iteration), where the condition and
every output are read, and the back edges as slot copies. `ConcatBuffer` assembles a concatenated
output by writing each iteration's part in place into a buffer sized for the iterations (grown
geometrically while a Loop's count is unknown) instead of collecting parts and concatenating.
Both drivers of the executor — the plain one and the event generator — use these, so they cannot
differ in what a loop means.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

import numpy as np

from irlint.controlflow import (
    EntryKind,
    LoopPlan,
    PlanEntry,
    concat_order,
    iteration_value,
    iteration_values,
    loop_plan,
)
from irlint.controlflow.liveness import read_layers
from irlint.controlflow.outputs import order_departure
from irlint.controlflow.values import CACHED_ITERATIONS
from irlint.interp.cpuloops import LoopSlices
from irlint.interp.errors import ExecutionError
from irlint.interp.events import FIXED, FRESH
from irlint.interp.program import OP, Instr, Program, program_for, slot_getter
from irlint.ir.declared import declared_info
from irlint.ir.model import Layer
from irlint.ops.rnn.cells import CellKernel
from irlint.types import shape_values

# How a body Parameter receives its value in each iteration.
FROM_STATE, FROM_SLICE, FROM_ITERATION, UNFED = 0, 1, 2, 3
# Recurrent cells whose input projection x·Wᵀ can be computed for every iteration before the loop, and
# the ops that only give x another shape (the same elements in the same order) on its way to the cell.
CELLS = frozenset({"LSTMCell", "GRUCell", "RNNCell"})
RESHAPES = frozenset({"Squeeze", "Unsqueeze", "Reshape"})


# What `LoopCode.cpu_checks` says: no entry the plugin could refuse (no concatenated output, and for a
# TensorIterator no sliced input); every entry whole-range in steps of one (start 0, end -1, stride 1,
# part_size 1, attributes left out included), which the plugin reads as the spec does, so only parts
# of another length than one can make it refuse (`LoopRun.regular`); anything else.
NO_CPU_CHECKS, REGULAR_CPU_CHECKS, ALL_CPU_CHECKS = 0, 1, 2


@dataclass(frozen=True, slots=True)
class LoopCode:
    layer: Layer
    plan: LoopPlan
    body: Program
    fed: tuple[tuple[Layer, int | None, int], ...]  # body Parameter, its slot (None: no output), FROM_*
    has_cur: bool  # a Loop with a current_iteration input
    cur_pid: int | None
    cur_dtype: np.dtype | None
    cur_rank: int | None
    cur_slots: tuple[int, ...]  # the body slots the current_iteration value goes to
    cond_slot: int | None  # Loop: the slot holding the body condition
    outputs: tuple[tuple[PlanEntry, int], ...]  # data output entry, slot of its Result's value
    back_slots: tuple[tuple[int, int], ...]  # (body Parameter slot, Result source slot) for fast runs
    back_swap: bool  # a back edge reads a slot another one writes: read them all before writing
    back_results: tuple[tuple[int | None, int], ...]  # (body Parameter id, Result slot): the `state` updates
    # For listeners: the keys of IterationStarted.params and IterationFinished.results and a getter of their
    # values from the slots. `param_keys` is None when the params cannot be read from slots alone (an entry
    # names no body Parameter, or a back edge adds a key after the first iteration): then `LoopRun.params`.
    param_keys: tuple[int | None, ...] | None
    param_values: Callable[[list], tuple] | None
    result_keys: tuple[int | None, ...]
    result_values: Callable[[list], tuple]
    # TensorIterator bodies: cells whose X is a sliced body Parameter (directly or through a reshape), with
    # that Parameter's id; their input projections are computed for all iterations at once (`ProjectedCell`).
    hoists: tuple[tuple[Instr, int | None], ...] = ()
    # The plan's sliced and state (merged, invariant) inputs, read once per execution.
    sliced: tuple[PlanEntry, ...] = ()
    states: tuple[PlanEntry, ...] = ()
    # Back edges into a Parameter declared [] or [1]. A one-element value of the
    # other rank takes the Parameter's shape, as OpenVINO carries it (docs/semantics.md, "Where two
    # shapes meet").
    back_one: tuple[tuple[int, int | None, tuple[int, ...]], ...] = ()  # (slot, Parameter id, shape)
    # Per sliced input, whether it counts iterations: a Loop's input whose body Parameter nothing reads
    # does not (OpenVINO removes it and runs the trip count).
    counted: tuple[bool, ...] = ()
    # Which of the CPU plugin's run-time refusals (`irlint.interp.cpuloops`) an execution must look for,
    # decided once from the port map (`cpu_checks`): NO_CPU_CHECKS, REGULAR_CPU_CHECKS or ALL_CPU_CHECKS.
    cpu_checks: int = ALL_CPU_CHECKS
    # Read at every execution, so made once: the output entries that concatenate (with their Result's
    # slot), the (port, slot) of those that give the last value, and the warning that OpenVINO gives the
    # output entries the layer's ports in another order (`order_departure`; None when it does not).
    concat_outputs: tuple[tuple[PlanEntry, int], ...] = ()
    finals: tuple[tuple[int | None, int], ...] = ()
    moved: str | None = None



_CODE: weakref.WeakKeyDictionary[Layer, LoopCode] = weakref.WeakKeyDictionary()


def loop_code(layer: Layer) -> LoopCode:
    """The compiled form of a TensorIterator/Loop layer (once per layer object)."""
    code = _CODE.get(layer)
    if code is not None:
        return code
    assert layer.body is not None
    plan = loop_plan(layer)
    body = program_for(layer.body)
    cur = plan.current_iteration
    sliced = {pe.body_layer for pe in plan.sliced_inputs}
    state = {pe.body_layer for pe in plan.state_inputs}
    read = {e.from_layer for e in layer.body.edges}
    fed = []
    for p in body.param_layers:
        if cur is not None and p.id == cur.body_layer:
            how = FROM_ITERATION
        elif p.id in sliced:
            how = FROM_SLICE
        elif p.id in state:
            how = FROM_STATE
        elif p.id in read:
            how = UNFED
        else:
            continue  # fed by nothing and read by nothing: PM407 warns, the body runs without it
        fed.append((p, body.params.get(p.id), how))
    cur_decl = declared_info(layer.body.layer(cur.body_layer)) if cur is not None else None  # type: ignore[arg-type]
    cur_dtype = cur_decl.etype.dtype if cur_decl is not None and cur_decl.etype is not None else None
    cur_rank = cur_decl.rank if cur_decl is not None else None

    def result_slot(pe: PlanEntry, what: str) -> int:
        slot = body.result_slots.get(pe.body_layer)
        if slot is None:
            raise ExecutionError(f"{layer.describe()}: {what} reads body layer {pe.body_layer}, which is not a "
                                 f"Result with an input", layer)
        return slot

    cond = plan.condition if plan.is_loop else None
    cond_slot = result_slot(cond, "the execution condition") if cond is not None else None
    outputs = tuple((pe, result_slot(pe, f"output port {pe.port}")) for pe in plan.data_outputs)
    produced = {pe.port for pe, _ in outputs}
    for port in layer.outputs:
        if port.id not in produced:
            raise ExecutionError(f"{layer.describe()}: output port {port.id} is produced by no port_map entry", layer)
    back_results = tuple((pid, body.result_slots[rid]) for pid, rid in plan.back.items() if rid in body.result_slots)
    back_slots = tuple((body.params[pid], src) for pid, src in back_results
                       if pid in body.params and pid in state and pid not in sliced
                       and (cur is None or pid != cur.body_layer))
    back_swap = bool({d for d, _ in back_slots} & {s for _, s in back_slots})
    # The order IterationStarted.params has (a dict built as state, then slices, then the iteration).
    keys = dict.fromkeys(pe.body_layer for pe in plan.state_inputs)
    keys.update(dict.fromkeys(pe.body_layer for pe in plan.sliced_inputs))
    if cur is not None:
        keys[cur.body_layer] = None
    simple = all(k in body.params for k in keys) and all(pid in state for pid, _ in back_results)
    param_keys = tuple(keys) if simple else None
    result_keys = tuple(body.result_slots)
    code = LoopCode(layer, plan, body, tuple(fed), cur is not None, cur.body_layer if cur is not None else None,
                    cur_dtype, cur_rank,
                    tuple(slot for _p, slot, how in fed if how == FROM_ITERATION and slot is not None),
                    cond_slot, outputs, back_slots, back_swap, back_results, param_keys,
                    slot_getter([body.params[k] for k in keys]) if simple else None, result_keys,
                    slot_getter(list(body.result_slots.values())),
                    () if plan.is_loop else hoistable(body, sliced), tuple(plan.sliced_inputs),
                    tuple(plan.state_inputs), _one_element_params(layer, back_slots, body),
                    _counted(plan.is_loop, plan.sliced_inputs, body),
                    cpu_checks(plan.is_loop, plan.sliced_inputs, [pe for pe, _s in outputs if pe.kind is CONCAT]),
                    tuple((pe, slot) for pe, slot in outputs if pe.kind is CONCAT),
                    tuple((pe.port, slot) for pe, slot in outputs if pe.kind is not CONCAT),
                    order_departure(layer, layer.port_map, layer.describe()) or None)
    _CODE[layer] = code
    return code


def cpu_checks(is_loop: bool, sliced: Sequence[PlanEntry], concats: Sequence[PlanEntry]) -> int:
    """`LoopCode.cpu_checks` from the sliced inputs and concatenated outputs of a TensorIterator/Loop."""
    entries = [*concats] if is_loop else [*sliced, *concats]
    if not entries:
        return NO_CPU_CHECKS  # (a Loop's sliced inputs matter only to the plugin's slice count: `LoopRun.trip`)
    whole = all(e.entry.start in (None, 0) and e.entry.end in (None, -1) and e.entry.stride in (None, 1)
                and e.entry.part_size in (None, 1) for e in entries)
    return REGULAR_CPU_CHECKS if whole else ALL_CPU_CHECKS


def _counted(is_loop: bool, sliced: Sequence[PlanEntry], body: Program) -> tuple[bool, ...]:
    read = read_layers(body.graph) if is_loop else set()
    return tuple(not is_loop or pe.body_layer in read for pe in sliced)


def _one_element_params(layer: Layer, back_slots: tuple[tuple[int, int], ...], body: Program
                        ) -> tuple[tuple[int, int | None, tuple[int, ...]], ...]:
    """The back-edge targets declared [] or [1], with their slots, ids and shapes."""
    assert layer.body is not None
    by_slot = {slot: pid for pid, slot in body.params.items()}
    out = []
    for dst, _src in back_slots:
        param = layer.body.layer(by_slot.get(dst))
        shape = shape_values(declared_info(param).shape) if param is not None else None
        if param is not None and shape in ((), (1,)):
            out.append((dst, param.id, shape))
    return tuple(out)


# The slots a batch records, their `io_layout` and their getter: static per loop code, and a short traced
# run binds its loops afresh each time. Kept per loop layer, with the code they were made for.
BatchPlan = tuple[list[int], tuple[int, ...], Callable[[list], tuple]]
_BATCH_PLANS: weakref.WeakKeyDictionary[Layer, tuple[LoopCode, BatchPlan]] = weakref.WeakKeyDictionary()


def batch_plan(code: LoopCode, constants: Collection[int]) -> BatchPlan:
    """The body slots of a batch's records (the Parameters of `param_keys`, then the Results), their
    `io_layout` and one getter of their values; `constants`: the body's slots holding constants (the
    same for every binding of the body: its Const layers)."""
    got = _BATCH_PLANS.get(code.layer)
    if got is None or got[0] is not code:
        program = code.body
        slots = [program.params[k] for k in code.param_keys or ()] + list(program.result_slots.values())
        got = _BATCH_PLANS[code.layer] = (code, (slots, io_layout(code, slots, constants), slot_getter(slots)))
    return got[1]


def io_layout(code: LoopCode, slots: list[int], constants: Collection[int]) -> tuple[int, ...]:
    """The batch layout (irlint.interp.events) of the records the plain driver keeps per iteration: the
    values of `slots` (the Parameters of `param_keys`, then the Results), `constants` the body's slots
    holding constants. What makes it exact: a current-iteration value comes from one table of one type
    and rank; an invariant input's slot is filled once per run (`enter`) and a back edge's target only
    by `advance`, with its Result's value itself (or, into a Parameter declared [] or [1], that value
    reshaped: a new array each iteration); no op writes a Parameter's or a constant's slot."""
    params = code.param_keys or ()
    n = len(params)
    at: dict[int, int] = {}
    for i, slot in enumerate(slots[n:], n):
        at.setdefault(slot, i)
    carried = {dst: at.get(src, FRESH) for dst, src in code.back_slots}  # (a back edge reads a Result: in `at`)
    carried.update((dst, FRESH) for dst, _pid, _shape in code.back_one)  # may be reshaped: a new array
    sliced = {pe.body_layer for pe in code.sliced}
    layout = []
    for pid, slot in zip(params, slots):
        if code.has_cur and pid == code.cur_pid:
            layout.append(FIXED)
        elif pid in sliced:
            layout.append(FRESH)
        else:  # state: carried by a back edge, else invariant
            layout.append(carried.get(slot, FIXED))
    layout.extend(FIXED if slot in constants else FRESH for slot in slots[n:])
    return tuple(layout)


def hoistable(body: Program, sliced: set[int | None]) -> tuple[tuple[Instr, int | None], ...]:
    """The body's cells whose X input is, in every iteration, a sliced Parameter's part (directly or
    reshaped by one Squeeze/Unsqueeze/Reshape, which keeps the elements in order): a plan-time rewrite
    computes their x·Wᵀ for all iterations in one matrix product (a TensorIterator runs all its
    iterations, so none of it is wasted; a Loop may stop early and is left alone)."""
    by_slot = {slot: pid for pid, slot in body.params.items() if pid in sliced}
    producer = {d: i for i in body.order if i.kind == OP for d in i.dsts}
    found = []
    for instr in body.order:
        if instr.kind != OP or instr.layer.type not in CELLS or not instr.srcs:
            continue
        x = instr.srcs[0]
        via = producer.get(x)
        if via is not None and via.layer.type in RESHAPES and via.srcs:
            x = via.srcs[0]
        if x in by_slot:
            found.append((instr, by_slot[x]))
    return tuple(found)


class ProjectedCell:
    """A cell's kernel whose input projections x_k·Wᵀ of one TensorIterator execution were computed
    before its first iteration (`LoopRun.enter`); iteration k (`at`, set by `LoopRun.fill`/`params`,
    which both drivers call) runs only the rest of the step. The layer still runs every iteration
    with the same inputs and outputs; an x of another shape than planned falls back to the whole step."""

    __slots__ = ("at", "cell", "projections", "rows", "x_shape")

    def __init__(self, cell: CellKernel) -> None:
        self.cell = cell
        self.projections: np.ndarray | None = None
        self.rows = 0
        self.x_shape: tuple[int, ...] = ()
        self.at = 0

    def __call__(self, args: list[np.ndarray]) -> list[np.ndarray]:
        x = args[0]
        if self.projections is None or x.shape != self.x_shape:
            return self.cell(args)
        lo = self.at * self.rows
        return self.cell.step(self.projections[lo:lo + self.rows], args)

    def plan(self, arr: np.ndarray, prefix: tuple[slice, ...], spec: object, count: int, max_bytes: int) -> None:
        """All `count` parts of the sliced input, each read as the cell's [rows, input] x, projected at once
        (not when a part does not hold whole rows, or the projections would exceed the memory budget)."""
        self.projections = None
        width = self.cell.wt.shape[0]
        if count <= 0:
            return
        lo, hi = spec.bounds(0)  # type: ignore[attr-defined]
        size = arr[(*prefix, slice(lo, hi))].size
        if size == 0 or size % width:
            return
        self.rows = size // width
        gates = self.cell.wt.shape[1]
        if count * self.rows * gates * self.cell.dtype.itemsize > max_bytes:
            return
        parts = []
        for k in range(count):
            lo, hi = spec.bounds(k)  # type: ignore[attr-defined]
            parts.append(arr[(*prefix, slice(lo, hi))].reshape(-1))
        stacked = np.stack(parts).reshape(count * self.rows, width)
        self.x_shape = (self.rows, width)
        self.projections = self.cell.project(stacked)  # one product: one start of BLAS's threads


def _walk(spec: object) -> tuple[int, int, int]:
    """(first, step, part size): iteration k's part starts at first + k * step (`SliceSpec.bounds`)."""
    first = spec.bounds(0)[0]  # type: ignore[attr-defined]
    step = spec.bounds(1)[0] - first  # type: ignore[attr-defined]
    return first, step, spec.part_size  # type: ignore[attr-defined]


def take(arr: np.ndarray, prefix: tuple[slice, ...], lo: int, hi: int) -> np.ndarray:
    """Elements [lo, hi) along the axis after `prefix`, as a fresh C-ordered array (what np.take gives)."""
    return arr[(*prefix, slice(lo, hi))].copy()


Allocate = Callable[[Layer, tuple[int, ...], np.dtype], np.ndarray]


class ConcatBuffer:
    """One concatenated output, written in place: iteration k's part goes to its block of the buffer.

    `count` is the exact number of iterations when known before running (a TensorIterator), else None
    (a Loop: the buffer grows by doubling up to `limit`). A part that does not match the first one's
    shape and type (the body's shapes change between iterations) switches to collecting the parts and
    concatenating them at the end, exactly as before; so does a reversed output of unknown count.
    """

    __slots__ = (
        "allocate",
        "axis",
        "axis_of",
        "base",
        "buf",
        "cap",
        "count",
        "dtype",
        "entry",
        "layer",
        "limit",
        "max_bytes",
        "n",
        "parts",
        "plen",
        "reversed",
        "scalar",
        "shape",
        "sign",
        "view",
    )

    def __init__(self, layer: Layer, entry: PlanEntry, count: int | None, limit: float,
                 axis_of: Callable[[int], int], allocate: Allocate, max_bytes: int) -> None:
        self.layer = layer
        self.max_bytes = max_bytes
        self.entry = entry
        self.count = count
        self.limit = limit
        self.axis_of = axis_of
        self.allocate = allocate
        self.buf: np.ndarray | None = None
        self.parts: list[np.ndarray] | None = None
        self.n = 0
        self.scalar = False
        self.reversed = entry.reversed
        self.axis = self.plen = 0
        self.shape: tuple[int, ...] = ()
        self.dtype: np.dtype | None = None
        # The buffer seen as [capacity, *part shape] (`view[k]` is iteration k's block, whatever the axis),
        # how many parts it holds, and where part n goes: base + sign * n (a reversed output fills it
        # from the end). cap stays 0 while parts are collected instead.
        self.view: np.ndarray | None = None
        self.cap = 0
        self.base, self.sign = (count - 1, -1) if entry.reversed and count is not None else (0, 1)

    def add(self, value: np.ndarray) -> None:
        """Iteration n's part: written in place when it has the first part's shape and type (the fast
        path, one index and one copy), else handled by `add_other`."""
        n = self.n
        if n < self.cap and value.shape == self.shape and (value.dtype is self.dtype or value.dtype == self.dtype):
            self.view[self.base + self.sign * n] = value  # type: ignore[index]
            self.n = n + 1
        else:
            self.add_other(value)

    def add_other(self, value: np.ndarray) -> None:
        if self.n == 0 and self.parts is None:
            self.scalar = value.ndim == 0
        if self.scalar:
            value = value.reshape(1)
        if self.parts is not None:
            self.parts.append(value)
        elif self.buf is None:
            if self.reversed and self.count is None:
                self.parts = [value]
            else:
                self.start(value)
        elif value.shape != self.shape or value.dtype != self.dtype:
            self.parts = self.written()
            self.parts.append(value)
            self.buf = self.view = None
            self.cap = 0
        else:
            self.put(value)
        self.n += 1

    def start(self, value: np.ndarray) -> None:
        self.axis = self.axis_of(value.ndim)
        self.shape, self.dtype, self.plen = value.shape, value.dtype, value.shape[self.axis]
        if self.plen == 0:  # empty parts: nothing to place, collect them
            self.parts = [value]
            return
        capacity = self.count if self.count is not None else self.capacity(64, 1)
        self.buf = self.alloc(max(capacity, 1))
        self.put(value)

    def capacity(self, want: float, need: int) -> int:
        """Room for `want` parts, at most `limit`, and no more than the budget holds (but `need` at least:
        then the allocation itself refuses, as the concatenation would have)."""
        per = math.prod(self.shape) * self.dtype.itemsize  # type: ignore[union-attr]
        want = min(want, self.limit)
        if per:
            want = min(want, max(need, self.max_bytes // per))
        return int(max(want, need))

    def alloc(self, capacity: int) -> np.ndarray:
        shape = list(self.shape)
        shape[self.axis] = self.plen * capacity
        buf = self.allocate(self.layer, tuple(shape), self.dtype)  # type: ignore[arg-type]
        # [..., capacity, plen, ...] (a view of the C-ordered buffer), the capacity axis moved first.
        blocks = buf.reshape((*self.shape[:self.axis], capacity, self.plen, *self.shape[self.axis + 1:]))
        self.view = blocks if self.axis == 0 else np.moveaxis(blocks, self.axis, 0)  # (moveaxis costs 5 us)
        self.cap = capacity
        return buf

    def block(self, k: int) -> tuple[slice, ...]:
        return (slice(None),) * self.axis + (slice(k * self.plen, (k + 1) * self.plen),)

    def put(self, value: np.ndarray) -> None:
        buf = self.buf
        assert buf is not None
        k = self.n
        capacity = buf.shape[self.axis] // self.plen
        if self.reversed:
            k = self.count - 1 - k  # type: ignore[operator]
        elif self.count is None and k >= capacity:
            grown = self.alloc(self.capacity(2 * capacity, k + 1))
            grown[self.block_range(capacity)] = buf
            self.buf = buf = grown
        self.view[k] = value  # type: ignore[index]

    def block_range(self, k: int) -> tuple[slice, ...]:
        return (slice(None),) * self.axis + (slice(0, k * self.plen),)

    def written(self) -> list[np.ndarray]:
        """The parts written so far, in iteration order (views of the buffer)."""
        assert self.buf is not None
        if self.reversed:
            return [self.buf[self.block(self.count - 1 - k)] for k in range(self.n)]  # type: ignore[operator]
        return [self.buf[self.block(k)] for k in range(self.n)]

    def result(self, concatenate: Callable[[list[np.ndarray]], np.ndarray]) -> np.ndarray:
        """The assembled output; `concatenate` joins collected parts (and shapes the empty output)."""
        if self.parts is not None or self.buf is None:
            return concatenate(concat_order(self.entry, self.parts or []))
        buf = self.buf
        if buf.shape[self.axis] == self.n * self.plen:
            return buf
        if self.reversed:  # a TensorIterator stopped early cannot happen; keep the written blocks
            return concatenate(concat_order(self.entry, self.written()))
        return np.ascontiguousarray(buf[self.block_range(self.n)])


class LoopRun:
    """One execution of a TensorIterator/Loop: its resolved slices, iteration limit, initial state and
    output buffers (built by the executor from the controlflow plan), and the per-iteration moves."""

    __slots__ = ("buffers", "code", "concats", "cpu_slices", "cur_slots", "entry_false", "events", "exhausted",
                 "fills", "finals", "iterations", "last", "limit", "parts", "projected", "reads", "short_slices",
                 "slices", "state", "trip", "unbounded")

    def __init__(self, code: LoopCode, limit: float, unbounded: bool, state: dict[int | None, np.ndarray],
                 slices: dict[int | None, tuple[np.ndarray, int, object]], buffers: dict[int | None, ConcatBuffer],
                 events: bool) -> None:
        self.code = code
        self.limit = limit
        self.unbounded = unbounded
        self.state = state  # body Parameter id -> value before the first iteration (then: as the events see it)
        self.slices = slices  # body Parameter id -> (array, axis, SliceSpec)
        self.buffers = buffers  # output port -> buffer of a concatenated output
        self.last: dict[int | None, np.ndarray] = {}
        self.events = events  # someone listens: keep `state` as the IterationStarted events show it
        self.parts: Sequence[tuple] = ()
        self.fills: Sequence[tuple] = ()
        self.reads: Sequence[tuple] = ()
        if slices:
            prefix = {pid: (slice(None),) * axis for pid, (_a, axis, _s) in slices.items()}
            self.parts = [(pid, arr, prefix[pid], spec) for pid, (arr, _axis, spec) in slices.items()]
            self.fills = [(slot, p.id, slices[p.id][0], prefix[p.id], slices[p.id][2]) for p, slot, how in code.fed
                          if how == FROM_SLICE and slot is not None]
            # `fill`'s form of the same: (slot, array, prefix or None for axis 0, first, step, part size);
            # part k is [first + k * step, + part size) along the axis, `SliceSpec.bounds` unrolled.
            self.reads = [(slot, arr, pre or None, *_walk(spec)) for slot, _pid, arr, pre, spec in self.fills]
        self.projected: list[ProjectedCell] = []
        # `advance`'s: (slot, buffer) of each concatenated output (`buffers` holds one for each), (port,
        # slot) of each last-value output.
        self.concats = [(slot, buffers[pe.port]) for pe, slot in code.concat_outputs] if buffers else ()
        self.finals = code.finals
        self.iterations: list[np.ndarray] = []  # the current-iteration values' table (`enter`, `current`)
        self.cur_slots = code.cur_slots
        # A Loop whose slices run out before its trip count (or without one): what stops it, for the
        # warning that OpenVINO's CPU plugin fails there; `exhausted`: the last iteration left the body
        # condition true, so the slices, not the condition, ended the loop.
        self.short_slices: str | None = None
        self.exhausted = False
        self.entry_false = False  # a Loop's execution condition (input port 1) was false
        # A Loop's trip count (inf: none or negative) and the sliced input the CPU plugin has the fewest
        # parts of (|stride| elements each), for the warning that it fails past them (`irlint.interp.cpuloops`).
        self.trip: float = math.inf
        self.cpu_slices: LoopSlices | None = None

    def enter(self, slots: list, projected: dict[int, ProjectedCell] | None = None, max_bytes: int = 0
              ) -> np.ndarray | None:
        """Before the first iteration: state Parameters take their initial values (an unfed one is an
        error) and the hoisted cells (`projected`: the bound body's, by id of their Instr) project this
        execution's inputs. Returns iteration 0's current-iteration value (None without one), which the
        current_iteration Parameters' slots take."""
        code = self.code
        for p, slot, how in code.fed:
            if how == UNFED:
                raise ExecutionError(f"{p.describe()} receives no value", p)
            if how == FROM_STATE and slot is not None:
                slots[slot] = self.state[p.id]
        if projected:
            for instr, pid in self.code.hoists:
                cell = projected.get(id(instr))
                if cell is not None and pid in self.slices:
                    arr, axis, spec = self.slices[pid]
                    cell.plan(arr, (slice(None),) * axis, spec, int(self.limit), max_bytes)
                    self.projected.append(cell)
        if not code.has_cur:
            return None
        self.iterations = iteration_values(code.cur_dtype, code.cur_rank, int(min(self.limit, 64)))
        value = self.iterations[0]
        for slot in code.cur_slots:
            slots[slot] = value
        return value

    def fill(self, slots: list, k: int) -> None:
        """The sliced Parameters' parts for iteration k (no listener: only those a Parameter reads), each
        a fresh C-ordered copy as `take` makes it."""
        for cell in self.projected:
            cell.at = k
        for slot, arr, prefix, first, step, size in self.reads:
            lo = first + k * step
            slots[slot] = arr[lo:lo + size].copy() if prefix is None else take(arr, prefix, lo, lo + size)

    def params(self, slots: list, k: int, value: np.ndarray | None) -> dict[int | None, np.ndarray]:
        """Iteration k's body Parameter values as the IterationStarted event shows them (state, then the
        slices, then the current iteration `value`); the Parameters' slots take the same arrays."""
        for cell in self.projected:
            cell.at = k
        params = dict(self.state)
        for pid, arr, prefix, spec in self.parts:  # every sliced input, also one no Parameter reads
            lo, hi = spec.bounds(k)  # type: ignore[attr-defined]
            params[pid] = take(arr, prefix, lo, hi)
        for slot, pid, *_ in self.fills:
            slots[slot] = params[pid]
        code = self.code
        if code.has_cur:
            params[code.cur_pid] = value  # type: ignore[assignment]
        return params

    def current(self, slots: list, k: int) -> np.ndarray:
        """Iteration k's current-iteration value (k >= 1), put into the current_iteration Parameters'
        slots: read from the table shared by every Loop (read-only arrays, grown by doubling as far as
        loops run, up to CACHED_ITERATIONS), else made."""
        values = self.iterations
        if k < len(values):
            value = values[k]
        else:
            code = self.code
            if k < CACHED_ITERATIONS:  # k == len(values): the table doubles
                values = self.iterations = iteration_values(code.cur_dtype, code.cur_rank, 2 * k)
            value = values[k] if k < len(values) else iteration_value(k, code.cur_dtype, code.cur_rank)
        for slot in self.cur_slots:
            slots[slot] = value
        return value

    def advance(self, slots: list, k: int, cond: bool | None) -> bool:
        """After an iteration (`k` have run, `cond` the body condition or None): each concatenated output
        takes its part, the last one gives the last values, and the back edges carry (each merged
        Parameter takes its Result's value, all read before any is written). True when the loop stops
        here. One call per iteration, for both drivers."""
        last = cond is False or k >= self.limit
        for slot, buf in self.concats:
            buf.add(slots[slot])
        if last:
            self.exhausted = cond is not False
            for port, slot in self.finals:
                self.last[port] = slots[slot]
        code = self.code
        if self.events:
            state = self.state
            for pid, src in code.back_results:
                state[pid] = slots[src]
        if code.back_swap:
            values = [slots[src] for _d, src in code.back_slots]
            for (dst, _s), v in zip(code.back_slots, values):
                slots[dst] = v
        else:
            for dst, src in code.back_slots:
                slots[dst] = slots[src]
        for dst, pid, shape in code.back_one:
            v = slots[dst]
            if isinstance(v, np.ndarray) and v.ndim != len(shape) and v.size == 1:
                slots[dst] = v = v.reshape(shape)
                if self.events:
                    self.state[pid] = v
        return last

    def plain_advance(self) -> Callable[[list, int, bool | None], bool]:
        """`advance`, or a shorter equivalent where this execution has no concatenated output, no
        listener's `state` to keep, and back edges that neither swap nor reshape (the plain driver's
        common case, once per iteration)."""
        code = self.code
        if self.concats or self.events or code.back_swap or code.back_one:
            return self.advance
        limit, back, finals, last_values = self.limit, code.back_slots, self.finals, self.last

        def advance(slots: list, k: int, cond: bool | None) -> bool:
            if cond is False or k >= limit:
                self.exhausted = cond is not False
                for port, slot in finals:
                    last_values[port] = slots[slot]
                for dst, src in back:
                    slots[dst] = slots[src]
                return True
            for dst, src in back:
                slots[dst] = slots[src]
            return False

        return advance

    def regular(self, k: int) -> bool:
        """After `k` iterations of a loop whose entries are whole-range in steps of one
        (`REGULAR_CPU_CHECKS`): True if every concatenated output got parts one element long on its axis
        (for a TensorIterator, and at least one iteration ran), where the CPU plugin counts and
        concatenates as the spec does, so `cpu_departures` has nothing to say."""
        if not self.code.plan.is_loop and k < 1:
            return False
        return all((b.n == 0 and self.code.plan.is_loop) or (b.parts is None and b.buf is not None and b.plen == 1)
                   for b in self.buffers.values())


CONCAT = EntryKind.CONCAT_OUTPUT
