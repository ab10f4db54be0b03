"""`compare --plot`: labelled axes, 0 and inf drawn where they can be seen, 1,000+ iterations binned,
the legend outside the data."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.cli.compare_plot import MAX_POINTS, bins, limits, series
from irlint.comparison.stats import ErrorRow

pytest.importorskip("matplotlib")


def _rows(values: list[float]) -> list[ErrorRow]:
    return [ErrorRow(str(i), v, v, v, int(v > 1e-3), 4) for i, v in enumerate(values)]


def test_zero_and_inf_sit_on_their_own_bands() -> None:
    rows = _rows([0.0, 1e-5, np.inf, 2e-6])
    floor, ceiling = limits(rows, 1e-4)
    assert floor == pytest.approx(2e-7) and ceiling == pytest.approx(1e-3)
    s = series(rows, "max_abs", floor, ceiling)
    assert s.zero.tolist() == [True, False, False, False] and s.inf.tolist() == [False, False, True, False]
    assert s.high[0] == floor and s.high[2] == ceiling  # never 1e-30, never off the axis


def test_a_long_run_is_binned_with_its_extremes_kept() -> None:
    values = [1e-6] * 1500
    values[777] = 5e-2
    s = series(_rows(values), "max_abs", 1e-8, 1.0)
    assert len(s.x) == MAX_POINTS and s.high.max() == 5e-2 and s.low.min() == 1e-6
    assert sum(b - a for a, b in bins(1500)) == 1500


def test_the_figure_labels_its_axes_and_keeps_the_legend_outside() -> None:
    from irlint.cli.compare_plot import figure

    fig = figure([("output Y", _rows([0.0, 1e-5, np.inf] + [1e-6] * 997))], "t", 1e-4)
    ax, ax2 = fig.axes
    assert ax.get_ylabel() and ax2.get_ylabel() and ax.get_xlabel() == "iteration (0-based)"
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels[0] == "0" and labels[-1] == "inf"
    legend = ax.get_legend()
    fig.canvas.draw()
    box = legend.get_window_extent().transformed(ax.transAxes.inverted())
    assert box.x0 > 1.0  # right of the data
    assert "binned" in ax.get_title(loc="left")
    assert all(len(line.get_xdata()) <= MAX_POINTS for line in ax.get_lines() if len(line.get_xdata()) > 2)


def test_iterations_beyond_the_tolerance_are_marked_on_their_error_never_on_the_zero_band() -> None:
    """Binned or not, a mark sits at the (bin's) max abs error: on the 0 band it would read as no error."""
    from irlint.cli.compare_plot import beyond_marks, figure

    values = [0.0] * 1500
    values[777] = 5e-2
    rows = _rows(values)
    floor, ceiling = limits(rows, 1e-4)
    xs, ys = beyond_marks(rows, floor, ceiling)
    assert xs.size == 1 and abs(xs[0] - 777) < 8 and ys[0] == 5e-2
    fig = figure([("long", rows)], "t", 1e-4)
    marks = [c for c in fig.axes[0].collections if c.get_label().startswith("beyond tolerance")]
    (offsets,) = [m.get_offsets() for m in marks]
    assert offsets[:, 1].min() > floor * 1.5  # above the 0 band


def test_iteration_labels_are_few_and_round() -> None:
    from irlint.cli.compare_plot import figure, tick_step

    assert [tick_step(n) for n in (8, 12, 1200, 1500, 20000)] == [1, 2, 200, 200, 2000]
    fig = figure([("long", _rows([1e-6] * 1500))], "t", 1e-4)
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert labels == [str(i) for i in range(0, 1500, 200)]
