"""A TensorIterator slicing a sub-range of an input whose dim is known only at run time: OpenVINO 2026.4's
CPU plugin runs it over other elements than the spec (end exclusive, a negative value as dim + 1 + value),
and irlint's run says so with a DepartureWarning (SL607 says it statically where the dim is static)."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.interp import DepartureWarning

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")


def summing_ti(start: int, end: int, stride: int = 1):
    """acc + X[:, k] over the slices of X [2, ?] along axis 1 from `start` to `end`; the last acc is `y`."""
    x = ops.parameter([2, -1], np.float32, name="X")
    xi, acc = ops.parameter([2, 1], np.float32), ops.parameter([2, 1], np.float32)
    nxt = ops.result(ops.add(acc, xi))
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([nxt], [xi, acc]))
    ti.set_sliced_input(xi, x.output(0), start, stride, 1, end, 1)
    ti.set_merged_input(acc, ops.constant(np.zeros((2, 1), np.float32)).output(0), nxt.output(0))
    return ov.Model([ops.result(ti.get_iter_value(nxt.output(0), -1), name="y")], [x])


X = np.array([[1, 10, 100, 1000], [2, 20, 200, 2000]], np.float32)


def _both(model, tmp_path: Path) -> tuple[np.ndarray, np.ndarray, list[str]]:
    path = tmp_path / "m.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    core = ov.Core()
    cpu = np.asarray(core.compile_model(core.read_model(str(path)), "CPU",
                                        {"INFERENCE_PRECISION_HINT": "f32"})([X])[0])
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always", DepartureWarning)
        ours = irlint.run(irlint.load(path), {"X": X})["y"]
    return cpu, ours, [str(w.message) for w in heard if issubclass(w.category, DepartureWarning)]


def test_end_2_reads_two_slices_on_the_cpu_plugin_and_three_in_the_spec(tmp_path: Path) -> None:
    cpu, ours, said = _both(summing_ti(0, 2), tmp_path)
    np.testing.assert_array_equal(cpu.ravel(), [11, 22])  # columns 0 and 1
    np.testing.assert_array_equal(ours.ravel(), [111, 222])  # columns 0 to 2, end inclusive
    assert len(said) == 1 and "3 slices from element 0" in said[0] and "reads 2 slices from element 0" in said[0]


def test_start_1_reads_from_element_0_on_the_cpu_plugin(tmp_path: Path) -> None:
    """start 1 end -1: the spec reads columns 1 to 3, the plugin 3 columns from column 0."""
    cpu, ours, said = _both(summing_ti(1, -1), tmp_path)
    np.testing.assert_array_equal(cpu.ravel(), [111, 222])
    np.testing.assert_array_equal(ours.ravel(), [1110, 2220])
    assert len(said) == 1 and "from element 1" in said[0] and "reads 3 slices from element 0" in said[0]


@pytest.mark.parametrize("start,end,stride", [(0, -1, 1), (-1, 0, -1)])
def test_no_warning_where_both_read_the_same(start: int, end: int, stride: int, tmp_path: Path) -> None:
    """The whole axis, forwards and backwards."""
    cpu, ours, said = _both(summing_ti(start, end, stride), tmp_path)
    np.testing.assert_array_equal(cpu, ours)
    assert said == []
