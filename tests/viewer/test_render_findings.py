"""`render --lint` draws each finding on its element, `render --trace --iteration` is exact on nested loops."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from irlint.viewer.diagram import DiagramOptions, build_diagram

import irlint
from irlint.api import check_model
from tests.viewer.test_render import dot_edges

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
RED = "#cc0000"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "irlint", *args], capture_output=True, text=True, timeout=120)


def statements(src: str) -> list[str]:
    """DOT statements: each starts on a line indented by tabs (a label's continuation lines are not)."""
    return [s.strip() for s in re.split(r"\n(?=\t)", src) if s.strip()]


def lint_source(path: Path) -> tuple[str, list]:  # type: ignore[type-arg]
    model = irlint.load(path)
    diags = check_model(model)
    return build_diagram(model, DiagramOptions(diagnostics=diags)).source, diags


def test_back_edge_findings_are_drawn_on_that_back_edge_only() -> None:
    src, _ = lint_source(EXAMPLES / "broken" / "lstm_ti_broken.xml")
    back = [s for s in statements(src) if "back edge" in s and "->" in s and "legend" not in s]
    assert len(back) == 2
    bad = [s for s in back if "BE502" in s]
    good = [s for s in back if "BE502" not in s]
    assert len(bad) == 1 and RED in bad[0] and "L_3_body_11 -> L_3_body_11" in bad[0] and "dir=back" in bad[0]
    assert len(good) == 1 and RED not in good[0]  # a good back edge is not in the error colour
    valid = build_diagram(irlint.load(EXAMPLES / "lstm_ti.xml")).source
    assert RED not in valid


def test_edge_and_port_map_findings_on_their_elements() -> None:
    src, _ = lint_source(EXAMPLES / "broken" / "lstm_ti_broken.xml")
    st = statements(src)
    g103 = [s for s in st if "G103" in s and "->" in s]
    assert len(g103) == 1 and g103[0].startswith("L_3_body_1 -> L_3_body_8") and RED in g103[0]
    pm401 = [s for s in st if "PM401" in s and "->" in s]
    # Result 11 to the missing TI port 9, and to where it runs: OpenVINO gives the output entries the outputs in
    # the order of their ids (3, 5, 9 -> ports 3, 4, 5), so Result 11 gives port 5, read by layer 6
    assert len(pm401) == 2 and "L_3_body_11 -> ghost_" in pm401[0]
    assert pm401[1].startswith("L_3_body_11 -> L_6") and "taillabel=5" in pm401[1]
    ghost = pm401[0].split("-> ")[1].split(" ")[0]
    assert any(s.startswith(f"{ghost} [label=\"no port 9 on #3") and "dashed" in s for s in st)
    # the TensorIterator's cluster is not what shows these (only what is about the layer itself)
    cluster = next(s for s in st if "TensorIterator 'TensorIterator_23'" in s)
    assert "PM401" not in cluster and "BE502" not in cluster


def test_legend_lists_code_and_message_in_the_drawing() -> None:
    src, diags = lint_source(EXAMPLES / "broken" / "lstm_ti_broken.xml")
    legend = next(s for s in statements(src) if s.startswith("legend_findings"))
    label = legend.split("label=", 1)[1]
    for d in diags:
        assert d.code in label
    assert "there is no port 9" in label  # the message itself, drawn (not a tooltip)
    assert "tooltip" not in legend


def _mutated(tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = (EXAMPLES / "lstm_ti.xml").read_text()
    assert old in text
    path = tmp_path / f"{name}.xml"
    path.write_text(text.replace(old, new, 1))
    shutil.copyfile(EXAMPLES / "lstm_ti.bin", path.with_suffix(".bin"))
    return path


@pytest.mark.parametrize(("name", "old", "new", "code", "ghost"), [
    ("edge", '<edge from-layer="1" from-port="0" to-layer="8" to-port="1" />',
     '<edge from-layer="41" from-port="0" to-layer="8" to-port="1" />', "G102", "missing layer #41"),
    ("entry", 'external_port_id="1" internal_layer_id="1"', 'external_port_id="1" internal_layer_id="42"', "PM404",
     "missing body layer #42"),
    ("back", '<edge from-layer="11" to-layer="1" />', '<edge from-layer="43" to-layer="1" />', "BE501",
     "missing layer #43"),
])
def test_dangling_references_are_ghost_nodes(tmp_path: Path, name: str, old: str, new: str, code: str,
                                             ghost: str) -> None:
    src, diags = lint_source(_mutated(tmp_path, name, old, new))
    assert code in {d.code for d in diags}
    st = statements(src)
    node = next(s for s in st if s.startswith("ghost_") and ghost in s)
    ghost_id = node.split(" ")[0]
    edges = [s for s in st if "->" in s and ghost_id in s.split("[")[0]]
    assert edges and any(code in s for s in edges), edges


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
def test_lint_png_of_the_broken_example(tmp_path: Path) -> None:
    out = tmp_path / "broken.png"
    res = cli("render", str(EXAMPLES / "broken" / "lstm_ti_broken.xml"), "-o", str(out), "--lint")
    assert res.returncode == 0, res.stderr
    assert out.read_bytes()[:4] == b"\x89PNG"


# -- --trace --iteration ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def traces(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("traces")
    out = {}
    for name in ("nested_loop_in_ti", "lstm_ti"):
        out[name] = d / f"{name}.npz"
        res = cli("run", str(EXAMPLES / f"{name}.xml"), "--inputs", str(EXAMPLES / "inputs" / f"{name}.npz"),
                  "--trace", str(out[name]))
        assert res.returncode == 0, res.stderr
    return out


def _notes(src: str) -> set[str]:
    """The iterations edge labels show, but for initial-value and last-value edges, which show the
    first and the last iteration whatever is requested (tests/viewer/test_render.py)."""
    return {it for attrs in dot_edges(src).values() if "initial value" not in attrs and "last value" not in attrs
            for it in re.findall(r"it ([0-9.]+):", attrs)}


@pytest.mark.parametrize(("iteration", "want"), [("1", {"1", "1.2"}), ("2.1", {"2", "2.1"}), ("0.0", {"0", "0.0"})])
def test_nested_iteration_annotates_one_consistent_iteration(traces: dict[str, Path], tmp_path: Path,
                                                             iteration: str, want: set[str]) -> None:
    out = tmp_path / "n.dot"
    res = cli("render", str(EXAMPLES / "nested_loop_in_ti.xml"), "-o", str(out), "--trace",
              str(traces["nested_loop_in_ti"]), "--iteration", iteration)
    assert res.returncode == 0, res.stderr
    assert _notes(out.read_text()) == want  # outer edges at K, inner ones at K.M (the last inner one if no M)


@pytest.mark.parametrize("iteration", ["3", "1.3", "0.0.0", "-1", "x"])
def test_out_of_range_iteration_is_refused(traces: dict[str, Path], tmp_path: Path, iteration: str) -> None:
    res = cli("render", str(EXAMPLES / "nested_loop_in_ti.xml"), "-o", str(tmp_path / "n.dot"), "--trace",
              str(traces["nested_loop_in_ti"]), "--iteration", iteration)
    assert res.returncode == 2 and "Traceback" not in res.stderr and "iteration" in res.stderr
    assert not (tmp_path / "n.dot").exists()


def test_a_trace_of_another_model_is_refused(traces: dict[str, Path], tmp_path: Path) -> None:
    res = cli("render", str(EXAMPLES / "lstm_ti.xml"), "-o", str(tmp_path / "l.dot"), "--trace",
              str(traces["nested_loop_in_ti"]), "--iteration", "1")
    assert res.returncode == 2 and "another model" in res.stderr


def test_a_trace_with_other_shapes_is_refused(traces: dict[str, Path], tmp_path: Path) -> None:
    """Same layer paths, other shapes: lstm_ti with a longer hidden state is not the traced model."""
    text = (EXAMPLES / "lstm_ti.xml").read_text()
    path = tmp_path / "other.xml"
    path.write_text(text)
    shutil.copyfile(EXAMPLES / "lstm_ti.bin", path.with_suffix(".bin"))
    import numpy as np

    from irlint.interp.trace import load_trace

    values, _ = load_trace(traces["lstm_ti"])
    k = next(k for k in values if k.endswith(":out"))
    values[k] = np.zeros((7, 7), np.float32)
    from irlint.viewer.diagram.tracecheck import TraceMismatch, check_trace

    with pytest.raises(TraceMismatch, match="another model"):
        check_trace(irlint.load(path), values, (1,))


# -- what the diagram shows --------------------------------------------------------------------------
def test_types_ports_iteration_counts_and_scalar_consts() -> None:
    src = build_diagram(irlint.load(EXAMPLES / "loop_scan.xml")).source
    assert "Loop 'Loop_" in src and ", 4 iterations" not in src  # the count depends on the body condition
    assert "at most 10 iterations" in src  # from the trip count
    assert "trip count\n(port 0)\n= 10" in src and "execution condition\n(port 1)\n= True" in src
    assert 'label="f32[4]' in src and "taillabel=0" in src and "headlabel=1" in src
    lstm = build_diagram(irlint.load(EXAMPLES / "lstm_ti.xml")).source
    assert "TensorIterator_23' #3, 5 iterations" in lstm


@pytest.mark.parametrize(("entry", "words"), [
    ('start="0" end="-1" stride="1"', "axis 1: 5 slices, it 0 <- 0 ... it 4 <- 4"),
    ('start="-1" end="0" stride="-1"', "axis 1: reversed, 5 slices, it 0 <- 4 ... it 4 <- 0"),
    ('start="1" end="-2" stride="1"', "axis 1: 3 slices, it 0 <- 1 ... it 2 <- 3"),
])
def test_slice_labels_read_as_openvino_means_them(tmp_path: Path, entry: str, words: str) -> None:
    """end=-1 includes the last step (OpenVINO), unlike Python's [0:-1]: the label gives the slices read."""
    old = '<input axis="1" external_port_id="0" internal_layer_id="0" start="0" end="-1" stride="1" part_size="1" />'
    new = old.replace('start="0" end="-1" stride="1"', entry)
    src = build_diagram(irlint.load(_mutated(tmp_path, "slice", old, new))).source
    assert words in src and "[0:-1:1]" not in src


def test_slice_label_without_static_dims() -> None:
    from irlint.viewer.diagram import slicing_label

    from irlint.ir.model import PortMapEntry

    e = PortMapEntry("input", 0, 0, 1, 0, -1, 1, 1, None, 0, None, {"axis": "1"})  # type: ignore[arg-type]
    assert slicing_label(e) == "axis 1: from 0 through the last, stride 1"
    e = PortMapEntry("input", 0, 0, 0, -1, 0, -1, 2, None, 0, None, {"axis": "0"})  # type: ignore[arg-type]
    assert slicing_label(e) == "axis 0: from last through 0, stride -1, 2 per iteration"


def test_back_edges_leave_on_the_side() -> None:
    src = build_diagram(irlint.load(EXAMPLES / "lstm_ti.xml")).source
    back = [s for s in statements(src) if "back edge" in s]
    # drawn Parameter -> Result with the arrow at the Parameter (dir=back), so dot routes them beside the
    # body; h on the left, c on the right: the two state loops do not cross
    assert len(back) == 2 and all("dir=back" in s for s in back)
    assert "tailport=w" in back[0] and "headport=w" in back[0] and "L_3_body_1 -> L_3_body_11" in back[0]
    assert "tailport=e" in back[1] and "headport=e" in back[1] and "L_3_body_2 -> L_3_body_12" in back[1]
    lr = build_diagram(irlint.load(EXAMPLES / "lstm_ti.xml"), DiagramOptions(rankdir="LR")).source
    assert [s.split("tailport=")[1][0] for s in statements(lr) if "back edge" in s] == ["n", "s"]


def test_bodies_collapse_automatically_above_the_limit() -> None:
    model = irlint.load(EXAMPLES / "nested_loop_in_ti.xml")
    g = build_diagram(model, DiagramOptions(auto_collapse=5))
    assert "cluster_" not in g.source and "bodies collapsed: 17 body layers" in g.source
    assert g.irlint_notes  # the CLI prints them
    assert "cluster_" in build_diagram(model, DiagramOptions(auto_collapse=5, depth=2)).source  # asked for


def test_a_3000_layer_model_renders_collapsed(tmp_path: Path) -> None:
    ov = pytest.importorskip("openvino")
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from gen_large import build

    path = tmp_path / "big.xml"
    ov.save_model(build(3400), str(path), compress_to_fp16=False)
    res = cli("render", str(path), "-o", str(tmp_path / "big.dot"))
    assert res.returncode == 0 and "bodies collapsed" in res.stderr
    assert "cluster_" not in (tmp_path / "big.dot").read_text()


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
@pytest.mark.parametrize("name", ["lstm_ti", "loop_scan", "nested_loop_in_ti", "broken/lstm_ti_broken"])
def test_real_dot_on_every_example(tmp_path: Path, name: str) -> None:
    out = tmp_path / "x.png"
    res = cli("render", str(EXAMPLES / f"{name}.xml"), "-o", str(out), "--lint")
    assert res.returncode == 0, res.stderr
    assert out.read_bytes()[:4] == b"\x89PNG"


def test_if_output_entries_are_drawn_where_openvino_gives_them(tmp_path: Path) -> None:
    """Branch output entries 9 (A's Result) and 3 (B's): OpenVINO gives B's Result port 2 (read by Result A) and
    A's port 3 (read by Result B), by the order of the ids; the stray entry's edge carries IF801, and its ghost
    shows the port it names."""
    from tests import ifmodels

    pytest.importorskip("openvino")
    path, _ = ifmodels.shifted_output_ids(ifmodels.save(ifmodels.two_output_if(), tmp_path, "if2"), {"2": "9"})
    src, _ = lint_source(path)
    st = statements(src)
    model = irlint.load(path)
    iff = next(la for la in model.graph.layers if la.type == "If")
    res = {la.name: la.id for la in model.graph.layers if la.type == "Result"}
    for b in iff.branches:
        entry = {e.external_port_id: e.internal_layer_id for e in b.port_map if e.direction == "output"}
        to_a = [s for s in st if s.startswith(f"L_{iff.id}_{b.name}_body_{entry[3]} -> L_{res['A']} ")]
        to_b = [s for s in st if s.startswith(f"L_{iff.id}_{b.name}_body_{entry[9]} -> L_{res['B']} ")]
        assert len(to_a) == 1 and "taillabel=2" in to_a[0] and "IF801" not in to_a[0]
        assert len(to_b) == 1 and "taillabel=3" in to_b[0] and "IF801" in to_b[0] and RED in to_b[0]
        ghost = [s for s in st if s.startswith(f"L_{iff.id}_{b.name}_body_{entry[9]} -> ghost_")]
        assert len(ghost) == 1 and "IF801" in ghost[0]
