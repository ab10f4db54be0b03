"""`irlint trace --plot OUT.png`: the watched tensors' statistics over the iterations, one panel each.

matplotlib is an optional extra (`pip install 'irlint[plot]'`), imported only here and only when a
plot is asked for; without it the command says how to install it and exits 2.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from irlint.cli.command import UsageError

FORMATS = ("png", "svg", "pdf")


@dataclass
class Series:
    """One watched tensor (layer, port): a row per recorded iteration."""

    title: str
    iterations: list[str] = field(default_factory=list)  # "3" or "2.1" (0-based, outer first), "-" at top level
    stats: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in ("min", "max", "mean", "norm")})
    nonfinite: list[bool] = field(default_factory=list)

    def add(self, iteration: str, value: np.ndarray) -> None:
        a = np.asarray(value)
        f = a.astype(np.float64).reshape(-1) if a.dtype.kind in "fiub" else np.zeros(0)
        finite = f[np.isfinite(f)]
        self.iterations.append(iteration)
        self.nonfinite.append(bool(f.size != finite.size))
        for k, fn in (("min", np.min), ("max", np.max), ("mean", np.mean)):
            self.stats[k].append(float(fn(finite)) if finite.size else float("nan"))
        self.stats["norm"].append(float(np.linalg.norm(finite)) if finite.size else float("nan"))


def import_pyplot():  # type: ignore[no-untyped-def]
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: never a window, works without a display
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise UsageError("--plot needs matplotlib: pip install 'irlint[plot]' (or pip install matplotlib)") from e
    return plt


def check_output(path: str) -> None:
    ext = path.rpartition(".")[2].lower()
    if ext not in FORMATS:
        raise UsageError(f"--plot {path}: the extension must be one of {', '.join(FORMATS)}")


def figure(series: list[Series], model_name: str):  # type: ignore[no-untyped-def]
    """One panel per watched tensor: min/max band, mean and norm per iteration; NaN/Inf marked in red."""
    plt = import_pyplot()
    n = max(1, len(series))
    fig, axes = plt.subplots(n, 1, figsize=(8, 2.4 * n + 0.6), squeeze=False, sharex=False)
    for ax, s in zip(axes[:, 0], series):
        x = np.arange(len(s.iterations))
        ax.fill_between(x, s.stats["min"], s.stats["max"], color="#4c72b0", alpha=0.2, label="min..max")
        ax.plot(x, s.stats["mean"], color="#4c72b0", marker=".", label="mean")
        ax.plot(x, s.stats["norm"], color="#dd8452", linestyle="--", label="norm")
        bad = [i for i, b in enumerate(s.nonfinite) if b]
        if bad:
            top = np.nanmax(np.asarray(s.stats["max"] + s.stats["norm"], dtype=np.float64)) \
                if not all(np.isnan(s.stats["max"])) else 0.0
            ax.scatter(bad, [top] * len(bad), color="#cc0000", marker="x", s=40, zorder=3, label="NaN/Inf")
        ax.set_title(s.title, fontsize=9, loc="left")
        step = max(1, len(x) // 20)
        ax.set_xticks(x[::step], [s.iterations[i] for i in x[::step]], fontsize=7)
        ax.set_xlabel("iteration (0-based)", fontsize=8)
        ax.tick_params(axis="y", labelsize=7)
        ax.legend(fontsize=7, loc="best")
        ax.grid(alpha=0.3)
    fig.suptitle(f"irlint trace: {model_name}", fontsize=10)
    fig.tight_layout()
    return fig


def save(series: list[Series], model_name: str, path: str) -> None:
    plt = import_pyplot()
    fig = figure(series, model_name)
    try:
        fig.savefig(path, dpi=110)
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e}") from e
    finally:
        plt.close(fig)
