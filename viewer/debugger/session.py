"""The debugger's state without any UI: a Stepper plus the tensors seen so far, by layer and iteration.

The Textual app only calls these methods and renders what they return, so the stepping logic is
tested without a terminal. Stepping runs in a worker thread while the UI reads the recorded values,
so every access to them goes through one lock; a long run is stopped through `interrupt()`, which
a hook breakpoint checks at every event (the stepper itself knows nothing about threads).

The run's bounds are `run`'s, made for a run that waits on a person: `--max-body-runs` ends the run
(RUN-ITERATIONS, logged; `R` starts it again), and `--time-limit` bounds each command's running time,
not the session's wall-clock time (a run paused at a breakpoint for an hour is not over time): a
command that runs longer stops where it is, as Esc stops it, with RUN-TIME in the log, and the next
command goes on from there.

Stepping back (`step_back`) stands the session at an earlier event as the run stood there going
forward. The latest events are kept (a deque, dropped together with the recorded tensors they
hold), every recorded tensor and loop condition carries the index of the event that recorded it,
and while the current event is such a kept one (`_cursor`), every read shows only what was recorded
up to it; stepping forward from there replays the kept events (breakpoints included) before it runs
on. The kept events never reach back past the oldest recorded tensor, so a kept event's own tensors,
and every tensor recorded after it, are still there. When the target event is no longer kept (or a
tensor recorded up to it was recorded anew since), the run restarts and stops there.
"""

from __future__ import annotations

import itertools
import threading
import time
from bisect import bisect_right
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from operator import attrgetter

import numpy as np
from irlint.viewer.debugger.conditions import ConditionError, compile_expression, resolve_layer

from irlint.controlflow.values import scalar_flag
from irlint.interp import ExecutionError, Options, State, execute
from irlint.interp.events import (
    BodyEntered,
    BodyLeft,
    Event,
    IterationFinished,
    IterationStarted,
    LayerEvaluated,
    RunFinished,
)
from irlint.interp.stepper import BadValue, Breakpoint, Stepper, bad_value, first_bad, search_text
from irlint.ir.model import Layer, Model
from irlint.layerpath import find_layer, iteration_label, loop_positions, project_its

MAX_RECORDED = 200_000  # tensors kept for revisiting; older ones are dropped first
# Events kept for stepping back without a restart: the latest MAX_KEPT_EVENTS while commands are short,
# the latest FEW_KEPT_EVENTS once a command runs past LONG_COMMAND events (each kept event outlives the
# garbage collector's young generation, which made a long continue a third slower when all were kept)
MAX_KEPT_EVENTS = 10_000
LONG_COMMAND = 2_000
FEW_KEPT_EVENTS = 16
_NBYTES = attrgetter("nbytes")

Iteration = tuple[int, ...]


def iteration_of(frames: tuple[tuple[str, int], ...]) -> Iteration:
    return tuple(k for _p, k in frames)


def iteration_text(its: Iteration) -> str:
    """0-based iteration numbers, outer first, joined by dots (as in traces and diagnostics); '-' outside loops."""
    return ".".join(str(k) for k in its) or "-"


def parse_iteration(text: str) -> Iteration:
    """'3' or '2.1' (outer first) -> (3,) / (2, 1); ValueError if not non-negative integers."""
    parts = text.strip().split(".")
    if not text.strip() or any(not p.isdigit() for p in parts):
        raise ValueError(f"{text!r} is not an iteration (N, or N.M for nested loops, 0-based)")
    return tuple(int(p) for p in parts)


def short(layer: Layer) -> str:
    """`#8 LSTMCell_16 (LSTMCell)`: one line of an 80-column log."""
    return f"#{layer.id} {layer.name} ({layer.type})" if layer.type not in layer.name else f"#{layer.id} {layer.name}"


def event_label(ev: Event) -> str:
    """The iterations an event happened in, an If's frame shown as its branch (`2.then`); '-' outside."""
    layer = getattr(ev, "layer", None)
    return iteration_label(iteration_of(getattr(ev, "frames", ())), layer.path if layer is not None else "",
                           getattr(ev, "branch", None))


def describe_event(ev: Event | None) -> str:
    if ev is None:
        return "finished"
    its = event_label(ev)
    at = f" it {its}" if its != "-" else ""
    if isinstance(ev, LayerEvaluated):
        return f"evaluated {short(ev.layer)}{at}"
    if isinstance(ev, BodyEntered):
        return f"entering {short(ev.layer)}{at}" + (f": the {ev.branch} branch" if ev.branch else "")
    if isinstance(ev, IterationStarted) and ev.branch is not None:
        return f"the {ev.branch} branch of {short(ev.layer)} starts"
    if isinstance(ev, IterationStarted):
        return f"it {its} of {short(ev.layer)} starts"
    if isinstance(ev, IterationFinished) and ev.branch is not None:
        return f"the {ev.branch} branch of {short(ev.layer)} finished"
    if isinstance(ev, IterationFinished):
        cond = "" if ev.condition is None else f", condition {ev.condition}"
        return f"it {its} of {short(ev.layer)} finished{cond}"
    if isinstance(ev, BodyLeft) and ev.branch is not None:
        return f"left {short(ev.layer)} after its {ev.branch} branch{at}"
    if isinstance(ev, BodyLeft):
        return f"left {short(ev.layer)} after {ev.iterations} iterations{at}"
    if isinstance(ev, RunFinished):
        return "run finished: " + ", ".join(f"{k} {list(v.shape)}" for k, v in ev.outputs.items())
    return type(ev).__name__


