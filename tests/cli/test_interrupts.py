"""Interrupting irlint (irlint.cli.interrupts): Ctrl-C, SIGTERM and SIGHUP end every command with exit
128 + signal and one line on stderr, leaving no process, temporary file or output behind.

Each case starts the CLI in its own session (so its process group holds only irlint and its workers),
waits until it is busy (workers started, a trace spilling), sends the signal as a terminal (SIGINT
to the group) or a supervisor (SIGTERM/SIGHUP to the main process) would, then looks for leftovers.
Generous timeouts everywhere: these run on loaded machines; the time to exit is measured in
docs/cli.md, not asserted here.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or not Path("/proc/self/stat").exists(),
                                reason="needs fork and /proc")


def _group(pgid: int) -> list[tuple[int, int, str]]:
    """(pid, ppid, state) of every live process of process group `pgid` (zombies are already dead)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            out.append((int(entry), int(fields[1]), fields[0]))
    return out


def _wait_for(what: Callable[[], bool], timeout: float, proc: subprocess.Popen[bytes]) -> None:
    end = time.monotonic() + timeout
    while not what():
        assert proc.poll() is None, "irlint ended before it could be interrupted: make the input larger"
        assert time.monotonic() < end, "irlint never got busy"
        time.sleep(0.02)


def _start(args: list[str], tmp: Path) -> tuple[subprocess.Popen[bytes], Path, Path]:
    """irlint ARGS in a new session, with a private TMPDIR; (process, its TMPDIR, its stderr file)."""
    tmpdir = tmp / "tmpdir"
    tmpdir.mkdir()
    err = tmp / "stderr.txt"
    env = dict(os.environ, TMPDIR=str(tmpdir))
    with err.open("wb") as f:
        proc = subprocess.Popen([sys.executable, "-m", "irlint", *args], stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=f, env=env, cwd=tmp, start_new_session=True)
    return proc, tmpdir, err


def _stop(proc: subprocess.Popen[bytes], sig: int, to_group: bool = False) -> None:
    """Send `sig` (if irlint still runs), wait for it to end, and assert that no process is left; a
    process that is left is killed after the assertion."""
    try:
        if proc.poll() is None:
            (os.killpg if to_group else os.kill)(proc.pid, sig)
        proc.wait(timeout=30)
        end = time.monotonic() + 10  # workers are killed and reaped before irlint exits; allow for a slow reap
        while _group(proc.pid) and time.monotonic() < end:
            time.sleep(0.05)
        assert _group(proc.pid) == [], "processes left behind"
    finally:
        if proc.poll() is None or _group(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)


def _finish(proc: subprocess.Popen[bytes], sig: int, to_group: bool, err: Path) -> str:
    """Send `sig`, wait for irlint to end, and assert the exit code, the one line, and no process left."""
    _stop(proc, sig, to_group)
    text = err.read_text(errors="replace")
    assert proc.returncode == 128 + sig, text
    assert "Traceback" not in text and "internal error" not in text, text
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]


@pytest.fixture(scope="module")
def many_models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Some thousands of small models (the rule fixtures and the examples, copied over and over):
    `check -j 4` of them runs long enough to be interrupted while its workers are busy."""
    root = tmp_path_factory.mktemp("many")
    first = root / "0"
    shutil.copytree(ROOT / "tests" / "rules" / "fixtures", first)
    for p in (ROOT / "examples").glob("*.*"):
        if p.suffix in (".xml", ".bin"):
            shutil.copy(p, first / p.name)
    for i in range(1, 20):
        shutil.copytree(first, root / str(i))
    return root


@pytest.mark.parametrize(("sig", "to_group"), [(signal.SIGTERM, False), (signal.SIGINT, True),
                                               (signal.SIGINT, False), (signal.SIGHUP, False)])
def test_check_with_workers_ends_cleanly(many_models: Path, tmp_path: Path, sig: int, to_group: bool) -> None:
    report = tmp_path / "report.txt"
    proc, tmpdir, err = _start(["check", "-j", "4", str(many_models), "-o", str(report)], tmp_path)
    workers = lambda: len([p for p in _group(proc.pid) if p[1] == proc.pid]) >= 4  # noqa: E731
    _wait_for(workers, 120, proc)
    time.sleep(0.3)  # let the workers get into their files
    line = _finish(proc, sig, to_group, err)
    name = signal.Signals(sig).name
    assert line == ("irlint: interrupted" if sig == signal.SIGINT else f"irlint: terminated ({name})")
    assert not report.exists() and not list(tmp_path.glob(".irlint-*")) and not list(tmpdir.iterdir())


def _endless_loop(tmp: Path) -> Path:
    """loop_scan with a trip count of 2^62 and a condition that stays true: runs until --max-iterations."""
    xml = tmp / "endless.xml"
    xml.write_text((ROOT / "examples" / "loop_scan.xml").read_text())
    blob = bytearray((ROOT / "examples" / "loop_scan.bin").read_bytes())
    blob[0:8] = np.int64(2**62).tobytes()  # the trip count Const is the first 8 bytes
    (tmp / "endless.bin").write_bytes(bytes(blob[:41]) + np.float32(3e38).tobytes())
    return xml


@pytest.mark.parametrize(("sig", "to_group"), [(signal.SIGTERM, False), (signal.SIGHUP, False),
                                               (signal.SIGINT, True)])
def test_run_trace_removes_its_spill_folder(tmp_path: Path, sig: int, to_group: bool) -> None:
    xml = _endless_loop(tmp_path)
    trace = tmp_path / "t.npz"
    inputs = ROOT / "examples" / "inputs" / "loop_scan.npz"
    proc, tmpdir, err = _start(["run", str(xml), "--inputs", str(inputs), "--trace", str(trace), "--trace-budget", "0",
                                "--max-iterations", "10000000"], tmp_path)
    _wait_for(lambda: any(p.name.startswith("irlint-trace-") for p in tmpdir.iterdir()), 120, proc)
    time.sleep(0.3)
    _finish(proc, sig, to_group, err)
    assert list(tmpdir.iterdir()) == [] and not trace.exists() and not list(tmp_path.glob(".irlint-*"))
