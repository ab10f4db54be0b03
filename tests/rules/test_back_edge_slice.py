"""What the CPU plugin computes where BE508 warns (and where it does not), measured on the fixtures: a back
edge that passes on the slice itself (or a view of it) gives its Parameter the slice of its own iteration."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint

ov = pytest.importorskip("openvino")

FIXTURES = Path(__file__).parent / "fixtures" / "BE508"
X = np.repeat(np.array([[1.0], [10.0], [100.0], [1000.0]], np.float32), 2, axis=1)
S0 = np.full((1, 2), -5.0, np.float32)


def _both(path: Path) -> tuple[np.ndarray, np.ndarray]:
    core = ov.Core()
    compiled = core.compile_model(core.read_model(str(path)), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    cpu = np.asarray(compiled({"x": X, "s0": S0})["y"])
    return cpu, np.asarray(irlint.run(irlint.load(path), {"x": X, "s0": S0})["y"])


@pytest.mark.parametrize("name", ["fail.xml", "fail-loop.xml"])
def test_the_cpu_plugin_passes_this_iterations_slice_where_be508_warns(name: str) -> None:
    path = FIXTURES / name
    assert [d.code for d in irlint.check(path)] == ["BE508"]
    cpu, ours = _both(path)
    np.testing.assert_array_equal(ours[:, 0], [-10, 2, 20, 200])  # the spec: 2 * the previous slice
    np.testing.assert_array_equal(cpu[:, 0], [-10, 20, 200, 2000])  # the plugin: 2 * this iteration's slice


@pytest.mark.parametrize("name", ["pass.xml", "pass-loop.xml"])
def test_the_cpu_plugin_agrees_where_be508_is_silent(name: str) -> None:
    path = FIXTURES / name
    assert "BE508" not in {d.code for d in irlint.check(path)}
    cpu, ours = _both(path)
    np.testing.assert_array_equal(ours, cpu)
    np.testing.assert_array_equal(ours[:, 0], [-10, 2, 20, 200])
