"""Narrow integer arithmetic that wraps: irlint gives the spec's (wrapped) value and says, with a
DepartureWarning, that OpenVINO's CPU plugin computes otherwise; measured here against the plugin."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from irlint.interp import DepartureWarning
from tests.ops.lowp import cpu, irlint_run

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

AXIS0 = np.array([0], np.int64)
CASES = {  # name -> (build from two parameters, the exact result over int64)
    "add": (ops.add, np.add),
    "subtract": (ops.subtract, np.subtract),
    "multiply": (ops.multiply, np.multiply),
    "reduce_sum": (lambda a, b: ops.reduce_sum(ops.concat([ops.unsqueeze(a, AXIS0), ops.unsqueeze(b, AXIS0)], 0),
                                               ops.constant(AXIS0)), np.add),
}


def _run(build, a: np.ndarray, b: np.ndarray, t: str, tmp_path: Path) -> tuple[np.ndarray, np.ndarray, list[str]]:
    pa, pb = (ops.parameter(list(a.shape), getattr(ov.Type, t), name=n) for n in ("a", "b"))
    model = ov.Model([ops.result(build(pa, pb), name="y")], [pa, pb])
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always", DepartureWarning)
        (got,) = irlint_run(model, [a, b], tmp_path)
    said = [str(w.message) for w in heard if issubclass(w.category, DepartureWarning)]
    return got, cpu(model, [a, b], [t, t])[0], said


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("t", ["u8", "i8"])
def test_a_wrapping_8_bit_result_warns_and_the_plugin_saturates(name: str, t: str, tmp_path: Path) -> None:
    dt = {"u8": np.uint8, "i8": np.int8}[t]
    info = np.iinfo(dt)
    a = np.array([info.max - 10, info.min + 10, 7, 3], dt)
    b = np.array([20, 20 if name == "subtract" else -20 if t == "i8" else 20, 2, 1], dt)
    got, plugin, said = _run(CASES[name][0], a, b, t, tmp_path)
    exact = CASES[name][1](a.astype(np.int64), b.astype(np.int64))
    np.testing.assert_array_equal(got, exact.astype(dt))  # wrapped, as the spec's C++ arithmetic
    np.testing.assert_array_equal(plugin, np.clip(exact, info.min, info.max))
    assert len(said) == 1 and f"{np.dtype(dt)} result wraps" in said[0] and "saturates" in said[0], said


@pytest.mark.parametrize("t", ["u8", "i8", "i32"])
def test_no_warning_where_nothing_wraps(t: str, tmp_path: Path) -> None:
    dt = {"u8": np.uint8, "i8": np.int8, "i32": np.int32}[t]
    a, b = np.array([100, 3], dt), np.array([20, 4], dt)
    got, plugin, said = _run(ops.add, a, b, t, tmp_path)
    np.testing.assert_array_equal(got, plugin)
    assert said == []


def test_a_16_bit_sum_is_computed_in_i32_by_the_plugin(tmp_path: Path) -> None:
    """i16 30000 + 10000: the plugin stores -25536 as i16, but a Convert after the Add sees 40000."""
    a, b = np.array([30000, 1], np.int16), np.array([10000, 1], np.int16)
    got, plugin, said = _run(lambda x, y: ops.convert(ops.add(x, y), np.int32), a, b, "i16", tmp_path)
    np.testing.assert_array_equal(got, [-25536, 2])
    np.testing.assert_array_equal(plugin, [40000, 2])
    assert len(said) == 1 and "int16 result wraps" in said[0] and "i32" in said[0], said


def _convert_in_loop(t: str):
    """y = Convert(x, t) at the top level and inside a one-iteration Loop body, x an f32 [1, 6]."""
    bx = ops.parameter([1, 6], ov.Type.f32, name="bx")
    res = ops.result(ops.convert(bx, t))
    loop = ops.loop(ops.constant(np.int64(1)), ops.constant(True))
    loop.set_function(ov.Model([res, ops.result(ops.constant(True))], [bx]))
    loop.set_special_body_ports([-1, 1])
    x = ops.parameter([1, 6], ov.Type.f32, name="x")
    loop.set_sliced_input(bx, x.output(0), 0, 1, 1, -1, 0)
    top = ops.result(ops.convert(x, t), name="top")
    body = ops.result(loop.get_concatenated_slices(res.output(0), 0, 1, 1, -1, 0), name="body")
    return ov.Model([top, body], [x])


@pytest.mark.parametrize("t", ["u8", "i8"])
def test_a_float_outside_the_byte_range_converts_as_undefined_and_warns(t: str, tmp_path: Path) -> None:
    """The plugin wraps at the top level (u8: -1.5 -> 255, 300 -> 44) and saturates inside a body."""
    dt = np.dtype({"u8": np.uint8, "i8": np.int8}[t])
    info = np.iinfo(dt)
    x = np.array([[-1.5, -200.0, 300.7, 256.0, 2.9, 70000.0]], np.float32)
    model = _convert_in_loop(t)
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always", DepartureWarning)
        top, body = irlint_run(model, [x], tmp_path)
    said = [str(w.message) for w in heard if issubclass(w.category, DepartureWarning)]
    top_cpu, body_cpu = cpu(model, [x], ["f32"])
    wrapped = np.trunc(x).astype(np.int64).astype(dt)
    np.testing.assert_array_equal(top, wrapped)
    np.testing.assert_array_equal(body, wrapped)
    np.testing.assert_array_equal(top_cpu, wrapped)
    np.testing.assert_array_equal(body_cpu, np.clip(np.trunc(x), info.min, info.max).astype(dt))
    assert len(said) == 2 and all("outside the type's range" in s and "saturates" in s for s in said), said


def test_a_float_inside_the_byte_range_converts_without_a_warning(tmp_path: Path) -> None:
    x = np.array([[-0.9, 0.0, 2.5, 254.9, 255.0, 7.0]], np.float32)
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always", DepartureWarning)
        top, body = irlint_run(_convert_in_loop("u8"), [x], tmp_path)
    assert [w for w in heard if issubclass(w.category, DepartureWarning)] == []
    np.testing.assert_array_equal(top, [[0, 0, 2, 254, 255, 7]])
    np.testing.assert_array_equal(body, top)


@pytest.mark.parametrize("name", sorted(CASES))
def test_an_i64_result_outside_i32_warns_and_the_plugin_wraps_it_in_i32(name: str, tmp_path: Path) -> None:
    """The plugin computes i64 as i32: 100000 * 100000 is 1410065408 there (a ReduceSum's sum outside the
    range is -2**31); irlint keeps the i64 value."""
    a = np.array([100000, 3, -2**31 + 5], np.int64)
    b = np.array([100000 if name == "multiply" else 2**31 - 1, 4, 10 if name == "subtract" else -10], np.int64)
    got, plugin, said = _run(CASES[name][0], a, b, "i64", tmp_path)
    exact = CASES[name][1](a, b)
    np.testing.assert_array_equal(got, exact)
    if name == "reduce_sum":  # through f32: a sum outside the range converts to -2**31
        np.testing.assert_array_equal(plugin, [-2**31, 7, -2**31])
    else:
        np.testing.assert_array_equal(plugin, exact.astype(np.int32))  # wrapped in i32
    assert len(said) == 1 and "outside the i32 range" in said[0] and "as i32" in said[0], said


def test_an_i64_input_outside_i32_warns_and_the_plugin_converts_it(tmp_path: Path) -> None:
    a, b = np.array([2**33 + 5, 1], np.int64), np.array([0, 1], np.int64)
    got, plugin, said = _run(ops.add, a, b, "i64", tmp_path)
    np.testing.assert_array_equal(got, [2**33 + 5, 2])
    np.testing.assert_array_equal(plugin, [5, 2])
    assert len(said) == 2 and "input 'a'" in said[0] and "converts i64 inputs to i32" in said[0], said


def test_i64_inside_the_i32_range_does_not_warn(tmp_path: Path) -> None:
    a, b = np.array([2**31 - 2, -2**31], np.int64), np.array([1, 0], np.int64)
    got, plugin, said = _run(ops.add, a, b, "i64", tmp_path)
    np.testing.assert_array_equal(got, plugin)
    assert said == []


def _reduce_in_loop(reduce, n: int):
    """y = reduce(x) over axis 0 at the top level and inside a one-iteration Loop body, x an i32 [n, 3]."""
    axis = lambda: ops.constant(AXIS0)  # noqa: E731
    bx = ops.parameter([n, 3], ov.Type.i32, name="bx")
    res = ops.result(reduce(bx, axis()))
    loop = ops.loop(ops.constant(np.int64(1)), ops.constant(True))
    loop.set_function(ov.Model([res, ops.result(ops.constant(True))], [bx]))
    loop.set_special_body_ports([-1, 1])
    x = ops.parameter([n, 3], ov.Type.i32, name="x")
    loop.set_invariant_input(bx, x.output(0))
    top = ops.result(reduce(x, axis()), name="top")
    body = ops.result(loop.get_iter_value(res.output(0), -1), name="body")
    return ov.Model([top, body], [x])


REDUCTIONS = {"reduce_sum": (ops.reduce_sum, np.sum), "reduce_max": (ops.reduce_max, np.max),
              "reduce_min": (ops.reduce_min, np.min), "reduce_mean": (ops.reduce_mean, np.mean)}


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
def test_an_i32_reduction_is_computed_in_f32_by_the_plugin_and_warns(name: str, tmp_path: Path) -> None:
    """Each element is rounded to f32 (16777217 -> 16777216), the result too; irlint computes in integers."""
    build, exact = REDUCTIONS[name]
    x = np.array([[2**24 + 1, 2**24 + 3, 123456789], [2**24 + 1, 2**24 + 3, 123456789]], np.int32)
    model = _reduce_in_loop(build, 2)
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always", DepartureWarning)
        top, body = irlint_run(model, [x], tmp_path)
    said = [str(w.message) for w in heard if issubclass(w.category, DepartureWarning)]
    want = exact(x.astype(np.int64), axis=0).astype(np.int32)
    np.testing.assert_array_equal(top, want)
    np.testing.assert_array_equal(body, want)
    in_f32 = exact(x.astype(np.float32), axis=0).astype(np.int32)
    assert not np.array_equal(in_f32, want)
    for got in cpu(model, [x], ["i32"]):
        np.testing.assert_array_equal(got, in_f32)  # 33554432 for 2 * 16777217: the f32 sum
    assert len(said) == 2 and all("in f32" in s and "CPU plugin" in s for s in said), said


def test_an_i32_sum_whose_partial_sums_pass_2_24_warns(tmp_path: Path) -> None:
    """Every element is exact in f32, but 2**24 + 1 is not: [2**24, 1, -1] sums to 16777215 in the plugin."""
    x = np.array([[2**24, 5, 7], [1, 6, 8], [-1, 7, 9]], np.int32)
    model = _reduce_in_loop(ops.reduce_sum, 3)
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always", DepartureWarning)
        top, _body = irlint_run(model, [x], tmp_path)
    said = [str(w.message) for w in heard if issubclass(w.category, DepartureWarning)]
    np.testing.assert_array_equal(top, [2**24, 18, 24])
    np.testing.assert_array_equal(cpu(model, [x], ["i32"])[0], [2**24 - 1, 18, 24])
    assert len(said) == 2 and "past 2**24" in said[0], said


@pytest.mark.parametrize("name", sorted(REDUCTIONS))
def test_an_i32_reduction_within_2_24_does_not_warn(name: str, tmp_path: Path) -> None:
    x = np.array([[2**23, -7, 1000], [2**23 - 1, 9, -1000]], np.int32)
    model = _reduce_in_loop(REDUCTIONS[name][0], 2)
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always", DepartureWarning)
        top, body = irlint_run(model, [x], tmp_path)
    assert [w for w in heard if issubclass(w.category, DepartureWarning)] == []
    for got in cpu(model, [x], ["i32"]):
        np.testing.assert_array_equal(got, top)
    np.testing.assert_array_equal(body, top)
