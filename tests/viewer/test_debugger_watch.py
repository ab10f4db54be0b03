"""`irlint debug`'s watch list: pinned tensors at any depth update at every stop with their iteration."""

from __future__ import annotations

import asyncio

import numpy as np
from irlint.viewer.debug_cmd import make_app
from irlint.viewer.debugger.inspector import summary

from tests.viewer.test_debugger import EXAMPLES, args_for, at_root, settle  # noqa: F401 - at_root: autouse
from tests.viewer.test_debugger_defects import plain
from tests.viewer.test_debugger_layout import NESTED, press


def test_watch_follows_a_nested_body_tensor_through_iterations() -> None:
    asyncio.run(_watch())


async def _watch() -> None:
    app = make_app(args_for(*NESTED))
    async with app.run_test(size=(80, 24)) as pilot:
        await press(app, pilot, "ssisssssi")
        for _ in range(8):  # on to the Tanh inside the Loop inside the TI
            if app.selected is not None and app.selected.type == "Tanh":
                break
            await press(app, pilot, "s")
        tanh = app.selected
        assert tanh is not None and tanh.type == "Tanh" and tanh.path.count("/body/") == 2
        watch = app.query_one("#watch")
        assert not watch.display
        await press(app, pilot, "w")
        assert watch.display and "it 0.0" in plain(watch)
        await pilot.press("up", "up", "up", "up")  # another selection: a Const of the inner body
        await pilot.pause()
        const = app.selected
        await press(app, pilot, "w")
        seen_labels = set()
        for _ in range(4):  # t moves the selection to the loop; the watches stay and follow the run
            await press(app, pilot, "t")
            text = plain(watch)
            assert tanh.name in text and const.name in text
            its = app.session.iterations_seen(tanh.path)
            label = ".".join(map(str, its[-1]))
            assert f"it {label}:" in text
            assert summary(np.asarray(app.session.tensor(tanh.path)[0])) in " ".join(text.split())
            seen_labels.add(label)
        assert len(seen_labels) >= 3  # it really updated at the stops
        app.selected = tanh
        await press(app, pilot, "w")  # unpin
        assert tanh.name not in plain(watch) and const.name in plain(watch)
        await press(app, pilot, "W")
        assert not watch.display
