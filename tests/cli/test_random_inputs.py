"""Random inputs only with --random-inputs (run, trace, compare): otherwise a RUN-INPUT usage error naming the input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "irlint", *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("cmd", [["run"], ["trace", "--watch", "acc_next"], ["compare"]])
def test_a_missing_input_is_a_usage_error_naming_the_parameter(cmd: list[str]) -> None:
    res = cli(cmd[0], str(EXAMPLES / "loop_scan.xml"), *cmd[1:])
    assert res.returncode == 2, res.stdout + res.stderr
    assert "RUN-INPUT" in res.stderr and "'x'" in res.stderr and "--random-inputs" in res.stderr
    assert "Traceback" not in res.stderr


def test_only_the_missing_inputs_are_named(tmp_path: Path) -> None:
    import numpy as np

    h0 = tmp_path / "h0.npy"
    np.save(h0, np.zeros((1, 4), np.float32))
    res = cli("run", str(EXAMPLES / "lstm_ti.xml"), f"H0={h0}")
    assert res.returncode == 2 and "Parameters 'X', 'C0'" in res.stderr


@pytest.mark.parametrize("cmd", [["run"], ["trace", "--watch", "acc_next"]])
def test_random_inputs_are_said_prominently(cmd: list[str]) -> None:
    res = cli(cmd[0], str(EXAMPLES / "loop_scan.xml"), *cmd[1:], "--random-inputs", "--seed", "5")
    assert res.returncode == 0, res.stderr
    assert "warning: RANDOM input 'x'" in res.stderr and "seed 5" in res.stderr
    assert res.stdout.startswith("# results from RANDOM inputs")


def test_given_inputs_say_nothing_about_randomness() -> None:
    res = cli("run", str(EXAMPLES / "loop_scan.xml"), "--inputs", str(EXAMPLES / "inputs" / "loop_scan.npz"))
    assert res.returncode == 0 and "RANDOM" not in res.stdout + res.stderr