class _Hook(Breakpoint):
    """Not a user breakpoint: stops the stepper when the UI interrupts, or at a 'run until' target."""

    def __init__(self, session: Session) -> None:
        object.__setattr__(self, "session", session)

    def hit(self, event: Event) -> bool:
        s: Session = self.session  # type: ignore[attr-defined]
        if s._interrupt.is_set():
            return True
        if s._deadline is not None and time.monotonic() > s._deadline:
            s._over_time = True
            return True
        return s._until is not None and s._until(event)


@dataclass
class Progress:
    """What a running step has done so far (read by the UI while the worker runs)."""

    events: int = 0
    frames: tuple[tuple[str, int], ...] = ()


@dataclass
class Session:
    model: Model
    inputs: Mapping[str, np.ndarray]
    options: Options = field(default_factory=Options)
    notes: list[str] = field(default_factory=list)  # e.g. which inputs are random (shown prominently)
    state: Mapping[str, np.ndarray] | None = None  # ReadValue/Assign variables every (re)run starts from
    stepper: Stepper = field(init=False)
    # (layer path, iteration tuple) -> output tensors (Results: the tensor they receive); guarded by _lock
    # oldest first: evicting from the front of an OrderedDict stays O(1) (a dict's first key is found by
    # scanning past the holes its deletions left, which made a long continue slow down steadily)
    values: OrderedDict[tuple[str, Iteration], tuple[np.ndarray, ...]] = field(default_factory=OrderedDict)
    log: list[str] = field(default_factory=list)
    _held: int = 0  # bytes of the recorded tensors
    # What a running step has done so far, written per event as two plain attributes (a Progress object
    # per event cost more than recording the event); `progress` reads them for the UI.
    _events: int = 0
    _frames: tuple[tuple[str, int], ...] = ()
    # loop path -> {iteration tuple: condition} of finished iterations (Loop: the body condition; TI: None)
    conditions: dict[str, dict[Iteration, bool | None]] = field(default_factory=dict)
    last_bad: BadValue | None = None  # what the breakpoint on bad values found at the last stop
    # The code of the last error that ended a run of this session (RUN-ITERATIONS, RUN-BUDGET ...), kept
    # across restarts: `irlint debug` exits 1 when a run stopped with an error.
    failed: str | None = None

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: dict[str, dict[Iteration, int]] = {}  # layer path -> iteration recorded -> the event that did
        self._interrupt = threading.Event()
        self._until: Callable[[Event], bool] | None = None
        self._hook = _Hook(self)
        self._consts: dict[str, tuple[np.ndarray, ...]] = {}
        self._limits: dict[str, int | None] = {}  # TI/Loop path -> iteration bound of its latest run
        self._last: dict[str, Iteration] = {}  # layer path -> the latest iteration it was recorded at
        self._started: dict[str, Iteration] = {}  # TI/Loop/If path -> the iterations at its latest start
        self._off: list[Breakpoint] = []  # the user's disabled breakpoints (kept, not in the stepper)
        self._order: dict[int, int] = {}  # id(breakpoint) -> when it was set: the list's order
        self._deadline: float | None = None  # when the running command is over --time-limit
        self._over_time = False  # the hook stopped the running command at its deadline
        self._error: str | None = None
        # stepping back: the latest events (the last one is event number _events), the event number that
        # recorded each loop condition (a value's: in _seen), each loop's iteration bound by when it was set,
        # the latest event that recorded a (layer, iteration) anew, and the number of the current event
        # while it is a kept one (None: the run's latest event)
        self._kept: deque[Event] = deque(maxlen=MAX_KEPT_EVENTS)
        self._keep = self._kept.append
        self._cond_at: dict[tuple[str, Iteration], int] = {}
        self._limit_at: dict[str, list[tuple[int, int | None]]] = {}
        self._replaced_at = 0
        self._cursor: int | None = None
        self._fatal: ExecutionError | None = None  # the error that ended the run (its events end there)
        self._command_start = 0  # _events when the running command began
        self.stepper = self._new_stepper([])
        self._record_inputs()

    def _record_inputs(self) -> None:
        """Top-level inputs are no step of their own: recorded up front so the inspector shows them."""
        for p in self.model.graph.parameters():
            if p.name in self.inputs:
                self._record(p.path, (), (np.asarray(self.inputs[p.name]),))

    def const_value(self, layer: Layer) -> tuple[np.ndarray, ...] | None:
        """A Const's value read from the weights (Consts are no step of their own); None if unreadable."""
        if layer.path not in self._consts:
            port = layer.outputs[0] if layer.outputs else None
            try:
                dims = tuple(int(d.value) for d in port.shape)  # type: ignore[union-attr, arg-type]
                value = self.model.weights.array(int(layer.data["offset"]), int(layer.data["size"]),
                                                 port.precision, dims)  # type: ignore[union-attr, arg-type]
            except Exception:  # no static shape, missing/short .bin: the lint rules report those
                return None
            self._consts[layer.path] = (np.asarray(value),)
        return self._consts[layer.path]

    def _new_stepper(self, breakpoints: list[Breakpoint]) -> Stepper:
        state = State(self.state) if self.state is not None else None  # a copy: every restart starts alike
        # The executor's clock would count the time the run waits on the user: the session keeps its own
        # per command (`_go`).
        run_options = replace(self.options, time_limit=None)
        self._source = self._recording(execute(self.model, self.inputs, run_options, state=state))
        st = Stepper(self._source)
        st.breakpoints.extend([self._hook, *breakpoints])
        return st

    def _record(self, path: str, its: Iteration, tensors: tuple[np.ndarray, ...]) -> None:
        """Record tensors for revisiting, oldest dropped first past MAX_RECORDED or past the memory budget
        (the recorded tensors are kept alive by this dict, so they count against --memory-budget); `_seen`
        notes the number of the event that recorded them."""
        size = 0
        for a in tensors:
            size += a.nbytes
        values = self.values
        key = (path, its)
        now = self._events
        with self._lock:
            old = values.pop(key, None)
            if old is not None:
                size -= sum(map(_NBYTES, old))
                self._replaced_at = now
            values[key] = tensors
            seen = self._seen.get(path)
            if seen is None:
                seen = self._seen[path] = {}
            seen[its] = now
            self._last[path] = its
            held = self._held = self._held + size
            if held > self.options.memory_budget or len(values) > MAX_RECORDED:
                while len(values) > 1 and (len(values) > MAX_RECORDED or self._held > self.options.memory_budget):
                    (old_path, old_its), dropped = values.popitem(last=False)
                    self._seen[old_path].pop(old_its, None)
                    self._held -= sum(map(_NBYTES, dropped))
                if len(self._kept) > FEW_KEPT_EVENTS:
                    self._trim_kept(now)

    def _trim_kept(self, now: int) -> None:
        """Drop the kept events older than the oldest recorded value (they hold tensors too; with the lock)."""
        kept = self._kept
        oldest_path, oldest_its = next(iter(self.values))
        oldest = self._seen[oldest_path][oldest_its]
        first = now - len(kept) + 1
        for _ in range(min(oldest - first, len(kept))):
            kept.popleft()

    def _recording(self, events):  # type: ignore[no-untyped-def]
        """Pass events through, recording their tensors. (Events are tested by exact class, the most
        frequent first, and the iteration tuple is made once per iteration, not per event.)"""
        record = self._record
        last: tuple[tuple[str, int], ...] | None = None
        its: Iteration = ()
        for ev in events:
            cls = ev.__class__
            frames = ev.frames if cls is not RunFinished else ()
            if frames is not last:  # an iteration's events share one frames tuple
                last, its = frames, iteration_of(frames)
            self._events += 1
            self._keep(ev)
            if not self._events & 1023 and self._events - self._command_start > LONG_COMMAND:
                self._keep_few()
            self._frames = frames
            if cls is LayerEvaluated:
                record(ev.layer.path, its, ev.outputs or ev.inputs)
            elif cls is IterationStarted:
                self._started[ev.layer.path] = its
                part = "body" if ev.branch is None else f"{ev.branch}_body"  # an If: the branch that runs
                for pid, v in ev.params.items():
                    record(f"{ev.layer.path}/{part}/{pid}", its, (v,))
            elif cls is IterationFinished:
                with self._lock:
                    self.conditions.setdefault(ev.layer.path, {})[its] = ev.condition
                    self._cond_at[(ev.layer.path, its)] = self._events
            elif cls is BodyEntered and ev.branch is None:
                self._limits[ev.layer.path] = ev.limit
                history = self._limit_at.setdefault(ev.layer.path, [])
                if not history or history[-1][1] != ev.limit:
                    history.append((self._events, ev.limit))
            yield ev

    def _keep_few(self) -> None:
        """A long command: keep only the latest FEW_KEPT_EVENTS events from now on (until the next one)."""
        if self._kept.maxlen != FEW_KEPT_EVENTS:
            with self._lock:
                self._kept = deque(self._kept, maxlen=FEW_KEPT_EVENTS)
                self._keep = self._kept.append

    def _keep_many(self) -> None:
        """A command starts: keep up to MAX_KEPT_EVENTS events again."""
        if self._kept.maxlen != MAX_KEPT_EVENTS:
            with self._lock:
                self._kept = deque(self._kept, maxlen=MAX_KEPT_EVENTS)
                self._keep = self._kept.append

    def _replaying(self, first: int, events: list[Event]):  # type: ignore[no-untyped-def]
        """Kept events again, numbered from `first`: stepping forward after stepping back (their tensors
        are recorded already). Past the last one, the run's own events follow."""
        for n, ev in enumerate(events, first):
            self._cursor = n
            self._frames = ev.frames if ev.__class__ is not RunFinished else ()
            yield ev
        self._cursor = None
        if self._fatal is not None:  # the run ended with this error after the kept events: it ends so again
            raise self._fatal

    @property
    def progress(self) -> Progress:
        """What the running step has done so far (read by the UI while the worker runs)."""
        return Progress(self._events, self._frames)

    # -- commands ------------------------------------------------------------------------------
    def do(self, command: str) -> Event | None:
        if command in ("back", "back_over"):
            return self.step_back(over=command == "back_over")
        fn = {"step": self.stepper.step, "over": self.stepper.step_over, "into": self.stepper.step_into,
              "out": self.stepper.step_out, "iteration": self.stepper.next_iteration,
              "continue": self.stepper.continue_}[command]
        return self._go(fn)

    def loop_chain(self, layer_path: str) -> list[str]:
        """The TI/Loop paths whose iterations a layer's values are numbered by, outer first (Ifs left out;
        a TI/Loop itself included: its iterations are what one goes to)."""
        parts = layer_path.split("/")
        chain = ["/".join(parts[:2 * i + 1]) for i in loop_positions(layer_path)]
        layer = find_layer(self.model, layer_path)
        if layer is not None and layer.body is not None:
            chain.append(layer_path)
        return chain

    def recorded_at(self, layer_path: str, target: Iteration) -> Iteration | None:
        """The recorded iteration of a layer whose loop iterations are `target` (If frames skipped)."""
        if len(loop_positions(layer_path)) != len(target):
            return None
        for its in self.iterations_seen(layer_path):
            if project_its(its, layer_path) == target:
                return its
        return None

    def run_to_iteration(self, target: Iteration, layer_path: str | None = None) -> Event | None:
        """Go to loop iteration `target` (outer first, 0-based, counting TIs/Loops only) of the loops around
        `layer_path` (else around the current event, else the first loop that deep): forward to it, or, when
        it is behind (its values dropped from memory, or the run is past it), by restarting the run and
        replaying up to it with the user's breakpoints set aside. It stops at the layer's value of that
        iteration (at the iteration's start without a layer), and never runs past it: where the iteration
        does not come (the loop ends before it, the layer does not run in it) it stops and says why."""
        goal = _Goal(self, target, layer_path)
        why = goal.impossible()
        if why:
            self.log.append(f"iteration {iteration_text(target)} cannot be reached: {why}")
            return self.stepper.current
        again = (f"going back to iteration {iteration_text(target)}: the run restarted "
                 "(breakpoints are set aside until it gets there)") if goal.behind() else ""
        ev = self._run_until(goal.stop, again)
        if goal.missed:
            self.log.append(f"iteration {iteration_text(target)} was not reached: {goal.missed}")
        elif not goal.reached and not self._error and (ev is None or self.stepper.finished):
            self.log.append(f"iteration {iteration_text(target)} was not reached: the run finished first")
        return ev  # else a breakpoint or Esc stopped it (the log says which); `g` again goes on

    def _run_until(self, stop: Callable[[Event], bool], restart: str = "") -> Event | None:
        """Run on until `stop(event)` holds (or a breakpoint, Esc, the end). With `restart` (what the log says
        why), first restart the run, the user's breakpoints set aside until it stops: how a go-to gets back
        to an iteration and a step back to an event whose values were dropped."""
        user = None
        if restart:
            user = self.breakpoints
            self.restart()
            self.log.append(restart)
            self.stepper.breakpoints[:] = [self._hook]
        self._until = stop
        try:
            return self._go(self.stepper.continue_)
        finally:
            self._until = None
            if user is not None:
                self.stepper.breakpoints[:] = [self._hook, *user]

    # -- stepping back ---------------------------------------------------------------------------
    @property
    def position(self) -> int:
        """The number of the current event (1 for the run's first event, 0 before it)."""
        if self.stepper.current is None:
            return 0
        return self._cursor if self._cursor is not None else self._events

    def step_back(self, over: bool = False) -> Event | None:
        """Back to the event before the current one (`S`, the mirror of `s`), or with `over` to the layer
        evaluated before it at this depth or above (`N`, the mirror of `n`: a TI/Loop/If is stepped back
        over as a whole). The inspector, watches and status then show what they showed there going
        forward. At the run's first event (or with no such layer before) the log says it is at the start."""
        now, ev = self.position, self.stepper.current
        if ev is None or now <= 1:
            self.log.append("at the start: no event before this one" if ev is not None else
                            "at the start: the run has not begun (s steps to its first event)")
            return ev
        if not over:
            return self._rewind(now - 1)
        depth = len(ev.frames) if ev.__class__ is not RunFinished else 0
        target = self._layer_before(now, depth)
        if target is None:  # the kept events do not reach back far enough: find it by running again
            found = [0]

            def scan(e: Event) -> bool:
                if self._events >= now:
                    return True
                if e.__class__ is LayerEvaluated and len(e.frames) <= depth:
                    found[0] = self._events
                return False

            self._run_until(scan, "stepping back: the run restarted to find the layer before "
                                  "(the events between were dropped from memory)")
            if self.position != now:  # Esc or an error stopped it on the way
                return self.stepper.current
            target = found[0]
        if not target:
            self.log.append(f"at the start: no layer before this one at its depth ({describe_event(ev)})")
            return self.stepper.current
        return self._rewind(target)

    def _layer_before(self, now: int, depth: int) -> int | None:
        """The number of the latest LayerEvaluated before event `now` at most `depth` loops deep among the
        kept events; 0 if there is none since the run's start, None if the kept events do not tell."""
        with self._lock:
            kept = self._kept
            first = self._events - len(kept) + 1  # the number of kept[0]
            start = min(now - 1, self._events)
            newest_first = itertools.islice(reversed(kept), self._events - start, None)
            for n, e in zip(range(start, first - 1, -1), newest_first):
                if e.__class__ is LayerEvaluated and len(e.frames) <= depth:
                    return n
            return 0 if first <= 1 else None

    def _rewind(self, target: int) -> Event | None:
        """Stand at event `target` (before the current one): from the kept events while it is one of them (its
        tensors and every later one are then still recorded), else by restarting the run and stopping there."""
        with self._lock:
            kept = self._kept
            first = self._events - len(kept) + 1
            oldest = next(iter(self.values), None)  # values are dropped oldest first: all from its event on are here
            here = first <= target and self._replaced_at <= target and (
                oldest is None or self._seen[oldest[0]][oldest[1]] <= target)
            if here:
                ev = kept[target - first]
                later = list(itertools.islice(kept, target - first + 1, None))
        if not here:
            ev = self._run_until(lambda _e: self._events >= target,
                                 f"stepping back: the run restarted to stop at event {target} "
                                 "(its tensors were dropped from memory since)")
            if self.position == target and ev is not None:
                self.log[-1] = f"back to: {self.log[-1]}"
            return ev
        user = self.breakpoints
        st = Stepper(itertools.chain(self._replaying(target + 1, later), self._source), current=ev,
                     finished=ev.__class__ is RunFinished)
        st.breakpoints.extend([self._hook, *user])
        self.stepper = st
        self._cursor = target
        self._frames = ev.frames if ev.__class__ is not RunFinished else ()
        vbp = self.value_breakpoint()  # a stop there by the NaN/Inf breakpoint showed the bad value
        self.last_bad = bad_value(ev, vbp.nonfinite, vbp.bound) if vbp is not None else None
        self.log.append(f"back to: {describe_event(ev)}")
        return ev

    def _go(self, fn: Callable[[], Event | None]) -> Event | None:
        """Run one command: stopped by a breakpoint, Esc, its --time-limit (the run stays where it is) or
        an error that ends the run (the stepper is then finished); says which in the log."""
        self._command_start = self._events
        self._keep_many()
        self._interrupt.clear()
        self.last_bad = None
        limit = self.options.time_limit
        self._over_time = False
        self._error: str | None = None  # the code of the error that ended the run in this command
        self._deadline = None if limit is None else time.monotonic() + limit
        try:
            ev = fn()
        except ExecutionError as e:  # RUN-ITERATIONS, RUN-BUDGET, ...: the run is over, the session is not
            self._fatal = e
            self.failed = self._error = e.code
            self.stepper.finished = True
            self.log.append(f"stopped: {e.code}: {e}")
            return self.stepper.current
        finally:
            self._deadline = None
        text = describe_event(ev)
        by = self.stepper.stopped_by
        if by is self._hook:
            if self._over_time:
                text = (f"stopped: RUN-TIME: the command ran for more than --time-limit {limit:g} s; the run "
                        f"stays here and the next command goes on: {text}")
            elif self._interrupt.is_set():
                text = f"interrupted: {text}"
            self.stepper.stopped_by = None
        elif by is not None and not isinstance(by, ConditionalBreakpoint) and (by.nonfinite or by.bound is not None):
            bad = self.last_bad = bad_value(ev, by.nonfinite, by.bound) if ev is not None else None
            found = text if bad is None else (
                f"{bad.path} {bad.name} ({bad.type}) {bad.port}[{', '.join(map(str, bad.index))}] = {bad.value:g}, "
                f"it {iteration_label([k for _p, k in bad.frames], bad.path)}")
            text = f"breakpoint ({search_text(by.nonfinite, by.bound)}): {found}"
        elif by is not None:
            text = f"breakpoint{f' ({by.when})' if isinstance(by, ConditionalBreakpoint) else ''}: {text}"
        self._interrupt.clear()
        self.log.append(text)
        return ev

    def interrupt(self) -> None:
        """Ask a running step (in another thread) to stop at the next event."""
        self._interrupt.set()

    def restart(self) -> None:
        """Run again from the start with the same inputs and breakpoints; recorded values are dropped."""
        user = self.breakpoints
        with self._lock:
            self.values.clear()
            self._seen.clear()
            self.conditions.clear()
            self._held = 0  # else the bytes of the dropped values still counted: one tensor kept after that
        self._events, self._frames = 0, ()
        self._kept.clear()
        self._cond_at.clear()
        self._limit_at.clear()
        self._replaced_at = 0
        self._cursor = None
        self._fatal = None
        self._last.clear()
        self._started.clear()
        self._limits.clear()
        self.stepper = self._new_stepper(user)
        self._record_inputs()
        self.log.append("restarted")

    # -- breakpoints ---------------------------------------------------------------------------
    @property
    def breakpoints(self) -> list[Breakpoint]:
        """The user's breakpoints (without the internal hook)."""
        return [bp for bp in self.stepper.breakpoints if bp is not self._hook]

    def add_breakpoint(self, bp: Breakpoint) -> None:
        self._order.setdefault(id(bp), len(self._order) and max(self._order.values()) + 1)
        self.stepper.breakpoints.append(bp)

    def remove_breakpoint(self, bp: Breakpoint) -> None:
        """Delete a breakpoint, enabled or not (by identity: two may be equal)."""
        for where in (self.stepper.breakpoints, self._off):
            for i, other in enumerate(where):
                if other is bp:
                    del where[i]
                    self._order.pop(id(bp), None)
                    return

    def breakpoint_list(self) -> list[tuple[Breakpoint, bool]]:
        """Every breakpoint the user set, enabled or not, in the order they were set."""
        both = [(bp, True) for bp in self.breakpoints] + [(bp, False) for bp in self._off]
        return sorted(both, key=lambda e: self._order.get(id(e[0]), 0))

    def set_enabled(self, bp: Breakpoint, on: bool) -> None:
        """Enable or disable a breakpoint; a disabled one stays in the list (and across restarts)."""
        src, dst = (self._off, self.stepper.breakpoints) if on else (self.stepper.breakpoints, self._off)
        for i, other in enumerate(src):
            if other is bp:
                del src[i]
                dst.append(bp)
                return

    def replace_breakpoint(self, old: Breakpoint, new: Breakpoint) -> None:
        """Put `new` (an edited condition) in `old`'s place: same position in the list, same enabled state."""
        for where in (self.stepper.breakpoints, self._off):
            for i, other in enumerate(where):
                if other is old:
                    where[i] = new
                    self._order[id(new)] = self._order.pop(id(old), 0)
                    return

    def toggle_breakpoint(self, layer_path: str) -> bool:
        """Add or remove a breakpoint on a layer; returns True if it is now set."""
        for bp in self.breakpoints:
            if bp.layer == layer_path:
                self.remove_breakpoint(bp)
                return False
        self.add_breakpoint(Breakpoint(layer=layer_path))
        return True

    def value_breakpoint(self) -> Breakpoint | None:
        """The breakpoint on bad values (NaN/Inf, |value| above a magnitude), if one is set."""
        return next((bp for bp in self.breakpoints if is_value_breakpoint(bp)), None)

    def set_value_breakpoint(self, bound: float | None = None, on: bool = True) -> str:
        """Set (replacing any other) or clear the breakpoint that stops at the first event producing a NaN/Inf
        (or a |value| > bound) at any depth; returns what the log says, naming an input that holds one
        already (no layer makes that one, so the breakpoint cannot stop there)."""
        for old, _on in self.breakpoint_list():  # one at a time, a disabled one included
            if is_value_breakpoint(old):
                self.remove_breakpoint(old)
        if not on:
            return "no longer stopping at NaN/Inf"
        bp = Breakpoint(nonfinite=True, bound=bound)
        self.add_breakpoint(bp)
        text = f"stopping at the first {search_text(True, bound)} (any layer, any iteration)"
        for p in self.model.graph.parameters():
            if p.name in self.inputs:
                idx = first_bad(np.asarray(self.inputs[p.name]), True, bound)
                if idx is not None:
                    text += f"; input {p.name!r} holds one already at [{', '.join(map(str, idx))}]"
        return text

    def breakpoint_paths(self) -> set[str]:
        """Layer paths that carry a breakpoint (for the markers in the tree)."""
        out = set()
        for bp in self.breakpoints:
            if bp.layer is not None:
                layer = self.find_layer(bp.layer)
                out.add(layer.path if layer is not None else bp.layer)
        return out

    def find_layer(self, spec: str) -> Layer | None:
        """A layer by id path ('2/body/7') or name."""
        for _g, la in self.model.layers():
            if la.path == spec:
                return la
        return next((la for _g, la in self.model.layers() if la.name == spec), None)

    # -- recorded values -----------------------------------------------------------------------
    def _seen_now(self, layer_path: str) -> list[Iteration] | dict[Iteration, int]:
        """The layer's recorded iterations as of the current event (call with the lock held)."""
        seen = self._seen.get(layer_path, {})
        c = self._cursor
        if c is None:
            return seen
        return [its for its, n in seen.items() if n <= c]

    def iterations_seen(self, layer_path: str) -> list[Iteration]:
        with self._lock:
            return sorted(self._seen_now(layer_path))

    def tensor(self, layer_path: str, iteration: Iteration | None = None) -> tuple[np.ndarray, ...] | None:
        """The layer's outputs at an iteration (the latest recorded if None or not recorded)."""
        with self._lock:
            seen = self._seen_now(layer_path)
            if not seen:
                return None
            key = iteration if iteration in seen else max(seen)
            return self.values[(layer_path, key)]

    def recorded(self) -> list[tuple[tuple[str, Iteration], tuple[np.ndarray, ...]]]:
        """Every recorded ((layer path, iteration), tensors) as of the current event (after a step back, none
        recorded later), oldest first: a copy taken under the lock, so a running step may go on recording."""
        with self._lock:
            c = self._cursor
            if c is None:
                return list(self.values.items())
            return [(k, v) for k, v in self.values.items() if self._seen[k[0]][k[1]] <= c]

    def history(self, layer_path: str, port: int = 0) -> list[tuple[Iteration, np.ndarray]]:
        """Every recorded (iteration, tensor of output `port`) of a layer, in iteration order."""
        with self._lock:
            seen = sorted(self._seen_now(layer_path))
            out = []
            for its in seen:
                t = self.values[(layer_path, its)]
                if port < len(t):
                    out.append((its, t[port]))
            return out

    def loop_conditions(self, loop_path: str) -> dict[Iteration, bool | None]:
        with self._lock:
            conds = self.conditions.get(loop_path, {})
            c = self._cursor
            if c is None:
                return dict(conds)
            return {its: v for its, v in conds.items() if self._cond_at[(loop_path, its)] <= c}

    def _limit(self, loop_path: str) -> int | None:
        """The iteration bound of the loop's latest run as of the current event."""
        if self._cursor is None:
            return self._limits.get(loop_path)
        history = self._limit_at.get(loop_path, [])
        i = bisect_right(history, self._cursor, key=lambda e: e[0])
        return history[i - 1][1] if i else None

    def loop_totals(self, frames: tuple[tuple[str, int], ...] | None = None) -> list[str]:
        """'k of N' per enclosing loop of the current event, or of `frames` (k 0-based; N the iteration
        count: known statically, else from the loop's trip count or slices once it runs, 'at most N' while
        its condition may end it sooner, '?' if unknown); an enclosing If shows the branch that runs
        ('else branch')."""
        ev = self.stepper.current
        if frames is None:
            frames = self.progress.frames if ev is None else getattr(ev, "frames", ())
            here = getattr(getattr(ev, "layer", None), "path", "")
            branch = getattr(ev, "branch", None)
        else:
            here, branch = self._branch_path(frames), None
        out = []
        for (path, k), total in zip(frames, self.totals(frames)):
            layer = find_layer(self.model, path)
            if layer is not None and layer.branches:
                inner = here[len(path) + 1:].split("/", 1)[0] if here.startswith(path + "/") else ""
                name = branch if here == path else inner.removesuffix("_body")
                out.append(f"{name} branch" if name else "branch")
            else:
                out.append(f"{k} of {total}")
        return out

    def _branch_path(self, frames: tuple[tuple[str, int], ...]) -> str:
        """While running: the path of the latest layer recorded inside the innermost frame (which says
        the branch an If frame runs)."""
        if not frames:
            return ""
        inner = frames[-1][0] + "/"
        with self._lock:
            last = next(reversed(self.values), None)
        return last[0] if last is not None and last[0].startswith(inner) else ""

    def _loop_info(self, path: str):  # type: ignore[no-untyped-def]
        if not hasattr(self, "_shapes"):
            from irlint.shapes import infer_model

            self._shapes = infer_model(self.model)
        return self._shapes.loops.get(path)

    def static_count(self, path: str) -> tuple[bool, int | None]:
        """(exact, count) of a TI/Loop known before running: its exact count, else an upper bound."""
        info = self._loop_info(path)
        if info is None:
            return False, None
        if info.iterations is not None:
            return True, info.iterations
        return False, info.max_iterations

    def totals(self, frames: tuple[tuple[str, int], ...]) -> list[str]:
        self._loop_info("")
        out = []
        for path, _k in frames:
            info = self._shapes.loops.get(path)
            total: object = info.iterations if info is not None else None
            limit = self._limit(path)
            if total is None and limit is not None:  # known once the loop runs (a trip count from an input)
                exact = info is None or not info.plan.is_loop or info.plan.condition is None or \
                    scalar_flag(info.body_condition.value) is True
                total = limit if exact else f"<={limit}"
            if total is None and info is not None and info.max_iterations is not None:
                total = f"<={info.max_iterations}"
            out.append("?" if total is None else str(total))
        return out

    # -- the expression console ---------------------------------------------------------------------
    def stop_tensors(self) -> tuple[np.ndarray, ...]:
        """The current event's tensors: a layer's outputs (a Result's: what it receives), the body Parameters'
        values at an iteration's start, the body Results at its end, a TI/Loop/If's outputs when it is left,
        the run's outputs at its end."""
        ev = self.stepper.current
        cls = ev.__class__
        if cls is LayerEvaluated:
            return tuple(ev.outputs or ev.inputs)
        for name in ("params", "results", "outputs"):
            got = getattr(ev, name, None)
            if isinstance(got, Mapping):
                return tuple(got.values())
        return ()

    def expression_env(self) -> dict[str, object]:
        """The names an expression reads at the current stop, as a breakpoint's condition reads them: `x` (the
        first of `outputs`; absent when the event has no tensor), `outputs`, `iteration`, `iterations`,
        `layer`."""
        ev = self.stepper.current
        its = self.current_iteration
        tensors = self.stop_tensors()
        layer = getattr(ev, "layer", None)
        env: dict[str, object] = {"outputs": tensors, "iteration": its[-1] if its else -1, "iterations": its,
                                  "layer": layer.name if layer is not None else ""}
        if tensors:
            env["x"] = tensors[0]
        return env

    def value(self, spec: object, port: object = 0, iteration: object = None) -> np.ndarray:
        """`value('2/body/7')`, `value('h_next', 1)`, `value('h_next', 0, 2)`: a layer's output (by id path,
        name or unique id) as of the current stop: its latest recorded iteration, or the one given (loop
        iterations outer first: N, a tuple, or 'N.M'); a Const: its weights."""
        try:
            layer = find_layer(self.model, resolve_layer(str(spec), self.model))
        except ConditionError as e:
            raise ValueError(str(e)) from None
        assert layer is not None
        its = None
        if iteration is not None:
            try:
                want = (int(iteration),) if isinstance(iteration, (int, np.integer)) else (
                    parse_iteration(iteration) if isinstance(iteration, str) else tuple(int(k) for k in iteration))
            except (TypeError, ValueError):
                raise ValueError(f"iteration {iteration!r}: give N, (N, M) or 'N.M' (0-based, outer first)") from None
            its = self.recorded_at(layer.path, want)
            if its is None:
                raise ValueError(f"{layer.name!r} has no recorded value at iteration {iteration_text(want)} "
                                 f"at this stop")
        tensors = self.tensor(layer.path, its) or (self.const_value(layer) if layer.type == "Const" else None)
        if not tensors:
            raise ValueError(f"{layer.path} {layer.name!r} ({layer.type}) has no recorded value at this stop")
        if not isinstance(port, (int, np.integer)) or not 0 <= int(port) < len(tensors):
            raise ValueError(f"{layer.name!r} has {len(tensors)} output{'s' if len(tensors) != 1 else ''}: "
                             f"port 0..{len(tensors) - 1}")
        return tensors[int(port)]

    def evaluate(self, text: str) -> object:
        """Evaluate an expression of the console over the current stop with the conditions' whitelist (and
        `value`); ConditionError when it is refused or names what this stop does not have."""
        fn = compile_expression(text, {"value": self.value}, what="expression")
        try:
            return fn(self.expression_env())
        except NameError as e:
            name = getattr(e, "name", None) or str(e)
            where = describe_event(self.stepper.current) if self.stepper.current is not None else "nothing ran yet"
            raise ConditionError(f"{name!r} has no value at this stop ({where}); value('LAYER') reads "
                                 "a layer's recorded output") from None

    @property
    def current_iteration(self) -> Iteration:
        ev = self.stepper.current
        return iteration_of(getattr(ev, "frames", ())) if ev is not None else ()


