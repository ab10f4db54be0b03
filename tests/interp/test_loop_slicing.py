"""A Loop's sliced inputs and concatenated outputs with attributes other than 0/-1/1/1, against
OpenVINO's CPU plugin: the reversed whole axis, parts of 2, a trip count from a Parameter, start/end
that OpenVINO ignores, a reversed concatenation written into the IR (the Python API refuses it)."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.diagnostics import Severity
from irlint.interp import DepartureWarning, run
from tests.interp.test_conformance import compare
from tests.rules.valid_irs import loop_slices

ov = pytest.importorskip("openvino")
X = np.arange(12, dtype=np.float32).reshape(6, 2)


def save(model, path: Path, *, entry: str = "", output: str = "") -> Path:
    """Save, then rewrite the sliced input's (`entry`) or the concatenated output's (`output`) attributes."""
    ov.save_model(model, str(path), compress_to_fp16=False)
    xml = path.read_text()
    default = r' start="0" end="-1" stride="1" part_size="1"'
    if entry:
        pattern = r'(<input axis="0" external_port_id="2" internal_layer_id="\d+")' + default
        xml, n = re.subn(pattern, r"\1 " + entry, xml)
        assert n == 1
    if output:
        pattern = r'(<output axis="0" external_port_id="\d+" internal_layer_id="\d+")' + default
        xml, n = re.subn(pattern, r"\1 " + output, xml)
        assert n == 1
    path.write_text(xml)
    return path


def warnings_of(path: Path) -> list[str]:
    return [d.code for d in irlint.check(path) if d.severity is not Severity.INFO]


@pytest.mark.parametrize("trip", [6, 4, 1])
def test_reversed_slices_with_a_parameter_trip_count(trip: int, tmp_path: Path) -> None:
    path = save(loop_slices(-1, -1, 1, 0), tmp_path / "rev.xml")
    assert warnings_of(path) == []
    compare(path, {"x": X, "trip": np.int64(trip)})
    # the last `trip` rows in reverse order: 5, 4, ...
    np.testing.assert_array_equal(run(irlint.load(path), {"x": X, "trip": np.int64(trip)})["scan"], X[::-1][:trip])


@pytest.mark.parametrize("stride", [2, -2])
def test_parts_of_two_with_a_parameter_trip_count(stride: int, tmp_path: Path) -> None:
    path = save(loop_slices(0 if stride > 0 else -1, stride, 2, -1 if stride > 0 else 0), tmp_path / "p2.xml")
    assert warnings_of(path) == []
    compare(path, {"x": X, "trip": np.int64(3)})


def test_start_and_end_are_ignored_as_openvino_does(tmp_path: Path) -> None:
    # start=1 end=3 would name rows 1..3; OpenVINO's core and CPU plugin read rows 0, 1, 2 (LP709 says so)
    path = save(loop_slices(trip=3), tmp_path / "sub.xml", entry='start="1" end="3" stride="1" part_size="1"')
    assert warnings_of(path) == ["LP709"]
    compare(path, {"x": X})
    np.testing.assert_array_equal(run(irlint.load(path), {"x": X})["scan"], X[:3])


@pytest.mark.parametrize("trip", [None, 6])
def test_reversed_concatenation_written_in_the_ir(trip: int | None, tmp_path: Path) -> None:
    path = save(loop_slices(trip=trip), tmp_path / "out.xml", output='start="-1" end="0" stride="-1" part_size="1"')
    assert warnings_of(path) == []
    inputs = {"x": X, "trip": np.int64(4)} if trip is None else {"x": X}
    compare(path, inputs)
    n = 4 if trip is None else 6
    np.testing.assert_array_equal(run(irlint.load(path), inputs)["scan"], X[:n][::-1])


def test_sliced_inputs_of_different_lengths_run_to_the_trip_count(tmp_path: Path) -> None:
    path = save(loop_slices(second=4), tmp_path / "two.xml")
    assert warnings_of(path) == []
    y = np.arange(8, dtype=np.float32).reshape(4, 2)
    for trip in (3, 4):
        compare(path, {"x": X, "y": y, "trip": np.int64(trip)})


def test_a_trip_count_beyond_the_slices_warns_where_the_cpu_plugin_fails(tmp_path: Path) -> None:
    path = save(loop_slices(), tmp_path / "beyond.xml")
    core = ov.Core()
    compiled = core.compile_model(core.read_model(str(path)), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    with pytest.raises(Exception, match=r"iter >= 0 && iter < iter_count"):
        compiled([X, np.int64(7)])
    with pytest.warns(DepartureWarning, match="CPU plugin fails here"):
        out = run(irlint.load(path), {"x": X, "trip": np.int64(7)})
    np.testing.assert_array_equal(out["scan"], X)  # irlint stops after the 6 slices


def test_no_trip_count_and_a_true_condition_end_with_the_slices_in_irlint_only() -> None:
    path = Path(__file__).resolve().parents[1] / "rules" / "fixtures" / "LP708" / "fail-unbounded.xml"
    core = ov.Core()
    compiled = core.compile_model(core.read_model(str(path)), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    with pytest.raises(Exception, match=r"iter >= 0 && iter < iter_count"):
        compiled([X])
    with pytest.warns(DepartureWarning, match="no trip count"):
        out = run(irlint.load(path), {"x": X})
    np.testing.assert_array_equal(out["scan"], X)


@pytest.mark.parametrize("stride", [2, -2])
@pytest.mark.parametrize("trip", [2, None])
def test_whole_parts_only(stride: int, trip: int | None, tmp_path: Path) -> None:
    # 5 rows in parts of 2: rows 0-1 and 2-3 (backwards 2-3, then 0-1); row 4 is read by no iteration
    path = save(loop_slices(0 if stride > 0 else -1, stride, 2, -1 if stride > 0 else 0, trip, length=5),
                tmp_path / "odd.xml")
    assert warnings_of(path) == ["LP712"]
    x = np.arange(10, dtype=np.float32).reshape(5, 2)
    inputs = {"x": x} if trip is not None else {"x": x, "trip": np.int64(2)}
    compare(path, inputs)
    parts = [x[0:2].sum(0), x[2:4].sum(0)]
    want = np.stack(parts if stride > 0 else parts[::-1])
    np.testing.assert_array_equal(run(irlint.load(path), inputs)["scan"], want)


@pytest.mark.parametrize(("rows", "trip"), [(6, 2), (7, 2), (3, 1), (6, 3), (7, 3), (2, 1), (6, 6)])
def test_a_stride_longer_than_part_size_on_a_dynamic_axis(rows: int, trip: int) -> None:
    """x [?, 2] sliced with stride 3 and part_size 1: the CPU plugin has rows // 3 parts and fails at the
    first iteration past them; irlint runs the trip count over parts of 1 and says so (SL607 statically)."""
    path = Path(__file__).resolve().parents[1] / "rules" / "fixtures" / "SL607" / "fail-loop-dynamic-stride-3.xml"
    assert warnings_of(path) == ["SL607"]
    x = np.arange(2 * rows, dtype=np.float32).reshape(rows, 2)
    core = ov.Core()
    compiled = core.compile_model(core.read_model(str(path)), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        out = run(irlint.load(path), {"x": x, "trip": np.int64(trip)})
    departures = [str(w.message) for w in said if issubclass(w.category, DepartureWarning)]
    np.testing.assert_array_equal(out["sum"], x[:trip].sum(0, keepdims=True))  # parts of part_size 1
    if trip > rows // 3:
        with pytest.raises(Exception, match=r"iter >= 0 && iter < iter_count"):
            compiled([x, np.int64(trip)])
        assert len(departures) == 1 and f"has {rows // 3} of them" in departures[0], departures
    else:  # the plugin runs, on the first row of each 3-row part
        got = compiled([x, np.int64(trip)])[0]
        np.testing.assert_array_equal(got, x[::3][:trip].sum(0, keepdims=True))
        assert not departures, departures


def test_a_stride_shorter_than_part_size_runs_on_the_cpu_plugin_past_irlints_slices(tmp_path: Path) -> None:
    """stride 1, part_size 2 on 6 rows with trip count 6: irlint has 3 parts of 2 and stops; the CPU plugin
    has 6 parts of 1 and runs all 6 iterations, so the run does not say it fails (SL607 says it differs)."""
    path = save(loop_slices(0, 1, 2, -1), tmp_path / "short.xml")
    assert warnings_of(path) == ["SL607"]
    core = ov.Core()
    compiled = core.compile_model(core.read_model(str(path)), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    np.testing.assert_array_equal(compiled([X, np.int64(6)])[0], X.sum(0, keepdims=True))
    with warnings.catch_warnings():
        warnings.simplefilter("error", DepartureWarning)
        out = run(irlint.load(path), {"x": X, "trip": np.int64(6)})
    np.testing.assert_array_equal(out["sum"], X.sum(0, keepdims=True))  # 3 parts of 2 rows
