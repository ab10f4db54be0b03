"""The expression console (`:`) and the step-back keys (`S`, `N`): the Session's evaluator over a stop's
tensors (the conditions' whitelist), and the widgets driven by Pilot at 80x24 and 160x48."""

from __future__ import annotations

import asyncio

import numpy as np
import pytest
from irlint.viewer.debug_cmd import make_app
from irlint.viewer.debugger.conditions import MAX_ELEMENTS, ConditionError, compile_condition, compile_expression
from irlint.viewer.debugger.inspector import summary
from irlint.viewer.debugger.keys import KEYS, keys_text
from irlint.viewer.debugger.session import Session, short
from irlint.viewer.debugger.widgets.console import THRESHOLD, ConsoleScreen, one_line, result_text
from textual.widgets import Footer

import irlint
from irlint.interp.events import LayerEvaluated
from tests.viewer.test_debugger import EXAMPLES, args_for, at_root, lstm_app, settle  # noqa: F401 - at_root: autouse
from tests.viewer.test_debugger_defects import plain
from tests.viewer.test_debugger_layout import NESTED, press


def lstm_session() -> Session:
    return Session(irlint.load(EXAMPLES / "lstm_ti.xml"), dict(np.load(EXAMPLES / "inputs" / "lstm_ti.npz")))


def at_cell(s: Session) -> LayerEvaluated:
    """Run to the LSTMCell's first evaluation (two outputs: H and C)."""
    while not (isinstance(s.stepper.current, LayerEvaluated) and s.stepper.current.layer.type == "LSTMCell"):
        s.do("step")
    return s.stepper.current


# -- the evaluator -------------------------------------------------------------------------------------
def test_console_reads_the_stop_as_conditions_do() -> None:
    s = lstm_session()
    ev = at_cell(s)
    h, c = ev.outputs
    np.testing.assert_array_equal(s.evaluate("x"), h)
    assert s.evaluate("x.max()") == h.max() and s.evaluate("len(outputs)") == 2
    np.testing.assert_array_equal(s.evaluate("outputs[1] * 2 - x"), c * 2 - h)
    np.testing.assert_array_equal(s.evaluate("x[0, :1]"), h[0, :1])  # slices are views
    assert s.evaluate("iteration") == 0 and s.evaluate("layer") == ev.layer.name
    assert s.evaluate("iterations") == (0,)
    np.testing.assert_array_equal(s.evaluate("value('LSTMCell_16', 7)"), c)  # any layer, by name and port
    s.do("iteration")
    s.do("iteration")
    at_cell(s)  # iteration 2: the earlier iterations by number
    np.testing.assert_array_equal(s.evaluate("value('LSTMCell_16', 6, 0)"), h)
    np.testing.assert_array_equal(s.evaluate("value('LSTMCell_16', 'out7', '0')"), c)
    assert s.evaluate("abs(x - value('LSTMCell_16', None, iterations[0] - 1)).max()") > 0
    with pytest.raises(ValueError, match="no recorded value at iteration 3"):
        s.evaluate("value('LSTMCell_16', 6, 3)")  # not yet, at this stop
    x_in = s.inputs["X"]
    np.testing.assert_array_equal(s.evaluate("value('0')"), x_in)  # an input, by id path
    assert s.evaluate("2 ** -1") == 0.5 and s.evaluate("10 ** 400") == np.inf  # float64: no huge integers


@pytest.mark.parametrize(("text", "message"), [
    ("__import__('os')", "only these functions"),
    ("x.__class__", "not allowed"),
    ("x.tofile('f')", "not one of the tensor methods"),
    ("[v for v in x]", "not allowed"),
    ("y + 1", "unknown name 'y'"),
    ("x +", "cannot parse the expression"),
])
def test_console_refuses_what_conditions_refuse(text: str, message: str) -> None:
    s = lstm_session()
    at_cell(s)
    with pytest.raises(ConditionError, match=message):
        s.evaluate(text)


@pytest.mark.parametrize(("text", "message"), [
    ("'ab' * 1000000000", "not on str"),  # no text repeated without bound
    ("value('nope')", "no layer 'nope'"),
    ("value('LSTMCell_16', 5)", "recorded ports are out6, out7"),
    ("value('LSTMCell_16', 1)", "no port 1"),  # a position is no port: one naming, the inspector's
    ("x + value('0')", "do not broadcast"),
    ("x[7, 0]", "out of bounds"),
])
def test_console_errors_are_one_line(text: str, message: str) -> None:
    s = lstm_session()
    at_cell(s)
    with pytest.raises(Exception) as info:
        s.evaluate(text)
    line = one_line(info.value)
    assert message in line and "\n" not in line


def test_arithmetic_is_bounded_before_it_runs() -> None:
    big = np.zeros(((1 << 12) + 1, 1), np.float32)
    f = compile_expression("x + outputs[0]")
    with pytest.raises(ValueError, match=f"at most {MAX_ELEMENTS}"):
        f({"x": big, "outputs": (big.reshape(1, -1),)})  # 4097 x 4097 > MAX_ELEMENTS: refused, not computed
    with pytest.raises(ValueError, match=f"at most {MAX_ELEMENTS}"):
        f = compile_expression("x[:, None] < outputs[0][None, :] < 1")  # comparisons broadcast too
        f({"x": big.reshape(-1), "outputs": (big.reshape(-1),)})
    assert compile_condition("iteration % 2 == 1")({"iteration": 3})  # conditions keep their meaning
    assert compile_condition("0 < iteration <= 3 and layer == 'a' and 'b' not in layer")({"iteration": 3, "layer": "a"})
    assert compile_condition("iterations == (1, 2) and 2 in iterations")({"iterations": (1, 2)})
    assert not compile_condition("1 < iteration < 3")({"iteration": 3})
    assert not compile_condition("x.sum() > 10")({"x": np.ones(3)})


