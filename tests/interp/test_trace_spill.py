"""A trace spilling past its budget appends to a few segment files, not one file per tensor, and
reads every spilled tensor back as it was (strings and booleans included)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from irlint.interp.trace import Trace, load_trace


def test_spilled_tensors_share_one_file_and_read_back(tmp_path: Path) -> None:
    trace = Trace(budget=0)
    want = {f"{i}/body/0@{i}:out": np.arange(i % 7 + 1, dtype=np.float32) * i for i in range(1000)}
    want["s:out0"] = np.array(["a", "bc"])
    want["b:out0"] = np.array([True, False])
    try:
        for k, v in want.items():
            trace.record(k, v)
        folder = trace._store.folder
        assert len(trace.spilled) == len(want) and len(list(folder.iterdir())) == 1
        for k, v in want.items():
            got = trace.get(k)
            assert np.array_equal(got, v) and got.dtype == v.dtype, k
        trace.save(tmp_path / "t.npz")
    finally:
        trace.close()
    assert not folder.exists()
    values, info = load_trace(tmp_path / "t.npz")
    assert list(values) == list(want) and all(info[k]["spilled"] for k in want)
    assert np.array_equal(values["1/body/0@1:out"], want["1/body/0@1:out"])
