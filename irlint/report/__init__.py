"""Reporters: the same diagnostics as text (like a compiler), concise (one line each), JSON, SARIF 2.1.0,
GitHub annotations, JUnit.

`render` is the one entry point; each format lives in its own module, imported only when used (so
that only `--format junit` pays for importing lxml's etree).
"""

from __future__ import annotations

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
