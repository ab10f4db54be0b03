"""TensorIterators and Loops with dynamic dims that OpenVINO 2026.4's CPU plugin refuses at inference
while irlint runs them per the spec: the run warns with a DepartureWarning that names the plugin's
failure (irlint/interp/cpuloops.py). OpenVINO runs in a child process (it may crash)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.interp import DepartureWarning, run

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

CHILD = """
import sys, numpy as np, openvino as ov
core = ov.Core()
compiled = core.compile_model(core.read_model(sys.argv[1]), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
try:
    compiled([np.load(sys.argv[2])])
    print("ran")
except Exception as e:
    print(str(e))
"""


def cpu_infer(model, x: np.ndarray, tmp_path: Path, edit: tuple[str, str] | None = None) -> tuple[Path, str]:
    """Save `model` (with one `edit` of its XML text: old, new), infer it on the CPU plugin in a child
    process: (the IR's path, what it printed)."""
    path = tmp_path / "m.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    if edit is not None:
        text = path.read_text()
        assert text.count(edit[0]) == 1, edit
        path.write_text(text.replace(*edit))
    np.save(tmp_path / "x.npy", x)
    done = subprocess.run([sys.executable, "-c", CHILD, str(path), str(tmp_path / "x.npy")],
                          capture_output=True, text=True, timeout=300)
    return path, done.stdout + done.stderr


def summing_ti(out_start: int, out_end: int):
    """A TensorIterator over X [?, 6] in parts of 2 along axis 1 (3 iterations: the spec and the plugin
    agree), whose [?, 1] sums are concatenated along axis 1 with the given output start/end."""
    x = ops.parameter([-1, 6], np.float32, name="X")
    xi = ops.parameter([-1, 2], np.float32)
    total = ops.reduce_sum(xi, ops.constant(np.array([1], np.int64)), True)
    body = ov.Model([ops.result(total)], [xi])
    ti = ops.tensor_iterator()
    ti.set_body(body)
    ti.set_sliced_input(xi, x.output(0), 0, 2, 2, -1, 1)
    out = ti.get_concatenated_slices(body.get_results()[0].output(0), out_start, 1, 1, out_end, 1)
    return ov.Model([ops.result(out, name="all")], [x])


X = np.arange(12, dtype=np.float32).reshape(2, 6)


def test_a_ti_output_the_plugin_counts_differently(tmp_path: Path) -> None:
    """Output start=2 on its 3 elements: one iteration as the plugin counts it, three for the input."""
    path, said = cpu_infer(summing_ti(2, -1), X, tmp_path)
    assert "There are at least two different iterations numbers: 3 and 1" in said
    with pytest.warns(DepartureWarning, match=r"counts 3 iterations for input port 0 .* 1 for output port 1 .*"
                      r"There are at least two different iterations numbers: 3 and 1"):
        out = run(irlint.load(path), {"X": X})
    np.testing.assert_array_equal(out["all"], X.reshape(2, 3, 2).sum(axis=2))


def test_a_ti_output_end_beyond_its_dim(tmp_path: Path) -> None:
    """Output end=5 on its 3 elements: the plugin refuses the range."""
    path, said = cpu_infer(summing_ti(0, 5), X, tmp_path)
    assert 'Invalid "start","stride","end" values in an iteration component: "start" = 0, "stride" = 1, ' \
           '"end" = 5' in said
    with pytest.warns(DepartureWarning, match=r'output port 1 .* refuses it at inference \(Invalid "start",'
                      r'"stride","end" values: "start" = 0, "stride" = 1, "end" = 5\)'):
        run(irlint.load(path), {"X": X})


def test_the_default_ti_ranges_do_not_warn(tmp_path: Path) -> None:
    path, said = cpu_infer(summing_ti(0, -1), X, tmp_path)
    assert said.strip() == "ran"
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error", DepartureWarning)
        run(irlint.load(path), {"X": X})


def loop_concat():
    """A Loop over X [?, 4] row by row (trip count 4), concatenating its [1, 4] rows (OpenVINO's API
    takes only stride 1 on a Loop; the test edits the IR)."""
    x = ops.parameter([-1, 4], np.float32, name="X")
    xi = ops.parameter([1, 4], np.float32)
    body = ov.Model([ops.result(ops.constant(np.array(True))), ops.result(ops.relu(xi))], [xi])
    loop = ops.loop(ops.constant(np.int64(4)), ops.constant(np.array(True)))
    loop.set_function(body)
    loop.set_special_body_ports([-1, 0])
    loop.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 0)
    out = loop.get_concatenated_slices(body.get_results()[1].output(0), 0, 1, 1, -1, 0)
    return ov.Model([ops.result(out, name="all")], [x])


def test_a_loop_concatenating_parts_shorter_than_its_stride(tmp_path: Path) -> None:
    x = np.arange(-8, 8, dtype=np.float32).reshape(4, 4)
    path, said = cpu_infer(loop_concat(), x, tmp_path, ('<output axis="0" external_port_id="3" internal_layer_id="4" '
                           'start="0" end="-1" stride="1"', '<output axis="0" external_port_id="3" '
                           'internal_layer_id="4" start="0" end="-1" stride="2"'))
    assert "incorrect output shape[axis] after iteration for concatenation. 2 is expected, but actual: 1" in said
    with pytest.warns(DepartureWarning, match=r"output port 3 concatenates 4 parts of 1 element\(s\) .* "
                      r"\|stride\| = 2 .*incorrect output shape\[axis\] after iteration for concatenation"):
        out = run(irlint.load(path), {"X": x})
    np.testing.assert_array_equal(out["all"], np.maximum(x, 0))
