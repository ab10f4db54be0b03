"""What the CPU plugin does where T218 warns (and where it does not), measured on the fixtures: it fuses
x * Sigmoid(x * b) into a Swish and refuses a beta b of shape [1] that is not constant."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint

ov = pytest.importorskip("openvino")

FIXTURES = Path(__file__).parent / "fixtures" / "T218"


def _compile(path: Path):
    core = ov.Core()
    return core.compile_model(core.read_model(str(path)), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})


def test_the_cpu_plugin_refuses_the_fused_swish_where_t218_warns() -> None:
    path = FIXTURES / "fail.xml"
    assert [d.code for d in irlint.check(path)] == ["T218"]
    with pytest.raises(Exception, match="Swish input with beta must be scalar"):
        _compile(path)
    x, b = np.array([[-1.0, 0.5, 2.0]], np.float32), np.array([0.7], np.float32)
    y = irlint.run(irlint.load(path), {"x": x, "b": b})["y"]
    np.testing.assert_allclose(y, x / (1 + np.exp(-x * b)), rtol=1e-6)


def test_the_cpu_plugin_compiles_the_orders_and_betas_t218_leaves() -> None:
    """b * x inside with Sigmoid * x outside, a [1] Const beta, a scalar beta: compiled, same values."""
    path = FIXTURES / "pass.xml"
    assert "T218" not in {d.code for d in irlint.check(path)}
    inputs = {"x": np.array([[-1.0, 0.5, 2.0]], np.float32), "b": np.array([0.7], np.float32),
              "s": np.array(1.5, np.float32)}
    got = {k.get_any_name(): np.asarray(v) for k, v in _compile(path)(inputs).items()}
    ours = dict(irlint.run(irlint.load(path), inputs))
    assert set(got) == set(ours) == {"y", "z", "w"}
    for name in got:
        np.testing.assert_allclose(got[name], ours[name], rtol=1e-6)
