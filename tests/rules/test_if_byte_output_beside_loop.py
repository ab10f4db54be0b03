"""What the CPU plugin computes where IF812 warns (and where it does not), measured on the fixtures: a u8 If
output of dynamic shape read by an Add, the If's other branch holding a Loop (or a TensorIterator), beside a
Convert of the u8 input to f16 (to f32 in the passing fixture)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint

ov = pytest.importorskip("openvino")

FIXTURES = Path(__file__).parent / "fixtures" / "IF812"
X = np.array([3], np.uint8)
SPEC = np.array([6], np.uint8)  # 3 > 0: the then branch, ReLU(3) = 3, added to x


def _cpu(path: Path) -> list[np.ndarray]:
    core = ov.Core()
    return [np.asarray(core.compile_model(core.read_model(str(path)), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})(
        {"x": X})["y"]) for _ in range(5)]


@pytest.mark.parametrize("name", ["fail.xml", "fail-ti.xml"])
def test_the_cpu_plugin_reads_memory_the_if_did_not_write_where_if812_warns(name: str) -> None:
    path = FIXTURES / name
    assert [d.code for d in irlint.check(path)] == ["IF812"]
    np.testing.assert_array_equal(irlint.run(irlint.load(path), {"x": X})["y"], SPEC)
    assert any(not np.array_equal(got, SPEC) for got in _cpu(path))


def test_the_cpu_plugin_agrees_beside_a_convert_to_f32() -> None:
    path = FIXTURES / "pass.xml"
    assert "IF812" not in {d.code for d in irlint.check(path)}
    np.testing.assert_array_equal(irlint.run(irlint.load(path), {"x": X})["y"], SPEC)
    for got in _cpu(path):
        np.testing.assert_array_equal(got, SPEC)
