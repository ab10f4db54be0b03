"""Set value / what-if (=): replace an output of the paused layer and go on; step back and R drop it."""

from __future__ import annotations

import asyncio
from pathlib import Path

import numpy as np
import pytest
from irlint.viewer.debug_cmd import make_app
from irlint.viewer.debugger.conditions import add_breakpoint
from irlint.viewer.debugger.session import Session
from irlint.viewer.debugger.widgets.status import paused_text

import irlint
from irlint.interp import Options
from irlint.interp.events import IterationStarted, LayerEvaluated
from tests.viewer.test_debugger import EXAMPLES, args_for, at_root, settle  # noqa: F401 - at_root: autouse

LSTM = (EXAMPLES / "lstm_ti.xml", EXAMPLES / "inputs" / "lstm_ti.npz")


def at_cell(iteration: int) -> Session:
    s = Session(irlint.load(LSTM[0]), dict(np.load(LSTM[1])), Options())
    add_breakpoint(s, f"layer LSTMCell_16 when iteration == {iteration}")
    s.do("continue")
    s.remove_breakpoint(s.breakpoints[0])
    assert isinstance(s.stepper.current, LayerEvaluated) and s.current_iteration == (iteration,)
    return s


def outputs(s: Session) -> dict[str, np.ndarray]:
    while not s.stepper.finished:
        s.do("continue")
    return dict(s.stepper.current.outputs)


def test_the_run_goes_on_with_the_value_set_and_going_back_drops_it() -> None:
    plain_run = outputs(at_cell(1))
    s = at_cell(1)
    h, c = s.stepper.current.outputs
    said = s.set_value("x * 0")
    assert said.startswith("what-if: LSTMCell_16 out6 it 1 set by 'x * 0'") and s.altered
    assert paused_text(s, 60).startswith("ALTERED paused")
    np.testing.assert_array_equal(s.value("LSTMCell_16", 7), c)  # the other output is as it was
    while not (isinstance(s.stepper.current, IterationStarted) and s.current_iteration == (2,)):
        s.do("step")
    np.testing.assert_array_equal(s.value("h_prev"), np.zeros_like(h))  # the next iteration starts from it
    altered = outputs(s)
    assert not np.array_equal(altered["Y"], plain_run["Y"])
    cell = s.find_layer("LSTMCell_16")
    s.run_to_iteration((1,), cell.path)  # back before the edit: the run restarts without it
    assert not s.altered and any("the run restarted" in line for line in s.log)
    np.testing.assert_array_equal(s.stepper.current.outputs[0], h)
    np.testing.assert_array_equal(outputs(s)["Y"], plain_run["Y"])


def test_stepping_back_past_the_edit_drops_it() -> None:
    s = at_cell(1)
    at = s.position
    s.set_value("x + 1")
    s.do("step")
    s.step_back()  # to the edited event itself: the run as it went, the edit in place
    assert s.position == at and s.altered
    s.step_back()  # before it: run again without the edit
    assert s.position == at - 1 and not s.altered
    s.do("step")
    assert not np.array_equal(s.stepper.current.outputs[0], s.value("LSTMCell_16") + 1)


def test_slices_clips_and_npy_files(tmp_path: Path) -> None:
    s = at_cell(0)
    h = s.stepper.current.outputs[0].copy()
    s.set_value("x[0, :2] = 0.5")
    got = s.value("LSTMCell_16", 6)
    np.testing.assert_array_equal(got[0, :2], [0.5, 0.5])
    np.testing.assert_array_equal(got[0, 2:], h[0, 2:])
    s.set_value("clip(x, -0.1, 0.1)", port=1)
    assert np.abs(s.value("LSTMCell_16", 7)).max() <= np.float32(0.1)
    np.save(tmp_path / "h.npy", np.full(h.shape, 3.0))
    s.set_value(f"load('{tmp_path / 'h.npy'}')")
    new = s.value("LSTMCell_16", 6)
    assert new.dtype == h.dtype and (new == 3).all()
    assert len(s.whatif.changes) == 3


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x[0]", "shape"),  # [4] does not fill [1, 4]? it broadcasts: refused only when it cannot
        ("layer", "not numbers"),
        ("outputs", "has shape \\[2, 1, 4\\]"),
        ("y = 1", "only x"),
        ("load('nope.txt')", "give a .npy"),
        ("x[5] = 1", "index 5 is out of bounds"),  # numpy's IndexError, said as a refusal
        ("x[0, 0] = x[0, :2]", "x\\[0, 0\\] has shape \\[\\]; the value \\[2\\]"),
    ],
)
def test_refusals_change_nothing(text: str, message: str) -> None:
    s = at_cell(0)
    before = [a.copy() for a in s.stepper.current.outputs]
    if text == "x[0]":
        s.set_value(text)  # [4] broadcasts to [1, 4]: accepted
        return
    with pytest.raises(ValueError, match=message):
        s.set_value(text)
    for a, b in zip(before, s.stepper.current.outputs, strict=True):
        np.testing.assert_array_equal(a, b)
    assert not s.altered


def test_set_value_key_and_status() -> None:
    asyncio.run(_key())


async def _key() -> None:
    app = make_app(args_for(*LSTM))
    async with app.run_test(size=(80, 24)) as pilot:
        add_breakpoint(app.session, "layer LSTMCell_16")
        await pilot.press("c")
        await settle(app, pilot)
        await pilot.press("equals_sign")
        await pilot.pause()
        app.screen.query_one("Input").value = "x * 2"
        await pilot.press("enter")
        await settle(app, pilot)
        assert str(app.query_one("#status").render()).startswith("ALTERED paused")
        assert str(app.log_lines[-1]).startswith("what-if: LSTMCell_16 out6 it 0 set by 'x * 2'")
        await pilot.press("R")
        await settle(app, pilot)
        assert not str(app.query_one("#status").render()).startswith("ALTERED")


def test_an_integer_output_holds_no_nan() -> None:
    s = Session(
        irlint.load(EXAMPLES / "if_in_loop.xml"), dict(np.load(EXAMPLES / "inputs" / "if_in_loop.npz")), Options()
    )
    while getattr(getattr(s.stepper.current, "layer", None), "name", "") != "parity":
        s.do("step")
    with pytest.raises(ValueError, match="the output is int64: it holds no NaN or infinity"):
        s.set_value("x * nan")
    assert s.set_value("x + 1").startswith("what-if: parity out2 it 0 set by 'x + 1'")
