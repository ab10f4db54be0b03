"""Start/stop/step slicing as OpenVINO's StridedSlice and Slice read it, on static and interval dims.

OpenVINO clamps like Python except for a reversed slice whose start lies before the first element:
Python yields nothing, OpenVINO clamps the start to element 0 (so ``[-10:-20:-1]`` on 4 elements
gives one element). `None` start/stop stand for a masked bound (the whole extent in the step's
direction).
"""

from __future__ import annotations

from irlint.ops.base import OpError
from irlint.types import Dim


def clamp_slice(length: int, start: int | None, stop: int | None, step: int) -> tuple[int, int, int]:
    """(first index, stop index, element count) for a slice of an axis of `length` elements."""
    if step == 0:
        raise OpError("slice step must be non-zero")
    if step > 0:
        b = 0 if start is None else min(max(start + length if start < 0 else start, 0), length)
        e = length if stop is None else min(max(stop + length if stop < 0 else stop, 0), length)
        return b, e, max(0, -(-(e - b) // step))
    b = length - 1 if start is None else min(max(start + length if start < 0 else start, 0), length - 1)
    e = -1 if stop is None else min(max(stop + length if stop < 0 else stop, -1), length)
    if length == 0:
        return 0, 0, 0
    return b, e, max(0, -(-(b - e) // -step))


def py_slice(length: int, start: int | None, stop: int | None, step: int) -> slice:
    """A Python slice selecting exactly what OpenVINO selects (see module docstring)."""
    b, _e, n = clamp_slice(length, start, stop, step)
    if n == 0:
        return slice(0, 0, 1)
    last = b + (n - 1) * step
    return slice(b, last + 1, step) if step > 0 else slice(b, None if last == 0 else last - 1, step)


def sliced_dim(dim: Dim, start: int | None, stop: int | None, step: int) -> Dim:
    """The sliced size over every length the interval `dim` allows.

    The count is monotone between the lengths where a normalised bound meets a clamp limit, so its
    extremes lie at the interval ends or at those break points.
    """
    if dim.is_static:
        return Dim.of(clamp_slice(dim.lo, start, stop, step)[2])
    bounds = [v for v in (start, stop) if v is not None]
    marks = {dim.lo}
    for v in bounds:
        for c in (v, -v):
            marks.update((c - 1, c, c + 1, c + 2))
    if dim.hi is not None:
        marks.add(dim.hi)
    points = sorted(m for m in marks if m >= dim.lo and (dim.hi is None or m <= dim.hi))
    counts = [clamp_slice(p, start, stop, step)[2] for p in points]
    hi: int | None
    if dim.hi is None:
        big = 4 * max([abs(v) for v in bounds] + [1 << 20])
        far, farther = clamp_slice(big, start, stop, step)[2], clamp_slice(2 * big, start, stop, step)[2]
        counts.append(far)
        hi = None if farther != far else max(counts)
    else:
        hi = max(counts)
    return Dim(min(counts), hi)
