"""A child that asked `die_with_parent` is killed with its parent: a hung OpenVINO never outlives a killed run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")

# The parent starts a child that asks to die with it and then hangs; the parent prints the child's pid and hangs.
PARENT = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c",
    "from irlint.orphans import die_with_parent; import sys, time; "
    "print(die_with_parent(), flush=True); time.sleep(600)"], stdout=subprocess.PIPE, text=True)
print(child.pid, child.stdout.readline().strip(), flush=True)
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"  # a zombie has died
    except FileNotFoundError:
        return False


def test_a_child_that_asked_dies_when_its_parent_is_killed() -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True)
    try:
        pid, asked = parent.stdout.readline().split()  # type: ignore[union-attr]
        assert asked == "True"
        assert _alive(int(pid))
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=30)
        deadline = time.monotonic() + 30
        while _alive(int(pid)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(int(pid))
    finally:
        parent.kill()


ASK = "import ctypes, sys; v = ctypes.c_int(); ctypes.CDLL(None).prctl(2, ctypes.byref(v), 0, 0, 0); print(v.value)"


def test_a_forked_child_asks_to_die_with_its_parent() -> None:
    """`irlint.forksafe.fork` (the two-core parse and check): the child has PR_SET_PDEATHSIG set."""
    import ctypes

    from irlint import forksafe

    read_end, write_end = os.pipe()
    pid = forksafe.fork()
    if pid == 0:  # the child: report what it asked for (PR_GET_PDEATHSIG) and leave at once
        asked = ctypes.c_int()
        ctypes.CDLL(None).prctl(2, ctypes.byref(asked), 0, 0, 0)
        os.write(write_end, str(asked.value).encode())
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as f:
        got = f.read()
    os.waitpid(pid, 0)
    assert int(got) == signal.SIGKILL


def test_run_child_children_ask_before_they_run() -> None:
    """`irlint.orphans.run_child` (Graphviz's dot) and the OpenVINO worker: set between fork and exec."""
    from irlint.orphans import run_child

    res = run_child([sys.executable, "-c", ASK], b"")
    assert res.returncode == 0 and int(res.stdout) == signal.SIGKILL
    plain = subprocess.run([sys.executable, "-c", ASK], capture_output=True, timeout=60)
    assert int(plain.stdout) == 0  # (not inherited: it is irlint's request)


# A stand-in `dot`: writes what it asked the kernel for (PR_GET_PDEATHSIG) to the file named in $ASKED_FILE,
# then draws an empty SVG.
FAKE_DOT = """import ctypes, os, sys
v = ctypes.c_int()
ctypes.CDLL(None).prctl(2, ctypes.byref(v), 0, 0, 0)
with open(os.environ["ASKED_FILE"], "w") as f:
    f.write(str(v.value))
sys.stdin.buffer.read()
sys.stdout.write('<svg xmlns="http://www.w3.org/2000/svg"/>')
"""


def test_the_notebook_diagram_runs_dot_as_a_child_that_dies_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`irlint.render(...)` in a kernel: its `dot` asks to be killed with the kernel, as `irlint render`'s does
    (the graphviz package's pipe starts it without asking)."""
    import irlint
    from tests.robustness.limits import EXAMPLES

    dot = tmp_path / "dot"
    dot.write_text(f"#!{sys.executable}\n{FAKE_DOT}")
    dot.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.setenv("ASKED_FILE", str(tmp_path / "asked"))
    diagram = irlint.render(str(EXAMPLES / "loop_scan.xml"))
    assert diagram.svg.startswith("<svg")
    assert int((tmp_path / "asked").read_text()) == signal.SIGKILL
