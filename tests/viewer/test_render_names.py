"""Readable layer names in `irlint render`: labels keep the part that tells names apart, tooltips the whole."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from irlint.viewer.diagram import DiagramOptions, build_diagram
from irlint.viewer.diagram.names import short_names

import irlint

KERAS = "functional_1_lstm_1_while_functional_1_lstm_1_while_"


def test_long_names_keep_their_distinguishing_tails() -> None:
    names = [KERAS + "loop_counter", KERAS + "strided_slice_3", "functional_1/lstm_1/while/lstm_cell_1/Sigmoid",
             "functional_1/lstm_1/while/lstm_cell_1/Sigmoid_1", "x", "y" * 90]
    short = short_names(names)
    assert short[KERAS + "loop_counter"] == "…functional_1_lstm_1_while_loop_counter"
    assert short[KERAS + "strided_slice_3"].endswith("_while_strided_slice_3")
    assert short["functional_1/lstm_1/while/lstm_cell_1/Sigmoid"] == "…lstm_1/while/lstm_cell_1/Sigmoid"
    assert short["x"] == "x"
    assert len(set(short.values())) == len(names) and all(len(v) <= 40 for v in short.values())
    assert short["y" * 90].startswith("…") and "…" in short["y" * 90][1:]  # its start and its end


def keras_like_loop(path: Path) -> Path:
    """A Loop whose body Parameters carry the names TensorFlow's front end writes for a Keras LSTM."""
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([2], np.float32, name="x")
    counter = ops.parameter([], np.int64, name=KERAS + "loop_counter")
    acc = ops.parameter([2], np.float32, name=KERAS + "strided_slice_3")
    nxt = ops.add(acc, ops.constant(np.ones(2, np.float32)))
    nxt.set_friendly_name("functional_1/lstm_1/while/lstm_cell_1/Add")
    acc_res = ops.result(nxt, name="functional_1/lstm_1/while/Identity_3")
    cond = ops.result(ops.constant(np.bool_(True)), name="functional_1/lstm_1/while/Identity")
    loop = ops.loop(ops.constant(np.int64(3)), ops.constant(np.bool_(True)))
    loop.set_function(ov.Model([acc_res, cond], [counter, acc], "body"))
    loop.set_special_body_ports([0, 1])
    loop.set_merged_input(acc, x.output(0), acc_res.output(0))
    out = loop.get_iter_value(acc_res.output(0), -1)
    ov.save_model(ov.Model([ops.result(out, name="y")], [x], "keras_like"), str(path), compress_to_fp16=False)
    return path


def test_render_labels_tell_keras_parameters_apart(tmp_path: Path) -> None:
    pytest.importorskip("openvino")
    src = build_diagram(irlint.load(keras_like_loop(tmp_path / "k.xml")), DiagramOptions()).source
    assert "…functional_1_lstm_1_while_loop_counter" in src
    assert "…1_lstm_1_while_strided_slice_3" in src
    assert f'tooltip="Parameter {KERAS}loop_counter #' in src  # the whole name on hover
    assert KERAS[:40] + "\n" not in src  # no label cut at 40 characters


def scoped_loop(path: Path) -> Path:
    """A Loop whose body holds the scope enc/cell (four layers) beside enc/out (one)."""
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([2], np.float32, name="x")
    acc = ops.parameter([2], np.float32, name="enc/acc")
    layers = []
    v = acc
    for n, op in enumerate((ops.tanh, ops.sigmoid, ops.relu, ops.exp)):
        v = op(v)
        v.set_friendly_name(f"enc/cell/{op.__name__}_{n}")
        layers.append(v)
    out = ops.negative(v)
    out.set_friendly_name("enc/out/Neg")
    acc_res = ops.result(out, name="enc/acc_next")
    loop = ops.loop(ops.constant(np.int64(3)), ops.constant(np.bool_(True)))
    loop.set_function(ov.Model([acc_res, ops.result(ops.constant(np.bool_(True)))], [acc], "body"))
    loop.set_special_body_ports([-1, 1])
    loop.set_merged_input(acc, x.output(0), acc_res.output(0))
    y = loop.get_iter_value(acc_res.output(0), -1)
    ov.save_model(ov.Model([ops.result(y, name="y")], [x], "scoped"), str(path), compress_to_fp16=False)
    return path


def test_scopes_collapse_to_one_node_and_expand_on_request(tmp_path: Path) -> None:
    pytest.importorskip("openvino")
    model = irlint.load(scoped_loop(tmp_path / "s.xml"))
    cell = [la for _g, la in model.layers() if la.name.startswith("enc/cell/")]
    assert len(cell) == 4
    collapsed = build_diagram(model, DiagramOptions()).source
    assert "4 layers (--expand enc/cell)" in collapsed
    assert not any(f"L_{la.path.replace('/', '_')} [" in collapsed for la in cell)  # hidden in the scope node
    assert "enc/cell/tanh_0" in collapsed  # listed in the scope node's tooltip
    assert re.search(r"L_\d+_body_\d+ -> scope_\d+", collapsed)  # the Parameter feeds the scope node
    assert re.search(r"scope_\d+ -> L_\d+_body_\d+", collapsed)  # which feeds Neg
    opened = build_diagram(model, DiagramOptions(expand=("enc/cell",))).source
    assert "cluster_scope_" in opened and "4 layers" not in opened
    assert all(f"L_{la.path.replace('/', '_')} [" in opened for la in cell)


def test_render_expand_option(tmp_path: Path) -> None:
    pytest.importorskip("openvino")
    xml = scoped_loop(tmp_path / "s.xml")
    out = tmp_path / "s.dot"
    for args, collapsed in (((), True), (("--expand", "all"), False), (("--expand", "enc/cell/"), False)):
        r = subprocess.run([sys.executable, "-m", "irlint", "render", str(xml), "-o", str(out), *args],
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        assert ("--expand enc/cell" in out.read_text()) is collapsed, args


FIXTURES = Path(__file__).resolve().parent / "fixtures"


def test_keras_lstm_labels_are_distinct_and_its_cell_collapses() -> None:
    """A Keras LSTM converted by OpenVINO (scripts/make_keras_lstm.py): every body Parameter and Result
    reads differently, and the cell's layers collapse into scope nodes until expanded."""
    model = irlint.load(FIXTURES / "keras_lstm.xml")
    loop = next(la for la in model.graph.layers if la.type == "Loop")
    assert loop.body is not None
    src = build_diagram(model, DiagramOptions()).source
    labels = {}
    for la in loop.body.layers:  # seven Parameters and seven Results: rows of the body's port tables
        if la.type in ("Parameter", "Result"):
            m = re.search(rf'<TD PORT="r{la.id}"[^>]*>#{la.id}  ([^<]*)<BR', src)
            assert m, la.name
            labels[la.name] = m[1]
    assert len(labels) >= 10 and len(set(labels.values())) == len(labels)
    assert any(len(n) > 40 for n in labels)  # the long Keras names are there, and told apart
    assert re.search(r"scope_\d+ \[label=\"[^\"]*layers \(--expand functional_1_1/lstm_1_1\)", src)
    opened = build_diagram(model, DiagramOptions(expand=("all",))).source
    assert "layers (--expand" not in opened
    cell = [la for la in loop.body.layers if "/lstm_cell_1/" in la.name]
    assert cell and all(f"L_{loop.id}_body_{la.id} [" in opened for la in cell)
