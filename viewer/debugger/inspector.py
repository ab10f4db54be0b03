"""Text for the tensor inspector: shape, dtype, stats, NaN/Inf, values (2-D slices), diff to the previous iteration."""

from __future__ import annotations

import numpy as np

from irlint.interp.trace import stats


def summary(a: np.ndarray) -> str:
    s = stats(a)
    parts = [f"{short_dtype(a.dtype)}{s['shape']}".replace(" ", "")]
    for k in ("min", "max", "mean"):
        if s.get(k) is not None:
            parts.append(f"{k} {s[k]:.3g}")
    for k in ("nan", "inf", "true", "false"):
        if s.get(k):
            parts.append(f"{k} {s[k]}")
    if a.size == 1:
        parts.append(f"= {scalar_text(a)}")
    return " ".join(parts)


def short_dtype(dt: np.dtype) -> str:
    """f32, i64, u8, bool: the IR's spelling, shorter than numpy's."""
    return "bool" if dt.kind == "b" else f"{dt.kind}{dt.itemsize * 8}"


def scalar_text(a: np.ndarray) -> str:
    v = np.asarray(a).reshape(-1)[0]
    return f"{v:.6g}" if np.asarray(a).dtype.kind == "f" else str(v.item())


def port_names(layer, n: int) -> list[str]:  # type: ignore[no-untyped-def]
    """Labels of a recorded tuple: output port ids (a Result records what it receives: 'in')."""
    if layer.type == "Result" or not layer.outputs:
        return ["in"] * min(n, 1) + [f"in{i}" for i in range(1, n)]
    ids = [p.id for p in layer.outputs]
    return [f"out{ids[i]}" if i < len(ids) else f"out?{i}" for i in range(n)]


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


def view_title(a: np.ndarray, index: int) -> str:
    """What part of the tensor the table shows, with the indices the row/column labels stand for."""
    if a.ndim == 0:
        return "scalar"
    if a.ndim == 1:
        return f"[:{a.shape[0]}] (columns: index)"
    lead = f"[{min(index, a.shape[0] - 1)}, " + "0, " * (a.ndim - 3) if a.ndim > 2 else "["
    return f"{lead}rows, columns] of {list(a.shape)}" + ("  (j/k: other slices)" if a.ndim > 2 else "")


def diff_text(a: np.ndarray, prev: np.ndarray | None) -> str:
    """How the tensor differs from the previous recorded iteration's (booleans: how many flipped)."""
    if prev is None:
        return "no previous iteration"
    if prev.shape != a.shape:
        return f"vs previous it: shape {list(prev.shape)} -> {list(a.shape)}"
    if a.dtype.kind == "b" or prev.dtype.kind == "b":
        changed = int(np.count_nonzero(a != prev))
        return f"vs previous it: {changed}/{a.size} changed"
    if a.dtype.kind not in "fiu" or prev.dtype.kind not in "fiu":
        return f"vs previous it: {int(np.count_nonzero(a != prev))}/{a.size} changed"
    d = np.abs(a.astype(np.float64) - prev.astype(np.float64))
    return f"vs previous it: max |diff| {d.max(initial=0):.3g}, {int((d > 0).sum())}/{d.size} changed"
