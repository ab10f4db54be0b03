"""How far apart two tensors are, per iteration: max abs, max rel and ULP distance, and the first element
beyond the tolerance.

Why per iteration: a recurrent model's error is a story over time. A bf16 LSTM drifts a little more
with every step; a wrong slice breaks one iteration's part and leaves the rest; a wrong initial state
breaks iteration 0 and heals. One max over the whole concatenated output hides which it is.

The ULP distance counts representable values of the compared type between the two numbers (for
float32 results: float32 steps, even when OpenVINO computed in bf16), so 1 ULP is "as close as the
type allows" at any magnitude; NaN against a number is infinitely far, NaN against NaN is 0; for
integers it is the difference itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

_ORDERED_INT = {2: np.int16, 4: np.int32, 8: np.int64}


@dataclass(frozen=True, slots=True)
class ErrorRow:
    """One iteration's part of a compared tensor ("-" for a tensor not made by iterations)."""

    iteration: str
    max_abs: float
    max_rel: float
    max_ulp: float
    beyond: int  # elements beyond the tolerance
    size: int

    def as_json(self) -> dict[str, object]:
        return {"iteration": self.iteration, "max_abs": _finite(self.max_abs), "max_rel": _finite(self.max_rel),
                "max_ulp": _finite(self.max_ulp), "beyond_tolerance": self.beyond, "elements": self.size}


def _finite(x: float) -> float | str:
    """JSON has no NaN or infinity: those travel as strings."""
    return x if np.isfinite(x) else str(x)


def _ordered(a: np.ndarray) -> np.ndarray:
    """Floats as integers in the order of their values (adjacent floats differ by 1), as int64."""
    i = a.view(_ORDERED_INT[a.dtype.itemsize]).astype(np.int64)
    sign = np.int64(1) << np.int64(8 * a.dtype.itemsize - 1)
    return np.where(i < 0, -(i & (sign - 1)), i) if a.dtype.itemsize < 8 else np.where(i < 0, -(i & ~sign), i)


def ulp_distance(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Per element, how many values of `want`'s type lie between the two (float64 result)."""
    if want.dtype.kind != "f" or want.dtype.itemsize not in _ORDERED_INT:
        return np.abs(got.astype(np.float64) - want.astype(np.float64))
    g = np.ascontiguousarray(got.astype(want.dtype))
    w = np.ascontiguousarray(want)
    og, ow = _ordered(g), _ordered(w)
    same_sign = (og >= 0) == (ow >= 0)  # then the int64 difference cannot overflow, and is exact
    with np.errstate(over="ignore"):
        d = np.where(same_sign, np.abs(og - ow).astype(np.float64),
                     np.abs(og).astype(np.float64) + np.abs(ow).astype(np.float64))
    gn, wn = np.isnan(g), np.isnan(w)
    return np.where(gn & wn, 0.0, np.where(gn | wn, np.inf, d))


def beyond_tolerance(got: np.ndarray, want: np.ndarray, rtol: float, atol: float) -> np.ndarray:
    """The elements that differ beyond |got - want| <= atol + rtol * |want| (NaN equals NaN)."""
    return ~np.isclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True)


def error_row(iteration: str, got: np.ndarray, want: np.ndarray, rtol: float, atol: float) -> ErrorRow:
    g, w = got.astype(np.float64), want.astype(np.float64)
    with np.errstate(invalid="ignore"):
        diff = np.abs(g - w)
        same = (g == w) | (np.isnan(g) & np.isnan(w))  # equal infinities too: inf - inf is NaN, not a gap
        diff = np.where(same, 0.0, np.where(np.isnan(diff), np.inf, diff))
        rel = diff / np.maximum(np.abs(np.nan_to_num(w)), 1e-12)
    ulp = ulp_distance(got, want)
    return ErrorRow(iteration, float(diff.max(initial=0)), float(rel.max(initial=0)), float(ulp.max(initial=0)),
                    int(beyond_tolerance(got, want, rtol, atol).sum()), int(want.size))


