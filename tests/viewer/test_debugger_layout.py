"""`irlint debug` layout: complete at 80x24, the room used at 160x48 (Pilot tests; the screens themselves
are in the SVG snapshots)."""

from __future__ import annotations

import asyncio

import pytest
from irlint.viewer.debug_cmd import make_app
from irlint.viewer.debugger.text import fit_items
from rich.text import Text

from tests.viewer.test_debugger import EXAMPLES, args_for, at_root, settle  # noqa: F401 - at_root: autouse
from tests.viewer.test_debugger_defects import plain

NESTED = (EXAMPLES / "nested_loop_in_ti.xml", EXAMPLES / "inputs" / "nested_loop_in_ti.npz")
LONG = ("stopped: RUN-ITERATIONS: layer 3 'Loop_149196' (Loop): more than 1000 iterations "
        "(--max-iterations); the condition was still true at iteration 999, raise the limit or check the body")


def log_text(app) -> str:  # type: ignore[no-untyped-def]
    """What the log pane holds, its wrapped lines joined back."""
    return "".join(strip.text.rstrip() + " " for strip in app.query_one("#log").lines)


async def press(app, pilot, keys: str) -> None:  # type: ignore[no-untyped-def]
    for k in keys:
        await pilot.press(k)
        await settle(app, pilot)


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
def test_log_wraps_and_the_full_log_opens(size: tuple[int, int]) -> None:
    asyncio.run(_log_wraps(size))


async def _log_wraps(size: tuple[int, int]) -> None:
    app = make_app(args_for(*NESTED))
    async with app.run_test(size=size) as pilot:
        app.log_line(Text(LONG, style="bold red"))
        await pilot.pause()
        log = app.query_one("#log")
        assert " ".join(LONG.split()) in " ".join(log_text(app).split())  # wrapped, nothing cut
        assert all(len(strip.text.rstrip()) <= log.scrollable_content_region.width for strip in log.lines)
        await pilot.press("l")
        await pilot.pause()
        assert type(app.screen).__name__ == "LogScreen"
        whole = plain(app.screen.query_one("#log-all"))
        assert LONG in whole
        await pilot.press("escape")
        await pilot.pause()
        assert type(app.screen).__name__ != "LogScreen"


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
def test_status_stays_one_line_in_nested_loops(size: tuple[int, int]) -> None:
    asyncio.run(_status_one_line(size))


async def _status_one_line(size: tuple[int, int]) -> None:
    app = make_app(args_for(*NESTED))
    async with app.run_test(size=size) as pilot:
        summary_y = app.query_one("#summary").region.y
        await press(app, pilot, "ssisssssisssss")
        await pilot.press("exclamation_mark")
        await pilot.pause()
        status = app.query_one("#status")
        text = plain(status)
        assert status.region.height == 1 and "\n" not in text
        assert len(text) <= status.content_region.width  # chosen to fit, not cut
        assert "0 of 3 > 1 of 3" in text and "NaN" in text
        assert app.query_one("#summary").region.y == summary_y  # the inspector did not move down
        if size[0] >= 160:
            assert "? help" in text and "breakpoint" in text


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
def test_the_log_takes_the_free_rows(size: tuple[int, int]) -> None:
    asyncio.run(_log_rows(size))


async def _log_rows(size: tuple[int, int]) -> None:
    app = make_app(args_for(*NESTED))
    async with app.run_test(size=size) as pilot:
        await press(app, pilot, "ssisssssis")
        log = app.query_one("#log")
        values = app.query_one("#values")
        # the values table is as tall as the tensor, the log gets the rest of the column
        assert log.region.bottom == app.query_one("#graph").region.bottom
        assert values.region.height <= 4
        assert log.region.height >= (size[1] - 20 if size[1] > 24 else 5)


def test_lint_hint_is_visible_at_80x24() -> None:
    asyncio.run(_lint_hint())


async def _lint_hint() -> None:
    app = make_app(args_for(EXAMPLES / "broken" / "lstm_ti_broken.xml"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        d = app.diagnostics[0]
        assert d.hint
        box = app.query_one("#source-box")
        lines = plain(app.query_one("#source")).splitlines()
        hint_row = next(i for i, line in enumerate(lines) if line.startswith("hint:"))
        assert hint_row < box.scrollable_content_region.height  # on screen without scrolling
        assert box.region.bottom <= 23


def test_random_banner_keeps_names_whole() -> None:
    items = [f"'input_{i}_with_a_long_name': f32[1,{i}]" for i in range(12)]
    text = fit_items("RANDOM inputs (--random-inputs, seed 0):", items, 48, 3, ";")
    lines = text.splitlines()
    assert len(lines) <= 3 and all(len(line) <= 48 for line in lines)
    shown = [it for it in items if it in text]
    assert shown and "more (l: the log)" in text
    assert f"... {len(items) - len(shown)} more" in text  # every name is shown whole or counted
    assert fit_items("RANDOM inputs:", ["'x': f32[4]"], 48, 3) == "RANDOM inputs: 'x': f32[4]"


def test_tree_resizes_from_the_keyboard_and_shows_types_when_wide() -> None:
    asyncio.run(_tree_resize())


async def _tree_resize() -> None:
    app = make_app(args_for(*NESTED))
    async with app.run_test(size=(80, 24)) as pilot:
        tree = app.query_one("#graph")
        width = tree.region.width
        x_node = app.nodes["0"]
        assert "Parameter" not in str(x_node.label)
        await press(app, pilot, ">>>>")
        assert tree.region.width == width + 16
        assert "Parameter" in str(x_node.label)  # wide enough for the layer types
        assert app.query_one("#right").region.width >= 30
        await press(app, pilot, ">>>>>>>>")
        assert app.query_one("#right").region.width >= 30  # never squeezes the inspector away
        await press(app, pilot, "<<<<<<<<<<<<<<<<")
        assert tree.region.width == 16 and "Parameter" not in str(x_node.label)
