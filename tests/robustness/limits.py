"""Running the CLI the way the hostile suites do: in a subprocess under a time limit and an address-space cap."""

from __future__ import annotations

import hashlib
import resource
import shutil
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MEMORY_CAP = 3 << 30  # RLIMIT_AS of every command: numpy's thread pools reserve address space, not memory


def cli(*args: str, timeout: float = 60, memory: int = MEMORY_CAP, cwd: Path | None = None,
        stdin: int | None = subprocess.DEVNULL) -> subprocess.CompletedProcess[str]:
    """`python -m irlint ARGS` killed after `timeout` seconds (subprocess.TimeoutExpired fails the test),
    with its address space capped at `memory` bytes."""
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return subprocess.run([sys.executable, "-m", "irlint", *args], capture_output=True, text=True,
                          errors="replace", timeout=timeout, preexec_fn=cap, cwd=cwd, stdin=stdin)


def no_traceback(res: subprocess.CompletedProcess[str]) -> str:
    out = res.stdout + res.stderr
    assert "Traceback" not in out and "internal error" not in out, out[-3000:]
    return out


def copy_example(tmp: Path, name: str = "loop_scan", to: str | None = None) -> tuple[Path, Path]:
    """A private copy of an example model (and its inputs): the tests may try to destroy it."""
    to = to or name
    xml = tmp / f"{to}.xml"
    shutil.copy(EXAMPLES / f"{name}.xml", xml)
    shutil.copy(EXAMPLES / f"{name}.bin", tmp / f"{to}.bin")
    inputs = tmp / f"{to}_in.npz"
    shutil.copy(EXAMPLES / "inputs" / f"{name}.npz", inputs)
    return xml, inputs


def digests(*paths: Path) -> dict[Path, str]:
    return {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}
