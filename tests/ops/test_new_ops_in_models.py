"""The new ops inside whole models: `irlint check` knows them (no G110, no error) and `irlint.interp.run`
executes them, inside a Loop body too, with the CPU plugin's results.

The bodies chain ops the way ONNX exports do (TopK -> GatherElements -> ScatterElementsUpdate, CumSum,
Pad, OneHot, NonZero ...), so shape inference must carry types and shapes through every one of them.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.interp import run

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset15")
ops3 = pytest.importorskip("openvino.opset3")
ops5 = pytest.importorskip("openvino.opset5")
ops6 = pytest.importorskip("openvino.opset6")
ops8 = pytest.importorskip("openvino.opset8")
ops10 = pytest.importorskip("openvino.opset10")
ops11 = pytest.importorskip("openvino.opset11")
ops12 = pytest.importorskip("openvino.opset12")


def i64(v):
    return ops.constant(np.array(v, np.int64))


def flat_model():
    """A straight chain of new ops (no loop)."""
    x = ops.parameter([2, 6], np.float32, name="x")
    top = ops11.topk(x, i64(3), 1, "max", "value", "i64", True)
    picked = ops6.gather_elements(x, top.output(1), 1)
    upd = ops12.scatter_elements_update(x, top.output(1), ops.negative(picked), i64(1), "sum", True)
    cs = ops3.cumsum(upd, i64(-1), False, True)
    padded = ops12.pad(cs, i64([1, -1]), i64([0, 2]), "reflect")
    hot = ops.one_hot(top.output(1), i64(6), ops.constant(np.float32(1)), ops.constant(np.float32(0)), -1)
    nz = ops3.non_zero(ops10.is_nan(ops.log(x)), "i64")
    rounded = ops5.round(ops.multiply(x, ops.constant(np.float32(2.0))), "half_to_even")
    rolled = ops.roll(ops8.gather_nd(padded, i64([[0, 1], [2, 0]]), 0), i64(1), i64(0))
    return ov.Model([ops.result(padded, name="padded"), ops.result(hot, name="hot"), ops.result(nz, name="nz"),
                     ops.result(rolled, name="rolled"), ops.result(rounded, name="rounded")], [x])


def loop_model():
    """A Loop whose body keeps a running top-2 mask with TopK, ScatterUpdate, CumSum and Einsum."""
    x = ops.parameter([4, 5], np.float32, name="x")
    acc0 = ops.parameter([1, 5], np.float32, name="acc")
    xi = ops.parameter([1, 5], np.float32)
    acc = ops.parameter([1, 5], np.float32)
    top = ops11.topk(xi, i64(2), 1, "max", "value", "i64", True)
    hot = ops.one_hot(top.output(1), i64(5), ops.constant(np.float32(1)), ops.constant(np.float32(0)), -1)
    mask = ops3.scatter_update(ops.multiply(acc, ops.constant(np.float32(0.5))), i64([0]),
                               ops.reduce_sum(hot, i64([1]), False), i64(0))
    acc2 = ops.add(ops3.cumsum(mask, i64(1)), ops.einsum([xi, xi], "ab,ab->ab"))
    cond = ops.constant(np.array(True))
    body = ov.Model([ops.result(cond), ops.result(acc2), ops.result(ops.softsign(acc2))], [xi, acc])
    loop = ops.loop(ops.constant(np.int64(4)), ops.constant(np.array(True)))
    loop.set_function(body)
    loop.set_special_body_ports([-1, 0])
    loop.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 0)
    loop.set_merged_input(acc, acc0.output(0), acc2.output(0))
    last = loop.get_iter_value(body.get_results()[1].output(0), -1)
    allv = loop.get_concatenated_slices(body.get_results()[2].output(0), 0, 1, 1, -1, 0)
    return ov.Model([ops.result(last, name="last"), ops.result(allv, name="all")], [x, acc0])


@pytest.mark.parametrize("build", [flat_model, loop_model])
def test_checked_and_run_like_the_cpu_plugin(build, tmp_path: Path) -> None:
    model = build()
    path = tmp_path / "m.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    diags = irlint.check(path)
    assert not [d for d in diags if d.code == "G110" or d.severity.name == "ERROR"], diags
    rng = np.random.default_rng(1)
    inputs = {p.get_friendly_name(): (rng.standard_normal([d.get_length() for d in p.get_partial_shape()]) * 3)
              .astype(np.float32) for p in model.get_parameters()}
    core = ov.Core()
    ov_model = core.read_model(str(path))
    compiled = core.compile_model(ov_model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    want = compiled([inputs[p.get_friendly_name()] for p in ov_model.get_parameters()])
    got = run(irlint.load(path), inputs)
    for i, r in enumerate(ov_model.get_results()):
        name = r.get_friendly_name()
        w = np.asarray(want[i])
        assert got[name].shape == w.shape, name
        np.testing.assert_allclose(got[name].astype(np.float64), w.astype(np.float64), rtol=1e-4, atol=1e-5,
                                   err_msg=name)
