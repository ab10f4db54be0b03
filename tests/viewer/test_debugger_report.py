"""Debugger defects from a user report, each a test that failed before its fix: going back to an iteration
no longer recorded, the trip count known once a Loop runs, the diff of a bool tensor, If branches named
instead of numbered, Results in file order, tensor methods in conditions, the keys in --help, and the
breakpoint on NaN/Inf (or a magnitude) at any depth."""

from __future__ import annotations

import asyncio
from pathlib import Path

import numpy as np
import pytest
from irlint.viewer.debug_cmd import make_app
from irlint.viewer.debugger.conditions import ConditionError, compile_condition, parse_breakpoint
from irlint.viewer.debugger.inspector import diff_text
from irlint.viewer.debugger.keys import KEYS
from irlint.viewer.debugger.session import ConditionalBreakpoint, Session, describe_event

import irlint
from irlint.interp import Options
from irlint.interp.events import IterationStarted, LayerEvaluated
from tests import ifmodels
from tests.viewer import irs
from tests.viewer.test_debugger import EXAMPLES, args_for, at_root, lstm_app, settle  # noqa: F401 - at_root: autouse
from tests.viewer.test_debugger_defects import model_args, plain
from tests.viewer.test_debugger_features import type_prompt

pytest.importorskip("openvino")


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("report")
    return {
        "trip": irs.save(irs.trip_from_input(), d / "trip.xml"),
        "early": irs.save(irs.trip_from_input(stop_at=4.0), d / "early.xml"),
        "nan": irs.save(irs.nan_in_nested_loops(), d / "nan.xml"),
        "if_in_loop": ifmodels.save(ifmodels.if_in_loop(), d, "if_in_loop"),
    }


def body_layer(model, name: str):  # type: ignore[no-untyped-def]
    return next(la for _g, la in model.layers() if la.name == name)


def trip_inputs(trip: int) -> dict[str, np.ndarray]:
    return {"x": np.zeros(2, np.float32), "trip": np.array(trip, np.int64)}


# -- 1. going back to an iteration that is no longer recorded ----------------------------------------
def test_goto_an_evicted_iteration_restarts_and_stops_there(models: dict[str, Path]) -> None:
    model = irlint.load(models["trip"])
    acc = body_layer(model, "acc_next")
    s = Session(model, trip_inputs(200_000), Options(memory_budget=20_000))  # keeps ~600 iterations
    s.add_breakpoint(
        ConditionalBreakpoint(layer=acc.path, when="iteration == 2000", test=compile_condition("iteration == 2000"))
    )
    s.do("continue")
    assert s.current_iteration == (2000,) and s.recorded_at(acc.path, (5,)) is None  # evicted
    s.run_to_iteration((5,), acc.path)  # ran forward to the 100,000-iteration limit
    assert s.current_iteration == (5,) and s.stepper.current.layer is acc and not s.stepper.finished
    np.testing.assert_array_equal(s.tensor(acc.path, (5,))[0], [6, 6])
    assert s.iterations_seen(acc.path) == [(k,) for k in range(6)]  # the replay is recorded, 0 to 5
    assert any(line.startswith("going back to iteration 5") for line in s.log)
    assert len(s.breakpoints) == 1  # set aside while going back, kept afterwards
    s.run_to_iteration((7,), acc.path)  # ahead: forward, no restart
    assert s.current_iteration == (7,) and s.log[-1].endswith("it 7")
    param = body_layer(model, "acc")  # a body Parameter: recorded at its iteration's start
    s.run_to_iteration((3,), param.path)
    assert s.current_iteration == (3,) and s.recorded_at(param.path, (3,)) == (3,)
    np.testing.assert_array_equal(s.tensor(param.path, (3,))[0], [3, 3])


def test_goto_never_runs_past_its_target(models: dict[str, Path]) -> None:
    model = irlint.load(models["early"])  # its condition ends the Loop after 2 iterations
    loop = next(la for la in model.graph.layers if la.type == "Loop")
    acc = body_layer(model, "acc_next")
    s = Session(model, trip_inputs(100))
    s.run_to_iteration((5,), acc.path)
    assert not s.stepper.finished and s.stepper.current.layer is loop  # stopped where the loop ended
    assert s.log[-1] == f"iteration 5 was not reached: #{loop.id} {loop.name} ended after 2 iterations"
    s.run_to_iteration((150_000,), acc.path)  # past --max-iterations: said before anything runs
    assert "cannot be reached" in s.log[-1] and "--max-iterations 100000" in s.log[-1]
    s.run_to_iteration((1, 2), acc.path)
    assert "inside 1 loop: give at most 1 number" in s.log[-1]


