"""Scope navigation (u / d) across the nesting, each level at its iteration; the other panes follow."""

from __future__ import annotations

import asyncio

import numpy as np
from irlint.viewer.debug_cmd import make_app
from irlint.viewer.debugger.session import Session
from irlint.viewer.debugger.variables import scopes, variables

import irlint
from irlint.interp import Options
from irlint.interp.events import LayerEvaluated
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
        await pilot.press("V")
        await pilot.pause()
        assert {v.layer.name for v in app.screen.shown} >= {"x_t", "h_t", "Loop_11041", "h_next"}  # the TI's body
        x_t = next(v for v in app.screen.shown if v.layer.name == "x_t")
        assert x_t.iteration == (1,)
        await pilot.press("escape")
        await pilot.press("u")
        await pilot.pause()
        assert app.selected.name == "TensorIterator_11048" and app.shown_iteration == ()
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
