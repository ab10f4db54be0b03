"""f16 arithmetic that overflows: irlint gives the spec's inf (and the NaN that follows) and says,
with a DepartureWarning, that OpenVINO's CPU plugin computes f16 ops in f32, where the value stays
finite until a model output rounds it; measured here against the plugin."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from irlint.interp import DepartureWarning
from tests.ops.lowp import cpu, irlint_run

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

X = np.array([300.0, 2.0], np.float16)  # 300 * 300 = 90000 overflows f16 (max 65504)


def _heard(model, inputs: list[np.ndarray], tmp_path: Path) -> tuple[list[np.ndarray], list[str]]:
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always", DepartureWarning)
        got = irlint_run(model, inputs, tmp_path)
    return got, [str(w.message) for w in heard if issubclass(w.category, DepartureWarning)]


def _top_level():
    """y = x * x; outputs y - y, Relu(-y) and y itself."""
    x = ops.parameter([2], ov.Type.f16, name="x")
    y = ops.multiply(x, x)
    return ov.Model([ops.result(ops.subtract(y, y), name="d"), ops.result(ops.relu(ops.negative(y)), name="r"),
                     ops.result(y, name="y")], [x])


def _loop(trips: int):
    """A Loop whose f16 state s' = s * s runs `trips` times from x; its final state y gives y - y and y."""
    bs = ops.parameter([2], ov.Type.f16, name="bs")
    sq = ops.result(ops.multiply(bs, bs))
    loop = ops.loop(ops.constant(np.int64(trips)), ops.constant(True))
    loop.set_function(ov.Model([sq, ops.result(ops.constant(True))], [bs]))
    loop.set_special_body_ports([-1, 1])
    x = ops.parameter([2], ov.Type.f16, name="x")
    loop.set_merged_input(bs, x.output(0), sq.output(0))
    y = loop.get_iter_value(sq.output(0), -1)
    return ov.Model([ops.result(ops.subtract(y, y), name="d"), ops.result(y, name="y")], [x])


def test_an_overflowing_f16_product_read_by_an_op_warns_and_the_plugin_computes_it_in_f32(tmp_path: Path) -> None:
    model = _top_level()
    (d, r, y), said = _heard(model, [X], tmp_path)
    d_cpu, r_cpu, y_cpu = cpu(model, [X], ["f16"])
    with np.errstate(invalid="ignore"):
        assert np.isnan(d[0]) and d[1] == 0 and r[0] == 0  # the spec: inf - inf, Relu(-inf)
    np.testing.assert_array_equal(d_cpu, [0, 0])  # 90000 - 90000 in f32
    np.testing.assert_array_equal(r_cpu, [0, 0])
    np.testing.assert_array_equal(y, [np.inf, 4])  # the model output is rounded on both
    np.testing.assert_array_equal(y_cpu, [np.inf, 4])
    assert len(said) == 1 and "Multiply" in said[0] and "f32" in said[0] and "90000" in said[0], said


def test_an_f16_loop_state_overflowing_in_the_body_warns(tmp_path: Path) -> None:
    """s * s in the body overflows in the second iteration (90000 ** 2 is 8.1e9 in f32)."""
    model = _loop(2)
    (d, y), said = _heard(model, [X], tmp_path)
    d_cpu, y_cpu = cpu(model, [X], ["f16"])
    assert np.isnan(d[0]) and d[1] == 0
    np.testing.assert_array_equal(d_cpu, [0, 0])
    np.testing.assert_array_equal(y, [np.inf, 16])
    np.testing.assert_array_equal(y_cpu, [np.inf, 16])
    assert len(said) == 1 and "Multiply" in said[0] and "CPU plugin computes f16 ops in f32" in said[0], said


def test_no_warning_where_f16_stays_finite_or_only_an_output_overflows(tmp_path: Path) -> None:
    small = np.array([100.0, 2.0], np.float16)  # 100 * 100 = 10000 is an f16
    got, said = _heard(_top_level(), [small], tmp_path)
    assert said == []
    for mine, theirs in zip(got, cpu(_top_level(), [small], ["f16"])):
        np.testing.assert_array_equal(mine, theirs)
    x = ops.parameter([2], ov.Type.f16, name="x")
    only_output = ov.Model([ops.result(ops.multiply(x, x), name="y")], [x])
    (y,), said = _heard(only_output, [X], tmp_path)
    assert said == []  # the plugin rounds the output to inf as well
    np.testing.assert_array_equal(y, cpu(only_output, [X], ["f16"])[0])
