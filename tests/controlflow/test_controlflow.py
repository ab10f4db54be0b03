"""irlint.controlflow: the plan, the bound, the readings and the output assembly, checked against
the examples and against each other (every consumer reads these, so they are tested on their own)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import irlint
from irlint.controlflow import (
    EntryKind,
    SliceError,
    concat_order,
    core_reference_plan,
    cpu_plugin_plan,
    iteration_bound,
    iteration_of_output_element,
    loop_plan,
    refine_with_body_condition,
    resolve,
    spec_plan,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _loop_layer(name: str):
    model = irlint.load(EXAMPLES / name)
    return next(la for _, la in model.layers() if la.type in ("TensorIterator", "Loop"))


def test_loop_plan_classifies_every_entry_of_the_loop_example() -> None:
    plan = loop_plan(_loop_layer("loop_scan.xml"))
    kinds = {(pe.entry.direction, pe.port, pe.body_layer): pe.kind for pe in plan.entries}
    assert kinds == {
        ("input", 2, 1): EntryKind.MERGED_INPUT,
        ("input", 3, 2): EntryKind.INVARIANT_INPUT,
        ("output", 4, 14): EntryKind.LAST_VALUE_OUTPUT,
        ("output", 5, 16): EntryKind.CONCAT_OUTPUT,
        ("input", -1, 0): EntryKind.CURRENT_ITERATION,
        ("output", -1, 15): EntryKind.CONDITION_OUTPUT,
    }
    merged = plan.of(EntryKind.MERGED_INPUT)[0]
    assert merged.back_edge is not None and plan.back[1] == merged.back_edge.from_layer
    assert plan.current_iteration is not None and plan.current_iteration.body_layer == 0
    assert plan.condition is not None and plan.condition.body_layer == 15
    assert plan.output_for_port(5).kind is EntryKind.CONCAT_OUTPUT


def test_loop_plan_of_the_lstm_ti_has_one_sliced_input_and_is_cached_per_layer() -> None:
    layer = _loop_layer("lstm_ti.xml")
    plan = loop_plan(layer)
    assert not plan.is_loop
    assert [pe.port for pe in plan.sliced_inputs] == [0]
    assert loop_plan(layer) is plan


@pytest.mark.parametrize(("is_loop", "counts", "trip", "first", "want"), [
    (False, [(5, "x")], None, None, (5, 5)),
    (False, [], None, None, (None, None)),
    (True, [], 7, None, (None, 7)),
    (True, [(4, "slices")], 7, None, (None, 4)),
    (True, [], -1, None, (None, None)),  # negative trip count: unbounded
    (True, [], 7, False, (0, 0)),  # the execution condition is false at entry
])
def test_iteration_bound(is_loop, counts, trip, first, want) -> None:
    b = iteration_bound(is_loop, counts, trip, first)
    assert (b.count, b.limit) == want


def test_body_condition_refines_the_bound() -> None:
    b = iteration_bound(True, [], 7, True)
    assert refine_with_body_condition(b, False).count == 1  # do-while: the body runs once
    assert refine_with_body_condition(b, True).count == 7
    assert refine_with_body_condition(b, None) == b
    assert refine_with_body_condition(iteration_bound(True, [], 0, None), False).count is None


def test_a_constant_true_body_condition_counts_the_trip_count_past_the_slices() -> None:
    """OpenVINO's core declares a Loop's concatenated outputs from its trip count (body condition constant
    true) whatever the slices say; the run stops at the slices (its limit), where the CPU plugin fails."""
    b = iteration_bound(True, [(3, "input port 2")], 4, None)
    assert (b.count, b.limit, b.trip) == (None, 3, 4)
    refined = refine_with_body_condition(b, True)
    assert (refined.count, refined.limit) == (4, 3)
    assert "trip count 4" in refined.source
    assert refine_with_body_condition(iteration_bound(True, [(3, "s")], 2, None), True).count == 2
    assert refine_with_body_condition(iteration_bound(True, [(3, "s")], -1, None), True).count == 3
    assert refine_with_body_condition(b, False).count == 1


def test_the_three_readings_agree_on_the_default_and_reverse_forms_only() -> None:
    dim = 6
    fwd = resolve(dim, 0, -1, 1, 1)
    assert spec_plan(fwd) == cpu_plugin_plan(dim, 0, -1, 1, 1) == core_reference_plan(dim, 6, 1) == (0, 6, 1)
    rev = resolve(dim, -1, 0, -1, 1)
    assert spec_plan(rev) == cpu_plugin_plan(dim, -1, 0, -1, 1) == core_reference_plan(dim, 6, -1) == (5, 6, -1)
    sub = resolve(dim, 1, -1, 1, 1)  # elements 1..5 in the spec; the CPU plugin starts at 0
    assert spec_plan(sub) == (1, 5, 1)
    assert cpu_plugin_plan(dim, 1, -1, 1, 1) != spec_plan(sub)
    # the CPU plugin refuses a stride pointing away from end (measured: "Invalid "start","stride","end" values"),
    # also on an axis of 1, where the spec reads start -1, end 0 as the one element
    assert cpu_plugin_plan(1, -1, 0, 1, 1) is None and cpu_plugin_plan(5, 0, -1, -1, 1) is None
    assert cpu_plugin_plan(1, -1, 0, -1, 1) == (0, 1, -1)
    with pytest.raises(SliceError):
        resolve(dim, 0, -1, 0, 1)


@given(dim=st.integers(1, 12), part=st.integers(1, 3), reverse=st.booleans(), data=st.data())
def test_iteration_of_is_the_inverse_of_bounds(dim: int, part: int, reverse: bool, data) -> None:
    start = data.draw(st.integers(0, dim - 1))
    end = data.draw(st.integers(0, dim - 1))
    if reverse:
        start, end = max(start, end), min(start, end)
    else:
        start, end = min(start, end), max(start, end)
    try:
        spec = resolve(dim, start, end, -part if reverse else part, part)
    except SliceError:
        return
    owner = {}
    for k in range(spec.iterations):
        lo, hi = spec.bounds(k)
        for i in range(lo, hi):
            owner[i] = k
    assert {i: spec.iteration_of(i) for i in range(dim) if spec.iteration_of(i) is not None} == owner


@pytest.mark.parametrize("stride", [1, -1])
@pytest.mark.parametrize("part_length", [1, 3])
def test_output_element_maps_to_the_iteration_that_produced_it(stride: int, part_length: int) -> None:
    layer = _loop_layer("lstm_ti.xml")
    pe = next(pe for pe in loop_plan(layer).entries if pe.kind is EntryKind.CONCAT_OUTPUT)
    pe = type(pe)(type(pe.entry)(**{**{f: getattr(pe.entry, f) for f in pe.entry.__dataclass_fields__},
                                    "stride": stride}), pe.kind)
    n = 4
    parts = [np.full(part_length, k) for k in range(n)]
    joined = np.concatenate(concat_order(pe, parts))
    assert [iteration_of_output_element(pe, i, part_length, n) for i in range(len(joined))] == joined.tolist()


def test_compare_names_the_iteration_whose_part_differs() -> None:
    from irlint.comparison.outputs import compare_output, describe_first
    from irlint.comparison.record import Recorder
    from irlint.interp import run

    model = irlint.load(EXAMPLES / "loop_scan.xml")
    inputs = dict(np.load(EXAMPLES / "inputs" / "loop_scan.npz"))
    rec = Recorder()
    outputs = run(model, inputs, listener=rec)
    iterations = rec.top_iterations
    layer = _loop_layer("loop_scan.xml")
    n = iterations[layer.path]
    concat = loop_plan(layer).output_for_port(5)
    name = next(r.name for r in model.graph.results()
                if any(e.to_layer == r.id and e.from_layer == layer.id and e.from_port == 5 for e in model.graph.edges))
    got = outputs[name]
    part = got.shape[concat.entry.axis] // n
    for k in (0, n - 1):
        want = got.copy()
        want[(slice(None),) * concat.entry.axis + (k * part,)] += 1
        out = compare_output(model, name, got, want, 1e-6, 1e-6, iterations)
        text = describe_first(out)
        assert text.endswith(f"in the part of iteration {k} of {layer.describe()}"), text
        assert [r.iteration for r in out["rows"] if r.beyond] == [str(k)]


def test_a_loop_reads_the_whole_axis_as_openvino_does() -> None:
    from irlint.controlflow import cpu_plugin_loop_plan, resolve_loop, sub_range
    from irlint.controlflow.readings import names_sub_range

    sub = resolve_loop(6, 1, 3, 1, 1)  # start/end name 1..3; OpenVINO reads 0..5
    assert (sub.start, sub.end, sub.iterations) == (0, 5, 6) and sub_range(sub) == (1, 3)
    rev = resolve_loop(6, -1, 0, -1, 1)
    assert spec_plan(rev) == cpu_plugin_loop_plan(6, -1, 1) == (5, 6, -1) and sub_range(rev) is None
    rev2 = resolve_loop(6, -1, 0, -2, 2)
    assert spec_plan(rev2) == cpu_plugin_loop_plan(6, -2, 2) == (4, 3, -2)
    assert cpu_plugin_loop_plan(6, 1, 2) is None  # parts of |stride| = 1 into a Parameter of 2
    assert resolve_loop(6, 4, 2, -1, 1).start == 5 and sub_range(resolve_loop(6, 4, 2, -1, 1)) == (4, 2)
    assert names_sub_range(1, None, 1) and names_sub_range(-2, 0, -1) and not names_sub_range(-1, 0, -1)
    assert not names_sub_range(0, 7, 1)  # maybe the whole axis: only the length can tell
