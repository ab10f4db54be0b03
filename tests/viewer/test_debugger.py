"""`irlint debug`: Pilot tests of stepping, breakpoints, history and the lint-error screen."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

import numpy as np
import pytest
from irlint.viewer.debug_cmd import make_app

import irlint
from irlint.interp import execute
from irlint.interp.stepper import Breakpoint
from irlint.interp.trace import Trace, key

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def args_for(model: Path, inputs: Path | None = None, random_inputs: bool = False) -> argparse.Namespace:
    """CLI arguments with paths relative to the checkout (so snapshots do not depend on where it is);
    the tests run with the checkout as working directory (the `at_root` fixture)."""
    root = EXAMPLES.parent
    rel_inputs = str(inputs.relative_to(root)) if inputs else None
    return argparse.Namespace(model=str(model.relative_to(root)), weights=None, inputs=rel_inputs, assign=[],
                              seed=0, shape=[], max_iterations=1000, memory_budget=1 << 30,
                              random_inputs=random_inputs)


LSTM = (EXAMPLES / "lstm_ti.xml", EXAMPLES / "inputs" / "lstm_ti.npz")


def lstm_app():  # type: ignore[no-untyped-def]
    """The debugger on examples/lstm_ti.xml with its inputs, the model most tests step through."""
    return make_app(args_for(*LSTM))


def keras_args() -> argparse.Namespace:
    """CLI arguments for the Keras-exported LSTM fixture (long, similar names) with its inputs."""
    fixtures = Path(__file__).parent / "fixtures"
    return argparse.Namespace(
        model=str(fixtures / "keras_lstm.xml"),
        weights=None,
        inputs=str(fixtures / "keras_lstm_inputs.npz"),
        assign=[],
        seed=0,
        shape=[],
        max_iterations=1000,
        memory_budget=1 << 30,
        random_inputs=False,
    )


def reference_h(iteration: int) -> np.ndarray:
    """h after `iteration`, from a traced run of the interpreter (what the inspector must show)."""
    model = irlint.load(EXAMPLES / "lstm_ti.xml")
    trace = Trace()
    for _ in trace.observe(execute(model, dict(np.load(EXAMPLES / "inputs" / "lstm_ti.npz")))):
        pass
    ti = next(la for la in model.graph.layers if la.type == "TensorIterator")
    h_res = next(la for la in ti.body.results() if la.name == "h_next")
    return trace.get(key(h_res.path, ((ti.path, iteration),), "out"))


@pytest.fixture(autouse=True)
def at_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(EXAMPLES.parent)


async def settle(app, pilot) -> None:
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


def test_step_into_iterations_and_inspect() -> None:
    asyncio.run(_step_into_iterations_and_inspect())


async def _step_into_iterations_and_inspect() -> None:
    app = lstm_app()
    async with app.run_test(size=(80, 24)) as pilot:
        ti = next(la for la in app.session.model.graph.layers if la.type == "TensorIterator")
        cell = next(la for la in ti.body.layers if la.type == "LSTMCell")
        app.session.stepper.breakpoints.append(Breakpoint(layer=cell.path))
        for _ in range(4):  # the cell in iterations 0, 1, 2, 3
            await pilot.press("c")
            await settle(app, pilot)
        assert app.selected is cell and app.shown_iteration == (3,)
        np.testing.assert_array_equal(app.inspected, reference_h(3))
        await pilot.press("left_square_bracket")
        await settle(app, pilot)
        assert app.shown_iteration == (2,)
        np.testing.assert_array_equal(app.inspected, reference_h(2))
        await pilot.press("right_square_bracket")
        await settle(app, pilot)
        np.testing.assert_array_equal(app.inspected, reference_h(3))
        assert " it 3 [4/4 recorded]" in str(app.query_one("#summary").render())


def test_keys_step_into_the_body_and_next_iteration() -> None:
    asyncio.run(_keys_step_into_the_body_and_next_iteration())


async def _keys_step_into_the_body_and_next_iteration() -> None:
    app = lstm_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for k in "ssss":
            await pilot.press(k)
            await settle(app, pilot)
        await pilot.press("i")
        await settle(app, pilot)
        for _ in range(3):
            await pilot.press("t")
            await settle(app, pilot)
        assert app.session.current_iteration == (3,)
        await pilot.press("o")
        await settle(app, pilot)
        assert app.selected.type == "TensorIterator" and app.session.current_iteration == ()


def test_breakpoint_key_toggles_on_the_selected_layer() -> None:
    asyncio.run(_breakpoint_key_toggles_on_the_selected_layer())


async def _breakpoint_key_toggles_on_the_selected_layer() -> None:
    app = lstm_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await settle(app, pilot)
        await pilot.press("b")
        await pilot.pause()
        assert [bp.layer for bp in app.session.breakpoints] == [app.selected.path]
        await pilot.press("b")
        await pilot.pause()
        assert app.session.breakpoints == []
