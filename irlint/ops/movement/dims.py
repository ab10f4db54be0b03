"""Interval arithmetic on partial dims (`irlint.types.Dim`) needed by shape functions of movement ops."""

from __future__ import annotations

from collections.abc import Iterable

from irlint.ops.base import OpError
from irlint.types import DYNAMIC, Dim, Shape, format_shape


def dim_mul(a: Dim, b: Dim) -> Dim:
    """The product of two intervals (sizes are non-negative)."""
    if a.hi == 0 or b.hi == 0:
        return Dim(0, 0)
    hi = None if a.hi is None or b.hi is None else a.hi * b.hi
    return Dim(a.lo * b.lo, hi)


def dims_product(dims: Iterable[Dim]) -> Dim:
    out = Dim(1, 1)
    for d in dims:
        out = dim_mul(out, d)
    return out


def merge(a: Dim, b: Dim) -> Dim | None:
    """The intersection of two intervals (the sizes both may have), None if they cannot agree."""
    lo = max(a.lo, b.lo)
    his = [h for h in (a.hi, b.hi) if h is not None]
    hi = min(his) if his else None
    if hi is not None and hi < lo:
        return None
    return Dim(lo, hi)


def merge_shapes(op: str, a: Shape | None, b: Shape | None, what: str) -> Shape | None:
    """Two partial shapes that must describe the same tensor, merged; OpError if they conflict."""
    if a is None:
        return b
    if b is None:
        return a
    if len(a) != len(b):
        raise OpError(f"{op}: {what}: ranks differ ({format_shape(a)} vs {format_shape(b)})")
    out = []
    for x, y in zip(a, b, strict=False):
        m = merge(x, y)
        if m is None:
            raise OpError(f"{op}: {what}: {format_shape(a)} and {format_shape(b)} are incompatible")
        out.append(m)
    return tuple(out)


def _contains(d: Dim, n: int) -> bool:
    return d.lo <= n and (d.hi is None or n <= d.hi)


def broadcast_dim(op: str, a: Dim, b: Dim) -> Dim:
    """Numpy broadcasting of two partial dims; OpError if they can never broadcast."""
    if a.is_static and a.lo == 1:
        return b
    if b.is_static and b.lo == 1:
        return a
    if a.is_static and b.is_static:
        if a.lo != b.lo:
            raise OpError(f"{op}: dims {a.lo} and {b.lo} do not broadcast (numpy rules)")
        return a
    if a.is_static or b.is_static:
        s, d = (a, b) if a.is_static else (b, a)
        if not (_contains(d, 1) or _contains(d, s.lo)):
            raise OpError(f"{op}: dims {s} and {d} do not broadcast (numpy rules)")
        return s
    # Both dynamic: a dim that cannot be 1 decides the result unless the other one may be 1.
    a1, b1 = _contains(a, 1), _contains(b, 1)
    if not a1 and not b1:
        m = merge(a, b)
        if m is None:
            raise OpError(f"{op}: dims {a} and {b} do not broadcast (numpy rules)")
        return m
    if not a1:
        return a
    if not b1:
        return b
    hi = None if a.hi is None or b.hi is None else max(a.hi, b.hi)
    return Dim(min(a.lo, b.lo), hi)


def broadcast_shapes(op: str, a: Shape | None, b: Shape | None) -> Shape | None:
    """Numpy (right-aligned) broadcasting of two partial shapes; None for a dynamic rank."""
    if a is None or b is None:
        return None
    n = max(len(a), len(b))
    pa = (Dim(1, 1),) * (n - len(a)) + a
    pb = (Dim(1, 1),) * (n - len(b)) + b
    try:
        return tuple(broadcast_dim(op, x, y) for x, y in zip(pa, pb, strict=False))
    except OpError:
        raise OpError(
            f"{op}: shapes {format_shape(a)} and {format_shape(b)} do not broadcast (numpy rules)"
        ) from None


def dynamic_shape(rank: int | None) -> Shape | None:
    return None if rank is None else (DYNAMIC,) * rank
