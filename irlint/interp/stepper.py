"""A bdb-like stepper over the event stream: step, step over/into/out, next iteration, continue, breakpoints.

It has no UI: a debugger (or a test) calls its methods and reads `current`. Every method pulls
events until its stop condition or a breakpoint holds, and returns the event it stopped at (None
once the run is finished). It keeps no past events: what a debugger shows of earlier iterations it
records itself, within its memory budget (the viewer's Session); a stepper that kept every
iteration's results held a 100,000-iteration loop's tensors past any budget.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from irlint.interp.events import (
    BodyEntered,
    BodyLeft,
    Event,
    IterationFinished,
    IterationStarted,
    LayerEvaluated,
    RunFinished,
)


@dataclass(frozen=True)
class Breakpoint:
    """Stop when a layer (id path or name) is evaluated, a loop reaches an iteration, or a tensor condition holds.

    `nonfinite` stops at the first tensor with NaN/Inf; `bound` at the first |value| > bound.
    """

    layer: str | None = None
    iteration: int | None = None
    loop: str | None = None  # restrict `iteration` to one TI/Loop (id path or name)
    nonfinite: bool = False
    bound: float | None = None

    def hit(self, event: Event) -> bool:
        if self.layer is not None:
            return isinstance(event, LayerEvaluated) and self.layer in (event.layer.path, event.layer.name)
        if self.iteration is not None:
            return (isinstance(event, IterationStarted) and event.iteration == self.iteration
                    and (self.loop is None or self.loop in (event.layer.path, event.layer.name)))
        if self.nonfinite or self.bound is not None:
            return any(self._bad(t) for t in _tensors(event))
        return False

    def _bad(self, t: np.ndarray) -> bool:
        if not np.issubdtype(t.dtype, np.number):
            return False
        if self.nonfinite and np.issubdtype(t.dtype, np.floating) and not np.isfinite(t).all():
            return True
        return self.bound is not None and t.size > 0 and float(np.nanmax(np.abs(t.astype(np.float64)))) > self.bound


def _tensors(event: Event) -> list[np.ndarray]:
    if isinstance(event, LayerEvaluated):
        return list(event.outputs)
    if isinstance(event, IterationStarted):
        return list(event.params.values())
    if isinstance(event, IterationFinished):
        return list(event.results.values())
    return []


@dataclass
class Stepper:
    events: Iterator[Event]
    breakpoints: list[Breakpoint] = field(default_factory=list)
    current: Event | None = None
    finished: bool = False
    stopped_by: Breakpoint | None = None

    def _pull(self) -> Event | None:
        if self.finished:
            return None
        try:
            ev = next(self.events)
        except StopIteration:
            self.finished = True
            return None
        self.current = ev
        if ev.__class__ is RunFinished:
            self.finished = True
        return ev

    def _advance(self, stop: Callable[[Event], bool]) -> Event | None:
        self.stopped_by = None
        while True:
            ev = self._pull()
            if ev is None:
                return None
            for bp in self.breakpoints:
                if bp.hit(ev):
                    self.stopped_by = bp
                    return ev
            if stop(ev) or isinstance(ev, RunFinished):
                return ev

    def depth(self) -> int:
        ev = self.current
        return len(getattr(ev, "frames", ())) if ev is not None else 0

    def step(self) -> Event | None:
        """The next event, whatever it is."""
        return self._advance(lambda ev: True)

    def step_into(self) -> Event | None:
        """Like step; at a TI/Loop this enters its body (the next event is its first iteration)."""
        return self._advance(lambda ev: not isinstance(ev, BodyEntered))

    def step_over(self) -> Event | None:
        """The next layer evaluated at this depth or above (a TI/Loop runs to completion)."""
        d = self.depth()
        return self._advance(lambda ev: isinstance(ev, LayerEvaluated) and len(ev.frames) <= d)

    def step_out(self) -> Event | None:
        """Finish the innermost body being executed; stop when its TI/Loop layer is evaluated."""
        d = self.depth()
        return self._advance(lambda ev: isinstance(ev, LayerEvaluated) and len(ev.frames) < d)

    def next_iteration(self) -> Event | None:
        """The start of the next iteration of the innermost loop (or of the next loop met)."""
        d = self.depth()
        return self._advance(lambda ev: isinstance(ev, IterationStarted) and len(ev.frames) <= max(d, 1))

    def continue_(self) -> Event | None:
        """Run to the next breakpoint or to the end."""
        return self._advance(lambda ev: False)

    def left(self) -> Event | None:
        """Run until the current body is left (the BodyLeft event)."""
        return self._advance(lambda ev: isinstance(ev, BodyLeft))
