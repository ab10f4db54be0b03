"""Readable by default: `irlint render` of the recurrent shapes real front ends produce fits in 2000 px
each way (measured on dot's SVG), with a body of every kind drawn; a body the same as one drawn is one
node naming it, and `--all-bodies` draws each."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from irlint.viewer.diagram.twins import twins

import irlint
from tests.corpus.pytorch_shapes import PYTORCH_SHAPES
from tests.corpus.third_party import IRS, ONNX
from tests.viewer import frontends
from tests.viewer.svggeometry import size_px

pytest.importorskip("openvino")
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")
LIMIT = 2000  # px each way, at 96 dpi
HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def shapes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    import openvino as ov

    d = tmp_path_factory.mktemp("shapes")
    out = {}
    for name, build in frontends.SHAPES.items():
        out[name] = d / f"{name}.xml"
        ov.save_model(build(), str(out[name]), compress_to_fp16=False)
    return out


def render(model: Path, out: Path, *args: str) -> str:
    res = subprocess.run(
        [sys.executable, "-m", "irlint", "render", str(model), "-o", str(out), *args],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr
    return out.read_text(encoding="utf-8")


def clusters(svg: str) -> set[str]:
    """The TI/Loop/If clusters dot drew (their DOT names)."""
    return set(re.findall(r'<g id="clust\d+" class="cluster">\s*<title>(cluster_L_\w+)</title>', svg))


@needs_dot
@pytest.mark.parametrize("name", list(frontends.SHAPES))
def test_default_render_fits_with_bodies_drawn(shapes: dict[str, Path], tmp_path: Path, name: str) -> None:
    svg = render(shapes[name], tmp_path / f"{name}.svg")
    width, height = size_px(svg)
    assert width <= LIMIT and height <= LIMIT, (name, round(width), round(height))
    model = irlint.load(shapes[name])
    loops = [la for _g, la in model.layers() if la.subgraphs()]
    drawn = clusters(svg)
    same = twins(model)
    # every TI/Loop/If is a cluster but those whose body is drawn for another one
    assert {f"cluster_L_{la.path.replace('/', '_')}" for la in loops if la.path not in same} <= drawn
    for first in same.values():
        assert f"cluster_L_{first.path.replace('/', '_')}" in drawn
        assert f"body as #{first.id} " in svg


@needs_dot
@pytest.mark.parametrize("name", sorted(PYTORCH_SHAPES))
def test_pytorch_front_end_shapes_fit(tmp_path: Path, name: str) -> None:
    """Loops as OpenVINO's PyTorch front end writes them: LSTM/GRU/RNNSequence in Loop bodies and If
    branches (their five weight Consts listed in the sequence's node), while loops, loops in loops."""
    import openvino as ov

    path = tmp_path / f"{name}.xml"
    ov.save_model(PYTORCH_SHAPES[name]()[0], str(path), compress_to_fp16=False)
    width, height = size_px(render(path, tmp_path / f"{name}.svg"))
    assert width <= LIMIT and height <= LIMIT, (name, round(width), round(height))


@needs_dot
@pytest.mark.parametrize("name", sorted(ONNX))
def test_onnx_front_end_control_flow_fits(tmp_path: Path, name: str) -> None:
    """The control-flow models of OpenVINO's ONNX front-end tests, converted by it: Loops, Scans, Ifs in Loops
    (a sequence cache's If passing eight values through its branches draws them as port tables)."""
    from tests.corpus.test_corpus import onnx_ir

    path = onnx_ir(name, tmp_path)
    width, height = size_px(render(path, tmp_path / f"{name}.svg"))
    assert width <= LIMIT and height <= LIMIT, (name, round(width), round(height))


@needs_dot
@pytest.mark.parametrize(
    "name",
    [
        "loop_dynamic_trip",
        "loop_while_condition",
        "loop_in_loop",
        "loop_dynamic_rank_state",
        "scan_two_inputs_axis1",
        "if_branches",
    ],
)
def test_onnx_loops_built_here_fit(tmp_path: Path, name: str) -> None:
    """The control flow of tests/corpus/onnx_models.py, converted by OpenVINO's ONNX front end."""
    pytest.importorskip("onnx")
    from tests.corpus.onnx_models import ONNX_MODELS, to_ir

    path = to_ir(ONNX_MODELS[name](), tmp_path, name)
    width, height = size_px(render(path, tmp_path / f"{name}.svg"))
    assert width <= LIMIT and height <= LIMIT, (name, round(width), round(height))


@needs_dot
@pytest.mark.parametrize("name", sorted([*IRS, "ti_lstm_v10.xml"]))
def test_openvino_s_own_loop_irs_fit(tmp_path: Path, name: str) -> None:
    """The TensorIterator, Loop and If IRs of OpenVINO's reader tests (tests/corpus/thirdparty): LSTMCell
    and GRUCell TIs of 16 and 25 steps, forwards and reversed, Loops from ONNX and TensorFlow."""
    # ti_gru_cell.xml starts with white space before its XML declaration (IR001): drawn without it
    path = tmp_path / name
    path.write_text((HERE.parent / "corpus" / "thirdparty" / name).read_text(encoding="utf-8").lstrip())
    width, height = size_px(render(path, tmp_path / f"{name}.svg"))
    assert width <= LIMIT and height <= LIMIT, (name, round(width), round(height))


@needs_dot
@pytest.mark.parametrize("name", ["keras_bidirectional", "ti_bidirectional", "keras_stacked", "ti_stacked"])
def test_bodies_the_same_are_drawn_once_and_all_on_request(shapes: dict[str, Path], tmp_path: Path, name: str) -> None:
    model = irlint.load(shapes[name])
    loops = [la for _g, la in model.layers() if la.body is not None]
    assert len(loops) == 2 and twins(model) == {loops[1].path: loops[0]}
    default = render(shapes[name], tmp_path / "d.svg")
    assert clusters(default) == {f"cluster_L_{loops[0].path}"}
    every = render(shapes[name], tmp_path / "a.svg", "--all-bodies")
    assert clusters(every) == {f"cluster_L_{la.path}" for la in loops}
    assert "drawn once" not in every


def test_bodies_differing_in_structure_are_not_twins(tmp_path: Path) -> None:
    """A Loop in a Loop and an If's Loop: no body is the same as another; different weights do not count."""
    import openvino as ov

    for build in (frontends.loop_in_loop, frontends.loop_in_if):
        m = build()
        path = tmp_path / f"{m.get_friendly_name()}.xml"
        ov.save_model(m, str(path), compress_to_fp16=False)
        assert twins(irlint.load(path)) == {}


@needs_dot
def test_focus_draws_a_layer_and_its_neighbourhood(tmp_path: Path) -> None:
    """`--focus` on a layer deep in the Keras Loop's body: that body expanded, the layer and those within
    `--radius` edges drawn, every other layer of each graph one node; a name nobody has is refused."""
    keras = frontends.KERAS
    model = irlint.load(keras)
    loop = next(la for la in model.graph.layers if la.type == "Loop")
    slice_ = next(la for la in loop.body.layers if la.name == "Slice_746")
    svg = render(keras, tmp_path / "f.svg", "--focus", slice_.path, "--radius", "1")
    titles = set(re.findall(r'<g id="node\d+" class="node">\s*<title>([^<]+)</title>', svg))
    body = {
        f"L_{loop.id}_body_{e.from_layer if e.to_layer == slice_.id else e.to_layer}"
        for e in loop.body.edges
        if slice_.id in (e.from_layer, e.to_layer)
    }
    assert f"L_{loop.id}_body_{slice_.id}" in titles and body - titles <= {f"L_{loop.id}_inputs"}
    hidden = sum(1 for la in loop.body.layers if la.type not in ("Parameter", "Result")) - 1 - len(body)
    assert re.search(rf">{hidden} layers outside (?:--|&#45;&#45;)focus<", svg)  # dot writes - as &#45;
    assert clusters(svg) == {f"cluster_L_{loop.id}"}
    width, height = size_px(svg)
    full = size_px(render(keras, tmp_path / "k.svg"))
    assert width <= full[0] + 1 and height < full[1] * 0.7
    # by name: the same drawing
    assert render(keras, tmp_path / "n.dot", "--focus", "Slice_746", "--radius", "1") == render(
        keras, tmp_path / "p.dot", "--focus", slice_.path, "--radius", "1"
    )
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "irlint",
            "render",
            str(keras),
            "-o",
            str(tmp_path / "x.svg"),
            "--focus",
            "no such layer",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 2 and "--focus: no layer named" in res.stderr


@needs_dot
def test_max_nodes_counts_a_body_drawn_once_once(shapes: dict[str, Path], tmp_path: Path) -> None:
    """Two TensorIterators with one body shape: 26 drawn layers by default, more with every body drawn."""
    model = shapes["ti_stacked"]

    def code(*args: str) -> int:
        cmd = [sys.executable, "-m", "irlint", "render", str(model), "-o", str(tmp_path / "m.svg"), *args]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=120).returncode

    assert code("--max-nodes", "26") == 0
    assert code("--max-nodes", "26", "--all-bodies") == 2


def test_a_scope_node_never_stands_for_one_layer(shapes: dict[str, Path]) -> None:
    """The scope `bidirectional` holds two TensorIterators (always drawn) and the Concat of their outputs:
    the Concat is drawn as itself, not as a scope node of one layer."""
    from irlint.viewer.diagram import build_diagram

    model = irlint.load(shapes["ti_bidirectional"])
    concat = next(la for la in model.graph.layers if la.type == "Concat")
    src = build_diagram(model).source
    assert "1 layers" not in src and re.search(rf"\tL_{concat.id} \[label=\"Concat\n", src)
