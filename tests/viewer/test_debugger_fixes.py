"""Debugger defects found by hand at 80x24 and 160x48, each a test that failed before its fix."""

from __future__ import annotations

import asyncio
from pathlib import Path

import numpy as np
import pytest
from irlint.viewer.debugger.session import Session

import irlint
from irlint.interp import Options
from irlint.interp.events import BodyEntered, LayerEvaluated
from tests.viewer import irs
from tests.viewer.test_debugger import keras_args, lstm_app


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("fixes")
    return {"dynamic_ti": irs.save(irs.dynamic_ti(), d / "dynamic_ti.xml")}


def dynamic_session(path: Path) -> Session:
    inputs = {"x": np.linspace(-1, 1, 10, dtype=np.float32).reshape(1, 5, 2), "h0": np.zeros((1, 2), np.float32)}
    return Session(irlint.load(path), inputs, Options())


def test_goto_past_a_loops_end_is_refused_where_the_count_is_known_only_at_run_time(models) -> None:  # type: ignore[no-untyped-def]
    s = dynamic_session(models["dynamic_ti"])
    ti = next(la for la in s.model.graph.layers if la.type == "TensorIterator")
    assert s.static_count(ti.path) == (False, None)  # the count comes from the input's length
    s.run_to_iteration((99,), ti.path)
    assert isinstance(s.stepper.current, BodyEntered) and s.stepper.current.layer is ti  # not run through
    assert s.log[-1] == f"iteration 99 was not reached: #{ti.id} rnn (TensorIterator) runs at most 5 iterations (0..4)"
    s.do("continue")
    before = s.position
    s.run_to_iteration((99,), ti.path)  # once it ran, refused before running at all
    assert s.position == before and "cannot be reached" in s.log[-1] and "runs 5 iterations" in s.log[-1]
    s.run_to_iteration((3,), ti.path)  # a reachable one still goes there
    assert s.current_iteration == (3,)


