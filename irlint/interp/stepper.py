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
    IterationStarted,
    LayerEvaluated,
    RunFinished,
)
from irlint.layerpath import iteration_label


@dataclass(frozen=True)
class BadValue:
    """The first offending element of a tensor an event produced: the layer (a body Parameter: its value at the
    iteration's start), the output (`out<port id>`, or `in`), the element's index, its value, the frames."""

    path: str
    name: str
    type: str
    port: str
    index: tuple[int, ...]
    value: float
    frames: tuple[tuple[str, int], ...]

    def describe(self) -> str:
        """`layer 3/body/8 'root' (Sqrt), port out1, iteration 2.3, element [0] = nan`."""
        its = iteration_label([k for _p, k in self.frames], self.path)
        index = "[" + ", ".join(map(str, self.index)) + "]"
        return (
            f"layer {self.path} {self.name!r} ({self.type}), port {self.port}, iteration {its}, "
            f"element {index} = {self.value:g}"
        )


def search_text(nonfinite: bool, bound: float | None) -> str:
    """What a value search looks for, in words."""
    parts = (["NaN/Inf"] if nonfinite else []) + ([f"|value| > {bound:g}"] if bound is not None else [])
    return " or ".join(parts)


def first_bad(t: np.ndarray, nonfinite: bool = True, bound: float | None = None) -> tuple[int, ...] | None:
    """The index (C order) of the first NaN/Inf (`nonfinite`) or |element| > `bound` in `t`, or None.

    Floating-point tensors only: what blows up or turns into NaN are values; integer tensors hold
    shapes, indices and iteration counters, whose size says nothing about a run going wrong."""
    if t.dtype.kind != "f" or t.size == 0:
        return None
    bad = nonfinite and not np.isfinite(t).all()
    if not bad and bound is None:
        return None
    if bound is None:
        mask = np.zeros(t.shape, bool)
    elif bound >= float(np.finfo(t.dtype).max):  # beyond the dtype (1e300 for f32): only an Inf passes it
        mask = np.isinf(t)
    else:
        with np.errstate(invalid="ignore"):
            mask = np.abs(t) > bound
    if not bad and not mask.any():
        return None
    if bad:
        mask |= ~np.isfinite(t)
    flat = int(np.flatnonzero(mask)[0])
    return tuple(int(i) for i in np.unravel_index(flat, t.shape))


def bad_value(event: Event, nonfinite: bool = True, bound: float | None = None) -> BadValue | None:
    """The first NaN/Inf (or |value| > bound) an event brings: a layer's outputs, or the values a body's
    Parameters take at an iteration's start (a slice of an input holding one); else None. Results and the
    end of an iteration only pass on values some earlier event produced."""
    cls = event.__class__
    if cls is LayerEvaluated:
        layer = event.layer
        for i, t in enumerate(event.outputs):
            idx = first_bad(t, nonfinite, bound)
            if idx is not None:
                port = f"out{layer.outputs[i].id}" if i < len(layer.outputs) else f"out?{i}"
                return BadValue(layer.path, layer.name, layer.type, port, idx, float(t[idx]), event.frames)
    elif cls is IterationStarted:
        part = "body" if event.branch is None else f"{event.branch}_body"
        for pid, t in event.params.items():
            idx = first_bad(t, nonfinite, bound)
            if idx is not None:
                path = f"{event.layer.path}/{part}/{pid}"
                body = event.layer.body if event.branch is None else event.layer.branch(event.branch).body
                inner = body.layer(pid) if body is not None else None
                name = inner.name if inner is not None else str(pid)
                return BadValue(path, name, "Parameter", "in", idx, float(t[idx]), event.frames)
    return None


@dataclass(frozen=True)
class Breakpoint:
    """Stop when a layer (id path or name) is evaluated, a loop reaches an iteration, or a value goes bad.

    `nonfinite` stops at the first event producing a NaN/Inf, `bound` at the first |value| > bound
    (`bad_value`: a layer's outputs, a body Parameter's value at an iteration's start).
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
            return (
                isinstance(event, IterationStarted)
                and event.iteration == self.iteration
                and (self.loop is None or self.loop in (event.layer.path, event.layer.name))
            )
        if self.nonfinite or self.bound is not None:
            return bad_value(event, self.nonfinite, self.bound) is not None
        return False


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
