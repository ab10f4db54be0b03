"""A .bin that changes under a run is a clear error (exit 2), never a SIGBUS; weights are still read lazily.

irlint reads a Const's bytes when a consumer needs them (`irlint.ir.weights`). A file truncated while a
mapping of it is in use kills the process with SIGBUS, without a word, so the bytes used are copied out
of the file, and a file that has lost them since it was opened is reported (`RUN-READ`).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np

from irlint.api import check
from irlint.ir.weights import Weights, WeightsChanged
from irlint.types import element_type
from tests.robustness.limits import copy_example, no_traceback

# The CLI, with the .bin truncated right after irlint first reads from it (during the lint before a run).
TRUNCATE_AFTER_FIRST_READ = """
import os, sys
from irlint.ir import weights
from irlint.cli.main import main

first = weights.Weights.raw
def raw(self, offset, size):
    out = first(self, offset, size)
    if not getattr(weights, "_truncated", False):
        weights._truncated = True
        os.truncate(self.path, 0)
    return out
weights.Weights.raw = raw
sys.exit(main(sys.argv[1:]))
"""


def _cli_truncating(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", TRUNCATE_AFTER_FIRST_READ, *args],
        capture_output=True,
        text=True,
        errors="replace",
        timeout=120,
        stdin=subprocess.DEVNULL,
    )


def test_a_bin_truncated_during_a_run_is_a_clear_error(tmp_path: Path) -> None:
    for command in ("run", "trace"):
        xml, inputs = copy_example(tmp_path)  # a whole .bin again for each command
        more = ["--find-nonfinite"] if command == "trace" else []
        res = _cli_truncating(command, str(xml), "--inputs", str(inputs), *more)
        assert res.returncode != -signal.SIGBUS, f"{command} died of SIGBUS"
        out = no_traceback(res)
        assert res.returncode == 2, (command, out[-2000:])
        assert "RUN-READ" in res.stderr and "loop_scan.bin" in res.stderr and "changed" in res.stderr, res.stderr


def test_values_read_before_a_truncation_stay_readable(tmp_path: Path) -> None:
    path = tmp_path / "w.bin"
    path.write_bytes(np.arange(1024, dtype=np.float32).tobytes())
    w = Weights.open(str(path))
    f32 = element_type("f32")
    assert f32 is not None
    first = w.array(0, 4096, f32, (1024,))
    os.truncate(path, 100)
    assert float(first.sum()) == float(np.arange(1024, dtype=np.float32).sum())  # a copy: no SIGBUS
    try:
        w.array(0, 4096, f32, (1024,))
    except WeightsChanged as e:
        assert "changed" in str(e) and "w.bin" in str(e)
    else:
        raise AssertionError("a truncated file was read")
    assert not first.flags.writeable


def _bytes_read() -> int:
    with open("/proc/self/io") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("rchar:"))


def test_linting_reads_only_what_it_needs_of_a_large_bin(tmp_path: Path) -> None:
    """Linting a model whose .bin has 1 GiB more than its Consts use reads a few KiB of it, not all."""
    xml, _inputs = copy_example(tmp_path)
    bin_ = xml.with_suffix(".bin")
    with bin_.open("r+b") as f:
        f.truncate(bin_.stat().st_size + (1 << 30))  # sparse: costs no disk
    before = _bytes_read()
    diags = check(str(xml))
    read = _bytes_read() - before
    assert not [d for d in diags if d.code.startswith("IR9")]
    assert read < (4 << 20), f"{read} bytes read to lint a model of {xml.stat().st_size} bytes"


REPLACED_BY_A_FIFO = """
import os, sys
from irlint.ir.weights import Weights, WeightsChanged
path = sys.argv[1]
w = Weights.open(path)
os.remove(path)
os.mkfifo(path)
try:
    w.raw(0, 8)
except WeightsChanged as e:
    print(e)
"""


def test_a_bin_replaced_by_a_fifo_is_another_file_not_waited_on(tmp_path: Path) -> None:
    path = tmp_path / "w.bin"
    path.write_bytes(bytes(64))
    res = subprocess.run(
        [sys.executable, "-c", REPLACED_BY_A_FIFO, str(path)], capture_output=True, text=True, timeout=60
    )
    assert "replaced by another file" in res.stdout, res.stdout + res.stderr
