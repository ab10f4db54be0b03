"""Every rule has a failing and a passing fixture; each reports exactly the marked (code, line) pairs.

A fixture marks each reported line with `<!-- expect: CODE [CODE...] -->` on the line above it.
The error and warning findings of `irlint.check` must equal the marked set exactly, so collateral
findings are visible in the fixture; pass.xml must have no error or warning at all. A consequence
folded into its root (docs/architecture.md, "Recovery") is marked `<!-- expect-note: CODE -->`: a
finding of CODE carries a note at the line below.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import irlint
from irlint.diagnostics import Severity
from irlint.rule import missing_doc_sections

FIXTURES = Path(__file__).parent / "fixtures"
EXPECT = re.compile(r"<!--\s*expect:\s*([A-Z0-9 ]+?)\s*-->")
EXPECT_NOTE = re.compile(r"<!--\s*expect-note:\s*([A-Z0-9 ]+?)\s*-->")
NO_FIXTURE = {"IR900", "T212",  # internal errors: tests/engine (crashing pack), test_internal.py (crashing op)
              "LP706"}  # never reported: OpenVINO accepts every slicing attribute on a Loop (its docs)


def expected(path: Path, marker: re.Pattern[str] = EXPECT) -> set[tuple[str, int]]:
    out = set()
    for n, line in enumerate(path.read_text().splitlines(), start=1):
        m = marker.search(line)
        if m:
            out |= {(code, n + 1) for code in m.group(1).split()}
    return out


def noted(path: Path) -> set[tuple[str, int]]:
    """(code of a finding, line of one of its notes) for every note of every finding."""
    return {(d.code, r.loc.line) for d in irlint.check(path) for r in d.related}


def reported(path: Path, *, infos: bool = False) -> set[tuple[str, int]]:
    return {(d.code, d.loc.line) for d in irlint.check(path)
            if infos or d.severity is not Severity.INFO}


CODES = sorted(p.name for p in FIXTURES.iterdir() if p.is_dir()) if FIXTURES.exists() else []
# more cases of a rule: <CODE>/fail-<case>.xml and pass-<case>.xml (tests/rules/make_case_fixtures.py)
CASES = sorted(str(p.relative_to(FIXTURES)) for p in FIXTURES.glob("*/*-*.xml"))


@pytest.mark.parametrize("code", CODES)
def test_fail_fixture_reports_exactly_the_marked_lines(code: str) -> None:
    path = FIXTURES / code / "fail.xml"
    want = expected(path)
    assert any(c == code for c, _ in want), f"{code}/fail.xml marks no {code}"
    got = reported(path, infos=any(c == "G110" for c, _ in want))
    if code == "G110":
        got = {g for g in got if g[0] == "G110" or g in want}
    assert got == want, f"unexpected: {sorted(got - want)}, missing: {sorted(want - got)}"
    notes = expected(path, EXPECT_NOTE)
    assert notes <= noted(path), f"missing notes: {sorted(notes - noted(path))}"


@pytest.mark.parametrize("code", CODES)
def test_pass_fixture_is_clean(code: str) -> None:
    assert reported(FIXTURES / code / "pass.xml") == set()


@pytest.mark.parametrize("case", CASES)
def test_case_fixture(case: str) -> None:
    """fail-<case>.xml reports exactly its marked lines, pass-<case>.xml nothing."""
    path = FIXTURES / case
    want = expected(path)
    if path.name.startswith("fail-"):
        assert any(c == path.parent.name for c, _ in want), f"{case} marks no {path.parent.name}"
    got = reported(path)
    assert got == want, f"unexpected: {sorted(got - want)}, missing: {sorted(want - got)}"
    notes = expected(path, EXPECT_NOTE)
    assert notes <= noted(path), f"missing notes: {sorted(notes - noted(path))}"


def test_every_rule_has_fixtures_and_docs() -> None:
    for r in irlint.list_rules():
        assert not missing_doc_sections(r), f"{r.code} docstring lacks {missing_doc_sections(r)}"
        assert r.summary, r.code
        if r.code in NO_FIXTURE or r.pack.startswith("irlint_user_rules"):
            continue
        assert (FIXTURES / r.code / "fail.xml").is_file(), f"{r.code} has no fail fixture"
        assert (FIXTURES / r.code / "pass.xml").is_file(), f"{r.code} has no pass fixture"
