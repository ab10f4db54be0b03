"""`irlint render -o model.html`: one self-contained page (SVG, pan/zoom, search, click-for-attributes)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import irlint
from irlint.api import check_model
from tests.viewer import irs

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
pytestmark = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")


def render_html(model: Path, out: Path, *extra: str) -> str:
    res = subprocess.run([sys.executable, "-m", "irlint", "render", str(model), "-o", str(out), *extra],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    return out.read_text(encoding="utf-8")


def details_of(html: str) -> dict:  # type: ignore[type-arg]
    blob = re.search(r'<script type="application/json" id="details">(.*?)</script>', html, re.S)
    assert blob is not None
    return json.loads(blob.group(1))


def test_html_is_self_contained_with_every_layer(tmp_path: Path) -> None:
    path = EXAMPLES / "broken" / "lstm_ti_broken.xml"
    html = render_html(path, tmp_path / "m.html", "--lint")
    assert html.startswith("<!DOCTYPE html>") and "<svg" in html and "<?xml" not in html
    # nothing loaded from elsewhere: only the SVG namespaces are URLs
    assert set(re.findall(r"https?://[^\"' ]+", html)) <= {"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}
    assert not re.search(r"<(link|img|iframe)\b|\bsrc=", html)
    details = details_of(html)
    model = irlint.load(path)
    titles = set(re.findall(r'class="node">\s*<title>(L_[^<]+)</title>', html))
    assert len(titles) == sum(1 for _g, la in model.layers() if la.body is None)  # clusters are no nodes
    assert titles <= set(details)  # every drawn layer has its attributes
    cell = next(d for d in details.values() if d["type"] == "LSTMCell")
    assert cell["data"]["hidden_size"] == "4" and cell["path"] == "3/body/8"
    codes = {d.code for d in check_model(model) if d.layer == "3/body/8"}
    assert codes and all(any(c in f for f in cell["findings"]) for c in codes)


def test_layer_names_cannot_break_out_of_the_script(tmp_path: Path) -> None:
    m = irs.bracket_names()
    m.get_parameters()[0].set_friendly_name("</script><script>alert(1)</script>")
    path = irs.save(m, tmp_path / "evil.xml")
    html = render_html(path, tmp_path / "evil.html")
    assert html.count("</script>") == 2 and "alert(1)</script>" not in html
    assert any(d["name"] == "</script><script>alert(1)</script>" for d in details_of(html).values())


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_script_parses(tmp_path: Path) -> None:
    html = render_html(EXAMPLES / "lstm_ti.xml", tmp_path / "m.html")
    script = re.findall(r"<script>(.*?)</script>", html, re.S)
    assert len(script) == 1
    js = tmp_path / "page.js"
    js.write_text(script[0])
    res = subprocess.run(["node", "--check", str(js)], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr


def test_port_table_rows_are_clickable_layers(tmp_path: Path) -> None:
    """A body's Parameters drawn as rows of a port table keep their details: the row's SVG group is
    `a_` + the layer's node id, which the page's click looks up, and the row has its tooltip."""
    html = render_html(Path(__file__).resolve().parent / "fixtures" / "keras_lstm.xml", tmp_path / "k.html")
    details = details_of(html)
    assert 'id="a_L_16_body_0"' in html and details["L_16_body_0"]["type"] == "Parameter"
    assert 'id="a_L_16_body_49"' in html and details["L_16_body_49"]["type"] == "Result"
    counter = "functional_1_1_lstm_1_1_while_functional_1_1_lstm_1_1_while_loop_counter"  # the whole name
    assert f'xlink:title="Parameter {counter} #16/body/0' in html
    assert "rowOf(e.target)" in html


def test_v10_input_ports_show_the_producers_type(tmp_path: Path) -> None:
    """IR v10 writes no precision on input ports (OpenVINO's own v10 TensorIterator test IR): the side
    panel gives each input the element type of the port that feeds it, not `?`."""
    v10 = Path(__file__).resolve().parents[1] / "corpus" / "thirdparty" / "ti_lstm_v10.xml"
    details = details_of(render_html(v10, tmp_path / "v.html"))
    cell = details["L_3_body_8"]  # the LSTMCell
    assert cell["inputs"][:3] == ["0: f32[1,512]", "1: f32[1,256]", "2: f32[1,256]"]
    assert all("?" not in p for d in details.values() for p in d["inputs"])
