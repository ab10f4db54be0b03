"""`irlint render -o model.html`: one self-contained page with the SVG, pan/zoom, search and click-for-attributes.

The artefact a CI job attaches: no external scripts, styles or fonts, so it opens offline and from an
archive. Layer details (type, name, id path, `<data>` attributes, ports, findings) travel as a JSON
blob keyed by the graphviz node id (the SVG node's `<title>`); every model string inside the blob is
JSON-escaped with `<`, `>` and `&` as \\u escapes, so no layer name can close the script element.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Sequence

from irlint.viewer.diagram.context import node_id
from irlint.viewer.diagram.porttypes import PortTypes

from irlint.diagnostics import Diagnostic
from irlint.ir.model import Model
from irlint.report.text import clean


def layer_details(model: Model, diagnostics: Sequence[Diagnostic] = ()) -> dict[str, dict[str, object]]:
    by_layer: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        if d.layer is not None:
            by_layer.setdefault(d.layer, []).append(d)

    types = PortTypes(model)
    out: dict[str, dict[str, object]] = {}
    for g, la in model.layers():
        out[node_id(la)] = {
            "type": la.type, "name": la.name, "id": la.id, "path": la.path, "version": la.version,
            "data": dict(la.data),
            "inputs": [f"{p.id}: {types.input_label(g, la, p)}" for p in la.inputs],
            "outputs": [f"{p.id}: {types.output_label(la, p)}" for p in la.outputs],
            "findings": [f"{d.code} [{d.severity.value}] line {d.loc.line}: {d.message}"
                         for d in by_layer.get(la.path, [])],
        }
    return out


def _visible(obj: object) -> object:
    """Every string in `obj` with controls and bidi overrides made visible, as the text report shows them:
    the page puts them in the DOM as text, where U+202E would reorder a name and C1 controls hide."""
    if isinstance(obj, str):
        return clean(obj)
    if isinstance(obj, dict):
        return {clean(str(k)): _visible(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_visible(v) for v in obj]
    return obj


def _json_for_script(obj: object) -> str:
    """JSON that a `<script>` element holds as data: `<`, `>` and `&` as \\u escapes (no `</script>` or
    `<!--` can close or change it); `ensure_ascii` makes U+2028/U+2029 \\u escapes too."""
    return json.dumps(obj, ensure_ascii=True).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _text(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _sha256(source: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(source.encode("utf-8")).digest()).decode("ascii") + "'"


_SLOT = re.compile(r"@(TITLE|CSP|SVG|DETAILS)@")


def page(model: Model, svg: str, diagnostics: Sequence[Diagnostic] = ()) -> str:
    """The HTML page around an SVG rendered by dot.

    The template's slots are filled in one pass over the template: a slot's text is never searched
    again, so a layer named `@DETAILS@` stays a name. The Content-Security-Policy admits only the
    page's own script and style (by their SHA-256), no event handler attributes, nothing from
    elsewhere: should a model string ever get into the markup, it cannot run."""
    start = svg.find("<svg")
    svg = svg[start:] if start >= 0 else svg  # drop the XML declaration and DOCTYPE (not allowed inline)
    csp = (f"default-src 'none'; script-src {_sha256(_SCRIPT)}; style-src {_sha256(_STYLE)}; img-src data:; "
           "base-uri 'none'; form-action 'none'")
    slots = {"TITLE": _text(clean(f"irlint: {model.name or model.path}")), "CSP": csp, "SVG": svg,
             "DETAILS": _json_for_script(_visible(layer_details(model, diagnostics)))}
    return _SLOT.sub(lambda m: slots[m.group(1)], _TEMPLATE)


_STYLE = """
body { margin: 0; font: 13px Helvetica, Arial, sans-serif; display: flex; height: 100vh; }
#view { flex: 1; overflow: hidden; position: relative; cursor: grab; background: #fff; }
#view svg { position: absolute; left: 0; top: 0; transform-origin: 0 0; }
#side { width: 340px; border-left: 1px solid #ccc; padding: 8px; overflow: auto; background: #fafafa; }
#side h2 { font-size: 14px; margin: 4px 0; word-break: break-all; }
#side table { border-collapse: collapse; width: 100%; }
#side td { border-top: 1px solid #e5e5e5; padding: 2px 4px; vertical-align: top; word-break: break-all; }
#side .finding { color: #cc0000; }
#search { width: 100%; box-sizing: border-box; padding: 4px; }
.hit > path, .hit > polygon, .hit > ellipse { stroke: #ff00ff !important; stroke-width: 4px !important; }
#help { color: #777; font-size: 11px; }
"""

_SCRIPT = """
(function () {
  "use strict";
  var details = JSON.parse(document.getElementById("details").textContent);
  var view = document.getElementById("view"), svg = view.querySelector("svg");
  var scale = 1, tx = 0, ty = 0;
  function apply() { svg.style.transform = "translate(" + tx + "px," + ty + "px) scale(" + scale + ")"; }
  function fit() {
    var w = svg.width.baseVal.value || 800, h = svg.height.baseVal.value || 600;
    scale = Math.min(view.clientWidth / w, view.clientHeight / h, 1); tx = 0; ty = 0; apply();
  }
  view.addEventListener("wheel", function (e) {
    e.preventDefault();
    var r = view.getBoundingClientRect(), x = e.clientX - r.left, y = e.clientY - r.top;
    var k = e.deltaY < 0 ? 1.15 : 1 / 1.15;
    tx = x - (x - tx) * k; ty = y - (y - ty) * k; scale *= k; apply();
  }, {passive: false});
  var drag = null;
  view.addEventListener("mousedown", function (e) { drag = [e.clientX - tx, e.clientY - ty, e.clientX, e.clientY]; });
  window.addEventListener("mousemove", function (e) {
    if (drag) { tx = e.clientX - drag[0]; ty = e.clientY - drag[1]; apply(); }
  });
  window.addEventListener("mouseup", function () { drag = null; });
  window.addEventListener("keydown", function (e) { if (e.key === "0" && e.target.tagName !== "INPUT") fit(); });
  function nodeOf(el) {
    while (el && el !== svg) { if (el.classList && el.classList.contains("node")) return el; el = el.parentNode; }
    return null;
  }
  function idOf(node) { var t = node.querySelector("title"); return t ? t.textContent : ""; }
  function cell(text) { var td = document.createElement("td"); td.textContent = text; return td; }
  function show(id) {
    var d = details[id], info = document.getElementById("info");
    info.textContent = "";
    if (!d) { info.textContent = id; return; }
    var h = document.createElement("h2"); h.textContent = d.type + " '" + d.name + "'"; info.appendChild(h);
    var t = document.createElement("table");
    function row(k, v) {
      var tr = document.createElement("tr"); tr.appendChild(cell(k)); tr.appendChild(cell(v)); t.appendChild(tr);
    }
    row("id path", d.path); row("id", String(d.id)); row("version", d.version);
    Object.keys(d.data).forEach(function (k) { row(k, d.data[k]); });
    d.inputs.forEach(function (p) { row("input", p); });
    d.outputs.forEach(function (p) { row("output", p); });
    info.appendChild(t);
    d.findings.forEach(function (f) {
      var p = document.createElement("p"); p.className = "finding"; p.textContent = f; info.appendChild(p);
    });
  }
  function rowOf(el) {  // a row of a body's port table: its cell's link group is "a_" + the layer's node id
    while (el && el !== svg) {
      if (el.id && el.id.indexOf("a_") === 0 && details[el.id.slice(2)]) return el.id.slice(2);
      el = el.parentNode;
    }
    return null;
  }
  svg.addEventListener("click", function (e) {
    var r = rowOf(e.target);
    if (r) { e.preventDefault(); show(r); return; }
    var n = nodeOf(e.target); if (n) show(idOf(n));
  });
  var hits = [], at = -1;
  function center(node) {
    var b = node.getBBox(), m = node.getCTM(), sm = svg.getCTM();
    if (!m || !sm) return;
    var p = svg.createSVGPoint(); p.x = b.x + b.width / 2; p.y = b.y + b.height / 2;
    var q = p.matrixTransform(sm.inverse().multiply(m));
    tx = view.clientWidth / 2 - q.x * scale; ty = view.clientHeight / 2 - q.y * scale; apply();
  }
  var search = document.getElementById("search");
  search.addEventListener("input", function () {
    var q = search.value.trim().toLowerCase();
    hits.forEach(function (n) { n.classList.remove("hit"); });
    hits = []; at = -1;
    if (q) {
      svg.querySelectorAll("g.node").forEach(function (n) {
        var d = details[idOf(n)], text = d ? (d.name + " " + d.type + " " + d.path) : n.textContent;
        if (text.toLowerCase().indexOf(q) >= 0) { n.classList.add("hit"); hits.push(n); }
      });
    }
    document.getElementById("count").textContent = q ? hits.length + " match(es)" : "";
  });
  search.addEventListener("keydown", function (e) {
    if (e.key === "Enter" && hits.length) { at = (at + 1) % hits.length; center(hits[at]); show(idOf(hits[at])); }
  });
  fit();
})();
"""

_TEMPLATE = ("""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="@CSP@"><title>@TITLE@</title>
<style>""" + _STYLE + """</style></head>
<body>
<div id="view">@SVG@</div>
<div id="side">
<input id="search" type="search" placeholder="search layers (name, type, id path); Enter: next">
<div id="help">wheel: zoom, drag: pan, click a layer: its attributes, 0: fit</div>
<div id="count"></div>
<div id="info"><p>Click a layer.</p></div>
</div>
<script type="application/json" id="details">@DETAILS@</script>
<script>""" + _SCRIPT + """</script>
</body></html>
""")