def test_goto_back_in_the_ui_after_escape(models: dict[str, Path]) -> None:
    asyncio.run(_goto_back(models["trip"]))


async def _goto_back(path: Path) -> None:
    np.savez(path.with_suffix(".npz"), **trip_inputs(200_000))
    args = model_args(
        path, inputs=str(path.with_suffix(".npz")), random_inputs=False, memory_budget=200_000, max_iterations=100_000
    )
    app = make_app(args)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("c")
        for _ in range(600):  # until far more iterations ran than the budget keeps
            await pilot.pause(0.05)
            frames = app.session.progress.frames
            if frames and frames[-1][1] > 8000:
                break
        await pilot.press("escape")
        await settle(app, pilot)
        stopped = app.session.current_iteration
        assert stopped[0] > 8000 and not app.session.stepper.finished
        acc = body_layer(app.session.model, "acc_next")
        app.query_one("#graph").move_cursor(app.nodes[acc.path])
        await pilot.pause()
        assert app.selected is acc and app.session.recorded_at(acc.path, (5,)) is None
        await pilot.press("g")
        await type_prompt(pilot, "5")
        await settle(app, pilot)
        assert app.session.current_iteration == (5,) and not app.session.stepper.finished
        assert app.selected is acc and app.shown_iteration == (5,)
        np.testing.assert_array_equal(app.inspected, [6, 6])
        assert "iteration 5 of 200000" in plain(app.query_one("#status"))


# -- 2. the trip count once the Loop runs ------------------------------------------------------------
def test_status_shows_the_trip_count_known_once_the_loop_starts(models: dict[str, Path]) -> None:
    asyncio.run(_trip_status(models))


async def _trip_status(models: dict[str, Path]) -> None:
    np.savez(models["trip"].with_suffix(".npz"), **trip_inputs(200_000))
    args = model_args(models["trip"], inputs=str(models["trip"].with_suffix(".npz")), random_inputs=False)
    app = make_app(args)
    async with app.run_test(size=(80, 24)) as pilot:
        loop = next(la for la in app.session.model.graph.layers if la.type == "Loop")
        assert app.session.totals(((loop.path, 0),)) == ["?"]  # not known before it runs
        await pilot.press("g")
        await type_prompt(pilot, "3")
        await settle(app, pilot)
        assert "iteration 3 of 200000" in plain(app.query_one("#status"))  # was "3 of ?"
        assert app.session.loop_totals(((loop.path, 7),)) == ["7 of 200000"]  # the running status' text
    s = Session(irlint.load(models["early"]), trip_inputs(100))
    s.run_to_iteration((1,))
    assert s.loop_totals() == ["1 of <=100"]  # its condition may end it sooner


# -- 3. the diff of a bool tensor ---------------------------------------------------------------------
def test_a_bool_tensor_is_compared_with_the_previous_iteration(models: dict[str, Path]) -> None:
    assert diff_text(np.array([True, False]), np.array([False, False])) == "vs previous it: 1/2 changed"
    assert diff_text(np.zeros(3), np.zeros(2)) == "vs previous it: shape [2] -> [3]"
    assert diff_text(np.array([True]), None) == "no previous iteration"
    asyncio.run(_bool_diff(models["trip"]))


async def _bool_diff(path: Path) -> None:
    np.savez(path.with_suffix(".npz"), **trip_inputs(3))
    app = make_app(model_args(path, inputs=str(path.with_suffix(".npz")), random_inputs=False))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("c")
        await settle(app, pilot)
        flag = body_layer(app.session.model, "flag")
        app.query_one("#graph").move_cursor(app.nodes[flag.path])
        await pilot.pause()
        await pilot.press("left_square_bracket")
        await pilot.pause()
        text = plain(app.query_one("#summary"))
        assert app.shown_iteration == (1,) and "[2/3 recorded]" in text
        assert "vs previous it: 1/2 changed" in text and "no previous iteration" not in text


