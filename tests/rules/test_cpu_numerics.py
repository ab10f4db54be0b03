"""What the CPU plugin computes where T216 warns (and where it does not), measured on the fixtures:
a Convert to f16 of a computed f32 value is not rounded by the plugin; of a constant, it is."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint

ov = pytest.importorskip("openvino")

FIXTURES = Path(__file__).parent / "fixtures"
# values f16 rounds: 1.0001 -> 1.0, 3.14159 -> 3.140625, 1000.1234 -> 1000.0, 70000.5 -> inf
X = np.array([1.0001, 3.14159, 1000.1234, 70000.5], np.float32)


def _cpu(path: Path, x: np.ndarray) -> dict[str, np.ndarray]:
    core = ov.Core()
    compiled = core.compile_model(core.read_model(str(path)), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    return {k.get_any_name(): np.asarray(v) for k, v in compiled([x]).items()}


def _irlint(path: Path, x: np.ndarray) -> dict[str, np.ndarray]:
    return dict(irlint.run(irlint.load(path), {"x": x}))


@pytest.mark.parametrize("name", ["T216/fail.xml", "T216/fail-through-op.xml"])
def test_the_cpu_plugin_does_not_round_where_t216_warns(name: str) -> None:
    path = FIXTURES / name
    assert [d.code for d in irlint.check(path)] == ["T216"]
    np.testing.assert_array_equal(_cpu(path, X)["y"], X)  # not rounded: 70000.5 stays finite
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(_irlint(path, X)["y"], X.astype(np.float16).astype(np.float32))


def test_the_cpu_plugin_rounds_round_trips_t216_leaves() -> None:
    """A constant's round trip is folded (and rounded), a bf16 one and an f16 output are rounded."""
    path = FIXTURES / "T216/pass.xml"
    assert "T216" not in {d.code for d in irlint.check(path)}
    cpu, ours = _cpu(path, X), _irlint(path, X)
    assert set(cpu) == set(ours) == {"y", "half"}
    for name in cpu:
        np.testing.assert_array_equal(cpu[name].astype(np.float64), ours[name].astype(np.float64))


# f16 inputs whose squares f16 rounds and whose sum (72660.945 in f32) leaves f16's range (inf in the spec)
H = np.array([1.001, 3.14, 100.1, 250.2], np.float16)


def test_the_cpu_plugin_computes_f16_ops_in_f32_where_t216_warns() -> None:
    path = FIXTURES / "T216/fail-computed.xml"
    assert [d.code for d in irlint.check(path)] == ["T216"]
    w = np.array([0.5, 1.5, 2.5, 3.5], np.float32)
    h = H.astype(np.float32)
    np.testing.assert_allclose(_cpu(path, H)["y"], (h * h).sum() + w, rtol=1e-6)  # in f32: finite
    with np.errstate(over="ignore"):
        spec = (H * H).sum(dtype=np.float16).astype(np.float32) + w
    np.testing.assert_array_equal(_irlint(path, H)["y"], spec)
    assert np.isinf(spec).all()


def test_f16_values_only_moved_or_leaving_as_f16_agree() -> None:
    """A decompressed f16 Const, f16 values moved by Relu/Reshape, a computed f16 output: no T216, same values."""
    path = FIXTURES / "T216/pass-moved.xml"
    assert "T216" not in {d.code for d in irlint.check(path)}
    x = np.array([1.001, -3.14, 100.1, 2.2], np.float16)
    cpu, ours = _cpu(path, x), _irlint(path, x)
    assert set(cpu) == set(ours) == {"y", "half"}
    for name in cpu:
        np.testing.assert_array_equal(cpu[name].astype(np.float64), ours[name].astype(np.float64))


def _inputs(path: Path, x: np.ndarray) -> dict[str, np.ndarray]:
    return {"x": x, "c": np.array(True)} if "if" in path.name else {"x": x}


@pytest.mark.parametrize("name", ["T216/fail-into-loop.xml", "T216/fail-into-if.xml", "T216/fail-out-of-loop.xml",
                                  "T216/fail-back-edge.xml"])
def test_the_cpu_plugin_does_not_round_across_body_boundaries(name: str) -> None:
    """f16 rounded outside a body and read as f32 inside (or the reverse, or through a back edge): the CPU
    plugin computes the whole model in f32, so no boundary rounds either."""
    path = FIXTURES / name
    assert [d.code for d in irlint.check(path)] == ["T216"]
    core = ov.Core()
    compiled = core.compile_model(core.read_model(str(path)), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    ins = _inputs(path, X)
    np.testing.assert_array_equal(np.asarray(compiled([ins[p.get_any_name()] for p in compiled.inputs])[0]), X)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(irlint.run(irlint.load(path), ins)["y"], X.astype(np.float16).astype(np.float32))


def test_an_f16_body_value_leaving_the_model_is_rounded() -> None:
    path = FIXTURES / "T216/pass-f16-output.xml"
    assert "T216" not in {d.code for d in irlint.check(path)}
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(_cpu(path, X)["y"].astype(np.float32), X.astype(np.float16).astype(np.float32))
        np.testing.assert_array_equal(_irlint(path, X)["y"], X.astype(np.float16))


def test_an_f16_op_after_a_loop_is_computed_in_f32_on_the_cpu_plugin() -> None:
    """The body's Convert to f16 carries the finding; the Add after the Loop adds the rounded value in f16 in
    the spec (inf for 70000.5), in f32 on the CPU plugin."""
    path = FIXTURES / "T216/fail-op-after.xml"
    assert [d.code for d in irlint.check(path)] == ["T216"]
    np.testing.assert_array_equal(_cpu(path, X)["y"], X + X)
    with np.errstate(over="ignore"):
        half = X.astype(np.float16)
        np.testing.assert_array_equal(_irlint(path, X)["y"], (half + half).astype(np.float32))


def test_an_f16_op_fed_back_to_itself_is_computed_in_f32_on_the_cpu_plugin() -> None:
    """A Tanh in a Loop body fed back to its own input and read as f32 in the next iteration: T216 warns on
    the Tanh; the CPU plugin gives tanh in f32, the spec tanh rounded to f16."""
    path = FIXTURES / "T216/fail-fed-back-op.xml"
    assert [(d.code, d.loc.line) for d in irlint.check(path)] == [("T216", _line_of(path, 'type="Tanh"'))]
    x = X.astype(np.float16)
    np.testing.assert_allclose(_cpu(path, x)["y"], np.tanh(x.astype(np.float32)), rtol=1e-6)
    np.testing.assert_array_equal(_irlint(path, x)["y"], np.tanh(x).astype(np.float32))
    assert not np.array_equal(np.tanh(x).astype(np.float32), np.tanh(x.astype(np.float32)))


def test_an_f16_chain_fed_back_is_computed_in_f32_on_the_cpu_plugin() -> None:
    """Two Tanh in a row fed back: each one's input is rounded in some iteration, the first reads x unrounded
    in the first one and carries the finding; the plugin computes both in f32."""
    path = FIXTURES / "T216/fail-fed-back-chain.xml"
    assert [(d.code, d.loc.line) for d in irlint.check(path)] == [("T216", _line_of(path, 'name="first"'))]
    x = X.astype(np.float16)
    np.testing.assert_allclose(_cpu(path, x)["y"], np.tanh(np.tanh(x.astype(np.float32))), rtol=1e-6)
    np.testing.assert_array_equal(_irlint(path, x)["y"], np.tanh(np.tanh(x)).astype(np.float32))


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, text in enumerate(path.read_text().splitlines(), 1) if needle in text)
