"""Stepping back (`S`, `N`): the Session stands at an earlier event exactly as it stood there going forward,
from the kept events or, when values recorded up to it were dropped since, by restarting the run."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from irlint.viewer.debugger import recorder as recorder_module
from irlint.viewer.debugger.session import Session, describe_event

import irlint
from irlint.interp import Options
from irlint.interp.events import LayerEvaluated

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def session(name: str, **options: object) -> Session:
    model = irlint.load(EXAMPLES / f"{name}.xml")
    return Session(model, dict(np.load(EXAMPLES / "inputs" / f"{name}.npz")), Options(**options))  # type: ignore[arg-type]


def shown(s: Session) -> dict[str, object]:
    """Everything the inspector, watches, timeline and status read from the session at a stop."""
    out: dict[str, object] = {"event": describe_event(s.stepper.current), "position": s.position,
                              "its": s.current_iteration, "totals": s.loop_totals(),
                              "finished": s.stepper.finished}
    for _g, layer in s.model.layers():
        seen = s.iterations_seen(layer.path)
        t = s.tensor(layer.path)
        out[layer.path] = (seen, None if t is None else [a.tobytes() for a in t],
                           [(its, a.tobytes()) for its, a in s.history(layer.path)])
        if layer.body is not None:
            out[layer.path + "?"] = s.loop_conditions(layer.path)
    return out


@pytest.mark.parametrize("name", ["nested_loop_in_ti", "if_in_loop"])
def test_step_back_shows_every_earlier_stop_as_it_was(name: str) -> None:
    """Forward through the whole run, then back event by event: each stop equals the forward one."""
    s = session(name)
    states = [shown(s)]
    while not s.stepper.finished:
        s.do("step")
        states.append(shown(s))
    assert len(states) > 20
    for k in range(len(states) - 2, 0, -1):
        s.step_back()
        assert shown(s) == states[k], k
    s.step_back()
    assert s.log[-1].startswith("at the start") and shown(s) == states[1]
    assert not any("restarted" in line for line in s.log)


def same_but_dropped(back: dict[str, object], forward: dict[str, object]) -> bool:
    """The stop as it was, but for the oldest recorded tensors the memory bound dropped since: every layer
    shows a part of what it showed (its newest iterations), with the same tensors."""
    for key, was in forward.items():
        now = back[key]
        if isinstance(was, tuple) and len(was) == 3:  # (iterations, latest tensors, history) of a layer
            history = was[2]
            if now[2] != history[len(history) - len(now[2]):] or (now[2] and now[1] != was[1]):
                return False
        elif now != was:
            return False
    return True


@pytest.mark.parametrize("name", ["nested_loop_in_ti", "if_in_loop"])
def test_step_back_past_the_memory_bound(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With 3 tensors kept, a step back stays in memory while the target event's tensors are there (it shows
    the stop but for the oldest tensors dropped since), and restarts the run where they are not (then the
    stop is exactly as it was)."""
    monkeypatch.setattr(recorder_module, "MAX_RECORDED", 3)
    s = session(name)
    states = [shown(s)]
    while not s.stepper.finished:
        s.do("step")
        states.append(shown(s))
    for k in range(len(states) - 2, 0, -1):
        before = len(s.log)
        s.step_back()
        restarted = any(line.startswith("stepping back: the run restarted") for line in s.log[before:])
        assert shown(s) == states[k] if restarted else same_but_dropped(shown(s), states[k]), k
        assert s.log[-1].startswith("back to: ")
    restarts = sum(line.startswith("stepping back: the run restarted") for line in s.log)
    assert 0 < restarts < len(states) - 2  # both ways were taken


def test_forward_again_after_stepping_back_replays_the_kept_events() -> None:
    s = session("nested_loop_in_ti")
    forward = [shown(s)]
    for _ in range(30):
        s.do("step")
        forward.append(shown(s))
    assert not s.stepper.finished
    for _ in range(10):
        s.step_back()
    assert shown(s) == forward[20]
    for k in range(21, 31):  # forward again through the kept events: the same stops
        s.do("step")
        assert shown(s) == forward[k], k
    s.step_back(over=True)
    s.do("over")  # `n` from the past mirrors `N`
    assert shown(s)["position"] >= forward[30]["position"]
    s.do("continue")  # from the kept events on into the live run, to its end
    assert s.stepper.finished and s.recorder.cursor is None
    s.step_back()
    s.do("continue")  # the end again, from a kept event
    assert s.stepper.finished and s.log[-1].startswith("run finished")


def test_step_back_over_a_loop_lands_on_the_layer_before_it() -> None:
    """`N` mirrors `n`: back over the nested Loop (inside the TI's body) as a whole, to the layer before it."""
    s = session("nested_loop_in_ti")
    model = s.model
    inner = next(la for _g, la in model.layers() if la.type == "Loop")
    s.do("step")
    while not (isinstance(s.stepper.current, LayerEvaluated) and s.stepper.current.layer is inner):
        s.do("step")
    at_loop = shown(s)
    s.do("over")
    after = s.stepper.current
    assert isinstance(after, LayerEvaluated) and after.layer is not inner
    s.step_back(over=True)
    assert shown(s) == at_loop  # the Loop itself: the layer evaluated before, at this depth
    s.step_back(over=True)
    ev = s.stepper.current
    assert isinstance(ev, LayerEvaluated) and len(ev.frames) <= len(after.frames) and ev.layer is not inner
    assert "/body/" not in ev.layer.path[len(inner.path):]  # not inside the Loop's body


def test_step_back_over_restarts_when_the_layer_before_was_dropped() -> None:
    kept, dropped = session("nested_loop_in_ti"), session("nested_loop_in_ti")
    for s in (kept, dropped):
        for _ in range(40):
            s.do("step")
    assert len(kept.stepper.current.frames) == 2  # inside the Loop inside the TI
    kept.step_back(over=True)
    dropped.recorder.kept.clear()  # as if a long loop had pushed the events out: only running again finds the layer
    dropped.step_back(over=True)
    assert shown(dropped) == shown(kept) and kept.position < 40
    assert any(line.startswith("stepping back: the run restarted to find") for line in dropped.log)
    assert not any("restarted" in line for line in kept.log)


def test_at_the_start() -> None:
    s = session("if_in_loop")
    s.step_back()
    assert s.log[-1].startswith("at the start: the run has not begun") and s.stepper.current is None
    s.do("step")
    first = shown(s)
    s.step_back(over=True)
    assert s.log[-1].startswith("at the start") and shown(s) == first


def test_a_run_that_ended_with_an_error_ends_so_again_after_stepping_back() -> None:
    s = session("nested_loop_in_ti", max_iterations=2)  # the inner Loop runs 3 iterations
    s.do("continue")
    assert s.stepper.finished and s.log[-1].startswith("stopped: RUN-ITERATIONS")
    last = s.position
    s.step_back()
    s.step_back()
    assert not s.stepper.finished and s.position == last - 2
    s.do("continue")
    assert s.stepper.finished and s.log[-1].startswith("stopped: RUN-ITERATIONS") and s.position == last
