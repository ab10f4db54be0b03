"""What the CPU plugin computes where IF810 warns (and where it does not), measured on the fixtures: an If
whose output shape depends on the branch, in a TensorIterator body whose merged input has dynamic dims."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint

ov = pytest.importorskip("openvino")

FIXTURES = Path(__file__).parent / "fixtures" / "IF810"
X, M = np.array([[[3, 1], [3, 0]]], np.int64), np.array([2], np.int64)
SPEC = [[[6, 4], [6, 4]]]  # x + 1 three times (the then branch runs), then at least 2


def _cpu(path: Path) -> list[np.ndarray]:
    core = ov.Core()
    return [np.asarray(core.compile_model(core.read_model(str(path)), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})(
        {"x": X, "m": M})["y"]) for _ in range(3)]


def test_the_cpu_plugin_returns_other_values_where_if810_warns() -> None:
    path = FIXTURES / "fail.xml"
    assert [d.code for d in irlint.check(path)] == ["IF810"]
    np.testing.assert_array_equal(irlint.run(irlint.load(path), {"x": X, "m": M})["y"], SPEC)
    assert any(not np.array_equal(got, SPEC) for got in _cpu(path))


def test_the_cpu_plugin_agrees_with_a_static_merged_input() -> None:
    path = FIXTURES / "pass.xml"
    assert "IF810" not in {d.code for d in irlint.check(path)}
    np.testing.assert_array_equal(irlint.run(irlint.load(path), {"x": X, "m": M})["y"], SPEC)
    for got in _cpu(path):
        np.testing.assert_array_equal(got, SPEC)
