"""JUnit XML: a test suite per checked file, a test case per file, a failure per error or warning."""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from irlint.diagnostics import Diagnostic, Severity


def render_junit(diags: Sequence[Diagnostic], *, files: Sequence[str]) -> str:
    by_file: dict[str, list[Diagnostic]] = {f: [] for f in files}
    for d in diags:
        by_file.setdefault(d.loc.path, []).append(d)
    root = etree.Element("testsuites", name="irlint")
    total_failures = 0
    for path, found in by_file.items():
        failing = [d for d in found if d.severity is not Severity.INFO]
        total_failures += len(failing)
        suite = etree.SubElement(root, "testsuite", name=path, tests="1", failures=str(len(failing)),
                                 errors="0", skipped="0")
        case = etree.SubElement(suite, "testcase", name="irlint", classname=path)
        for d in failing:
            fail = etree.SubElement(case, "failure", type=d.code,
                                    message=f"{d.loc}: {d.code} {_xml_safe(d.message)}")
            fail.text = _xml_safe(f"{d.loc}: {d.code} [{d.severity.value}] {d.message}"
                                  + (f"\nhelp: {d.hint}" if d.hint else ""))
        infos = [d for d in found if d.severity is Severity.INFO]
        if infos:
            out = etree.SubElement(case, "system-out")
            out.text = _xml_safe("\n".join(f"{d.loc}: {d.code} {d.message}" for d in infos))
    root.set("tests", str(len(by_file)))
    root.set("failures", str(total_failures))
    return etree.tostring(root, pretty_print=True, xml_declaration=True, encoding="UTF-8").decode()


def _xml_safe(s: str) -> str:
    """Drop characters XML 1.0 cannot carry (control characters from hostile input)."""
    return "".join(c for c in s if c in "\t\n\r" or (ord(c) >= 0x20 and ord(c) not in (0xFFFE, 0xFFFF)))
