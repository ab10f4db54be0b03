"""The interpreter against OpenVINO's CPU plugin on every valid TI/Loop configuration and the examples."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.interp import DepartureWarning, ExecutionError, Options, run
from tests.rules.valid_irs import ALL, ONNX

ov = pytest.importorskip("openvino")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def random_inputs(model, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    out = {}
    for p in model.get_parameters():
        shape = [d.get_length() if d.is_static else 2 for d in p.get_partial_shape()]
        dtype = p.get_element_type().to_dtype()
        out[p.get_friendly_name()] = (rng.standard_normal(shape) if dtype.kind == "f"
                                      else rng.integers(0, 3, shape)).astype(dtype)
    return out


def compare(path: Path, inputs: dict[str, np.ndarray]) -> None:
    core = ov.Core()
    ov_model = core.read_model(str(path))
    compiled = core.compile_model(ov_model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    want = compiled([inputs[p.get_friendly_name()] for p in ov_model.get_parameters()])
    names = [r.get_friendly_name() for r in ov_model.get_results()]
    got = run(irlint.load(path), inputs)
    for i, name in enumerate(names):
        w = np.asarray(want[i])
        assert got[name].shape == w.shape, f"{name}: {got[name].shape} vs OpenVINO {w.shape}"
        if np.issubdtype(w.dtype, np.floating):
            np.testing.assert_allclose(got[name], w, rtol=1e-4, atol=1e-5, err_msg=name)
        else:
            np.testing.assert_array_equal(got[name], w, err_msg=name)


# Where OpenVINO's CPU plugin is wrong, the spec's answer is computed independently below.
CPU_DIVERGES = {
    "loop_zero_iterations": "a constant trip count 0 with a concatenated output: the CPU plugin's compile dies of "
                            "SIGFPE (LP711, docs/semantics.md)",
    "ti_in_loop": "Add(Reshape(x_t), h_prev) on a back edge: the CPU plugin feeds the wrong h_prev (docs/semantics.md)",
    "if_scalar_or_one": "a scalar branch of a 1-D If output: the CPU plugin returns it as [1] (docs/semantics.md)",
    "if_scalar_or_vector": "a scalar branch of a 1-D If output: the CPU plugin returns it as [1] (docs/semantics.md)",
}


@pytest.mark.parametrize("name", sorted(set(ALL) - set(CPU_DIVERGES)))
def test_matches_cpu_plugin(name: str, tmp_path: Path) -> None:
    model = ALL[name]()
    path = tmp_path / f"{name}.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    compare(path, random_inputs(model))


@pytest.mark.parametrize("name", sorted(ONNX))
def test_onnx_loop_and_scan_match(name: str, tmp_path: Path) -> None:
    model = ONNX[name](tmp_path)
    path = tmp_path / f"{name}.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    compare(path, random_inputs(model))


@pytest.mark.parametrize("name", ["lstm_ti", "loop_scan", "nested_loop_in_ti", "if_in_loop"])
def test_examples_match(name: str) -> None:
    inputs = dict(np.load(EXAMPLES / "inputs" / f"{name}.npz"))
    compare(EXAMPLES / f"{name}.xml", inputs)


def test_zero_iterations_follow_the_spec(tmp_path: Path) -> None:
    # The CPU plugin's result here is not defined (docs/semantics.md); the spec: last values are the initial
    # values of the merged inputs, scan outputs are empty along the axis.
    path = tmp_path / "zero.xml"
    ov.save_model(ALL["loop_zero_iterations"](), str(path), compress_to_fp16=False)
    with pytest.warns(DepartureWarning, match="concatenated output port"):
        out = run(irlint.load(path), {"x": np.ones(3, np.float32)})
    np.testing.assert_array_equal(out["acc"], np.zeros(3, np.float32))
    assert out["scan"].shape == (0, 3)


@pytest.mark.parametrize("name", ["if_scalar_or_one", "if_scalar_or_vector"])
@pytest.mark.parametrize("cond", [True, False])
def test_a_scalar_branch_takes_the_if_outputs_rank(name: str, cond: bool, tmp_path: Path) -> None:
    """The then branch gives a scalar, the else branch [1] or [4]; OpenVINO declares the If's output
    1-D and its CPU plugin returns the scalar as [1]. irlint does the same."""
    path = tmp_path / f"{name}.xml"
    model = ALL[name]()
    ov.save_model(model, str(path), compress_to_fp16=False)
    inputs = {**random_inputs(model), "c": np.array(cond)}
    core = ov.Core()
    ov_model = core.read_model(str(path))
    want = core.compile_model(ov_model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})(
        [inputs[p.get_friendly_name()] for p in ov_model.get_parameters()])[0]
    got = run(irlint.load(path), inputs)["y"]
    x = inputs["x"]
    assert got.shape == np.asarray(want).shape == ((1,) if cond else np.asarray(want).shape)
    np.testing.assert_allclose(got.ravel(), np.asarray(want).ravel(), rtol=1e-5)
    np.testing.assert_allclose(got.ravel()[0], np.maximum(x.sum(), 0) if cond else np.asarray(want).ravel()[0],
                               rtol=1e-5)


def _if_with_a_moved_result_edge(path: Path, mirror: bool) -> Path:
    """An If on a runtime condition over a scalar x whose else branch gives Tanh(x) and whose then
    branch's Result reads another tensor than the one it was built on, its ports' declarations kept:
    then Reshape(x, [1]) under a Result declaring [] (the else branch []); `mirror`: then x itself
    under a Result declaring [1] (the else branch Reshape(Tanh(x), [1]))."""
    import re

    import openvino.opset8 as o

    c, x = o.parameter([1], np.bool_, name="c"), o.parameter([], np.float32, name="x")
    tp, ep = o.parameter([], np.float32, name="tp"), o.parameter([], np.float32, name="ep")
    one = o.reshape(tp, o.constant(np.array([1], np.int64)), False)
    tr = o.result(one if mirror else o.squeeze(one, o.constant(np.array([0], np.int64))))
    tanh = o.tanh(ep)
    er = o.result(o.reshape(tanh, o.constant(np.array([1], np.int64)), False) if mirror else tanh)
    node = o.if_op(c.output(0))
    node.set_then_body(ov.Model([tr], [tp], "then"))
    node.set_else_body(ov.Model([er], [ep], "else"))
    node.set_input(x.output(0), tp, ep)
    out = node.set_output(tr, er)
    ov.save_model(ov.Model([o.result(out, name="y")], [c, x], "if_moved_edge"), str(path), compress_to_fp16=False)
    text = path.read_text()
    start, end = text.index("<then_body>"), text.index("</then_body>")
    then = text[start:end]
    kinds = dict(re.findall(r'<layer id="(\d+)" name="[^"]*" type="(\w+)"', then))
    result = next(i for i, k in kinds.items() if k == "Result")
    src = next(f'"{i}" from-port="{0 if mirror else 2}"' for i, k in kinds.items()
               if k == ("Parameter" if mirror else "Reshape"))
    then, moved = re.subn(rf'<edge from-layer="\d+" from-port="\d+" to-layer="{result}" to-port="0" ?/>',
                          f'<edge from-layer={src} to-layer="{result}" to-port="0" />', then)
    assert moved == 1
    path.write_text(text[:start] + then + text[end:])
    return path


@pytest.mark.parametrize("mirror", [False, True])
@pytest.mark.parametrize("cond", [True, False])
def test_an_if_merges_what_its_results_receive_not_what_they_declare(mirror: bool, cond: bool,
                                                                     tmp_path: Path) -> None:
    """One branch gives [1], the other [], whatever the branches' Results declare: OpenVINO merges the
    shapes the Results receive into a [1] output and its CPU plugin returns (1,) from either branch.
    irlint takes the merge from shape inference, not from the declared ranks ([] and [] here, [1] and
    [1] in the mirror)."""
    path = _if_with_a_moved_result_edge(tmp_path / "if.xml", mirror)
    inputs = {"c": np.array([cond]), "x": np.array(0.5, np.float32)}
    compare(path, inputs)
    got = run(irlint.load(path), inputs)["y"]
    assert got.shape == (1,)
    np.testing.assert_allclose(got, [0.5 if cond else np.tanh(0.5)], rtol=1e-6)


def test_a_constant_condition_keeps_the_taken_branchs_shape(tmp_path: Path) -> None:
    """With a constant condition OpenVINO shapes the If's output by the taken branch alone: the then
    branch's scalar stays a scalar, where a runtime condition would widen it to [1]."""
    path = tmp_path / "if.xml"
    model = ALL["if_constant_scalar_or_one"]()
    ov.save_model(model, str(path), compress_to_fp16=False)
    compare(path, random_inputs(model))
    assert run(irlint.load(path), random_inputs(model))["y"].shape == ()


