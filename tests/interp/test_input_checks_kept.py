"""A Parameter's declaration is read once per layer (irlint.interp.executor._DECLARED), and every run
still checks its input against it: a later run with another shape or type is refused as the first
would be."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.interp import ExecutionError, run

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")


def test_every_run_checks_its_inputs_against_the_kept_declaration(tmp_path: Path) -> None:
    x = ops.parameter([2, 3], ov.Type.f32, name="x")
    d = ops.parameter([-1, 3], ov.Type.f32, name="d")  # a dynamic dim: the dims decide
    ov.save_model(
        ov.Model([ops.result(ops.relu(x), name="y"), ops.result(ops.relu(d), name="z")], [x, d]),
        str(tmp_path / "m.xml"),
    )
    model = irlint.load(tmp_path / "m.xml")
    ok = {"x": np.ones((2, 3), np.float32), "d": np.ones((5, 3), np.float32)}
    for _ in range(2):
        assert run(model, ok)["y"].shape == (2, 3)
    for bad, why in (
        ({**ok, "x": np.ones((3, 2), np.float32)}, "shape"),
        ({**ok, "x": np.ones((2, 3), np.float64)}, "float64"),
        ({**ok, "d": np.ones((5, 4), np.float32)}, "shape"),
    ):
        with pytest.raises(ExecutionError, match=why):
            run(model, bad)
    assert run(model, {**ok, "d": np.ones((1, 3), np.float32)})["z"].shape == (1, 3)
