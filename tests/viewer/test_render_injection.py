"""Model strings are data in everything the viewers write: the HTML page (in a real browser: no script
from a layer name runs, the Content-Security-Policy refuses inline handlers), the DOT text and what
`dot` makes of it (one graph, names shown literally), and the Model Explorer adapter's graphs."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import asdict
from html.parser import HTMLParser
from pathlib import Path

import pytest

import irlint
from tests.viewer import irs
from tests.viewer.browser import CHROMIUM, chromium_page

HOSTILE = [
    "@DETAILS@",
    " onmouseover=alert(document.domain)//",
    '<a> {INJECTED [label="x"]} digraph <b>',
    "</x><y>",
    "@SVG@ @TITLE@ @CSP@",
    '"><img src=x onerror=alert(1)>',
    "</script><script>alert(2)</script>",
    "a\\Nb\\lc\\G",
    "x\u2028y\u2029z --> <!--",
]
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed")


def hostile_model(tmp_path: Path, model_name: str = HOSTILE[2]) -> Path:
    """A TI whose model name, outer Parameters, body layers and Result carry the hostile names."""
    m = irs.bracket_names()
    m.set_friendly_name(model_name)
    names = iter(HOSTILE)
    for p in m.get_parameters():
        p.set_friendly_name(next(names))
    for op in m.get_ordered_ops():
        if op.get_type_name() == "TensorIterator":
            op.set_friendly_name(next(names))
            for inner in op.get_function().get_ordered_ops():
                if inner.get_type_name() in ("Parameter", "Reshape", "Add", "Tanh", "Result"):
                    inner.set_friendly_name(next(names, "spare"))
    return irs.save(m, tmp_path / "hostile.xml")


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "irlint", *args], capture_output=True, text=True, timeout=120)


class _Tags(HTMLParser):
    """Every start tag with its attribute names, and the text of each <script>."""

    def __init__(self) -> None:
        super().__init__()
        self.attrs: list[tuple[str, str]] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.attrs += [(tag, k) for k, _v in attrs]
        self._in_script = tag == "script"
        if tag == "script":
            self.scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts[-1] += data


@needs_dot
def test_dot_keeps_every_name_literal(tmp_path: Path) -> None:
    for n, model_name in enumerate(("</x><y>", HOSTILE[2])):
        path = hostile_model(tmp_path, model_name)
        dot, svg = tmp_path / f"h{n}.dot", tmp_path / f"h{n}.svg"
        for out in (dot, svg):
            res = cli("render", str(path), "-o", str(out))
            assert res.returncode == 0, res.stderr
        source = dot.read_text(encoding="utf-8")
        # one graph: dot's canonical form of the DOT holds one digraph, its name the model's
        canon = subprocess.run(["dot", "-Tcanon"], input=source, capture_output=True, text=True, timeout=60)
        assert canon.returncode == 0, canon.stderr
        assert len(re.findall(r"^digraph\b", canon.stdout, re.M)) == 1
        assert "INJECTED" not in re.sub(r'"(?:[^"\\]|\\.)*"', "", source)  # only ever inside a quoted string
        text = svg.read_text(encoding="utf-8")
        assert text.count("<svg") == 1
        from xml.etree import ElementTree as ET

        root = ET.fromstring(text)
        shown = {t.text for t in root.iter("{http://www.w3.org/2000/svg}text")}
        titles = " ".join(a for el in root.iter() for k, a in el.attrib.items() if k.endswith("title"))
        for name in (" onmouseover=alert(document.domain)//".strip(), "a\\Nb\\lc\\G", "@DETAILS@"):
            assert name in shown or name in titles, name
        assert f"Parameter {HOSTILE[0]} #0" in titles and HOSTILE[3] in titles and "a\\Nb\\lc\\G" in shown


@needs_dot
def test_html_page_fills_its_slots_once_and_has_a_strict_policy(tmp_path: Path) -> None:
    html = tmp_path / "h.html"
    res = cli("render", str(hostile_model(tmp_path)), "-o", str(html))
    assert res.returncode == 0, res.stderr
    text = html.read_text(encoding="utf-8")
    tags = _Tags()
    tags.feed(text)
    assert not [a for a in tags.attrs if a[1].lower().startswith("on")], "an event handler attribute"
    assert len(tags.scripts) == 2  # the JSON data and the page's own script
    details = json.loads(tags.scripts[0])
    names = {d["name"] for d in details.values()}
    assert {"@DETAILS@", " onmouseover=alert(document.domain)//", "</script><script>alert(2)</script>"} <= names
    assert "\u2028" not in tags.scripts[0] and "\u2029" not in tags.scripts[0]
    assert 'xlink:title="Parameter @DETAILS@ #0"' in text  # the tooltip is the name, the slot is not filled there
    csp = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', text)
    assert csp is not None
    policy = dict(p.strip().split(" ", 1) for p in csp.group(1).split(";"))
    assert policy["default-src"] == "'none'" and policy["script-src"].startswith("'sha256-")
    assert "unsafe-inline" not in csp.group(1) and "unsafe-eval" not in csp.group(1)


@needs_dot
@pytest.mark.skipif(CHROMIUM is None and not os.environ.get("CI"), reason="Debian's chromium is not installed")
def test_no_script_from_a_layer_name_runs_in_the_browser(tmp_path: Path) -> None:
    html = tmp_path / "h.html"
    res = cli("render", str(hostile_model(tmp_path)), "-o", str(html))
    assert res.returncode == 0, res.stderr
    dialogs: list[str] = []
    errors: list[str] = []
    with chromium_page(errors) as page:
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.goto(html.as_uri())
        page.wait_for_function("document.querySelectorAll('#view svg g.node').length > 0")
        # hover and click every node and link: an injected handler would fire here
        page.evaluate("""() => document.querySelectorAll('#view svg a, #view svg g.node').forEach(el => {
            for (const t of ['mouseover', 'mouseenter', 'focus']) el.dispatchEvent(new Event(t));
        })""")
        for node in page.locator("#view svg g.node").all()[:12]:
            node.dispatch_event("click")
        # the page's own script runs (the policy admits it by hash) and shows a name as text
        title = page.locator("#view svg g.node", has=page.locator("title", has_text="L_0")).first
        title.dispatch_event("click")
        assert page.locator("#info h2").inner_text() == "Parameter '@DETAILS@'"
        # the policy refuses what an injection would need: inline handlers and inline scripts
        page.evaluate("""() => {
            document.body.insertAdjacentHTML('beforeend', '<img src="data:," onload="window.pwned = 1">');
            const s = document.createElement('script'); s.textContent = 'window.pwned = 2';
            document.body.appendChild(s);
        }""")
        page.wait_for_timeout(300)  # the image's load event, had a handler been allowed
        assert page.evaluate("window.pwned") is None
        assert page.evaluate("document.querySelectorAll('[onmouseover], [onerror], [onload]').length") == 1
    assert not dialogs, dialogs
    assert all("Content Security Policy" in e for e in errors), errors  # only the test's own refused injections
    assert any("Content Security Policy" in e for e in errors)


@pytest.mark.parametrize("model_name", [f"{HOSTILE[2]} #2 body", HOSTILE[2]])
def test_explorer_graphs_keep_names_literal_and_ids_unique(tmp_path: Path, model_name: str) -> None:
    pytest.importorskip("model_explorer")
    from irlint.viewer.explorer.convert import convert

    model = irlint.load(hostile_model(tmp_path, model_name))
    graphs = convert(model)
    data = json.loads(json.dumps({"graphs": [asdict(g) for g in graphs]}))  # what the server sends
    ids = [g["id"] for g in data["graphs"]]
    assert len(ids) == len(set(ids))
    names = {kv["value"] for g in data["graphs"] for n in g["nodes"] for kv in n["attrs"] if kv["key"] == "name"}
    for name in HOSTILE[:6]:
        assert name in names, name
    for g in data["graphs"]:
        for n in g["nodes"]:
            for sub in n.get("subgraphIds") or []:
                assert sub in ids  # every body is reachable by its id
