"""The HTML page of `irlint render -o X.html` in a real browser (Debian's chromium, headless, driven by
Playwright): fitted beside the panel on opening, a click selects and describes a layer (its XML line,
its traced values at the chosen iteration, a Const's value), and search lands on the layer (a row of a
port table, not the table) and moves the view to it. Waits are on the page's state."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import irlint
from tests.viewer.browser import CHROMIUM, chromium_page

HERE = Path(__file__).resolve().parent
KERAS = HERE / "fixtures" / "keras_lstm.xml"
pytestmark = [
    pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed"),
    pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"), reason="Debian's chromium is not installed"),
]


def cli(*args: str) -> None:
    res = subprocess.run([sys.executable, "-m", "irlint", *args], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr


@pytest.fixture(scope="module")
def page_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("page")
    cli("run", str(KERAS), "--inputs", str(KERAS.with_name("keras_lstm_inputs.npz")), "--trace", str(d / "t.npz"))
    cli("render", str(KERAS), "-o", str(d / "k.html"), "--trace", str(d / "t.npz"), "--iteration", "2")
    return d / "k.html"


def test_panel_fit_click_and_search(page_file: Path) -> None:
    model = irlint.load(KERAS)
    loop = next(la for la in model.graph.layers if la.type == "Loop")
    counter = next(la for la in loop.body.layers if la.name.endswith("while_loop_counter"))
    const = next(la for la in loop.body.layers if la.name == "Constant_744")
    errors: list[str] = []
    with chromium_page(errors) as page:
        page.goto(page_file.as_uri())
        page.wait_for_function("document.querySelector('#view svg').style.transform !== ''")
        # fitted: the whole drawing inside the area beside the panel, centred in it
        svg, view = (page.locator(s).bounding_box() for s in ("#view svg", "#view"))
        assert svg is not None and view is not None
        assert svg["x"] >= view["x"] - 1 and svg["y"] >= view["y"] - 1
        assert svg["x"] + svg["width"] <= view["x"] + view["width"] + 1
        assert svg["y"] + svg["height"] <= view["y"] + view["height"] + 1
        assert abs((svg["x"] + svg["width"] / 2) - (view["x"] + view["width"] / 2)) < 2

        # a click on a port table's row: that layer, selected, with its line and value at iteration 2
        row = page.locator(f"#a_L_{loop.id}_body_{counter.id}")
        row.dispatch_event("click")
        assert page.locator("#info h2").inner_text() == f"Parameter '{counter.name}'"
        assert row.evaluate("el => el.classList.contains('sel')")
        cells = page.locator("#info td").all_inner_texts()
        assert cells[cells.index("XML line") + 1] == str(counter.loc.line)
        assert cells[cells.index("input") + 1] == "it 2: 2"  # the i32[] counter at iteration 2

        # a Const: its value
        node = page.locator("#view g.node", has=page.locator("title", has_text=f"L_{loop.id}_body_{const.id}"))
        node.first.dispatch_event("click")
        cells = page.locator("#info td").all_inner_texts()
        assert cells[cells.index("value") + 1] == "int32[1] [0]"
        assert node.first.evaluate("el => el.classList.contains('sel')")
        assert not row.evaluate("el => el.classList.contains('sel')")  # one selection at a time

        # search lands on the layer (the row, not the table `L_16_inputs`) and moves the view to it
        page.fill("#search", "while_loop_counter")
        page.wait_for_function("document.getElementById('count').textContent !== ''")
        page.press("#search", "Enter")
        assert page.locator("#info h2").inner_text() == f"Parameter '{counter.name}'"
        box, view = row.bounding_box(), page.locator("#view").bounding_box()
        assert box is not None and view is not None
        assert abs((box["x"] + box["width"] / 2) - (view["x"] + view["width"] / 2)) < 3
        assert abs((box["y"] + box["height"] / 2) - (view["y"] + view["height"] / 2)) < 3
        assert row.evaluate("el => el.classList.contains('sel') && el.classList.contains('hit')")
    assert not errors, errors


def test_search_for_a_weight_listed_in_its_layer_lands_on_that_node(tmp_path: Path) -> None:
    """An LSTMCell lists its W, R and B instead of a node each: a search for W's name centres the
    cell's node, outlines it, and the panel describes W (its value)."""
    pytest.importorskip("openvino")
    import openvino as ov

    from tests.viewer import frontends

    xml = tmp_path / "ti.xml"
    ov.save_model(frontends.ti_single(), str(xml), compress_to_fp16=False)
    cli("render", str(xml), "-o", str(tmp_path / "ti.html"))
    model = irlint.load(xml)
    ti = next(la for la in model.graph.layers if la.body is not None)
    cell = next(la for la in ti.body.layers if la.type == "LSTMCell")
    w = next(
        la
        for la in ti.body.layers
        for e in ti.body.edges
        if e.from_layer == la.id and e.to_layer == cell.id and e.to_port == 3
    )
    assert w.type == "Const"
    errors: list[str] = []
    with chromium_page(errors) as page:
        page.goto((tmp_path / "ti.html").as_uri())
        page.wait_for_function("document.querySelector('#view svg').style.transform !== ''")
        page.fill("#search", w.name)
        page.wait_for_function("document.getElementById('count').textContent !== ''")
        page.press("#search", "Enter")
        assert page.locator("#info h2").inner_text() == f"Const '{w.name}'"
        cells = page.locator("#info td").all_inner_texts()
        assert cells[cells.index("value") + 1].startswith("float32[16, 3] [")
        node = page.locator("#view g.node", has=page.locator("title", has_text=f"L_{ti.id}_body_{cell.id}")).first
        assert node.evaluate("el => el.classList.contains('sel') && el.classList.contains('hit')")
        box, view = node.bounding_box(), page.locator("#view").bounding_box()
        assert box is not None and view is not None
        assert abs((box["x"] + box["width"] / 2) - (view["x"] + view["width"] / 2)) < 3
        assert abs((box["y"] + box["height"] / 2) - (view["y"] + view["height"] / 2)) < 3
    assert not errors, errors


def test_a_click_on_a_row_of_an_if_branch_table(tmp_path: Path) -> None:
    """An If branch drawn as port tables: a click on a row describes that Parameter and outlines the row."""
    pytest.importorskip("openvino")
    from tests import ifmodels

    xml = ifmodels.save(ifmodels.pass_through_if(4), tmp_path, "four")
    cli("render", str(xml), "-o", str(tmp_path / "four.html"))
    iff = next(la for la in irlint.load(xml).graph.layers if la.type == "If")
    param = next(la for la in iff.branches[1].body.layers if la.type == "Parameter")
    errors: list[str] = []
    with chromium_page(errors) as page:
        page.goto((tmp_path / "four.html").as_uri())
        page.wait_for_function("document.querySelector('#view svg').style.transform !== ''")
        row = page.locator(f"#a_L_{iff.id}_{iff.branches[1].name}_body_{param.id}")
        row.dispatch_event("click")
        assert page.locator("#info h2").inner_text() == f"Parameter '{param.name}'"
        assert row.evaluate("el => el.classList.contains('sel')")
    assert not errors, errors