# -- 4. If branches are named, not numbered -----------------------------------------------------------
def test_if_branches_are_named_in_the_debugger(models: dict[str, Path]) -> None:
    model = irlint.load(models["if_in_loop"])
    s = Session(model, {"x": np.ones((1, 3), np.float32), "h0": np.zeros((1, 3), np.float32)})
    described = []
    while not s.stepper.finished:
        ev = s.stepper.step()
        if isinstance(ev, LayerEvaluated) and ev.layer.path.count("_body/"):
            described.append(describe_event(ev))
    assert any(t.endswith(" it 0.then") for t in described) and any(t.endswith(" it 1.else") for t in described)
    assert not any(t.endswith((" it 0.0", " it 1.0")) for t in described)


def test_if_branches_are_named_in_the_inspector(models: dict[str, Path]) -> None:
    asyncio.run(_if_inspector(models["if_in_loop"]))


async def _if_inspector(path: Path) -> None:
    np.savez(path.with_suffix(".npz"), x=np.ones((1, 3), np.float32), h0=np.zeros((1, 3), np.float32))
    app = make_app(model_args(path, inputs=str(path.with_suffix(".npz")), random_inputs=False))
    async with app.run_test(size=(100, 30)) as pilot:
        iff = next(la for _g, la in app.session.model.layers() if la.type == "If")
        inner = next(la for la in iff.branch("else").body.layers if la.type not in ("Parameter", "Result", "Const"))
        app.session.add_breakpoint(ConditionalBreakpoint(layer=inner.path))
        await pilot.press("c")
        await settle(app, pilot)
        assert app.selected is inner
        assert "it 1.else [1/1 recorded]" in plain(app.query_one("#summary"))
        app.session.remove_breakpoint(app.session.breakpoints[0])
        await pilot.press("g")  # the go-to counts loops only: 3 is the Loop's iteration 3 (an odd one: else)
        await type_prompt(pilot, "3")
        await settle(app, pilot)
        assert app.shown_iteration == (3, 0) and "it 3.else [2/2 recorded]" in plain(app.query_one("#summary"))


def test_if_branches_are_named_in_diagram_labels(models: dict[str, Path]) -> None:
    from irlint.viewer.diagram import DiagramOptions, build_diagram

    from irlint.interp import run
    from irlint.interp.trace import Trace

    model = irlint.load(models["if_in_loop"])
    trace = Trace()
    run(model, {"x": np.ones((1, 3), np.float32), "h0": np.zeros((1, 3), np.float32)}, listener=trace)
    src = build_diagram(model, DiagramOptions(trace=trace.values, iteration=(1,))).source
    assert "it 1.else:" in src and "it 1.0:" not in src


# -- 5. Results in file order --------------------------------------------------------------------------
def test_step_over_after_a_tensor_iterator_visits_the_results_in_file_order() -> None:
    model = irlint.load(EXAMPLES / "lstm_ti.xml")
    s = Session(model, dict(np.load(EXAMPLES / "inputs" / "lstm_ti.npz")))
    names = []
    while not s.stepper.finished:
        ev = s.do("over")
        if isinstance(ev, LayerEvaluated):
            names.append(ev.layer.name)
    results = [la.name for la in model.graph.layers if la.type == "Result"]
    assert results == ["Y", "H", "C"] and names[-3:] == results  # was C, H, Y


