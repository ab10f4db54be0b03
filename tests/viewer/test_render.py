"""`irlint render`: clusters per body at the right nesting, back-edge styling, port_map labels, real `dot`."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from irlint.viewer.diagram import DiagramOptions, build_diagram

import irlint
from irlint.api import check_model

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "irlint", *args], capture_output=True, text=True, timeout=120,
                          env=env)


def test_clusters_nest_like_bodies() -> None:
    src = build_diagram(irlint.load(EXAMPLES / "nested_loop_in_ti.xml")).source
    assert src.count("subgraph cluster_") == 2
    outer = src.index("subgraph cluster_L_")
    inner = src.index("subgraph cluster_L_", outer + 1)
    assert "Loop" in src[inner:inner + 300] and src.index("TensorIterator", outer) < inner


def test_back_edges_and_port_map_labels() -> None:
    model = irlint.load(EXAMPLES / "lstm_ti.xml")
    src = build_diagram(model).source
    ti = next(la for la in model.graph.layers if la.type == "TensorIterator")
    back = [line for line in src.splitlines() if "back edge" in line]
    assert len(back) == len(ti.back_edges) == 2
    assert all("dashed" in line and "dir=back" in line for line in back)
    assert "axis 1: 5 slices, it 0 <- 0 ... it 4 <- 4" in src and "initial value" in src
    assert "concat axis 1" in src and "last value" in src


def test_loop_special_ports_are_marked() -> None:
    src = build_diagram(irlint.load(EXAMPLES / "loop_scan.xml")).source
    assert "trip count" in src and "execution condition" in src
    assert "(current_iteration)" in src and "(execution_condition)" in src


def test_collapse_and_depth() -> None:
    model = irlint.load(EXAMPLES / "nested_loop_in_ti.xml")
    assert "cluster_" not in build_diagram(model, DiagramOptions(collapse=True)).source
    assert build_diagram(model, DiagramOptions(depth=1)).source.count("subgraph cluster_") == 1


def test_lint_colours_and_tooltips() -> None:
    model = irlint.load(EXAMPLES / "broken" / "lstm_ti_broken.xml")
    src = build_diagram(model, DiagramOptions(diagnostics=check_model(model))).source
    assert "#cc0000" in src and "W303" in src and "cluster_legend" in src


def test_trace_annotation(tmp_path: Path) -> None:
    trace = tmp_path / "t.npz"
    assert cli("run", str(EXAMPLES / "lstm_ti.xml"), "--inputs", str(EXAMPLES / "inputs" / "lstm_ti.npz"),
               "--trace", str(trace)).returncode == 0
    from irlint.interp.trace import load_trace

    values, _ = load_trace(trace)
    src = build_diagram(irlint.load(EXAMPLES / "lstm_ti.xml"), DiagramOptions(trace=values, iteration=2)).source
    assert "it 2:" in src


def traced_edges(tmp_path: Path, name: str, iteration: tuple[int, ...]) -> dict[tuple[str, str], str]:
    """The DOT attributes of every edge (by tail and head node) of the example `name` drawn with a
    trace of its run at `iteration`."""
    trace = tmp_path / "t.npz"
    assert cli("run", str(EXAMPLES / f"{name}.xml"), "--inputs", str(EXAMPLES / "inputs" / f"{name}.npz"),
               "--trace", str(trace)).returncode == 0
    from irlint.interp.trace import load_trace

    values, _ = load_trace(trace)
    src = build_diagram(irlint.load(EXAMPLES / f"{name}.xml"), DiagramOptions(trace=values, iteration=iteration)).source
    return dot_edges(src)


def dot_edges(src: str) -> dict[tuple[str, str], str]:
    """Each `A -> B [...]` statement's attributes, up to the next statement (labels hold brackets)."""
    starts = list(re.finditer(r"^\t*(\S+) -> (\S+) \[", src, re.M))
    ends = [m.start() for m in starts[1:]] + [len(src)]
    return {(m[1], m[2]): src[m.end():end] for m, end in zip(starts, ends)}


def test_each_port_map_edge_shows_the_value_that_flows_on_it(tmp_path: Path) -> None:
    edges = traced_edges(tmp_path, "lstm_ti", (3,))
    # H0 -> h_prev carries H0 into iteration 0 only (iteration 3's h_prev came over the back edge)
    initial = edges[("L_1", "L_3_body_1")]
    assert "initial value (iteration 0 only)" in initial and "h_prev it 0: [0. 0. 0. 0.]" in initial
    assert "carried: it 3:" in edges[("L_3_body_1", "L_3_body_11")]  # the back edge: iteration 3's h_next
    # the last-value output delivers the last iteration's h_next, not iteration 3's
    last = edges[("L_3_body_11", "L_5")]
    assert "last value" in last and "h_next it 4:" in last and "it 3" not in last
    assert "concat axis 1" in edges[("L_3_body_13", "L_4")] and "y_t it 3:" in edges[("L_3_body_13", "L_4")]


def test_body_edges_show_values_with_the_whole_tensor_as_tooltip(tmp_path: Path) -> None:
    edges = traced_edges(tmp_path, "lstm_ti", (3,))
    into_result = edges[("L_3_body_8", "L_3_body_11")]  # LSTMCell -> h_next: the Result's value
    assert "it 3: [" in into_result and 'tooltip="h_next it 3: float32[1, 4]' in into_result


def test_nested_initial_and_last_values_keep_the_outer_iteration(tmp_path: Path) -> None:
    edges = traced_edges(tmp_path, "nested_loop_in_ti", (2, 1))
    initial = next(v for v in edges.values() if "initial value" in v and "h_inner" in v)
    assert "h_inner it 2.0:" in initial
    last = next(v for v in edges.values() if "last value" in v and "h_inner_next" in v)
    assert "h_inner_next it 2.2:" in last


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
@pytest.mark.parametrize("fmt", ["svg", "png", "dot"])
def test_render_with_real_dot(fmt: str, tmp_path: Path) -> None:
    out = tmp_path / f"lstm.{fmt}"
    res = cli("render", str(EXAMPLES / "lstm_ti.xml"), "-o", str(out), "--lint")
    assert res.returncode == 0, res.stderr
    data = out.read_bytes()
    assert {"svg": b"<svg", "png": b"\x89PNG", "dot": b"digraph"}[fmt] in data[:400]


def test_without_dot_only_dot_output_works(tmp_path: Path) -> None:
    env = dict(os.environ, PATH=str(tmp_path))  # no dot on PATH
    res = cli("render", str(EXAMPLES / "lstm_ti.xml"), "-o", str(tmp_path / "x.svg"), env=env)
    assert res.returncode == 2 and "apt-get install graphviz" in res.stderr and "Traceback" not in res.stderr
    res = cli("render", str(EXAMPLES / "lstm_ti.xml"), "-o", str(tmp_path / "x.dot"), env=env)
    assert res.returncode == 0 and (tmp_path / "x.dot").exists()


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_a_300_layer_body_renders(tmp_path: Path) -> None:
    ov = pytest.importorskip("openvino")
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from gen_large import build

    path = tmp_path / "big.xml"
    ov.save_model(build(600), str(path), compress_to_fp16=False)
    body_layers = sum(len(la.body.layers) for la in irlint.load(path).graph.layers if la.body is not None)
    assert body_layers >= 300
    res = cli("render", str(path), "-o", str(tmp_path / "big.svg"))
    assert res.returncode == 0 and (tmp_path / "big.svg").stat().st_size > 10_000
