"""GitHub workflow commands: golden output and the runner's escaping rules."""

from __future__ import annotations

from irlint.diagnostics import Diagnostic, Location, Severity
from irlint.report import render
from irlint.report.github import escape_data, escape_property
from tests.report.sample import FILES, RULES, assert_golden, sample


def test_golden() -> None:
    assert_golden("github.txt", render("github", sample(), files=FILES, rules=RULES))


def test_escape_data() -> None:
    assert escape_data("100% a\r\nb") == "100%25 a%0D%0Ab"
    assert escape_data("a,b:c") == "a,b:c"  # only properties escape , and :
    assert escape_data("esc \x1b[31m") == "esc [31m"


def test_escape_property() -> None:
    assert escape_property("dir,with:colons/m%.xml") == "dir%2Cwith%3Acolons/m%25.xml"
    assert escape_property("a\nb") == "a%0Ab"


def test_one_command_per_diagnostic_with_levels() -> None:
    lines = render("github", sample(), files=FILES, rules=RULES).splitlines()
    assert len(lines) == len(sample())
    assert [line.split(" ", 1)[0] for line in lines] == [
        "::error",
        "::warning",
        "::error",
        "::notice",
        "::notice",
        "::notice",
    ]


def test_properties_and_message() -> None:
    d = Diagnostic(
        "PM401",
        Severity.ERROR,
        "bad\nthing",
        Location("models/a,b:c.xml", 3, 0),
        hint="fix: it",
    )
    out = render("github", [d], files=[], rules=RULES)
    assert out == "::error file=models/a%2Cb%3Ac.xml,line=3,col=1,title=PM401::bad%0Athing%0Ahelp: fix: it\n"


def test_file_level_finding_has_no_line() -> None:
    d = Diagnostic("W301", Severity.WARNING, "m", Location("m.xml"))
    assert render("github", [d], files=[], rules=RULES) == "::warning file=m.xml,title=W301::m\n"


def test_absolute_path_below_cwd_is_made_relative() -> None:
    import os

    d = Diagnostic("W301", Severity.INFO, "m", Location(os.path.abspath("tests/report/data/model.xml")))
    assert render("github", [d], files=[], rules=RULES).startswith("::notice file=tests/report/data/model.xml,")