# -- 6. tensor methods in conditions ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("x.sum() > 0", True),
        ("x.mean() < 0", False),
        ("x.abs().max() == 3", True),
        ("x.min(axis=0) < -1", True),
        ("x.shape[0] == 3 and x.ndim == 1", True),
        ("outputs[0].std() > 0", True),
        ("x.any() and not x.all()", True),
    ],
)
def test_conditions_call_whitelisted_tensor_methods(text: str, want: bool) -> None:
    x = np.array([0.0, -2.0, 3.0])
    assert compile_condition(text)({"x": x, "outputs": (x,)}) is want


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x.__class__", "attribute '__class__' is not allowed"),
        ("x.sum.__self__", "attribute '__self__' is not allowed"),
        ("x.tofile('f')", "'.tofile()' is not one of the tensor methods"),
        ("layer.upper() == 'A'", "'.upper()' is not one of the tensor methods"),
        ("x.T", "'.T' is not allowed"),
        ("x.sum > 0", "'.sum' must be called"),
        ("x.sum(out=x)", "keyword argument 'out' is not allowed"),
        ("_irlint_msum(x)", "only these functions can be called"),
    ],
)
def test_other_attributes_are_refused_with_a_clear_message(text: str, message: str) -> None:
    with pytest.raises(ConditionError, match=message.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        compile_condition(text)


def test_a_method_condition_stops_the_run(models: dict[str, Path]) -> None:
    model = irlint.load(models["trip"])
    s = Session(model, trip_inputs(50))
    s.add_breakpoint(parse_breakpoint("layer acc_next when x.sum() > 10", model))
    s.do("continue")
    assert s.current_iteration == (5,)  # acc after iteration 5 is [6, 6]


# -- 7. --help lists the keys ------------------------------------------------------------------------------
def test_debug_help_lists_the_keys(capsys: pytest.CaptureFixture[str]) -> None:
    from irlint.cli.main import main

    with pytest.raises(SystemExit) as e:
        main(["debug", "--help"])
    assert e.value.code == 0
    out = capsys.readouterr().out
    assert "keys:" in out
    for key, text in KEYS:
        assert f"  {key} " in out and text.split()[0] in out
    doc = (EXAMPLES.parent / "docs" / "viewer.md").read_text()
    for key, _text in KEYS:  # the documented key table has them all
        assert all(f"`{k}`" in doc for k in key.split(" / ")), key
    from irlint.viewer.debugger.app import DebuggerApp

    listed = {k for key, _text in KEYS for k in key.split(" / ")}
    symbols = {
        "colon": ":",
        "exclamation_mark": "!",
        "escape": "Esc",
        "left_square_bracket": "[",
        "slash": "/",
        "right_square_bracket": "]",
        "less_than_sign": "<",
        "greater_than_sign": ">",
        "equals_sign": "=",
        "question_mark": "?",
    }
    for b in DebuggerApp.BINDINGS:  # every key the app binds is in the table (V, u, d, /, = too)
        assert symbols.get(b.key, b.key) in listed, b.key


# -- 8. stop at the first NaN/Inf or large value ---------------------------------------------------------
def test_first_bad_index() -> None:
    from irlint.interp.stepper import first_bad

    assert first_bad(np.array([[1.0, 2.0], [np.inf, np.nan]])) == (1, 0)
    assert first_bad(np.array([1.0, 2.0])) is None
    assert first_bad(np.array([1.0, -5.0, 3.0], np.float16), bound=4) == (1,)
    assert first_bad(np.array([1, -5, 3], np.int32), bound=4) is None  # shapes, indices, counters: no values
    assert first_bad(np.array([np.nan, 7.0]), nonfinite=False, bound=5) == (1,)
    assert first_bad(np.array([True, True])) is None


def test_value_breakpoint_stops_at_the_first_nan_at_any_depth(models: dict[str, Path]) -> None:
    model = irlint.load(models["nan"])
    s = Session(model, {"x": np.zeros(3, np.float32)})
    assert s.set_value_breakpoint().startswith("stopping at the first NaN/Inf")
    s.do("continue")
    ev = s.stepper.current
    assert isinstance(ev, LayerEvaluated) and ev.layer.name == "root" and s.current_iteration == (2, 3)
    assert s.log[-1].startswith("breakpoint (NaN/Inf): ") and "out1[0] = nan, it 2.3" in s.log[-1]
    s.restart()
    s.set_value_breakpoint(9.5)  # replaces the other one
    assert len(s.breakpoints) == 1
    s.do("continue")
    assert s.current_iteration == (0, 0) and "(Subtract) out2[2] = 10, it 0.0" in s.log[-1]
    s.set_value_breakpoint(on=False)
    assert s.breakpoints == []
    with pytest.raises(ConditionError, match="type it alone"):
        parse_breakpoint("layer root when nonfinite", model)


def test_value_breakpoint_on_an_input_that_holds_a_nan(models: dict[str, Path]) -> None:
    model = irlint.load(models["nan"])
    s = Session(model, {"x": np.array([0.0, np.nan, 0.0], np.float32)})
    assert "input 'x' holds one already at [1]" in s.set_value_breakpoint()
    s.do("continue")  # where it enters a body: the Parameter's value at the iteration's start
    assert isinstance(s.stepper.current, IterationStarted) and "oacc (Parameter) in[1] = nan, it 0" in s.log[-1]


def test_value_breakpoint_key_and_command(models: dict[str, Path]) -> None:
    asyncio.run(_value_key(models["nan"]))


async def _value_key(path: Path) -> None:
    np.savez(path.with_suffix(".npz"), x=np.zeros(3, np.float32))
    app = make_app(model_args(path, inputs=str(path.with_suffix(".npz")), random_inputs=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("exclamation_mark")
        await pilot.pause()
        assert "stop at NaN/Inf" in plain(app.query_one("#status"))
        await pilot.press("c")
        await settle(app, pilot)
        assert app.selected.name == "root" and app.session.current_iteration == (2, 3)
        assert np.isnan(app.inspected[0])
        await pilot.press("exclamation_mark")  # off again
        await pilot.pause()
        assert app.session.breakpoints == []
        await pilot.press("B")
        await pilot.pause()
        app.screen.query_one("Input").value = ""
        await type_prompt(pilot, "nonfinite 9.5")
        await pilot.pause()
        assert app.session.value_breakpoint().bound == 9.5
        assert "|v|>9.5" in plain(app.query_one("#status"))  # shortened to fit one line at 80x24


def test_value_breakpoint_selects_the_body_parameter_that_receives_it() -> None:
    asyncio.run(_value_param())


async def _value_param() -> None:
    app = lstm_app()
    async with app.run_test(size=(80, 24)) as pilot:
        x = dict(app.session.inputs)
        x["X"] = x["X"].copy()
        x["X"][0, 2, 1] = np.inf  # the slice iteration 2 reads
        app.session.inputs = x
        app.session.restart()
        await pilot.press("exclamation_mark")
        await pilot.press("c")
        await settle(app, pilot)
        assert app.selected.name == "x_t" and app.shown_iteration == (2,)
        assert np.isinf(app.inspected[0, 0, 1]) and "x_t (Parameter) in[0, 0, 1] = inf, it 2" in app.session.log[-1]


def test_goto_a_depth_no_loop_has_says_the_run_finished_first() -> None:
    s = Session(irlint.load(EXAMPLES / "lstm_ti.xml"), dict(np.load(EXAMPLES / "inputs" / "lstm_ti.npz")))
    s.run_to_iteration((1, 2))  # no loop inside the TensorIterator
    assert s.stepper.finished and s.log[-1] == "iteration 1.2 was not reached: the run finished first"
    s.run_to_iteration((7,))  # no layer: the first loop that deep, run from the start again, ends first
    assert s.log[-1] == "iteration 7 was not reached: #3 TensorIterator_23 ended after 5 iterations"
    assert not s.stepper.finished and s.stepper.current.layer.type == "TensorIterator"
    s.run_to_iteration((7,), "3/body/8")  # with a layer: its TensorIterator has 5, refused before running
    assert s.log[-1] == "iteration 7 cannot be reached: #3 TensorIterator_23 runs 5 iterations (0..4)"


def test_goto_an_inner_iteration_whose_loop_already_ran_in_this_outer_iteration() -> None:
    model = irlint.load(EXAMPLES / "nested_loop_in_ti.xml")
    s = Session(model, dict(np.load(EXAMPLES / "inputs" / "nested_loop_in_ti.npz")))
    inner = next(la for _g, la in model.layers() if la.path.count("/body/") == 2 and la.type == "Multiply")
    s.run_to_iteration((1, 2), inner.path)
    s.do("out")  # the inner Loop finished: the run stands in the TensorIterator's iteration 1, after it
    assert s.current_iteration == (1,)
    s.run_to_iteration((1, 0), inner.path)  # behind, though the outer iteration is still 1
    assert s.current_iteration == (1, 0) and s.stepper.current.layer is inner
    assert any(line.startswith("going back to iteration 1.0") for line in s.log)
