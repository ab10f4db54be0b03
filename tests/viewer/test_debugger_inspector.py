"""`irlint debug`: the inspector's inputs and attributes, `v` (the layer in the XML) and `r` (the diagram
with the paused iteration's values), plus the text formatting behind them."""

from __future__ import annotations

import asyncio
import re
import shutil
from html import unescape
from pathlib import Path

import numpy as np
import pytest
from irlint.viewer.debug_cmd import make_app
from irlint.viewer.debugger.conditions import compile_condition
from irlint.viewer.debugger.inspector import (
    attribute_items,
    back_edge_items,
    input_text,
    port_map_items,
    preview,
    short_diff,
    structure_sections,
)
from irlint.viewer.debugger.render import paused_iteration, render_paused, trace_of
from irlint.viewer.debugger.session import ConditionalBreakpoint, Session
from irlint.viewer.debugger.text import fit_items, keep_tail
from irlint.viewer.debugger.widgets.source import XmlScreen

import irlint
from irlint.cli.command import UsageError
from tests.viewer.test_debugger import EXAMPLES, at_root, lstm_app, reference_h, settle  # noqa: F401 - at_root: autouse
from tests.viewer.test_debugger_defects import model_args, plain
from tests.viewer.test_debugger_features import cell_of

LSTM = EXAMPLES / "lstm_ti.xml"
LSTM_IN = EXAMPLES / "inputs" / "lstm_ti.npz"


def lstm_model():  # type: ignore[no-untyped-def]
    model = irlint.load(LSTM)
    ti = next(la for la in model.graph.layers if la.type == "TensorIterator")
    return model, ti


# -- formatting ------------------------------------------------------------------------------------
def test_preview_and_short_diff() -> None:
    assert preview(np.array([[-1.25, 0.5]], np.float32)) == "f32[1,2] [-1.25,0.5]"
    assert preview(np.array(7, np.int64)) == "i64[] = 7"
    assert preview(np.array([1.0, np.nan, np.inf])) == "f64[3] [1,inf] nan 1 inf 1"  # the Inf is in the range
    assert preview(np.array([True, False, True])) == "bool[3] 2 true"
    a, b = np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.5, 1.0])
    assert short_diff(a, b) == "Δ2 2/3"
    assert short_diff(a, None) == ""
    assert short_diff(a, np.zeros(2)) == "Δshape [2]"
    assert short_diff(np.array([True, False]), np.array([True, True])) == "Δ1/2"


def test_input_text_fits_its_width_dropping_the_least_useful_part_first() -> None:
    full = input_text(1, (3, "Tanh_5", 2), "f32[1,4] [-0.7,0.1]", "Δ0.05 4/4")
    assert full == "in1 ← 3 Tanh_5:2 f32[1,4] [-0.7,0.1] Δ0.05 4/4"
    assert input_text(1, (3, "Tanh_5", 2), "f32[1,4] [-0.7,0.1]", "Δ0.05 4/4", width=len(full)) == full
    assert (
        input_text(1, (3, "Tanh_5", 2), "f32[1,4] [-0.7,0.1]", "Δ0.05 4/4", width=42)
        == "in1 ← 3 Tanh_5:2 f32[1,4] [-0.7,0.1] Δ0.05"
    )  # the count goes first
    long = "functional_1_lstm_1_while_strided_slice_3"
    line = input_text(0, (12, long, 0), "f32[1,4] [-0.7,0.1]", "Δ0.05 4/4", width=48)
    assert len(line) <= 48 and line.startswith("in0 ← 12 …") and "slice_3:0" in line and "Δ0.05" in line  # the tail
    args = (0, (12, "c_prev", 0), "f32[1,4] [-0.766,0.115]", "Δ0.766 4/4")
    assert (
        input_text(*args, width=46, short_value="f32[1,4] [-0.77,0.12]")
        == "in0 ← 12 c_prev:0 f32[1,4] [-0.77,0.12] Δ0.766"
    )  # fewer digits
    assert input_text(*args, width=34) == "in0 ← 12 c_prev:0 f32[1,4] Δ0.766"  # no range
    assert input_text(*args, width=30) == "in0 ← 12 c_prev:0 f32[1,4]"  # no change: type and shape stay
    assert input_text(2, None, "") == "in2 ← (no edge)"
    assert keep_tail("abcdefghij", 5) == "…ghij" and keep_tail("abc", 5) == "abc"


