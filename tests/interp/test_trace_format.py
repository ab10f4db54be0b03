"""The saved trace (format 2: each recorded tensor's iterations stacked, statistics per series) reads
back exactly as recorded: per-row statistics equal `stats` bit for bit, tensors that change shape are
saved one per key, format-1 files are still read, and a malformed index is a clear error."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.interp import run
from irlint.interp.events import FRESH
from irlint.interp.trace import Trace, TraceFormatError, _row_stats, _stats_from_row, load_trace, stats, trace_arrays

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def rows_as_stats(stacked: np.ndarray) -> list[dict[str, object]]:
    got = _row_stats(stacked)
    return [_stats_from_row(list(stacked.shape[1:]), str(stacked.dtype), None if got is None else got[r])
            for r in range(len(stacked))]


@pytest.mark.parametrize("size", [1, 7, 8, 9, 16, 127, 128, 129, 1000, 4099])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32, np.uint8, np.int64])
def test_row_stats_equal_stats_bit_for_bit(size: int, dtype: type) -> None:
    # numpy sums a mean pairwise; the rows' reduction must add in the same order as one row's.
    rng = np.random.default_rng(size)
    stacked = (rng.standard_normal((4, size)) * 1000).astype(dtype)
    if np.dtype(dtype).kind == "f":
        stacked[1, size // 2] = np.nan
        stacked[2, 0] = np.inf
        stacked[3, :] = np.nan  # no finite value: min/max/mean None
    for r, got in enumerate(rows_as_stats(stacked)):
        assert got == stats(stacked[r]), (r, got, stats(stacked[r]))


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")  # as `stats` itself
@pytest.mark.parametrize("stacked", [np.array([[True, False, True], [False, False, False]]),
                                     np.zeros((3, 0), np.float32), np.array([1.5 + 2j, -1j]),
                                     np.arange(5, dtype=np.int8).reshape(5), np.full((2, 2, 3), 7, np.uint16)])
def test_row_stats_of_other_kinds(stacked: np.ndarray) -> None:
    for r, got in enumerate(rows_as_stats(stacked)):
        assert got == stats(stacked[r])


def _layer():  # type: ignore[no-untyped-def]
    model = irlint.load(EXAMPLES / "loop_scan.xml")
    return next(la for _g, la in model.layers() if la.type in ("Loop", "TensorIterator"))


def test_changing_shapes_are_saved_one_per_key(tmp_path: Path) -> None:
    layer = _layer()
    trace = Trace()
    # input 0 grows with k (saved one per key), input 1 does not (one stacked series); two batches
    records = [(np.arange(k + 1.0), np.float32([k]), np.int64(k) * np.ones(())) for k in range(4)]
    for first in (0, 2):
        flat = [v for values in records[first:first + 2] for v in values]
        trace.batches(layer, ((0, 1), (2,)), (FRESH,) * 3)(first, flat, ())
    trace.record("extra:out0", np.array([True, False]))
    names = trace.keys()
    want = {k: trace.get(k) for k in names}
    trace.save(tmp_path / "t.npz")
    values, info = load_trace(tmp_path / "t.npz")
    assert list(values) == list(want) and len(want) == 13
    for k, v in want.items():
        assert values[k].dtype == v.dtype and np.array_equal(values[k], v) and info[k] == stats(v)
    with zipfile.ZipFile(tmp_path / "t.npz") as zf:
        names = zf.namelist()
    assert f"{layer.path}/body/0@3:in.npy" in names and f"{layer.path}/body/1@3:in.npy" not in names


def test_format_1_is_still_read(tmp_path: Path) -> None:
    a, b = np.arange(3, dtype=np.float32), np.array([True])
    index = {"1/body/0@0:in": stats(a), "1/body/2@0:out": stats(b)}
    np.savez(tmp_path / "v1.npz", **{"1/body/0@0:in": a, "1/body/2@0:out": b}, __stats__=np.array(json.dumps(index)))
    values, info = load_trace(tmp_path / "v1.npz")
    assert list(values) == list(index) and info == index and np.array_equal(values["1/body/0@0:in"], a)


@pytest.mark.parametrize("index", ["not json", json.dumps([1]), json.dumps({"format": 9}),
                                   json.dumps({"format": 2, "series": [{"values": "nope"}], "keys": []}),
                                   json.dumps({"format": 2, "series": [], "keys": [[0, "a:in"]]})])
def test_a_malformed_index_is_a_clear_error(index: str) -> None:
    with pytest.raises(TraceFormatError):
        trace_arrays({"__stats__": np.array(index), "x": np.zeros(2)})
    with pytest.raises(TraceFormatError, match="no __stats__"):
        trace_arrays({"x": np.zeros(2)})


def test_nested_loops_save_in_recording_order(tmp_path: Path) -> None:
    # the outer loop records through two hooks (its body has a loop), the inner one through `iteration`
    model = irlint.load(EXAMPLES / "nested_loop_in_ti.xml")
    inputs = dict(np.load(EXAMPLES / "inputs" / "nested_loop_in_ti.npz"))
    trace = Trace()
    run(model, inputs, listener=trace)
    keys = trace.keys()
    assert any(k.count(".") == 1 and "@" in k for k in keys), "inner iterations are keyed outer.inner"
    trace.save(tmp_path / "t.npz")
    values, _info = load_trace(tmp_path / "t.npz")
    assert list(values) == keys
