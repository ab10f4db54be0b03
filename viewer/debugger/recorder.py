"""What the debugger has seen of a run: the tensors by (layer, iteration), loop conditions and bounds,
and the latest events, each numbered, so the panes can show earlier iterations and a step back can
stand at an earlier event.

The stepper keeps no past (irlint/interp/stepper.py); the recorder sits between the executor's event
stream and the stepper (`recording`) and keeps what passes, within MAX_RECORDED tensors and the memory
budget, oldest dropped first. Stepping runs in a worker thread while the UI reads, so every access to
the recorded values goes through `lock`.

While the session stands at a kept event after a step back (`cursor`, its number), every read shows
only what was recorded up to it: each tensor and loop condition carries the number of the event that
recorded it.
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from collections import OrderedDict, deque
from collections.abc import Iterator
from operator import attrgetter

import numpy as np
from irlint.viewer.debugger.describe import Iteration, iteration_of

from irlint.interp.events import (
    BodyEntered,
    Event,
    IterationFinished,
    IterationStarted,
    LayerEvaluated,
    RunFinished,
)

MAX_RECORDED = 200_000  # tensors kept for revisiting; older ones are dropped first
# Events kept for stepping back without a restart: the latest MAX_KEPT_EVENTS while commands are short,
# the latest FEW_KEPT_EVENTS once a command runs past LONG_COMMAND events (each kept event outlives the
# garbage collector's young generation, which made a long continue a third slower when all were kept)
MAX_KEPT_EVENTS = 10_000
LONG_COMMAND = 2_000
FEW_KEPT_EVENTS = 16
_NBYTES = attrgetter("nbytes")


class Recorder:
    """The recorded tensors and events of one run (`reset` for the next)."""

    def __init__(self, memory_budget: int) -> None:
        self.memory_budget = memory_budget
        self.lock = threading.Lock()
        # (layer path, iteration tuple) -> output tensors (Results: the tensor they receive); oldest first:
        # evicting from the front of an OrderedDict stays O(1) (a dict's first key is found by scanning past
        # the holes its deletions left, which made a long continue slow down steadily)
        self.values: OrderedDict[tuple[str, Iteration], tuple[np.ndarray, ...]] = OrderedDict()
        self.seen: dict[str, dict[Iteration, int]] = {}  # layer path -> iteration recorded -> the event that did
        # the top-level inputs: no event makes them and no eviction drops them (the session holds them anyway)
        self.pinned: dict[str, tuple[np.ndarray, ...]] = {}
        self.held = 0  # bytes of the recorded tensors
        # loop path -> {iteration tuple: condition} of finished iterations (Loop: the body condition; TI: None)
        self.conditions: dict[str, dict[Iteration, bool | None]] = {}
        self.cond_at: dict[tuple[str, Iteration], int] = {}  # the event that recorded each condition
        self.limits: dict[str, int | None] = {}  # TI/Loop path -> iteration bound of its latest run
        self.limit_at: dict[str, list[tuple[int, int | None]]] = {}  # ... by the event that set it
        self.last: dict[str, Iteration] = {}  # layer path -> the latest iteration it was recorded at
        self.started: dict[str, Iteration] = {}  # TI/Loop/If path -> the iterations at its latest start
        self.kept: deque[Event] = deque(maxlen=MAX_KEPT_EVENTS)  # the latest events (the last is number `events`)
        self._keep = self.kept.append
        self.replaced_at = 0  # the latest event that recorded a (layer, iteration) anew
        self.dropped_at = 0  # the event that recorded the newest tensor dropped (0: none dropped)
        self.cursor: int | None = None  # the number of the current event while it is a kept one
        # What a running step has done so far, written per event as two plain attributes (a Progress object
        # per event cost more than recording the event)
        self.events = 0
        self.frames: tuple[tuple[str, int], ...] = ()
        self.command_start = 0  # `events` when the running command began

    def reset(self) -> None:
        """Forget the run (a restart): nothing recorded, no event yet."""
        with self.lock:
            self.values.clear()
            self.seen.clear()
            self.conditions.clear()
            self.held = 0  # else the bytes of the dropped values still counted: one tensor kept after that
        self.events, self.frames = 0, ()
        self.kept.clear()
        self.cond_at.clear()
        self.limit_at.clear()
        self.replaced_at = 0
        self.dropped_at = 0
        self.cursor = None
        self.last.clear()
        self.started.clear()
        self.limits.clear()

    # -- recording -----------------------------------------------------------------------------
    def pin(self, path: str, tensors: tuple[np.ndarray, ...]) -> None:
        """A top-level input's value: shown at every stop, whatever was dropped since."""
        with self.lock:
            self.pinned[path] = tensors

    def record(self, path: str, its: Iteration, tensors: tuple[np.ndarray, ...]) -> None:
        """Record tensors for revisiting, oldest dropped first past MAX_RECORDED or past the memory budget
        (the recorded tensors are kept alive here, so they count against --memory-budget); `seen` notes the
        number of the event that recorded them."""
        size = 0
        for a in tensors:
            size += a.nbytes
        values = self.values
        key = (path, its)
        now = self.events
        with self.lock:
            old = values.pop(key, None)
            if old is not None:
                size -= sum(map(_NBYTES, old))
                self.replaced_at = now
            values[key] = tensors
            seen = self.seen.get(path)
            if seen is None:
                seen = self.seen[path] = {}
            seen[its] = now
            self.last[path] = its
            held = self.held = self.held + size
            if held > self.memory_budget or len(values) > MAX_RECORDED:
                while len(values) > 1 and (len(values) > MAX_RECORDED or self.held > self.memory_budget):
                    (old_path, old_its), dropped = values.popitem(last=False)
                    self.dropped_at = self.seen[old_path].pop(old_its, 0)
                    self.held -= sum(map(_NBYTES, dropped))
                if len(self.kept) > FEW_KEPT_EVENTS:
                    self._trim_kept(now)

    def _trim_kept(self, now: int) -> None:
        """Drop the kept events older than the oldest recorded value (they hold tensors too; with the lock)."""
        kept = self.kept
        oldest_path, oldest_its = next(iter(self.values))
        oldest = self.seen[oldest_path][oldest_its]
        first = now - len(kept) + 1
        for _ in range(min(oldest - first, len(kept))):
            kept.popleft()

    def recording(self, events: Iterator[Event]) -> Iterator[Event]:
        """Pass events through, recording their tensors. (Events are tested by exact class, the most
        frequent first, and the iteration tuple is made once per iteration, not per event.)"""
        record = self.record
        last: tuple[tuple[str, int], ...] | None = None
        its: Iteration = ()
        for ev in events:
            cls = ev.__class__
            frames = ev.frames if cls is not RunFinished else ()
            if frames is not last:  # an iteration's events share one frames tuple
                last, its = frames, iteration_of(frames)
            self.events += 1
            self._keep(ev)
            if not self.events & 1023 and self.events - self.command_start > LONG_COMMAND:
                self.keep_few()
            self.frames = frames
            if cls is LayerEvaluated:
                record(ev.layer.path, its, ev.outputs or ev.inputs)
            elif cls is IterationStarted:
                self.started[ev.layer.path] = its
                part = "body" if ev.branch is None else f"{ev.branch}_body"  # an If: the branch that runs
                for pid, v in ev.params.items():
                    record(f"{ev.layer.path}/{part}/{pid}", its, (v,))
            elif cls is IterationFinished:
                with self.lock:
                    self.conditions.setdefault(ev.layer.path, {})[its] = ev.condition
                    self.cond_at[(ev.layer.path, its)] = self.events
            elif cls is BodyEntered and ev.branch is None:
                self.limits[ev.layer.path] = ev.limit
                history = self.limit_at.setdefault(ev.layer.path, [])
                if not history or history[-1][1] != ev.limit:
                    history.append((self.events, ev.limit))
            yield ev

    def keep_few(self) -> None:
        """A long command: keep only the latest FEW_KEPT_EVENTS events from now on (until the next one)."""
        if self.kept.maxlen != FEW_KEPT_EVENTS:
            with self.lock:
                self.kept = deque(self.kept, maxlen=FEW_KEPT_EVENTS)
                self._keep = self.kept.append

    def keep_many(self) -> None:
        """A command starts: keep up to MAX_KEPT_EVENTS events again."""
        if self.kept.maxlen != MAX_KEPT_EVENTS:
            with self.lock:
                self.kept = deque(self.kept, maxlen=MAX_KEPT_EVENTS)
                self._keep = self.kept.append

    # -- reading, as of the current event ------------------------------------------------------
    def _seen_now(self, layer_path: str) -> list[Iteration] | dict[Iteration, int]:
        """The layer's recorded iterations as of the current event (call with the lock held)."""
        seen = self.seen.get(layer_path, {})
        c = self.cursor
        if c is None:
            return seen
        return [its for its, n in seen.items() if n <= c]

    def iterations_seen(self, layer_path: str) -> list[Iteration]:
        with self.lock:
            if layer_path in self.pinned:
                return [()]
            return sorted(self._seen_now(layer_path))

    def tensor(self, layer_path: str, iteration: Iteration | None = None) -> tuple[np.ndarray, ...] | None:
        """The layer's outputs at an iteration (the latest recorded if None or not recorded)."""
        with self.lock:
            seen = self._seen_now(layer_path)
            if not seen:
                return self.pinned.get(layer_path)
            key = iteration if iteration in seen else max(seen)
            return self.values[(layer_path, key)]

    def recorded(self) -> list[tuple[tuple[str, Iteration], tuple[np.ndarray, ...]]]:
        """Every recorded ((layer path, iteration), tensors) as of the current event (after a step back, none
        recorded later), oldest first: a copy taken under the lock, so a running step may go on recording."""
        with self.lock:
            pinned = [((path, ()), v) for path, v in self.pinned.items()]
            c = self.cursor
            if c is None:
                return pinned + list(self.values.items())
            return pinned + [(k, v) for k, v in self.values.items() if self.seen[k[0]][k[1]] <= c]

    def history(self, layer_path: str, port: int = 0) -> list[tuple[Iteration, np.ndarray]]:
        """Every recorded (iteration, tensor of output `port`) of a layer, in iteration order."""
        with self.lock:
            if layer_path in self.pinned:
                t = self.pinned[layer_path]
                return [((), t[port])] if port < len(t) else []
            seen = sorted(self._seen_now(layer_path))
            out = []
            for its in seen:
                t = self.values[(layer_path, its)]
                if port < len(t):
                    out.append((its, t[port]))
            return out

    def loop_conditions(self, loop_path: str) -> dict[Iteration, bool | None]:
        with self.lock:
            conds = self.conditions.get(loop_path, {})
            c = self.cursor
            if c is None:
                return dict(conds)
            return {its: v for its, v in conds.items() if self.cond_at[(loop_path, its)] <= c}

    def limit(self, loop_path: str) -> int | None:
        """The iteration bound of the loop's latest run as of the current event."""
        if self.cursor is None:
            return self.limits.get(loop_path)
        history = self.limit_at.get(loop_path, [])
        i = bisect_right(history, self.cursor, key=lambda e: e[0])
        return history[i - 1][1] if i else None

    def latest_path(self) -> str | None:
        """The path of the latest recorded layer."""
        with self.lock:
            last = next(reversed(self.values), None)
        return last[0] if last is not None else None
