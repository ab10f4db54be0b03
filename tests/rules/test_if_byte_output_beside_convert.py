"""What the CPU plugin computes where IF813 warns (and where it does not), measured on the fixtures: a u8 If
output of dynamic shape read by an op, in a model holding a Convert the plugin rewrites (to i64 or f16) or a
Convert pair back to u8; the neighbours convert to i32 or f32, or the If's shape is static."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint

ov = pytest.importorskip("openvino")

FIXTURES = Path(__file__).parent / "fixtures" / "IF813"
CPU = {"INFERENCE_PRECISION_HINT": "f32"}
U8 = np.uint8
C = {"c": np.float32(1)}
# fixture -> (inputs, the output the If's reader gives, the spec's value of it)
CASES: dict[str, tuple[dict[str, np.ndarray], str, list[float]]] = {
    "fail.xml": ({"x": np.array([3, 1], U8), "w": np.array([5, 7], U8), **C}, "y", [9, 3]),
    "pass.xml": ({"x": np.array([3, 1], U8), "w": np.array([5, 7], U8), **C}, "y", [9, 3]),
    "fail-pair.xml": ({"x": np.array([0, 3, 1], U8)}, "y", [0, 6, 2]),
    "pass-f32.xml": ({"x": np.array([0, 3, 1], U8)}, "y", [0.0, 6.0, 2.0]),
    "pass-direct.xml": ({"x": np.array([0, 3, 1], U8)}, "y", [0, 3, 1]),
    "pass-static.xml": ({"x": np.array([0, 3, 1], U8)}, "y", [0, 6, 2]),
    "pass-i8.xml": ({"x": np.array([0, 3, 1], U8)}, "y", [0, 6, 2]),
    "fail-loop-branch.xml": ({"x": np.array([3], U8)}, "y", [6]),
    "fail-ti-branch.xml": ({"x": np.array([3], U8)}, "y", [6]),
    "pass-loop-branch.xml": ({"x": np.array([3], U8)}, "y", [6]),
    # q = 2 + (2 + 2) at iteration 0 (else), then 6 + (6 + 2 + 2 + 2)
    "fail-loop-body.xml": ({"x": np.array([2], U8), "trip": np.array([2], np.int32)}, "y", [6, 18]),
    "pass-loop-body.xml": ({"x": np.array([2], U8), "trip": np.array([2], np.int32)}, "y", [6, 18]),
}


def _cpu(path: Path, inputs: dict[str, np.ndarray], output: str, runs: int = 5) -> list[np.ndarray]:
    core = ov.Core()
    model = core.read_model(str(path))
    return [np.asarray(core.compile_model(model, "CPU", CPU)(inputs)[output]) for _ in range(runs)]


def test_every_fixture_has_a_case() -> None:
    assert sorted(p.name for p in FIXTURES.glob("*.xml")) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(n for n in CASES if n.startswith("fail")))
def test_the_cpu_plugin_reads_memory_the_if_did_not_write_where_if813_warns(name: str) -> None:
    path = FIXTURES / name
    inputs, output, spec = CASES[name]
    assert [d.code for d in irlint.check(path)] == ["IF813"]
    np.testing.assert_array_equal(irlint.run(irlint.load(path), inputs)[output].ravel(), spec)
    assert any(not np.array_equal(got.ravel(), spec) for got in _cpu(path, inputs, output))


@pytest.mark.parametrize("name", sorted(n for n in CASES if n.startswith("pass")))
def test_the_cpu_plugin_agrees_where_if813_is_silent(name: str) -> None:
    path = FIXTURES / name
    inputs, output, spec = CASES[name]
    assert "IF813" not in {d.code for d in irlint.check(path)}
    np.testing.assert_array_equal(irlint.run(irlint.load(path), inputs)[output].ravel(), spec)
    for got in _cpu(path, inputs, output):
        np.testing.assert_array_equal(got.ravel(), spec)


def test_the_plugin_computes_the_spec_once_the_shape_stays() -> None:
    """The mechanism's trigger is a new shape: on one infer request, a second inference of the same shape
    gives the spec's value, a new shape does not (on some compilation of five)."""
    path = FIXTURES / "fail.xml"
    core = ov.Core()
    model = core.read_model(str(path))
    new_shape_wrong = False
    for _ in range(5):
        request = core.compile_model(model, "CPU", CPU).create_infer_request()
        for x in (np.array([3, 1], U8), np.array([1, 2, 3], U8)):
            first = np.asarray(request.infer({"x": x, "w": x, **C})["y"]).copy()
            again = np.asarray(request.infer({"x": x, "w": x, **C})["y"])
            np.testing.assert_array_equal(again, 3 * x)
            new_shape_wrong |= not np.array_equal(first, 3 * x)
    assert new_shape_wrong
