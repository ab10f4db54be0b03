"""What the diagram's edges say about ports and traced values: the Loop's special ports named by the
Loop's port, the last iteration's back edge carrying nothing, no value into an If branch that did not
run, and a scalar printed as a scalar."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from irlint.viewer.diagram import DiagramOptions, build_diagram

import irlint
from irlint.interp import run
from irlint.interp.trace import Trace
from tests import ifmodels
from tests.viewer import irs

pytest.importorskip("openvino")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def traced(model: irlint.Model, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    trace = Trace()
    run(model, inputs, listener=trace)
    return trace.values


def edge_labels(src: str, head: str) -> list[str]:
    """The labels of the edges into `head` (a node or `table:port`, ports as written)."""
    return [m[1] for m in re.finditer(rf'-> {re.escape(head)}\S* \[label="((?:[^"\\]|\\.)*)"', src)]


def condition_from_a_comparison(tmp_path: Path) -> Path:
    """A Loop with four body Parameters (drawn as a port table) whose execution condition comes from
    a Greater outside it: the Greater's output is its port 2, the Loop's input is port 1."""
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([2], np.float32, name="x")
    go = ops.greater(ops.reduce_sum(x, ops.constant(np.int64(0))), ops.constant(np.float32(-1)))
    params = [ops.parameter([2], np.float32, name=f"s{i}") for i in range(4)]
    nexts = [
        ops.result(ops.add(p, ops.constant(np.ones(2, np.float32))), name=f"s{i}_next") for i, p in enumerate(params)
    ]
    cond = ops.result(ops.constant(np.bool_(True)), name="cond")
    loop = ops.loop(ops.constant(np.int64(3)), go)
    loop.set_function(ov.Model([*nexts, cond], params, "body"))
    loop.set_special_body_ports([-1, 4])
    for p, r in zip(params, nexts):
        loop.set_merged_input(p, x.output(0), r.output(0))
    out = loop.get_iter_value(nexts[0].output(0), -1)
    return irs.save(ov.Model([ops.result(out, name="y")], [x], "cond_loop"), tmp_path / "cond.xml")


def test_edge_into_the_condition_row_names_the_loop_port(tmp_path: Path) -> None:
    model = irlint.load(condition_from_a_comparison(tmp_path))
    loop = next(la for la in model.graph.layers if la.type == "Loop")
    greater = next(la for la in model.graph.layers if la.type == "Greater")
    assert greater.outputs[0].id == 2  # the port the label showed
    src = build_diagram(model).source
    into_condition = edge_labels(src, f"L_{loop.id}_inputs:in1")
    assert into_condition == ["port 1"], into_condition


def back_edge_labels(src: str) -> list[str]:
    return [m[1] for m in re.finditer(r'\[label="(back edge[^"]*)"', src)]


def test_the_last_iteration_carries_nothing_over_its_back_edge() -> None:
    model = irlint.load(EXAMPLES / "lstm_ti.xml")
    values = traced(model, dict(np.load(EXAMPLES / "inputs" / "lstm_ti.npz")))
    ti = next(la for la in model.graph.layers if la.body is not None)
    last = max(int(k.split("@")[1].split(":")[0]) for k in values if k.startswith(f"{ti.path}/body/"))
    before = back_edge_labels(build_diagram(model, DiagramOptions(trace=values, iteration=last - 1)).source)
    final = back_edge_labels(build_diagram(model, DiagramOptions(trace=values, iteration=last)).source)
    assert before and all(f"carried: it {last - 1}:" in label for label in before), before
    assert final and all(
        "\ncarried:" not in label and f"last iteration, not carried: it {last}:" in label for label in final
    ), final


def test_edges_into_the_branch_not_taken_carry_no_value(tmp_path: Path) -> None:
    model = irlint.load(ifmodels.save(ifmodels.if_in_loop(), tmp_path, "if_in_loop"))
    values = traced(model, {"x": np.ones((1, 3), np.float32), "h0": np.zeros((1, 3), np.float32)})
    loop = next(la for la in model.graph.layers if la.type == "Loop")
    iff = next(la for la in loop.body.layers if la.type == "If")
    base = f"L_{iff.path.replace('/', '_')}"
    for iteration, taken, other in ((1, "else", "then"), (2, "then", "else")):
        src = build_diagram(model, DiagramOptions(trace=values, iteration=iteration)).source
        into_other = [
            label
            for p in iff.branches[0 if other == "then" else 1].body.layers
            if p.type == "Parameter"
            for label in edge_labels(src, f"{base}_{other}_body_{p.id}")
        ]
        into_taken = [
            label
            for p in iff.branches[0 if taken == "then" else 1].body.layers
            if p.type == "Parameter"
            for label in edge_labels(src, f"{base}_{taken}_body_{p.id}")
        ]
        assert into_other and all(f"{other} (not taken)" in label and " it " not in label for label in into_other), (
            into_other
        )
        assert into_taken and all(f"it {iteration}" in label for label in into_taken), into_taken


def test_a_scalar_value_is_not_printed_as_a_list(tmp_path: Path) -> None:
    """The Loop's current iteration is an i64[] scalar: its edges show `it 1: 1`, not `[1]`."""
    model = irlint.load(ifmodels.save(ifmodels.if_in_loop(), tmp_path, "if_in_loop"))
    values = traced(model, {"x": np.ones((1, 3), np.float32), "h0": np.zeros((1, 3), np.float32)})
    loop = next(la for la in model.graph.layers if la.type == "Loop")
    counter = next(la for la in loop.body.layers if la.type == "Parameter" and la.outputs[0].shape == ())
    src = build_diagram(model, DiagramOptions(trace=values, iteration=1)).source
    labels = [m[1] for m in re.finditer(rf'\tL_{counter.path.replace("/", "_")} -> \S+ \[label="([^"]*)"', src)]
    assert labels and all("it 1: 1" in label and "[1]" not in label for label in labels), labels
