"""`irlint compare --plot OUT.png`: each compared tensor's error per iteration, one panel each.

matplotlib is imported only here and only when a plot is asked for (`irlint.cli.trace_plot`
says how to install it when it is missing); the picture is written atomically.
"""

from __future__ import annotations

import numpy as np

from irlint.cli.paths import atomic_write
from irlint.cli.trace_plot import import_pyplot
from irlint.comparison.stats import ErrorRow


def _col(rows: list[ErrorRow], attr: str) -> np.ndarray:
    """One statistic over the iterations; a zero error still shows on a log axis, at the bottom."""
    return np.maximum(np.array([getattr(r, attr) for r in rows], np.float64), 1e-30)


def save(panels: list[tuple[str, list[ErrorRow]]], title: str, rtol: float, path: str) -> None:
    """Max abs and max rel error (left axis, log) and max ULP distance (right axis, log) per iteration;
    iterations with elements beyond the tolerance are marked in red."""
    plt = import_pyplot()
    n = max(1, len(panels))
    fig, axes = plt.subplots(n, 1, figsize=(8, 2.4 * n + 0.6), squeeze=False)
    for ax, (name, rows) in zip(axes[:, 0], panels):
        x = np.arange(len(rows))
        ax.plot(x, _col(rows, "max_abs"), color="#4c72b0", marker=".", label="max abs")
        ax.plot(x, _col(rows, "max_rel"), color="#55a868", marker=".", label="max rel")
        ax.axhline(rtol, color="#55a868", linestyle=":", linewidth=0.8, label="rtol")
        ax.set_yscale("log")
        ax2 = ax.twinx()
        ax2.plot(x, np.maximum(_col(rows, "max_ulp"), 0.5), color="#dd8452", linestyle="--", label="max ULP")
        ax2.set_yscale("log")
        ax2.tick_params(axis="y", labelsize=7)
        bad = [i for i, r in enumerate(rows) if r.beyond]
        if bad:
            ax.scatter(bad, _col(rows, "max_abs")[bad], color="#cc0000", marker="x", s=30, zorder=3,
                       label="beyond tolerance")
        ax.set_title(name, fontsize=9, loc="left")
        step = max(1, len(x) // 20)
        ax.set_xticks(x[::step], [rows[i].iteration for i in x[::step]], fontsize=7)
        ax.set_xlabel("iteration (0-based)", fontsize=8)
        ax.tick_params(axis="y", labelsize=7)
        lines = ax.get_legend_handles_labels()
        lines2 = ax2.get_legend_handles_labels()
        ax.legend(lines[0] + lines2[0], lines[1] + lines2[1], fontsize=7, loc="best")
        ax.grid(alpha=0.3)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    fmt = path.rpartition(".")[2].lower()
    try:
        atomic_write(path, lambda f: fig.savefig(f, dpi=110, format=fmt))
    finally:
        plt.close(fig)
