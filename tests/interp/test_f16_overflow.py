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


EXTREMES = np.array([0, -0.0, 6e-8, 0.5, -0.5, 1, -1, 3, -3, 11.5, -11.5, 12, -12, 20, -20, 255, 1000, -1000,
                     30000, -30000, 65504, -65504, np.inf, -np.inf, np.nan], np.float16)


def _departures(kind: str, args: list[np.ndarray]) -> int:
    """How many values irlint's kernel gives as inf or NaN in f16 where the same op in f32 is finite."""
    from irlint.ops import bind_attrs, lookup

    op = lookup(kind)
    attrs = bind_attrs(op.Attrs, {"mode": "half_to_even"} if kind == "Round" else {})[0]
    with np.errstate(all="ignore"):
        narrow = np.asarray(op.compute(attrs, args)[0])
        wide = np.asarray(op.compute(attrs, [a.astype(np.float32) if a.dtype == np.float16 else a for a in args])[0])
    assert narrow.dtype == np.float16
    return int((~np.isfinite(narrow) & np.isfinite(wide)).sum())


def test_the_ops_never_watched_for_f16_give_no_inf_where_f32_is_finite() -> None:
    """F16_SAFE's elementwise ops on f16's extremes (every pair for the binary ones): no departure to
    watch for; Exp, Add, Multiply and Divide, watched, do depart there."""
    from irlint.interp.overflow import F16_SAFE

    a, b = np.meshgrid(EXTREMES, EXTREMES)
    unary = ["Tanh", "Sigmoid", "Sin", "Cos", "Erf", "Atan", "Asinh", "Relu", "Abs", "Negative", "Floor",
             "Ceiling", "Round", "Sign", "Sqrt", "Log", "HSigmoid", "SoftSign"]
    for kind in unary:
        assert kind in F16_SAFE and _departures(kind, [EXTREMES]) == 0, kind
    for kind in ("Minimum", "Maximum"):
        assert kind in F16_SAFE and _departures(kind, [a, b]) == 0, kind
    assert _departures("Select", [a > b, a, b]) == 0
    assert _departures("Exp", [EXTREMES]) > 0 and "Exp" not in F16_SAFE
    for kind in ("Add", "Multiply", "Divide"):
        assert _departures(kind, [a, b]) > 0 and kind not in F16_SAFE, kind
