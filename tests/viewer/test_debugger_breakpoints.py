"""`irlint debug`'s breakpoints list: enable, disable, delete, edit a condition (Session and keys)."""

from __future__ import annotations

import asyncio

import numpy as np
from irlint.viewer.debug_cmd import make_app
from irlint.viewer.debugger.conditions import breakpoint_text, parse_breakpoint
from irlint.viewer.debugger.session import Session

import irlint
from tests.viewer.test_debugger import EXAMPLES, args_for, at_root, settle  # noqa: F401 - at_root: autouse
from tests.viewer.test_debugger_layout import NESTED, press


def nested_session() -> Session:
    model = irlint.load(NESTED[0])
    return Session(model, dict(np.load(NESTED[1])))


def test_breakpoint_text_reads_back() -> None:
    model = irlint.load(NESTED[0])
    for text in ("layer 2/body/6", "layer 2/body/6/body/6 when iteration == 1", "when x.sum() > 0",
                 "nonfinite", "nonfinite 1e+06"):
        assert breakpoint_text(parse_breakpoint(text, model)) == text


def test_disabled_breakpoints_do_not_stop_and_survive_a_restart() -> None:
    s = nested_session()
    tanh = parse_breakpoint("layer 2/body/6/body/6 when iteration == 1", s.model)
    loop = parse_breakpoint("layer 2/body/6", s.model)
    s.add_breakpoint(tanh)
    s.add_breakpoint(loop)
    s.set_enabled(tanh, False)
    assert s.breakpoint_list() == [(tanh, False), (loop, True)]  # the order they were set
    s.do("continue")
    assert s.stepper.current.layer.path == "2/body/6"  # the disabled one did not stop the run
    s.restart()
    assert s.breakpoint_list() == [(tanh, False), (loop, True)]
    s.set_enabled(tanh, True)
    s.remove_breakpoint(loop)
    s.do("continue")
    ev = s.stepper.current
    assert ev.layer.path == "2/body/6/body/6" and s.current_iteration == (0, 1)
    edited = parse_breakpoint("layer 2/body/6/body/6 when iteration == 2", s.model)
    s.replace_breakpoint(tanh, edited)
    assert s.breakpoint_list() == [(edited, True)]
    s.do("continue")
    assert s.current_iteration == (0, 2)


def test_breakpoints_screen_keys() -> None:
    asyncio.run(_screen())


async def _screen() -> None:
    app = make_app(args_for(*NESTED))
    async with app.run_test(size=(80, 24)) as pilot:
        s = app.session
        s.add_breakpoint(parse_breakpoint("layer 2/body/6/body/6 when iteration == 1", s.model))
        await press(app, pilot, "!")
        s.add_breakpoint(parse_breakpoint("layer 2/body/6", s.model))
        await press(app, pilot, "x")
        assert type(app.screen).__name__ == "BreakpointsScreen"
        await pilot.press("space")  # disable the first
        await pilot.pause()
        assert [on for _bp, on in s.breakpoint_list()] == [False, True, True]
        await pilot.press("down", "d")  # delete the NaN/Inf one
        await pilot.pause()
        assert [breakpoint_text(bp) for bp, _on in s.breakpoint_list()] == [
            "layer 2/body/6/body/6 when iteration == 1", "layer 2/body/6"]
        await pilot.press("up", "space", "e")  # enable the first again, then edit its condition
        await pilot.pause()
        prompt = app.screen.query_one("Input")
        assert prompt.value == "layer 2/body/6/body/6 when iteration == 1"
        prompt.value = "layer 2/body/6/body/6 when iteration == 2"
        await pilot.press("enter")
        await pilot.pause()
        assert [(breakpoint_text(bp), on) for bp, on in s.breakpoint_list()] == [
            ("layer 2/body/6/body/6 when iteration == 2", True), ("layer 2/body/6", True)]
        await pilot.press("e")
        await pilot.pause()
        app.screen.query_one("Input").value = "layer 2/body/6/body/6 when iteration ==="
        await pilot.press("enter")
        await pilot.pause()
        assert "not changed" in str(app.screen.query_one("#bp-msg").render())  # a typo keeps the old one
        assert breakpoint_text(s.breakpoint_list()[0][0]).endswith("iteration == 2")
        await pilot.press("escape")
        await pilot.pause()
        assert type(app.screen).__name__ != "BreakpointsScreen"
        assert "2 breakpoints" in str(app.query_one("#status").render()) or "2 bp" in str(
            app.query_one("#status").render())
        await press(app, pilot, "c")  # the edited condition: the Tanh in iteration 0.2 (before the Loop ends)
        assert app.session.current_iteration == (0, 2) and app.selected.type == "Tanh"
