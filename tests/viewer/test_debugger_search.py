"""Search (`/`, n/N) by name, type or id path, on Keras-scale names."""

from __future__ import annotations

import asyncio
from pathlib import Path

from irlint.viewer.debug_cmd import make_app
from irlint.viewer.debugger.search import find, tree_order

import irlint
from tests.viewer.test_debugger import at_root, keras_args, settle  # noqa: F401 - at_root: autouse

FIXTURES = Path(__file__).parent / "fixtures"


async def search(app, pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    """`/`, type `text` into the search prompt, Enter."""
    await pilot.press("slash")
    await pilot.pause()
    app.screen.query_one("Input").value = text
    await pilot.press("enter")
    await pilot.pause()


def test_find_by_name_type_and_id_path() -> None:
    model = irlint.load(FIXTURES / "keras_lstm.xml")
    order = list(tree_order(model.graph))
    assert len(order) == sum(1 for _ in model.layers())
    loop = next(la for la in order if la.type == "Loop")
    assert order[order.index(loop) + 1].path == f"{loop.path}/body/0"  # its body follows it, as in the tree
    placeholders = find(model, "PLACEHOLDER")
    assert len(placeholders) >= 4 and all("placeholder" in la.name for la in placeholders)
    assert {la.type for la in find(model, "matmul")} == {"MatMul"}
    below = find(model, f"{loop.path}/body")
    assert below and all(la.path.startswith(f"{loop.path}/body/") for la in below)
    assert find(model, "no such thing") == [] and find(model, "  ") == []


def test_slash_n_and_shift_n_walk_the_hits() -> None:
    asyncio.run(_search_keys())


async def _search_keys() -> None:
    app = make_app(keras_args())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        hits = find(app.model, "placeholder")
        await search(app, pilot, "placeholder")
        assert app.selected is hits[0]
        assert str(app.query_one("#status").render()).startswith(f"/placeholder 1/{len(hits)} (n/N, Esc)")
        await pilot.press("n", "n")
        await pilot.pause()
        assert app.selected is hits[2] and app.session.stepper.current is None  # n searched, it did not step
        await pilot.press("N")
        await pilot.pause()
        assert app.selected is hits[1]
        await pilot.press("escape")  # the search ends: n steps over again
        await pilot.press("n")
        await settle(app, pilot)
        assert app.session.stepper.current is not None and "/placeholder" not in str(app.query_one("#status").render())
        await search(app, pilot, "nothing like this")
        assert "no layer's name, type or id path holds" in str(app.log_lines[-1]) and app.searching is None


def test_search_on_the_lint_error_screen() -> None:
    asyncio.run(_lint_search())


async def _lint_search() -> None:
    from tests.viewer.test_debugger import EXAMPLES, args_for

    app = make_app(args_for(EXAMPLES / "broken" / "lstm_ti_broken.xml"))
    async with app.run_test(size=(80, 24)) as pilot:
        assert app.session is None
        hits = find(app.model, "Constant")
        await search(app, pilot, "Constant")
        assert app.selected is hits[0]
        await pilot.press("n")
        await pilot.pause()
        assert app.selected is hits[1]  # n walks the hits there too (nothing runs on that screen)
