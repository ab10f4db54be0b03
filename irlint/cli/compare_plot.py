"""`irlint compare --plot OUT.png`: each compared tensor's error per iteration, one panel each.

Errors span many decades and are often exactly 0 or infinite, so each panel is a log axis with two
bands of its own: 0 is drawn on a floor band below the smallest error (labelled "0"), an infinite
error on a ceiling band above the largest (labelled "inf", red triangles). Past `MAX_POINTS`
iterations the rows are binned: each bin shows its largest error as the line and its smallest as
the lower edge of a shaded band, so 1,000+ iterations stay readable; an iteration (or bin) beyond
the tolerance is marked on its max abs error, never on the 0 band. The legend sits outside the
data, right of the axes, and the picture is cropped to what is drawn. matplotlib is imported only
here and only when a plot is asked for; the picture is written atomically.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from irlint.cli.paths import atomic_write
from irlint.cli.trace_plot import import_pyplot
from irlint.comparison.stats import ErrorRow

MAX_POINTS = 200  # iterations drawn one by one; more are binned
_STATS = (("max_abs", "max abs error", "#4c72b0"), ("max_rel", "max rel error", "#55a868"))


@dataclass
class Series:
    """One statistic ready to draw: x positions, the largest value per point (the line) and the smallest
    (the band's lower edge; equal to the line when not binned), with 0 and inf replaced by the floor and
    ceiling values and their positions kept."""

    x: np.ndarray
    high: np.ndarray
    low: np.ndarray
    zero: np.ndarray  # bool per point: the (largest) value is exactly 0
    inf: np.ndarray  # bool per point: the value is infinite (or NaN)


def bins(n: int, max_points: int = MAX_POINTS) -> list[tuple[int, int]]:
    """[start, stop) row ranges: one row each up to `max_points`, else about `max_points` equal bins."""
    if n <= max_points:
        return [(i, i + 1) for i in range(n)]
    edges = np.linspace(0, n, max_points + 1).astype(int)
    return [(int(a), int(b)) for a, b in itertools.pairwise(edges) if b > a]


def series(rows: list[ErrorRow], attr: str, floor: float, ceiling: float,
           max_points: int = MAX_POINTS) -> Series:
    values = np.array([getattr(r, attr) for r in rows], np.float64)
    parts = bins(len(values), max_points)
    x = np.array([(a + b - 1) / 2 for a, b in parts], np.float64)
    high = np.array([np.max(values[a:b]) for a, b in parts]) if parts else np.zeros(0)
    low = np.array([np.min(values[a:b]) for a, b in parts]) if parts else np.zeros(0)
    inf = ~np.isfinite(high)
    zero = high == 0
    return Series(x, _clamp(high, floor, ceiling), _clamp(low, floor, ceiling), zero, inf)


def _clamp(v: np.ndarray, floor: float, ceiling: float) -> np.ndarray:
    return np.where(~np.isfinite(v), ceiling, np.where(v <= 0, floor, v))


def tick_step(n: int, most: int = 10) -> int:
    """A round step (1, 2 or 5 times a power of 10) that puts at most `most` labels on `n` iterations, so that
    four-digit labels do not run into each other."""
    base = 1
    while True:
        for m in (1, 2, 5):
            if n <= base * m * most:
                return base * m
        base *= 10


def beyond_marks(rows: list[ErrorRow], floor: float, ceiling: float) -> tuple[np.ndarray, np.ndarray]:
    """Where the iterations (or bins) with elements beyond the tolerance are marked: at their max abs error."""
    s = series(rows, "max_abs", floor, ceiling)
    flags = np.array([any(r.beyond for r in rows[a:b]) for a, b in bins(len(rows))], bool)
    return s.x[flags], s.high[flags]


def limits(rows: list[ErrorRow], rtol: float) -> tuple[float, float]:
    """The floor (where 0 is drawn) and ceiling (where inf is drawn): a decade below the smallest positive
    finite error (or rtol) and a decade above the largest."""
    vals = np.array([getattr(r, a) for r in rows for a, _l, _c in _STATS], np.float64)
    finite = vals[np.isfinite(vals) & (vals > 0)]
    lo = min(float(finite.min()) if finite.size else rtol, rtol)
    hi = max(float(finite.max()) if finite.size else rtol, rtol)
    return lo / 10, hi * 10


def figure(panels: list[tuple[str, list[ErrorRow]]], title: str, rtol: float) -> Any:
    """The matplotlib Figure: per panel max abs and max rel error (left axis) and max ULP distance (right
    axis), both log, with the rtol line, iterations beyond the tolerance marked."""
    plt = import_pyplot()
    n = max(1, len(panels))
    fig, axes = plt.subplots(n, 1, figsize=(10, 2.6 * n + 0.6), squeeze=False)
    for ax, (name, rows) in zip(axes[:, 0], panels):
        _panel(ax, name, rows, rtol)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0, 0.78, 1))  # the right fifth holds the legends
    return fig


def _panel(ax: Any, name: str, rows: list[ErrorRow], rtol: float) -> None:
    floor, ceiling = limits(rows, rtol)
    binned = len(rows) > MAX_POINTS
    for attr, label, color in _STATS:
        s = series(rows, attr, floor, ceiling)
        ax.plot(s.x, s.high, color=color, marker="" if binned else ".", linewidth=1, label=label)
        if binned:
            ax.fill_between(s.x, s.low, s.high, color=color, alpha=0.2, linewidth=0)
        if s.inf.any():
            ax.scatter(s.x[s.inf], s.high[s.inf], color="#cc0000", marker="^", s=36, zorder=4,
                       label=f"{label}: infinite" if attr == "max_abs" else None)
    ax.axhline(rtol, color="#55a868", linestyle=":", linewidth=0.8, label=f"rtol {rtol:g}")
    ax.set_yscale("log")
    ax.set_ylim(floor / 2, ceiling * 2)
    ax.axhspan(floor / 2, floor * 1.5, color="#999999", alpha=0.12, linewidth=0)
    ax.axhspan(ceiling / 1.5, ceiling * 2, color="#cc0000", alpha=0.08, linewidth=0)
    ticks = [t for t in ax.get_yticks() if floor * 3 < t < ceiling / 3]
    ax.set_yticks([floor, *ticks, ceiling], ["0", *[f"{t:.0e}" for t in ticks], "inf"], fontsize=7)
    ax.set_ylabel("error (abs, rel)", fontsize=8)
    ax2 = ax.twinx()
    ulp = series(rows, "max_ulp", 0.5, 1e300)
    ulp_top = max(float(ulp.high[~ulp.inf].max()) if (~ulp.inf).any() else 1.0, 1.0) * 10
    ulp.high[ulp.inf] = ulp_top
    ax2.plot(ulp.x, np.maximum(ulp.high, 0.5), color="#dd8452", linestyle="--", linewidth=1, label="max ULP")
    ax2.set_yscale("log")
    ax2.set_ylim(0.25, ulp_top * 2)
    ax2.set_ylabel("ULP distance (0 at the bottom)", fontsize=8)
    ax2.tick_params(axis="y", labelsize=7)
    xs, ys = beyond_marks(rows, floor, ceiling)
    if xs.size:  # on the abs line, never on the 0 band (that would read as an error of 0)
        dense = xs.size > 50
        ax.scatter(xs, ys, color="#cc0000", marker="x", s=10 if dense else 30, linewidths=0.8 if dense else 1.5,
                   alpha=0.7 if dense else 1.0, zorder=3,
                   label="beyond tolerance" + (" (bins holding one)" if binned else ""))
    ax.set_title(name + (f" ({len(rows)} iterations, binned: line = max, band = min..max)" if binned else ""),
                 fontsize=9, loc="left")
    step = tick_step(len(rows))
    xs = list(range(0, len(rows), step))
    ax.set_xticks(xs, [rows[i].iteration for i in xs], fontsize=7)
    ax.set_xlabel("iteration (0-based)", fontsize=8)
    handles, labels = ax.get_legend_handles_labels()
    handles2, labels2 = ax2.get_legend_handles_labels()
    ax.legend(handles + handles2, labels + labels2, fontsize=7, loc="upper left", bbox_to_anchor=(1.17, 1.0),
              borderaxespad=0)
    ax.grid(alpha=0.3)


def save(panels: list[tuple[str, list[ErrorRow]]], title: str, rtol: float, path: str) -> None:
    plt = import_pyplot()
    fig = figure(panels, title, rtol)
    fmt = path.rpartition(".")[2].lower()
    try:
        atomic_write(path, lambda f: fig.savefig(f, dpi=110, format=fmt, bbox_inches="tight"))
    finally:
        plt.close(fig)
