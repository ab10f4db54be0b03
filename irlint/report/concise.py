"""`--format concise`: one line per finding, as ruff's concise output, then the summary.

    path:line:col: CODE [*] [severity] message

`[*]` marks a finding that `irlint check --fix` repairs, as in the text report (a finding whose only fix
is unsafe is not marked). No source frames, notes or hints (use `text` for those); a message of several lines is joined
into one, so that `grep` and editors' quickfix lists see one finding per line.
"""

from __future__ import annotations

from collections.abc import Sequence

from irlint.diagnostics import Diagnostic
from irlint.report.text import Painter, clean, one_line, summary


def format_concise(d: Diagnostic, paint: Painter) -> str:
    sev = d.severity.value
    message = " ".join(clean(d.message).split())
    mark = "[*] " if d.fix == "safe" else ""
    return f"{paint(one_line(d.loc), 'bold')}: {paint(d.code, sev)} {mark}[{paint(sev, sev)}] {message}"


def render_concise(diags: Sequence[Diagnostic], *, files: Sequence[str], color: bool = False) -> str:
    paint = Painter(color)
    out = [format_concise(d, paint) for d in diags]
    out.append(paint(summary(diags, len(files)), "bold"))
    return "\n".join(out) + "\n"
