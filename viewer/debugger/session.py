"""The debugger's state without any UI: a Stepper plus its collaborators, coordinated per command.

The Textual app only calls these methods and renders what they return, so the stepping logic is
tested without a terminal. The session itself runs commands (`do`, `run_to_iteration`, `restart`) and
stops them (`interrupt`, --time-limit); what it knows lives in collaborators, one module each:

- `Recorder` (recorder.py): the tensors seen so far by (layer, iteration), loop conditions and bounds,
  the latest events; read as of the current event;
- `BreakpointBook` (breakpoints.py): the user's breakpoints, enabled or not, apart from stepping;
- `Rewind` (history.py): stepping back over the kept events, or by running again;
- `Loops` (loops.py) and `Goal` (goto.py): iteration counts, and where a go-to stops;
- `Environment` (environment.py): the names of the expression console;
- `Logpoints` (logpoints.py): hit counts, and the lines logpoints print;
- `WhatIf` (whatif.py): an output replaced at the paused event, the run going on with it.

Stepping runs in a worker thread while the UI reads the recorded values (through the recorder's lock);
a long run is stopped through `interrupt()`, which a hook breakpoint checks at every event (the stepper
itself knows nothing about threads).

The run's bounds are `run`'s, made for a run that waits on a person: `--max-body-runs` ends the run
(RUN-ITERATIONS, logged; `R` starts it again), and `--time-limit` bounds each command's running time,
not the session's wall-clock time (a run paused at a breakpoint for an hour is not over time): a
command that runs longer stops where it is, as Esc stops it, with RUN-TIME in the log, and the next
command goes on from there.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

import numpy as np
from irlint.viewer.debugger.breakpoints import (
    BreakpointBook,
    ConditionalBreakpoint,
    find_layer_by_spec,
    is_value_breakpoint,
)
from irlint.viewer.debugger.describe import (
    Iteration,
    describe_event,
    event_label,
    iteration_of,
    iteration_text,
    parse_iteration,
    short,
)
from irlint.viewer.debugger.environment import Environment
from irlint.viewer.debugger.goto import Goal, project
from irlint.viewer.debugger.history import Rewind
from irlint.viewer.debugger.logpoints import Logpoints
from irlint.viewer.debugger.loops import Loops
from irlint.viewer.debugger.recorder import MAX_RECORDED, Recorder
from irlint.viewer.debugger.whatif import WhatIf

from irlint.interp import ExecutionError, Options, State, execute
from irlint.interp.events import Event
from irlint.interp.stepper import BadValue, Breakpoint, Stepper, bad_value, search_text
from irlint.ir.model import Layer, Model
from irlint.layerpath import iteration_label

__all__ = [
    "MAX_RECORDED",
    "Breakpoint",
    "ConditionalBreakpoint",
    "Iteration",
    "Progress",
    "Session",
    "describe_event",
    "event_label",
    "is_value_breakpoint",
    "iteration_of",
    "iteration_text",
    "parse_iteration",
    "project",
    "short",
]


def stop_reason(bp: Breakpoint) -> str:
    """` (x.max() > 1, hit 3)`: what made a conditional breakpoint stop (its condition, the hit it stops
    at), for the log's `breakpoint ...:` line; '' for a plain one."""
    if not isinstance(bp, ConditionalBreakpoint):
        return ""
    parts = [bp.when] * bool(bp.when) + [f"hit {bp.count}"] * bool(bp.count)
    return f" ({', '.join(parts)})" if parts else ""


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
    log: list[str] = field(default_factory=list)
    last_bad: BadValue | None = None  # what the breakpoint on bad values found at the last stop
    # The code of the last error that ended a run of this session (RUN-ITERATIONS, RUN-BUDGET ...), kept
    # across restarts: `irlint debug` exits 1 when a run stopped with an error.
    failed: str | None = None

    def __post_init__(self) -> None:
        self.recorder = Recorder(self.options.memory_budget)
        self.book = BreakpointBook(self.model, self.inputs)
        self.loops = Loops(self.model, self.recorder)
        self.rewinder = Rewind(self)
        self.environment = Environment(self)
        self.logpoints = Logpoints(self)
        self.whatif = WhatIf(self)
        self._interrupt = threading.Event()
        self._until: Callable[[Event], bool] | None = None
        self._aside = False  # the user's breakpoints are set aside (a go-to or step back running again)
        self._hook = _Hook(self)
        self._consts: dict[str, tuple[np.ndarray, ...]] = {}
        self._deadline: float | None = None  # when the running command is over --time-limit
        self._over_time = False  # the hook stopped the running command at its deadline
        self._error: str | None = None
        self.fatal: ExecutionError | None = None  # the error that ended the run (its events end there)
        self.install(self._new_stepper())
        self._record_inputs()

    # -- the run -------------------------------------------------------------------------------
    def _record_inputs(self) -> None:
        """Top-level inputs are no step of their own: recorded up front so the inspector shows them."""
        for p in self.model.graph.parameters():
            if p.name in self.inputs:
                self.recorder.pin(p.path, (np.asarray(self.inputs[p.name]),))

    def _new_stepper(self) -> Stepper:
        state = State(self.state) if self.state is not None else None  # a copy: every restart starts alike
        # The executor's clock would count the time the run waits on the user: the session keeps its own
        # per command (`_go`).
        run_options = replace(self.options, time_limit=None)
        self.source = self.recorder.recording(execute(self.model, self.inputs, run_options, state=state))
        return Stepper(self.source)

    def install(self, stepper: Stepper) -> None:
        """Make `stepper` the session's, with the hook and the user's enabled breakpoints."""
        self.stepper = stepper
        self._arm()

    def _arm(self) -> None:
        """Give the stepper the hook and (unless set aside) the enabled breakpoints."""
        self.stepper.breakpoints[:] = [self._hook] + ([] if self._aside else self.book.enabled)

    def const_value(self, layer: Layer) -> tuple[np.ndarray, ...] | None:
        """A Const's value read from the weights (Consts are no step of their own); None if unreadable."""
        if layer.path not in self._consts:
            port = layer.outputs[0] if layer.outputs else None
            try:
                dims = tuple(int(d.value) for d in port.shape)  # type: ignore[union-attr, arg-type]
                value = self.model.weights.array(
                    int(layer.data["offset"]), int(layer.data["size"]), port.precision, dims
                )  # type: ignore[union-attr, arg-type]
            except Exception:  # no static shape, missing/short .bin: the lint rules report those
                return None
            self._consts[layer.path] = (np.asarray(value),)
        return self._consts[layer.path]

    @property
    def progress(self) -> Progress:
        """What the running step has done so far (read by the UI while the worker runs)."""
        return Progress(self.recorder.events, self.recorder.frames)

    @property
    def position(self) -> int:
        """The number of the current event (1 for the run's first event, 0 before it)."""
        if self.stepper.current is None:
            return 0
        c = self.recorder.cursor
        return c if c is not None else self.recorder.events

    @property
    def current_iteration(self) -> Iteration:
        ev = self.stepper.current
        return iteration_of(getattr(ev, "frames", ())) if ev is not None else ()

    # -- commands ------------------------------------------------------------------------------
    def do(self, command: str) -> Event | None:
        if command in ("back", "back_over"):
            return self.step_back(over=command == "back_over")
        fn = {
            "step": self.stepper.step,
            "over": self.stepper.step_over,
            "into": self.stepper.step_into,
            "out": self.stepper.step_out,
            "iteration": self.stepper.next_iteration,
            "continue": self.stepper.continue_,
        }[command]
        return self._go(fn)

    def step_back(self, over: bool = False) -> Event | None:
        """`S` / `N`: see history.py."""
        return self.rewinder.step_back(over)

    def run_to_iteration(self, target: Iteration, layer_path: str | None = None) -> Event | None:
        """Go to loop iteration `target` (outer first, 0-based, counting TIs/Loops only) of the loops around
        `layer_path` (else around the current event, else the first loop that deep): forward to it, or, when
        it is behind (its values dropped from memory, or the run is past it), by restarting the run and
        replaying up to it with the user's breakpoints set aside. It stops at the layer's value of that
        iteration (at the iteration's start without a layer), and never runs past it: where the iteration
        does not come (the loop ends before it, the layer does not run in it) it stops and says why."""
        goal = Goal(self, target, layer_path)
        why = goal.impossible()
        if why:
            self.log.append(f"iteration {iteration_text(target)} cannot be reached: {why}")
            return self.stepper.current
        again = (
            (
                f"going back to iteration {iteration_text(target)}: the run restarted "
                "(breakpoints are set aside until it gets there)"
            )
            if goal.behind()
            else ""
        )
        ev = self.run_until(goal.stop, again)
        if goal.missed:
            self.log.append(f"iteration {iteration_text(target)} was not reached: {goal.missed}")
        elif not goal.reached and not self._error and (ev is None or self.stepper.finished):
            self.log.append(f"iteration {iteration_text(target)} was not reached: the run finished first")
        return ev  # else a breakpoint or Esc stopped it (the log says which); `g` again goes on

    def run_until(self, stop: Callable[[Event], bool], restart: str = "") -> Event | None:
        """Run on until `stop(event)` holds (or a breakpoint, Esc, the end). With `restart` (what the log says
        why), first restart the run, the user's breakpoints set aside until it stops: how a go-to gets back
        to an iteration and a step back to an event whose values were dropped."""
        if restart:
            self.restart()
            self.log.append(restart)
            self._aside = True
            self._arm()
        self._until = stop
        try:
            return self._go(self.stepper.continue_)
        finally:
            self._until = None
            if self._aside:
                self._aside = False
                self._arm()

    def _go(self, fn: Callable[[], Event | None]) -> Event | None:
        """Run one command: stopped by a breakpoint, Esc, its --time-limit (the run stays where it is) or
        an error that ends the run (the stepper is then finished); says which in the log."""
        self.recorder.command_start = self.recorder.events
        self.recorder.keep_many()
        self._interrupt.clear()
        self.last_bad = None
        limit = self.options.time_limit
        self._over_time = False
        self._error = None  # the code of the error that ended the run in this command
        self._deadline = None if limit is None else time.monotonic() + limit
        try:
            ev = fn()
        except ExecutionError as e:  # RUN-ITERATIONS, RUN-BUDGET, ...: the run is over, the session is not
            self.fatal = e
            self.failed = self._error = e.code
            self.stepper.finished = True
            self.logpoints.command_done()
            self.log.append(f"stopped: {e.code}: {e}")
            return self.stepper.current
        finally:
            self._deadline = None
        self.logpoints.command_done()
        text = describe_event(ev)
        by = self.stepper.stopped_by
        if by is self._hook:
            if self._over_time:
                text = (
                    f"stopped: RUN-TIME: the command ran for more than --time-limit {limit:g} s; the run "
                    f"stays here and the next command goes on: {text}"
                )
            elif self._interrupt.is_set():
                text = f"interrupted: {text}"
            self.stepper.stopped_by = None
        elif by is not None and not isinstance(by, ConditionalBreakpoint) and (by.nonfinite or by.bound is not None):
            bad = self.last_bad = bad_value(ev, by.nonfinite, by.bound) if ev is not None else None
            found = (
                text
                if bad is None
                else (
                    f"{bad.path} {bad.name} ({bad.type}) {bad.port}[{', '.join(map(str, bad.index))}] = {bad.value:g}, "
                    f"it {iteration_label([k for _p, k in bad.frames], bad.path)}"
                )
            )
            text = f"breakpoint ({search_text(by.nonfinite, by.bound)}): {found}"
        elif by is not None:
            text = f"breakpoint{stop_reason(by)}: {text}"
        self._interrupt.clear()
        self.log.append(text)
        return ev

    def interrupt(self) -> None:
        """Ask a running step (in another thread) to stop at the next event."""
        self._interrupt.set()

    def restart(self) -> None:
        """Run again from the start with the same inputs and breakpoints; recorded values are dropped."""
        self.recorder.reset()
        self.logpoints.restart()
        self.whatif.forget()
        self.fatal = None
        self.install(self._new_stepper())
        self._record_inputs()
        self.log.append("restarted")

    # -- breakpoints (breakpoints.py) ----------------------------------------------------------
    @property
    def breakpoints(self) -> list[Breakpoint]:
        """The user's enabled breakpoints (without the internal hook)."""
        return list(self.book.enabled)

    def add_breakpoint(self, bp: Breakpoint) -> None:
        self.logpoints.attach(bp)
        self.book.add(bp)
        self._arm()

    def remove_breakpoint(self, bp: Breakpoint) -> None:
        self.book.remove(bp)
        self._arm()

    def set_enabled(self, bp: Breakpoint, on: bool) -> None:
        self.book.set_enabled(bp, on)
        self._arm()

    def replace_breakpoint(self, old: Breakpoint, new: Breakpoint) -> None:
        self.logpoints.attach(new)
        self.book.replace(old, new)
        self._arm()

    def toggle_breakpoint(self, layer_path: str) -> bool:
        on = self.book.toggle(layer_path)
        self._arm()
        return on

    def set_value_breakpoint(self, bound: float | None = None, on: bool = True) -> str:
        text = self.book.set_value_breakpoint(bound, on)
        self._arm()
        return text

    def breakpoint_list(self) -> list[tuple[Breakpoint, bool]]:
        return self.book.listing()

    def value_breakpoint(self) -> Breakpoint | None:
        return self.book.value_breakpoint()

    def breakpoint_paths(self) -> set[str]:
        return self.book.paths()

    def find_layer(self, spec: str) -> Layer | None:
        """A layer by id path ('2/body/7') or name."""
        return find_layer_by_spec(self.model, spec)

    # -- recorded values (recorder.py) and loops (loops.py) --------------------------------------
    @property
    def values(self) -> OrderedDict[tuple[str, Iteration], tuple[np.ndarray, ...]]:
        return self.recorder.values

    @property
    def conditions(self) -> dict[str, dict[Iteration, bool | None]]:
        return self.recorder.conditions

    def iterations_seen(self, layer_path: str) -> list[Iteration]:
        return self.recorder.iterations_seen(layer_path)

    def tensor(self, layer_path: str, iteration: Iteration | None = None) -> tuple[np.ndarray, ...] | None:
        return self.recorder.tensor(layer_path, iteration)

    def recorded(self) -> list[tuple[tuple[str, Iteration], tuple[np.ndarray, ...]]]:
        return self.recorder.recorded()

    def history(self, layer_path: str, port: int = 0) -> list[tuple[Iteration, np.ndarray]]:
        return self.recorder.history(layer_path, port)

    def loop_conditions(self, loop_path: str) -> dict[Iteration, bool | None]:
        return self.recorder.loop_conditions(loop_path)

    def loop_chain(self, layer_path: str) -> list[str]:
        return self.loops.chain(layer_path)

    def recorded_at(self, layer_path: str, target: Iteration) -> Iteration | None:
        return self.loops.recorded_at(layer_path, target)

    def static_count(self, path: str) -> tuple[bool, int | None]:
        return self.loops.static_count(path)

    def totals(self, frames: tuple[tuple[str, int], ...]) -> list[str]:
        return self.loops.totals(frames)

    def loop_totals(self, frames: tuple[tuple[str, int], ...] | None = None) -> list[str]:
        """'k of N' per enclosing loop of the current event, or of `frames` (while running); an enclosing If
        shows the branch that runs ('else branch')."""
        ev = self.stepper.current
        if frames is None:
            frames = self.progress.frames if ev is None else getattr(ev, "frames", ())
            here = getattr(getattr(ev, "layer", None), "path", "")
            branch = getattr(ev, "branch", None)
        else:
            inner = frames[-1][0] + "/" if frames else None
            latest = self.recorder.latest_path() if inner else None
            here = latest if latest is not None and inner is not None and latest.startswith(inner) else ""
            branch = None
        return self.loops.totals_text(frames, here, branch)

    def set_value(self, text: str, port: int = 0) -> str:
        """What-if: replace an output of the paused layer (whatif.py)."""
        return self.whatif.set_value(text, port)

    @property
    def altered(self) -> bool:
        """The run goes on with a value set by hand."""
        return bool(self.whatif.changes)

    # -- the expression console (environment.py) ------------------------------------------------
    def stop_tensors(self) -> tuple[np.ndarray, ...]:
        return self.environment.stop_tensors()

    def expression_env(self) -> dict[str, object]:
        return self.environment.names()

    def value(self, spec: object, port: object = None, iteration: object = None) -> np.ndarray:
        return self.environment.value(spec, port, iteration)

    def evaluate(self, text: str) -> object:
        return self.environment.evaluate(text)
