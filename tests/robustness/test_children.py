"""Every child process ends when irlint ends, whatever the signal (`irlint.orphans`): Graphviz's `dot`
under `render`, OpenVINO's worker under `compare`, the `check -j` workers.

Each case starts the CLI in its own session (its process group holds irlint and its children only),
waits until the child is busy, signals irlint alone (SIGTERM, SIGHUP, SIGINT as a supervisor sends them;
SIGKILL, which runs no code in irlint at all) and then polls, with a generous bound, until nothing of
the group is left. No timing is asserted.
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

import pytest

from tests.robustness.limits import EXAMPLES

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; PR_SET_PDEATHSIG")
SIGNALS = [signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGKILL]


def _group(pgid: int) -> dict[int, str]:
    """pid -> command line of every live process of process group `pgid` (zombies have ended)."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            out[int(entry)] = cmdline
    return out


def _bytes_read(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/io") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("rchar:"))
    except (OSError, StopIteration):
        return 0


def _start(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "irlint", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=cwd,
        env=env,
        start_new_session=True,
    )


def _children(proc: subprocess.Popen[bytes]) -> dict[int, str]:
    return {pid: cmd for pid, cmd in _group(proc.pid).items() if pid != proc.pid}


def _wait_until(what: Callable[[], bool], proc: subprocess.Popen[bytes], timeout: float = 180) -> None:
    end = time.monotonic() + timeout
    while not what():
        assert proc.poll() is None, "irlint ended before its child started: make the input larger"
        assert time.monotonic() < end, "the child never started"
        time.sleep(0.05)


def _signal_and_check(proc: subprocess.Popen[bytes], sig: int) -> None:
    """Send `sig` to irlint alone, then assert that irlint and every process it started end."""
    try:
        os.kill(proc.pid, sig)
        proc.wait(timeout=60)
        end = time.monotonic() + 30  # a killed child is reaped by init: allow for a slow machine
        while _group(proc.pid) and time.monotonic() < end:
            time.sleep(0.05)
        left = _group(proc.pid)
        assert not left, f"left running after {signal.Signals(sig).name}: {left}"
        if sig != signal.SIGKILL:
            assert proc.returncode == 128 + sig
    finally:
        if _group(proc.pid):
            os.killpg(proc.pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)


def chain_xml(n: int) -> str:
    """A Parameter, `n` Relus in a chain and a Result (Graphviz lays out 3,000 of them in about 10 s)."""
    port = '<port id="{}" precision="FP32"><dim>1</dim><dim>4</dim></port>'
    layers = [
        '<layer id="0" name="x" type="Parameter" version="opset1"><data shape="1,4" element_type="f32"/>'
        f"<output>{port.format(0)}</output></layer>"
    ]
    edges = []
    for i in range(1, n + 1):
        layers.append(
            f'<layer id="{i}" name="r{i}" type="Relu" version="opset1"><input>{port.format(0)}</input>'
            f"<output>{port.format(1)}</output></layer>"
        )
        edges.append(f'<edge from-layer="{i - 1}" from-port="{0 if i == 1 else 1}" to-layer="{i}" to-port="0"/>')
    layers.append(
        f'<layer id="{n + 1}" name="out" type="Result" version="opset1"><input>{port.format(0)}</input></layer>'
    )
    edges.append(f'<edge from-layer="{n}" from-port="1" to-layer="{n + 1}" to-port="0"/>')
    return (
        f'<?xml version="1.0"?>\n<net name="chain" version="11"><layers>{"".join(layers)}</layers>'
        f"<edges>{''.join(edges)}</edges></net>\n"
    )


@pytest.mark.skipif(shutil.which("dot") is None, reason="needs Graphviz's dot")
@pytest.mark.parametrize("sig", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_render_leaves_no_dot_running(tmp_path: Path, sig: int) -> None:
    xml = tmp_path / "chain.xml"
    xml.write_text(chain_xml(20_000))  # dot lays it out for minutes: only a kill ends it sooner
    dot_source = tmp_path / "chain.dot"
    subprocess.run(
        [sys.executable, "-m", "irlint", "render", str(xml), "-o", str(dot_source)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    proc = _start(["render", str(xml), "-o", str(tmp_path / "chain.svg"), "--max-nodes", "30000"], tmp_path)
    # busy laying out: dot has read its whole input (a dot cut off while reading it would end by itself)
    _wait_until(
        lambda: any(
            _bytes_read(pid) >= dot_source.stat().st_size
            for pid, cmd in _children(proc).items()
            if "dot" in cmd.split(" ", 1)[0]
        ),
        proc,
    )
    _signal_and_check(proc, sig)
    assert not (tmp_path / "chain.svg").exists()


# Makes the OpenVINO worker of `compare` hang before it does anything (its own `die_with_parent` included):
# only what irlint does when it starts the worker can end it.
SLOW_CHILD = """
import os, time
if b"irlint.comparison.ov_child" in open("/proc/self/cmdline", "rb").read():
    time.sleep(600)
"""


@pytest.mark.parametrize("sig", SIGNALS, ids=lambda s: signal.Signals(s).name)
def test_compare_leaves_no_openvino_worker_running(tmp_path: Path, sig: int) -> None:
    pytest.importorskip("openvino")
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SLOW_CHILD)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]))
    proc = _start(
        ["compare", str(EXAMPLES / "loop_scan.xml"), "--inputs", str(EXAMPLES / "inputs" / "loop_scan.npz")],
        tmp_path,
        env,
    )
    _wait_until(lambda: any("irlint.comparison.ov_child" in cmd for cmd in _children(proc).values()), proc)
    _signal_and_check(proc, sig)


@pytest.fixture(scope="module")
def many_models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Some thousands of small models: `check -j 2` of them keeps its workers busy for a while."""
    root = tmp_path_factory.mktemp("many")
    first = root / "0"
    shutil.copytree(ROOT / "tests" / "rules" / "fixtures", first)
    for i in range(1, 20):
        shutil.copytree(first, root / str(i))
    return root


def test_check_workers_die_when_irlint_is_killed(many_models: Path, tmp_path: Path) -> None:
    """SIGKILL runs no cleanup in irlint (the other signals are tests/cli/test_interrupts.py's)."""
    proc = _start(["check", "-j", "2", str(many_models)], tmp_path)
    _wait_until(lambda: len(_children(proc)) >= 2, proc)
    _signal_and_check(proc, signal.SIGKILL)
