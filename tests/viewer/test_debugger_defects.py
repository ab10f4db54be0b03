"""Issue 15's debugger defects, each as a Pilot (or Session) test that failed before the fix."""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from irlint.viewer.debug_cmd import make_app
from irlint.viewer.debugger.session import Session
from rich.text import Text

import irlint
from irlint.api import check_model
from irlint.cli.command import UsageError
from irlint.interp import Options
from tests.viewer import irs
from tests.viewer.test_debugger import EXAMPLES, args_for, at_root, settle  # noqa: F401 - at_root: autouse


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("dbg")
    return {
        "brackets": irs.save(irs.bracket_names(), d / "brackets.xml"),
        "endless": irs.save(irs.counting_loop(0, endless=True), d / "endless.xml"),
        "long": irs.save(irs.counting_loop(3000), d / "long.xml"),
    }


def plain(widget) -> str:  # type: ignore[no-untyped-def]
    r = widget.render()
    return r.plain if isinstance(r, Text) else str(r)


def model_args(path: Path, **kw) -> argparse.Namespace:  # type: ignore[no-untyped-def]
    ns = argparse.Namespace(model=str(path), weights=None, inputs=None, assign=[], seed=0, shape=[],
                            max_iterations=1000, memory_budget=1 << 30, random_inputs=True)
    vars(ns).update(kw)
    return ns


# -- markup: user strings are text, never Rich markup ------------------------------------------------
def test_layer_names_with_brackets_are_shown_verbatim(models: dict[str, Path]) -> None:
    asyncio.run(_brackets(models["brackets"]))


async def _brackets(path: Path) -> None:
    app = make_app(model_args(path))
    async with app.run_test(size=(100, 30)) as pilot:
        tree = app.query_one("#graph")
        labels: list[str] = []
        stack = [tree.root]
        while stack:
            node = stack.pop()
            labels.append(str(node.label))
            stack.extend(node.children)
        assert any("Net/LSTM[rnn]/Add_5531" in lab for lab in labels)
        assert any("Net/LSTM[rnn]/h[/]" in lab for lab in labels)
        add = app.session.find_layer("Net/LSTM[rnn]/Add_5531")
        app.session.add_breakpoint(irlint.interp.stepper.Breakpoint(layer=add.path))
        await pilot.press("c")
        await settle(app, pilot)
        assert app.selected is add
        assert "Net/LSTM[rnn]/Add_5531" in plain(app.query_one("#summary"))


def test_lint_screen_shows_severity_brackets() -> None:
    asyncio.run(_lint_brackets())


async def _lint_brackets() -> None:
    app = make_app(args_for(EXAMPLES / "broken" / "lstm_ti_broken.xml"))
    async with app.run_test(size=(80, 24)):
        opts = app.query_one("#findings")
        assert "[error]" in str(opts.get_option_at_index(0).prompt)


# -- the race between the stepping thread and the UI reading the recorded values ---------------------
def test_reading_values_while_a_worker_steps(models: dict[str, Path]) -> None:
    model = irlint.load(models["long"])
    session = Session(model, {"x": np.zeros(2, np.float32)}, Options(max_iterations=10_000))
    errors: list[BaseException] = []

    def step() -> None:
        try:
            session.do("continue")
        except BaseException as e:  # reported below
            errors.append(e)

    worker = threading.Thread(target=step)
    worker.start()
    loop = next(la for la in model.graph.layers if la.type == "Loop")
    acc_res = next(la for la in loop.body.results() if la.name == "acc_next")
    while worker.is_alive():
        session.iterations_seen(acc_res.path)  # raised "dictionary changed size during iteration"
        session.tensor(acc_res.path)
    worker.join()
    assert not errors and session.stepper.finished
    assert len(session.iterations_seen(acc_res.path)) == 3000


# -- a long continue shows progress and stops on Esc -------------------------------------------------
def test_continue_on_an_endless_loop_shows_progress_and_stops_on_escape(models: dict[str, Path]) -> None:
    asyncio.run(_endless(models["endless"]))