def project(frames: tuple[tuple[str, int], ...], chain: list[str]) -> Iteration:
    """The iterations of the loops in `chain` (outer first) that `frames` are inside."""
    out: list[int] = []
    n = len(chain)
    for p, k in frames:
        if len(out) < n and p == chain[len(out)]:
            out.append(k)
    return tuple(out)


class _Goal:
    """Where a go-to stops: the loops it counts, whether the target is behind, and the stop test."""

    def __init__(self, session: Session, target: Iteration, layer_path: str | None) -> None:
        self.session, self.target = session, target
        self.layer: str | None = None  # stop at this layer's value (else at the iteration's start)
        self.param: tuple[str, str | None, int] | None = None  # a body Parameter: (owner, branch or None, id)
        self.reached = False
        self.missed = ""
        self.too_deep = ""
        chain = session.loop_chain(layer_path) if layer_path else []
        if chain:
            if len(target) > len(chain):
                self.too_deep = (f"{layer_path} is inside {len(chain)} loop{'s' if len(chain) > 1 else ''}: "
                                 f"give at most {len(chain)} number{'s' if len(chain) > 1 else ''}")
            elif len(target) == len(chain) and chain[-1] != layer_path:
                self.layer = layer_path
                layer = find_layer(session.model, layer_path)
                if layer is not None and layer.type == "Parameter" and layer_path.count("/") >= 2:
                    owner, part, pid = layer_path.rsplit("/", 2)
                    self.param = (owner, None if part == "body" else part.removesuffix("_body"), int(pid))
            chain = chain[:len(target)]
        else:  # no layer in a loop: the loops around the current event, else the first loop that deep
            ev = session.stepper.current
            frames = getattr(ev, "frames", ()) if ev is not None else ()
            chain = [p for p, _k in frames if (la := find_layer(session.model, p)) is not None and la.body is not None]
            chain = chain[:len(target)] if len(chain) >= len(target) else []
        self.chain: list[str] = chain

    def impossible(self) -> str:
        """Why the target cannot be reached at all (known before running), else ''."""
        if self.too_deep:
            return self.too_deep
        s = self.session
        for path, k in zip(self.chain, self.target):
            loop = find_layer(s.model, path)
            name = short(loop) if loop is not None else path
            exact, bound = s.static_count(path)
            if bound is not None and k >= bound:
                return f"{name} runs {'' if exact else 'at most '}{bound} iterations (0..{bound - 1})"
            cap = s.options.max_iterations
            if k >= cap:
                return f"{name} stops at --max-iterations {cap} (0..{cap - 1})"
        return ""

    def behind(self) -> bool:
        """Whether the target lies behind the run's position (so only a restart gets there): the innermost
        loop it counts has started that iteration or a later one, and its start (or the layer's value in
        it) has passed."""
        s = self.session
        if s.stepper.finished:
            return True
        if not self.chain:
            return False
        loop = self.chain[-1]
        started = s._started.get(loop)
        if started is None:
            return False
        at = project_its(started, f"{loop}/body/0")  # the loops' iterations at that start, its own last
        if at != self.target:
            return at > self.target
        if self.layer is None:  # in the target iteration: behind unless the run stands at its start
            ev = s.stepper.current
            return not (isinstance(ev, IterationStarted) and ev.layer.path == loop)
        last = s._last.get(self.layer)
        return last is not None and project_its(last, self.layer) == self.target

    def stop(self, ev: Event) -> bool:
        """The hook's test: True at the target, or as soon as the run is past it (`missed` says why)."""
        cls = ev.__class__
        if cls is RunFinished:
            return False
        chain = self.chain
        if not chain:  # the first loop as deep as the target decides which loops are meant
            if cls is not IterationStarted or ev.branch is not None:
                return False
            loops = [p for p, _k in ev.frames if (la := find_layer(self.session.model, p)) is not None
                     and la.body is not None]
            if len(loops) != len(self.target):
                return False
            self.chain = chain = loops
        pos = project(ev.frames, chain)
        want = self.target[:len(pos)]
        if pos == self.target:
            if self.layer is None:
                hit = cls is IterationStarted and ev.layer.path == chain[-1]
            elif self.param is not None:
                owner, branch, pid = self.param
                hit = cls is IterationStarted and ev.layer.path == owner and ev.branch == branch and pid in ev.params
            else:
                hit = cls is LayerEvaluated and ev.layer.path == self.layer
            if hit:
                self.reached = True
            return hit
        if pos < want:
            return False
        if pos > want:
            self.missed = (f"{self.layer} was not evaluated in iteration {iteration_text(self.target)}"
                           if self.layer is not None and len(pos) == len(self.target) else "the run went past it")
            return True
        if cls is BodyLeft and len(pos) < len(chain) and ev.layer.path == chain[len(pos)]:
            self.missed = f"{short(ev.layer)} ended after {ev.iterations} iteration{'s' if ev.iterations != 1 else ''}"
            return True
        return False



