"""The Loop families of tests/differential/families.py on OpenVINO 2026.4's CPU plugin (f32 hint).

Each model runs in the differential oracle's child process (tests/differential/oracle.py), so that a
crash (PM422) or a hang is a verdict, not the end of the test run. A failing fixture shows the departure
its rule names, and irlint computes the spec's values; the passing fixture next to it is one op away,
and the plugin computes what irlint does.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.diagnostics import Severity
from irlint.interp import DepartureWarning, ExecutionError, run

pytest.importorskip("openvino")
pytestmark = pytest.mark.openvino

from tests.differential.families import random_input  # noqa: E402
from tests.differential.oracle import OpenVINO  # noqa: E402

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="module")
def oracle():
    with OpenVINO(timeout=60) as o:
        yield o


def _inputs(path: Path) -> dict[str, np.ndarray]:
    """Fixed inputs for every top-level Parameter of the fixture."""
    rng = np.random.default_rng(7)
    out = {}
    for p in irlint.load(path).graph.parameters():
        port = p.outputs[0]
        shape = [d.value for d in port.shape]
        dt = port.precision.dtype
        out[p.name] = random_input(rng, shape, dt)
    return out


def _codes(path: Path) -> set[str]:
    return {d.code for d in irlint.check(path) if d.severity is not Severity.INFO}


def _agrees(oracle: OpenVINO, path: Path, code: str) -> None:
    """The passing fixture: no `code`, and the CPU plugin computes what irlint does."""
    inputs = _inputs(path)
    v = oracle.check(path, inputs)
    assert v.stage == "ok", v.why
    ours = run(irlint.load(path), inputs)
    for name, want in zip(v.names, v.outputs):
        np.testing.assert_allclose(np.asarray(ours[name], np.float64), want.astype(np.float64), rtol=1e-5, err_msg=name)
    assert code not in _codes(path)


def test_lp718_current_iteration_on_a_back_edge(oracle: OpenVINO) -> None:
    """s <- i, out = s + 10 after 3 iterations: the spec gives 1 + 10, the plugin 2 + 10 (the number it just
    wrote), directly and through a Reshape (a view)."""
    for name in ("fail.xml", "fail-view.xml"):
        path = FIXTURES / "LP718" / name
        inputs = _inputs(path)
        v = oracle.check(path, inputs)
        assert v.stage == "ok", v.why
        assert int(np.ravel(v.outputs[0])[0]) == 12
        assert int(np.ravel(run(irlint.load(path), inputs)["out0"])[0]) == 11
        assert "LP718" in _codes(path)
    _agrees(oracle, FIXTURES / "LP718" / "pass.xml", "LP718")


@pytest.mark.parametrize("name", ["fail.xml", "fail-ti.xml"])
def test_pm421_a_back_edge_from_an_eliminated_result_is_refused(oracle: OpenVINO, name: str) -> None:
    path = FIXTURES / "PM421" / name
    v = oracle.check(path, _inputs(path))
    assert v.stage == "compile" and "_M_range_check" in v.why, v
    assert "PM421" in _codes(path)
    run(irlint.load(path), _inputs(path))  # irlint runs it


def test_pm421_pass(oracle: OpenVINO) -> None:
    _agrees(oracle, FIXTURES / "PM421" / "pass.xml", "PM421")


@pytest.mark.parametrize("name", ["fail.xml", "fail-merged-ti.xml"])
def test_pm422_two_outputs_of_an_eliminated_result_crash(oracle: OpenVINO, name: str) -> None:
    path = FIXTURES / "PM422" / name
    v = oracle.check(path, _inputs(path))
    assert v.stage == "crash" and "-11" in v.why, v  # SIGSEGV, repeated in a fresh worker
    assert "PM422" in _codes(path)
    ours = run(irlint.load(path), _inputs(path))
    np.testing.assert_array_equal(ours["out0"], ours["out1"])  # both give the unchanged input


def test_pm422_pass(oracle: OpenVINO) -> None:
    _agrees(oracle, FIXTURES / "PM422" / "pass.xml", "PM422")


def test_pm423_a_grown_state_only_unread_outputs_use_fails_at_inference(oracle: OpenVINO) -> None:
    path = FIXTURES / "PM423" / "fail.xml"
    v = oracle.check(path, _inputs(path))
    assert v.stage == "infer" and "object is not initialized" in v.why, v
    assert "PM423" in _codes(path)
    run(irlint.load(path), _inputs(path))
    _agrees(oracle, FIXTURES / "PM423" / "pass.xml", "PM423")


def test_lp719_a_condition_state_sizes_the_output_for_the_trip_count(oracle: OpenVINO) -> None:
    """c starts true, c <- i < 1: 3 of 4 iterations run; the plugin's output has 4 parts, the last unwritten."""
    path = FIXTURES / "LP719" / "fail.xml"
    inputs = _inputs(path)
    v = oracle.check(path, inputs)
    assert v.stage == "ok", v.why
    with pytest.warns(DepartureWarning, match=r"ran 3 of its trip count 4.*the last 1 unwritten"):
        ours = run(irlint.load(path), inputs)
    assert ours["out0"].shape == (3,) and v.outputs[0].shape == (4,)
    np.testing.assert_allclose(v.outputs[0][:3], ours["out0"], rtol=1e-6)
    assert "LP719" in _codes(path)
    _agrees(oracle, FIXTURES / "LP719" / "pass.xml", "LP719")


