"""A trace's memory is its budget: the tensors it keeps and its bookkeeping are counted against
`--trace-budget` (an estimate that is not below what tracemalloc measures), and what passes the budget,
values and bookkeeping alike, goes to disk, also while the trace is saved (docs/trace-format.md)."""

from __future__ import annotations

import gc
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np

import irlint
from irlint.interp.trace import TENSOR_BYTES, Trace, load_trace, stats

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _loop() -> Any:
    model = irlint.load(EXAMPLES / "nested_loop_in_ti.xml")
    return next(la for _g, la in model.layers() if la.type in ("Loop", "TensorIterator"))


def _record(trace: Trace, layer: Any, iterations: int) -> None:
    """What the event path hands over for a loop of tiny tensors: two 4-byte Parameters at each
    iteration's start, two Results at its end, each a fresh array as an op makes it."""
    one = np.ones((1, 1), np.float32)
    for i in range(iterations):
        frames = ((layer.path, i),)
        trace.iteration_started(layer, i, (0, 1), (np.add(one, i), np.add(one, -i)), frames)
        trace.iteration_finished(layer, i, (4, 5), (np.add(one, 2 * i), np.multiply(one, i)), frames)


def _measured(fn) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """(bytes still allocated after `fn`, peak while it ran), by tracemalloc."""
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        gc.collect()
        return tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()


def test_kept_tensors_are_counted_with_their_bookkeeping() -> None:
    """Everything kept (budget not reached): the count is at least what the tensors and the log take,
    and not far above it. (Counting only the tensors' bytes said 80 KB for 5 MB.)"""
    layer = _loop()
    trace = Trace()
    now, _peak = _measured(lambda: _record(trace, layer, 5000))
    assert trace.count() == 20_000 and not trace.spilled
    assert now <= trace.in_memory <= 2 * now, (now, trace.in_memory)
    assert trace.in_memory == 20_000 * (4 + TENSOR_BYTES)


def test_a_trace_past_its_budget_holds_its_budget(tmp_path: Path) -> None:
    """50,000 iterations of tiny tensors under a 1 MB budget: the trace holds about its budget (values,
    the spilled tensors' keys and positions all on disk), and saving streams them into the .npz."""
    layer = _loop()
    budget = 10**6
    trace = Trace(budget=budget)
    try:
        now, _peak = _measured(lambda: _record(trace, layer, 50_000))
        assert trace.count() == 200_000
        # the budget, the series' write buffers (1 MiB) and the per-series objects: not 200 MB of keys
        assert now < budget + 2 * 1024**2, now
        assert trace.in_memory < budget + 8 * 1024, trace.in_memory
        _now, saving = _measured(lambda: trace.save(tmp_path / "t.npz"))
        assert saving < 16 * 1024**2, saving  # chunks of rows, never every spilled value at once
    finally:
        trace.close()
    values, info = load_trace(tmp_path / "t.npz")
    assert len(values) == 200_000
    k = f"{layer.path}/body/4@49999:out"
    assert float(values[k][0, 0]) == 2 * 49999 + 1 and info[k] == {**stats(values[k]), "spilled": True}
    first = f"{layer.path}/body/0@0:in"
    assert float(values[first][0, 0]) == 1 and "spilled" not in info[first]
    assert list(values)[:4] == [first, f"{layer.path}/body/1@0:in", f"{layer.path}/body/4@0:out",
                                f"{layer.path}/body/5@0:out"]


def test_spilled_rows_read_back_by_key() -> None:
    layer = _loop()
    trace = Trace(budget=20 * (4 + TENSOR_BYTES))  # five iterations kept, the rest spilled
    try:
        _record(trace, layer, 40)
        keys = trace.keys()
        assert len(keys) == 160 and len(trace.spilled) == 140
        assert keys[20] == f"{layer.path}/body/0@5:in" and keys[20] in trace.spilled
        assert float(trace.get(f"{layer.path}/body/5@39:out")[0, 0]) == 39
        assert trace.stats_of(keys[-1])["spilled"] is True
        _record(trace, layer, 2)  # recorded again after reading: keys keep their place
        assert float(trace.get(f"{layer.path}/body/0@1:in")[0, 0]) == 2
    finally:
        trace.close()
