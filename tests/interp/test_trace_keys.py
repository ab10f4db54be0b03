"""A trace's keys, as `keys()` and `get()` write them out in bulk, against the key scheme
(docs/trace-format.md) written out one tensor at a time: the same keys in the same order with the
same tensors, on the example models and on the hook calls the bulk path treats apart (a tensor
recorded alone, names not paired one for one with the tensors, a separator inside a name, a trace
read while it is still recording, the same keys recorded twice)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

import irlint
from irlint.interp import execute, run
from irlint.interp.events import FRESH
from irlint.interp.trace import TENSOR_BYTES, Trace, key

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MODELS = ["lstm_ti", "loop_scan", "nested_loop_in_ti", "if_in_loop"]


class Scheme:
    """The key scheme one tensor at a time: a dict of key -> tensor in recording order (a key recorded
    again keeps its place and takes the new tensor, as a dict does)."""

    def __init__(self, trace_all: bool = False) -> None:
        self.layers = trace_all
        self.items: dict[str, Any] = {}

    def _put(self, layer_path: str, frames: Any, what: str, ids: Any, values: Any) -> None:
        for i, v in zip(ids, values):
            body = f"{layer_path}/{i}" if isinstance(i, str) else f"{layer_path}/body/{i}"
            self.items[key(body, frames, what)] = v

    def iteration_started(self, layer: Any, iteration: int, ids: Any, values: Any, frames: Any) -> None:
        self._put(layer.path, frames, "in", ids, values)

    def iteration_finished(self, layer: Any, iteration: int, ids: Any, values: Any, frames: Any) -> None:
        self._put(layer.path, frames, "out", ids, values)

    def batches(self, layer: Any, ids: Any, layout: tuple[int, ...]) -> Any:
        width = len(layout)

        def take(first: int, flat: list[Any], frames: Any) -> int:
            for j in range(len(flat) // width):
                values = flat[j * width:(j + 1) * width]
                inner = (*frames, (layer.path, first + j))
                n = len(ids[0])
                self._put(layer.path, inner, "in", ids[0], values[:n])
                self._put(layer.path, inner, "out", ids[1], values[n:] if len(values) > n else ())
            return 3  # batches of three: the executor hands over full and partial batches

        return take

    def layer_evaluated(self, layer: Any, outputs: Any, frames: Any) -> None:
        for p, v in zip(layer.outputs, outputs):
            self.items[key(layer.path, frames, f"out{p.id}")] = v


def hand_over(listener: Any, layer: Any, first: int, ids: Any, records: Any, frames: Any) -> int:
    """A batch of `records` (one tuple per iteration) handed over as the executor does: flat."""
    take = listener.batches(layer, ids, (FRESH,) * len(records[0]))
    return take(first, [v for values in records for v in values], frames)


def call(listener: Any, hook: str, args: tuple[Any, ...]) -> None:
    """A hook call; "iterations" stands for a batch of records handed over as the executor does."""
    if hook == "iterations":
        hand_over(listener, *args)
    else:
        getattr(listener, hook)(*args)


def both(*calls: tuple[str, tuple[Any, ...]], budget: int | None = None) -> tuple[Trace, Scheme]:
    trace = Trace() if budget is None else Trace(budget=budget)
    scheme = Scheme()
    for hook, args in calls:
        call(trace, hook, args)
        call(scheme, hook, args)
    return trace, scheme


def assert_same(trace: Trace, scheme: Scheme) -> None:
    assert trace.keys() == list(scheme.items)
    for k, v in scheme.items.items():
        got = trace.get(k)
        assert got is v or (k in trace.spilled and np.array_equal(got, v)), k


@pytest.mark.parametrize("trace_all", [False, True])
@pytest.mark.parametrize("name", MODELS)
def test_keys_of_a_run_are_the_scheme_one_tensor_at_a_time(name: str, trace_all: bool) -> None:
    model = irlint.load(EXAMPLES / f"{name}.xml")
    inputs = dict(np.load(EXAMPLES / "inputs" / f"{name}.npz"))
    trace, scheme = Trace(trace_all=trace_all), Scheme(trace_all)
    run(model, inputs, listener=trace)
    run(model, inputs, listener=scheme)
    assert trace.keys() == list(scheme.items) and len(scheme.items) > 4
    for k, v in scheme.items.items():
        got = trace.get(k)
        assert got.dtype == v.dtype and np.array_equal(got, v), k
    seen = Trace(trace_all=trace_all)  # the event path records the same keys
    for _ in seen.observe(execute(model, inputs)):
        pass
    assert seen.keys() == list(scheme.items)


def _loop() -> Any:
    model = irlint.load(EXAMPLES / "nested_loop_in_ti.xml")
    return next(la for _g, la in model.layers() if la.type in ("Loop", "TensorIterator"))


def _arrays(n: int, start: float = 0.0) -> tuple[np.ndarray, ...]:
    return tuple(np.full(2, start + i, np.float32) for i in range(n))


def test_lone_tensors_and_hook_calls_keep_their_order() -> None:
    layer = _loop()
    trace, scheme = both(("iteration_started", (layer, 0, (0, 1), _arrays(2), ((layer.path, 0),))),
                         ("iterations", (layer, 0, ((0,), (4, 5)), [_arrays(3, 10)], ((layer.path, 0),))))
    trace.record("extra:out0", np.array([True]))
    scheme.items["extra:out0"] = trace.get("extra:out0")
    for hook, args in [("iterations", (layer, 1, ((0,), (4, 5)), [_arrays(3, 20), _arrays(3, 25)], ((layer.path, 0),))),
                       ("iteration_finished", (layer, 0, (7,), _arrays(1, 30), ((layer.path, 0),)))]:
        call(trace, hook, args)
        call(scheme, hook, args)
    assert_same(trace, scheme)


@pytest.mark.parametrize("n_values", [0, 1, 2, 4])
def test_names_not_paired_one_for_one_are_cut_as_zip_cuts(n_values: int) -> None:
    layer = _loop()
    batch = [("iterations", (layer, 0, ((0, 1), (3,)), [_arrays(n_values, 5)], ()))] if n_values else []
    trace, scheme = both(("iteration_started", (layer, 0, (0, 1, 2), _arrays(n_values), ())), *batch,
                         ("iteration_finished", (layer, 0, (), _arrays(n_values, 9), ())),
                         ("iteration_finished", (layer, 1, (3, 4), _arrays(2, 12), ())))
    assert_same(trace, scheme)
    assert trace.count() == 3 * n_values + 2  # the count is of tensors recorded, keyed or not
    with pytest.raises(ValueError, match="at least one tensor"):  # the executor hands over none such
        trace.batches(layer, ((), ()), ())


def test_a_separator_in_a_name_is_written_one_by_one() -> None:
    odd = SimpleNamespace(path="9\0x", outputs=())  # no IR file has one; a caller's layer may
    layer = _loop()
    trace, scheme = both(("iterations", (odd, 0, ((0,), ("then\0body/1",)), [_arrays(2)], ())),
                         ("iterations", (layer, 0, ((0,), (1,)), [_arrays(2, 3), _arrays(2, 4)], ())),
                         ("iterations", (odd, 1, ((0,), ("then\0body/1",)), [_arrays(2, 6)], ())))
    for frames in [(("5", "a\0b"),), (("5", 2),)]:  # iterations that are not numbers, then numbers again
        values = _arrays(1, 9)
        trace.iteration_started(layer, 0, (0,), values, frames)
        scheme.iteration_started(layer, 0, (0,), values, frames)
    names = trace.keys()
    assert "9\0x/body/0@1:in" in names and f"{layer.path}/body/0@a\0b:in" in names
    assert_same(trace, scheme)


def test_keys_read_while_recording_and_recorded_again() -> None:
    layer = _loop()
    trace, scheme = both(("iterations", (layer, 0, ((0,), (1,)), [_arrays(2)], ())))
    assert_same(trace, scheme)
    for k in (1, 0):  # iteration 0 again: its keys keep their place and take the new tensors
        values = _arrays(2, 10 * k + 5)
        hand_over(trace, layer, k, ((0,), (1,)), [values], ())
        hand_over(scheme, layer, k, ((0,), (1,)), [values], ())
        assert trace.get(f"{layer.path}/body/1@{k}:out") is values[1]  # read by key before keys()
    assert_same(trace, scheme)
    assert float(trace.get(f"{layer.path}/body/0@0:in")[0]) == 5.0


def test_spilled_tensors_are_keyed_in_their_place(tmp_path: Path) -> None:
    layer = _loop()
    records = [_arrays(3, k) for k in range(6)]
    # four iterations fit, then one tensor, then none: the second batch crosses the budget
    calls = [("iterations", (layer, first, ((0, 1), (2,)), records[first:last], ((layer.path, 3),)))
             for first, last in ((0, 2), (2, 6))]
    # (each tensor costs its 8 bytes and its bookkeeping, TENSOR_BYTES)
    trace, scheme = both(*calls, budget=(4 * 3 + 1) * (8 + TENSOR_BYTES))
    assert len(trace.spilled) == 3 * 6 - (3 * 4 + 1)
    assert_same(trace, scheme)
    trace.close()
