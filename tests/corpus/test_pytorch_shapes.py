"""Models shaped as OpenVINO's PyTorch front end writes scripted loops (pytorch_shapes.py): they have the
front end's shapes, lint clean, run as the CPU plugin runs them (f32), step to the same outputs, render
(with a trace too), and `irlint.compare` finds them equal to the CPU plugin, outputs and body layers per
iteration, and to a second conversion of themselves. All in memory: the tests hand irlint the `openvino.Model`.

One disagreement is the CPU plugin's, tested as such: on a Loop whose trip count is a constant INT64_MAX
or INT32_MAX (`while True` ... `break`) with a concatenated output (list append + stack), it allocates the
output for min(trip count, INT32_MAX) iterations before running and fails ("Failed to allocate 51539607528
bytes" for [2, 3] f32 slices); with a trip count of 10^6 or -1 it computes the 5 iterations the break allows.
The allocation is reserved, not touched: on a 23 GB machine 10^9 iterations (24 GB) run, 2*10^9 (48 GB) fail.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import irlint
from irlint.diagnostics import Severity
from irlint.interp.events import RunFinished
from tests.corpus.pytorch_shapes import INT32_MAX, INT64_MAX, PYTORCH_SHAPES, while_break_stack

ov = pytest.importorskip("openvino")

CPU = {"INFERENCE_PRECISION_HINT": "f32"}
# What each model's Loops count with (outer Loop first, depth-first) and the recurrent sequences it holds.
TRIPS = {
    "while_break_stack": ["INT64_MAX"],
    "while_int32_max": ["INT32_MAX"],
    "for_size0_index": ["x.size(0)"],
    "lstm_in_loop": ["x.size(0)"],
    "gru_rnn_in_if": [],
    "lstm_in_if": [],
    "sequences_in_if_in_loop": ["x.size(0)"],
    "loop_in_loop_break": ["x.size(0)", "INT64_MAX"],
    "recurrence": ["x.size(0)"],
}
SEQUENCES = {
    "lstm_in_loop": {"LSTMSequence"},
    "gru_rnn_in_if": {"GRUSequence", "RNNSequence"},
    "sequences_in_if_in_loop": {"GRUSequence", "RNNSequence"},
    "lstm_in_if": {"LSTMSequence", "RNNSequence"},
}
STACKED = set(TRIPS) - {"while_int32_max", "gru_rnn_in_if", "lstm_in_if"}
# The CPU plugin preallocates the concatenated output of these for INT32_MAX iterations (see above).
CPU_PREALLOCATES = {"while_break_stack"}


def nodes(model: Any) -> list[tuple[Any, int]]:
    """Every op of an openvino.Model with its nesting depth, bodies and branches included, depth-first."""
    out = []
    for node in model.get_ordered_ops():
        out.append((node, 0))
        kind = node.get_type_name()
        subs = (
            [node.get_function()]
            if kind == "Loop"
            else ([node.get_then_body(), node.get_else_body()] if kind == "If" else [])
        )
        for sub in subs:
            out += [(n, d + 1) for n, d in nodes(sub)]
    return out


def trip_kind(loop: Any) -> str:
    src = loop.input_value(0).get_node()
    if src.get_type_name() == "Convert":
        src = src.input_value(0).get_node()
    if src.get_type_name() == "Constant":
        value = int(src.get_data())
        return {INT64_MAX: "INT64_MAX", INT32_MAX: "INT32_MAX"}.get(value, str(value))
    if src.get_type_name() == "Gather" and src.input_value(0).get_node().get_type_name() == "ShapeOf":
        return "x.size(0)"
    return src.get_type_name()


@pytest.fixture(params=sorted(PYTORCH_SHAPES))
def shaped(request: pytest.FixtureRequest) -> tuple[str, Any, dict[str, np.ndarray]]:
    model, inputs = PYTORCH_SHAPES[request.param]()
    return request.param, model, inputs


def test_the_models_have_the_front_ends_shapes(shaped: tuple[str, Any, dict[str, np.ndarray]]) -> None:
    name, model, _inputs = shaped
    ops = nodes(model)
    assert not any(n.get_type_name() == "TensorIterator" for n, _d in ops)
    loops = [n for n, _d in ops if n.get_type_name() == "Loop"]
    assert [trip_kind(loop) for loop in loops] == TRIPS[name]
    stacked = 0
    for _g, layer in irlint.load(model).layers():
        if layer.type == "Loop":
            purposes = {e.purpose for e in layer.port_map}
            assert {"current_iteration", "execution_condition"} <= purposes, layer.describe()
            stacked += sum(e.direction == "output" and e.axis is not None for e in layer.port_map)
    assert (stacked > 0) == (name in STACKED)  # torch.stack(ys) of a list appended to in the loop
    in_bodies = {n.get_type_name() for n, d in ops if d > 0}
    assert SEQUENCES.get(name, set()) <= in_bodies
    if name == "sequences_in_if_in_loop":  # two deep: a sequence in an If in a Loop
        assert {n.get_type_name() for n, d in ops if d == 2} >= {"GRUSequence", "RNNSequence"}


def test_they_lint_clean(shaped: tuple[str, Any, dict[str, np.ndarray]]) -> None:
    """Clean but for LP720 where the CPU plugin preallocates (it says why the plugin fails there)."""
    name, model, _inputs = shaped
    found = [d for d in irlint.check(model) if d.severity is not Severity.INFO]
    assert [d.code for d in found] == (["LP720"] if name in CPU_PREALLOCATES else []), [str(d) for d in found]


def cpu_outputs(model: Any, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    names = [r.get_friendly_name() for r in model.get_results()]
    got = ov.Core().compile_model(model, "CPU", CPU)(inputs)
    return {n: np.asarray(got[i]) for i, n in enumerate(names)}


def assert_same(got: dict[str, np.ndarray], want: dict[str, np.ndarray]) -> None:
    assert sorted(got) == sorted(want)
    for k, v in want.items():
        assert got[k].shape == v.shape and got[k].dtype == v.dtype, k
        np.testing.assert_allclose(got[k], v, rtol=1e-5, atol=1e-6, err_msg=k)


def test_they_run_as_the_cpu_plugin_runs_them(shaped: tuple[str, Any, dict[str, np.ndarray]]) -> None:
    name, model, inputs = shaped
    got = irlint.run(model, inputs)
    if name in CPU_PREALLOCATES:  # the same loop with the trip count the CPU plugin can run it with
        model = while_break_stack(trip_count=-1)[0]
    assert_same(got, cpu_outputs(model, inputs))


def test_stepping_ends_with_the_run_s_outputs(shaped: tuple[str, Any, dict[str, np.ndarray]]) -> None:
    _name, model, inputs = shaped
    stepper = irlint.step(model, inputs)
    last = None
    while not stepper.finished:
        last = stepper.next_iteration()
    assert isinstance(last, RunFinished)
    assert_same(dict(last.outputs), irlint.run(model, inputs))


def test_they_render_with_findings_and_with_a_trace(shaped: tuple[str, Any, dict[str, np.ndarray]]) -> None:
    name, model, inputs = shaped
    svg = irlint.render(model).svg
    assert svg.lstrip().startswith("<?xml") and f"openvino.Model &#39;{name}&#39;" in svg
    assert ("LP720" in svg) == (name in CPU_PREALLOCATES)  # the findings drawn where they are
    if TRIPS[name]:
        with irlint.trace(model, inputs) as run:
            at_1 = irlint.render(run, iteration=1).svg
        assert "it 1:" in at_1 and "it 1:" not in svg


def test_they_compare_equal_to_the_cpu_plugin_inside_too(shaped: tuple[str, Any, dict[str, np.ndarray]]) -> None:
    """`irlint.compare(model, inputs, inside=[])`: every output and every body layer per iteration agree,
    the recurrent sequences inside If branches and Loop bodies among them."""
    name, model, inputs = shaped
    if name in CPU_PREALLOCATES:  # compare says why OpenVINO fails, then compares the loop it can run
        refused = irlint.compare(model, inputs)
        assert refused.ok or "Failed to allocate 51539607528 bytes" in refused.report["openvino_error"]
        model = while_break_stack(trip_count=-1)[0]
    result = irlint.compare(model, inputs, inside=[])
    assert result.ok, result.text()
    assert result.report["model"] == f"<openvino.Model {model.get_friendly_name()!r}>"
    assert [o["name"] for o in result.report["outputs"]] == [r.get_friendly_name() for r in model.get_results()]
    compared = result.report["inside"]["compared"]
    assert compared and all(c["verdict"] == "ok" for c in compared)
    if TRIPS[name]:  # a Loop's body layers, one row per iteration
        assert max(len(c["rows"]) for c in compared) > 1
    if name in SEQUENCES:
        assert SEQUENCES[name] & {c["type"] for c in compared}, sorted({c["type"] for c in compared})


def test_two_conversions_compare_layer_by_layer(shaped: tuple[str, Any, dict[str, np.ndarray]]) -> None:
    """Two `openvino.Model`s of one function, as two conversions give: no change, every layer matched."""
    name, model, inputs = shaped
    result = irlint.compare(model, inputs, PYTORCH_SHAPES[name]()[0])
    assert result.ok and result.report["changes"] == [], result.text()
    assert [o["verdict"] for o in result.report["outputs"]] == ["ok"] * len(model.get_results())


def test_compare_names_the_trip_count_a_while_true_differs_by() -> None:
    """`while True` with INT64_MAX against the same loop with -1: the constant is the one change, and the
    outputs agree (the count never stops it, the break does), in irlint and in OpenVINO."""
    model, inputs = while_break_stack()
    result = irlint.compare(model, inputs, while_break_stack(trip_count=-1)[0])
    (change,) = result.report["changes"]
    assert change["kind"] == "const" and change["read_by"] == [f"{loop_name(model)}:0"], change
    assert [o["verdict"] for o in result.report["outputs"]] == ["ok", "ok"], result.text()


def loop_name(model: Any) -> str:
    (loop,) = [n for n, _d in nodes(model) if n.get_type_name() == "Loop"]
    return str(loop.get_friendly_name())


def test_the_cpu_plugin_preallocates_a_constant_int64_max_trip_count() -> None:
    """What CPU_PREALLOCATES says: the plugin fails to allocate the stacked output of a `while True` with
    `break` (a machine with 52 GB to spare would compute it, then it must agree); a large finite constant
    is no problem (it is the allocation, not the count)."""
    model, inputs = while_break_stack()
    try:
        cpu = cpu_outputs(model, inputs)
    except RuntimeError as e:
        assert "Failed to allocate 51539607528 bytes" in str(e)  # INT32_MAX iterations of [2, 3] f32
    else:
        assert_same(irlint.run(model, inputs), cpu)
    large = while_break_stack(trip_count=10**6)[0]
    assert_same(irlint.run(model, inputs), cpu_outputs(large, inputs))


@pytest.mark.parametrize("name", ["gru_rnn_in_if", "lstm_in_if"])
def test_the_other_branch_runs_as_the_cpu_plugin_runs_it(name: str) -> None:
    model, inputs = PYTORCH_SHAPES[name]()
    flipped = dict(inputs)
    if name == "lstm_in_if":
        flipped["use_lstm"] = np.logical_not(inputs["use_lstm"])
    else:
        flipped["x"] = -inputs["x"]  # the sign of x.sum() picks the branch
        assert (inputs["x"].sum() > 0) != (flipped["x"].sum() > 0)
    assert_same(irlint.run(model, flipped), cpu_outputs(model, flipped))
