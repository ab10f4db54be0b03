"""GitHub Actions workflow commands: `::error file=F,line=L,col=C,title=CODE::message`, one per line.

The runner splits a command at newlines and its properties at `,` and `:`, so data escapes `%`,
CR and LF, and property values additionally `:` and `,` (the escaping of actions/toolkit's
`command.ts`). Notes and the hint follow the message on their own (escaped) lines, which the
annotation shows. GitHub has no `info` level; it becomes `notice`.
"""

from __future__ import annotations

from collections.abc import Sequence

from irlint.diagnostics import Diagnostic
from irlint.report.paths import display_path

COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}


def escape_data(s: str) -> str:
    """Escape for the message; other control characters (an ESC from a hostile file) are dropped."""
    s = s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return "".join(c for c in s if c == "\t" or not (ord(c) < 0x20 or ord(c) == 0x7F))


def escape_property(s: str) -> str:
    return escape_data(s).replace(":", "%3A").replace(",", "%2C")


def format_annotation(d: Diagnostic) -> str:
    props = [f"file={escape_property(display_path(d.loc.path))}"]
    if d.loc.line > 0:
        props += [f"line={d.loc.line}", f"col={max(d.loc.column, 1)}"]
    props.append(f"title={escape_property(d.code)}")
    lines = [d.message]
    lines += [f"note: {r.note} --> {r.loc}" for r in d.related]
    if d.hint:
        lines.append(f"help: {d.hint}")
    return f"::{COMMANDS[d.severity.value]} {','.join(props)}::{escape_data(chr(10).join(lines))}"


def render_github(diags: Sequence[Diagnostic]) -> str:
    return "".join(format_annotation(d) + "\n" for d in diags)
