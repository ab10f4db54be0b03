"""SARIF 2.1.0: validity against the official schema (tests/data, see its README), golden output,
rule descriptors and indices, code-point columns, URIs, properties."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from irlint import __version__
from irlint.diagnostics import Diagnostic, Location, Related, Severity
from irlint.report import render
from tests.report.sample import FILES, MODEL, ODD, ROOT, RULES, assert_golden, sample

SCHEMA = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))


def sarif(diags: list[Diagnostic] | None = None, files: list[str] = FILES) -> dict[str, Any]:
    return json.loads(render("sarif", sample() if diags is None else diags, files=files, rules=RULES))


def validate(log: dict[str, Any]) -> None:
    jsonschema.Draft4Validator.check_schema(SCHEMA)
    jsonschema.Draft4Validator(SCHEMA, format_checker=jsonschema.FormatChecker()).validate(log)


def test_schema_is_the_official_one() -> None:
    assert SCHEMA["id"].endswith("/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")
    assert SCHEMA["properties"]["version"]["enum"] == ["2.1.0"]


def test_valid_against_the_schema() -> None:
    validate(sarif())
    validate(sarif([]))


def test_the_schema_does_reject_invalid_logs() -> None:
    for path, value in [(("results", 0, "level"), "fatal"), (("results", 0, "ruleIndex"), -5)]:
        log = sarif()
        target: Any = log["runs"][0]
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        with pytest.raises(jsonschema.ValidationError):
            validate(log)


def test_golden() -> None:
    log = sarif()
    log["runs"][0]["tool"]["driver"]["version"] = "<irlint version>"  # releases must not break the golden file
    assert_golden("sarif.sarif", json.dumps(log, indent=2, ensure_ascii=False) + "\n")


def test_driver_and_rules() -> None:
    run = sarif()["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "irlint" and driver["version"] == __version__
    assert driver["informationUri"].startswith("https://")
    assert [r["id"] for r in driver["rules"]] == ["G102", "G110", "T203", "W301"]
    g102 = driver["rules"][0]
    assert g102["name"] == "edge-unknown-layer"
    assert g102["shortDescription"]["text"] == "An edge names a layer id that does not exist."
    assert g102["help"]["markdown"] == RULES["G102"].doc and g102["fullDescription"]["text"] == RULES["G102"].doc
    assert g102["helpUri"] == RULES["G102"].help_uri
    levels = {r["id"]: r["defaultConfiguration"]["level"] for r in driver["rules"]}
    assert levels == {"G102": "error", "G110": "note", "T203": "error", "W301": "warning"}  # W301: no metadata
    for result in run["results"]:
        assert driver["rules"][result["ruleIndex"]]["id"] == result["ruleId"]


def test_results() -> None:
    results = sarif()["runs"][0]["results"]
    assert [r["level"] for r in results] == ["error", "warning", "error", "note", "note", "note"]
    g102 = results[2]
    loc = g102["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == MODEL and loc["region"] == {"startLine": 12, "startColumn": 3}
    related = g102["relatedLocations"][0]
    assert related["message"]["text"] == "layers are declared here"
    assert related["physicalLocation"]["region"] == {"startLine": 4, "startColumn": 3}
    assert g102["properties"] == {"hint": "edges connect layers of the same level"}
    assert results[1]["properties"] == {"layer": "0", "port": 0, "hint": "declare f32[1,3]"}
    assert "region" not in results[0]["locations"][0]["physicalLocation"]  # a file-level finding


def test_columns_are_code_points_not_bytes() -> None:
    results = sarif()["runs"][0]["results"]
    foo = next(r for r in results if r["locations"][0]["physicalLocation"].get("region", {}).get("startLine") == 4)
    # byte 47 on '        <layer id="1" name="ünïcode 名前" type=...': ü ï take 2 bytes, 名 前 take 3
    assert foo["locations"][0]["physicalLocation"]["region"]["startColumn"] == 47 - 2 - 4
    line = (ROOT / ODD).read_text(encoding="utf-8").splitlines()[3]
    assert line[47 - 2 - 4 - 1 :].startswith('type="Foo"')
    assert sarif()["runs"][0]["columnKind"] == "unicodeCodePoints"


def test_artifacts_and_indices() -> None:
    run = sarif()["runs"][0]
    uris = [a["location"]["uri"] for a in run["artifacts"]]
    assert uris == [MODEL, ODD, "tests/report/data/missing.xml"]
    assert [a.get("roles") for a in run["artifacts"]] == [["analysisTarget"], ["analysisTarget"], None]
    for result in run["results"]:
        for loc in result["locations"] + result.get("relatedLocations", []):
            art = loc["physicalLocation"]["artifactLocation"]
            assert uris[art["index"]] == art["uri"]


def test_uris_relative_to_cwd_else_absolute(tmp_path: Path) -> None:
    outside = tmp_path / "my model#1.xml"
    outside.write_text("<net/>\n")
    diags = [
        Diagnostic("G102", Severity.ERROR, "absolute below cwd", Location(os.path.abspath(MODEL), 1, 1)),
        Diagnostic("G102", Severity.ERROR, "needs encoding", Location("tests/report/data/a b%.xml", 1, 1)),
        Diagnostic("G102", Severity.ERROR, "outside", Location(str(outside), 1, 1)),
    ]
    log = sarif(diags, files=[])
    validate(log)
    uris = {
        r["message"]["text"]: r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in log["runs"][0]["results"]
    }
    assert uris["absolute below cwd"] == MODEL
    assert uris["needs encoding"] == "tests/report/data/a%20b%25.xml"
    assert uris["outside"] == outside.as_uri() and uris["outside"].startswith("file:///")
    assert uris["outside"].endswith("/my%20model%231.xml")


def test_hostile_text_stays_valid() -> None:
    d = Diagnostic(
        "T203",
        Severity.ERROR,
        'a "b" <c> & \\ \x1b[31m \x00 名前\nline',
        Location(MODEL, 7, 5),
        layer="1/body/2",
        port=3,
        related=(Related(Location(MODEL, 0, 0), "note\twith tab"),),
    )
    log = sarif([d])
    validate(log)
    result = log["runs"][0]["results"][0]
    assert result["message"]["text"] == d.message
    assert "region" not in result["relatedLocations"][0]["physicalLocation"]