def test_sub_range_reads_the_spec_slices(tmp_path: Path) -> None:
    from tests.rules.valid_irs import _ti_tanh

    path = tmp_path / "sub.xml"
    ov.save_model(_ti_tanh([1, 4, 1], 1, 1, 1, 1, -1, 1, out_concat=False), str(path), compress_to_fp16=False)
    x = np.array([[[0.5], [1.0], [-2.0], [3.0]]], np.float32)
    h = np.zeros((1, 1), np.float32)
    model = irlint.load(path)
    const = next(la for _g, la in model.layers() if la.type == "Const" and la.data.get("shape") == "1, 1")
    w = float(model.weights.array(int(const.data["offset"]), 4, const.outputs[0].precision, (1, 1))[0, 0])
    expect = h.copy()
    for t in (1, 2, 3):  # spec: start=1 .. end=-1 -> elements 1, 2, 3 (the CPU plugin reads 0, 1, 2)
        expect = np.tanh(x[:, t] * w + expect)
    np.testing.assert_allclose(run(model, {"X": x, "H": h})["last"], expect, rtol=1e-6)


def test_endless_loop_stops_at_max_iterations(tmp_path: Path) -> None:
    from tests.rules.make_fixtures import forever_loop

    path = tmp_path / "forever.xml"
    ov.save_model(forever_loop(), str(path), compress_to_fp16=False)
    with pytest.raises(ExecutionError, match="max-iterations 50"):
        run(irlint.load(path), {"x": np.ones(3, np.float32)}, Options(max_iterations=50))


