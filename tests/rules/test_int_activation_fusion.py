"""What the CPU plugin does where T219 warns (and where it does not), measured on the fixtures: it fuses a
u8 activation read only by an eltwise op in a body into that op and computes the pair in f32, rounding once."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint
from tests.rules.cpuplugin import cpu_by_result

ov = pytest.importorskip("openvino")

FIXTURES = Path(__file__).parent / "fixtures" / "T219"


def _half_even(x: np.ndarray) -> np.ndarray:
    return np.clip(np.rint(x), 0, 255).astype(np.uint8)


def test_the_cpu_plugin_rounds_m_plus_sigmoid_once_in_a_loop_body() -> None:
    """m + Sigmoid(0): the spec (irlint) gives m; the plugin m + 0.5 rounded half to even (3 -> 4, 4 -> 4, 5 -> 6)."""
    path = FIXTURES / "fail.xml"
    assert [d.code for d in irlint.check(path)] == ["T219"]
    m, a = np.array([3], np.uint8), np.array([0], np.uint8)
    for value in (3, 4, 5):
        m[0] = value
        cpu = cpu_by_result(path, {"m": m, "a": a})["y"]
        ours = irlint.run(irlint.load(path), {"m": m, "a": a})["y"]
        np.testing.assert_array_equal(ours, m)
        np.testing.assert_array_equal(cpu, _half_even(m + 0.5))
    assert cpu_by_result(path, {"m": np.array([3], np.uint8), "a": a})["y"][0] == 4


def test_the_cpu_plugin_fuses_through_an_if_of_constant_condition() -> None:
    """Sigmoid in the taken branch of a constant If, m + its output after the If, in a Loop body: OpenVINO folds
    the If and the plugin fuses the pair as if the If were not there."""
    path = FIXTURES / "fail-folded-if.xml"
    assert [d.code for d in irlint.check(path)] == ["T219"]
    inputs = {"m": np.array([3], np.uint8), "a": np.array([0], np.uint8)}
    assert irlint.run(irlint.load(path), inputs)["y"].tolist() == [3]
    assert cpu_by_result(path, inputs)["y"].tolist() == [4]


def test_the_cpu_plugin_fuses_in_an_if_branch_too() -> None:
    """m * Exp(1) with m = 3 in a then-branch: the spec 3 * 3 = 9, the plugin 3 * 2.718 = 8.15 -> 8."""
    path = FIXTURES / "fail-if.xml"
    assert [d.code for d in irlint.check(path)] == ["T219"]
    inputs = {"m": np.array([3], np.uint8), "a": np.array([1], np.uint8), "c": np.array(True)}
    assert irlint.run(irlint.load(path), inputs)["y"].tolist() == [9]
    assert cpu_by_result(path, inputs)["y"].tolist() == [8]


def test_the_cpu_plugin_rounds_first_where_t219_is_silent() -> None:
    """An i32 pair in a body, the u8 pair at the top level, a Sigmoid read by two ops, m / Sqrt(a) and an If
    of constant condition: the plugin's values are the spec's, which irlint computes."""
    path = FIXTURES / "pass.xml"
    assert "T219" not in {d.code for d in irlint.check(path)}
    for m, a in ((3, 0), (4, 0), (5, 0), (3, 1), (8, 3)):
        inputs = {"m": np.array([m], np.uint8), "a": np.array([a], np.uint8),
                  "mi": np.array([m], np.int32), "ai": np.array([a], np.int32)}
        cpu = cpu_by_result(path, inputs)
        ours = dict(irlint.run(irlint.load(path), inputs))
        assert set(cpu) == set(ours)
        for name, want in cpu.items():
            np.testing.assert_array_equal(ours[name], want, err_msg=f"{name} at m={m}, a={a}")


def test_the_cpu_plugin_fuses_through_reshapes_that_keep_the_shape_only() -> None:
    """m + Reshape(Reshape(Sigmoid(a), [1,1]), [1]): OpenVINO removes the Reshape pair and the plugin fuses
    (3 -> 4); with a Reshape or Unsqueeze to [1,1] on both inputs it rounds the Sigmoid first (3 -> 3)."""
    fail, kept = FIXTURES / "fail-reshapes.xml", FIXTURES / "pass-reshapes.xml"
    assert [d.code for d in irlint.check(fail)] == ["T219"]
    assert "T219" not in {d.code for d in irlint.check(kept)}
    inputs = {"m": np.array([3], np.uint8), "a": np.array([0], np.uint8)}
    assert irlint.run(irlint.load(fail), inputs)["y"].tolist() == [3]
    assert cpu_by_result(fail, inputs)["y"].tolist() == [4]
    cpu, ours = cpu_by_result(kept, inputs), irlint.run(irlint.load(kept), inputs)
    for name in ("y", "y1"):
        np.testing.assert_array_equal(ours[name], cpu[name])
        assert cpu[name].ravel().tolist() == [3]


def test_the_cpu_plugin_rounds_a_chain_of_integer_activations_once() -> None:
    """Sigmoid(Sigmoid(x)) in i32 at the top level and Sqrt(Sigmoid(x)) in i8 in a Loop body: the spec
    (irlint) rounds each step (Sigmoid(0) -> 0, then 0); the plugin computes the chain in f32 and rounds
    once (Sigmoid(0.5) -> 1, Sqrt(Sigmoid(-1)) = Sqrt(0.27) -> 1). An i8 chain at the top level and a
    Sigmoid read also by a Result give the spec's values."""
    x = np.array([-3, -1, 0, 2], np.int32)
    chain = FIXTURES / "fail-chain.xml"
    assert [d.code for d in irlint.check(chain)] == ["T219"]
    assert irlint.run(irlint.load(chain), {"x": x})["y"].tolist() == [0, 0, 0, 1]
    assert cpu_by_result(chain, {"x": x})["y"].tolist() == [1, 1, 1, 1]
    looped = FIXTURES / "fail-chain-loop.xml"
    assert [d.code for d in irlint.check(looped)] == ["T219"]
    x8 = x.astype(np.int8)
    assert irlint.run(irlint.load(looped), {"x": x8})["y"].tolist() == [0, 0, 0, 1]
    assert cpu_by_result(looped, {"x": x8})["y"].tolist() == [0, 1, 1, 1]
    kept = FIXTURES / "pass-chain.xml"
    assert "T219" not in {d.code for d in irlint.check(kept)}
    inputs = {"x": x8, "xi": x}
    cpu, ours = cpu_by_result(kept, inputs), dict(irlint.run(irlint.load(kept), inputs))
    assert set(cpu) == set(ours)
    for name, want in cpu.items():
        np.testing.assert_array_equal(ours[name], want, err_msg=name)


def test_unsigned_chains_are_rounded_once_at_every_level() -> None:
    """u16, u32 and u64 Sigmoid(Sigmoid(x)) at the top level: like i16/i32/i64, the plugin rounds once
    (Sigmoid(0.5) -> 1 from x = 0), the spec twice (Sigmoid(0) -> 0, then 0); T219 names each."""
    path = FIXTURES / "fail-chain-unsigned.xml"
    assert [d.code for d in irlint.check(path)] == ["T219"] * 3
    inputs = {f"x{b}": np.array([0, 1, 2, 3], getattr(np, f"uint{b}")) for b in (16, 32, 64)}
    cpu, ours = cpu_by_result(path, inputs), irlint.run(irlint.load(path), inputs)
    for b in (16, 32, 64):
        assert ours[f"y{b}"].tolist() == [0, 1, 1, 1]
        assert cpu[f"y{b}"].tolist() == [1, 1, 1, 1]