def test_top_level_inputs_outlive_the_recorded_tensors_bound(models, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A long continue drops the oldest tensors (here past 3): the inputs are no step and stay shown."""
    from irlint.viewer.debugger import recorder

    monkeypatch.setattr(recorder, "MAX_RECORDED", 3)
    s = dynamic_session(models["dynamic_ti"])
    s.do("continue")
    assert s.stepper.finished and len(s.values) == 3
    x = s.find_layer("x")
    assert x is not None and s.tensor(x.path) is not None and s.iterations_seen(x.path) == [()]
    np.testing.assert_array_equal(s.value("x"), s.inputs["x"])
    assert any(key == (x.path, ()) for key, _v in s.recorded())


def lstm_at_cell() -> Session:
    from tests.viewer.test_debugger import EXAMPLES

    s = Session(irlint.load(EXAMPLES / "lstm_ti.xml"), dict(np.load(EXAMPLES / "inputs" / "lstm_ti.npz")), Options())
    while not (isinstance(s.stepper.current, LayerEvaluated) and s.stepper.current.layer.type == "LSTMCell"):
        s.do("step")
    return s


def test_console_matrix_product_long_sums_and_its_own_wording() -> None:
    from irlint.viewer.debugger.conditions import ConditionError, compile_condition

    s = lstm_at_cell()
    h = s.evaluate("x")
    np.testing.assert_allclose(s.evaluate("x @ x[0]"), h @ h[0])  # [1, 4] @ [4]
    with pytest.raises(ValueError, match=r"do not multiply.*\(4\).*\(1\)"):
        s.evaluate("x @ x")
    with pytest.raises(ValueError, match="'@' multiplies tensors"):
        s.evaluate("x @ 2")
    with pytest.raises(ConditionError, match="nested too deeply"):  # not a raw RecursionError
        s.evaluate(" + ".join(["x"] * 3000))
    assert float(s.evaluate(" + ".join(["1"] * 200))) == 200
    with pytest.raises(ConditionError, match=r"^attribute '__class__' is not allowed: an expression can"):
        s.evaluate("x.__class__")
    with pytest.raises(ConditionError, match="a list comprehension is not allowed in an expression"):
        s.evaluate("[v for v in x]")
    with pytest.raises(ConditionError, match=r"^attribute '__class__' is not allowed: a condition can"):
        compile_condition("x.__class__ == 1")


# -- statistics: ±Inf and NaN are values too -----------------------------------------------------------
def test_statistics_show_infinities_and_changes_to_nan() -> None:
    from irlint.viewer.debugger.inspector import diff_text, preview, summary

    from irlint.cli.trace_cmd import stats_text

    a = np.array([np.inf, -np.inf, 6, 6], np.float32)
    assert "min -inf max inf" in summary(a) and "inf 2" in summary(a)
    assert preview(a).startswith("f32[4] [-inf,inf]")
    prev = np.array([6, 6, 6, 6], np.float32)
    now = np.array([6, np.nan, 6, 7], np.float32)
    assert diff_text(now, prev) == "vs previous it: max |diff| 1, 2/4 changed (1 to or from NaN/Inf)"
    assert diff_text(now, now.copy()).endswith(" 0/4 changed")  # NaN to NaN is no change
    assert stats_text(a) == "min=-inf max=inf mean=6 nan=0 inf=2"
    assert stats_text(np.array([np.nan, np.nan], np.float32)) == "nan=2 inf=0"  # no `min=None`
    assert stats_text(np.array([True, False, True])) == "true=2 false=1"


def test_trace_watch_prints_booleans(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from irlint.cli.main import main

    xml = irs.save(irs.trip_from_input(), tmp_path / "trip.xml")
    np.savez(tmp_path / "in.npz", x=np.zeros(2, np.float32), trip=np.int64(3))
    assert main(["trace", str(xml), "--inputs", str(tmp_path / "in.npz"), "--watch", "flag"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("flag")]
    assert len(rows) == 3 and rows[0].endswith("true=0 false=2") and rows[2].endswith("true=2 false=0"), rows


# -- the screen at 80x24 and 160x48 ------------------------------------------------------------------
def test_resizing_relabels_the_tree_for_the_new_width_at_once() -> None:
    asyncio.run(_resize())


async def _resize() -> None:
    app = lstm_app()
    async with app.run_test(size=(80, 24)) as pilot:
        tree = app.query_one("#graph")
        first = tree.nodes[next(iter(tree.nodes))]
        assert str(first.label) == "0 X"  # narrow: no types
        await pilot.resize_terminal(160, 48)
        await pilot.pause()
        assert str(first.label) == "0 X Parameter"  # wide: the types, in the same step
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert str(first.label) == "0 X"


def test_status_line_fits_inside_nested_branches() -> None:
    from types import SimpleNamespace

    from irlint.viewer.debugger.widgets.status import paused_text

    totals = ["1 of 3", "then branch", "2 of 4", "else branch", "17 of 100"]
    s = SimpleNamespace(
        loop_totals=lambda: totals,
        breakpoints=[1],
        stepper=SimpleNamespace(finished=False),
        value_breakpoint=lambda: None,
    )
    text = paused_text(s, 47)
    assert text == "paused | it 1/3>then>2/4>else>17/100 | 1 bp", text
    narrow = paused_text(s, 30)
    assert len(narrow) <= 30 and narrow.endswith(">else>17/100") and "…" in narrow


def test_a_search_and_a_scope_give_way_to_the_run_state_in_the_status_line() -> None:
    from types import SimpleNamespace

    from irlint.viewer.debugger.widgets.status import status_text

    s = SimpleNamespace(
        loop_totals=lambda frames=None: ["then branch", "1 of 3", "1 of 2"],
        breakpoints=[],
        altered=True,
        stepper=SimpleNamespace(finished=False),
        value_breakpoint=lambda: None,
        progress=SimpleNamespace(events=1234, frames=()),
    )
    note, short = "/halve 1/1 (n/N, Esc) | scope 3/4 (u/d)", "/halve 1/1 | scope 3/4"
    wide = status_text(s, False, 140, note, short)
    assert wide == f"{note} | ALTERED paused | iteration then branch > 1 of 3 > 1 of 2 | 0 breakpoints | ? help"
    # the right pane at 80x24: the notes said shorter, the innermost iteration kept
    assert status_text(s, False, 50, note, short) == "/halve 1/1 | scope 3/4 | ALTERED paused | it …>1/2"
    assert status_text(s, True, 50, note, short) == "/halve 1/1 | scope 3/4 | running, it then>1/3>1/2"
    # no room for a note: the run's state stays whole
    assert status_text(s, False, 40, note, short) == "ALTERED paused | it then>1/3>1/2 | 0 bp"
    assert status_text(s, True, 40, note, short) == "running: 1234 ev, it then>1/3>1/2 (Esc)"


def test_keras_names_show_their_distinguishing_tail_in_a_narrow_tree() -> None:
    asyncio.run(_keras_tail())


async def _keras_tail() -> None:
    from irlint.viewer.debug_cmd import make_app

    app = make_app(keras_args())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        tree = app.query_one("#graph")
        labels = [str(node.label) for node in tree.nodes.values()]
        body = [la for la in labels if "placeholder" in la]
        assert len(body) >= 4 and len({la[-6:] for la in body}) == len(body)  # their ends differ
        assert all(la.split(" ", 1)[1].startswith("…") for la in body)  # the shared prefix gave way
        assert max(len(la) for la in labels) <= tree.size.width
        await pilot.resize_terminal(160, 48)
        await pilot.pause()
        assert "1 functional_1_1_lstm_1_1_while_placeholder" in [str(n.label) for n in tree.nodes.values()]


async def settled(app, pilot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(3):
        await pilot.pause()
        await app.workers.wait_for_complete()
    await pilot.pause()


def test_right_pane_shows_the_first_input_before_any_step() -> None:
    asyncio.run(_first_pane())


async def _first_pane() -> None:
    app = lstm_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.selected is app.model.graph.layers[0] and app.session.stepper.current is None
        np.testing.assert_array_equal(app.inspected, app.session.inputs["X"])


def test_a_key_pressed_while_a_command_runs_is_done_after_it() -> None:
    asyncio.run(_typed_ahead())


async def _typed_ahead() -> None:
    import threading

    app = lstm_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3):
            await pilot.press("s")
            await settled(app, pilot)
        s = app.session
        assert s.position == 3
        gate, do = threading.Event(), s.do

        def held(command: str):  # type: ignore[no-untyped-def]
            gate.wait(30)  # the command runs until the test lets it go (as a restart runs a while)
            return do(command)

        s.do = held  # type: ignore[method-assign]
        await pilot.press("s")
        await pilot.pause()
        assert app.busy
        await pilot.press("S")  # pressed while `s` runs: kept, not lost
        await pilot.pause()
        gate.set()
        await settled(app, pilot)
        assert not app.busy and s.position == 3 and s.log[-1].startswith("back to:")
        assert any(str(line).startswith("back: queued") for line in app.log_lines)
        gate.clear()
        await pilot.press("s")
        await pilot.pause()
        await pilot.press("S")
        await pilot.press("escape")  # Esc drops what was queued
        gate.set()
        await settled(app, pilot)
        assert s.position == 4 and not app.pending


def test_xml_view_keeps_the_indentation_and_the_values_header_fits() -> None:
    from irlint.viewer.debugger.inspector import view_title
    from irlint.viewer.debugger.widgets.source import source_text

    from irlint.diagnostics import Location

    lines = ["<net>", "\t<layers>", '\t\t<layer id="3">', '\t\t\t<data axis="1"/>', "\t\t</layer>"]
    text = source_text(Location("m.xml", 3, 1), lines, None, 1, 2, "m.xml:3", indent=True).plain
    assert '    2 | <layers>\n    3 |   <layer id="3">\n    4 |     <data axis="1"/>\n    5 |   </layer>' in text
    a = np.zeros((1, 5, 16), np.float32)
    assert view_title(a, 0) == "[0, rows, columns] of [1, 5, 16]  (j/k: other slices)"
    for width in (47, 40, 30):
        title = view_title(a, 0, width, "out6")
        assert len(title) <= width and title.startswith("out6 [0,") and "[1,5,16]" in title, title
