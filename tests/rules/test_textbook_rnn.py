"""The textbook recurrent bodies against the CPU plugin: irlint warns (BE507, BE508) exactly where the plugin
departs from the spec, as irlint/openvino/memory.py models it.

h = act(Squeeze(x[k]) + h) is computed in the slice's memory (the Add's input 0 is a view of the slice, its
node writes in place), and the next slice is copied there before the back edge passes h on: the plugin
gives act(2 * x[k]). With the state first (h + Squeeze(x[k])) the Add's input 0 is a Parameter and the
plugin computes the spec's values. Every activation the plugin runs as an Eltwise node, the three views,
TensorIterator and Loop, the ONNX front end's Scan, the state swap and a Result that reads a Parameter.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import irlint
from tests.differential import textbook as tb

ov = pytest.importorskip("openvino")

T, N = 4, 3
X = np.array([[0.9, -1.3, 0.4], [-0.7, 1.1, 0.2], [1.4, 0.3, -1.2], [-0.2, -0.9, 1.3]], np.float32)


def _model(cell: str, order: str, view: str, act: str, kind: str, seed: int = 0):
    r = random.Random(seed)
    c = tb._Cell(r, N)
    c.cell, c.order, c.view, c.act = cell, order, view, act
    return tb._api_model(r, c, kind, T, N, outputs="last")


def _inputs(model) -> dict[str, np.ndarray]:
    """X for the Parameter x, seeded uniform values in [-1, 1) for the others (the initial states)."""
    rng = np.random.default_rng(1)
    return {
        p.get_friendly_name(): (
            X
            if p.get_friendly_name() == "x"
            else rng.uniform(-1, 1, [d.get_length() for d in p.get_partial_shape()]).astype(np.float32)
        )
        for p in model.get_parameters()
    }


def _both(model, tmp_path: Path) -> tuple[list[str], dict[str, np.ndarray], dict[str, np.ndarray]]:
    """irlint's warning codes, irlint's outputs and the CPU plugin's (f32 hint) on the saved model."""
    path = tmp_path / "m.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    inputs = _inputs(model)
    codes = sorted({d.code for d in irlint.check(path)})
    ours = {k: np.asarray(v) for k, v in irlint.run(irlint.load(path), inputs).items()}
    core = ov.Core()
    read = core.read_model(str(path))
    names = [r.get_friendly_name() for r in read.get_results()]
    got = core.compile_model(read, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})(inputs)
    return codes, ours, {n: np.asarray(got[i]) for i, n in enumerate(names)}


def _departs(ours: dict[str, np.ndarray], cpu: dict[str, np.ndarray]) -> bool:
    return any(not np.allclose(ours[k], cpu[k], rtol=1e-4, atol=1e-5, equal_nan=True) for k in cpu)


ACTIVATIONS = sorted(tb.ACTIVATIONS)


@pytest.mark.parametrize("order", ["xh", "hx"])
@pytest.mark.parametrize("act", ACTIVATIONS)
def test_every_eltwise_activation_in_both_operand_orders(act: str, order: str, tmp_path: Path) -> None:
    codes, ours, cpu = _both(_model("rnn", order, "squeeze", act, "ti"), tmp_path)
    assert _departs(ours, cpu) == (order == "xh"), (ours, cpu)
    assert ("BE507" in codes) == (order == "xh"), codes


@pytest.mark.parametrize("kind", ["ti", "loop"])
@pytest.mark.parametrize("view", ["squeeze", "reshape", "unsqueeze", "none"])
@pytest.mark.parametrize("order", ["xh", "hx"])
def test_views_loops_and_orders(view: str, kind: str, order: str, tmp_path: Path) -> None:
    """No view (the slice added as it is) leaves the Add's input 0 a Parameter: no in-place write."""
    codes, ours, cpu = _both(_model("rnn", order, view, "tanh", kind), tmp_path)
    want = order == "xh" and view != "none"
    assert _departs(ours, cpu) == want
    assert ("BE507" in codes) == want, codes


