"""A sliced input of dynamic length with stride 0 or part_size -1 (SL603's fixtures), run by
OpenVINO 2026.4's CPU plugin in a child process: a TensorIterator is refused at inference, a Loop
kills the process (SIGFPE: the plugin divides the axis by the stride), part_size -1 runs in parts of
|stride|; with stride 1 both run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.diagnostics import Severity
from irlint.interp import run

ov = pytest.importorskip("openvino")
FIXTURES = Path(__file__).parent / "fixtures" / "SL603"

CHILD = """
import sys, numpy as np, openvino as ov
core = ov.Core()
model = core.read_model(sys.argv[1])
inputs = [np.ones((4, 2), np.float32)] + ([np.int64(3)] if len(model.inputs) > 1 else [])
try:
    out = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})(inputs)
    print("ran", [np.asarray(v).tolist() for v in out.values()])
except Exception as e:
    print(str(e))
"""


def cpu_run(name: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", CHILD, str(FIXTURES / name)], capture_output=True, text=True,
                          timeout=300)


def errors(name: str) -> list[str]:
    return [d.code for d in irlint.check(FIXTURES / name) if d.severity is Severity.ERROR]


def test_a_loop_slicing_a_dynamic_axis_with_stride_0_kills_the_process() -> None:
    assert cpu_run("fail-stride0-dynamic-loop.xml").returncode == -8  # SIGFPE
    assert errors("fail-stride0-dynamic-loop.xml") == ["SL603"]


def test_a_tensor_iterator_slicing_a_dynamic_axis_with_stride_0_is_refused_at_inference() -> None:
    done = cpu_run("fail-stride0-dynamic-ti.xml")
    assert done.returncode == 0 and "Check 'stride != 0' failed" in done.stdout, done
    assert errors("fail-stride0-dynamic-ti.xml") == ["SL603"]


def test_stride_1_runs() -> None:
    done = cpu_run("pass-dynamic-loop.xml")
    assert done.stdout.startswith("ran"), done
    assert errors("pass-dynamic-loop.xml") == []
    x = np.ones((4, 2), np.float32)
    out = run(irlint.load(FIXTURES / "pass-dynamic-loop.xml"), {"x": x, "trip": np.int64(3)})
    np.testing.assert_array_equal(out["y"], np.full((3, 2), 2, np.float32))
    assert done.stdout == f"ran {[np.full((3, 2), 2.0).tolist()]}\n"


def test_a_loop_part_size_below_1_on_a_dynamic_axis_is_an_error_the_cpu_plugin_reads_past() -> None:
    """No length makes part_size -1 a slicing (SL603 says so); the CPU plugin reads parts of |stride| = 1."""
    done = cpu_run("fail-part-size-dynamic-loop.xml")
    assert done.stdout == f"ran {[np.full((3, 2), 2.0).tolist()]}\n", done
    assert errors("fail-part-size-dynamic-loop.xml") == ["SL603"]


def test_a_tensor_iterator_range_no_length_splits_is_an_error_the_cpu_plugin_reads_past() -> None:
    """start 0, end 2 in parts of 2 on an axis of unknown length: 3 elements (end inclusive) on every length
    that holds them, never whole parts (SL603); the CPU plugin (end exclusive) reads rows 0-1 as one part."""
    path = FIXTURES / "fail-dynamic-never-whole.xml"
    child = CHILD.replace("np.ones((4, 2), np.float32)", "np.arange(12, dtype=np.float32).reshape(4, 3)")
    done = subprocess.run([sys.executable, "-c", child, str(path)], capture_output=True, text=True, timeout=300)
    assert done.stdout == f"ran {[[[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]]}\n", done
    assert errors("fail-dynamic-never-whole.xml") == ["SL603"]
    assert errors("pass-dynamic-whole.xml") == []
