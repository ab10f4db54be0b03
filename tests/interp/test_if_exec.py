"""If (opset8) in the interpreter: the taken branch runs as a body entered once, against the CPU
plugin (f32) on both condition values, If inside a Loop and a Loop inside an If, branches of
different output shapes; its events, trace keys and the stepper; a bad condition is an error."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.interp import ExecutionError, execute, run
from irlint.interp.events import BodyEntered, BodyLeft, IterationFinished, IterationStarted, LayerEvaluated
from irlint.interp.stepper import Stepper
from irlint.interp.trace import Trace
from tests import ifmodels

pytest.importorskip("openvino")
X = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5

CASES = {
    **{f"simple_if-{c}": (ifmodels.simple_if, {"cond": np.bool_(c), "x": X, "y": X * 3}) for c in (True, False)},
    **{f"dynamic_if-{c}": (ifmodels.dynamic_if, {"cond": np.bool_(c), "x": X}) for c in (True, False)},
    **{f"if_in_loop-{n}": (lambda n=n: ifmodels.if_in_loop(n), {"x": X[:1], "h0": X[1:]}) for n in (1, 4)},
    **{f"loop_in_if-{c}": (ifmodels.loop_in_if, {"cond": np.bool_(c), "x": X[:, :2]}) for c in (True, False)},
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_the_cpu_plugin(name: str, tmp_path: Path) -> None:
    build, inputs = CASES[name]
    model = build()
    want = ifmodels.reference(model, inputs)
    got = run(irlint.load(ifmodels.save(model, tmp_path, "m")), inputs)
    assert sorted(got) == sorted(want)
    for name, w in want.items():
        g = got[name]
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6)


@pytest.fixture(scope="module")
def simple(tmp_path_factory: pytest.TempPathFactory):
    return irlint.load(ifmodels.save(ifmodels.simple_if(), tmp_path_factory.mktemp("if"), "simple_if"))


@pytest.mark.parametrize("cond", [True, False])
def test_events_show_the_taken_branch_as_a_body_run_once(simple, cond: bool) -> None:
    events = list(execute(simple, {"cond": np.bool_(cond), "x": X, "y": X}))
    branch = "then" if cond else "else"
    iff = next(la for la in simple.graph.layers if la.type == "If")
    body = iff.branch(branch).body
    kinds = [type(e) for e in events if getattr(e, "layer", None) is iff]
    assert kinds == [BodyEntered, IterationStarted, IterationFinished, BodyLeft, LayerEvaluated]
    marked = [e for e in events if isinstance(e, (BodyEntered, IterationStarted, IterationFinished, BodyLeft))]
    assert {e.branch for e in marked} == {branch}
    inside = [e for e in events if isinstance(e, LayerEvaluated) and e.frames == ((iff.path, 0),)]
    assert inside and all(e.layer.path.startswith(f"{iff.path}/{branch}_body/") for e in inside)
    assert {e.layer.path for e in inside} == {la.path for la in body.layers
                                              if la.type not in ("Parameter", "Const")}
    started = next(e for e in events if isinstance(e, IterationStarted))
    assert sorted(started.params) == sorted(p.id for p in body.parameters())
    left = next(e for e in events if isinstance(e, BodyLeft))
    assert left.iterations == 1 and list(left.outputs) == [p.id for p in iff.outputs]


def test_trace_keys_name_the_branch(simple) -> None:
    heard = Trace(trace_all=True)
    run(simple, {"cond": np.bool_(False), "x": X, "y": X}, listener=heard)
    iff = next(la for la in simple.graph.layers if la.type == "If")
    (param,) = iff.branch("else").body.parameters()
    key = f"{iff.path}/else_body/{param.id}@0:in"
    names = heard.keys()  # a Trace's keys (a list), not a dict's
    assert key in names
    np.testing.assert_array_equal(heard.get(key), X)
    assert not any("then_body" in k for k in names)


def test_stepper_steps_into_the_branch(simple) -> None:
    st = Stepper(execute(simple, {"cond": np.bool_(True), "x": X, "y": X}))
    ev = st.step()
    while not isinstance(ev, BodyEntered):
        ev = st.step()
    ev = st.step_into()
    assert isinstance(ev, IterationStarted) and ev.branch == "then"
    ev = st.step()
    assert isinstance(ev, LayerEvaluated) and "/then_body/" in ev.layer.path and st.depth() == 1
    ev = st.step_out()
    assert isinstance(ev, LayerEvaluated) and ev.layer.type == "If"


def test_a_condition_of_two_elements_is_an_error(tmp_path: Path) -> None:
    text = ifmodels.save(ifmodels.simple_if(), tmp_path, "m").read_text()
    bad = tmp_path / "bad.xml"
    bad.write_text(text.replace('<data shape="" element_type="boolean" />', '<data shape="2" element_type="boolean" />',
                                1).replace('<port id="0" precision="BOOL" names="cond" />',
                                           '<port id="0" precision="BOOL" names="cond"><dim>2</dim></port>', 1))
    model = irlint.load(bad)
    with pytest.raises(ExecutionError, match="condition has shape"):
        run(model, {"cond": np.array([True, False]), "x": X, "y": X})


def test_trace_cli_filters_by_the_loop_iteration_not_the_if(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from irlint.cli.main import main

    model = ifmodels.if_in_loop()
    path = ifmodels.save(model, tmp_path, "m")
    inputs = tmp_path / "in.npz"
    np.savez(inputs, x=X[:1], h0=X[1:])
    m = irlint.load(path)
    loop = next(la for la in m.graph.layers if la.type == "Loop")
    iff = next(la for la in loop.body.layers if la.type == "If")
    watch = [la.path for b in iff.branches for la in b.body.layers if la.type in ("Add", "Multiply")]
    assert main(["trace", str(path), "--inputs", str(inputs), "--watch", *watch, "--iterations", "1:3"]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:] if line.strip()]
    # odd iteration: the else branch's Multiply; even: Add (the If's frame named by its branch, not a number)
    assert [r[1] for r in rows] == ["1.else", "2.then"]
