"""Compiler-style text: `path:line:col: CODE [severity] message`, the source line with a caret, notes, help."""

from __future__ import annotations

from collections.abc import Sequence

from irlint.diagnostics import Diagnostic, Location, Severity
from irlint.report.sourcelines import SourceLines

MAX_WIDTH = 110
TAB = "    "
_COLORS = {"error": "31", "warning": "33", "info": "34", "help": "36", "note": "32", "bold": "1", "dim": "2"}


class _Painter:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, style: str) -> str:
        if not self.enabled:
            return text
        return f"\x1b[{_COLORS[style]}m{text}\x1b[0m"


def _frame(lines: SourceLines, loc: Location, paint: _Painter, style: str) -> list[str]:
    """The source line of `loc` with a caret under its column; empty if the line is unavailable."""
    text = lines.line(loc.path, loc.line)
    if text is None:
        return []
    col = max(loc.column, 1)
    before = text[: col - 1].replace("\t", TAB)
    shown = before + text[col - 1 :].replace("\t", TAB)
    caret_at = len(before)
    lead = len(shown) - len(shown.lstrip())
    if caret_at >= lead:  # IR is deeply indented: drop the indentation, keep the caret aligned
        shown, caret_at = shown[lead:], caret_at - lead
    if len(shown) > MAX_WIDTH:  # keep a window around the caret
        start = max(0, min(caret_at - MAX_WIDTH // 3, len(shown) - MAX_WIDTH))
        shown = ("…" if start else "") + shown[start : start + MAX_WIDTH] + "…"
        caret_at = caret_at - start + (1 if start else 0)
    gutter = str(loc.line)
    pad = " " * len(gutter)
    bar = paint("|", "dim")
    return [
        f" {pad} {bar}",
        f" {paint(gutter, 'dim')} {bar} {shown.rstrip()}",
        f" {pad} {bar} {' ' * caret_at}{paint('^', style)}",
    ]


def format_diagnostic(d: Diagnostic, lines: SourceLines, paint: _Painter) -> list[str]:
    sev = d.severity.value
    message = d.message.replace("\n", "\n    ")  # keep continuation lines visibly inside the finding
    head = f"{d.loc}: {paint(d.code, 'bold')} [{paint(sev, sev)}] {message}"
    out = [head]
    out += _frame(lines, d.loc, paint, sev)
    for r in d.related:
        out.append(f" {paint('note', 'note')}: {r.note} --> {r.loc}")
        out += _frame(lines, r.loc, paint, "note")
    if d.hint:
        out.append(f" {paint('help', 'help')}: {d.hint}")
    return out


def summary(diags: Sequence[Diagnostic], n_files: int) -> str:
    counts = {s: sum(1 for d in diags if d.severity is s) for s in Severity}
    files = f"{n_files} file{'s' if n_files != 1 else ''}"
    if not counts[Severity.ERROR] and not counts[Severity.WARNING]:
        extra = ""
        if counts[Severity.INFO]:
            n = counts[Severity.INFO]
            extra = f" ({n} info note{'s' if n != 1 else ''})"
        return f"All checks passed: no errors or warnings in {files}{extra}."
    parts = []
    for s, word in ((Severity.ERROR, "error"), (Severity.WARNING, "warning"), (Severity.INFO, "info note")):
        n = counts[s]
        if n:
            parts.append(f"{n} {word}{'s' if n != 1 else ''}")
    return f"Found {', '.join(parts)} in {files}."


def render_text(diags: Sequence[Diagnostic], *, files: Sequence[str], color: bool = False) -> str:
    paint = _Painter(color)
    lines = SourceLines()
    out: list[str] = []
    for d in diags:
        out += format_diagnostic(d, lines, paint)
        out.append("")
    out.append(summary(diags, len(files)))
    return "\n".join(out) + "\n"