def test_memory_budget_refuses_before_allocating(tmp_path: Path) -> None:
    path = tmp_path / "lstm.xml"
    ov.save_model(ALL["ti_forward"](), str(path), compress_to_fp16=False)
    model = irlint.load(path)
    with pytest.raises(ExecutionError, match="memory budget"):
        run(model, random_inputs(ALL["ti_forward"]()), Options(memory_budget=16))


def test_ti_in_loop_follows_the_spec(tmp_path: Path) -> None:
    path = tmp_path / "ti_in_loop.xml"
    ov.save_model(ALL["ti_in_loop"](), str(path), compress_to_fp16=False)
    x = np.random.default_rng(0).standard_normal((1, 3, 2)).astype(np.float32)
    h = np.zeros((1, 2), np.float32)
    for _ in range(2):  # the Loop's trip count
        for t in range(3):  # the TensorIterator over axis 1
            h = np.tanh(x[:, t] + h)
    np.testing.assert_allclose(run(irlint.load(path), {"X": x})["h"], h, rtol=1e-5)


def test_a_tensor_iterator_without_a_sliced_input_runs_its_body_once(tmp_path: Path) -> None:
    """No sliced input: OpenVINO's core infers one iteration and the CPU plugin runs the body once
    (h + 1 from h0); irlint's static bound says the same (docs/semantics.md)."""
    import openvino.opset8 as ops

    from irlint.shapes import infer_model

    x = ops.parameter([2], np.float32, name="x")
    bx = ops.parameter([2], np.float32, name="h")
    r = ops.result(ops.add(bx, ops.constant(np.float32(1))), name="h_next")
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([r], [bx], "body"))
    ti.set_merged_input(bx, x.output(0), r.output(0))
    model = ov.Model([ops.result(ti.get_iter_value(r.output(0), -1), name="last")], [x], "ti_no_slice")
    path = tmp_path / "ti_no_slice.xml"
    ov.save_model(model, str(path))
    inputs = {"x": np.array([1, 2], np.float32)}
    compare(path, inputs)
    np.testing.assert_array_equal(run(irlint.load(path), inputs)["last"], [2, 3])
    (loop,) = infer_model(irlint.load(path)).loops.values()
    assert loop.iterations == 1


