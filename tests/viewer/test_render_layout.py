"""Layout of `irlint render`: port tables keep a TensorFlow Loop narrow, back edges do not cross,
--scope-depth, carried Scatter buffers, and element types of v10 ports written without precision."""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from irlint.viewer.diagram import DiagramOptions, build_diagram, style
from irlint.viewer.diagram.buffers import carried_buffers, counters
from irlint.viewer.diagram.context import node_id

import irlint
from tests.viewer.svggeometry import crossings, edges, svg_of

HERE = Path(__file__).resolve().parent
KERAS = HERE / "fixtures" / "keras_lstm.xml"
V10_TI = HERE.parents[1] / "tests" / "corpus" / "thirdparty" / "ti_lstm_v10.xml"
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")


def render(model: Path, out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "irlint", "render", str(model), "-o", str(out), *args],
                          capture_output=True, text=True, timeout=300)


@needs_dot
def test_keras_lstm_png_is_at_most_1600_px_wide(tmp_path: Path) -> None:
    res = render(KERAS, tmp_path / "k.png")
    assert res.returncode == 0, res.stderr
    data = (tmp_path / "k.png").read_bytes()
    width, height = struct.unpack(">II", data[16:24])  # the PNG's IHDR
    assert width <= 1600 and height > 0, (width, height)
    svg = render(KERAS, tmp_path / "k.svg")
    assert svg.returncode == 0
    points = float(re.search(r'<svg width="([\d.]+)pt"', (tmp_path / "k.svg").read_text())[1])
    assert points * 96 / 72 <= 1600


def table_rows(src: str, table: str) -> list[int]:
    """Layer ids of a port table's rows, top to bottom."""
    label = re.search(rf'\b{table} \[label=<(.*?)> ', src, re.S)
    assert label, table
    return [int(x) for x in re.findall(r'PORT="r(\d+)"', label[1])]


def test_keras_ports_are_tables_with_distinct_names_and_nested_back_edges() -> None:
    model = irlint.load(KERAS)
    loop = next(la for la in model.graph.layers if la.type == "Loop")
    src = build_diagram(model).source
    params, results = table_rows(src, f"L_{loop.id}_inputs"), table_rows(src, f"L_{loop.id}_outputs")
    assert len(params) == 6 and len(results) == 6  # Parameters and Results are rows, none a node
    assert f"L_{loop.id}_body_0 [" not in src
    names = re.findall(r'<TD PORT="r\d+"[^>]*>#\d+  ([^<]*?)(?:  back edge (?:from|to) #\d+)?<BR', src)
    assert len(names) == 12 and len(set(names)) == 12 and all(len(n) <= 40 for n in names)
    # the trip count and condition are rows too, with the folded constants' values
    assert 'PORT="in0"' in src and "trip count (port 0)  = -1 from Constant_194" in src
    assert "= 0 from …while/loop_counter" in src
    back = re.findall(rf'L_{loop.id}_inputs:r(\d+):w -> L_{loop.id}_outputs:r(\d+):w \[label="back edge', src)
    assert len(back) == len(loop.back_edges) == 5
    # nested: the higher a Parameter's row, the lower the row of the Result feeding it
    pairs = sorted((params.index(int(p)), results.index(int(r))) for p, r in back)
    assert [r for _p, r in pairs] == sorted((r for _p, r in pairs), reverse=True)


def test_scope_depth_opens_scopes_down_to_a_level() -> None:
    model = irlint.load(KERAS)
    closed = build_diagram(model, DiagramOptions(scope_depth=0)).source
    assert "cluster_scope_" not in closed  # every scope is one node, the big one too
    assert re.search(r'scope_\d+ \[label="functional_1_1/lstm_1_1/\n', closed)
    one = build_diagram(model, DiagramOptions(scope_depth=1)).source
    assert one.count("subgraph cluster_scope_") == 2  # functional_1_1/lstm_1_1 outside and in the body
    assert re.search(r'scope_\d+ \[label="while/\n', one)  # one level deeper: folded
    sigmoid = "L_16_body_28 ["  # functional_1_1/lstm_1_1/while/lstm_cell_1/Sigmoid
    assert sigmoid not in one
    both = build_diagram(model, DiagramOptions(scope_depth=0, expand=("functional_1_1/lstm_1_1/while/lstm_cell_1",)))
    assert sigmoid in both.source and re.search(r'scope_\d+ \[label="[^"]*strided_slice_3/', both.source)


def test_cli_scope_depth(tmp_path: Path) -> None:
    res = render(KERAS, tmp_path / "k.dot", "--scope-depth", "0")
    assert res.returncode == 0 and "cluster_scope_" not in (tmp_path / "k.dot").read_text()
    assert render(KERAS, tmp_path / "k.dot", "--scope-depth", "-1").returncode == 2