def test_lp717_counts_without_an_input_only_unread_outputs_use(oracle: OpenVINO) -> None:
    """The model input q feeds only an unread output: OpenVINO removes it, the u8 Loop is constant-fed and
    refused. In f32 constant folding evaluates the Loop away, and it compiles."""
    fail = FIXTURES / "LP717" / "fail-dropped-input.xml"
    v = oracle.check(fail, _inputs(fail))
    assert v.stage == "compile" and "StaticMemory" in v.why, v
    assert "LP717" in _codes(fail)
    _agrees(oracle, FIXTURES / "LP717" / "pass-folded.xml", "LP717")


def test_ragged_concatenation_is_a_run_finding_not_a_crash(oracle: OpenVINO, tmp_path: Path) -> None:
    """Parts [1,1], [2,1], [4,1] concatenated along axis 1: unread, irlint runs the model as OpenVINO does;
    read, `irlint run` reports RUN-CONCAT (exit 1) where the plugin returns memory it did not write."""
    import openvino as ov

    from tests.differential.families import ragged_concat

    unread, read = tmp_path / "unread.xml", tmp_path / "read.xml"
    ov.save_model(ragged_concat(read=False), str(unread), compress_to_fp16=False)
    ov.save_model(ragged_concat(read=True), str(read), compress_to_fp16=False)
    x = {"x": np.full((1, 1), 2.0, np.float32)}
    v = oracle.check(unread, x)
    assert v.stage == "ok"
    np.testing.assert_array_equal(run(irlint.load(unread), x)["out0"], v.outputs[0])
    with pytest.raises(ExecutionError) as e:
        run(irlint.load(read), x)
    assert e.value.code == "RUN-CONCAT"
    np.save(tmp_path / "x.npy", x["x"])
    done = subprocess.run(
        [sys.executable, "-m", "irlint", "run", str(read), f"x={tmp_path / 'x.npy'}"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1 and "RUN-CONCAT [error]" in done.stderr and "Traceback" not in done.stderr, done


def test_a_state_swap_keeps_its_results(oracle: OpenVINO, tmp_path: Path) -> None:
    """a <- b, b <- a, each back edge's Result reading the other state directly: neither state stays unchanged,
    so EliminateLoopInputsOutputs removes nothing, OpenVINO compiles the Loop and no PM421/PM422 is said."""
    import openvino as ov
    import openvino.opset16 as ops

    from tests.differential.families import _loop, _true

    x, y = ops.parameter([2], np.float32, name="x"), ops.parameter([2], np.float32, name="y")
    a, b = ops.parameter([2], np.float32, name="a"), ops.parameter([2], np.float32, name="b")
    ra, rb = ops.result(b), ops.result(a)
    n = _loop(3)
    n.set_function(ov.Model([ra, rb, ops.result(_true())], [a, b]))
    n.set_special_body_ports([-1, 2])
    n.set_merged_input(a, x.output(0), ra.output(0))
    n.set_merged_input(b, y.output(0), rb.output(0))
    path = tmp_path / "swap.xml"
    model = ov.Model([ops.result(n.get_iter_value(ra.output(0), -1), name="out0")], [x, y], "swap")
    ov.save_model(model, str(path), compress_to_fp16=False)
    assert oracle.check(path, _inputs(path)).stage == "ok"
    assert not {"PM421", "PM422"} & _codes(path)


def test_lp720_a_constant_trip_count_reserves_its_concatenated_output(oracle: OpenVINO) -> None:
    """PyTorch's `while True` with a stacked list: a trip count 2**63 - 1 (or 2**31 - 1, where the clamp
    ends) and parts of 24 bytes; the plugin asks for 24 * (2**31 - 1) bytes and fails after the first
    iteration. The allocation fails without touching the memory, so it is quick and safe to run."""
    for name in ("fail.xml", "fail-int32-max.xml"):
        path = FIXTURES / "LP720" / name
        v = oracle.check(path, _inputs(path))
        assert v.stage == "infer" and "Failed to allocate 51539607528 bytes" in v.why, v
        assert run(irlint.load(path), _inputs(path))["out0"].shape == (3, 2, 3)  # i = 0, 1, 2 run
        assert "LP720" in _codes(path)
        found = next(d for d in irlint.check(path) if d.code == "LP720")
        assert "51539607528 bytes" in found.message
    for name in ("pass.xml", "pass-million.xml"):
        _agrees(oracle, FIXTURES / "LP720" / name, "LP720")


def test_lp720_a_trip_count_from_an_input_runs(oracle: OpenVINO) -> None:
    """The same Loop with its trip count a model input of 2**63 - 1: the plugin reads it as i32 at run time
    without the clamp of a constant, grows its buffer as the loop runs, and agrees."""
    path = FIXTURES / "LP720" / "pass-input.xml"
    inputs = dict(_inputs(path), t=np.array(2**63 - 1, np.int64))
    v = oracle.check(path, inputs)
    assert v.stage == "ok", v.why
    with pytest.warns(DepartureWarning, match="outside the i32 range"):  # -1 there: the same loop here
        ours = run(irlint.load(path), inputs)
    np.testing.assert_allclose(ours["out0"], v.outputs[0], rtol=1e-6)
    assert "LP720" not in _codes(path)


def test_lp721_a_nested_count_from_a_growing_state_fails_at_inference(oracle: OpenVINO) -> None:
    """g grows [1] -> [2] -> [3]; the inner Loop runs len(g) times. The core keeps the first count (1) for
    the inner concatenated output, and the plugin fails at the second outer iteration; irlint runs the spec.
    No SL606: the declared [1] fits irlint's dynamic length."""
    path = FIXTURES / "LP721" / "fail.xml"
    inputs = _inputs(path)
    v = oracle.check(path, inputs)
    assert v.stage == "infer" and "iter < iter_count" in v.why, v
    np.testing.assert_array_equal(run(irlint.load(path), inputs)["out1"], [0.0, 1.0, 2.0])
    codes = _codes(path)
    assert "LP721" in codes and "SL606" not in codes
    # g keeps its length; unread; one outer run; the fix: trip count -1 and the count in the body condition
    for name in ("pass.xml", "pass-unread.xml", "pass-once.xml", "pass-condition.xml"):
        _agrees(oracle, FIXTURES / "LP721" / name, "LP721")


def test_be505_a_grown_tensor_iterator_state_as_openvino_runs_it(oracle: OpenVINO) -> None:
    """s <- Concat(s, s) in a TensorIterator: OpenVINO keeps s at its initial value's shape [1]. Three
    iterations: the plugin fails at the first inference, and BE505 is an error that says so. One iteration:
    no back edge is taken, the plugin computes the spec's values, and BE505 is a warning."""
    grown = FIXTURES / "BE505" / "fail-ti-grown-state.xml"
    v = oracle.check(grown, _inputs(grown))
    assert v.stage == "infer", v
    (d,) = [d for d in irlint.check(grown) if d.code == "BE505"]
    assert d.severity is Severity.ERROR and "fails at the first inference" in d.message
    once = FIXTURES / "BE505" / "fail-ti-grown-state-once.xml"
    inputs = _inputs(once)
    v = oracle.check(once, inputs)
    assert v.stage == "ok", v.why
    (d,) = [d for d in irlint.check(once) if d.code == "BE505"]
    assert d.severity is Severity.WARNING and "never taken" in d.message
    ours = run(irlint.load(once), inputs)
    for name, want in zip(v.names, v.outputs):
        np.testing.assert_allclose(np.asarray(ours[name], np.float64), want.astype(np.float64), rtol=1e-5)


def test_t213_a_current_iteration_parameter_of_dynamic_rank_is_refused(oracle: OpenVINO) -> None:
    """No input entry gives the current_iteration Parameter a shape: OpenVINO keeps `shape="..."` and the CPU
    plugin refuses it at compile; declared a scalar, it compiles and computes what irlint does."""
    path = FIXTURES / "T213" / "fail-current-iteration.xml"
    v = oracle.check(path, _inputs(path))
    assert v.stage == "compile" and "dynamic rank" in v.why, v
    assert "T213" in _codes(path)
    _agrees(oracle, FIXTURES / "T213" / "pass-current-iteration.xml", "T213")
