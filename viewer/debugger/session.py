"""The debugger's state without any UI: a Stepper plus the tensors seen so far, by layer and iteration.

The Textual app only calls these methods and renders what they return, so the stepping logic is
tested without a terminal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from irlint.interp import Options, execute
from irlint.interp.events import (
    BodyEntered,
    BodyLeft,
    Event,
    IterationFinished,
    IterationStarted,
    LayerEvaluated,
    RunFinished,
)
from irlint.interp.stepper import Breakpoint, Stepper
from irlint.ir.model import Model

MAX_RECORDED = 200_000  # tensors kept for revisiting; older ones are dropped first


def iteration_of(frames: tuple[tuple[str, int], ...]) -> tuple[int, ...]:
    return tuple(k for _p, k in frames)


def describe_event(ev: Event | None) -> str:
    if ev is None:
        return "finished"
    its = ".".join(str(k) for k in iteration_of(getattr(ev, "frames", ())))
    at = f" [iteration {its}]" if its else ""
    if isinstance(ev, LayerEvaluated):
        return f"evaluated {ev.layer.describe()}{at}"
    if isinstance(ev, BodyEntered):
        return f"entering the body of {ev.layer.describe()}{at}"
    if isinstance(ev, IterationStarted):
        return f"iteration {ev.iteration} of {ev.layer.describe()} starts{at}"
    if isinstance(ev, IterationFinished):
        cond = "" if ev.condition is None else f", condition {ev.condition}"
        return f"iteration {ev.iteration} of {ev.layer.describe()} finished{cond}"
    if isinstance(ev, BodyLeft):
        return f"left {ev.layer.describe()} after {ev.iterations} iterations{at}"
    if isinstance(ev, RunFinished):
        return "run finished: " + ", ".join(f"{k} {list(v.shape)}" for k, v in ev.outputs.items())
    return type(ev).__name__


@dataclass
class Session:
    model: Model
    inputs: Mapping[str, np.ndarray]
    options: Options = field(default_factory=Options)
    stepper: Stepper = field(init=False)
    # (layer path, iteration tuple) -> output tensors (Results: the tensor they receive)
    values: dict[tuple[str, tuple[int, ...]], tuple[np.ndarray, ...]] = field(default_factory=dict)
    log: list[str] = field(default_factory=list)
    _held: int = 0  # bytes of the recorded tensors

    def __post_init__(self) -> None:
        self.stepper = Stepper(self._recording(execute(self.model, self.inputs, self.options)))

    def _recording(self, events):  # type: ignore[no-untyped-def]
        for ev in events:
            if isinstance(ev, LayerEvaluated):
                self._keep((ev.layer.path, iteration_of(ev.frames)), ev.outputs or ev.inputs)
            elif isinstance(ev, IterationStarted):
                for pid, v in ev.params.items():
                    self._keep((f"{ev.layer.path}/body/{pid}", iteration_of(ev.frames)), (v,))
            yield ev

    def _keep(self, key: tuple[str, tuple[int, ...]], arrays: tuple[np.ndarray, ...]) -> None:
        """Record tensors for revisiting, oldest dropped first past MAX_RECORDED or past the memory budget
        (the recorded tensors are kept alive by this dict, so they count against --memory-budget)."""
        old = self.values.pop(key, None)
        if old is not None:
            self._held -= sum(a.nbytes for a in old)
        self.values[key] = arrays
        self._held += sum(a.nbytes for a in arrays)
        while self.values and (len(self.values) > MAX_RECORDED or self._held > self.options.memory_budget):
            dropped = self.values.pop(next(iter(self.values)))
            self._held -= sum(a.nbytes for a in dropped)

    # -- commands ------------------------------------------------------------------------------
    def do(self, command: str) -> Event | None:
        fn = {"step": self.stepper.step, "over": self.stepper.step_over, "into": self.stepper.step_into,
              "out": self.stepper.step_out, "iteration": self.stepper.next_iteration,
              "continue": self.stepper.continue_}[command]
        ev = fn()
        text = describe_event(ev)
        if self.stepper.stopped_by is not None:
            text = f"breakpoint: {text}"
        self.log.append(text)
        return ev

    def toggle_breakpoint(self, layer_path: str) -> bool:
        """Add or remove a breakpoint on a layer; returns True if it is now set."""
        for bp in self.stepper.breakpoints:
            if bp.layer == layer_path:
                self.stepper.breakpoints.remove(bp)
                return False
        self.stepper.breakpoints.append(Breakpoint(layer=layer_path))
        return True

    def iterations_seen(self, layer_path: str) -> list[tuple[int, ...]]:
        return sorted(its for (p, its) in self.values if p == layer_path)

    def tensor(self, layer_path: str, iteration: tuple[int, ...] | None = None) -> tuple[np.ndarray, ...] | None:
        """The layer's outputs at an iteration (the latest recorded if None)."""
        seen = self.iterations_seen(layer_path)
        if not seen:
            return None
        key = iteration if iteration in seen else seen[-1]
        return self.values[(layer_path, key)]

    def loop_totals(self) -> list[str]:
        """'k/N' per enclosing loop of the current event (N from static inference, '?' when unknown)."""
        if not hasattr(self, "_shapes"):
            from irlint.shapes import infer_model

            self._shapes = infer_model(self.model)
        ev = self.stepper.current
        out = []
        for path, k in getattr(ev, "frames", ()):
            info = self._shapes.loops.get(path)
            total = info.iterations if info is not None and info.iterations is not None else None
            if total is None and info is not None and info.max_iterations is not None:
                total = f"<={info.max_iterations}"
            out.append(f"{k + 1}/{'?' if total is None else total}")
        return out

    @property
    def current_iteration(self) -> tuple[int, ...]:
        ev = self.stepper.current
        return iteration_of(getattr(ev, "frames", ())) if ev is not None else ()
