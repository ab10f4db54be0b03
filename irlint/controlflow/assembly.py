"""How a TensorIterator/Loop's outputs are put together after the last iteration.

A concatenated output joins the body Result's value of every iteration along `axis`, in iteration
order, or in reverse order for a negative stride (the spec's Concat(S[N-1], ..., S[0])); a rank-0
value is concatenated as rank 1. A last-value output is the final iteration's value; after zero
iterations it is the initial value of the merged input that the Result feeds back into, and a
concatenated output is empty along its axis.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from irlint.controlflow.plan import LoopPlan, PlanEntry

T = TypeVar("T")


def concat_order(entry: PlanEntry, parts: Sequence[T]) -> list[T]:
    """The per-iteration parts in the order they are concatenated."""
    return list(parts[::-1]) if entry.reversed else list(parts)


def zero_iteration_source(plan: LoopPlan, entry: PlanEntry) -> int | None:
    """The body Parameter whose initial value a last-value output takes when no iteration ran."""
    return plan.fed_back_from(entry.body_layer)


def iteration_of_output_element(entry: PlanEntry, index: int, part_length: int, iterations: int) -> int:
    """Which iteration produced element `index` along the axis of a concatenated output, each
    iteration contributing `part_length` elements there."""
    k = index // max(part_length, 1)
    return iterations - 1 - k if entry.reversed else k
