"""`irlint debug`: saving the inspected tensor to .npy (atomic, never over an input) and copying it as text."""

from __future__ import annotations

import ast
import asyncio
import os
from pathlib import Path

import numpy as np
import pytest
from irlint.viewer.debug_cmd import make_app
from irlint.viewer.debugger.export import as_text, default_npy_name, save_npy

from irlint.cli.command import UsageError
from tests.viewer.test_debugger import EXAMPLES, args_for, at_root, settle  # noqa: F401 - at_root: autouse
from tests.viewer.test_debugger_layout import NESTED, press


def test_save_npy_refuses_inputs_through_links(tmp_path: Path) -> None:
    inp = tmp_path / "in.npy"
    np.save(inp, np.arange(3))
    before = inp.read_bytes()
    (tmp_path / "link.npy").symlink_to(inp)
    os.link(inp, tmp_path / "hard.npy")
    reads = [("MODEL", "m.xml"), ("x=in.npy", str(inp))]
    for target in ("in.npy", "in", "link.npy", "hard.npy"):  # `in` gets the .npy suffix np.save would add
        with pytest.raises(UsageError, match="would overwrite an input"):
            save_npy(str(tmp_path / target), np.ones(2), reads)
    assert inp.read_bytes() == before
    with pytest.raises(UsageError, match="does not exist"):
        save_npy(str(tmp_path / "no" / "x.npy"), np.ones(2), reads)
    save_npy(str(tmp_path / "out"), np.full((2, 3), 7.5, np.float32), reads)
    np.testing.assert_array_equal(np.load(tmp_path / "out.npy"), np.full((2, 3), 7.5, np.float32))
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".irlint-")] == []  # no temp file left


def read_back(text: str) -> np.ndarray:
    """The copied text as Python reads it with numpy imported as `np` (and nothing else)."""
    tree = ast.parse(text.split("\n", 1)[1], mode="eval")
    return eval(compile(tree, "<copied>", "eval"), {"__builtins__": {}, "np": np})


def test_text_reads_back_exactly() -> None:
    a = np.array([[0.1, -2.5e-8, np.float32(1) / 3]], np.float32)
    text = as_text(a, "h out0 it 2: f32[1,3]")
    assert text.startswith("# h out0 it 2")
    assert text.split("\n")[1].startswith("np.array([[") and text.endswith(", dtype=np.float32)\n")
    back = read_back(text)
    assert back.dtype == np.float32
    np.testing.assert_array_equal(back, a)
    odd = np.array([np.nan, -np.inf, np.inf, 2], np.float64)
    np.testing.assert_array_equal(read_back(as_text(odd, "odd")), odd)  # np.nan, -np.inf read back
    flags = np.array([[True, False]])
    np.testing.assert_array_equal(read_back(as_text(flags, "flags")), flags)
    with pytest.raises(ValueError, match=r"save it as \.npy"):
        as_text(np.zeros(200_000), "big")
    assert default_npy_name("LSTM[rnn]/cell 1", "0.then.2", "out1") == "LSTM_rnn_cell_1.it0.then.2.out1.npy"
    assert default_npy_name("x", "-", "in") == "x.in.npy"


def test_keys_save_and_copy_the_inspected_tensor(tmp_path: Path) -> None:
    asyncio.run(_keys(tmp_path))


async def _keys(tmp_path: Path) -> None:
    app = make_app(args_for(*NESTED))
    async with app.run_test(size=(80, 24)) as pilot:
        await press(app, pilot, "ssisssssi")
        while app.selected is None or app.selected.type != "Tanh":
            await press(app, pilot, "s")
        await press(app, pilot, "e")
        prompt = app.screen.query_one("Input")
        assert prompt.value == "Tanh_11032.it0.0.out1.npy"
        prompt.value = str(tmp_path / "tanh.npy")
        await pilot.press("enter")
        await pilot.pause()
        np.testing.assert_array_equal(np.load(tmp_path / "tanh.npy"), app.inspected)
        assert "saved f32[1,2]" in str(app.log_lines[-1])
        assert ("--inputs", "examples/inputs/nested_loop_in_ti.npz") in app.reads  # what the run reads
        app.reads.append(("extra", str(tmp_path / "in.npy")))
        np.save(tmp_path / "in.npy", np.zeros(1))
        await press(app, pilot, "e")
        app.screen.query_one("Input").value = str(tmp_path / "in")
        await pilot.press("enter")
        await pilot.pause()
        assert "not saved" in str(app.log_lines[-1]) and "would overwrite an input" in str(app.log_lines[-1])
        np.testing.assert_array_equal(np.load(tmp_path / "in.npy"), np.zeros(1))
        await press(app, pilot, "y")
        text = app.clipboard
        assert text.startswith("# Tanh_11032 out1 it 0.0")
        np.testing.assert_array_equal(read_back(text), app.inspected)
