"""A trace counts its records lazily (`Trace._settle`): far from its budget it counts nothing while
the run goes, and what it holds once read (keys, values, spilled keys, bytes) is what counting every
record as it came gives, at every budget, for the plain driver's batches and hook calls alike."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import irlint
from irlint.interp import execute, run
from irlint.interp.trace import MARK_BYTES, TENSOR_BYTES, Trace
from irlint.interp.tracespill import SERIES_BYTES

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


class CountedOnArrival(Trace):
    """The reference: every record counted (and spilled where it does not fit) the moment it comes,
    from the event path (two records per iteration, no batches)."""

    def _settle(self) -> None:
        super()._settle()
        self._slack = -1


def _model() -> tuple[Any, dict[str, np.ndarray]]:
    """A Loop inside a TensorIterator: the inner Loop hands batches, the TensorIterator two calls per iteration."""
    model = irlint.load(EXAMPLES / "nested_loop_in_ti.xml")
    with np.load(EXAMPLES / "inputs" / "nested_loop_in_ti.npz") as z:
        return model, {k: z[k] for k in z.files}


def _traced(kind: type[Trace], budget: int) -> Trace:
    model, inputs = _model()
    trace = kind(budget=budget)
    if kind is CountedOnArrival:
        for _ev in trace.observe(execute(model, inputs)):
            pass
    else:
        run(model, inputs, listener=trace)
    return trace


def test_a_trace_far_from_its_budget_counts_nothing_while_the_run_goes() -> None:
    trace = _traced(Trace, 512 * 1024**2)
    try:
        assert trace._pending and not trace._log  # every record waits for the trace to be read
        reference = _traced(CountedOnArrival, 512 * 1024**2)
        assert not reference._pending
        assert (
            trace.in_memory
            == reference.in_memory
            == trace.count() * TENSOR_BYTES + sum(v.nbytes for v in trace.values.values())
        )
        assert not trace._pending and trace.keys() == reference.keys()
    finally:
        trace.close()


@pytest.mark.parametrize("share", [0, 1, 5, 20, 35, 50, 65, 80, 95, 99, 100, 101])
def test_counting_later_keeps_and_spills_what_counting_on_arrival_does(share: int) -> None:
    """Budgets from 0 to past everything (percent of what the whole trace takes): the same keys in the
    same order, the same spilled keys and values, the same bytes held."""
    total = _traced(Trace, 2**62).in_memory
    budget = total * share // 100
    lazy, eager = _traced(Trace, budget), _traced(CountedOnArrival, budget)
    try:
        keys = lazy.keys()
        assert keys == eager.keys()
        assert list(lazy.spilled) == list(eager.spilled)
        assert bool(lazy.spilled) == (share < 100)
        assert lazy.in_memory == eager.in_memory
        for k in keys:
            assert np.array_equal(lazy.get(k), eager.get(k)), k
    finally:
        lazy.close()
        eager.close()


def test_pending_records_never_pass_half_the_free_budget() -> None:
    """While records wait, their estimated bytes stay within half of what the budget had free when the
    trace last counted: the trace holds at most its budget before it spills."""
    layer = next(la for _g, la in _model()[0].layers() if la.type in ("Loop", "TensorIterator"))
    budget = 400 * (4 + TENSOR_BYTES)
    trace = Trace(budget=budget)
    one = np.ones((1, 1), np.float32)
    try:
        for i in range(300):
            trace.iteration_started(layer, i, (0, 1), (np.add(one, i), np.add(one, -i)), ((layer.path, i),))
            assert trace._guess <= max(trace._slack, 0)
            assert trace._held + trace._guess <= max(budget, trace._held)
        assert len(trace.spilled) == 600 - 400
        assert trace.in_memory <= budget + len(trace._store.series) * SERIES_BYTES + MARK_BYTES
    finally:
        trace.close()


@pytest.mark.parametrize("order", ["falling", "rising"])
def test_a_batch_is_estimated_at_no_less_than_it_holds_where_its_sizes_fall_or_rise(order: str) -> None:
    """A batch's estimate takes the larger of its first and last iterations: a batch whose tensors shrink
    (or grow) along it is not under-estimated while it waits."""
    from irlint.interp.events import FRESH

    layer = next(la for _g, la in _model()[0].layers() if la.type in ("Loop", "TensorIterator"))
    sizes = [1000 - 90 * i for i in range(10)]
    values = [np.zeros(n, np.float32) for n in (sizes if order == "falling" else sizes[::-1])]
    trace = Trace(budget=2**40)
    try:
        take = trace.batches(layer, ((0,), ()), (FRESH,))
        take(0, values, ())
        assert trace._pending and trace._guess >= sum(v.nbytes for v in values) + len(values) * TENSOR_BYTES
        assert trace.in_memory == sum(v.nbytes for v in values) + len(values) * TENSOR_BYTES
    finally:
        trace.close()
