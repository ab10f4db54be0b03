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
