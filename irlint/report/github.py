"""GitHub Actions workflow commands (`::error file=...,line=...::message`), escaped as the runner expects."""

from __future__ import annotations

from collections.abc import Sequence

from irlint.diagnostics import Diagnostic

_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(s: str) -> str:
    return escape_data(s).replace(":", "%3A").replace(",", "%2C")


def render_github(diags: Sequence[Diagnostic]) -> str:
    out = []
    for d in diags:
        props = [f"file={escape_property(d.loc.path)}"]
        if d.loc.line:
            props += [f"line={d.loc.line}", f"col={max(d.loc.column, 1)}"]
        props.append(f"title={escape_property(f'{d.code} {d.rule}'.strip())}")
        message = d.message + (f"\nhelp: {d.hint}" if d.hint else "")
        out.append(f"::{_LEVEL[d.severity.value]} {','.join(props)}::{escape_data(message)}")
    return "".join(line + "\n" for line in out)
