"""OpenVINO's numeric edge cases, each run on irlint, the CPU plugin and the core reference (`Node.evaluate`).

irlint follows the core reference where the two differ; every such case asserts what both do, so a
change in either shows up here. docs/semantics.md ("Numeric edge cases") lists the outcomes.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

from tests.ops.lowp import bits, cpu, irlint_run, reference

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset15")

I32_MIN, I32_MAX = np.iinfo(np.int32).min, np.iinfo(np.int32).max
F32_MAX = np.finfo(np.float32).max


def _run(build, xs: list[np.ndarray], types: list[str], tmp_path, *, with_reference: bool = True):
    """(irlint, CPU plugin, core reference or None) for the one-node model `build(*parameters)`."""
    ps = [ops.parameter(list(x.shape), getattr(ov.Type, t), name=f"p{i}") for i, (x, t) in enumerate(zip(xs, types))]
    node = build(*ps)
    model = ov.Model([ops.result(node, name="y")], ps)
    got = irlint_run(model, xs, tmp_path)[0]
    plugin = cpu(model, xs, types)[0]
    ref = None
    if with_reference:
        node = node.node if hasattr(node, "node") else node
        out = reference(node, xs, types)
        ref = out[0] if out else None
    return got, plugin, ref


def _axes(*v: int):
    return ops.constant(np.array(v, np.int64))


# ------------------------------------------------------------------------ reductions over an empty axis


EMPTY = {  # reduction: (f32 result, i32 result) over a zero-length axis, per the core reference
    "reduce_max": (-F32_MAX, I32_MIN),
    "reduce_min": (np.inf, I32_MAX),
    "reduce_prod": (1, 1),
    "reduce_sum": (0, 0),
    "reduce_mean": (0, 0),
    "reduce_l1": (0, 0),
    "reduce_l2": (0, 0),
}


@pytest.mark.parametrize("dtype", ["f32", "i32"])
@pytest.mark.parametrize("name", sorted(EMPTY))
def test_reduce_over_an_empty_axis(name, dtype, tmp_path) -> None:
    x = np.zeros((2, 0, 3), np.float32 if dtype == "f32" else np.int32)
    got, plugin, ref = _run(lambda p: getattr(ops, name)(p, _axes(1), False), [x], [dtype], tmp_path)
    want = np.full((2, 3), EMPTY[name][dtype == "i32"], x.dtype)
    if ref is not None:  # (no integer ReduceL2 in the reference)
        np.testing.assert_array_equal(ref, want)
    np.testing.assert_array_equal(got, want)
    if (name, dtype) == ("reduce_min", "f32"):  # the plugin starts a minimum from FLT_MAX, not +inf
        np.testing.assert_array_equal(plugin, np.full((2, 3), F32_MAX, np.float32))
    else:
        np.testing.assert_array_equal(plugin, want)


@pytest.mark.parametrize("tname", ["bf16", "f16"])
def test_reduce_max_min_over_an_empty_axis_narrow(tname, tmp_path) -> None:
    """-inf / +inf: the f32 starting values rounded to the narrow type."""
    from tests.ops.lowp import etype

    dt = etype(tname).dtype
    x = np.zeros((2, 0), dt)
    got_max, plugin_max, ref_max = _run(lambda p: ops.reduce_max(p, _axes(1), False), [x], [tname], tmp_path)
    got_min, _, ref_min = _run(lambda p: ops.reduce_min(p, _axes(1), False), [x], [tname], tmp_path)

    # f32's lowest rounded to the narrow type is -inf in the reference (and the plugin for f16; for
    # bf16 the plugin saturates to bf16's lowest finite value).
    assert got_max.dtype == dt and np.all(np.isneginf(got_max.astype(np.float32)))
    np.testing.assert_array_equal(bits(got_max), bits(ref_max))
    want_plugin = np.full(2, float(ml_dtypes.finfo(dt).min) if tname == "bf16" else -np.inf, np.float32).astype(dt)
    np.testing.assert_array_equal(bits(plugin_max), bits(want_plugin))
    np.testing.assert_array_equal(bits(got_min), bits(ref_min))
    assert np.all(np.isposinf(got_min.astype(np.float32)))


# ------------------------------------------------------------------------ NaN


N1 = np.array([np.nan, 1, np.nan, -np.inf, 2, -0.0], np.float32)
N2 = np.array([1, np.nan, np.nan, np.nan, -0.0, 0.0], np.float32)


@pytest.mark.parametrize("name", ["maximum", "minimum"])
def test_maximum_minimum_nan_follow_the_reference(name, tmp_path) -> None:
    """Reference: the first input wins when a NaN is involved (`a < b ? b : a`); the plugin: the second
    (x86 maxps/minps)."""
    got, plugin, ref = _run(getattr(ops, name), [N1, N2], ["f32", "f32"], tmp_path)
    np.testing.assert_array_equal(bits(got), bits(ref))
    np.testing.assert_array_equal(got[:4], N1[:4])
    assert plugin[0] == 1 and np.isnan(plugin[1]) and np.isnan(plugin[3])


NAN_ROWS = np.array([[1, np.nan, 3], [np.nan, -1, 0], [2, 5, np.nan], [np.nan, np.nan, np.nan]], np.float32)


@pytest.mark.parametrize("name,want", [("reduce_max", [3, 0, 5, -F32_MAX]), ("reduce_min", [1, -1, 2, np.inf])])
def test_reduce_max_min_skip_nan(name, want, tmp_path) -> None:
    """Reference: NaNs are skipped (`v > acc ? v : acc`); an all-NaN row gives the starting value.
    The plugin returns NaN when the last element is NaN and skips the others."""
    got, plugin, ref = _run(lambda p: getattr(ops, name)(p, _axes(1), False), [NAN_ROWS], ["f32"], tmp_path)
    np.testing.assert_array_equal(ref, np.array(want, np.float32))
    np.testing.assert_array_equal(got, ref)
    assert np.isnan(plugin[2])


@pytest.mark.parametrize("name", ["relu", "clamp"])
def test_relu_and_clamp_keep_nan(name, tmp_path) -> None:
    """Reference: NaN stays NaN; the plugin turns it into 0 (Relu) or the lower bound (Clamp)."""
    build = ops.relu if name == "relu" else (lambda p: ops.clamp(p, -0.5, 2.5))
    got, plugin, ref = _run(build, [NAN_ROWS], ["f32"], tmp_path)
    np.testing.assert_array_equal(got, ref)
    assert np.isnan(got[0, 1]) and plugin[0, 1] == (0 if name == "relu" else -0.5)


# ------------------------------------------------------------------------ integers


A = np.array([-7, 7, -7, 7, -8, I32_MIN, 9], np.int32)
B = np.array([2, -2, -2, 2, 3, -1, 4], np.int32)


@pytest.mark.parametrize("python_div", [True, False])
def test_integer_divide(python_div, tmp_path) -> None:
    """`m_pythondiv=true` floors (the spec; the plugin truncates either way), false truncates; INT_MIN / -1
    wraps to INT_MIN in irlint and the plugin."""

    def build(a, b):
        n = ops.divide(a, b)
        n.set_attribute("m_pythondiv", python_div)
        return n

    got, plugin, _ = _run(build, [A, B], ["i32", "i32"], tmp_path, with_reference=False)
    want = np.floor_divide(A.astype(np.int64), B) if python_div else np.trunc(A.astype(np.float64) / B)
    want = want.astype(np.int64).astype(np.int32)
    np.testing.assert_array_equal(got, want)
    # The reference kills the process on INT_MIN / -1 (SIGFPE): it is asked about the rest.
    keep = A != I32_MIN
    p = [ops.parameter([int(keep.sum())], ov.Type.i32, name=f"p{i}") for i in range(2)]
    (ref,) = reference(build(*p), [A[keep], B[keep]], ["i32", "i32"])
    np.testing.assert_array_equal(ref, want[keep])
    np.testing.assert_array_equal(plugin, np.trunc(A.astype(np.float64) / B).astype(np.int64).astype(np.int32))


def test_integer_division_by_zero(tmp_path) -> None:
    """Undefined: the reference throws, the plugin gives INT_MIN (its float path); irlint gives 0 for
    Divide, Mod and FloorMod (the reference's Mod kills the process, so it is not called)."""
    a, b = np.array([7, -7, 0], np.int32), np.zeros(3, np.int32)
    for build in (ops.divide, ops.floor_mod, ops.mod):
        got, plugin, _ = _run(build, [a, b], ["i32", "i32"], tmp_path, with_reference=False)
        np.testing.assert_array_equal(got, [0, 0, 0])
        np.testing.assert_array_equal(plugin, [I32_MIN] * 3)
    p = [ops.parameter([3], ov.Type.i32, name=f"p{i}") for i in range(2)]
    with pytest.raises((RuntimeError, ValueError), match="division by zero"):
        reference(ops.divide(*p), [a, b], ["i32", "i32"])


@pytest.mark.parametrize("dtype", ["i32", "f32"])
def test_floor_mod_and_mod_with_negatives(dtype, tmp_path) -> None:
    """FloorMod takes the divisor's sign, Mod the dividend's, on all three."""
    a = np.array([-7, 7, -7, 7, -8, 0], np.float32) + (0.5 if dtype == "f32" else 0)
    b = np.array([2, -2, -2, 2, 3, 3], np.float32)
    a, b = a.astype(np.int32 if dtype == "i32" else np.float32), b.astype(a.dtype if dtype == "f32" else np.int32)
    for name, fn in (("floor_mod", np.mod), ("mod", np.fmod)):
        got, plugin, ref = _run(getattr(ops, name), [a, b], [dtype, dtype], tmp_path)
        np.testing.assert_array_equal(got, fn(a, b))
        np.testing.assert_array_equal(plugin, got)
        if ref is not None:  # the reference has no f32 Mod
            np.testing.assert_array_equal(ref, got)


@pytest.mark.parametrize("name", ["add", "multiply"])
@pytest.mark.parametrize("dtype", ["i32", "i64", "u8", "i8"])
def test_integer_overflow_wraps(name, dtype, tmp_path) -> None:
    """Integer Add/Multiply wrap (C++ two's complement) in the reference and irlint; the plugin
    saturates u8/i8 (its u8/i8 arithmetic is the saturating kind)."""
    np_dt = {"i32": np.int32, "i64": np.int64, "u8": np.uint8, "i8": np.int8}[dtype]
    info = np.iinfo(np_dt)
    a = np.array([info.max, info.min, info.max // 2 + 1, 3], np_dt)
    b = np.array([1, info.min if name == "add" and info.min else 2, 3, info.max], np_dt)
    got, plugin, ref = _run(getattr(ops, name), [a, b], [dtype, dtype], tmp_path)
    op = np.add if name == "add" else np.multiply
    with np.errstate(over="ignore"):
        want = op(a.astype(np.uint64), b.astype(np.uint64)).astype(np_dt)
    np.testing.assert_array_equal(got, want)
    if ref is not None:
        np.testing.assert_array_equal(ref, want)
    if dtype in ("u8", "i8"):
        sat = np.clip(op(a.astype(np.int64), b.astype(np.int64)), info.min, info.max).astype(np_dt)
        np.testing.assert_array_equal(plugin, sat)
    elif dtype == "i64":  # the plugin computes i64 arithmetic in i32
        with np.errstate(over="ignore"):
            in_i32 = op(a.astype(np.int32), b.astype(np.int32)).astype(np.int64)
        np.testing.assert_array_equal(plugin, in_i32)
    else:
        np.testing.assert_array_equal(plugin, want)


# ------------------------------------------------------------------------ Convert and Round

CV = np.array([np.nan, np.inf, -np.inf, 3e9, -3e9, 300.7, -300.7, 127.9, -128.9, 255.5, 1e20, -1.5, 2.5, -0.0],
              np.float32)


@pytest.mark.parametrize("dst", ["i8", "u8", "i16", "u16", "i32", "i64", "boolean"])
def test_convert_float_to_int_out_of_range_and_nan(dst, tmp_path) -> None:
    """Truncation toward zero; NaN, infinities and values beyond int32 become INT32_MIN and wrap to the
    target (NaN -> 0 for 8/16 bits); i64 uses int64's bound and INT64_MIN (the reference; the plugin
    converts through int32). To boolean NaN is true in the reference (false on the plugin)."""
    got, plugin, ref = _run(lambda p: ops.convert(p, getattr(ov.Type, dst)), [CV], ["f32"], tmp_path)
    np.testing.assert_array_equal(got, ref)
    if dst == "i64":  # the plugin goes through int32
        t = np.trunc(CV.astype(np.float64))
        with np.errstate(invalid="ignore"):
            beyond = ~np.isfinite(t) | (t < I32_MIN) | (t > I32_MAX)
        np.testing.assert_array_equal(plugin, np.where(beyond, I32_MIN, np.nan_to_num(t)).astype(np.int64))
    elif dst == "boolean":
        assert bool(got[0]) and not bool(plugin[0])
        np.testing.assert_array_equal(got[1:], plugin[1:])
    else:
        np.testing.assert_array_equal(plugin, got)


EDGES = np.array([0, -0.0, 0.5, -1.5, 127.9, 128, -128.9, -129, 255.9, 256, 32767.9, 32768, -32768.9, -32769,
                  65535.5, 65536, 2**31 - 1, 2**31, -(2**31), -(2**31) - 1, 2**32 - 1, 2**32, 2**63 - 2048,
                  2**63 - 1024, 2**63, 2**64, -(2**63), 1e30, np.inf, -np.inf, np.nan])


@pytest.mark.parametrize("src", [np.float16, np.float32, np.float64])
def test_convert_of_a_few_floats_casts_plainly_only_where_the_full_path_agrees(src, monkeypatch) -> None:
    """A few floats within the target's range convert by numpy's cast; every pair of edge values, to every
    integer type, gives what the full path (taken by larger arrays) gives."""
    from irlint.ops.math import convert

    with np.errstate(all="ignore"):
        values = EDGES.astype(src)
    pairs = [np.array([a, b, 3], src) for a in values for b in values]
    for dst in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64):
        few = [convert._float_to_int(x, np.dtype(dst)) for x in pairs]
        with monkeypatch.context() as m:
            m.setattr(convert, "_FEW", -1)
            full = [convert._float_to_int(x, np.dtype(dst)) for x in pairs]
        for x, a, b in zip(pairs, few, full):
            assert a.dtype == b.dtype and np.array_equal(a, b), (x, dst, a, b)


@pytest.mark.parametrize("tname", ["f32", "f16", "bf16"])
@pytest.mark.parametrize("mode", ["half_to_even", "half_away_from_zero"])
def test_round_modes_on_halves(mode, tname, tmp_path) -> None:
    from tests.ops.lowp import etype

    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.49, -3.51, np.nan, -0.0], np.float32).astype(etype(tname).dtype)
    got, plugin, ref = _run(lambda p: ops.round(p, mode), [x], [tname], tmp_path)
    f = x.astype(np.float64)
    want = np.rint(f) if mode == "half_to_even" else np.copysign(np.floor(np.abs(f) + 0.5), f)
    np.testing.assert_array_equal(got.astype(np.float64), want)
    np.testing.assert_array_equal(bits(ref), bits(got))  # -0.0 stays -0.0 (C's round)
    np.testing.assert_array_equal(plugin.astype(np.float64), want)  # the plugin: round(-0.0) = +0.0
