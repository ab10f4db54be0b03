"""SVG snapshots of the debugger's main screens (pytest-textual-snapshot; update with --snapshot-update)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.viewer.test_debugger import args_for, at_root  # noqa: F401 - at_root: run from the checkout

pytest.importorskip("pytest_textual_snapshot")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_start_screen(snap_compare) -> None:
    from irlint.viewer.debug_cmd import make_app

    app = make_app(args_for(EXAMPLES / "lstm_ti.xml", EXAMPLES / "inputs" / "lstm_ti.npz"))
    assert snap_compare(app, terminal_size=(80, 24))


def test_stepped_into_the_body(snap_compare) -> None:
    from irlint.viewer.debug_cmd import make_app

    app = make_app(args_for(EXAMPLES / "lstm_ti.xml", EXAMPLES / "inputs" / "lstm_ti.npz"))

    async def run_before(pilot) -> None:
        for k in "sssssii":
            await pilot.press(k)
            await pilot.pause()
            await app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(app, terminal_size=(100, 30), run_before=run_before)


def test_lint_error_screen(snap_compare) -> None:
    from irlint.viewer.debug_cmd import make_app

    assert snap_compare(make_app(args_for(EXAMPLES / "broken" / "lstm_ti_broken.xml")), terminal_size=(80, 24))
