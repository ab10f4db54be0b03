"""What the CPU plugin computes where IF813 warns (and where it does not), measured on the fixtures: a u8 If
output of dynamic shape read by an Add whose value a Convert pair u8 -> f16 -> u8 reads; a Convert of the Add to
f32 alone, a Convert pair reading the If itself, a static input shape, or a pair u8 -> i8 -> u8 in the passing
fixtures."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint

ov = pytest.importorskip("openvino")

FIXTURES = Path(__file__).parent / "fixtures" / "IF813"
X = np.array([0, 3, 1], np.uint8)  # sum 4 > 0: the then branch, ReLU(x) = x


def _cpu(path: Path, runs: int = 5) -> list[np.ndarray]:
    core = ov.Core()
    return [np.asarray(core.compile_model(core.read_model(str(path)), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})(
        {"x": X})["y"]) for _ in range(runs)]


def _spec(path: Path) -> np.ndarray:
    return np.asarray(irlint.run(irlint.load(path), {"x": X})["y"])


def test_the_cpu_plugin_reads_memory_the_if_did_not_write_where_if813_warns() -> None:
    path = FIXTURES / "fail.xml"
    assert [d.code for d in irlint.check(path)] == ["IF813"]
    np.testing.assert_array_equal(_spec(path), [0, 6, 2])  # x + x
    assert any(not np.array_equal(got, [0, 6, 2]) for got in _cpu(path))


@pytest.mark.parametrize("name, spec", [("pass.xml", [0.0, 6.0, 2.0]), ("pass-direct.xml", [0, 3, 1]),
                                        ("pass-static.xml", [0, 6, 2]), ("pass-i8.xml", [0, 6, 2])])
def test_the_cpu_plugin_agrees_where_if813_is_silent(name: str, spec: list[float]) -> None:
    path = FIXTURES / name
    assert "IF813" not in {d.code for d in irlint.check(path)}
    np.testing.assert_array_equal(_spec(path), spec)
    for got in _cpu(path):
        np.testing.assert_array_equal(got, spec)
