"""u32/u64 values outside the i32 range, and float Converts to 16/32/64-bit integers: OpenVINO's CPU plugin
computes these types as i32; irlint gives the spec's value and says, with a DepartureWarning, where the
plugin's result differs. Measured here against the plugin, at the top level and in a Loop body."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

from irlint.interp import DepartureWarning
from tests.ops.lowp import cpu, irlint_run

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

U32_BIG = np.array([0, 5, 2**31, 2**32 - 1], np.uint32)
U64_BIG = np.array([0, 5, 2**31, 2**64 - 1], np.uint64)


def _top_and_body(build, xs: list[np.ndarray]):
    """build(params) at the top level and inside a one-iteration Loop body (invariant inputs)."""
    types = [ov.Type(x.dtype) for x in xs]
    ps = [ops.parameter(list(x.shape), t, name=f"x{i}") for i, (x, t) in enumerate(zip(xs, types))]
    bps = [ops.parameter(list(x.shape), t, name=f"b{i}") for i, (x, t) in enumerate(zip(xs, types))]
    res = ops.result(build(bps))
    loop = ops.loop(ops.constant(np.int64(1)), ops.constant(True))
    loop.set_function(ov.Model([res, ops.result(ops.constant(True))], bps))
    loop.set_special_body_ports([-1, 1])
    for p, bp in zip(ps, bps):
        loop.set_invariant_input(bp, p.output(0))
    top = ops.result(build(ps), name="top")
    body = ops.result(loop.get_iter_value(res.output(0), -1), name="body")
    return ov.Model([top, body], ps), [t.to_string() for t in types]


def _both(build, xs: list[np.ndarray], tmp_path: Path):
    """(irlint's top and body outputs, the plugin's, the departures irlint reported)."""
    model, types = _top_and_body(build, xs)
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always", DepartureWarning)
        got = irlint_run(model, xs, tmp_path)
    said = [str(w.message) for w in heard if issubclass(w.category, DepartureWarning)]
    return got, cpu(model, xs, types), said


def _const(x: np.ndarray, v: int):
    return ops.constant(np.array([v], x.dtype))


READERS = {  # name -> (build from the u32/u64 parameter, the plugin's result from the i32 view)
    "greater": (lambda p, x: ops.greater(_const(x, 0), p[0]), lambda v, x: v < 0),
    "maximum": (lambda p, x: ops.maximum(p[0], _const(x, 1)), lambda v, x: np.maximum(v, 1).astype(x.dtype)),
    "convert_f32": (lambda p, x: ops.convert(p[0], "f32"), lambda v, x: v.astype(np.float32)),
    "reduce_max": (lambda p, x: ops.reduce_max(p[0], ops.constant(np.array([0], np.int64)), True),
                   lambda v, x: np.array([v.max()]).astype(x.dtype)),
}


@pytest.mark.parametrize("name", sorted(READERS))
@pytest.mark.parametrize("x", [U32_BIG, U64_BIG], ids=["u32", "u64"])
def test_a_u32_u64_value_past_i32_is_read_as_signed_by_the_plugin_and_warns(name: str, x: np.ndarray,
                                                                           tmp_path: Path) -> None:
    """2**31 and 2**n - 1 are -2**31 and -1 on the plugin: Greater(0, them) is true, Maximum(them, 1) is 1.
    (A Convert reading a model input directly at the top level is the one exception: exact there.)"""
    build, plugin_of = READERS[name]
    (top, body), (top_cpu, body_cpu), said = _both(lambda p: build(p, x), [x], tmp_path)
    as_i32 = x.astype(np.uint32).view(np.int32)
    np.testing.assert_array_equal(body_cpu, plugin_of(as_i32, x))
    np.testing.assert_array_equal(top_cpu, plugin_of(x if name == "convert_f32" else as_i32, x))
    np.testing.assert_array_equal(top, plugin_of(x, x) if name != "greater" else x.astype(np.float64) < 0)
    np.testing.assert_array_equal(body, top)
    assert not np.array_equal(body, body_cpu)
    assert len(said) == 2 and all("computes u32 and u64 tensors as i32" in s for s in said), said


def test_a_u64_sum_past_i32_is_sign_extended_by_the_plugin(tmp_path: Path) -> None:
    """u64 2**31 + 1: the plugin adds in i32 (-2**31 + 1) and stores it sign-extended."""
    a, b = np.array([2**31, 3], np.uint64), np.array([1, 4], np.uint64)
    (top, body), (top_cpu, body_cpu), said = _both(lambda p: ops.add(p[0], p[1]), [a, b], tmp_path)
    np.testing.assert_array_equal(top, [2**31 + 1, 7])
    np.testing.assert_array_equal(body, top)
    np.testing.assert_array_equal(top_cpu, [2**64 - 2**31 + 1, 7])
    np.testing.assert_array_equal(body_cpu, top_cpu)
    assert len(said) == 2, said


@pytest.mark.parametrize("case", ["u32_add", "u64_add_minus_one", "u64_concat_minus_one", "u32_select"])
def test_a_value_the_plugin_holds_bit_identically_does_not_warn(case: str, tmp_path: Path) -> None:
    """u32 arithmetic wraps alike in i32; u64 2**64 - 1 is i32 -1 sign-extended back: no departure."""
    builds = {
        "u32_add": (lambda p: ops.add(p[0], p[1]), [U32_BIG, np.array([1, 1, 1, 1], np.uint32)]),
        "u64_add_minus_one": (lambda p: ops.add(p[0], p[1]), [np.array([2**64 - 1, 2**64 - 2], np.uint64),
                                                              np.array([1, 0], np.uint64)]),
        "u64_concat_minus_one": (lambda p: ops.concat([p[0], p[0]], 0), [np.array([2**64 - 1, 7], np.uint64)]),
        "u32_select": (lambda p: ops.select(ops.constant(np.array([True, False, True, False])), p[0], p[0]),
                       [U32_BIG]),
    }
    build, xs = builds[case]
    (top, body), (top_cpu, body_cpu), said = _both(build, xs, tmp_path)
    np.testing.assert_array_equal(top, top_cpu)
    np.testing.assert_array_equal(body, body_cpu)
    assert said == []


def test_a_u64_parameter_read_only_by_a_result_passes_unchanged(tmp_path: Path) -> None:
    x = np.array([2**31, 2**32 + 5, 2**64 - 1], np.uint64)
    p = ops.parameter([3], ov.Type.u64, name="x")
    model = ov.Model([ops.result(p, name="y")], [p])
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always", DepartureWarning)
        (got,) = irlint_run(model, [x], tmp_path)
    np.testing.assert_array_equal(got, x)
    np.testing.assert_array_equal(cpu(model, [x], ["u64"])[0], x)
    assert [w for w in heard if issubclass(w.category, DepartureWarning)] == []


def test_reduced_ti_body_compares_a_negative_float_converted_to_u64(tmp_path: Path) -> None:
    """Greater(s[k], Convert(m, u64)) in a TensorIterator body, m = -1.2: both give 2**64 - 1 for the Convert,
    the spec's Greater(0, 2**64 - 1) is false, the plugin's (0 > -1) true."""
    s = ops.parameter([2, 1], ov.Type.u64, name="s")
    m = ops.parameter([1], ov.Type.f32, name="m")
    bs = ops.parameter([1, 1], ov.Type.u64, name="bs")
    bm = ops.parameter([1], ov.Type.f32, name="bm")
    res = ops.result(ops.greater(ops.reshape(bs, ops.constant(np.array([1], np.int64)), False), ops.convert(bm, "u64")))
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([res], [bs, bm]))
    ti.set_sliced_input(bs, s.output(0), 0, 1, 1, -1, 0)
    ti.set_invariant_input(bm, m.output(0))
    model = ov.Model([ops.result(ti.get_concatenated_slices(res.output(0), 0, 1, 1, -1, 0), name="y")], [s, m])
    xs = [np.array([[0], [7]], np.uint64), np.array([-1.2], np.float32)]
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always", DepartureWarning)
        (got,) = irlint_run(model, xs, tmp_path)
    said = [str(w.message) for w in heard if issubclass(w.category, DepartureWarning)]
    np.testing.assert_array_equal(got, [False, False])
    np.testing.assert_array_equal(cpu(model, xs, ["u64", "f32"])[0], [True, True])
    assert len(said) == 1 and "Greater" in said[0] and "18446744073709551615 is -1 there" in said[0], said


@pytest.mark.parametrize("t", ["u16", "i16", "u32"])
def test_a_float_convert_to_16_or_32_bits_is_kept_as_i32_by_the_plugin_and_warns(t: str, tmp_path: Path) -> None:
    """Convert(-1.2, 70000, 3e9, 5, t), then to i64: the plugin's second Convert sees the i32 values -1, 70000,
    -2**31, 5; the spec's wrapped values are u16 65535, 4464, 0; i16 -1, 4464, 0; u32 2**32 - 1, 70000, 3e9."""
    x = np.array([-1.2, 70000.0, 3e9, 5.0], np.float32)
    (top, body), (top_cpu, body_cpu), said = _both(lambda p: ops.convert(ops.convert(p[0], t), "i64"), [x], tmp_path)
    np.testing.assert_array_equal(top_cpu, [-1, 70000, -2**31, 5])
    np.testing.assert_array_equal(body_cpu, top_cpu)
    spec = {"u16": [65535, 4464, 0, 5], "i16": [-1, 4464, 0, 5], "u32": [2**32 - 1, 70000, 3000000000, 5]}[t]
    np.testing.assert_array_equal(top, spec)
    np.testing.assert_array_equal(body, top)
    assert len(said) >= 2 and any("keeps it as the i32 value" in s for s in said), said