def test_names_the_stop_lacks_say_so() -> None:
    s = lstm_session()
    with pytest.raises(ConditionError, match="'x' has no value at this stop"):
        s.evaluate("x")
    s.do("step")  # entering the TensorIterator: no tensor of its own
    with pytest.raises(ConditionError, match=r"'x' has no value at this stop \(entering"):
        s.evaluate("x + 1")


def test_results_are_printed_within_numpy_threshold() -> None:
    text = result_text(np.arange(100_000, dtype=np.float32).reshape(100, 1000), 80)
    assert text.startswith("f32[100,1000]") and "..." in text and len(text) < 2000
    assert max(len(line) for line in text.splitlines()) <= 80
    small = result_text(np.arange(THRESHOLD), 160)
    assert "..." not in small and str(THRESHOLD - 1) in small
    assert result_text(np.float32(1.5)) == "1.5"
    many = result_text((np.ones(2),) * 20)
    assert many.count("\n[7] ") == 1 and "\n[8] " not in many and many.endswith("... 12 more")
    assert len(result_text("a" * 10_000)) < 4100
    assert result_text((2, np.int64(1))) == "(2, 1)"  # iterations


# -- keys --------------------------------------------------------------------------------------------------
def test_keys_list_the_console_and_stepping_back() -> None:
    keys = dict(KEYS)
    assert "S" in keys and "N" in keys and ":" in keys
    text = keys_text()
    assert "step back" in text and "expression console" in text


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
def test_console_widget(size: tuple[int, int]) -> None:
    asyncio.run(_console(size))


async def _type(app, pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    """Type an expression and wait for its result (it comes from a thread worker)."""
    before = len(app.screen.results)
    await pilot.press(*text)
    await pilot.press("enter")
    for _ in range(100):
        await settle(app, pilot)
        if len(app.screen.results) > before:
            return
    raise AssertionError(f"no result for {text!r}")


async def _console(size: tuple[int, int]) -> None:
    app = lstm_app()
    async with app.run_test(size=size) as pilot:
        while app.selected is None or app.selected.type != "LSTMCell":
            await press(app, pilot, "s")
        h = app.session.stepper.current.outputs[0]
        footer = {k.key: k for k in app.query_one(Footer).query("FooterKey")}
        assert "colon" in footer and footer["colon"].region.right <= size[0]
        await press(app, pilot, ":")
        screen = app.screen
        assert isinstance(screen, ConsoleScreen)
        out = screen.query_one("#console-out")
        assert out.region.height >= (8 if size[1] == 24 else 30)  # uses the room it has
        assert out.region.width >= size[0] - 6
        await _type(app, pilot, "x.max()")
        assert screen.results[-1] == (result_text(h.max()), False)
        await _type(app, pilot, "x +")
        text, error = screen.results[-1]
        assert error and text.startswith("cannot parse the expression") and "\n" not in text
        await _type(app, pilot, "value('X')")  # the whole input, by name: its summary line, then its values
        assert screen.results[-1][0].startswith(summary(app.session.inputs["X"]) + "\n[[[")
        assert "x.max()" in " ".join(strip.text for strip in out.lines)
        await pilot.press("up", "up", "up")  # history: the oldest expression
        assert screen.query_one("#console-in").value == "x.max()"
        await pilot.press("down")
        assert screen.query_one("#console-in").value == "x +"
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ConsoleScreen) and app.selected.type == "LSTMCell"
        await press(app, pilot, ":")  # the history stays while the app runs
        await pilot.press("up")
        assert app.screen.query_one("#console-in").value == "value('X')"
        await pilot.press("escape")


def test_step_back_keys_show_the_stops_as_they_were() -> None:
    asyncio.run(_back_keys())


def displayed(app) -> tuple[object, ...]:  # type: ignore[no-untyped-def]
    """What the screen shows of a stop: the selection, inspector, watch list, status and the tensor."""
    a = app.inspected
    return (app.selected.path if app.selected else None, app.shown_iteration, plain(app.query_one("#summary")),
            plain(app.query_one("#watch")), plain(app.query_one("#status")), plain(app.query_one("#viewtitle")),
            None if a is None else a.tobytes())


async def _back_keys() -> None:
    app = make_app(args_for(*NESTED))
    async with app.run_test(size=(80, 24)) as pilot:
        await press(app, pilot, "S")
        assert app.session.log[-1].startswith("at the start")
        await press(app, pilot, "ssisssssis")  # into the Loop inside the TI
        await press(app, pilot, "w")  # a watch on the inner layer
        seen = [displayed(app)]
        for key in "snsnsstss":
            await press(app, pilot, key)
            seen.append(displayed(app))
        positions = [app.session.position]
        for k in range(len(seen) - 2, -1, -1):  # back through every stop: S, then N where n took the step
            while True:
                await press(app, pilot, "S")
                positions.append(app.session.position)
                if displayed(app)[0] == seen[k][0] and displayed(app) == seen[k]:
                    break
                assert positions[-1] < positions[-2], "S went past an earlier stop"
            assert displayed(app) == seen[k]
        assert "restarted" not in " ".join(app.session.log)
        depth = len(app.session.stepper.current.frames)
        await press(app, pilot, "N")  # the layer evaluated before, at this depth or above: selected, inspected
        ev = app.session.stepper.current
        assert isinstance(ev, LayerEvaluated) and len(ev.frames) <= depth and app.selected is ev.layer
        assert app.session.log[-1].startswith(f"back to: evaluated {short(ev.layer)}")
        np.testing.assert_array_equal(app.inspected, ev.outputs[0] if ev.outputs else ev.inputs[0])