@dataclass(frozen=True)
class ConditionalBreakpoint(Breakpoint):
    """`layer SPEC when EXPR` / `when EXPR`: stop when a (matching) layer is evaluated and EXPR holds.

    EXPR sees `x` (the layer's first output, a Result's input), `outputs`, `iteration` (innermost loop,
    0-based, -1 outside loops), `iterations` (outer first) and `layer` (its name); see conditions.py.
    """

    when: str = ""
    test: Callable[[dict[str, object]], bool] | None = field(default=None, compare=False, repr=False)

    def hit(self, event: Event) -> bool:
        if not isinstance(event, LayerEvaluated):
            return False
        if self.layer is not None and self.layer not in (event.layer.path, event.layer.name):
            return False
        if self.test is None:
            return True
        tensors = event.outputs or event.inputs
        its = iteration_of(event.frames)
        env = {"x": tensors[0] if tensors else np.zeros(0), "outputs": tensors, "iteration": its[-1] if its else -1,
               "iterations": its, "layer": event.layer.name}
        try:
            return bool(self.test(env))
        except Exception:  # e.g. a comparison on a tensor of another shape: not a hit, never a crash
            return False


def is_value_breakpoint(bp: Breakpoint) -> bool:
    """The breakpoint on bad values at any layer (`!`, `nonfinite [MAGNITUDE]`)."""
    return not isinstance(bp, ConditionalBreakpoint) and bp.layer is None and (bp.nonfinite or bp.bound is not None)
