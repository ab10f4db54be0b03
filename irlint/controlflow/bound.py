"""How many iterations a TensorIterator/Loop runs, for the static view and the concrete one alike.

TensorIterator: every sliced input gives a count (they must agree; a rule and the interpreter say so
when they do not); without a sliced input the first concatenated output's range gives the count
(once without one). Loop: an upper bound from the trip
count (negative: none) and the slice counts; the execution condition at entry (input port 1) false
means zero iterations; otherwise the body condition decides after each iteration, so the exact count
is known statically only when that condition is a constant (false: once, do-while; true: the trip
count when it is known, as OpenVINO's core counts it even past the slices, else the bound).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace


@dataclass(frozen=True, slots=True)
class IterationBound:
    """`count`: exactly this many iterations (None: not known before running); `limit`: at most this
    many (None: until the body condition is false); `source`: how it was derived, for messages; `trip`: a
    Loop's known trip count (>= 0), which OpenVINO's core takes as the count of a Loop whose body
    condition is constant true even where the slices run out first (its CPU plugin then fails: LP708)."""

    count: int | None
    limit: int | None
    source: str = ""
    trip: int | None = None


UNBOUNDED = IterationBound(None, None)  # nothing known yet


def iteration_bound(is_loop: bool, slice_counts: Sequence[tuple[int, str]], trip: int | None = None,
                    first_condition: bool | None = None, *, sliced: bool = True,
                    unsliced: int = 1) -> IterationBound:
    """The bound from what is known: `slice_counts` are (iterations, description) of the sliced inputs
    that resolved; `trip` and `first_condition` a Loop's input ports 0 and 1 when their values are known;
    `sliced` False when the TensorIterator has no sliced input at all: then it runs `unsliced` times
    (`LoopPlan.unsliced_count`, from its first concatenated output, as OpenVINO's core infers it).
    """
    if not is_loop:
        if slice_counts:
            n, why = slice_counts[0]
            return IterationBound(n, n, why)
        if not sliced:
            if unsliced == 1:
                return IterationBound(1, 1, "no sliced input: the body runs once")
            return IterationBound(unsliced, unsliced, f"no sliced input: |end - start| / part_size of the first "
                                  f"concatenated output gives {unsliced}")
        return IterationBound(None, None, "")
    if not slice_counts and first_condition is not False:
        return _by_trip(None if trip is None or trip < 0 else int(trip))
    bounds = list(slice_counts)
    if trip is not None and trip >= 0:
        bounds.append((int(trip), f"trip count {int(trip)} (input port 0)"))
    if first_condition is False:
        return IterationBound(0, 0, "the execution condition (input port 1) is false")
    if not bounds:
        return IterationBound(None, None, "")
    n, why = min(bounds)
    return IterationBound(None, n, why, int(trip) if trip is not None and trip >= 0 else None)


@functools.lru_cache(maxsize=1024)
def _by_trip(trip: int | None) -> IterationBound:
    """A Loop's bound from its trip count alone (None: none), made once per count: the interpreter asks
    at every execution of a Loop, a nested one once per outer iteration."""
    if trip is None:
        return IterationBound(None, None, "")
    return IterationBound(None, trip, f"trip count {trip} (input port 0)", trip)


def refine_with_body_condition(bound: IterationBound, constant: bool | None) -> IterationBound:
    """A Loop whose body condition is a known constant: false runs once (the condition is read after
    the body); true runs the trip count when it is known (OpenVINO's core declares the concatenated
    outputs from it, also past the slices), else to the bound."""
    if bound.limit == 0 or constant is None:
        return bound
    if constant is False:
        return replace(bound, count=1, source="the body condition is constant false (one iteration, do-while)")
    if bound.trip is not None and bound.limit is not None and bound.trip > bound.limit:
        return replace(bound, count=bound.trip,
                       source=f"trip count {bound.trip} (input port 0) with a body condition constant true, as "
                              f"OpenVINO's core counts it, although {bound.source} runs out first")
    if bound.limit is not None:
        return replace(bound, count=bound.limit)
    return bound


def concrete_limit(bound: IterationBound, is_loop: bool) -> int | float:
    """The concrete number of iterations to attempt: a TensorIterator without sliced inputs runs its
    body `LoopPlan.unsliced_count` times; an unbounded Loop runs until its condition stops it (infinity here)."""
    if bound.count is not None:
        return bound.count
    if bound.limit is not None:
        return bound.limit
    return float("inf") if is_loop else 1
