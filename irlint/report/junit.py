"""JUnit XML, for CI systems that only read test reports (GitLab, Jenkins, Azure).

A `testsuite` per checked file holding one `testcase` for that file; each error or warning is a
`failure` of it (Jenkins' schema allows several), info findings go to `system-out`. lxml does the
escaping of `<>&"`; characters XML 1.0 cannot carry at all (control characters out of a hostile
file) are dropped, and a lone surrogate (an undecodable byte of a file name) becomes U+FFFD, so the
output always parses.
"""

from __future__ import annotations

from collections.abc import Sequence

from lxml import etree

from irlint.diagnostics import Diagnostic, Severity


def xml_safe(s: str) -> str:
    """`s` without the characters XML 1.0 forbids (C0 controls but tab/LF/CR, U+FFFE/U+FFFF); a surrogate
    becomes U+FFFD (a file name's undecodable byte still shows where it was)."""
    return "".join(
        "\ufffd" if 0xD800 <= ord(c) < 0xE000 else c
        for c in s
        if c in "\t\n\r" or (0x20 <= ord(c) < 0xFFFE or ord(c) >= 0x10000)
    )


def _describe(d: Diagnostic) -> str:
    lines = [f"{d.loc}: {d.code} [{d.severity.value}] {d.message}"]
    lines += [f"note: {r.note} --> {r.loc}" for r in d.related]
    if d.hint:
        lines.append(f"help: {d.hint}")
    return xml_safe("\n".join(lines))


def render_junit(diags: Sequence[Diagnostic], *, files: Sequence[str]) -> str:
    by_file: dict[str, list[Diagnostic]] = {f: [] for f in files}
    for d in diags:
        by_file.setdefault(d.loc.path, []).append(d)
    root = etree.Element("testsuites", name="irlint")
    total = 0
    for path, found in by_file.items():
        failing = [d for d in found if d.severity is not Severity.INFO]
        total += len(failing)
        suite = etree.SubElement(
            root, "testsuite", name=xml_safe(path), tests="1", failures=str(len(failing)), errors="0", skipped="0"
        )
        case = etree.SubElement(suite, "testcase", name=xml_safe(path), classname="irlint")
        for d in failing:
            first_line = d.message.splitlines()[0] if d.message else ""
            failure = etree.SubElement(
                case, "failure", type=xml_safe(d.code), message=xml_safe(f"{d.code}: {first_line}")
            )
            failure.text = _describe(d)
        infos = [d for d in found if d.severity is Severity.INFO]
        if infos:
            etree.SubElement(case, "system-out").text = "\n".join(_describe(d) for d in infos)
    root.set("tests", str(len(by_file)))
    root.set("failures", str(total))
    root.set("errors", "0")
    data: bytes = etree.tostring(root, pretty_print=True, xml_declaration=True, encoding="UTF-8")
    return data.decode("utf-8")
