"""The Variables list (V): every tensor of the current scope at the paused iteration; filter, sort, Enter."""

from __future__ import annotations

import asyncio

import numpy as np
from irlint.viewer.debug_cmd import make_app
from irlint.viewer.debugger.session import Session
from irlint.viewer.debugger.variables import scopes, variables

import irlint
from irlint.interp import Options
from tests.viewer.test_debugger import EXAMPLES, args_for, at_root, settle  # noqa: F401 - at_root: autouse

NESTED = (EXAMPLES / "nested_loop_in_ti.xml", EXAMPLES / "inputs" / "nested_loop_in_ti.npz")


def nested_session() -> Session:
    return Session(irlint.load(NESTED[0]), dict(np.load(NESTED[1])), Options())


def test_scopes_and_their_tensors_at_the_paused_iteration() -> None:
    s = nested_session()
    while not (
        s.current_iteration == (1, 2)
        and getattr(s.stepper.current, "layer", None) is not None
        and s.stepper.current.layer.name == "Tanh_11032"
    ):
        s.do("step")
    levels = scopes(s)
    assert [sc.label for sc in levels] == ["top level", "#2 TensorIterator_11048 it 1", "#6 Loop_11041 it 1.2"]
    inner = {v.layer.name: v for v in variables(s, levels[-1])}
    tanh = inner["Tanh_11032"]
    np.testing.assert_array_equal(s.tensor(tanh.path, (1, 2))[0], s.evaluate("x"))
    assert tanh.iteration == (1, 2) and tanh.dtype == "f32" and tanh.shape == (1, 2)
    x = s.evaluate("x")
    assert (tanh.lo, tanh.hi) == (float(x.min()), float(x.max()))
    assert tanh.changed == 2  # both elements differ from iteration 1.1's
    assert inner["h_inner_next"].iteration is None  # not evaluated yet in this iteration: no older value shown
    outer = {v.layer.name: v for v in variables(s, levels[1])}
    assert outer["x_t"].iteration == (1,) and outer["h_next"].iteration is None


def test_variables_list_filters_sorts_and_opens_in_the_inspector() -> None:
    asyncio.run(_variables_ui())


async def _variables_ui() -> None:
    app = make_app(args_for(*NESTED))
    async with app.run_test(size=(80, 24)) as pilot:
        for key in "ssisssssisssss":
            await pilot.press(key)
            await settle(app, pilot)
        its = app.session.current_iteration
        await pilot.press("V")
        await pilot.pause()
        screen = app.screen
        assert type(screen).__name__ == "VariablesScreen"
        assert [v.layer.name for v in screen.shown][:3] == ["h_inner", "x_inner", "Constant_11035"]
        for ch in "tanh":
            await pilot.press(ch)
        await pilot.pause()
        assert [v.layer.name for v in screen.shown] == ["Tanh_11032"]
        await pilot.press("backspace", "backspace", "backspace", "backspace")
        await pilot.press("tab")  # sort by name
        await pilot.pause()
        names = [v.layer.name.lower() for v in screen.shown]
        assert screen.sort == "name" and names == sorted(names)
        await pilot.press("tab", "tab", "tab", "tab", "tab", "tab")  # back to the graph's order
        for ch in "multiply":
            await pilot.press(ch)
        await pilot.press("enter")
        await pilot.pause()
        assert type(app.screen).__name__ != "VariablesScreen"
        assert app.selected.name == "Multiply_11030" and app.shown_iteration == its
        np.testing.assert_array_equal(app.inspected, app.session.tensor(app.selected.path, its)[0])


async def open_filtered(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    """Open the Variables list and type `text` into its filter."""
    await pilot.press("V")
    await pilot.pause()
    for ch in text:
        await pilot.press(ch)
    await pilot.pause()


def test_enter_on_a_second_output_inspects_that_output() -> None:
    asyncio.run(_second_output())


async def _second_output() -> None:
    app = make_app(args_for(EXAMPLES / "lstm_ti.xml", EXAMPLES / "inputs" / "lstm_ti.npz"))
    async with app.run_test(size=(80, 24)) as pilot:
        s = app.session
        while getattr(getattr(s.stepper.current, "layer", None), "type", "") != "LSTMCell":
            await pilot.press("s")
            await settle(app, pilot)
        await open_filtered(pilot, "lstmcell")
        assert [v.port for v in app.screen.shown] == ["out6", "out7"]  # H and C, a row each
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.selected.type == "LSTMCell" and app.inspector.port_index() == 1
        np.testing.assert_array_equal(app.inspected, s.stepper.current.outputs[1])  # C, not H


def test_enter_on_a_not_yet_row_says_what_the_inspector_shows() -> None:
    asyncio.run(_not_yet_row())


async def _not_yet_row() -> None:
    app = make_app(args_for(*NESTED))
    async with app.run_test(size=(80, 24)) as pilot:
        s = app.session
        while not (s.current_iteration == (1, 2) and getattr(s.stepper.current, "layer", None) is not None
                   and s.stepper.current.layer.name == "Tanh_11032"):
            await pilot.press("s")
            await settle(app, pilot)
        await open_filtered(pilot, "h_inner_next")
        (row,) = app.screen.shown
        assert row.iteration is None  # `not yet` in iteration 1.2
        await pilot.press("enter")
        await pilot.pause()
        summary = str(app.inspector.query_one("#summary").render())
        assert "not evaluated yet in this iteration: its last recorded value" in summary
        assert "it 1.1" in summary  # the iteration it shows says which
        await pilot.press("[")  # another iteration asked for: the note goes
        await pilot.pause()
        assert "not evaluated yet in this iteration" not in str(app.inspector.query_one("#summary").render())
