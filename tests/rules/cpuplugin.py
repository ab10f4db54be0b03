"""The CPU plugin's outputs on a fixture, for the tests that hold a rule's claim against OpenVINO."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def cpu_by_result(path: Path, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The CPU plugin's outputs (f32 inference precision) by the friendly name of their Result: its tensor
    names may be lost to folding."""
    import openvino as ov

    core = ov.Core()
    model = core.read_model(str(path))
    names = [r.get_friendly_name() for r in model.get_results()]
    got = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})(inputs)
    return {name: np.asarray(got[i]) for i, name in enumerate(names)}
