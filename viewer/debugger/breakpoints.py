"""The user's breakpoints, kept apart from stepping (as bdb keeps them apart from its frames).

The book holds every breakpoint the user set, enabled or not, in the order they were set; the
session hands the enabled ones to the stepper when a command starts (`enabled`), so a restart or a
step back never loses one, and a go-to that sets them aside only has to leave them out.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np
from irlint.viewer.debugger.describe import iteration_of

from irlint.interp.events import Event, LayerEvaluated
from irlint.interp.stepper import Breakpoint, first_bad, search_text
from irlint.ir.model import Layer, Model


@dataclass(frozen=True)
class ConditionalBreakpoint(Breakpoint):
    """`layer SPEC when EXPR` / `when EXPR`: stop when a (matching) layer is evaluated and EXPR holds;
    `... log EXPR` prints EXPR at each hit without stopping (a logpoint), `... hit N` stops at the Nth hit.

    EXPR sees `x` (the layer's first output, a Result's input), `outputs`, `iteration` (innermost loop,
    0-based, -1 outside loops), `iterations` (outer first) and `layer` (its name); see conditions.py.
    """

    when: str = ""
    test: Callable[[dict[str, object]], bool] | None = field(default=None, compare=False, repr=False)
    log: str = ""  # a logpoint: this expression is printed at each hit, and the run goes on
    count: int = 0  # stop at the Nth hit only (a logpoint with a count prints every hit, stops at the Nth)
    # the session's: counts the hit, prints a logpoint's line, says whether to stop (None: stop at every hit)
    on_hit: Callable[[ConditionalBreakpoint, dict[str, object], Event], bool] | None = field(
        default=None, compare=False, repr=False
    )

    def hit(self, event: Event) -> bool:
        if not isinstance(event, LayerEvaluated):
            return False
        if self.layer is not None and self.layer not in (event.layer.path, event.layer.name):
            return False
        tensors = event.outputs or event.inputs
        its = iteration_of(event.frames)
        env = {
            "x": tensors[0] if tensors else np.zeros(0),
            "outputs": tensors,
            "iteration": its[-1] if its else -1,
            "iterations": its,
            "layer": event.layer.name,
        }
        if self.test is not None:
            try:
                if not self.test(env):
                    return False
            except Exception:  # e.g. a comparison on a tensor of another shape: not a hit, never a crash
                return False
        return self.on_hit(self, env, event) if self.on_hit is not None else True


def is_value_breakpoint(bp: Breakpoint) -> bool:
    """The breakpoint on bad values at any layer (`!`, `nonfinite [MAGNITUDE]`)."""
    return not isinstance(bp, ConditionalBreakpoint) and bp.layer is None and (bp.nonfinite or bp.bound is not None)


def find_layer_by_spec(model: Model, spec: str) -> Layer | None:
    """A layer by id path ('2/body/7') or name."""
    for _g, la in model.layers():
        if la.path == spec:
            return la
    return next((la for _g, la in model.layers() if la.name == spec), None)


class BreakpointBook:
    """Every breakpoint the user set: the enabled ones (`enabled`, what the stepper tests) and the
    disabled ones, each remembered by when it was set (two equal breakpoints stay two)."""

    def __init__(self, model: Model, inputs: Mapping[str, np.ndarray]) -> None:
        self.model, self.inputs = model, inputs
        self.enabled: list[Breakpoint] = []
        self._off: list[Breakpoint] = []
        self._order: dict[int, int] = {}  # id(breakpoint) -> when it was set: the list's order

    def add(self, bp: Breakpoint) -> None:
        self._order.setdefault(id(bp), len(self._order) and max(self._order.values()) + 1)
        self.enabled.append(bp)

    def remove(self, bp: Breakpoint) -> None:
        """Delete a breakpoint, enabled or not (by identity: two may be equal)."""
        for where in (self.enabled, self._off):
            for i, other in enumerate(where):
                if other is bp:
                    del where[i]
                    self._order.pop(id(bp), None)
                    return

    def listing(self) -> list[tuple[Breakpoint, bool]]:
        """Every breakpoint, enabled or not, in the order they were set."""
        both = [(bp, True) for bp in self.enabled] + [(bp, False) for bp in self._off]
        return sorted(both, key=lambda e: self._order.get(id(e[0]), 0))

    def set_enabled(self, bp: Breakpoint, on: bool) -> None:
        """Enable or disable a breakpoint; a disabled one stays in the list (and across restarts)."""
        src, dst = (self._off, self.enabled) if on else (self.enabled, self._off)
        for i, other in enumerate(src):
            if other is bp:
                del src[i]
                dst.append(bp)
                return

    def replace(self, old: Breakpoint, new: Breakpoint) -> None:
        """Put `new` (an edited condition) in `old`'s place: same position in the list, same enabled state."""
        for where in (self.enabled, self._off):
            for i, other in enumerate(where):
                if other is old:
                    where[i] = new
                    self._order[id(new)] = self._order.pop(id(old), 0)
                    return

    def toggle(self, layer_path: str) -> bool:
        """Add or remove a breakpoint on a layer; returns True if it is now set."""
        for bp in self.enabled:
            if bp.layer == layer_path:
                self.remove(bp)
                return False
        self.add(Breakpoint(layer=layer_path))
        return True

    def value_breakpoint(self) -> Breakpoint | None:
        """The breakpoint on bad values (NaN/Inf, |value| above a magnitude), if one is set."""
        return next((bp for bp in self.enabled if is_value_breakpoint(bp)), None)

    def set_value_breakpoint(self, bound: float | None = None, on: bool = True) -> str:
        """Set (replacing any other) or clear the breakpoint that stops at the first event producing a NaN/Inf
        (or a |value| > bound) at any depth; returns what the log says, naming an input that holds one
        already (no layer makes that one, so the breakpoint cannot stop there)."""
        for old, _on in self.listing():  # one at a time, a disabled one included
            if is_value_breakpoint(old):
                self.remove(old)
        if not on:
            return "no longer stopping at NaN/Inf"
        bp = Breakpoint(nonfinite=True, bound=bound)
        self.add(bp)
        text = f"stopping at the first {search_text(True, bound)} (any layer, any iteration)"
        for p in self.model.graph.parameters():
            if p.name in self.inputs:
                idx = first_bad(np.asarray(self.inputs[p.name]), True, bound)
                if idx is not None:
                    text += f"; input {p.name!r} holds one already at [{', '.join(map(str, idx))}]"
        return text

    def paths(self) -> set[str]:
        """Layer paths that carry a breakpoint (for the markers in the tree)."""
        out = set()
        for bp in self.enabled:
            if bp.layer is not None:
                layer = find_layer_by_spec(self.model, bp.layer)
                out.add(layer.path if layer is not None else bp.layer)
        return out
