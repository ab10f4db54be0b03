"""JUnit XML: golden output, structure and counts, escaping that always parses."""

from __future__ import annotations

from lxml import etree

from irlint.diagnostics import Diagnostic, Location, Severity
from irlint.report import render
from irlint.report.junit import xml_safe
from tests.report.sample import FILES, MODEL, ODD, RULES, assert_golden, sample


def parse(diags: list[Diagnostic], files: list[str]) -> etree._Element:
    return etree.fromstring(render("junit", diags, files=files, rules=RULES).encode("utf-8"))


def test_golden() -> None:
    assert_golden("junit.xml", render("junit", sample(), files=FILES, rules=RULES))


def test_a_suite_and_a_case_per_file_a_failure_per_error_or_warning() -> None:
    root = parse(sample(), FILES)
    assert root.tag == "testsuites" and root.get("tests") == "2" and root.get("failures") == "3"
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert list(suites) == FILES
    assert suites[MODEL].get("failures") == "3" and suites[ODD].get("failures") == "0"
    for suite in suites.values():
        assert len(suite.findall("testcase")) == 1 and suite.get("tests") == "1"
    assert [f.get("type") for f in suites[MODEL].iter("failure")] == ["W301", "T203", "G102"]
    assert suites[ODD].find("testcase/failure") is None
    assert "G110 [info]" in suites[ODD].findtext("testcase/system-out")


def test_clean_file_is_a_passing_case_and_unlisted_paths_get_a_suite() -> None:
    extra = Diagnostic("G102", Severity.WARNING, "m", Location("other.xml", 1, 1))
    root = parse([extra], [MODEL])
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert suites[MODEL].find("testcase") is not None and suites[MODEL].find("testcase/failure") is None
    assert suites["other.xml"].get("failures") == "1"


def test_escaping_round_trips_through_a_parser() -> None:
    message = "a <b> & \"c\" 'd' ünïcode 名前\nsecond line"
    root = parse([Diagnostic("T203", Severity.ERROR, message, Location(MODEL, 7, 5), hint="<x/> & y")], [MODEL])
    failure = root.find(".//failure")
    assert failure.get("message") == "T203: a <b> & \"c\" 'd' ünïcode 名前"
    assert failure.text == f"{MODEL}:7:5: T203 [error] {message}\nhelp: <x/> & y"


def test_characters_xml_cannot_carry_are_dropped() -> None:
    assert xml_safe("a\x00b\x1bc\x7fd\ufffee\tf\ud800g😀") == "abc\x7fde\tf\ufffdg😀"  # a surrogate shows as U+FFFD
    root = parse([Diagnostic("G102", Severity.ERROR, "bad \x01\x1b char", Location(MODEL, 1, 1))], [MODEL])
    assert root.find(".//failure").get("message") == "G102: bad  char"