async def _endless(path: Path) -> None:
    app = make_app(model_args(path, max_iterations=10**9))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        for _ in range(50):  # until the worker has done some iterations
            await pilot.pause(0.05)
            if app.session.progress.events > 100:
                break
        await pilot.pause(0.15)  # the progress timer runs every 0.1 s
        status = plain(app.query_one("#status"))
        assert app.busy and status.startswith("running:") and "Esc" in status
        await pilot.press("escape")
        await asyncio.wait_for(app.workers.wait_for_complete(), timeout=30)
        await pilot.pause()
        assert not app.busy and not app.session.stepper.finished
        assert app.session.log[-1].startswith("interrupted:")
        assert plain(app.query_one("#status")).startswith("paused")


def test_quit_during_an_endless_continue_ends_the_process(models: dict[str, Path]) -> None:
    """`q` while running used to blank the screen and leave the worker running: the process never ended."""
    script = (
        "import asyncio, sys\n"
        "from irlint.viewer.debug_cmd import make_app\n"
        "from tests.viewer.test_debugger_defects import model_args\n"
        "from pathlib import Path\n"
        "async def main():\n"
        "    app = make_app(model_args(Path(sys.argv[1]), max_iterations=10**9))\n"
        "    async with app.run_test(size=(80, 24)) as pilot:\n"
        "        await pilot.press('c')\n"
        "        await pilot.pause(0.5)\n"
        "        await pilot.press('q')\n"
        "asyncio.run(main())\n"
        "print('ended')\n"
    )
    res = subprocess.run([sys.executable, "-c", script, str(models["endless"])], capture_output=True, text=True,
                         timeout=120, cwd=EXAMPLES.parent)
    assert res.returncode == 0 and "ended" in res.stdout, res.stderr[-2000:]


# -- random inputs only when asked -------------------------------------------------------------------
def test_debug_without_inputs_is_a_usage_error_naming_the_parameter() -> None:
    with pytest.raises(UsageError, match=r"RUN-INPUT.*'x'.*--random-inputs"):
        make_app(args_for(EXAMPLES / "loop_scan.xml"))


def test_debug_with_random_inputs_says_so() -> None:
    asyncio.run(_random_banner())


async def _random_banner() -> None:
    app = make_app(args_for(EXAMPLES / "loop_scan.xml", random_inputs=True))
    async with app.run_test(size=(80, 24)):
        notes = app.query_one("#notes")
        assert notes.display and "RANDOM inputs" in plain(notes) and "'x': f32[4]" in plain(notes)
        assert "seed 0" in plain(notes)


# -- the lint-error screen ---------------------------------------------------------------------------
@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
def test_lint_screen_lists_every_finding_and_jumps_to_its_layer(size: tuple[int, int]) -> None:
    asyncio.run(_lint_screen(size))


async def _lint_screen(size: tuple[int, int]) -> None:
    path = EXAMPLES / "broken" / "lstm_ti_broken.xml"
    diags = check_model(irlint.load(path))
    app = make_app(args_for(path))
    async with app.run_test(size=size) as pilot:
        assert app.session is None
        opts = app.query_one("#findings")
        assert opts.option_count == len(diags) >= 4
        status = app.query_one("#status")
        assert "lint error" in plain(status) and status.size.height >= 1
        assert "q quits" in plain(status)
        width = status.content_region.width  # not cut off: every line fits, and every line is shown
        assert all(len(line) <= width for line in plain(status).splitlines())
        assert status.size.height >= len(plain(status).splitlines())
        for i, d in enumerate(diags):  # every finding is reachable by keyboard, the list scrolls
            if i:
                await pilot.press("down")
            await pilot.pause()
            assert opts.highlighted == i
            source = plain(app.query_one("#source"))
            assert f"{d.loc.line:>5} |" in source
            if d.layer is not None:
                assert app.selected is not None and app.selected.path == d.layer
                assert app.query_one("#graph").cursor_node.data.path == d.layer
