"""Hostile model names, layer names and file names through every machine format: each output stays valid
for the program that reads it (a JSON parser, the SARIF schema, an XML parser, the GitHub Actions runner),
also on a stream that carries only ASCII."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest
from lxml import etree

from irlint.diagnostics import Diagnostic, Location, Related, Severity
from irlint.report import render
from tests.report.sample import MODEL, RULES
from tests.report.test_sarif import validate

NAMES = [
    '<a> {INJECTED [label="x"]} digraph <b>',  # DOT injection
    "</x><y>",  # closes an HTML-like label
    "q\"u'o`te",
    "two\nlines\r\nand\rCR",
    "x\n::error file=a.xml,line=1::forged\n::warning::y",  # a workflow command on a line of its own
    "%0A::error::escaped%0D%25",  # the runner's own escapes, written literally
    "]]><![CDATA[x]]>&amp;&lt;",  # XML-breaking
    "c\x00\x01\x08\x0b\x1b[2J\x7f\x85\x9b",  # C0 (XML 1.0 cannot hold them), ESC, DEL, C1
    "bidi\u202eLTR\u2066\u2028\u2029",
    "lone\ud800surrogates\udcff",  # a pack's string; an undecodable file-name byte
    "nonchar\ufffe\uffff",
    "ünïcode 名前 😀",
]
# Where a file name is the hostile part: an undecodable byte (U+DCFF), a newline, the runner's separators.
PATHS = ["bad\udcffname.xml", "x\n::error file=y::z.xml", "a,b:c%0A.xml"]


def hostile() -> list[Diagnostic]:
    out = []
    for i, name in enumerate(NAMES):
        out.append(
            Diagnostic(
                "G101",
                Severity.ERROR,
                f"layer 3 '{name}' reuses id 3",
                Location(MODEL, i + 1, 2),
                "duplicate-layer-id",
                f"{i}/body/{name}",
                0,
                (Related(Location(MODEL, 1, 1), f"first used by '{name}'"),),
                f"rename '{name}'",
            )
        )
    for i, path in enumerate(PATHS):
        out.append(
            Diagnostic(
                "W301",
                Severity.WARNING,
                f"the weights file {path}.bin is missing",
                Location(path, i + 1),
                "weights-file-unusable",
            )
        )
    return out


FILES = [MODEL, *PATHS]


def _expected(s: str) -> str:
    """What a JSON string holds for `s`: everything, each lone surrogate as U+FFFD."""
    return re.sub("[\ud800-\udfff]", "\ufffd", s)


def test_json_parses_and_keeps_every_name() -> None:
    text = render("json", hostile(), files=FILES, rules=RULES)
    text.encode("utf-8")  # valid UTF-8: no lone surrogate left
    data = json.loads(text)
    got = {
        (d["path"], d["message"], d["layer"], d["hint"], d["related"][0]["note"] if d["related"] else None)
        for d in data
    }
    want = {
        (
            _expected(d.loc.path),
            _expected(d.message),
            d.layer and _expected(d.layer),
            d.hint and _expected(d.hint),
            d.related[0].note and _expected(d.related[0].note) if d.related else None,
        )
        for d in hostile()
    }
    assert got == want


def test_sarif_validates_and_names_files_by_their_bytes() -> None:
    text = render("sarif", hostile(), files=FILES, rules=RULES)
    text.encode("utf-8")
    log = json.loads(text)
    validate(log)
    run = log["runs"][0]
    assert {_expected(d.message) for d in hostile()} == {r["message"]["text"] for r in run["results"]}
    uris = [a["location"]["uri"] for a in run["artifacts"]]
    assert "bad%FFname.xml" in uris  # the undecodable byte itself, percent-encoded
    assert "x%0A%3A%3Aerror%20file%3Dy%3A%3Az.xml" in uris and "a%2Cb%3Ac%250A.xml" in uris


def _both_parsers(text: str) -> etree._Element:
    data = text.encode("utf-8")
    ET.fromstring(data)  # the standard library's parser agrees
    return etree.fromstring(data)


def test_junit_parses_with_every_name() -> None:
    root = _both_parsers(render("junit", hostile(), files=FILES, rules=RULES))
    failures = root.findall(".//failure")
    assert len(failures) == len(hostile())
    messages = " ".join(f.get("message") + f.text for f in failures)
    for name in (
        '<a> {INJECTED [label="x"]} digraph <b>',
        "</x><y>",
        "]]><![CDATA[x]]>&amp;&lt;",
        "ünïcode 名前 😀",
        "lone\ufffdsurrogates\ufffd",
    ):
        assert name in messages
    assert {s.get("name") for s in root.iter("testsuite")} == {
        MODEL,
        "bad\ufffdname.xml",
        "x\n::error file=y::z.xml",
        "a,b:c%0A.xml",
    }


def _runner_commands(text: str) -> list[tuple[str, dict[str, str], str]]:
    """The workflow commands the Actions runner finds in `text`: it reads lines (split at CR, LF or CRLF) and
    takes each that starts with `::` after blanks as `::NAME PROPS::DATA`, then undoes the escapes."""

    def unescape(s: str, prop: bool) -> str:
        s = s.replace("%0D", "\r").replace("%0A", "\n")
        if prop:
            s = s.replace("%3A", ":").replace("%2C", ",")
        return s.replace("%25", "%")

    out = []
    for line in re.split(r"\r\n|\r|\n", text):
        if not line.lstrip().startswith("::"):
            continue
        head, _, data = line.lstrip()[2:].partition("::")
        name, _, props = head.partition(" ")
        fields = dict(p.split("=", 1) for p in props.split(",") if p)
        out.append((name, {k: unescape(v, True) for k, v in fields.items()}, unescape(data, False)))
    return out


def test_github_annotations_start_no_command_of_their_own() -> None:
    diags = hostile()
    text = render("github", diags, files=FILES, rules=RULES)
    text.encode("utf-8")
    commands = _runner_commands(text)
    assert len(commands) == len(diags) == len(text.splitlines())  # one command a finding, none forged
    ordered = sorted(diags, key=Diagnostic.sort_key)
    for (name, props, data), d in zip(commands, ordered):
        assert name == {"error": "error", "warning": "warning"}[d.severity.value]
        assert set(props) <= {"file", "line", "col", "title"} and props["title"] == d.code
        assert props["file"] == _expected(d.loc.path)  # a file name's newline and separators come back intact
        assert data.startswith(d.message.split("\n")[0].split("\r")[0].replace("\x00", "")[:8])


@pytest.mark.parametrize("fmt", ["json", "sarif", "junit", "github", "text", "concise"])
def test_an_ascii_stream_gets_escapes_in_the_formats_own_syntax(fmt: str) -> None:
    from irlint.report.charset import fit_encoding

    text = render(fmt, hostile(), files=FILES, rules=RULES)
    ascii_text = fit_encoding(fmt, text, "ascii")
    ascii_text.encode("ascii")
    if fmt in ("json", "sarif"):
        assert json.loads(ascii_text) == json.loads(text)  # lossless
    elif fmt == "junit":
        assert etree.tostring(etree.fromstring(ascii_text.encode())) == etree.tostring(etree.fromstring(text.encode()))
    elif fmt == "github":
        assert len(_runner_commands(ascii_text)) == len(hostile())
        assert "\\u540d" in ascii_text  # 名, shown as an escape
    else:
        assert "\\u540d" in ascii_text
    assert fit_encoding(fmt, text, "utf-8") == text
