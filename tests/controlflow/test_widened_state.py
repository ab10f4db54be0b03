"""A Loop's back edge carrying a Result of another rank than its Parameter's initial value, where that
Result is also an output: OpenVINO's core widens the Parameter to a dynamic rank and its CPU plugin
refuses it ("CPU plug-in doesn't support Parameter operation with dynamic rank"); T213 warns. Where the
Result is no output, the Parameter keeps its rank and the model compiles; a TensorIterator never widens."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.api import check
from tests.rules.make_case_fixtures import loop_widened_state

ov = pytest.importorskip("openvino")
CPU = {"INFERENCE_PRECISION_HINT": "f32"}


def _save(model, tmp_path: Path) -> Path:
    path = tmp_path / "m.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    return path


def test_a_widened_state_parameter_is_refused_and_warned_of(tmp_path) -> None:
    path = _save(loop_widened_state(True), tmp_path)
    with pytest.raises(RuntimeError, match="CPU plug-in doesn't support Parameter operation with dynamic rank"):
        ov.Core().compile_model(str(path), "CPU", CPU)
    found = [d for d in check(path) if d.code == "T213"]
    assert len(found) == 1 and "widens the Parameter to a dynamic rank" in found[0].message, found
    assert found[0].severity.name == "WARNING"


def test_a_state_that_is_no_output_keeps_its_rank_and_runs_alike(tmp_path) -> None:
    path = _save(loop_widened_state(False), tmp_path)
    assert "T213" not in {d.code for d in check(path)}
    x = np.float32(1.5)
    cpu = ov.Core().compile_model(str(path), "CPU", CPU)({"x": x})
    ours = irlint.run(irlint.load(path), {"x": x})["y"]
    np.testing.assert_allclose(ours, next(iter(cpu.values())))
    np.testing.assert_allclose(ours, 2 * (x + 2))  # the third iteration's p is x + 2