class Divergence:
    """What layer-by-layer comparisons share: per (layer path, iterations) whether every port compared so
    far agrees (the upstream report reads it), and the earliest disagreement in the order of computation."""

    def __init__(self) -> None:
        self.verdicts: dict[tuple[str, tuple[int, ...]], bool] = {}
        self._first: tuple[tuple[int, ...], Any] | None = None

    def row(self, path: str, its: tuple[int, ...], got: np.ndarray, want: np.ndarray, rtol: float, atol: float,
            at: tuple[int, ...], what: Any) -> ErrorRow | None:
        """The iteration's row for two same-shaped tensors (None when either is not numeric), noted."""
        if got.dtype.kind not in "fiub" or want.dtype.kind not in "fiub":
            return None
        r = error_row(label(its), got, want, rtol, atol)
        self.note(path, its, r.beyond == 0, at, what)
        return r

    def note(self, path: str, its: tuple[int, ...], ok: bool, at: tuple[int, ...], what: Any) -> None:
        """Record a verdict; `at` orders disagreements (smaller is computed first), `what` is kept for the
        first one."""
        self.verdicts[(path, its)] = self.verdicts.get((path, its), True) and ok
        if not ok and (self._first is None or at < self._first[0]):
            self._first = (at, what)

    @property
    def first(self) -> Any:
        return None if self._first is None else self._first[1]


def label(iterations: tuple[int, ...]) -> str:
    """Iterations outer first, 0-based, joined by dots ("2.1"), as everywhere in irlint; "-" for none."""
    return ".".join(str(k) for k in iterations) if iterations else "-"


def parts_along(got: np.ndarray, want: np.ndarray, axis: int, n: int, reversed_: bool
                ) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """A concatenated output cut into its `n` iterations' parts along `axis`: (iteration, ours, theirs),
    by iteration (a negative stride concatenates from the last iteration's end)."""
    if n <= 0 or got.shape[axis] % n:
        return []
    length = got.shape[axis] // n
    out = []
    for j in range(n):
        cut = [slice(None)] * got.ndim
        cut[axis] = slice(j * length, (j + 1) * length)
        out.append((n - 1 - j if reversed_ else j, got[tuple(cut)], want[tuple(cut)]))
    return sorted(out, key=lambda t: t[0])


def summary_rows(rows: list[ErrorRow], keep: int = 12) -> list[ErrorRow | None]:
    """At most about `keep` rows for a terminal: the first ones, the worst (by ULP, then rel) and the last,
    in iteration order; None marks rows left out (all of them are in --format json)."""
    if len(rows) <= keep:
        return list(rows)
    chosen = set(range(5)) | {len(rows) - 1}
    worst = sorted(range(len(rows)), key=lambda i: (rows[i].max_ulp, rows[i].max_rel), reverse=True)
    chosen |= set(worst[:3])
    first_bad = next((i for i, r in enumerate(rows) if r.beyond), None)
    if first_bad is not None:
        chosen.add(first_bad)
    out: list[ErrorRow | None] = []
    last = -1
    for i in sorted(chosen):
        if i != last + 1:
            out.append(None)
        out.append(rows[i])
        last = i
    return out


def table(rows: list[ErrorRow], indent: str = "    ") -> list[str]:
    """The small per-iteration table of the text report."""
    lines = [f"{indent}{'iteration':>9} {'max abs':>11} {'max rel':>11} {'max ULP':>11}  beyond tol"]
    for r in summary_rows(rows):
        if r is None:
            lines.append(f"{indent}{'...':>9}")
            continue
        lines.append(f"{indent}{r.iteration:>9} {r.max_abs:>11.3g} {r.max_rel:>11.3g} {r.max_ulp:>11.4g}  "
                     f"{r.beyond}/{r.size}")
    return lines
