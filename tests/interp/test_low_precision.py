"""Converts through the low-precision types ml_dtypes holds compute what OpenVINO's CPU plugin computes;
one irlint cannot compute (nf4) is the interpreter's error at run time, not a lint finding."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.diagnostics import Severity
from irlint.interp import ExecutionError, run

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

X = np.array([[0.1, -1.7, 3.14159, 250.0], [-0.03, 7.5, -448.0, 1e-3]], np.float32)


def _round_trip(tmp_path: Path, type_name: str) -> Path:
    p = ops.parameter(list(X.shape), np.float32, name="x")
    y = ops.convert(ops.convert(p, getattr(ov.Type, type_name)), ov.Type.f32)
    path = tmp_path / f"{type_name}.xml"
    ov.save_model(ov.Model([ops.result(y, name="y")], [p]), str(path), compress_to_fp16=False)
    return path


@pytest.mark.parametrize("type_name", ["bf16", "f8e4m3", "f8e5m2"])  # (f16: the CPU plugin drops the pair)
def test_convert_round_trip_matches_the_cpu_plugin(type_name: str, tmp_path: Path) -> None:
    path = _round_trip(tmp_path, type_name)
    want = ov.Core().compile_model(str(path), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})([X])[0]
    got = run(irlint.load(path), {"x": X})["y"]
    np.testing.assert_array_equal(got, want)


def test_an_uncomputable_convert_is_a_run_time_error_not_a_finding(tmp_path: Path) -> None:
    path = _round_trip(tmp_path, "nf4")
    assert [d.code for d in irlint.check(path) if d.severity is not Severity.INFO] == []
    with pytest.raises(ExecutionError, match="nf4"):
        run(irlint.load(path), {"x": X})
