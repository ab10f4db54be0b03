"""SVG snapshots of the debugger's main screens at 80x24 and 160x48 (pytest-textual-snapshot;
update with --snapshot-update after checking the screens in a terminal)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.viewer.test_debugger import args_for, at_root, lstm_app  # noqa: F401 - at_root: run from the checkout

pytest.importorskip("pytest_textual_snapshot")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
SIZES = [(80, 24), (160, 48)]


async def press(app, pilot, keys: str) -> None:  # type: ignore[no-untyped-def]
    for k in keys:
        await pilot.press(k)
        await pilot.pause()
        await app.workers.wait_for_complete()
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
def test_start_screen(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(lstm_app(), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_stepped_into_the_body(snap_compare, size: tuple[int, int]) -> None:
    app = lstm_app()

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await press(app, pilot, "sssssi")
        await press(app, pilot, "tt")
        await press(app, pilot, "ssssssssss")  # the LSTMCell in iteration 2: both outputs, timeline, diff

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_lint_error_screen(snap_compare, size: tuple[int, int]) -> None:
    from irlint.viewer.debug_cmd import make_app

    app = make_app(args_for(EXAMPLES / "broken" / "lstm_ti_broken.xml"))

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await press(app, pilot, ["down", "down"])  # type: ignore[arg-type]  # the third finding

    assert snap_compare(app, terminal_size=size, run_before=run_before)


def test_help_screen(snap_compare) -> None:
    app = lstm_app()

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await press(app, pilot, ["question_mark"])  # type: ignore[arg-type]

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_nested_loop_with_a_wide_tree(snap_compare, size: tuple[int, int]) -> None:
    """Inside a Loop in a TI: the status stays one line, the log wraps and takes the free rows, the tree
    widened with `>` shows the layer types."""
    from irlint.viewer.debug_cmd import make_app

    app = make_app(args_for(EXAMPLES / "nested_loop_in_ti.xml", EXAMPLES / "inputs" / "nested_loop_in_ti.npz"))

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await press(app, pilot, "ssisssssis")
        await press(app, pilot, ["greater_than_sign"] * 4 + ["exclamation_mark"])  # type: ignore[arg-type]

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_watch_list(snap_compare, size: tuple[int, int]) -> None:
    """Two pinned tensors of the inner Loop's body, after `t` moved the selection to the loop."""
    from irlint.viewer.debug_cmd import make_app

    app = make_app(args_for(EXAMPLES / "nested_loop_in_ti.xml", EXAMPLES / "inputs" / "nested_loop_in_ti.npz"))

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await press(app, pilot, "ssisssssisssssw")
        await press(app, pilot, ["up", "up", "w", "t"])  # type: ignore[arg-type]

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_breakpoints_list(snap_compare, size: tuple[int, int]) -> None:
    """The breakpoints list (x) with one enabled layer breakpoint and the NaN/Inf one disabled."""
    app = lstm_app()

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await press(app, pilot, "sssssib")
        await press(app, pilot, ["exclamation_mark", "x", "down", "space"])  # type: ignore[arg-type]

    assert snap_compare(app, terminal_size=size, run_before=run_before)