def test_a_loop_counts_no_slices_nothing_reads(tmp_path: Path) -> None:
    """A Loop whose trip count (3) exceeds the slices (2) of an input its body never reads: OpenVINO
    removes that input and runs the trip count; irlint counts the same, statically and at run time."""
    import openvino.opset13 as ops

    x = ops.parameter([2, 4], np.float32, name="x")
    acc0 = ops.parameter([1], np.float32, name="acc0")
    xs, acc = ops.parameter([1, 4], np.float32), ops.parameter([1], np.float32)
    nxt = ops.add(acc, ops.constant(np.array([1], np.float32)))
    r_acc, r_cond = ops.result(nxt), ops.result(ops.constant(np.bool_(True)))
    loop = ops.loop(ops.constant(np.int64(3)), ops.constant(np.bool_(True)))
    loop.set_function(ov.Model([r_acc, r_cond], [xs, acc]))
    loop.set_special_body_ports([-1, 1])
    loop.set_sliced_input(xs, x.output(0), 0, 1, 1, -1, 0)
    loop.set_merged_input(acc, acc0.output(0), r_acc.output(0))
    out = loop.get_concatenated_slices(r_acc.output(0), 0, 1, 1, -1, 0)
    path = tmp_path / "unread_slices.xml"
    ov.save_model(ov.Model([ops.result(out, name="y")], [x, acc0], "unread_slices"), str(path),
                  compress_to_fp16=False)
    diags = irlint.check(path)
    assert not [d for d in diags if d.severity.value == "error" or d.code == "LP708"], diags
    inputs = {"x": np.ones((2, 4), np.float32), "acc0": np.zeros(1, np.float32)}
    compare(path, inputs)
    np.testing.assert_array_equal(run(irlint.load(path), inputs)["y"], [1, 2, 3])


@pytest.mark.parametrize("condition", ["constant", "invariant parameter"])
def test_a_loop_declares_its_trip_count_past_the_slices(condition: str, tmp_path: Path) -> None:
    """Trip count 4 over 3 slices, body condition true (a Constant, or a Parameter an invariant Constant
    feeds): OpenVINO's core declares the concatenated output [4,2] from the trip count, and irlint infers
    the same (no SL606/T211; LP708 warns). Iterating, the CPU plugin fails at inference and irlint's run
    stops after the last slice with a DepartureWarning naming that failure."""
    import openvino.opset13 as ops

    from irlint.shapes import infer_model

    x = ops.parameter([3, 2], np.float32, name="x")
    go = ops.parameter([1], np.bool_, name="go")
    xs = ops.parameter([1, 2], np.float32)
    params = [xs]
    if condition == "constant":
        cond = ops.constant(np.bool_(True))
    else:
        cond = ops.parameter([], np.bool_)
        params.append(cond)
    r_y, r_cond = ops.result(ops.multiply(xs, ops.constant(np.float32(2)))), ops.result(cond)
    loop = ops.loop(ops.constant(np.int64(4)), go)
    loop.set_function(ov.Model([r_y, r_cond], params))
    loop.set_special_body_ports([-1, 1])
    loop.set_sliced_input(xs, x.output(0), 0, 1, 1, -1, 0)
    if condition != "constant":
        loop.set_invariant_input(cond, ops.constant(np.bool_(True)).output(0))
    out = loop.get_concatenated_slices(r_y.output(0), 0, 1, 1, -1, 0)
    assert out.get_partial_shape() == ov.PartialShape([4, 2])  # the core counts the trip count
    path = tmp_path / "trip_past_slices.xml"
    ov.save_model(ov.Model([ops.result(out, name="y")], [x, go], "trip_past_slices"), str(path),
                  compress_to_fp16=False)
    diags = irlint.check(path)
    assert not [d for d in diags if d.severity.value == "error"], diags
    assert "LP708" in {d.code for d in diags}
    (info,) = infer_model(irlint.load(path)).loops.values()
    assert (info.iterations, info.max_iterations) == (4, 3)

    inputs = {"x": np.arange(6, dtype=np.float32).reshape(3, 2), "go": np.array([True])}
    core = ov.Core()
    compiled = core.compile_model(core.read_model(str(path)), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    with pytest.raises(RuntimeError, match="iter < iter_count"):
        compiled.create_infer_request().infer(inputs)
    with pytest.warns(DepartureWarning, match="iter < iter_count"):
        got = run(irlint.load(path), inputs)["y"]
    np.testing.assert_array_equal(got, 2 * inputs["x"])
