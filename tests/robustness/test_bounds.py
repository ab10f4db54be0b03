"""Runs are bounded as a whole: nested loops cannot multiply `--max-iterations` into an endless run
(`--max-body-runs`, on by default) and `--time-limit` bounds irlint's own wall-clock time (`compare`:
its `--timeout` too). Each stop is a RUN-* finding, exit 1, with the flag that lifts it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from irlint.interp.errors import ExecutionError
from irlint.interp.executor import Options, evaluate, execute
from irlint.ir.loader import load
from tests.robustness.limits import cli, no_traceback
from tests.robustness.ov_models import nested_loops

pytest.importorskip("openvino")


@pytest.fixture(scope="module")
def huge(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Loop of 100,000 iterations in a Loop of 100,000: each within --max-iterations, 10^10 together."""
    return nested_loops(tmp_path_factory.mktemp("bounds") / "huge.xml", 2, 100_000)


@pytest.mark.parametrize("driver", ["plain", "events"])
def test_the_budget_counts_every_nesting_depth_exactly(tmp_path: Path, driver: str) -> None:
    model = load(str(nested_loops(tmp_path / "n.xml", 3, 4)))  # 4 + 16 + 64 = 84 body executions
    x = {"x": np.zeros(1, np.float32)}

    def run(budget: int) -> float:
        opts = Options(max_body_runs=budget)
        if driver == "plain":
            return float(next(iter(evaluate(model, x, opts).values()))[0])
        *_, last = execute(model, x, opts)
        return float(next(iter(last.outputs.values()))[0])

    assert run(84) == 64.0
    with pytest.raises(ExecutionError) as e:
        run(83)
    assert e.value.code == "RUN-ITERATIONS" and "--max-body-runs 83" in e.value.message


def test_nested_loops_stop_by_default(huge: Path) -> None:
    res = cli("run", str(huge), "--random-inputs", timeout=120)
    no_traceback(res)
    assert res.returncode == 1, res.stderr
    assert "RUN-ITERATIONS [error]" in res.stderr and "raise --max-body-runs" in res.stderr


@pytest.mark.parametrize("command", [["run"], ["trace", "--watch", "add2"], ["compare", "--timeout", "5"]])
def test_each_command_stops_at_the_budget(huge: Path, command: list[str]) -> None:
    res = cli(command[0], str(huge), "--random-inputs", *command[1:], "--max-body-runs", "5000", timeout=60)
    no_traceback(res)
    assert res.returncode == 1, res.stderr
    assert "RUN-ITERATIONS [error]" in res.stderr and "--max-body-runs 5000" in res.stderr


@pytest.mark.parametrize("command", [["run", "--time-limit", "1"], ["trace", "--watch", "add2", "--time-limit", "1"],
                                     ["compare", "--timeout", "1"]])
def test_the_time_limit_covers_irlints_side(huge: Path, command: list[str]) -> None:
    res = cli(command[0], str(huge), "--random-inputs", *command[1:], "--max-body-runs", str(10**12), timeout=60)
    no_traceback(res)
    assert res.returncode == 1, res.stderr
    assert "RUN-TIME [error]" in res.stderr and "raise --time-limit" in res.stderr
