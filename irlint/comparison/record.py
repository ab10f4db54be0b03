"""What `irlint compare` keeps of irlint's own run: the iterations each TensorIterator/Loop ran and, for
`--inside` and the two-IR mode, chosen layers' outputs per iteration, within a byte budget.

A listener of the plain driver (`irlint.interp.run(..., listener=)`), as `irlint run --trace-all`
records, but only the layers asked for: a 1,000-iteration body of 50 layers recorded whole would hold
every intermediate tensor of the run. When the kept values pass the budget, layers are dropped whole and
never taken again, so that as many as can be are kept: first a layer whose values alone pass the budget,
else the one whose values grow fastest (bytes per outermost iteration: one big layer, not the many small
ones after it), of equals the least wanted (the last asked for). A layer is compared over all of its
iterations or not at all, and `dropped` says which were left out.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from irlint.interp.events import Frames
from irlint.ir.model import Layer

Iterations = tuple[int, ...]


def iterations_of(frames: Frames) -> Iterations:
    return tuple(k for _path, k in frames)


class Recorder:
    """Iteration counts of every TI/Loop run; outputs of the `wanted` layers (path -> priority, 0 first)."""

    def __init__(self, wanted: dict[str, int] | None = None, budget: int = 0) -> None:
        self.wanted = wanted or {}
        self.layers = bool(self.wanted)
        self.budget = budget
        self.kept = 0
        self.runs: dict[tuple[str, Iterations], int] = {}  # (loop path, enclosing iterations) -> iterations
        self.values: dict[str, dict[Iterations, tuple[np.ndarray, ...]]] = {}
        self.order: dict[tuple[str, Iterations], int] = {}  # when each (layer, iterations) was computed
        self.bytes: dict[str, int] = {}
        self.dropped: list[str] = []
        self.dropped_bytes: dict[str, int] = {}  # what a dropped layer's values held when it was dropped
        self.needed: dict[str, int] = {}  # what each wanted layer's values over the whole run take, dropped or not
        self.evaluations: dict[str, int] = {}  # how often each wanted layer was computed
        self.layer_of: dict[str, Layer] = {}

    @property
    def top_iterations(self) -> dict[str, int]:
        """How many iterations each top-level TensorIterator/Loop ran."""
        return {path: n for (path, outer), n in self.runs.items() if not outer}

    def iteration_started(self, layer: Layer, iteration: int, keys: Sequence[int | None],
                          values: Sequence[np.ndarray], frames: Frames) -> None:
        if layer.type != "If":
            k = (layer.path, iterations_of(frames[:-1]))
            if self.runs.get(k, 0) <= iteration:
                self.runs[k] = iteration + 1

    def iteration_finished(self, layer: Layer, iteration: int, keys: Sequence[int | None],
                           values: Sequence[np.ndarray], frames: Frames) -> None:
        """Nothing: the counts come from the starts (a failing iteration still counts where it began)."""

    def _rate(self, path: str) -> float:
        """How fast a layer's values grow: bytes per outermost iteration it ran in (a layer of an inner loop
        takes all its inner runs' bytes in one)."""
        outer = {its[0] if its else 0 for its in self.values[path]}
        return self.bytes[path] / len(outer)

    def layer_evaluated(self, layer: Layer, outputs: Sequence[np.ndarray], frames: Frames) -> None:
        path = layer.path
        if path not in self.wanted:
            return
        self.evaluations[path] = self.evaluations.get(path, 0) + 1
        if path in self.dropped:  # counted, not kept: the report says what keeping it would have taken
            self.needed[path] += sum(getattr(o, "nbytes", 0) for o in outputs)
            return
        outs = tuple(o if type(o) is np.ndarray else np.asarray(o) for o in outputs)
        size = sum(o.nbytes for o in outs)
        self.needed[path] = self.needed.get(path, 0) + size
        self.kept += size
        self.bytes[path] = self.bytes.get(path, 0) + size
        its = iterations_of(frames)
        self.values.setdefault(path, {})[its] = outs
        self.layer_of[path] = layer
        self.order[(path, its)] = len(self.order)
        while self.kept > self.budget and self.values:
            # a layer that alone passes the budget can never be kept: drop it, not the others after it;
            # else the layer taking the most bytes a run (one big layer, not the many small ones after it),
            # of equals the least wanted
            worst = path if self.bytes[path] > self.budget else max(
                self.values, key=lambda p: (self._rate(p), self.wanted[p]))
            self.dropped_bytes[worst] = self.bytes[worst]
            self.kept -= self.bytes.pop(worst)
            del self.values[worst]
            self.dropped.append(worst)
