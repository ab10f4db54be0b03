"""How a TensorIterator/Loop's outputs are put together after the last iteration.

A concatenated output joins the body Result's value of every iteration along `axis`, in iteration
order, or in reverse order for a negative stride (the spec's Concat(S[N-1], ..., S[0])); a rank-0
value is concatenated as rank 1. A last-value output is the final iteration's value; after zero
iterations it is the initial value of the merged input that the Result feeds back into, and a
concatenated output is empty along its axis. A Loop whose execution condition is a constant false
is the exception (`never_run_shape`): OpenVINO's core declares its outputs empty and its CPU plugin
returns them so, and irlint follows both (docs/semantics.md).
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


def never_run_shape(concatenated: bool, shape: Sequence[T] | None, zero: T, static: bool) -> tuple[T, ...] | None:
    """An output's shape when the Loop's execution condition is a constant false, as OpenVINO's core
    declares it (and its CPU plugin returns it): a concatenated output is [0], whatever the body's
    rank; a last-value output of static shape has its first dim 0; a scalar or a dynamic shape stays."""
    if concatenated:
        return (zero,)
    if shape is None or not shape or not static:
        return None if shape is None else tuple(shape)
    return (zero, *shape[1:])
