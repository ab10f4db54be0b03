"""`compare --inside` when observing changes what OpenVINO computes: the textbook RNN h = tanh(x_t + h)
departs in the CPU plugin through its in-place memory, and exposing the Add's output as a body Result
makes the departure vanish. The probes that change the outputs are left out (found by bisection), so
the report still names the layer and iteration where the plugin parts from irlint."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("openvino")


def textbook_rnn(path: Path, steps: int = 3) -> Path:
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([steps, 1, 4], np.float32, name="x")
    h0 = ops.parameter([1, 4], np.float32, name="h0")
    xt = ops.parameter([1, 1, 4], np.float32, name="x_t")
    hp = ops.parameter([1, 4], np.float32, name="h_prev")
    total = ops.add(ops.squeeze(xt, ops.constant(np.array([0], np.int64)), name="squeeze"), hp, name="sum")
    r = ops.result(ops.tanh(total, name="act"))
    ti = ops.tensor_iterator()
    ti.set_friendly_name("rnn")
    ti.set_body(ov.Model([r], [xt, hp]))
    ti.set_sliced_input(xt, x.output(0), 0, 1, 1, -1, 0)
    ti.set_merged_input(hp, h0.output(0), r.output(0))
    model = ov.Model([ops.result(ti.get_iter_value(r.output(0), -1), name="h")], [x, h0], "rnn")
    ov.save_model(model, str(path), compress_to_fp16=False)
    return path


def test_the_departure_is_located_despite_instrumentation(tmp_path: Path) -> None:
    xml = textbook_rnn(tmp_path / "rnn.xml")
    rng = np.random.default_rng(0)
    np.savez(tmp_path / "in.npz", x=rng.standard_normal((3, 1, 4)).astype(np.float32), h0=np.zeros((1, 4), np.float32))
    res = subprocess.run([sys.executable, "-m", "irlint", "compare", str(xml), "--inputs", str(tmp_path / "in.npz"),
                          "--inside", "--format", "json"], capture_output=True, text=True, timeout=300)
    assert res.returncode == 1, res.stdout + res.stderr
    report = json.loads(res.stdout)
    assert report["outputs"][0]["verdict"] == "differs"  # the plugin's departure, seen at the output
    inside = report["inside"]
    assert all(inside["instrumented_outputs_same"])  # with the probes kept, the departure is still there
    assert any("sum (Add" in title for title in inside["observer_effect"]["left_out"])
    first = inside["first_difference"]
    assert (first["layer"], first["iteration"]) == ("act", "1")
    assert "sum (Add)" in first["upstream_not_compared"]
    (why,) = inside["observer_effect"]["in_place"]  # the memory model (irlint/openvino) says why
    assert (why["writer"], why["memory_of"]) == ("sum", "x_t") and "next slice" in why["how"]


def test_a_named_layer_whose_observation_removes_the_departure_is_not_called_ok(tmp_path: Path) -> None:
    """`--inside sum`: the one probe asked for changes OpenVINO's outputs, so no probe set keeps the departure:
    nothing is compared (its values would be another computation's), and the memory model says why."""
    xml = textbook_rnn(tmp_path / "rnn.xml")
    rng = np.random.default_rng(0)
    np.savez(tmp_path / "in.npz", x=rng.standard_normal((3, 1, 4)).astype(np.float32), h0=np.zeros((1, 4), np.float32))
    npz = str(tmp_path / "in.npz")
    args = [sys.executable, "-m", "irlint", "compare", str(xml), "--inputs", npz, "--inside", "sum"]
    res = subprocess.run([*args, "--format", "json"], capture_output=True, text=True, timeout=300)
    assert res.returncode == 1, res.stdout + res.stderr
    inside = json.loads(res.stdout)["inside"]
    assert inside["compared"] == [] and "first_difference" not in inside
    assert inside["observer_effect"]["left_out"] == ["sum (Add, 2/body/4) out2"]
    assert [(d["writer"], d["memory_of"]) for d in inside["observer_effect"]["in_place"]] == [("sum", "x_t")]
    text = subprocess.run(args, capture_output=True, text=True, timeout=300).stdout
    assert "No set of these probes keeps the outputs as they were" in text and "not bit-identical" not in text