@pytest.mark.parametrize("order", ["xh", "hx"])
def test_a_weighted_slice_departs_in_both_orders(order: str, tmp_path: Path) -> None:
    """act(Squeeze(x[k]) * W + h), W a Const vector: the Multiply heads the node, in place over the slice, and
    the Add joins it from either side."""
    codes, ours, cpu = _both(_model("rnn_weighted", order, "squeeze", "tanh", "ti"), tmp_path)
    assert _departs(ours, cpu) and "BE507" in codes


def test_the_onnx_scan_departs_with_the_slice_first(tmp_path: Path) -> None:
    """The TensorIterator OpenVINO's ONNX front end writes for Scan(h' = tanh(x_t + h)): Squeeze, Add, Tanh
    and an Unsqueeze for the scan output beside the back edge's Result."""
    pytest.importorskip("onnx")
    for order, want in (("xh", True), ("hx", False)):
        for seed in range(40):  # a seed drawing tanh
            r = random.Random(seed)
            c = tb._Cell(r, N)
            c.order = order
            model = tb._scan_model(r, c, T, N)
            if c.notes[-1] == "activation tanh":
                break
        codes, ours, cpu = _both(model, tmp_path)
        assert _departs(ours, cpu) == want and ("BE507" in codes) == want, (order, codes)


def test_the_state_swap_gives_both_states_the_second_value(tmp_path: Path) -> None:
    """a <- b, b <- a: the back-edge copies run in port_map order, a's first, so b's copy reads a's memory
    after a received b: the plugin gives a, b, b, b where the spec alternates."""
    codes, ours, cpu = _both(_model("swap", "xh", "none", "none", "ti", seed=2), tmp_path)
    assert _departs(ours, cpu) and "BE507" in codes
    a_then_b = cpu["out0"].ravel()
    assert np.allclose(a_then_b, cpu["out1"].ravel())  # both states hold one value


@pytest.mark.parametrize(("passes", "code"), [("slice", "BE508"), ("state", None)])
def test_a_result_reading_a_parameter_directly(passes: str, code: str | None, tmp_path: Path) -> None:
    """A Result that reads a body Parameter with no op between has that Parameter's memory: the sliced one is
    overwritten by the next slice first (BE508); a state read by its own back edge is copied onto itself."""
    model = None
    for seed in range(200):
        r = random.Random(seed)
        c = tb._Cell(r, N)
        c.cell, c.order, c.view, c.act = "pass", "hx", "squeeze", "relu"
        model = tb._api_model(r, c, "ti", T, N, outputs="last")
        if f"passes {passes}" in c.notes and "adds a" in c.notes:  # a, the Parameter passed on, is read
            break
    codes, ours, cpu = _both(model, tmp_path)
    assert _departs(ours, cpu) == (code is not None)
    assert [x for x in codes if x in ("BE507", "BE508")] == ([code] if code else [])


FIXTURES = Path(__file__).parent / "fixtures"


@pytest.mark.parametrize(
    "name",
    [
        "BE507/fail-textbook",
        "BE507/fail-textbook-loop",
        "BE507/fail-swap",
        "BE508/fail-result-reads-slice",
        "BE507/pass-textbook",
    ],
)
def test_the_fixtures_depart_exactly_where_they_are_warned(name: str) -> None:
    """tests/rules/make_textbook_fixtures.py's models: the plugin departs on the fail ones, not on the pass one
    (test_fixtures.py holds the warnings' codes and lines)."""
    path = FIXTURES / f"{name}.xml"
    model = ov.Core().read_model(str(path))
    inputs = _inputs(model)
    ours = {k: np.asarray(v) for k, v in irlint.run(irlint.load(path), inputs).items()}
    from tests.rules.cpuplugin import cpu_by_result

    assert _departs(ours, cpu_by_result(path, inputs)) == ("/fail" in name)
