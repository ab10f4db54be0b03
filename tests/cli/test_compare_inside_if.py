"""`compare --inside` on a Loop inside an If (TensorFlow's `cond` around a `while_loop`, Paddle's `while`
inside a `cond`): the If's new output gets one rank from both branches, and a probe OpenVINO fails on is
dropped alone, the others compared."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.ifmodels import loop_in_if, save

pytest.importorskip("openvino")


@pytest.fixture(scope="module")
def lif(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("lif")
    xml = save(loop_in_if(), d, "lif")
    np.savez(d / "in.npz", cond=np.array(True), x=np.arange(4, dtype=np.float32).reshape(2, 2))
    return xml, d / "in.npz"


def test_a_loop_inside_an_if_is_compared_inside(lif: tuple[Path, Path]) -> None:
    xml, npz = lif
    res = subprocess.run([sys.executable, "-m", "irlint", "compare", str(xml), "--inputs", str(npz), "--inside",
                          "--format", "json"], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    inside = json.loads(res.stdout)["inside"]
    assert "error" not in inside
    compared = {(x["type"], x["verdict"]) for x in inside["compared"]}
    assert compared == {("Loop", "ok"), ("Multiply", "ok"), ("Add", "ok")}
    loop_rows = next(x for x in inside["compared"] if x["type"] == "Add")["rows"]
    assert [r["iteration"] for r in loop_rows] == ["0.0", "0.1", "0.2"]  # the If's 0, then the Loop's


def test_a_probe_openvino_fails_on_is_dropped_alone(lif: tuple[Path, Path], tmp_path: Path) -> None:
    xml, npz = lif
    from irlint.comparison.openvino import run_openvino

    good = {"chain": [{"name": "If_19", "branch": "then"}, "Loop_14"], "layer": "Add_8", "port": 0,
            "shape": [2, 2], "dtype": "float32", "counts": [None, 3]}
    bad = {**good, "shape": [2], "counts": []}  # the other branch's zeros of the wrong rank: If of dynamic rank
    names = _names(xml)
    good["chain"][0]["name"] = bad["chain"][0]["name"] = names["If"]
    good["chain"][1] = bad["chain"][1] = names["Loop"]
    good["layer"] = bad["layer"] = names["Add"]
    inputs = dict(np.load(npz))
    got = run_openvino(str(xml), None, inputs, 300, {"precision": "f32", "probes": [bad, good]})
    assert not isinstance(got, str), got
    assert list(got.probes) == [1] and got.probes[1].shape == (3, 2, 2)  # an If adds no axis
    assert "dropped and the others kept" in got.skipped[0] and "dynamic rank" in got.skipped[0]


def _names(xml: Path) -> dict[str, str]:
    import irlint

    model = irlint.load(xml)
    out = {}
    for _g, la in model.layers():
        if la.type in ("If", "Loop", "Add"):
            out[la.type] = la.name
    return out


def while_in_cond(path: Path) -> Path:
    """TensorFlow's `tf.cond(c, lambda: tf.while_loop(i < 3, ...), lambda: -x)` as its front end writes it:
    a Loop with trip count -1 whose body computes its own condition, inside an If's then branch."""
    import openvino as ov
    import openvino.opset8 as o

    from tests.ifmodels import _if

    cond = o.parameter([], np.bool_, name="cond")
    x = o.parameter([2, 2], np.float32, name="x")
    tx = o.parameter([2, 2], np.float32)
    bh, bi = o.parameter([2, 2], np.float32, name="h"), o.parameter([], np.int64, name="i")
    i1 = o.add(bi, o.constant(np.int64(1)), name="next_i")
    h1 = o.add(o.multiply(bh, o.constant(np.float32(2)), name="twice"), o.constant(np.float32(1)), name="plus1")
    rc, rh, ri = o.result(o.less(i1, o.constant(np.int64(3)), name="more")), o.result(h1), o.result(i1)
    loop = o.loop(o.constant(np.int64(-1)), o.constant(np.bool_(True)))
    loop.set_function(ov.Model([rc, rh, ri], [bh, bi]))
    loop.set_special_body_ports([-1, 0])
    loop.set_merged_input(bh, tx.output(0), rh.output(0))
    loop.set_merged_input(bi, o.constant(np.int64(0)).output(0), ri.output(0))
    tr = o.result(loop.get_iter_value(rh.output(0), -1))
    ex = o.parameter([2, 2], np.float32)
    er = o.result(o.negative(ex))
    (out,) = _if(cond, ov.Model([tr], [tx]), ov.Model([er], [ex]), [(x.output(0), tx, ex)], [(tr, er)])
    ov.save_model(ov.Model([o.result(out, name="out")], [cond, x], "while_in_cond"), str(path),
                  compress_to_fp16=False)
    return path