def test_attributes_port_map_and_back_edges_of_a_tensor_iterator() -> None:
    _model, ti = lstm_model()
    cell = next(la for la in ti.body.layers if la.type == "LSTMCell")
    assert attribute_items(cell)[:2] == ["hidden_size=4", "activations=sigmoid, tanh, tanh"]
    assert "clip=0" in attribute_items(cell)
    items = port_map_items(ti.body, ti.port_map)
    assert "in0→0 x_t axis 1" in items and "out3←13 y_t axis 1" in items and "in1→1 h_prev" in items
    assert back_edge_items(ti.body, ti.back_edges) == ["11 h_next→1 h_prev", "12 c_next→2 c_prev"]
    heads = [h for h, _items in structure_sections(ti)]
    assert heads == ["port map:", "back edges:"]


def test_if_branches_and_loop_special_ports() -> None:
    model = irlint.load(EXAMPLES / "if_in_loop.xml")
    iff = next(la for _g, la in model.layers() if la.type == "If")
    sections = dict(structure_sections(iff))
    then = next(h for h in sections if h.startswith("then branch"))
    other = next(h for h in sections if h.startswith("else branch"))
    assert "layers) port map:" in then and sections[then] and sections[other]
    assert all(re.fullmatch(r"(in\d+→|out\d+←)\d+ \S+.*", item) for item in sections[then])
    loop = next(la for la in irlint.load(EXAMPLES / "loop_scan.xml").graph.layers if la.type == "Loop")
    items = port_map_items(loop.body, loop.port_map)
    assert "current_iteration→0 i" in items and "execution_condition←15 cond" in items
    assert "out5←16 scan axis 0" in items
    assert attribute_items(loop) == [] and [h for h, _i in structure_sections(loop)] == ["port map:", "back edges:"]


def test_fit_items_says_where_the_rest_is() -> None:
    items = ["alpha=1", "beta=2", "gamma=3", "delta=4"]
    assert fit_items("attrs:", items, 34, 1, ",", "(v)") == "attrs: alpha=1, ... 3 more (v)"
    assert fit_items("attrs:", ["a=1", "b=2", "c=3"], 40, 1, ",", "(v)") == "attrs: a=1, b=2, c=3"
    assert fit_items("attrs:", ["a=1", "b=2", "c=3"], 16, 2, ",", "(v)") == "attrs: a=1, b=2,\nc=3"  # whole items


# -- the inspector in the app ------------------------------------------------------------------------
def test_inspector_shows_inputs_with_producer_values_and_change() -> None:
    asyncio.run(_inputs((160, 48)))


def test_inspector_inputs_at_80x24_fold_the_consts() -> None:
    asyncio.run(_inputs((80, 24)))


async def _inputs(size: tuple[int, int]) -> None:
    app = lstm_app()
    async with app.run_test(size=size) as pilot:
        cell = cell_of(app)
        app.session.add_breakpoint(ConditionalBreakpoint(layer=cell.path))
        for _ in range(3):  # iterations 0, 1, 2
            await pilot.press("c")
            await settle(app, pilot)
        assert app.selected is cell and app.shown_iteration == (2,)
        summary = app.query_one("#summary")
        lines = plain(summary).splitlines()
        assert all(len(line) <= summary.content_region.width for line in lines), lines
        h_in = next(line for line in lines if line.startswith(" in1 ← 1 h_prev:0 f32[1,4]"))
        h1, h0 = reference_h(1), reference_h(0)  # h_prev in iteration 2 is h after iteration 1
        assert f"Δ{np.abs(h1 - h0).max():.3g}" in h_in
        assert any(f"[{h1.min():.{n}g},{h1.max():.{n}g}]" in h_in for n in (2, 3))  # fewer digits where narrow
        x_in = next(line for line in lines if line.startswith(" in0 ← 4 Reshape_9:2 f32[1,8]"))
        assert "Δ" in x_in
        if size[1] >= 30:  # every input on its own line, Consts named
            assert any(line.startswith(" in3 ← 5 Constant_11:0 f32[16,8]") and line.endswith("const") for line in lines)
        else:
            assert " in3,4,5 ← Consts f32[16,8], f32[16,4], f32[16]" in lines
        attrs = plain(app.query_one("#attrs"))
        assert attrs.replace("\n", " ").startswith("attrs: hidden_size=4, activations=sigmoid, tanh, tanh")
        assert all(len(line) <= app.query_one("#attrs").content_region.width for line in attrs.splitlines())
        log = app.query_one("#log")
        assert log.region.height >= 5  # the log keeps its rows (4 and the border)
        await pilot.press("left_square_bracket")  # the inputs follow the shown iteration
        await pilot.pause()
        h_in = next(line for line in plain(summary).splitlines() if line.startswith(" in1 ← 1 h_prev"))
        assert any(f"[{h0.min():.{n}g},{h0.max():.{n}g}]" in h_in for n in (2, 3))


