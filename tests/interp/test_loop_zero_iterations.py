"""Loops that run zero times, against OpenVINO 2026.4: the values its CPU plugin returns (in a child
process where it crashes), the shapes its core declares, and what irlint gives and warns."""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.diagnostics import Severity
from irlint.interp import DepartureWarning, run
from tests.rules.make_case_fixtures import zero_loop

ov = pytest.importorskip("openvino")
CPU = {"INFERENCE_PRECISION_HINT": "f32"}
X = np.array([1, 2, 3], np.float32)


def save(model, path: Path) -> Path:
    ov.save_model(model, str(path), compress_to_fp16=False)
    return path


def cpu_outputs(path: Path, inputs: list) -> list[np.ndarray]:
    core = ov.Core()
    compiled = core.compile_model(core.read_model(str(path)), "CPU", CPU)
    return [np.asarray(v) for v in compiled(inputs).values()]


def findings(path: Path) -> list[tuple[str, Severity]]:
    return [(d.code, d.severity) for d in irlint.check(path) if d.severity is not Severity.INFO]


@pytest.mark.parametrize("trip,start", [(0, True), (3, False)])
def test_zero_iterations_at_run_time(trip: int, start: bool, tmp_path: Path) -> None:
    path = save(zero_loop(None, unmerged=True, start=None), tmp_path / "zero.xml")
    assert findings(path) == [("LP710", Severity.WARNING)]
    acc, y, scan = cpu_outputs(path, [X, np.int64(trip), np.bool_(start)])
    with pytest.warns(DepartureWarning, match="uninitialised memory"):
        out = run(irlint.load(path), {"x": X, "trip": np.int64(trip), "start": np.bool_(start)})
    np.testing.assert_array_equal(out["acc"], acc)  # the merged input's initial value, 7s
    assert out["y"].shape == y.shape  # no back edge feeds it: irlint gives zeros, the CPU plugin what memory holds
    np.testing.assert_array_equal(out["y"], np.zeros(3, np.float32))
    assert out["scan"].shape == scan.shape == (0, 3)


def test_a_used_infer_request_returns_the_previous_value(tmp_path: Path) -> None:
    # why LP710 and the run-time warning call the value undefined: the CPU plugin's depends on the request's past
    path = save(zero_loop(None, unmerged=True), tmp_path / "zero.xml")
    core = ov.Core()
    request = core.compile_model(core.read_model(str(path)), "CPU", CPU).create_infer_request()
    request.infer([X, np.int64(2)])
    after = [np.array(v) for v in request.infer([X, np.int64(0)]).values()]
    np.testing.assert_array_equal(after[1], X * 2)  # y of the previous inference, not zeros


def test_a_constant_false_condition_gives_what_openvino_declares(tmp_path: Path) -> None:
    # OpenVINO's core declares the outputs [0] (first dim 0); its CPU plugin returns them so, and irlint too
    path = save(zero_loop(3, unmerged=True, concat=False, start=False), tmp_path / "never.xml")
    assert findings(path) == []
    model = ov.Core().read_model(str(path))
    assert [str(o.get_partial_shape()) for o in model.outputs] == ["[0]", "[0]"]
    acc, y = cpu_outputs(path, [X])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = run(irlint.load(path), {"x": X})
    assert out["acc"].shape == acc.shape == (0,) and out["y"].shape == y.shape == (0,)


def nested(trip: int, start: bool, outer: str):
    """A constant zero-iteration Loop (as `zero_loop`, with concatenated output) inside a TI or a Loop body."""
    import openvino.opset13 as ops

    x = ops.parameter([2, 3], np.float32, name="X")
    xb = ops.parameter([1, 3], np.float32)
    flat = ops.reshape(xb, ops.constant(np.array([3], np.int64)), False)
    inner = zero_loop(trip, unmerged=True, start=start)
    body_in = inner.get_parameters()[0]
    for target in list(body_in.output(0).get_target_inputs()):
        target.replace_source_output(flat.output(0))
    results = [ops.result(r.input_value(0)) for r in inner.get_results()]
    if outer == "ti":
        o = ops.tensor_iterator()
        o.set_body(ov.Model(results, [xb]))
    else:
        o = ops.loop(ops.constant(np.int64(2)), ops.constant(np.bool_(True)))
        cond = ops.result(ops.constant(np.bool_(True)))
        o.set_function(ov.Model([*results, cond], [xb]))
        o.set_special_body_ports([-1, len(results)])
    o.set_sliced_input(xb, x.output(0), 0, 1, 1, -1, 0)
    outs = [ops.result(o.get_iter_value(r.output(0), -1), name=f"o{i}") for i, r in enumerate(results)]
    return ov.Model(outs, [x], "nested")


@pytest.mark.parametrize("outer", ["ti", "loop"])
@pytest.mark.parametrize("trip,start", [(0, True), (3, False)])
def test_nested_constant_zero_iteration_loops_are_valid(trip: int, start: bool, outer: str, tmp_path: Path) -> None:
    path = save(nested(trip, start, outer), tmp_path / "nested.xml")
    core_shapes = [str(o.get_partial_shape()) for o in ov.Core().read_model(str(path)).outputs]
    assert core_shapes == (["[3]", "[3]", "[0,3]"] if start else ["[0]", "[0]", "[0]"])
    found = findings(path)
    assert all(sev is Severity.WARNING for _c, sev in found), found  # no SL606/T211: irlint infers the same shapes
    assert ("LP711", Severity.WARNING) in found
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DepartureWarning)  # the unmerged output after zero iterations
        out = run(irlint.load(path), {"X": np.ones((2, 3), np.float32)})
    assert [str(list(out[f"o{i}"].shape)).replace(" ", "") for i in range(3)] == core_shapes


CHILD = """
import sys, openvino as ov
core = ov.Core()
try:
    core.compile_model(core.read_model(sys.argv[1]), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    print("compiled")
except Exception as e:
    print(str(e))
"""


def compile_in_child(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, timeout=300)


def test_the_cpu_plugin_refusals_lp711_quotes(tmp_path: Path) -> None:
    crashed = compile_in_child(save(zero_loop(0), tmp_path / "trip0.xml"))
    assert crashed.returncode == -8, crashed  # SIGFPE
    refused = compile_in_child(save(zero_loop(3, start=False), tmp_path / "false.xml"))
    assert "Shape mismatch for tensor iterator port" in refused.stdout
    assert compile_in_child(save(zero_loop(0, concat=False), tmp_path / "trip0_no_concat.xml")).stdout.strip() \
        == "compiled"
