"""A loop's timeline: one statistic of a tensor over every recorded iteration, as a one-line sparkline.

Pure functions (series, buckets, sparkline text) plus the widget, which posts `Timeline.Jump` when
clicked so the app shows that iteration. More iterations than columns are grouped into buckets; a
bucket shows its largest value and is marked `!` when any of its tensors has a NaN or an Inf.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from rich.text import Text
from textual.message import Message
from textual.widgets import Static

METRICS = ("max", "min", "mean", "norm")
BARS = "▁▂▃▄▅▆▇█"


@dataclass(frozen=True)
class Point:
    iteration: tuple[int, ...]
    value: float | None  # None: no finite element (or not numeric)
    nonfinite: bool


def statistic(a: np.ndarray, metric: str) -> tuple[float | None, bool]:
    """(the metric over the finite elements, whether any element is NaN/Inf)."""
    if a.size == 0 or a.dtype.kind not in "fiub":
        return None, False
    f = a.astype(np.float64).reshape(-1)
    finite = np.isfinite(f)
    bad = not bool(finite.all())
    f = f[finite]
    if not f.size:
        return None, bad
    value = {"max": f.max, "min": f.min, "mean": f.mean, "norm": lambda: np.linalg.norm(f)}[metric]()
    return float(value), bad


def series(history: list[tuple[tuple[int, ...], np.ndarray]], metric: str) -> list[Point]:
    return [Point(its, *statistic(np.asarray(a), metric)) for its, a in history]


def buckets(n: int, width: int) -> list[range]:
    """Split n points into at most `width` consecutive groups."""
    if n <= 0 or width <= 0:
        return []
    per = max(1, math.ceil(n / width))
    return [range(i, min(n, i + per)) for i in range(0, n, per)]


def sparkline(points: list[Point], width: int, cursor: int | None = None) -> tuple[Text, list[range]]:
    """The bars (cursor's bucket reversed, NaN/Inf as a red '!') and the buckets they stand for."""
    groups = buckets(len(points), width)
    vals = [p.value for p in points if p.value is not None]
    lo, hi = (min(vals), max(vals)) if vals else (0.0, 0.0)
    text = Text()
    for g in groups:
        members = [points[i] for i in g]
        finite = [p.value for p in members if p.value is not None]
        if any(p.nonfinite for p in members):
            ch, style = "!", "bold red"
        elif not finite:
            ch, style = " ", ""
        else:
            v = max(finite)
            level = 0 if hi == lo else round((v - lo) / (hi - lo) * (len(BARS) - 1))
            ch, style = BARS[level], "cyan"
        if cursor is not None and cursor in g:
            style = (style + " reverse").strip()
        text.append(ch, style=style)
    return text, groups


class Timeline(Static):
    """The selected tensor's statistic over recorded iterations; click a bar to jump to its iteration."""

    class Jump(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__("", markup=False, **kwargs)
        self.points: list[Point] = []
        self.metric = METRICS[0]
        self.cursor: int | None = None
        self._groups: list[range] = []
        self._prefix = 0

    def show(self, points: list[Point], metric: str, cursor: int | None) -> None:
        self.points, self.metric, self.cursor = points, metric, cursor
        self.refresh_text()

    def refresh_text(self) -> None:
        if len(self.points) < 2:
            self._groups = []
            self.update(Text(""))
            self.display = False
            return
        self.display = True
        vals = [p.value for p in self.points if p.value is not None]
        rng = f" {min(vals):.3g}..{max(vals):.3g}" if vals else ""
        head = Text(f"{self.metric}:", style="bold")
        self._prefix = len(head) + 1
        width = max(8, (self.size.width or 60) - self._prefix - 1)
        bars, self._groups = sparkline(self.points, width, self.cursor)
        nonfinite = sum(p.nonfinite for p in self.points)
        tail = f"  {len(self.points)} its{rng}" + (f", {nonfinite} with NaN/Inf" if nonfinite else "")
        self.update(Text.assemble(head, " ", bars, Text(tail, style="dim")))

    def on_resize(self) -> None:
        self.refresh_text()

    def on_click(self, event) -> None:  # type: ignore[no-untyped-def]
        i = event.x - self.styles.padding.left - self._prefix  # event.x counts from the border, padding included
        if 0 <= i < len(self._groups):
            self.post_message(self.Jump(self._groups[i].start))
