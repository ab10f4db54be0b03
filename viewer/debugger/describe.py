"""Words and numbers for events: iteration tuples, `#8 name (Type)`, one log line per event.

Shared by the session, the panes and the tests; nothing here holds state.
"""

from __future__ import annotations

from irlint.interp.events import (
    BodyEntered,
    BodyLeft,
    Event,
    IterationFinished,
    IterationStarted,
    LayerEvaluated,
    RunFinished,
)
from irlint.ir.model import Layer
from irlint.layerpath import iteration_label

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
    return iteration_label(
        iteration_of(getattr(ev, "frames", ())), layer.path if layer is not None else "", getattr(ev, "branch", None)
    )


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
