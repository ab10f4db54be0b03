"""`irlint render`: clusters per body at the right nesting, back-edge styling, port_map labels, real `dot`."""

from __future__ import annotations

import os
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
