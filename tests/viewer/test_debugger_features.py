"""Issue 15's debugger features: go to iteration, conditional breakpoints, restart, help, markers,
timeline, inspector of every output / Consts / inputs / Loop specials, 0-based numbering, 80x24."""

from __future__ import annotations

import asyncio
from pathlib import Path

import numpy as np
import pytest
from irlint.viewer.debug_cmd import make_app
from irlint.viewer.debugger.conditions import ConditionError, compile_condition, parse_breakpoint
from irlint.viewer.debugger.session import ConditionalBreakpoint, Session
from irlint.viewer.debugger.timeline import Point, buckets, sparkline
from textual.widgets import Footer

import irlint
from irlint.interp import Options, execute
from irlint.interp.trace import Trace, key
from tests.viewer import irs
from tests.viewer.test_debugger import EXAMPLES, LSTM, args_for, at_root, lstm_app, reference_h, settle  # noqa: F401
from tests.viewer.test_debugger_defects import model_args, plain


def cell_of(app):  # type: ignore[no-untyped-def]
    ti = next(la for la in app.session.model.graph.layers if la.type == "TensorIterator")
    return next(la for la in ti.body.layers if la.type == "LSTMCell")


async def type_prompt(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.pause()
    for ch in text:
        await pilot.press(ch if ch != " " else "space")
    await pilot.press("enter")


# -- go to iteration ---------------------------------------------------------------------------------
def test_goto_runs_to_an_iteration_then_shows_recorded_ones() -> None:
    asyncio.run(_goto())


async def _goto() -> None:
    app = lstm_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("g")
        await type_prompt(pilot, "3")
        await settle(app, pilot)
        assert app.session.current_iteration == (3,)
        assert "iteration 3 of 5" in plain(app.query_one("#status"))  # 0-based, as in traces
        cell = cell_of(app)
        app.session.add_breakpoint(ConditionalBreakpoint(layer=cell.path))
        await pilot.press("c")
        await settle(app, pilot)
        assert app.selected is cell and app.shown_iteration == (3,)
        await pilot.press("g")
        await type_prompt(pilot, "1")  # recorded: shown without running
        await settle(app, pilot)
        assert app.shown_iteration == (1,) and app.session.current_iteration == (3,)
        np.testing.assert_array_equal(app.inspected, reference_h(1))
        await pilot.press("g")
        await type_prompt(pilot, "x.1")
        await settle(app, pilot)
        assert "not an iteration" in app.session.log[-1] or app.shown_iteration == (1,)


# -- conditional breakpoints -------------------------------------------------------------------------
def test_parse_breakpoint_forms() -> None:
    model = irlint.load(EXAMPLES / "lstm_ti.xml")
    bp = parse_breakpoint("layer 3/body/8 when iteration == 3", model)
    assert bp.layer == "3/body/8" and bp.when == "iteration == 3"
    assert parse_breakpoint("LSTMCell_16 when max(abs(x)) > 1e3", model).layer == "3/body/8"
    assert parse_breakpoint("when any(isnan(x))", model).layer is None
    assert parse_breakpoint("layer 3", model).layer == "3"
    assert parse_breakpoint("layer 1", model).layer == "1"  # a bare id: the top-level layer first
    assert parse_breakpoint("layer 12 when iteration == 3", model).layer == "3/body/12"  # else the one with it
    nested = irlint.load(EXAMPLES / "nested_loop_in_ti.xml")
    with pytest.raises(ConditionError, match="several levels"):
        parse_breakpoint("layer 5 when iteration == 1", nested)  # a Reshape in the TI body, an Add in the Loop's
    with pytest.raises(ConditionError, match="no layer"):
        parse_breakpoint("layer nope", model)


@pytest.mark.parametrize("text", ["__import__('os')", "x.__class__", "open('f')", "[c for c in x]",
                                  "lambda: 1", "y > 1"])
def test_conditions_cannot_escape(text: str) -> None:
    with pytest.raises(ConditionError):
        compile_condition(text)


def _run_until(model_path: Path, inputs: dict, text: str) -> Session:  # type: ignore[type-arg]
    model = irlint.load(model_path)
    session = Session(model, inputs, Options(max_iterations=1000))
    session.add_breakpoint(parse_breakpoint(text, model))
    session.do("continue")
    return session


def test_breakpoint_when_iteration() -> None:
    s = _run_until(LSTM[0], dict(np.load(LSTM[1])), "layer LSTMCell_16 when iteration == 3")
    assert s.stepper.current.layer.name == "LSTMCell_16" and s.current_iteration == (3,)
    assert s.log[-1].startswith("breakpoint (iteration == 3)")


def test_breakpoint_when_a_bound_is_exceeded(tmp_path: Path) -> None:
    path = irs.save(irs.counting_loop(50), tmp_path / "count.xml")
    s = _run_until(path, {"x": np.zeros(2, np.float32)}, "layer acc_next when max(abs(x)) > 10")
    assert s.current_iteration == (10,)  # acc after iteration 10 (0-based) is 11
    assert float(s.tensor(s.stepper.current.layer.path)[0].max()) == 11


def test_breakpoint_when_nan_on_any_layer(tmp_path: Path) -> None:
    path = irs.save(irs.counting_loop(5), tmp_path / "count.xml")
    s = _run_until(path, {"x": np.array([1.0, np.nan], np.float32)}, "when any(isnan(x))")
    # the first evaluated layer whose output has a NaN (inputs and Consts are not steps of their own)
    assert s.stepper.current.layer.type == "Add" and s.current_iteration == (0,)


# -- restart, help, markers --------------------------------------------------------------------------
def test_restart_help_and_breakpoint_markers() -> None:
    asyncio.run(_restart_help_markers())


async def _restart_help_markers() -> None:
    app = lstm_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(8):
            await pilot.press("s")
            await settle(app, pilot)
        await pilot.press("b")
        await pilot.pause()
        marked = app.nodes[app.selected.path]
        assert str(marked.label).startswith("● ")
        await pilot.press("R")
        await settle(app, pilot)
        assert app.session.stepper.current is None
        assert {p for (p, _its), _v in app.session.recorded()} == {"0", "1", "2"}
        assert [bp.layer for bp in app.session.breakpoints] == [marked.data.path]  # kept
        await pilot.press("c")
        await settle(app, pilot)
        assert app.selected is marked.data  # the kept breakpoint stops the new run
        await pilot.press("question_mark")
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"
        await pilot.press("escape")
        await pilot.pause()
        assert type(app.screen).__name__ != "HelpScreen"
        await pilot.press("b")
        await pilot.pause()
        assert not str(marked.label).startswith("● ")


# -- timeline ---------------------------------------------------------------------------------------
def test_sparkline_buckets_and_nonfinite_marks() -> None:
    pts = [Point((i,), float(i), False) for i in range(10)] + [Point((10,), None, True)]
    text, groups = sparkline(pts, 40, cursor=3)
    assert text.plain == "▁▂▃▃▄▅▆▆▇█!" and len(groups) == 11  # level round(v / 9 * 7), NaN/Inf as !
    assert any("reverse" in str(span.style) for span in text.spans)
    assert [len(g) for g in buckets(1000, 40)] == [25] * 40


def test_timeline_shows_every_iteration_and_click_jumps() -> None:
    asyncio.run(_timeline())


async def _timeline() -> None:
    app = lstm_app()
    async with app.run_test(size=(100, 30)) as pilot:
        cell = cell_of(app)
        app.session.add_breakpoint(ConditionalBreakpoint(layer=cell.path, when="iteration == 4",
                                                         test=compile_condition("iteration == 4")))
        await pilot.press("c")
        await settle(app, pilot)
        timeline = app.query_one("#timeline")
        assert timeline.display and len(timeline.points) == 5
        assert [p.iteration for p in timeline.points] == [(k,) for k in range(5)]
        want = [float(reference_h(k).max()) for k in range(5)]
        assert [p.value for p in timeline.points] == pytest.approx(want)
        await pilot.click("#timeline", offset=(timeline._prefix + 1 + 1, 0))  # the bar of iteration 1
        await pilot.pause()
        assert app.shown_iteration == (1,)
        np.testing.assert_array_equal(app.inspected, reference_h(1))
        await pilot.press("m")
        await pilot.pause()
        assert timeline.metric == "min" and "min:" in plain(timeline)


# -- inspector -------------------------------------------------------------------------------------
def _traced(path: Path, inputs: dict) -> Trace:  # type: ignore[type-arg]
    t = Trace(trace_all=True)
    for _ in t.observe(execute(irlint.load(path), inputs)):
        pass
    return t


def test_inspector_shows_every_output_and_switches_ports() -> None:
    asyncio.run(_ports())


async def _ports() -> None:
    app = lstm_app()
    trace = _traced(*LSTM[:1], dict(np.load(LSTM[1])))
    async with app.run_test(size=(80, 24)) as pilot:
        cell = cell_of(app)
        app.session.add_breakpoint(ConditionalBreakpoint(layer=cell.path))
        await pilot.press("c")
        await settle(app, pilot)
        text = plain(app.query_one("#summary"))
        assert "out6 f32[1,4]" in text and "out7 f32[1,4]" in text  # H and C
        frames = ((app.session.model.graph.layers[3].path, 0),)
        np.testing.assert_array_equal(app.inspected, trace.get(key(cell.path, frames, "out6")))
        await pilot.press("p")
        await pilot.pause()
        np.testing.assert_array_equal(app.inspected, trace.get(key(cell.path, frames, "out7")))
        table = app.query_one("#values")
        assert table.show_row_labels and [str(r.label) for r in table.rows.values()] == ["0"]
        assert [str(c.label) for c in table.columns.values()] == ["0", "1", "2", "3"]


def test_inspector_shows_consts_inputs_ti_outputs_and_loop_specials() -> None:
    asyncio.run(_specials())


async def _specials() -> None:
    app = make_app(args_for(EXAMPLES / "loop_scan.xml", EXAMPLES / "inputs" / "loop_scan.npz"))
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("c")  # to the end
        await settle(app, pilot)
        model = app.session.model
        loop = next(la for la in model.graph.layers if la.type == "Loop")
        tree = app.query_one("#graph")
        tree.move_cursor(app.nodes[loop.path])
        await pilot.pause()
        text = plain(app.query_one("#summary"))
        assert "out4 f32[4]" in text and "out5 f32[4,4]" in text  # both Loop outputs (final acc and the scan)
        assert "trip count 10" in text and "conditions (4 its) 0:T 1:T 2:T 3:F" in text
        x = next(la for la in model.graph.layers if la.type == "Parameter")
        tree.move_cursor(app.nodes[x.path])
        await pilot.pause()
        np.testing.assert_array_equal(app.inspected, np.load(EXAMPLES / "inputs" / "loop_scan.npz")["x"])
        trip = next(la for la in model.graph.layers if la.type == "Const" and la.outputs[0].precision.name == "i64")
        tree.move_cursor(app.nodes[trip.path])
        await pilot.pause()
        assert "= 10" in plain(app.query_one("#summary"))


# -- 80x24 -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
def test_nothing_essential_is_cut(size: tuple[int, int]) -> None:
    asyncio.run(_layout(size))


async def _layout(size: tuple[int, int]) -> None:
    app = lstm_app()
    async with app.run_test(size=size) as pilot:
        cell = cell_of(app)
        app.session.add_breakpoint(ConditionalBreakpoint(layer=cell.path, when="iteration == 2",
                                                         test=compile_condition("iteration == 2")))
        await pilot.press("c")
        await settle(app, pilot)
        footer = app.query_one(Footer)
        keys = {k.key: k for k in footer.query("FooterKey")}
        for k in ("s", "n", "i", "o", "t", "c", "g", "b", "question_mark", "q"):
            assert keys[k].region.right <= size[0], k  # every footer key on screen
        summary = app.query_one("#summary")
        lines = plain(summary).splitlines()
        assert any(line.startswith("vs previous it") for line in lines)  # the diff line
        assert all(len(line) <= summary.content_region.width for line in lines), lines
        tree = app.query_one("#graph")
        width = tree.content_region.width - 2  # the vertical scrollbar
        for node in app.nodes.values():
            depth = len(node.data.path.split("/body/"))
            assert 4 * depth + len(node.label.plain) <= width, node.label.plain  # no tree label cut


def test_random_inputs_banner_in_snapshot_state(tmp_path: Path) -> None:
    """With --random-inputs the banner stays visible while stepping (not a one-off log line)."""
    asyncio.run(_banner(irs.save(irs.counting_loop(3), tmp_path / "c.xml")))


async def _banner(path: Path) -> None:
    app = make_app(model_args(path))
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(5):
            await pilot.press("s")
            await settle(app, pilot)
        notes = app.query_one("#notes")
        assert notes.display and notes.region.height >= 1 and "RANDOM inputs" in plain(notes)
        assert "'x': f32[2]" in plain(notes)


def test_goto_in_nested_loops_is_outer_first() -> None:
    model = irlint.load(EXAMPLES / "nested_loop_in_ti.xml")
    inputs = dict(np.load(EXAMPLES / "inputs" / "nested_loop_in_ti.npz"))
    s = Session(model, inputs)
    s.run_to_iteration((1,))
    assert s.current_iteration == (1,)  # the TensorIterator's iteration 1, not an inner one
    s.run_to_iteration((2, 1))
    assert s.current_iteration == (2, 1)
    s.run_to_iteration((1, 0))  # behind: the run restarts and stops there (it used to run to the end)
    assert s.current_iteration == (1, 0) and not s.stepper.finished
    assert any(line.startswith("going back to iteration 1.0") for line in s.log)
