"""A TensorIterator sub-range on an axis whose length is known only at run time: the spec reads
`start`..`end` (inclusive), OpenVINO's CPU plugin counts (hi - lo) with end exclusive and places the
parts from element 0, or for a negative stride from the axis's last whole part down, whatever `start`
says. SL607 warns where the two read other elements on some length. Measured against the CPU plugin."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.api import check
from irlint.controlflow import cpu_plugin_plan, length_read_otherwise

ov = pytest.importorskip("openvino")
CPU = {"INFERENCE_PRECISION_HINT": "f32"}


def _ti(start: int, end: int, stride: int, part: int, rows: int | None):
    """y = the concatenation of the slices of x [rows or ?, 1] (parts of `part` rows), in order."""
    import openvino.opset13 as ops

    x = ops.parameter([-1 if rows is None else rows, 1], np.float32, name="x")
    xi = ops.parameter([part, 1], np.float32)
    r = ops.result(ops.multiply(xi, ops.constant(np.float32(1))))
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([r], [xi]))
    ti.set_sliced_input(xi, x.output(0), start, stride, part, end, 0)
    out = ti.get_concatenated_slices(r.output(0), 0, part, part, -1, 0)
    return ov.Model([ops.result(out, name="y")], [x], "ti_sub_range")


def _cpu(model, x: np.ndarray) -> list[int]:
    return ov.Core().compile_model(model, "CPU", CPU)({"x": x})["y"][:, 0].astype(int).tolist()


@pytest.mark.parametrize("start,end,stride,part,rows", [
    (-3, 0, -1, 1, 4), (-2, 0, -1, 1, 3), (2, 0, -1, 1, 4), (1, -1, 1, 1, 4), (-1, -3, -1, 1, 5),
    (-3, 0, -2, 2, 6), (-2, 0, -2, 2, 5), (-1, 0, -1, 1, 4), (0, -2, 1, 1, 5)])
def test_the_cpu_plugin_reads_what_cpu_plugin_plan_says(start, end, stride, part, rows) -> None:
    """A negative stride starts at the axis's last whole part (start -3 on 4 rows reads 3, 2, not 1, 0)."""
    x = np.arange(rows, dtype=np.float32).reshape(rows, 1)
    first, count, step = cpu_plugin_plan(rows, start, end, stride, part)
    want = [first + k * step + j for k in range(count) for j in range(part)]
    assert _cpu(_ti(start, end, stride, part, None), x) == want


def _save(model, tmp_path: Path) -> Path:
    path = tmp_path / "m.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    return path


def test_a_reversed_sub_range_of_unknown_length_warns_and_reads_otherwise(tmp_path) -> None:
    """start -3, end 0, stride -1 on x [?,1] fed 3 rows: the spec reads row 0, the plugin row 2."""
    model = _ti(-3, 0, -1, 1, None)
    x = np.arange(3, dtype=np.float32).reshape(3, 1)
    path = _save(model, tmp_path)
    assert _cpu(model, x) == [2]
    assert irlint.run(irlint.load(path), {"x": x})["y"][:, 0].tolist() == [0]
    found = [d for d in check(path) if d.code == "SL607"]
    assert len(found) == 1 and "on a length of 3" in found[0].message, found


@pytest.mark.parametrize("start,end,stride", [(0, -1, 1), (-1, 0, -1), (0, -2, 1), (-1, 1, -1)])
def test_ranges_read_alike_on_every_length_do_not_warn(start, end, stride, tmp_path) -> None:
    assert length_read_otherwise(start, end, stride, 1) is None
    model = _ti(start, end, stride, 1, None)
    path = _save(model, tmp_path)
    assert "SL607" not in {d.code for d in check(path)}
    for rows in (3, 5):
        x = np.arange(rows, dtype=np.float32).reshape(rows, 1)
        np.testing.assert_array_equal(irlint.run(irlint.load(path), {"x": x})["y"][:, 0], _cpu(model, x))