def tf_style_loop(path: Path, current_iteration: bool = False) -> Path:
    """TensorFlow's pattern for a sequence output: a buffer carried on a back edge and written with
    ScatterUpdate at the loop counter (a counter Parameter + 1 on a back edge, or the Loop's
    current-iteration port), beside a plain accumulator that is no buffer."""
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([2], np.float32, name="x")
    buf0 = ops.constant(np.zeros((3, 2), np.float32))
    counter = ops.parameter([], np.int64, name="i")
    buf = ops.parameter([3, 2], np.float32, name="buf")
    acc = ops.parameter([2], np.float32, name="acc")
    acc_next = ops.add(acc, ops.constant(np.ones(2, np.float32)))
    index = ops.unsqueeze(counter, ops.constant(np.int64(0)))
    written = ops.scatter_update(buf, index, ops.unsqueeze(acc_next, ops.constant(np.int64(0))),
                                 ops.constant(np.int64(0)))
    results = [ops.result(written, name="buf_next"), ops.result(acc_next, name="acc_next"),
               ops.result(ops.constant(np.bool_(True)), name="cond")]
    params = [buf, acc]
    if not current_iteration:
        results.append(ops.result(ops.add(counter, ops.constant(np.int64(1))), name="i_next"))
    params.insert(0, counter)
    loop = ops.loop(ops.constant(np.int64(3)), ops.constant(np.bool_(True)))
    loop.set_function(ov.Model(results, params, "body"))
    loop.set_special_body_ports([0 if current_iteration else -1, 2])
    if not current_iteration:
        loop.set_merged_input(counter, ops.constant(np.int64(0)).output(0), results[3].output(0))
    loop.set_merged_input(buf, buf0.output(0), results[0].output(0))
    loop.set_merged_input(acc, x.output(0), results[1].output(0))
    out = loop.get_iter_value(results[0].output(0), -1)
    ov.save_model(ov.Model([ops.result(out, name="y")], [x], "tf_style"), str(path), compress_to_fp16=False)
    return path


@pytest.mark.parametrize("current_iteration", [False, True])
def test_carried_scatter_buffer_is_found_structurally(tmp_path: Path, current_iteration: bool) -> None:
    pytest.importorskip("openvino")
    model = irlint.load(tf_style_loop(tmp_path / "t.xml", current_iteration))
    loop = next(la for la in model.graph.layers if la.type == "Loop")
    assert loop.body is not None
    by_name = {la.name: la.id for la in loop.body.layers}
    assert counters(model, loop, model.graph) == {by_name["i"]: 0}
    found = carried_buffers(model, loop, model.graph)
    assert len(found) == 1  # the accumulator is carried too, but written by an Add: no buffer
    assert found[0].parameter == by_name["buf"] and found[0].per_iteration and found[0].axis == 0
    assert found[0].describe() == "per-iteration buffer [axis 0, index = counter]"
    src = build_diagram(model).source
    assert "per-iteration buffer [axis 0, index = counter]" in src
    back = re.findall(r'-> \S+ \[label="back edge\n(per-iteration [^"]*)"[^\]]*penwidth=3', src)
    assert back == ["per-iteration buffer [axis 0, index = counter]"]  # the buffer's back edge, drawn thick


def test_keras_buffer_is_one_slot_written_at_index_0() -> None:
    """Keras returning the last step only writes its TensorList at index 0 every iteration."""
    model = irlint.load(KERAS)
    loop = next(la for la in model.graph.layers if la.type == "Loop")
    found = carried_buffers(model, loop, model.graph)
    assert [(b.parameter, b.result, b.axis, b.index, b.per_iteration) for b in found] == [(2, 49, 0, "0", False)]
    src = build_diagram(model).source
    assert "one-slot buffer [axis 0, index 0]: every iteration overwrites it" in src
    assert "#cdeef0" in src  # the Parameter's row in the buffer's colour


@needs_dot
@pytest.mark.parametrize("rankdir", ["TB", "LR"])
def test_v10_tensor_iterator_back_edges_cross_no_edge(rankdir: str) -> None:
    """OpenVINO's v10 LSTM TensorIterator test IR: h (Parameter 34 <- sink_port_1) and c (36 <-
    sink_port_0) are listed with their Results in the opposite order. In dot's SVG no back edge
    crosses another edge (held in order among themselves only, each crossed an edge into or out of
    the cell), and the first is drawn on the left side."""
    model = irlint.load(V10_TI)
    src = build_diagram(model, DiagramOptions(rankdir=rankdir)).source
    drawn = edges(svg_of(src))
    back = [e for e in drawn if e.colour == style.BACK_EDGE["color"]]
    assert len(back) == 2
    crossed = [(b.tail, b.head, e.tail, e.head) for b in back for e in drawn if e is not b and crossings(b, e)]
    assert not crossed
    lines = [line for line in src.splitlines() if "back edge" in line]
    side = "w" if rankdir == "TB" else "n"
    assert "L_3_body_3 -> L_3_body_10" in lines[0] and f"tailport={side}" in lines[0]


