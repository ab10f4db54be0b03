"""A cascade folded into its root (docs/architecture.md, "Recovery") reaches every report: the text
report prints the consequences as notes under the root in file order, JSON carries them in
`related`, SARIF in `relatedLocations`, each at the consequence's line."""

from __future__ import annotations

import json
from pathlib import Path

import irlint
from irlint.diagnostics import Diagnostic, Severity
from irlint.report import RuleInfo, render

FIXTURE = Path(__file__).parents[1] / "rules" / "fixtures" / "G107" / "fail.xml"
RULES = {r.code: RuleInfo.from_rule(r) for r in irlint.list_rules()}


def _line_of(needle: str) -> int:
    return next(n for n, t in enumerate(FIXTURE.read_text().splitlines(), 1) if needle in t)


def _cascade() -> tuple[Diagnostic, list[int]]:
    """The renamed port's one error and the lines of what it breaks (an entry and an edge naming port 2)."""
    (root,) = [d for d in irlint.check(FIXTURE) if d.severity is Severity.ERROR]
    return root, [_line_of('<output external_port_id="2"'), _line_of('from-port="2" to-layer="3"')]


def test_text_prints_the_notes_under_the_root_in_file_order() -> None:
    root, lines = _cascade()
    text = render("text", [root], files=[str(FIXTURE)], rules=RULES)
    head = text.index(f"{FIXTURE}:{root.loc.line}:")
    at = [text.index(f"--> {FIXTURE}:{line}:", head) for line in lines]
    assert head < at[0] < at[1], text
    shown = text.splitlines()
    folded = [(n, int(shown[i + 1].split(f"{FIXTURE}:")[1].split(":")[0]))
              for i, n in enumerate(shown) if n.startswith("note: this also ")]
    assert [line for _, line in folded] == sorted(line for _, line in folded)  # in file order
    assert [n.split(":")[1] for n, _ in folded] == [
        " this also gives PM401",
        " this also leaves output port 1 of layer 2 'TensorIterator_18' (TensorIterator) without a port_map "
        "<output> entry (OpenVINO gives it the entry of external_port_id 2, by the order of the ids) (PM403)",
        " this also gives G103"]


def test_json_related_carries_the_notes_lines() -> None:
    root, lines = _cascade()
    (out,) = json.loads(render("json", [root], files=[str(FIXTURE)], rules=RULES))
    noted = {r["line"]: r["note"] for r in out["related"]}
    assert noted[lines[0]].startswith("this also gives PM401: ")
    assert noted[lines[1]].startswith("this also gives G103: ")


def test_sarif_related_locations_carry_the_notes_lines() -> None:
    root, lines = _cascade()
    (result,) = json.loads(render("sarif", [root], files=[str(FIXTURE)], rules=RULES))["runs"][0]["results"]
    related = {r["physicalLocation"]["region"]["startLine"]: r["message"]["text"] for r in result["relatedLocations"]}
    assert related[lines[0]].startswith("this also gives PM401: ")
    assert related[lines[1]].startswith("this also gives G103: ")