def test_a_while_loop_inside_a_cond_is_compared_inside(tmp_path: Path) -> None:
    xml = while_in_cond(tmp_path / "w.xml")
    np.savez(tmp_path / "in.npz", cond=np.array(True), x=np.arange(4, dtype=np.float32).reshape(2, 2))
    res = subprocess.run([sys.executable, "-m", "irlint", "compare", str(xml), "--inputs", str(tmp_path / "in.npz"),
                          "--inside", "--format", "json"], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    inside = json.loads(res.stdout)["inside"]
    compared = {x["layer"]: x for x in inside["compared"]}
    assert {"next_i", "twice", "plus1", "more"} <= set(compared), inside
    assert [r["iteration"] for r in compared["plus1"]["rows"]] == ["0.0", "0.1", "0.2"]
    assert all(x["verdict"] == "ok" for x in compared.values())


def while_in_conditional_block(path: Path) -> Path:
    """Paddle's `while` inside a `cond` as its front end writes it: a `conditional_block` If over a [1] bool
    (squeezed), a dynamic batch dim, and in the then branch a Loop of trip count -1 whose first condition
    is a less_than computed in the branch from an outer input and whose body computes the next one."""
    import openvino as ov
    import openvino.opset8 as o

    axis0 = o.constant(np.array([0], np.int64))
    cond, x = o.parameter([1], np.bool_, name="cond"), o.parameter([-1, 3], np.float32, name="x")
    n = o.parameter([1], np.int64, name="n")
    tx, tn = o.parameter([-1, 3], np.float32), o.parameter([1], np.int64)
    i0 = o.constant(np.array([0], np.int64))
    bi, bh, bn = (o.parameter([1], np.int64), o.parameter([-1, 3], np.float32), o.parameter([1], np.int64))
    i1 = o.add(bi, o.constant(np.array([1], np.int64)), name="increment")
    h1 = o.tanh(o.add(o.multiply(bh, o.constant(np.float32(0.5)), name="scale"), o.constant(np.float32(0.1)),
                      name="shift"), name="act")
    results = [o.result(o.squeeze(o.less(i1, bn, name="less_than_1"), axis0)), o.result(i1), o.result(h1),
               o.result(bn)]
    loop = o.loop(o.constant(np.int64(-1)), o.squeeze(o.less(i0, tn, name="less_than_0"), axis0))
    loop.set_friendly_name("while_0")
    loop.set_function(ov.Model(results, [bi, bh, bn]))
    loop.set_special_body_ports([-1, 0])
    for param, start, res in ((bi, i0, results[1]), (bh, tx, results[2]), (bn, tn, results[3])):
        loop.set_merged_input(param, start.output(0), res.output(0))
    tr = o.result(loop.get_iter_value(results[2].output(0), -1))
    ex = o.parameter([-1, 3], np.float32)
    er = o.result(o.relu(ex, name="relu_else"))
    node = o.if_op(o.squeeze(cond, axis0).output(0))
    node.set_friendly_name("conditional_block_0")
    node.set_then_body(ov.Model([tr], [tx, tn]))
    node.set_else_body(ov.Model([er], [ex]))
    node.set_input(x.output(0), tx, ex)
    node.set_input(n.output(0), tn, None)
    out = node.set_output(tr, er)
    ov.save_model(ov.Model([o.result(out, name="out")], [cond, x, n], "while_in_conditional_block"), str(path),
                  compress_to_fp16=False)
    return path


@pytest.mark.parametrize("taken", [True, False])
def test_a_paddle_while_inside_a_cond_is_compared_inside(tmp_path: Path, taken: bool) -> None:
    """Both branches: the Loop's body layers per iteration when the then branch runs; when it does not, the
    else branch's layer, and the Loop's layers listed as never run."""
    xml = while_in_conditional_block(tmp_path / "p.xml")
    np.savez(tmp_path / "in.npz", cond=np.array([taken]), x=np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3),
             n=np.array([4], np.int64))
    res = subprocess.run([sys.executable, "-m", "irlint", "compare", str(xml), "--inputs", str(tmp_path / "in.npz"),
                          "--inside", "--format", "json"], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    inside = json.loads(res.stdout)["inside"]
    compared = {x["layer"]: x for x in inside["compared"]}
    assert all(x["verdict"] == "ok" and x["rows"] for x in compared.values()), inside
    body = {"scale", "shift", "act", "increment", "less_than_1"}
    if taken:
        assert body | {"less_than_0", "while_0"} <= set(compared) and "relu_else" not in compared
        assert [r["iteration"] for r in compared["act"]["rows"]] == ["0.0", "0.1", "0.2", "0.3"]
    else:
        assert set(compared) == {"relu_else"}
        never = {x["layer"].split(" (")[0] for x in inside["left_out"] if "never ran" in x["why"]}
        assert body | {"while_0"} <= never


def test_a_dropped_probe_is_said_in_one_line_with_openvinos_reason() -> None:
    from irlint.comparison.text import brief

    why = ("OpenVINO could not expose it: OpenVINO failed with this probe, so it was dropped and the others kept: "
           "RuntimeError: Exception from src/inference/src/cpp/core.cpp:117:\nException from src/plugin.cpp:54:\n"
           "Unexpected: CPU plug-in doesn't support If operation with dynamic rank. Operation name: If_25\n\n")
    assert brief(why) == ("OpenVINO could not expose it: OpenVINO failed with this probe, so it was dropped and the "
                          "others kept: RuntimeError: Unexpected: CPU plug-in doesn't support If operation with "
                          "dynamic rank. Operation name: If_25 (the whole message in --format json)")
    assert brief("never ran (its If branch was not taken)") == "never ran (its If branch was not taken)"


def test_a_probe_openvinos_process_dies_with_is_dropped_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A crash cannot be caught inside OpenVINO's process: the probes are bisected over new processes, the
    one it dies with is dropped and said, the others compared. (The crash is simulated: OpenVINO's real
    run stands behind every other probe set.)"""
    import irlint
    from irlint.comparison import openvino as ov_run

    real = ov_run.run_openvino
    calls = []

    def dies_with_twice(model, weights, inputs, timeout, job):  # type: ignore[no-untyped-def]
        calls.append([p["layer"] for p in job["probes"]])
        if any(p["layer"] == "twice" for p in job["probes"]):
            return "OpenVINO crashed with SIGSEGV (stage: instrument)"
        return real(model, weights, inputs, timeout, job)

    monkeypatch.setattr(ov_run, "run_openvino", dies_with_twice)
    xml = while_in_cond(tmp_path / "w.xml")
    inputs = {"cond": np.array(True), "x": np.arange(4, dtype=np.float32).reshape(2, 2)}
    result = irlint.compare(xml, inputs, inside=[])
    inside = result.report["inside"]
    assert result.ok and "error" not in inside
    assert {x["layer"] for x in inside["compared"]} >= {"next_i", "plus1", "more"}
    (why,) = [x["why"] for x in inside["left_out"] if x["layer"].startswith("twice (Multiply")]
    assert "process died with this probe, so it was dropped and the others kept" in why and "SIGSEGV" in why
    assert len(calls) < 2 * len(calls[0])  # halves, not one process per probe
