"""benchmarks/compare_revisions.py without running a benchmark: its arguments, its dry run, its summary
arithmetic and the table it prints (parsed back). No timing is asserted."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "compare_revisions.py"


def _module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("compare_revisions", SCRIPT)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["compare_revisions"] = mod  # (dataclasses look their module up)
    spec.loader.exec_module(mod)
    return mod


cr = _module()


def test_defaults_and_options() -> None:
    args = cr.parse_args(["main"])
    assert (args.rev, args.rounds, args.runs, args.steps, args.lint_layers, args.lint_runs) == (
        "main",
        5,
        20,
        10,
        100_000,
        3,
    )
    assert args.only == list(cr.MODELS) and not args.dry_run
    args = cr.parse_args(
        ["HEAD~3", "--rounds", "2", "--runs", "7", "--only", "while_loop", "--lint-layers", "0", "--timeout", "30"]
    )
    assert (args.rounds, args.runs, args.only, args.lint_layers, args.timeout) == (2, 7, ["while_loop"], 0, 30.0)


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["main", "--rounds", "0"],
        ["main", "--runs", "-1"],
        ["main", "--only", "x"],
        ["main", "--timeout", "0"],
        ["main", "--lint-layers", "-5"],
    ],
)
def test_bad_arguments_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cr.parse_args(argv)
    assert exc.value.code == 2
    assert "usage:" in capsys.readouterr().err


def test_dry_run_plans_without_checking_out() -> None:
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "HEAD", "--dry-run", "--rounds", "3", "--lint-layers", "0"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("check out HEAD into a temporary git worktree")
    assert any(line.startswith("3 interpreter rounds x 4 models x 2 sides") for line in lines)
    assert not any("lint rounds" in line for line in lines)  # --lint-layers 0: no lint
    worktrees = subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "list"], capture_output=True, text=True, timeout=60
    ).stdout
    assert "irlint-compare-" not in worktrees  # (other worktrees of the repository may come and go)


def test_summaries() -> None:
    a = cr.Side(rounds=[[1.0, 3.0], [2.0, 2.0]], yardstick=[[0.5, 0.5], [0.25, 1.0]], traced=[[1.5, 3.0], [2.0, 3.0]])
    b = cr.Side(rounds=[[4.0, 4.0], [2.0, 6.0]], yardstick=[[1.0, 1.0], [1.0, 1.0]])
    assert a.x_yardstick() == 1.0 / 0.25  # fastest over fastest
    assert a.tracing() == pytest.approx(0.25)  # median of 1.5, 1.0, 1.0, 1.5 is 1.25
    assert a.tracing_of_minima() == pytest.approx(0.5)  # 1.5 over 1.0
    assert b.tracing() is None and b.tracing_of_minima() is None
    assert cr.ratio(a, b) == 2.0  # per round 4/2 and 4/2


def test_table_parses_back() -> None:
    a = cr.Side(rounds=[[0.001, 0.002]], yardstick=[[0.0005, 0.0005]], traced=[[0.0011, 0.0022]])
    b = cr.Side(rounds=[[0.0005, 0.001]], yardstick=[[0.0005, 0.0004]], traced=[[0.0006, 0.0011]])
    rows = cr.parse_table(cr.table({"m": (a, b)}, 1e3, "ms", "OpenVINO"))
    assert list(rows) == ["m"]
    row = rows["m"]
    assert row["A ms (min / median)"] == "1 / 1.5"
    assert row["B ms (min / median)"] == "0.5 / 0.75"
    assert row["A x OpenVINO"] == "2.00x" and row["B x OpenVINO"] == "1.25x"
    assert row["A tracing (median / minima)"] == "+10% / +10%"
    assert row["B tracing (median / minima)"] == "+15% / +20%"  # pairs 1.2 and 1.1; 0.6 over 0.5
    assert row["B/A"] == "0.500" and row["B/A of minima"] == "0.500"
    assert cr.parse_table("no table here") == {}
