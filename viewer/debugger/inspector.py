"""Text for the tensor inspector: shape, dtype, stats, NaN/Inf, values (2-D slices), diff to the previous iteration."""

from __future__ import annotations

import numpy as np

from irlint.interp.trace import stats


def summary(a: np.ndarray) -> str:
    s = stats(a)
    parts = [f"shape {s['shape']}", f"dtype {s['dtype']}"]
    for k in ("min", "max", "mean"):
        if s.get(k) is not None:
            parts.append(f"{k} {s[k]:.6g}")
    for k in ("nan", "inf", "true", "false"):
        if s.get(k):
            parts.append(f"{k} {s[k]}")
    return "  ".join(parts)


def as_rows(a: np.ndarray, index: tuple[int, ...] = (), limit: int = 64) -> list[list[str]]:
    """A 2-D view of the tensor for a table: leading dims fixed by `index` (default 0s)."""
    v = np.asarray(a)
    if v.ndim == 0:
        return [[f"{v.item():.6g}" if v.dtype.kind == "f" else str(v.item())]]
    while v.ndim > 2:
        i = index[0] if index else 0
        index = index[1:]
        v = v[min(i, v.shape[0] - 1)]
    if v.ndim == 1:
        v = v.reshape(1, -1)
    fmt = (lambda x: f"{x:.5g}") if v.dtype.kind == "f" else str
    return [[fmt(x) for x in row[:limit]] for row in v[:limit]]


def diff_text(a: np.ndarray, prev: np.ndarray | None) -> str:
    if prev is None or prev.shape != a.shape or a.dtype.kind not in "fiu":
        return "no previous iteration to compare"
    d = np.abs(a.astype(np.float64) - prev.astype(np.float64))
    return f"vs previous iteration: max |diff| {d.max(initial=0):.6g}, changed {int((d > 0).sum())}/{d.size}"
