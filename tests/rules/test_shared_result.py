"""PM415's fixtures against OpenVINO 2026.4's CPU plugin: two outputs giving one body Result, one of them
unread. OpenVINO removes the Result with the unread output and the read one names the next Result kept
(or none: the compile fails), while irlint computes both from the shared Result."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.diagnostics import Severity
from irlint.interp import run

ov = pytest.importorskip("openvino")
FIXTURES = Path(__file__).parent / "fixtures" / "PM415"
CPU = {"INFERENCE_PRECISION_HINT": "f32"}
X = np.arange(12, dtype=np.float32).reshape(4, 3) - 5


def cpu(name: str) -> list[np.ndarray]:
    core = ov.Core()
    compiled = core.compile_model(core.read_model(str(FIXTURES / name)), "CPU", CPU)
    return [np.asarray(v) for v in compiled([X]).values()]


def warnings_of(name: str) -> list[str]:
    return sorted(d.code for d in irlint.check(FIXTURES / name) if d.severity is Severity.WARNING)


def test_no_result_after_the_shared_one_fails_the_compile() -> None:
    core = ov.Core()
    model = core.read_model(str(FIXTURES / "fail.xml"))
    with pytest.raises(Exception, match=r"vector::_M_range_check: __n \(which is 1\) >= this->size\(\) \(which is 1\)"):
        core.compile_model(model, "CPU", CPU)
    assert warnings_of("fail.xml") == ["PM409", "PM415"]


def test_the_read_output_takes_the_next_result() -> None:
    got = cpu("fail-next.xml")
    np.testing.assert_array_equal(got[0], X + 1)  # Result a, which no entry names
    np.testing.assert_array_equal(run(irlint.load(FIXTURES / "fail-next.xml"), {"x": X})["y0"], np.maximum(X, 0))
    assert warnings_of("fail-next.xml") == ["PM409", "PM415"]


def test_a_loop_output_takes_the_execution_condition() -> None:
    got = cpu("fail-loop.xml")
    assert got[0].dtype == np.bool_ and got[0].tolist() == [True] * 4
    assert "gives body layer" in next(d.message for d in irlint.check(FIXTURES / "fail-loop.xml") if d.code == "PM415")


def test_both_outputs_read_compute_the_shared_result() -> None:
    got = cpu("pass.xml")
    out = run(irlint.load(FIXTURES / "pass.xml"), {"x": X})
    for i in range(2):
        np.testing.assert_array_equal(got[i], np.maximum(X, 0))
        np.testing.assert_array_equal(out[f"y{i}"], np.maximum(X, 0))
    assert warnings_of("pass.xml") == []
