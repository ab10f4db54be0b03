"""What the CPU plugin does where BE507 warns (and where it does not), measured on the fixtures: a back edge's
Add/Multiply whose input 0 is a reshaped slice is computed in that slice's memory, and the next slice
overwrites it before the back edge passes it on."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint
from tests.rules.cpuplugin import cpu_by_result

ov = pytest.importorskip("openvino")

FIXTURES = Path(__file__).parent / "fixtures" / "BE507"


@pytest.mark.parametrize(("name", "dtype", "spec", "cpu"), [
    ("fail", np.float32, [6, 24, 120, 840], [6, 16, 25, 49]),  # m' = x[k] * m; the plugin's m is x[k]
    ("fail-u8-fused", np.uint8, [2, 2, 2, 2], [2, 4, 5, 7]),  # m' = m * Minimum(x[k], 1)
    ("fail-tail", np.float32, [6, 24, 120, 840], [6, 16, 25, 49]),  # Relu(x[k] * m) to [1] and back to []
    ("fail-u8-tail", np.uint8, [2, 2, 2, 2], [2, 4, 5, 7]),  # Relu(m * Minimum(x[k], 1)) to [1] and back
])
def test_the_back_edge_passes_the_next_slice_where_be507_warns(name: str, dtype, spec, cpu) -> None:
    path = FIXTURES / f"{name}.xml"
    assert [d.code for d in irlint.check(path)] == ["BE507"]
    inputs = {"x": np.array([3, 4, 5, 7], dtype), "m0": np.array(2, dtype)}
    assert irlint.run(irlint.load(path), inputs)["y"].tolist() == spec
    assert cpu_by_result(path, inputs)["y"].tolist() == cpu


def test_the_cpu_plugin_computes_the_spec_where_be507_is_silent() -> None:
    """m * Reshape(x[k]), the fused pair in f32, Relu(m) * Minimum(...) in u8, m read by an output too, a
    Subtract, and Reshape(x[k]) * m reshaped to [1] and back to [] (then through a Relu): the plugin's values
    are the spec's, which irlint computes."""
    path = FIXTURES / "pass.xml"
    assert "BE507" not in {d.code for d in irlint.check(path)}
    model = irlint.load(path)
    inputs = {}
    for layer in model.graph.layers:
        if layer.type == "Parameter":
            dtype = np.uint8 if layer.data.get("element_type") == "u8" else np.float32
            inputs[layer.name] = np.array([3, 4, 5, 7], dtype) if layer.name.startswith("x_") else np.array(2, dtype)
    cpu = cpu_by_result(path, inputs)
    ours = dict(irlint.run(model, inputs))
    assert set(cpu) == set(ours) and len(cpu) == 8
    for name, want in cpu.items():
        np.testing.assert_array_equal(ours[name], want, err_msg=name)


@pytest.mark.parametrize(("name", "dtype", "spec", "cpu"), [
    ("fail-state", np.uint8, 10, 16),  # a' = a + s, s' = Convert-pair(s) * Minimum(Reshape(a), 1): s receives a'
    ("fail-state-ti", np.float32, 19, 16),  # a' = a + s + x[k], s' = Reshape(a) * Convert-pair(s), in a TI
])
def test_the_back_edge_passes_the_other_states_value_where_be507_warns(name: str, dtype, spec, cpu) -> None:
    """E written over another state's memory: that state's back edge writes its next value there first, and
    E's Parameter receives it (a doubles: 1 + 3 = 4, then 8, then 16)."""
    path = FIXTURES / f"{name}.xml"
    assert [d.code for d in irlint.check(path)] == ["BE507"]
    key = "u8" if dtype is np.uint8 else "f32"
    inputs = {f"s0_{key}": np.array([3], dtype), f"a0_{key}": np.array(1, dtype)}
    if name.endswith("-ti"):
        inputs[f"x_{key}"] = np.zeros(3, dtype)
    assert irlint.run(irlint.load(path), inputs)[f"a_{key}"].tolist() == spec
    assert cpu_by_result(path, inputs)[f"a_{key}"].tolist() == cpu


def test_the_back_edge_passes_the_other_states_value_to_a_parameter_read_only_by_e() -> None:
    """s' = s * Minimum(Reshape(a), 1) in u8, s read by nothing else, a' = a + x[k]: E is written over a's
    memory and s receives a's next value (1 + 2 = 3, then 3 + 4 = 7) where the spec keeps s at 3."""
    path = FIXTURES / "fail-state-itself.xml"
    assert [d.code for d in irlint.check(path)] == ["BE507"]
    inputs = {"s0_u8": np.array([3], np.uint8), "a0_u8": np.array(1, np.uint8), "x_u8": np.array([2, 4, 0], np.uint8)}
    ours = irlint.run(irlint.load(path), inputs)
    assert (ours["a_u8"].tolist(), ours["s_u8"].tolist()) == (7, [3])
    cpu = cpu_by_result(path, inputs)
    assert (cpu["a_u8"].tolist(), cpu["s_u8"].tolist()) == (7, [7])


def test_the_cpu_plugin_computes_the_spec_over_a_state_where_be507_is_silent() -> None:
    """s's Parameter and Result before a's, a' = a, E's other operand s itself (also read by a' = a + s) or
    Reshape(Reshape(s)), and the fused pair in f32: the plugin's values are the spec's."""
    path = FIXTURES / "pass-state.xml"
    assert "BE507" not in {d.code for d in irlint.check(path)}
    model = irlint.load(path)
    inputs = {}
    for layer in model.graph.layers:
        if layer.type == "Parameter":
            dtype = np.float32 if layer.name.endswith("f32") else np.uint8
            inputs[layer.name] = np.array([3], dtype) if layer.name.startswith("s0_") else np.array(1, dtype)
    cpu = cpu_by_result(path, inputs)
    ours = dict(irlint.run(model, inputs))
    assert set(cpu) == set(ours) and len(cpu) == 5
    for name, want in cpu.items():
        np.testing.assert_array_equal(ours[name], want, err_msg=name)