def test_inspector_shows_a_tensor_iterators_port_map_and_back_edges() -> None:
    asyncio.run(_ti())


async def _ti() -> None:
    app = lstm_app()
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("c")
        await settle(app, pilot)
        ti = next(la for la in app.session.model.graph.layers if la.type == "TensorIterator")
        app.query_one("#graph").move_cursor(app.nodes[ti.path])
        await pilot.pause()
        attrs = plain(app.query_one("#attrs"))
        assert "port map: in0→0 x_t axis 1" in attrs and "back edges: 11 h_next→1 h_prev, 12 c_next→2 c_prev" in attrs
        lines = plain(app.query_one("#summary")).splitlines()
        assert lines[1].startswith(" in0 ← 0 X:0 f32[1,5,8]")  # a top-level input, recorded up front


def test_inputs_of_a_layer_not_run_yet_show_their_producers_latest_values() -> None:
    asyncio.run(_not_run())


async def _not_run() -> None:
    app = lstm_app()
    async with app.run_test(size=(160, 48)) as pilot:
        for k in "sis":  # into the body, Reshape_9 of iteration 0 evaluated, the cell not yet
            await pilot.press(k)
            await settle(app, pilot)
        cell = cell_of(app)
        app.query_one("#graph").move_cursor(app.nodes[cell.path])
        await pilot.pause()
        lines = plain(app.query_one("#summary")).splitlines()
        assert lines[0].endswith("not evaluated yet")
        assert any(line.startswith(" in0 ← 4 Reshape_9:2 it 0 f32[1,8]") for line in lines), lines


def test_v_shows_the_selected_layer_in_the_xml() -> None:
    asyncio.run(_xml())


async def _xml() -> None:
    app = lstm_app()
    async with app.run_test(size=(80, 24)) as pilot:
        cell = cell_of(app)
        app.query_one("#graph").move_cursor(app.nodes[cell.path])
        await pilot.pause()
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, XmlScreen)
        view = app.screen.query_one("#xml")
        text = view.shown
        line = cell.loc.line
        marked = [s for s in text.spans if str(s.style) == "reverse"]
        assert len(marked) == 1 and text.plain[marked[0].start : marked[0].end].startswith(
            f'{line:>5} | <layer id="8" name="LSTMCell_16" type="LSTMCell"'
        )
        assert f"{line - 2:>5} | " in text.plain and 'hidden_size="4"' in text.plain
        assert text.plain.startswith(f"{cell.loc}  #{cell.path} LSTMCell_16 (LSTMCell)")
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, XmlScreen) and app.session is not None


# -- r: the diagram at the paused iteration ----------------------------------------------------------
def test_trace_of_the_session_uses_the_trace_keys() -> None:
    model, ti = lstm_model()
    s = Session(model, dict(np.load(LSTM_IN)))
    for c in ("step", "into", "step", "step", "step", "step", "iteration", "step", "step"):
        s.do(c)
    assert paused_iteration(s) == (1,)
    trace = trace_of(s)
    cell = next(la for la in ti.body.layers if la.type == "LSTMCell")
    h_prev = next(la for la in ti.body.layers if la.name == "h_prev")
    assert f"{cell.path}@1:out6" in trace and f"{cell.path}@2:out6" not in trace
    np.testing.assert_array_equal(trace[f"{h_prev.path}@1:in"], reference_h(0))
    assert f"{next(la for la in ti.body.layers if la.name == 'h_next').path}@0:out" in trace
    assert "0:out0" in trace  # a top-level input


