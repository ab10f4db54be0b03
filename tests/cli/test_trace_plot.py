"""`irlint trace --plot OUT.png`: one panel per watched tensor, NaN/Inf marked; without matplotlib, exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "irlint", *args], capture_output=True, text=True, timeout=120,
                          env=env)


def test_plot_one_panel_per_watched_tensor(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "t.png"
    res = cli("trace", str(EXAMPLES / "nested_loop_in_ti.xml"), "--inputs",
              str(EXAMPLES / "inputs" / "nested_loop_in_ti.npz"), "--watch", "h_inner_next", "h_next",
              "--plot", str(out))
    assert res.returncode == 0, res.stderr
    assert out.read_bytes()[:4] == b"\x89PNG" and "2 panels" in res.stderr


def test_figure_values_and_nonfinite_marks() -> None:
    pytest.importorskip("matplotlib")
    from irlint.cli.trace_plot import Series, figure

    a, b = Series("a"), Series("b")
    for k in range(4):
        a.add(str(k), np.array([k, -k], np.float32))
        b.add(f"0.{k}", np.array([1.0, np.nan if k == 2 else 2.0], np.float32))
    fig = figure([a, b], "m")
    axes = fig.get_axes()
    assert len(axes) == 2 and axes[0].get_title(loc="left") == "a"
    mean = next(line for line in axes[0].get_lines() if line.get_label() == "mean")
    assert list(mean.get_ydata()) == [0, 0, 0, 0]
    norm = next(line for line in axes[0].get_lines() if line.get_label() == "norm")
    assert list(norm.get_ydata()) == pytest.approx([np.hypot(k, k) for k in range(4)])
    marks = [c for c in axes[1].collections if c.get_label() == "NaN/Inf"]
    assert len(marks) == 1 and [int(x) for x, _y in marks[0].get_offsets()] == [2]
    assert [t.get_text() for t in axes[1].get_xticklabels()] == ["0.0", "0.1", "0.2", "0.3"]
    assert not [c for c in axes[0].collections if c.get_label() == "NaN/Inf"]


def test_plot_without_matplotlib_is_a_clear_usage_error(tmp_path: Path) -> None:
    blocker = tmp_path / "block"
    (blocker / "matplotlib").mkdir(parents=True)
    (blocker / "matplotlib" / "__init__.py").write_text("raise ImportError('no matplotlib here')\n")
    env = dict(os.environ, PYTHONPATH=str(blocker))
    res = cli("trace", str(EXAMPLES / "loop_scan.xml"), "--inputs", str(EXAMPLES / "inputs" / "loop_scan.npz"),
              "--watch", "acc_next", "--plot", str(tmp_path / "t.png"), env=env)
    assert res.returncode == 2 and "irlint[plot]" in res.stderr and "Traceback" not in res.stderr
    assert not (tmp_path / "t.png").exists() and "acc_next" not in res.stdout  # refused before running


def test_plot_extension_is_checked(tmp_path: Path) -> None:
    res = cli("trace", str(EXAMPLES / "loop_scan.xml"), "--inputs", str(EXAMPLES / "inputs" / "loop_scan.npz"),
              "--watch", "acc_next", "--plot", str(tmp_path / "t.txt"))
    assert res.returncode == 2 and "png, svg, pdf" in res.stderr
