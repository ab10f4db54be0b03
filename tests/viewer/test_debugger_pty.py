"""The installed `irlint debug` in a real terminal: tmux (own socket) gives it a pseudo-terminal of 80x24,
the test sends keys and reads the screen back. Textual draws on stderr, which stays the terminal."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
IRLINT = Path(sys.executable).parent / "irlint"

pytestmark = pytest.mark.skipif(
    shutil.which("tmux") is None or not IRLINT.exists(), reason="needs tmux and the installed irlint script"
)


class Tmux:
    def __init__(self, socket: str) -> None:
        self.socket = socket

    def __call__(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=10).stdout

    def screen(self) -> str:
        return self("capture-pane", "-p", "-t", "dbg")

    def wait_for(self, text: str, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.2)
        raise AssertionError(f"{text!r} did not appear within {timeout}s; the screen:\n{screen}")

    def wait_exit(self, timeout: float = 20.0) -> None:
        """Wait until `irlint debug` has ended (its pane dead or gone), after q."""
        deadline = time.monotonic() + timeout
        while self("list-panes", "-t", "dbg", "-F", "#{pane_dead}").strip() not in ("", "1"):
            assert time.monotonic() < deadline, "irlint debug did not exit on q"
            time.sleep(0.2)

    def close(self) -> None:
        """End the tmux server and remove its socket file (it would stay behind)."""
        self("kill-server")
        sock = Path(os.environ.get("TMUX_TMPDIR", "/tmp")) / f"tmux-{os.getuid()}" / self.socket
        sock.unlink(missing_ok=True)


def test_installed_debugger_in_a_real_terminal() -> None:
    tmux = Tmux(f"irlint-test-{os.getpid()}")
    cmd = (
        f"cd {ROOT} && exec timeout 120 {IRLINT} debug examples/nested_loop_in_ti.xml "
        "--inputs examples/inputs/nested_loop_in_ti.npz"
    )
    tmux("new-session", "-d", "-s", "dbg", "-x", "80", "-y", "24", cmd)
    try:
        screen = tmux.wait_for("paused | ")
        assert "nested_loop_in_ti.xml" in screen and "? help" in screen  # tree and footer drawn at 80x24
        tmux("send-keys", "-t", "dbg", "s")
        tmux.wait_for("entering #2 TensorIterator_11048")
        for key in "sisssssis":
            tmux("send-keys", "-t", "dbg", key)
            time.sleep(0.3)
        screen = tmux.wait_for("of 3 > ")  # nested loops: the status line names both
        first = screen.splitlines()[0]
        assert "paused" in first and "of 3 > " in first  # one line, at the top right
        tmux("send-keys", "-t", "dbg", "w")
        tmux.wait_for("watch (1;")
        tmux("send-keys", "-t", "dbg", "v")  # the selected layer (h_inner_next) in the XML
        screen = tmux.wait_for("the layer in the XML")
        assert '<layer id="7" name="h_inner_next"' in screen
        tmux("send-keys", "-t", "dbg", "Escape")
        tmux.wait_for("watch (1;")
        tmux("send-keys", "-t", "dbg", "S")  # step back: the log says where
        tmux.wait_for("back to: ")
        tmux("send-keys", "-t", "dbg", ":")  # the console: an expression, its result, Esc closes it
        tmux.wait_for("expression console")
        tmux("send-keys", "-t", "dbg", "-l", "iterations")
        tmux("send-keys", "-t", "dbg", "Enter")
        tmux.wait_for("(0, 0)")  # the inner Tanh in iterations 0.0
        tmux("send-keys", "-t", "dbg", "Escape")
        deadline = time.monotonic() + 10
        while "expression console" in tmux.screen():
            assert time.monotonic() < deadline, "Esc did not close the console"
            time.sleep(0.2)
        tmux("send-keys", "-t", "dbg", "q")
        tmux.wait_exit()
    finally:
        tmux.close()


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
def test_new_keys_in_a_real_terminal(size: tuple[int, int], tmp_path: Path) -> None:
    """V (variables, Tab sorts), / n N (search), u d (scopes), B ... log ... hit N (a logpoint to --logpoints
    that stops at its 5th hit), = (set value)."""
    tmux = Tmux(f"irlint-keys-{os.getpid()}-{size[0]}")
    points = tmp_path / "points.txt"
    cmd = (
        f"cd {ROOT} && exec timeout 120 {IRLINT} debug examples/nested_loop_in_ti.xml "
        f"--inputs examples/inputs/nested_loop_in_ti.npz --logpoints {points}"
    )
    tmux("new-session", "-d", "-s", "dbg", "-x", str(size[0]), "-y", str(size[1]), cmd)

    def keys(*sent: str, literal: bool = False) -> None:
        tmux("send-keys", "-t", "dbg", *(["-l"] if literal else []), *sent)
        time.sleep(0.3)

    try:
        screen = tmux.wait_for("paused | ")
        assert "#0 X (Parameter)" in screen  # the first input is shown before any step
        for key in "ssisssssisssssss":  # to the inner Tanh in iteration 0.1
            keys(key)
        tmux.wait_for("evaluated #6 Tanh_11032 it 0.1")
        keys("V")
        screen = tmux.wait_for("tensors | sort: order")
        assert "Tanh_11032" in screen and "not yet" not in screen.split("Tanh_11032")[1].split("\n")[0]
        keys("Tab")  # the sort
        tmux.wait_for("sort: name (Tab)")
        keys("tanh", literal=True)
        screen = tmux.wait_for("1 of 9 tensors")
        keys("Enter")
        tmux.wait_for("#6 Tanh_11032 (Tanh) it 0.1")
        keys("/")
        tmux.wait_for("search layers")
        keys("Constant", literal=True)
        keys("Enter")
        tmux.wait_for("/Constant 1/5")
        keys("n")
        tmux.wait_for("/Constant 2/5")
        keys("N")
        tmux.wait_for("/Constant 1/5")
        keys("Escape")
        tmux.wait_for("search ended")
        keys("u")
        screen = tmux.wait_for("scope 2/3")
        assert "#6 Loop_11041 (Loop)" in screen
        keys("d")
        tmux.wait_for("scope 3/3")
        keys("B")
        tmux.wait_for("breakpoint: [layer")
        keys("x.max() > -1 log x.max() hit 5", literal=True)  # after the prompt's `layer <the selection> when `
        keys("Enter")
        tmux.wait_for("logpoint set")
        keys("=")
        tmux.wait_for("set the output of")
        keys("x * 0", literal=True)
        keys("Enter")
        tmux.wait_for("ALTERED paused")
        keys("c")
        tmux.wait_for("breakpoint (x.max() > -1, hit 5)")  # the 5th hit stops
        keys("c")
        tmux.wait_for("run finished")
        assert points.read_text().count("log #") == 7  # 3x3 inner iterations; 2 of them before the logpoint
        keys("q")
        tmux.wait_exit()
    finally:
        tmux.close()
