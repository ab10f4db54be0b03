"""Stepper (breakpoints, step into/over/out order) and traces (consistency with the run's outputs)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.interp import execute, run
from irlint.interp.events import BodyEntered, IterationFinished, IterationStarted, LayerEvaluated, RunFinished
from irlint.interp.stepper import Breakpoint, Stepper
from irlint.interp.trace import MARK_BYTES, Trace, key, load_trace
from irlint.interp.tracespill import SERIES_BYTES

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def lstm():
    model = irlint.load(EXAMPLES / "lstm_ti.xml")
    return model, dict(np.load(EXAMPLES / "inputs" / "lstm_ti.npz"))


def test_event_order_for_a_tensor_iterator() -> None:
    model, inputs = lstm()
    kinds = [type(e).__name__ for e in execute(model, inputs)]
    first_enter = kinds.index("BodyEntered")
    assert kinds[first_enter + 1] == "IterationStarted"
    assert kinds.count("IterationStarted") == kinds.count("IterationFinished") == 5
    left = kinds.index("BodyLeft")
    assert kinds[left + 1] == "LayerEvaluated" and kinds[-1] == "RunFinished"


def test_breakpoint_on_layer_and_iteration() -> None:
    model, inputs = lstm()
    st = Stepper(execute(model, inputs), [Breakpoint(iteration=3)])
    ev = st.continue_()
    assert isinstance(ev, IterationStarted) and ev.iteration == 3 and st.stopped_by is not None
    st.breakpoints = [Breakpoint(layer="LSTMCell_16")]
    ev = st.continue_()
    assert isinstance(ev, LayerEvaluated) and ev.layer.type == "LSTMCell" and ev.frames[-1][1] == 3


def test_step_into_over_out_and_next_iteration() -> None:
    model, inputs = lstm()
    st = Stepper(execute(model, inputs))
    # step over at top level: a TI runs to completion and comes back as one LayerEvaluated
    seen = []
    while (ev := st.step_over()) is not None and not isinstance(ev, RunFinished):
        seen.append(ev.layer.type)
    assert "TensorIterator" in seen and "LSTMCell" not in seen
    st = Stepper(execute(model, inputs))
    ev = st.step()
    while not isinstance(ev, BodyEntered):
        ev = st.step()
    ev = st.step_into()
    assert isinstance(ev, IterationStarted) and ev.iteration == 0
    ev = st.next_iteration()
    assert isinstance(ev, IterationStarted) and ev.iteration == 1
    ev = st.step_out()
    assert isinstance(ev, LayerEvaluated) and ev.layer.type == "TensorIterator" and ev.frames == ()
    assert ev.outputs[0].shape[1] == 5  # all five iterations ran before the TensorIterator was left


def test_the_stepper_keeps_no_past_iterations() -> None:
    # A debugger records what it shows within its budget; the stepper itself holds only the current
    # event, so iteration 0's results are freed once the run has moved on.
    import gc
    import weakref

    model, inputs = lstm()
    st = Stepper(execute(model, inputs))
    ev = st.step()
    while not isinstance(ev, IterationFinished):
        ev = st.step()
    first = weakref.ref(next(iter(ev.results.values())))
    del ev
    st.continue_()
    gc.collect()
    assert st.finished and first() is None


def test_tensor_condition_breakpoint() -> None:
    model, inputs = lstm()
    inputs["X"] = inputs["X"].copy()
    inputs["X"][0, 2, 0] = np.nan
    st = Stepper(execute(model, inputs), [Breakpoint(nonfinite=True)])
    ev = st.continue_()
    assert ev is not None and ev.frames and ev.frames[-1][1] == 2
    st2 = Stepper(execute(*lstm()), [Breakpoint(bound=1e9)])
    assert isinstance(st2.continue_(), RunFinished)


def test_trace_reproduces_outputs(tmp_path: Path) -> None:
    model, inputs = lstm()
    trace = Trace()
    outputs = {}
    for ev in trace.observe(execute(model, inputs)):
        if isinstance(ev, RunFinished):
            outputs = ev.outputs
    ti = next(la for la in model.graph.layers if la.type == "TensorIterator")
    y_entry = next(e for e in ti.port_map if e.direction == "output" and e.sliced)
    steps = [trace.get(key(f"{ti.path}/body/{y_entry.internal_layer_id}", ((ti.path, k),), "out")) for k in range(5)]
    np.testing.assert_array_equal(np.concatenate(steps, axis=1), outputs["Y"])
    h_entry = next(e for e in ti.port_map if e.direction == "output" and not e.sliced
                   and ti.output(e.external_port_id).names == ("H",))
    np.testing.assert_array_equal(trace.get(key(f"{ti.path}/body/{h_entry.internal_layer_id}", ((ti.path, 4),), "out")),
                                  outputs["H"])
    path = tmp_path / "t.npz"
    trace.save(path)
    values, info = load_trace(path)
    assert set(values) == set(info) and info[next(iter(info))]["dtype"] == "float32"


def test_trace_spills_past_its_budget(tmp_path: Path) -> None:
    model, inputs = lstm()
    trace = Trace(budget=200)
    outs = run(model, inputs)
    for _ev in trace.observe(execute(model, inputs)):
        pass
    # past the budget only by what spilling keeps in memory: an object per series and a log entry per run
    marks = sum(1 for e in trace._log if len(e) == 2 and e[1].__class__ is list)
    assert trace.spilled and trace.in_memory <= 200 + len(trace._store.series) * SERIES_BYTES + marks * MARK_BYTES
    path = tmp_path / "t.npz"
    trace.save(path)
    trace.close()
    values, info = load_trace(path)
    assert len(values) == len(info) > len(trace.values)
    assert outs["Y"].shape == (1, 5, 4)


@pytest.mark.parametrize("bad", [Breakpoint(layer="nope")])
def test_breakpoint_never_hit_runs_to_end(bad: Breakpoint) -> None:
    st = Stepper(execute(*lstm()), [bad])
    assert isinstance(st.continue_(), RunFinished) and st.finished
    assert st.step() is None
