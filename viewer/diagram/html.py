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
from collections.abc import Mapping, Sequence

from irlint.viewer.diagram.context import node_id
from irlint.viewer.diagram.porttypes import PortTypes

from irlint.diagnostics import Diagnostic
from irlint.ir.model import Model
from irlint.report.text import clean


def layer_details(model: Model, diagnostics: Sequence[Diagnostic] = (),
                  panel: Mapping[str, Mapping[str, object]] | None = None) -> dict[str, dict[str, object]]:
    """By node id: what the side panel shows of each layer; `panel` (`viewer.diagram.panel`, from the
    diagram as drawn) adds where it is drawn, its traced values, a Const's value and its XML line."""
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
            **(panel or {}).get(node_id(la), {}),
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


def page(model: Model, svg: str, diagnostics: Sequence[Diagnostic] = (), diagram: object = None) -> str:
    """The HTML page around an SVG rendered by dot.

    The template's slots are filled in one pass over the template: a slot's text is never searched
    again, so a layer named `@DETAILS@` stays a name. The Content-Security-Policy admits only the
    page's own script and style (by their SHA-256), no event handler attributes, nothing from
    elsewhere: should a model string ever get into the markup, it cannot run. `diagram`: the
    `build_diagram` result the SVG was rendered from (where each layer is drawn, its traced values)."""
    panel = diagram.irlint_panel() if hasattr(diagram, "irlint_panel") else None
    start = svg.find("<svg")
    svg = svg[start:] if start >= 0 else svg  # drop the XML declaration and DOCTYPE (not allowed inline)
    csp = (f"default-src 'none'; script-src {_sha256(_SCRIPT)}; style-src {_sha256(_STYLE)}; img-src data:; "
           "base-uri 'none'; form-action 'none'")
    slots = {"TITLE": _text(clean(f"irlint: {model.name or model.path}")), "CSP": csp, "SVG": svg,
             "DETAILS": _json_for_script(_visible(layer_details(model, diagnostics, panel)))}
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
.hit path, .hit polygon, .hit ellipse { stroke: #ff00ff !important;
  stroke-width: 4px !important; }
.sel path, .sel polygon, .sel ellipse { stroke: #1565c0 !important;
  stroke-width: 5px !important; }
#side pre { font-size: 11px; max-height: 240px; overflow: auto; background: #fff; border: 1px solid #e5e5e5; }
#help { color: #777; font-size: 11px; }
"""

_SCRIPT = """
(function () {
  "use strict";
  var details = JSON.parse(document.getElementById("details").textContent);
  var view = document.getElementById("view"), svg = view.querySelector("svg");
  var scale = 1, tx = 0, ty = 0;
  function apply() { svg.style.transform = "translate(" + tx + "px," + ty + "px) scale(" + scale + ")"; }
  function fit() {  // the whole graph in the area beside the panel, centred
    var w = svg.width.baseVal.value || 800, h = svg.height.baseVal.value || 600;
    scale = Math.min(view.clientWidth / w, view.clientHeight / h, 1);
    tx = (view.clientWidth - w * scale) / 2; ty = (view.clientHeight - h * scale) / 2; apply();
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
  var byTitle = {};  // a node's or cluster's DOT name -> its SVG group
  svg.querySelectorAll("g.node, g.cluster").forEach(function (g) {
    var t = g.querySelector("title"); if (t) byTitle[t.textContent] = g;
  });
  function nodeOf(el) {
    while (el && el !== svg) { if (el.classList && el.classList.contains("node")) return el; el = el.parentNode; }
    return null;
  }
  function idOf(node) { var t = node.querySelector("title"); return t ? t.textContent : ""; }
  function elementOf(id) {  // what stands for a layer in the drawing: its node, row, cluster or a node hiding it
    var w = (details[id] || {}).where || [];
    if (w[0] === "row") return document.getElementById(w[1]);
    if (w[0] === "node") return byTitle[w[1]] || null;
    return byTitle[id] || null;
  }
  function cell(text) { var td = document.createElement("td"); td.textContent = text; return td; }
  var selected = null;
  function select(el) {
    if (selected) selected.classList.remove("sel");
    selected = el; if (el) el.classList.add("sel");
  }
  function show(id) {
    var d = details[id], info = document.getElementById("info");
    info.textContent = "";
    if (!d) { info.textContent = id; return; }
    var h = document.createElement("h2"); h.textContent = d.type + " '" + d.name + "'"; info.appendChild(h);
    var t = document.createElement("table");
    function row(k, v, tip) {
      var tr = document.createElement("tr"), c = cell(v); tr.appendChild(cell(k)); tr.appendChild(c);
      if (tip) { c.title = tip; c.className = "value"; }
      t.appendChild(tr);
    }
    row("id path", d.path); row("id", String(d.id)); row("version", d.version);
    if (d.line) row("XML line", String(d.line));
    Object.keys(d.data).forEach(function (k) { row(k, d.data[k]); });
    d.inputs.forEach(function (p) { row("input", p); });
    d.outputs.forEach(function (p) { row("output", p); });
    if (d.const) row("value", d.const);
    (d.values || []).forEach(function (v) { row(v[0], v[1], v[2]); });
    info.appendChild(t);
    (d.values || []).forEach(function (v) {
      if (!v[2]) return;
      var pre = document.createElement("pre"); pre.textContent = v[2]; info.appendChild(pre);
    });
    d.findings.forEach(function (f) {
      var p = document.createElement("p"); p.className = "finding"; p.textContent = f; info.appendChild(p);
    });
  }
  function rowOf(el) {  // a row of a body's port table: its cell's link group is "a_" + the layer's node id
    while (el && el !== svg) {
      if (el.id && el.id.indexOf("a_") === 0 && details[el.id.slice(2)]) return el;
      el = el.parentNode;
    }
    return null;
  }
  svg.addEventListener("click", function (e) {
    var r = rowOf(e.target);
    if (r) { e.preventDefault(); select(r); show(r.id.slice(2)); return; }
    var n = nodeOf(e.target); if (n) { select(n); show(idOf(n)); }
  });
  function center(el) {  // move the view so that `el` sits in the middle of the area beside the panel
    var b = el.getBoundingClientRect(), v = view.getBoundingClientRect();
    tx += v.left + v.width / 2 - (b.left + b.width / 2); ty += v.top + v.height / 2 - (b.top + b.height / 2);
    apply();
  }
  var hits = [], at = -1, search = document.getElementById("search");
  search.addEventListener("input", function () {
    var q = search.value.trim().toLowerCase();
    hits.forEach(function (h) { if (h.el) h.el.classList.remove("hit"); });
    hits = []; at = -1;
    if (q) {
      Object.keys(details).forEach(function (id) {
        var d = details[id];
        if ((d.name + " " + d.type + " " + d.path).toLowerCase().indexOf(q) >= 0) {
          var el = elementOf(id); hits.push({id: id, el: el}); if (el) el.classList.add("hit");
        }
      });
    }
    document.getElementById("count").textContent = q ? hits.length + " match(es)" : "";
  });
  search.addEventListener("keydown", function (e) {
    if (e.key !== "Enter" || !hits.length) return;
    at = (at + 1) % hits.length;
    var h = hits[at];
    if (h.el) { center(h.el); select(h.el); }
    show(h.id);
    document.getElementById("count").textContent = (at + 1) + " of " + hits.length + " match(es)";
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
