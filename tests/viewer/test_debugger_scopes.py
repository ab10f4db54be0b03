"""Scope navigation (u / d) across the nesting, each level at its iteration; the other panes follow."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

import numpy as np
import pytest
from irlint.viewer.debug_cmd import make_app
from irlint.viewer.debugger.session import Session
from irlint.viewer.debugger.variables import scopes, variables

import irlint
from irlint.interp import Options
from irlint.interp.events import LayerEvaluated
from tests.viewer import irs
from tests.viewer.test_debugger import EXAMPLES, args_for, at_root, settle  # noqa: F401 - at_root: autouse

NESTED = (EXAMPLES / "nested_loop_in_ti.xml", EXAMPLES / "inputs" / "nested_loop_in_ti.npz")


def test_scopes_inside_an_if_branch_in_a_loop() -> None:
    model = irlint.load(EXAMPLES / "if_in_loop.xml")
    s = Session(model, dict(np.load(EXAMPLES / "inputs" / "if_in_loop.npz")), Options())
    while not (isinstance(s.stepper.current, LayerEvaluated) and "_body/" in s.stepper.current.layer.path):
        s.do("step")
    levels = scopes(s)
    ev = s.stepper.current
    assert len(levels) == 3 and levels[-1].label.endswith(" branch")
    assert ev.layer.path.startswith(levels[-1].prefix)
    assert levels[-1].iteration == s.current_iteration and levels[1].iteration == s.current_iteration[:1]
    assert any(v.layer is ev.layer and v.iteration == s.current_iteration for v in variables(s, levels[-1]))


def test_up_and_down_move_the_panes_between_levels() -> None:
    asyncio.run(_up_down())


async def _up_down() -> None:
    app = make_app(args_for(*NESTED))
    async with app.run_test(size=(80, 24)) as pilot:
        s = app.session
        while not (
            s.current_iteration == (1, 2)
            and getattr(s.stepper.current, "layer", None) is not None
            and s.stepper.current.layer.name == "Tanh_11032"
        ):
            await pilot.press("s")
            await settle(app, pilot)
        tanh = app.selected
        await pilot.press("u")
        await pilot.pause()
        assert app.selected.name == "Loop_11041" and app.shown_iteration == (1,)
        assert "scope 2/3 (u/d)" in str(app.query_one("#status").render())
        summary = str(app.query_one("#summary").render())  # the Loop in TI iteration 1, not its output of it 0
        assert summary.startswith("#6 Loop_11041 (Loop) it 1: running (at its iteration 2)"), summary
        assert "conditions (2 its) 0:T 1:T" in summary and app.inspected is None
        await pilot.press("V")
        await pilot.pause()
        assert {v.layer.name for v in app.screen.shown} >= {"x_t", "h_t", "Loop_11041", "h_next"}  # the TI's body
        x_t = next(v for v in app.screen.shown if v.layer.name == "x_t")
        assert x_t.iteration == (1,)
        await pilot.press("escape")
        await pilot.press("u")
        await pilot.pause()
        assert app.selected.name == "TensorIterator_11048" and app.shown_iteration == ()
        assert str(app.query_one("#summary").render()).startswith("#2 TensorIterator_11048 (TensorIterator): running")
        await pilot.press("u")  # the top level is the outermost
        await pilot.pause()
        assert "outermost" in str(app.log_lines[-1])
        await pilot.press("d", "d")
        await pilot.pause()
        assert app.selected is tanh and app.shown_iteration == (1, 2)
        np.testing.assert_array_equal(app.inspected, s.stepper.current.outputs[0])
        await pilot.press("u", "s")  # a step starts again in the event's own scope
        await settle(app, pilot)
        assert app.scope_level is None and "scope" not in str(app.query_one("#status").render())
        await pilot.press("u", "R")  # so does a restart (it was `scope 2/1` after it)
        await settle(app, pilot)
        assert app.scope_level is None and "scope" not in str(app.query_one("#status").render())


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
def test_up_and_down_across_a_loop_in_a_ti_in_an_if(size: tuple[int, int], tmp_path: Path) -> None:
    xml = irs.save(irs.loop_in_ti_in_if(), tmp_path / "nest.xml")
    np.savez(tmp_path / "in.npz", cond=np.bool_(True), x=np.arange(6, dtype=np.float32).reshape(1, 3, 2))
    asyncio.run(
        _four_levels(
            argparse.Namespace(**{**vars(args_for(*NESTED)), "model": str(xml), "inputs": str(tmp_path / "in.npz")}),
            size,
        )
    )


async def _four_levels(args: argparse.Namespace, size: tuple[int, int]) -> None:
    app = make_app(args)
    async with app.run_test(size=size) as pilot:
        s = app.session
        while not (
            getattr(s.stepper.current, "layer", None) is not None
            and s.stepper.current.layer.name == "halve"
            and s.current_iteration == (0, 1, 1)
        ):
            await pilot.press("s")
            await settle(app, pilot)
        status = app.query_one("#status")
        expected = [  # (the layer selected, its iteration, the start of the inspector's first line, the status note)
            ("inner_loop", (0, 1), "#6 inner_loop (Loop) it then.1: running (at its iteration 1)", "scope 3/4"),
            ("steps", (0,), "#2 steps (TensorIterator) it then: running (at its iteration 1)", "scope 2/4"),
            ("choose", (), "#2 choose (If): running (in its then branch)", "scope 1/4"),
        ]
        for name, its, summary, note in expected:
            await pilot.press("u")
            await pilot.pause()
            assert app.selected.name == name and app.shown_iteration == its
            assert str(app.query_one("#summary").render()).startswith(summary)
            text = str(status.render())
            assert text.startswith(note) and len(text) <= status.size.width, text  # one line, never cut
            assert app.inspected is None  # no output of this iteration yet: none of an older one instead
        await pilot.press("V")  # the top level's tensors
        await pilot.pause()
        assert {v.layer.name for v in app.screen.shown} >= {"cond", "x", "choose", "y"}
        await pilot.press("escape", "d", "d", "V")  # the TI's body at its iteration 1
        await pilot.pause()
        rows = {v.layer.name: v for v in app.screen.shown}
        assert rows["x_t"].iteration == (0, 1) and rows["inner_loop"].iteration is None
        np.testing.assert_array_equal(rows["x_t"].lo, 2.0)
        await pilot.press("escape", "d")
        await pilot.pause()
        assert app.selected.name == "halve" and app.shown_iteration == (0, 1, 1)
        np.testing.assert_array_equal(app.inspected, s.stepper.current.outputs[0])
