"""Adopting irlint on existing models: --statistics, --format concise, per-file-ignores, --baseline."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from irlint.cli.main import main
from irlint.diagnostics import Diagnostic, Severity
from irlint.settings.perfile import PerFileIgnores, compile_glob

BAD_EDGE = ('to-layer="6" to-port="1"', 'to-layer="6" to-port="7"')
STALE_DIM = ('<dim>5</dim>\n\t\t\t\t\t<dim>3</dim>', '<dim>4</dim>\n\t\t\t\t\t<dim>3</dim>')  # TI output "all"


def test_statistics_counts_per_code(broken_copy, capsys: pytest.CaptureFixture[str]) -> None:
    path = broken_copy(*BAD_EDGE)
    assert main(["check", "--format", "json", str(path)]) == 1
    codes = [d["code"] for d in json.loads(capsys.readouterr().out)]
    assert main(["check", "--statistics", "--format", "json", str(path)]) == 1
    rows = json.loads(capsys.readouterr().out)
    assert {r["code"]: r["count"] for r in rows} == {c: codes.count(c) for c in codes}
    assert [r["count"] for r in rows] == sorted((r["count"] for r in rows), reverse=True)
    assert main(["check", "--statistics", str(path)]) == 1
    text = capsys.readouterr().out
    assert "G103" in text and "edge-unknown-port" in text and "[error]" not in text
    assert main(["check", "--statistics", "--format", "sarif", str(path)]) == 2


def test_statistics_marks_fixable(broken_copy, capsys: pytest.CaptureFixture[str]) -> None:
    path = broken_copy(*STALE_DIM)
    assert main(["check", "--statistics", str(path)]) == 1
    out = capsys.readouterr().out
    assert any(line.split()[1:3] == ["SL606", "[*]"] for line in out.splitlines() if line.strip()), out
    assert "--fix" in out


def test_concise_is_one_line_per_finding(broken_copy, capsys: pytest.CaptureFixture[str]) -> None:
    path = broken_copy(*BAD_EDGE)
    assert main(["check", "--format", "json", str(path)]) == 1
    diags = json.loads(capsys.readouterr().out)
    assert main(["check", "--format", "concise", str(path)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(diags) + 1 and lines[-1].startswith("Found ")
    first = diags[0]
    assert lines[0] == (f"{first['path']}:{first['line']}:{first['column']}: {first['code']} "
                        f"[{first['severity']}] {first['message']}")


@pytest.mark.parametrize(("pattern", "path", "hit"), [
    ("legacy/**", "legacy/a.xml", True),
    ("legacy/**", "legacy/x/y/a.xml", True),
    ("legacy/**", "new/legacy/a.xml", False),
    ("**/old_*.xml", "a/b/old_1.xml", True),
    ("**/old_*.xml", "old_1.xml", True),
    ("models/*.xml", "models/x/a.xml", False),
    ("m?.xml", "m1.xml", True),
    ("m[0-9].xml", "m7.xml", True),
])
def test_globs(pattern: str, path: str, hit: bool) -> None:
    assert compile_glob(pattern).match(path) is hit


def test_per_file_ignores(broken_copy, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = broken_copy(*BAD_EDGE)
    legacy = tmp_path / "legacy"
    legacy.mkdir()
    shutil.copy(path, legacy / "old.xml")
    shutil.copy(path.with_suffix(".bin"), legacy / "old.bin")
    (tmp_path / "pyproject.toml").write_text('[tool.irlint]\nformat = "json"\n'
                                             'per-file-ignores = {"legacy/**" = ["G1"], "*.xml" = "T"}\n')
    main(["check", str(tmp_path)])
    diags = json.loads(capsys.readouterr().out)
    by_file: dict[str, set[str]] = {}
    for d in diags:
        by_file.setdefault(Path(d["path"]).name, set()).add(d["code"])
    assert "G103" in by_file["broken.xml"]
    assert not any(c.startswith("G1") for c in by_file.get("old.xml", set()))
    assert not any(c.startswith("T") for codes in by_file.values() for c in codes)
    ign = PerFileIgnores({"**": ["ALL"]}, tmp_path)
    assert ign.codes_for(str(legacy / "old.xml")) == ("ALL",)


def test_per_file_ignores_must_be_lists(small_ti: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "irlint.toml"
    cfg.write_text('[tool.irlint]\nper-file-ignores = {"a/**" = 3}\n')
    assert main(["check", "--config", str(cfg), str(small_ti)]) == 2
    assert "per-file-ignores" in capsys.readouterr().err


def test_baseline_records_then_reports_only_new(broken_copy, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = broken_copy(*BAD_EDGE)
    base = tmp_path / "irlint-baseline.json"
    assert main(["check", "--baseline", str(base), str(path)]) == 0  # the file is missing: record
    err = capsys.readouterr().err
    assert "recorded" in err and base.is_file()
    data = json.loads(base.read_text())
    assert data["irlint-baseline"] == 2 and all(r["path"] == "broken.xml" for r in data["findings"])
    # name paths, not id paths: a body layer is named with the layer whose body holds it
    assert any((r["layer"] or [""])[-1].startswith("Add") for r in data["findings"])
    assert all(not (r["layer"] or ["x"])[0][0].isdigit() for r in data["findings"])

    assert main(["check", "--baseline", str(base), str(path)]) == 0
    out = capsys.readouterr()
    assert "All checks passed" in out.out and "not shown" in out.err

    # lines move (a comment added at the top): the old findings still match
    text = path.read_text()
    path.write_text(text.replace("<net ", "<!-- a comment\n\n\n -->\n<net ", 1))
    assert main(["check", "--baseline", str(base), "--format", "json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == []

    # a new defect is reported, the old ones are not
    path.write_text(path.read_text().replace('to-layer="3" to-port="1"', 'to-layer="3" to-port="9"', 1))
    assert main(["check", "--baseline", str(base), "--format", "json", str(path)]) == 1
    new = json.loads(capsys.readouterr().out)
    assert new and all("to-port=9" in d["message"] or "3" in (d["layer"] or "") for d in new)
    assert all(d["layer"] != "6" or "to-port=7" not in d["message"] for d in new)

    # --baseline-update accepts today's findings
    assert main(["check", "--baseline", str(base), "--baseline-update", str(path)]) == 0
    capsys.readouterr()
    assert main(["check", "--baseline", str(base), str(path)]) == 0


def test_baseline_errors(small_ti: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "b.json"
    bad.write_text("{not json")
    assert main(["check", "--baseline", str(bad), str(small_ti)]) == 2
    assert "not JSON" in capsys.readouterr().err
    bad.write_text('{"something": 1}')
    assert main(["check", "--baseline", str(bad), str(small_ti)]) == 2
    assert main(["check", "--baseline-update", str(small_ti)]) == 2
    assert main(["check", "--diff", "--baseline", str(bad), str(small_ti)]) == 2
    assert main(["check", "--show-fixes", str(small_ti)]) == 2


def test_baseline_never_hides_an_unreadable_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "m.xml"
    p.write_text("<net>")
    base = tmp_path / "base.json"
    assert main(["check", "--baseline", str(base), str(p)]) == 2
    assert "IR001" not in {r["code"] for r in json.loads(base.read_text())["findings"]}
    assert main(["check", "--baseline", str(base), str(p)]) == 2  # and it is reported again


def test_baseline_matches_however_the_files_are_named(broken_copy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Recorded with relative paths from one folder, checked with absolute paths from another: W302 names
    the .bin in its message, and still matches."""
    path = broken_copy(*BAD_EDGE)
    path.with_suffix(".bin").write_bytes(path.with_suffix(".bin").read_bytes()[:20])  # a short .bin: W302
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--baseline", "base.json", path.name]) == 0
    recorded = json.loads((tmp_path / "base.json").read_text())["findings"]
    assert any(r["code"] == "W302" and "broken.bin" in r["message"] for r in recorded)
    other = tmp_path / "elsewhere"
    other.mkdir()
    monkeypatch.chdir(other)
    capsys.readouterr()
    assert main(["check", "--baseline", str(tmp_path / "base.json"), "--format", "json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == []


def _renumber(src: Path, dst: Path, shift: int) -> None:
    """Re-export `src` as a converter that numbers layers differently would: every layer id, at the top
    level and in every body, becomes id * 10 + shift (edges, port_map and back edges follow), and the
    file is written out again with other line breaks. Names, types and the .bin stay."""
    import xml.etree.ElementTree as ET

    tree = ET.parse(src)

    def graph(g: ET.Element) -> None:
        new = {la.get("id"): str(int(la.get("id", "0")) * 10 + shift) for la in g.find("layers") or []}
        for la in g.find("layers") or []:
            la.set("id", new[la.get("id")])
            body = la.find("body")
            if body is not None:
                inner = {x.get("id"): str(int(x.get("id", "0")) * 10 + shift) for x in body.find("layers") or []}
                for entry in la.iter("input"):
                    if entry.get("internal_layer_id") in inner:
                        entry.set("internal_layer_id", inner[entry.get("internal_layer_id")])
                for entry in la.iter("output"):
                    if entry.get("internal_layer_id") in inner:
                        entry.set("internal_layer_id", inner[entry.get("internal_layer_id")])
                for edge in la.find("back_edges") or []:
                    edge.set("from-layer", inner.get(edge.get("from-layer"), edge.get("from-layer")))
                    edge.set("to-layer", inner.get(edge.get("to-layer"), edge.get("to-layer")))
                graph(body)
        for edge in g.find("edges") or []:
            edge.set("from-layer", new.get(edge.get("from-layer"), edge.get("from-layer")))
            edge.set("to-layer", new.get(edge.get("to-layer"), edge.get("to-layer")))

    graph(tree.getroot())
    ET.indent(tree, "  ")
    tree.write(dst, encoding="utf-8", xml_declaration=True)


def test_baseline_survives_a_renumbering_re_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/ci.md: a re-export that renumbers layer ids (and moves every line) keeps old findings matched:
    findings are keyed by code, file, layer name path and the message without ids and line numbers."""
    from irlint.api import check

    broken = Path(__file__).resolve().parents[2] / "examples" / "broken" / "lstm_ti_broken"
    models = tmp_path / "models"
    models.mkdir()
    xml = models / "m.xml"
    shutil.copy(broken.with_suffix(".xml"), xml)
    shutil.copy(broken.with_suffix(".bin"), models / "m.bin")
    before = check(str(xml))
    base = tmp_path / "baseline.json"
    assert main(["check", "--baseline", str(base), str(models)]) == 0
    capsys.readouterr()

    _renumber(broken.with_suffix(".xml"), xml, 7)
    after = check(str(xml))
    assert sorted(d.code for d in after) == sorted(d.code for d in before)
    assert {d.message for d in after}.isdisjoint({d.message for d in before})  # every message quotes an id
    assert {d.loc.line for d in after} != {d.loc.line for d in before}
    assert main(["check", "--baseline", str(base), "--format", "json", str(models)]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out) == [] and f"{len(before)} findings in baseline" in out.err
    assert "no longer occur" not in out.err

    # a body layer is known by its name path: the same name in the body of another layer is a new finding
    data = json.loads(base.read_text())
    assert any(r["layer"] and len(r["layer"]) == 3 and r["layer"][1] == "body" for r in data["findings"])


def test_baselines_recorded_with_ids_and_plain_names_still_match(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A baseline written before findings were keyed without ids (raw messages, a body layer's own name)
    still hides the findings it recorded."""
    from irlint.api import check
    from irlint.ir import load
    from irlint.layerpath import find_layer

    broken = Path(__file__).resolve().parents[2] / "examples" / "broken" / "lstm_ti_broken"
    xml = tmp_path / "m.xml"
    shutil.copy(broken.with_suffix(".xml"), xml)
    shutil.copy(broken.with_suffix(".bin"), tmp_path / "m.bin")
    model, diags = load(xml), check(str(xml))
    rows = [{"path": "m.xml", "code": d.code, "message": d.message, "count": 1,
             "layer": (find_layer(model, d.layer).name if d.layer else None)} for d in diags]  # type: ignore[union-attr]
    base = tmp_path / "old.json"
    base.write_text(json.dumps({"irlint-baseline": 1, "findings": rows}))
    assert main(["check", "--baseline", str(base), "--format", "json", str(xml)]) == 0
    assert json.loads(capsys.readouterr().out) == []


def _renumber_ports(src: Path, dst: Path) -> None:
    """Re-export `src` as a converter that numbers ports differently would: every output port id p of every
    layer, at the top level and in every body, becomes p + 10 (inputs keep their positional ids, outputs
    their order; edges, back edges and port_map entries follow). Names, layer ids and the .bin stay."""
    import xml.etree.ElementTree as ET

    tree = ET.parse(src)

    def graph(g: ET.Element) -> dict[str | None, dict[str | None, str]]:
        maps: dict[str | None, dict[str | None, str]] = {}
        for la in g.find("layers") or []:
            outs = maps.setdefault(la.get("id"), {})
            for port in la.find("output") or []:
                outs[port.get("id")] = str(int(port.get("id", "0")) + 10)
                port.set("id", outs[port.get("id")])
            for entry in la.find("port_map") or []:
                ext = entry.get("external_port_id", "")
                # an output entry naming no port moves with the others: OpenVINO gives output entries the
                # outputs in the order of their ids, which the export keeps
                stray = str(int(ext) + 10) if entry.tag == "output" and ext.isdigit() else ext
                entry.set("external_port_id", outs.get(ext, stray))
            body = la.find("body")
            if body is not None:
                inner = graph(body)
                for edge in la.find("back_edges") or []:
                    for end in ("from", "to"):
                        port = edge.get(f"{end}-port")
                        if port is not None:
                            edge.set(f"{end}-port", inner.get(edge.get(f"{end}-layer"), {}).get(port, port))
        for edge in g.find("edges") or []:
            for end in ("from", "to"):
                port = edge.get(f"{end}-port")
                edge.set(f"{end}-port", maps.get(edge.get(f"{end}-layer"), {}).get(port, port or ""))
        return maps

    graph(tree.getroot())
    tree.write(dst, encoding="utf-8", xml_declaration=True)


def _example(tmp_path: Path, name: str = "m") -> Path:
    broken = Path(__file__).resolve().parents[2] / "examples" / "broken" / "lstm_ti_broken"
    models = tmp_path / "models"
    models.mkdir(exist_ok=True)
    xml = models / f"{name}.xml"
    shutil.copy(broken.with_suffix(".xml"), xml)
    shutil.copy(broken.with_suffix(".bin"), xml.with_suffix(".bin"))
    return xml


def test_baseline_survives_a_re_export_that_renumbers_ports(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """docs/ci.md: port ids are not part of a finding's record. A port is recorded by its role (its place
    among the layer's inputs or outputs), and messages without the port ids they quote."""
    from irlint.api import check

    xml = _example(tmp_path)
    before = check(str(xml))
    base = tmp_path / "baseline.json"
    assert main(["check", "--baseline", str(base), str(xml)]) == 0
    capsys.readouterr()
    rows = json.loads(base.read_text())["findings"]
    assert all(r["port"] in (None, "input 0", "input 1", "input 2", "output 0", "output 1", "output 2")
               for r in rows) and any(r["port"] for r in rows)

    _renumber_ports(xml, xml)
    after = check(str(xml))
    assert sorted(d.code for d in after) == sorted(d.code for d in before)
    changed = {d.code for d in after} - {d.code for d in before if (d.code, d.message) in
                                         {(a.code, a.message) for a in after}}
    assert {"PM401", "G103"} <= changed  # their messages quote port ids, which changed
    assert main(["check", "--baseline", str(base), "--format", "json", str(xml)]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out) == [] and f"{len(before)} findings in baseline" in out.err
    assert "no longer occur" not in out.err


def test_baseline_tells_ports_of_one_layer_apart(tmp_path: Path) -> None:
    """Two findings of one layer that differ only by port stay two records: the port's role (its place among
    the layer's outputs) is recorded although its id is not, so a renumbered port still matches and the
    same defect on another port is new."""
    from irlint.diagnostics import Location
    from irlint.settings.baseline import Baseline, baseline_text

    def finding(port: int) -> Diagnostic:
        return Diagnostic("SL606", Severity.ERROR, f"output port {port} of layer 3 'ti' declares [2]",
                          Location(str(tmp_path / "m.xml"), 10, 1), layer="3", port=port)

    roles = {4: "output 1", 5: "output 2", 14: "output 1", 17: "output 2"}  # ids 3, 4, 5 -> 11, 14, 17

    def name_of(d: Diagnostic) -> tuple[tuple[str, ...], str]:
        return ("ti",), roles[d.port or 0]

    path = tmp_path / "base.json"
    text, n = baseline_text(path, [finding(4)], name_of)
    assert n == 1 and '"port": "output 1"' in text
    path.write_text(text)
    base = Baseline.load(path)
    assert base.split([finding(14)], name_of)[1:] == (1, 0)  # renumbered: matched
    new, matched, gone = base.split([finding(17)], name_of)  # the other output: new
    assert len(new) == 1 and (matched, gone) == (0, 1)


def test_baseline_records_name_paths_of_names_holding_slashes(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Exporters put '/' in layer names ("enc/lstm/while/add"): a name path is recorded as a list of names,
    so a layer named "a/body/b" and layer "b" in the body of "a" are two places. A version 1 baseline, which
    joined the names with '/', still hides the findings it recorded."""
    from irlint.api import check
    from irlint.ir import load
    from irlint.layerpath import finding_places, name_parts, place_key
    from irlint.settings.baseline import Baseline

    xml = _example(tmp_path)
    text = xml.read_text()
    for old in ("TensorIterator_23", "h_next", "LSTMCell_16"):
        text = text.replace(f'name="{old}"', f'name="enc/lstm\\{old}/x"')
    xml.write_text(text)
    model, diags = load(xml), check(str(xml))
    places = finding_places(model, diags)
    ti_body = [p for p in places.values() if len(p[0]) == 3]
    assert ti_body and all(p[0][0] == "enc/lstm\\TensorIterator_23/x" and p[0][1] == "body" for p in ti_body)

    base = tmp_path / "baseline.json"
    assert main(["check", "--baseline", str(base), str(xml)]) == 0
    capsys.readouterr()
    rows = json.loads(base.read_text())["findings"]
    assert ["enc/lstm\\TensorIterator_23/x", "body", "enc/lstm\\LSTMCell_16/x"] in [r["layer"] for r in rows]
    assert main(["check", "--baseline", str(base), "--format", "json", str(xml)]) == 0
    assert json.loads(capsys.readouterr().out) == []

    # one string could not tell these apart; the lists can
    top = model.graph.layers[0]
    assert name_parts(model, str(top.id)) == (top.name,)
    a = Diagnostic("W303", Severity.ERROR, "bad", diags[0].loc, layer="1")
    base.write_text(json.dumps({"irlint-baseline": 2, "findings": [
        {"path": "models/m.xml", "code": "W303", "layer": ["a/body/b"], "port": None, "message": "bad"}]}))
    recorded = Baseline.load(base)
    assert recorded.split([a], lambda d: (("a/body/b",), ""))[1] == 1
    assert recorded.split([a], lambda d: (("a", "body", "b"), ""))[1] == 0

    # version 1: the names joined by '/'
    old = [{"path": "models/m.xml", "code": d.code, "message": d.message, "count": 1,
            "layer": "/".join(places[place_key(d)][0]) if d.layer else None} for d in diags]
    base.write_text(json.dumps({"irlint-baseline": 1, "findings": old}))
    assert main(["check", "--baseline", str(base), "--format", "json", str(xml)]) == 0
    assert json.loads(capsys.readouterr().out) == []
    base.write_text(json.dumps({"irlint-baseline": 2, "findings": [{**old[0], "layer": "a/b"}]}))
    assert main(["check", "--baseline", str(base), str(xml)]) == 2
    assert "malformed entry" in capsys.readouterr().err