def test_a_float_convert_inside_the_range_does_not_warn(tmp_path: Path) -> None:
    x = np.array([-0.5, 65535.0, 3.7, 0.0], np.float32)
    (top, body), (top_cpu, body_cpu), said = _both(lambda p: ops.convert(p[0], "u16"), [x], tmp_path)
    np.testing.assert_array_equal(top, top_cpu)
    np.testing.assert_array_equal(body, body_cpu)
    assert said == []


@pytest.mark.parametrize("t", ["u16", "i16"])
def test_a_16_bit_float_convert_read_only_by_an_output_does_not_warn(t: str, tmp_path: Path) -> None:
    """At the top level a Convert read only by a Result is stored wrapped by the plugin, as irlint gives it."""
    x = np.array([-1.2, 70000.0, 3e9, 5.0], np.float32)
    p = ops.parameter([4], ov.Type.f32, name="x")
    model = ov.Model([ops.result(ops.convert(p, t), name="y")], [p])
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always", DepartureWarning)
        (got,) = irlint_run(model, [x], tmp_path)
    np.testing.assert_array_equal(got, cpu(model, [x], ["f32"])[0])
    assert [w for w in heard if issubclass(w.category, DepartureWarning)] == []


@pytest.mark.parametrize("t", ["u16", "i16"])
@pytest.mark.parametrize("x", [np.array([-1, 70000, 5, -70000], np.int32), np.array([-1, 70000, 5], np.int64),
                               np.array([-1, 5, -128], np.int8)], ids=["i32", "i64", "i8"])