@needs_dot
@pytest.mark.parametrize("rankdir", ["TB", "LR"])
@pytest.mark.parametrize(
    "name",
    [
        "ti_lstm_resnet.xml",
        "ti_lstm_unordered_body.xml",
        "ti_lstm_reverse.xml",
        "loop_2d_add.xml",
        "loop_port1_unconnected.xml",
    ],
)
def test_back_edges_of_openvino_s_test_irs_cross_no_edge(name: str, rankdir: str) -> None:
    """More of OpenVINO's reader-test IRs (LSTMCell TensorIterators, ONNX Loops): no back edge crosses
    another edge in dot's SVG. dot's last pass over the whole graph (`remincross`, off) forgot the
    order held inside the body's cluster and put a Result of no back edge outside a back edge's."""
    model = irlint.load(V10_TI.with_name(name))
    drawn = edges(svg_of(build_diagram(model, DiagramOptions(rankdir=rankdir)).source))
    back = [e for e in drawn if e.colour == style.BACK_EDGE["color"]]
    assert back
    crossed = [(b.tail, b.head, e.tail, e.head) for b in back for e in drawn if e is not b and crossings(b, e)]
    assert not crossed


@needs_dot
@pytest.mark.parametrize("rankdir", ["TB", "LR"])
@pytest.mark.parametrize("shape", ["ti_single", "ti_stacked", "ti_bidirectional"])
def test_back_edges_of_tensor_iterators_in_a_name_scope_cross_no_edge(tmp_path: Path, shape: str, rankdir: str) -> None:
    """LSTMCell TensorIterators whose body layers share the scope `lstm/TensorIterator` (drawn as a
    cluster): its Parameters and Results are held in that cluster's first and last rank, and the
    Squeeze/Unsqueeze axes named outside the scope are drawn inside it, so no back edge crosses an edge."""
    pytest.importorskip("openvino")
    import openvino as ov

    from tests.viewer import frontends

    path = tmp_path / f"{shape}.xml"
    ov.save_model(frontends.SHAPES[shape](), str(path), compress_to_fp16=False)
    src = build_diagram(irlint.load(path), DiagramOptions(rankdir=rankdir)).source
    assert "subgraph cluster_scope_" in src
    drawn = edges(svg_of(src))
    back = [e for e in drawn if e.colour == style.BACK_EDGE["color"]]
    assert len(back) == 2
    crossed = [(b.tail, b.head, e.tail, e.head) for b in back for e in drawn if e is not b and crossings(b, e)]
    assert not crossed


def test_v10_ports_without_precision_take_the_inferred_type(tmp_path: Path) -> None:
    """v10 writers leave `precision` off ports; the label shows the type inferred from the producer."""
    text = V10_TI.read_text()
    path = tmp_path / "v10.xml"
    path.write_text(text.replace('<port id="2" precision="FP32">', '<port id="2">')
                    .replace('<port id="3" precision="FP32">', '<port id="3">'))
    model = irlint.load(path)
    assert any(p.precision is None for _g, la in model.layers() for p in la.outputs)
    src = build_diagram(model).source
    assert "?[" not in src
    assert "f32[1,512]" in src and "f32[1,25,256]" in src


def test_a_layer_fed_by_three_consts_lists_them_in_its_node(tmp_path: Path) -> None:
    """An LSTMCell's W, R and B feed nothing else: its node lists them (`in3,4,5 ← Consts` and their
    types), no node of theirs is drawn, and the HTML panel finds each on the cell's node. A Const
    feeding two layers, or a layer fed by two Consts, keeps its nodes."""
    pytest.importorskip("openvino")
    import openvino as ov

    from tests.viewer import frontends

    path = tmp_path / "ti.xml"
    ov.save_model(frontends.ti_single(), str(path), compress_to_fp16=False)
    model = irlint.load(path)
    ti = next(la for la in model.graph.layers if la.body is not None)
    cell = next(la for la in ti.body.layers if la.type == "LSTMCell")
    into_cell = {e.from_layer for e in ti.body.edges if e.to_layer == cell.id}
    weights = [la for la in ti.body.layers if la.type == "Const" and la.id in into_cell]
    assert len(weights) == 3
    diagram = build_diagram(model)
    src = diagram.source
    node = re.search(rf'\t{node_id(cell)} \[label="([^"]*)"', src)
    assert node is not None
    assert "in3,4,5 ← Consts\nf32[16,3], f32[16,4], f32[16]" in node[1], node[1]
    for w in weights:
        assert not re.search(rf"\t{node_id(w)}[ \[]", src)  # no node, no edge of its own
        assert diagram.irlint_panel()[node_id(w)]["where"] == ["node", node_id(cell)]
    others = [la for la in ti.body.layers if la.type == "Const" and la not in weights]
    assert others and all(re.search(rf"\t{node_id(la)} \[label=", src) for la in others)  # a Squeeze's axes
    # the detail one flag away: --const-nodes draws each Const
    res = render(path, tmp_path / "all.dot", "--const-nodes")
    assert res.returncode == 0, res.stderr
    every = (tmp_path / "all.dot").read_text(encoding="utf-8")
    assert "← Consts" not in every and all(re.search(rf"\t{node_id(w)} -> {node_id(cell)}", every) for w in weights)
