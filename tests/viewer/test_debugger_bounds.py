"""`irlint debug --max-body-runs / --time-limit`: the bounds of `run`, for a run that waits on a person.
A bound that is reached is a line in the log (not an exception out of the Session, not a crash of the
TUI); --max-body-runs ends the run, --time-limit stops the command that ran too long and the next goes on."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import numpy as np
import pytest
from irlint.viewer.debug_cmd import exit_code, make_app
from irlint.viewer.debugger import session as session_module
from irlint.viewer.debugger.session import Session

import irlint
from irlint.interp import Options, run
from tests.viewer.test_debugger import args_for, settle

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NESTED = EXAMPLES / "nested_loop_in_ti.xml"


def _session(options: Options, name: str = "nested_loop_in_ti") -> Session:
    model = irlint.load(EXAMPLES / f"{name}.xml")
    return Session(model, dict(np.load(EXAMPLES / "inputs" / f"{name}.npz")), options)


def _body_runs(name: str = "nested_loop_in_ti") -> int:
    """How many body executions the example's run makes (the smallest --max-body-runs it passes)."""
    model = irlint.load(EXAMPLES / f"{name}.xml")
    inputs = dict(np.load(EXAMPLES / "inputs" / f"{name}.npz"))
    n = 1
    while True:
        try:
            run(model, inputs, Options(max_body_runs=n))
            return n
        except irlint.interp.ExecutionError as e:
            assert e.code == "RUN-ITERATIONS"
            n += 1


def test_max_body_runs_ends_the_run_with_a_logged_stop() -> None:
    need = _body_runs()
    assert need > 2
    s = _session(Options(max_body_runs=need - 1))
    s.do("continue")  # no exception out of the Session
    assert s.log[-1].startswith("stopped: RUN-ITERATIONS: the run reached --max-body-runs")
    assert s.failed == "RUN-ITERATIONS" and s.stepper.finished
    s.do("step")  # the ended run stays ended; the session stays usable
    s.restart()
    s.run_to_iteration((1,))  # a go-to within the bound reaches its iteration
    assert "was not reached" not in "\n".join(s.log[-2:])
    s.restart()
    s.run_to_iteration((99,))  # a go-to past the bound stops with it, not with "the run finished first"
    assert s.log[-1].startswith("stopped: RUN-ITERATIONS") and "finished first" not in s.log[-1]
    ok = _session(Options(max_body_runs=need))
    ok.do("continue")
    assert ok.stepper.finished and ok.failed is None and ok.log[-1].startswith("run finished")


def test_time_limit_counts_the_commands_running_time_not_the_wait() -> None:
    """The run waits on the user between commands: that time is not the run's. (`run`'s clock counts from the
    start: a session opened, then left alone for longer than the limit, failed at its first loop.)"""
    s = _session(Options(time_limit=0.5))
    time.sleep(0.7)
    s.do("continue")
    assert s.stepper.finished and s.failed is None and s.log[-1].startswith("run finished"), s.log


def test_time_limit_stops_a_long_command_where_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """A clock that moves one second per reading: a command stops after --time-limit readings, the run
    stays where it stopped, and the commands after it carry it to the same end as an unbounded run."""
    clock = iter(range(10**9))
    monkeypatch.setattr(session_module.time, "monotonic", lambda: float(next(clock)))
    want = _session(Options())
    want.do("continue")
    s = _session(Options(time_limit=20))
    s.do("continue")
    assert s.log[-1].startswith("stopped: RUN-TIME: the command ran for more than --time-limit 20 s")
    assert not s.stepper.finished and s.failed is None
    first = s.progress.events
    stops = 1
    while not s.stepper.finished:
        s.do("continue")
        stops += 1
        assert s.progress.events > first
    assert stops > 2 and s.log[-1] == want.log[-1] and s.log[-1].startswith("run finished")
    ours, theirs = s.stepper.current, want.stepper.current
    assert all(np.array_equal(ours.outputs[k], theirs.outputs[k]) for k in theirs.outputs)  # type: ignore[union-attr]


def test_the_tui_shows_the_bound_and_stays_usable() -> None:
    asyncio.run(_tui_bound())


async def _tui_bound() -> None:
    args = args_for(NESTED, EXAMPLES / "inputs" / "nested_loop_in_ti.npz")
    args.max_body_runs, args.time_limit = 3, None
    app = make_app(args)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("c")
        await settle(app, pilot)
        assert any("stopped: RUN-ITERATIONS" in line for line in app.session.log)
        await pilot.press("R")  # restart: the TUI still answers
        await settle(app, pilot)
        assert app.session.log[-1] == "restarted" and not app.session.stepper.finished
        await pilot.press("s")
        await settle(app, pilot)
        assert app.session.progress.events > 0
    assert exit_code(app) == 1  # a run stopped with an error