def test_trace_after_a_step_back_holds_only_what_was_recorded_up_to_that_event() -> None:
    model, ti = lstm_model()
    s = Session(model, dict(np.load(LSTM_IN)))
    for c in ("step", "into", "step", "step", "step", "step", "iteration", "step", "step"):
        s.do(c)
    cell = next(la for la in ti.body.layers if la.type == "LSTMCell")
    assert f"{cell.path}@1:out6" in trace_of(s)
    s.do("back")  # before the cell's iteration 1
    assert paused_iteration(s) == (1,)
    trace = trace_of(s)
    assert f"{cell.path}@1:out6" not in trace and f"{cell.path}@0:out6" in trace
    s.do("step")  # forward again: recorded once more
    assert f"{cell.path}@1:out6" in trace_of(s)


def test_paused_iteration_leaves_an_ifs_frame_out() -> None:
    model = irlint.load(EXAMPLES / "if_in_loop.xml")
    s = Session(model, dict(np.load(EXAMPLES / "inputs" / "if_in_loop.npz")))
    iff = next(la for _g, la in model.layers() if la.type == "If")
    then = iff.branch("then").body.layers[-1]
    s.add_breakpoint(ConditionalBreakpoint(layer=then.path))
    s.do("continue")
    assert len(s.current_iteration) == 2 and paused_iteration(s) == s.current_iteration[:1]


@pytest.mark.skipif(shutil.which("dot") is None, reason="needs graphviz's dot")
def test_r_renders_the_paused_iterations_values(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    asyncio.run(_render(tmp_path))


async def _render(tmp_path: Path) -> None:
    app = make_app(model_args(LSTM, inputs=str(LSTM_IN), random_inputs=False))
    async with app.run_test(size=(80, 24)) as pilot:
        cell = cell_of(app)
        app.session.add_breakpoint(
            ConditionalBreakpoint(layer=cell.path, when="iteration == 2", test=compile_condition("iteration == 2"))
        )
        await pilot.press("c")
        await settle(app, pilot)
        assert app.session.current_iteration == (2,)
        await pilot.press("r")
        await pilot.pause()
        assert "at iteration 2" in str(app.log_lines[-1]), app.log_lines[-1]
        svg = unescape((tmp_path / "lstm_ti.debug.svg").read_text()).replace("\xa0", " ")
        h1 = reference_h(1)  # what h_prev holds in iteration 2
        assert f"it 2: {np.array2string(h1.reshape(-1), precision=3)}" in svg
        h2 = app.session.tensor(cell.path, (2,))[0]
        assert f"it 2: {np.array2string(np.asarray(h2).reshape(-1), precision=3)}" in svg
        assert "it 3:" not in svg and "it 4:" not in svg  # not run yet
        assert "it 0: [0. 0. 0. 0.]" in svg  # the initial values of h and c (iteration 0 only)


def test_r_never_writes_over_a_file_the_run_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = tmp_path / "m.xml"
    shutil.copy(LSTM, model)
    shutil.copy(LSTM.with_suffix(".bin"), tmp_path / "m.bin")
    inputs = tmp_path / "in.npz"
    shutil.copy(LSTM_IN, inputs)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.debug.svg").symlink_to(inputs)
    before = inputs.read_bytes()
    s = Session(irlint.load(model), dict(np.load(inputs)))
    with pytest.raises(UsageError):
        render_paused(s, [], str(model), [("MODEL", str(model)), ("--inputs", str(inputs))])
    (tmp_path / "m.debug.svg").unlink()
    (tmp_path / "m.debug.svg").symlink_to(tmp_path / "m.bin")  # the weights, though not in `reads`
    with pytest.raises(UsageError):
        render_paused(s, [], str(model), [("MODEL", str(model))])
    assert inputs.read_bytes() == before and (tmp_path / "m.bin").read_bytes() == LSTM.with_suffix(".bin").read_bytes()