def test_an_integer_convert_to_16_bits_is_kept_as_i32_by_the_plugin_and_warns(t: str, x: np.ndarray,
                                                                              tmp_path: Path) -> None:
    """Convert(x, t), then to i32: the plugin keeps the integer as i32 (70000 stays 70000, -1 stays -1 even
    through u16), where the spec wraps it to the type (u16 65535, 4464; i16 -1, 4464)."""
    (top, body), (top_cpu, body_cpu), said = _both(lambda p: ops.convert(ops.convert(p[0], t), "i32"), [x], tmp_path)
    np.testing.assert_array_equal(top_cpu, x.astype(np.int32))
    np.testing.assert_array_equal(body_cpu, top_cpu)
    np.testing.assert_array_equal(top, x.astype(t.replace("u", "uint").replace("i1", "int1")).astype(np.int32))
    np.testing.assert_array_equal(body, top)
    wraps = not np.array_equal(top, top_cpu)
    assert wraps == (x.dtype != np.int8 or t == "u16")
    assert (len(said) >= 2 and all("keeps it as the i32 value" in s for s in said)) if wraps else said == [], said


def test_an_integer_convert_to_u8_wraps_on_the_plugin_too_and_does_not_warn(tmp_path: Path) -> None:
    x = np.array([-1, 70000, 5], np.int32)
    (top, body), (top_cpu, body_cpu), said = _both(lambda p: ops.convert(ops.convert(p[0], "u8"), "i32"), [x], tmp_path)
    np.testing.assert_array_equal(top, [255, 112, 5])
    np.testing.assert_array_equal(top_cpu, top)
    np.testing.assert_array_equal(body_cpu, body)
    assert said == []
