"""What the CPU plugin computes where IF811 warns (and where it does not), measured on the fixtures: an If's
value added to a TensorIterator state of dynamic dims, which then passes a Convert to f32 and back; and an If's
value added to a Loop state of dynamic dims by Adds alone, the Loop having another computed output and only a
ReLU reading the state's output."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint

ov = pytest.importorskip("openvino")

FIXTURES = Path(__file__).parent / "fixtures" / "IF811"
X, S = np.array([[[1, 2], [0, 3]]], np.int64), np.arange(6, dtype=np.int64).reshape(1, 2, 3)
SPEC = S + 17  # slice [2, 3]: sum 5 > 2.5, then branch, 15; slice [1, 0]: sum 1, else branch, 2


def _cpu(path: Path, feeds: dict[str, np.ndarray] | None = None) -> list[np.ndarray]:
    """y from three compilations of the file (the plugin's departure need not repeat in each)."""
    core = ov.Core()
    return [np.asarray(core.compile_model(core.read_model(str(path)), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})(
        feeds or {"x": X, "s": S})["y"]) for _ in range(3)]


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


XO = np.array([[[2.623, 2.458], [1.929, 3.766]]], np.float32)


def _spec_output(x: np.ndarray) -> np.ndarray:
    """The state after the fixture Loop's 4 iterations, then ReLU, computed here without irlint."""
    rs = x.sum(2, keepdims=True)
    slices = np.concatenate([rs] * 4, 2) + np.array([0, 1, 2, 3, 4, 0, 1, 2], np.float32).reshape(1, 2, 4)
    p = x.astype(np.float64)
    for i in range(4):
        s = slices[:, :, i:i + 1].astype(np.float64)
        v = s * -0.728 if s.sum() > 0 else 1 / (1 + np.exp(-np.tanh(s)))
        p = p + v.sum() + s.sum()
    return np.maximum(p, 0)


def test_the_cpu_plugin_loses_the_state_where_another_output_is_computed() -> None:
    """IF811 (b): the state's path is only Add, but the loop has another computed output and ReLU reads the state."""
    path = FIXTURES / "fail-output.xml"
    assert [d.code for d in irlint.check(path)] == ["IF811"]
    spec = _spec_output(XO)
    np.testing.assert_allclose(irlint.run(irlint.load(path), {"x": XO})["y"], spec, rtol=1e-5)
    assert any(not np.allclose(got, spec, rtol=1e-4) for got in _cpu(path, {"x": XO}))


def test_the_cpu_plugin_agrees_where_a_result_reads_the_state() -> None:
    path = FIXTURES / "pass-output.xml"
    assert "IF811" not in {d.code for d in irlint.check(path)}
    spec = _spec_output(XO)
    np.testing.assert_allclose(irlint.run(irlint.load(path), {"x": XO})["y"], spec, rtol=1e-5)
    for got in _cpu(path, {"x": XO}):
        np.testing.assert_allclose(got, spec, rtol=1e-4)


XU, SU = np.array([0, 0, 3, 3], np.uint8).reshape(1, 1, 4), np.array([1, 0, 1, 3], np.uint8).reshape(1, 1, 4)
SPEC_U8 = XU + np.array([2, 2, 6, 0], np.uint8).reshape(1, 1, 4)  # sum(x) = 6 > 0: the then branch, c + c


def test_the_cpu_plugin_loses_a_u8_state_through_a_convert_pair() -> None:
    """IF811 (a): a u8 state widened to dynamic dims takes an If's value, then Convert to i64 and back to u8."""
    path = FIXTURES / "fail-u8.xml"
    # the If's u8 output, read by the Add the Convert pair reads, is IF813's structure as well
    assert sorted(d.code for d in irlint.check(path)) == ["IF811", "IF813"]
    np.testing.assert_array_equal(irlint.run(irlint.load(path), {"x": XU, "s": SU})["y"], SPEC_U8)
    assert any(not np.array_equal(got, SPEC_U8) for got in _cpu(path, {"x": XU, "s": SU}))


def test_the_cpu_plugin_agrees_on_a_u8_state_without_the_convert_pair() -> None:
    path = FIXTURES / "pass-u8.xml"
    assert "IF811" not in {d.code for d in irlint.check(path)}
    np.testing.assert_array_equal(irlint.run(irlint.load(path), {"x": XU, "s": SU})["y"], SPEC_U8)
    for got in _cpu(path, {"x": XU, "s": SU}):
        np.testing.assert_array_equal(got, SPEC_U8)
