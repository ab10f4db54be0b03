"""What the CPU plugin computes where IF811 warns (and where it does not), measured on the fixtures: an If's
value added to a TensorIterator state of dynamic dims, which then passes a Convert to f32 and back."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint

ov = pytest.importorskip("openvino")

FIXTURES = Path(__file__).parent / "fixtures" / "IF811"
X, S = np.array([[[1, 2], [0, 3]]], np.int64), np.arange(6, dtype=np.int64).reshape(1, 2, 3)
SPEC = S + 17  # slice [2, 3]: sum 5 > 2.5, then branch, 15; slice [1, 0]: sum 1, else branch, 2


def _cpu(path: Path) -> list[np.ndarray]:
    core = ov.Core()
    return [np.asarray(core.compile_model(core.read_model(str(path)), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})(
        {"x": X, "s": S})["y"]) for _ in range(3)]


def test_the_cpu_plugin_loses_the_state_where_if811_warns() -> None:
    path = FIXTURES / "fail.xml"
    assert [d.code for d in irlint.check(path)] == ["IF811"]
    np.testing.assert_array_equal(irlint.run(irlint.load(path), {"x": X, "s": S})["y"], SPEC)
    assert all(not np.array_equal(got, SPEC) for got in _cpu(path))


def test_the_cpu_plugin_agrees_with_a_static_state() -> None:
    path = FIXTURES / "pass.xml"
    assert "IF811" not in {d.code for d in irlint.check(path)}
    np.testing.assert_array_equal(irlint.run(irlint.load(path), {"x": X, "s": S})["y"], SPEC)
    for got in _cpu(path):
        np.testing.assert_array_equal(got, SPEC)
