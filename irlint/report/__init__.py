"""Reporters: the same diagnostics as text (like a compiler), concise (one line each), JSON, SARIF 2.1.0,
GitHub annotations, JUnit.

`render` is the one entry point; each format lives in its own module, imported only when used (so
that only `--format junit` pays for importing lxml's etree).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from irlint.diagnostics import Diagnostic
from irlint.report.ruleinfo import RuleInfo

FORMATS = ("text", "concise", "json", "sarif", "github", "junit")


def render(
    fmt: str,
    diagnostics: Sequence[Diagnostic],
    *,
    files: Sequence[str],
    rules: Mapping[str, RuleInfo],
    color: bool = False,
) -> str:
    """The report in `fmt` for `diagnostics` found in `files`, sorted by path, line, column and code.

    `rules` maps codes to their metadata (SARIF descriptors); `color` adds ANSI styles to text only.
    """
    return _escape_controls(fmt, _render(fmt, diagnostics, files=files, rules=rules, color=color))


# Characters a terminal acts on (DEL, C1 controls such as CSI U+009B and NEL U+0085) or that reorder
# what is shown (bidi controls, separators), which model names may hold. The text report replaces them
# itself; the data formats escape them losslessly (JSON \uXXXX, XML character references).
_TERMINAL = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
# A lone surrogate: a file name that is not valid UTF-8 (Python keeps each undecodable byte as U+DC80..U+DCFF)
# or a rule pack's string. No UTF-8 text can hold one, so the data formats show U+FFFD in its place.
_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape_controls(fmt: str, text: str) -> str:
    if fmt in ("json", "sarif", "github"):
        text = _SURROGATE.sub("\ufffd", text)
    if fmt in ("json", "sarif"):
        return _TERMINAL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    if fmt == "junit":
        return _TERMINAL.sub(lambda m: f"&#x{ord(m.group()):x};", text)
    if fmt == "github":
        return _TERMINAL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text


def _render(fmt: str, diagnostics: Sequence[Diagnostic], *, files: Sequence[str], rules: Mapping[str, RuleInfo],
            color: bool) -> str:
    diags = sorted(diagnostics, key=Diagnostic.sort_key)
    if fmt == "text":
        from irlint.report.text import render_text

        return render_text(diags, files=files, color=color)
    if fmt == "concise":
        from irlint.report.concise import render_concise

        return render_concise(diags, files=files, color=color)
    if fmt == "json":
        from irlint.report.json_format import render_json

        return render_json(diags)
    if fmt == "sarif":
        from irlint.report.sarif import render_sarif

        return render_sarif(diags, files=files, rules=rules)
    if fmt == "github":
        from irlint.report.github import render_github

        return render_github(diags)
    if fmt == "junit":
        from irlint.report.junit import render_junit

        return render_junit(diags, files=files)
    raise ValueError(f"unknown report format {fmt!r} (known: {', '.join(FORMATS)})")


__all__ = ["FORMATS", "RuleInfo", "render"]
