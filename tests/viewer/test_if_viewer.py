"""If in the renderer and the debugger: both branches drawn nested in the If's cluster with their port
maps, the taken branch marked from a trace; the debugger's tree shows the branches and stepping
into an If shows the taken branch's layers (Pilot tests, never a terminal)."""

from __future__ import annotations

import argparse
import asyncio
import re
from pathlib import Path

import numpy as np
import pytest
from irlint.viewer.diagram import DiagramOptions, build_diagram
from irlint.viewer.diagram.context import node_id
from irlint.viewer.render_cmd import drawn_nodes

import irlint
from irlint.api import check_model
from irlint.interp import run
from irlint.interp.trace import Trace
from tests import ifmodels

pytest.importorskip("openvino")


@pytest.fixture(scope="module")
def paths(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("ifv")
    return {n: ifmodels.save(getattr(ifmodels, n)(), d, n) for n in ("simple_if", "if_in_loop")}


def _cluster_label(src: str, name: str) -> str:
    at = src.index(f"subgraph {name}")
    return src[at:src.index("\n", src.index("label=", at))]


def test_both_branches_nested_with_port_maps(paths: dict[str, Path]) -> None:
    model = irlint.load(paths["simple_if"])
    iff = next(la for la in model.graph.layers if la.type == "If")
    src = build_diagram(model).source
    cid = "cluster_L_" + iff.path
    assert src.count("subgraph cluster_") == 3
    outer, then, other = (src.index(f"subgraph {n}") for n in (cid, f"{cid}_then", f"{cid}_else"))
    assert outer < then < other
    assert "then" in _cluster_label(src, f"{cid}_then") and "taken" not in src
    for b in iff.branches:  # every branch layer is a node inside the If's cluster
        for la in b.body.layers:
            assert f"L_{la.path.replace('/', '_')}" in src[outer:]
    assert "condition" in src
    # port maps: x feeds both branches' Parameters, y only the then branch's; both Results feed the output
    def crossing(pattern: str) -> int:
        return len(re.findall(pattern, src))

    assert crossing(rf"\tL_\d+ -> L_{iff.path}_then_body_\d+ ") == 2
    assert crossing(rf"\tL_\d+ -> L_{iff.path}_else_body_\d+ ") == 1
    assert crossing(rf"\tL_{iff.path}_(then|else)_body_\d+ -> L_\d+ ") == 2
    assert crossing(rf"\tL_0 -> L_{iff.path}_in0 ") == 1  # the condition
    assert drawn_nodes(model.graph, False, None, 1000) == 3 + 2 + 4 + 4 + 1


@pytest.mark.parametrize(("iteration", "taken"), [(0, "then"), (1, "else"), (2, "then")])
def test_a_trace_marks_the_taken_branch(paths: dict[str, Path], iteration: int, taken: str) -> None:
    model = irlint.load(paths["if_in_loop"])
    trace = Trace()
    run(model, {"x": np.ones((1, 3), np.float32), "h0": np.zeros((1, 3), np.float32)}, listener=trace)
    src = build_diagram(model, DiagramOptions(trace=trace.values, iteration=iteration)).source
    loop = next(la for la in model.graph.layers if la.type == "Loop")
    iff = next(la for la in loop.body.layers if la.type == "If")
    cid = "cluster_L_" + iff.path.replace("/", "_")
    other = "else" if taken == "then" else "then"
    assert "(taken)" in _cluster_label(src, f"{cid}_{taken}")
    assert "(taken)" not in _cluster_label(src, f"{cid}_{other}")


def test_findings_are_drawn_on_branch_port_map_entries() -> None:
    path = Path(__file__).resolve().parents[1] / "rules" / "fixtures" / "IF802" / "fail.xml"
    model = irlint.load(path)
    src = build_diagram(model, DiagramOptions(diagnostics=check_model(model))).source
    # the entry points the If's output at the else branch's Multiply (layer 2): that edge carries the finding
    assert re.search(r'L_3_else_body_2 -> L_4 \[label="[^"]*IF802', src)


def _args(model: Path) -> argparse.Namespace:
    return argparse.Namespace(model=str(model), weights=None, inputs=None, assign=[], seed=0, shape=[],
                              max_iterations=1000, memory_budget=1 << 30, random_inputs=True)


def test_debugger_tree_and_stepping_into_the_branch(paths: dict[str, Path]) -> None:
    asyncio.run(_debugger_tree_and_stepping(paths["simple_if"]))


async def _debugger_tree_and_stepping(path: Path) -> None:
    from irlint.viewer.debug_cmd import make_app
    from textual.widgets import Tree

    app = make_app(_args(path))
    async with app.run_test(size=(100, 30)) as pilot:
        iff = next(la for la in app.session.model.graph.layers if la.type == "If")
        node = app.nodes[iff.path]
        labels = [str(c.label) for c in node.children]
        assert labels == ["then branch", "else branch"]
        for b, child in zip(iff.branches, node.children):
            assert [c.data for c in child.children] == list(b.body.layers)
        assert app.query_one("#graph", Tree) is not None
        cond = bool(app.session.inputs["cond"])
        taken = "then" if cond else "else"
        for _ in range(30):  # step until the first layer inside the branch is evaluated
            await pilot.press("s")
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            if app.selected is not None and f"/{taken}_body/" in app.selected.path:
                break
        assert app.selected is not None and app.selected.path.startswith(f"{iff.path}/{taken}_body/")
        assert app.session.current_iteration == (0,)
        assert app.session.loop_totals() == [f"{taken} branch"]  # the status line names the branch, not "0 of ?"


def test_a_branch_of_four_parameters_is_drawn_as_port_tables(tmp_path: Path) -> None:
    """An If passing four values through (then: as they are, else: negated) draws each branch's
    Parameters and Results as one table a side, a row per layer saying the If's port; the outer edges
    end at the rows, labelled with the port, and the HTML panel finds each layer on its row."""
    path = ifmodels.save(ifmodels.pass_through_if(4), tmp_path, "four")
    model = irlint.load(path)
    iff = next(la for la in model.graph.layers if la.type == "If")
    diagram = build_diagram(model)
    src = diagram.source
    panel = diagram.irlint_panel()
    for b in iff.branches:
        for kind, side in (("Parameter", "inputs"), ("Result", "outputs")):
            table = f"{node_id(iff)}_{b.name}_{side}"
            layers = [la for la in b.body.layers if la.type == kind]
            assert len(layers) == 4 and re.search(rf"\t{table} \[label=<", src), table
            for la in layers:
                assert f'PORT="r{la.id}" ID="{node_id(la)}"' in src
                assert panel[node_id(la)]["where"] == ["row", "a_" + node_id(la)]
                assert not re.search(rf"\t{node_id(la)} \[label=", src)  # no node of its own
            assert re.search(rf"If {'input' if kind == 'Parameter' else 'output'} \d", src)
        into = re.findall(rf'-> {node_id(iff)}_{b.name}_inputs:r\d+:w \[label="port (\d)\n{b.name}', src)
        assert sorted(into) == ["1", "2", "3", "4"], into
