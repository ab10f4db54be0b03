"""Logpoints (`... log EXPR`: print at each hit, go on) and hit counts (`... hit N`: stop at the Nth hit)."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

import numpy as np
import pytest
from irlint.viewer.debug_cmd import make_app
from irlint.viewer.debugger.conditions import ConditionError, add_breakpoint, breakpoint_text, parse_breakpoint
from irlint.viewer.debugger.session import Session

import irlint
from irlint.cli.command import UsageError
from irlint.interp import Options
from irlint.interp.events import LayerEvaluated
from tests.viewer.test_debugger import EXAMPLES, args_for, at_root, settle  # noqa: F401 - at_root: autouse

LSTM = (EXAMPLES / "lstm_ti.xml", EXAMPLES / "inputs" / "lstm_ti.npz")


def lstm_session() -> Session:
    return Session(irlint.load(LSTM[0]), dict(np.load(LSTM[1])), Options())


def cell_outputs() -> list[np.ndarray]:
    """The LSTMCell's H in each of the 5 iterations, from a run without logpoints."""
    s, out = lstm_session(), []
    while not s.stepper.finished:
        ev = s.do("step")
        if isinstance(ev, LayerEvaluated) and ev.layer.type == "LSTMCell":
            out.append(ev.outputs[0])
    return out


def test_a_logpoint_prints_each_hit_and_never_stops(tmp_path: Path) -> None:
    s = lstm_session()
    s.logpoints.path = str(tmp_path / "points.txt")
    said = add_breakpoint(s, "layer LSTMCell_16 log x.max()")
    assert said.startswith("logpoint set: layer LSTMCell_16 log x.max()") and "points.txt" in said
    s.do("continue")
    assert s.stepper.finished  # it never stopped
    lines = [line for line in s.log if line.startswith("log #")]
    h = cell_outputs()
    assert [line.rsplit("= ", 1)[1] for line in lines] == [f"{a.max():.6g}" for a in h]
    assert lines[2].startswith("log #3 LSTMCell_16 it 2: x.max() = ")
    assert (tmp_path / "points.txt").read_text().splitlines() == lines


def test_hit_count_stops_at_the_nth_hit_and_counts_again_after_a_restart() -> None:
    s = lstm_session()
    add_breakpoint(s, "layer LSTMCell_16 hit 3")
    s.do("continue")
    assert s.current_iteration == (2,) and s.stepper.current.layer.name == "LSTMCell_16"
    assert s.log[-1].startswith("breakpoint (hit 3): evaluated #8 LSTMCell_16")  # says why it stopped
    s.do("continue")
    assert s.stepper.finished  # the 4th and 5th hits go on
    s.restart()
    s.do("continue")
    assert s.current_iteration == (2,)  # counted from 0 again
    s.step_back()
    s.do("continue")  # replayed events are not counted again: on to the end
    assert s.stepper.finished


def test_logpoint_with_a_condition_and_a_count() -> None:
    s = lstm_session()
    add_breakpoint(s, "layer LSTMCell_16 when iteration >= 1 log iteration hit 2")
    s.do("continue")
    assert s.current_iteration == (2,)  # hits in iterations 1 and 2: stopped at the 2nd
    assert s.log[-1].startswith("breakpoint (iteration >= 1, hit 2): ")
    assert [line.rsplit("= ", 1)[1] for line in s.log if line.startswith("log #")] == ["1", "2"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("layer LSTMCell_16 log", "needs an expression"),
        ("layer LSTMCell_16 log x.__class__", "not allowed"),
        ("layer LSTMCell_16 hit 0", "whole number >= 1"),
        ("nonfinite hit 2", "not with `nonfinite`"),
    ],
)
def test_bad_logpoints_are_refused(text: str, message: str) -> None:
    with pytest.raises(ConditionError, match=message):
        parse_breakpoint(text, irlint.load(LSTM[0]))


def test_the_line_reads_back() -> None:
    model = irlint.load(LSTM[0])
    for text in (
        "layer 3/body/8 log x.max()",
        "layer 3/body/8 when iteration > 1 log x[0, :2] hit 4",
        "when x.sum() > 0 hit 2",
    ):
        assert breakpoint_text(parse_breakpoint(text, model)) == text


def test_logpoints_file_is_never_an_input(tmp_path: Path) -> None:
    args = args_for(*LSTM)
    vars(args)["logpoints"] = "examples/inputs/lstm_ti.npz"
    with pytest.raises(UsageError, match="would overwrite an input"):
        make_app(args)


def test_logpoint_from_the_b_prompt() -> None:
    asyncio.run(_prompt())


async def _prompt() -> None:
    args: argparse.Namespace = args_for(*LSTM)
    app = make_app(args)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("B")
        await pilot.pause()
        assert "[log EXPR] [hit N]" in app.screen.title_text  # the prompt names every form
        app.screen.query_one("Input").value = "layer LSTMCell_16 log x.mean()"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("c")
        await settle(app, pilot)
        shown = [str(line) for line in app.log_lines]
        assert sum(line.startswith("log #") for line in shown) == 5 and app.session.stepper.finished


def test_the_log_pane_takes_a_bounded_number_of_lines_and_the_file_all(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from irlint.viewer.debugger import logpoints

    monkeypatch.setattr(logpoints, "PANE_LINES", 2)
    s = lstm_session()
    s.logpoints.path = str(tmp_path / "points.txt")
    add_breakpoint(s, "layer LSTMCell_16 log x.max()")
    s.do("continue")
    shown = [line for line in s.log if line.startswith("log #")]
    assert [line.split(" ", 2)[1] for line in shown] == ["#1", "#2"]  # the first two of five hits
    assert f"... 3 more logpoint lines (all in {tmp_path / 'points.txt'})" in s.log
    written = (tmp_path / "points.txt").read_text().splitlines()
    assert len(written) == 5 and written[:2] == shown
    s.logpoints.close()
