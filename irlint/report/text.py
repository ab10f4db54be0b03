"""Compiler-style text, as rustc and ruff print it.

    path:line:col: CODE [severity] message
      --> path:line:col
       |
    12 | <edge from-layer="0" ... />
       | ^
    note: layers are declared here
      --> path:4:3
       |
     4 | <layer id="0" ...>
       | ^
    help: edges connect layers of the same level

Columns in `Location` are 1-based byte offsets into the line (the loader finds them in the raw
bytes), so the caret is placed from the decoded prefix's display width: tabs, multi-byte UTF-8 and
wide characters stay aligned. IR is deeply indented, so leading indentation is dropped from the
frame. Everything printed is stripped of terminal control characters, since messages and source
lines come from untrusted files.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from irlint.diagnostics import Diagnostic, Location, Severity
from irlint.report.sourcelines import SourceLines

MAX_WIDTH = 100  # display columns of source shown in a frame; longer lines are cut around the caret
TAB = "    "
_STYLES = {
    "error": "1;31",
    "warning": "1;33",
    "info": "1;36",
    "note": "1;32",
    "help": "1;36",
    "gutter": "34",
    "bold": "1",
}


class Painter:
    """ANSI styling that is a no-op when colour is off (the CLI decides: a TTY and no NO_COLOR)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, text: str, style: str) -> str:
        if not self.enabled or not text:
            return text
        return f"\x1b[{_STYLES[style]}m{text}\x1b[0m"


# What `clean` replaces: C0 controls but newline and tab, DEL, C1 controls, lone surrogates, and the
# bidi controls and line/paragraph separators (U+202E would show a name reversed).
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u061c\u200e\u200f\u2028\u2029\u202a-\u202e"
                     "\u2066-\u2069]")


def _stand_in(m: re.Match[str]) -> str:
    o = ord(m.group())
    if o < 0x20:
        return chr(0x2400 + o)  # U+2400.. control pictures: ␀ ␛ ...
    return "\u2421" if o == 0x7F else "\ufffd"  # ␡, or the replacement character


def clean(text: str) -> str:
    """Replace control characters by visible, single-column stand-ins (an ESC in a file must not reach the
    terminal as an escape sequence); newlines and tabs are the caller's business and kept."""
    return _UNSAFE.sub(_stand_in, text)


# Bidi embeddings/overrides/isolates and the line/paragraph separators: shown by `one_line` as \uXXXX escapes.
_INVISIBLE = re.compile("[\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]")


def one_line(text: object) -> str:
    """`text` as one visible line: controls as stand-ins (`clean`), newline and tab as ␤ and ␉, bidi and
    separator characters as \\uXXXX. For what the report quotes (file paths) and every CLI message: a
    newline in a file name must not start a line of its own (a forged `FILE:LINE:COL` finding, or a
    `::warning` command to GitHub Actions)."""
    s = str(text).replace("\n", "\u2424").replace("\t", "\u2409")
    return clean(_INVISIBLE.sub(lambda m: f"\\u{ord(m.group()):04x}", s))


def char_width(ch: str) -> int:
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _display(text: str) -> str:
    return clean(text).replace("\t", TAB).replace("\n", " ")


def _window(text: str, caret: int, width: int) -> tuple[str, int]:
    """Cut `text` to about `width` columns around character index `caret` (a third before it);
    returns the shown text, with an ellipsis at each cut end, and the caret's index in it."""
    widths = [1] * len(text) if text.isascii() else [char_width(c) for c in text]
    if sum(widths) <= width:
        return text, caret
    start, budget = caret, width // 3
    while start > 0 and widths[start - 1] <= budget:
        budget -= widths[start - 1]
        start -= 1
    end, budget = caret, width - sum(widths[start:caret])
    while end < len(text) and widths[end] <= budget:
        budget -= widths[end]
        end += 1
    while start > 0 and widths[start - 1] <= budget:  # near the line's end: spend the rest before the caret
        budget -= widths[start - 1]
        start -= 1
    head = "…" if start > 0 else ""
    tail = "…" if end < len(text) else ""
    return head + text[start:end] + tail, caret - start + len(head)


def _snippet(loc: Location, sources: SourceLines, gutter: int, paint: Painter, style: str) -> list[str]:
    """The source line of `loc` with a caret under its column; empty when the line is unavailable."""
    raw = sources.line(loc.path, loc.line)
    if raw is None:
        return []
    col = max(loc.column, 1)
    if col - 1 > len(raw):  # a column past the (possibly truncated) line: no honest caret to draw
        return []
    before = _display(raw[: col - 1].decode("utf-8", "replace"))
    after = _display(raw[col - 1 :].decode("utf-8", "replace"))
    shown, caret = before + after, len(before)
    indent = len(shown) - len(shown.lstrip(" "))
    if caret >= indent:
        shown, caret = shown[indent:], caret - indent
    if caret <= len(shown.rstrip()):  # keep trailing blanks only when the caret points into them
        shown = shown.rstrip()
    shown, caret = _window(shown, caret, MAX_WIDTH)
    head = shown[:caret]
    pad = " " * (caret if head.isascii() else sum(char_width(c) for c in head))
    bar = paint("|", "gutter")
    blank = " " * gutter
    return [
        f"{blank} {bar}",
        f"{paint(str(loc.line).rjust(gutter), 'gutter')} {bar} {shown}",
        f"{blank} {bar} {pad}{paint('^', style)}",
    ]


def _arrow(loc: Location, gutter: int, paint: Painter) -> str:
    return f"{' ' * gutter}{paint('-->', 'gutter')} {one_line(loc)}"


def _indent_continuation(text: str) -> str:
    """A message, note or hint: its later lines (a --debug traceback) indented behind a bar, so that no line
    of it starts, even after blanks, as a finding (`FILE:LINE:COL:`) or a GitHub Actions command (`::`)."""
    return "\n    | ".join(one_line(line) for line in text.split("\n"))


def format_diagnostic(d: Diagnostic, sources: SourceLines, paint: Painter) -> list[str]:
    """One finding: headline, its code frame, a note (with frame) per related location, the hint."""
    sev = d.severity.value
    gutter = max(len(str(loc.line)) for loc in (d.loc, *(r.loc for r in d.related)))
    out = [
        f"{paint(one_line(d.loc), 'bold')}: {paint(d.code, sev)} {'[*] ' if d.fix == 'safe' else ''}"
        f"[{paint(sev, sev)}] "
        f"{_indent_continuation(d.message)}"
    ]
    frame = _snippet(d.loc, sources, gutter, paint, sev)
    if frame:
        out += [_arrow(d.loc, gutter, paint), *frame]
    for r in d.related:
        out.append(f"{paint('note', 'note')}: {_indent_continuation(r.note)}")
        out.append(_arrow(r.loc, gutter, paint))
        out += _snippet(r.loc, sources, gutter, paint, "note")
    if d.hint:
        out.append(f"{paint('help', 'help')}: {_indent_continuation(d.hint)}")
    return out


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary(diags: Sequence[Diagnostic], n_checked: int) -> str:
    """The last line, in mypy's manner: what was found and in how many files.

    "All checks passed." when there is no error or warning (info findings are counted in parentheses);
    otherwise "Found 3 errors, 1 warning in 2 files.", adding "(checked N files)" when fewer files
    had findings than were checked.
    """
    counts = {s: sum(1 for d in diags if d.severity is s) for s in Severity}
    parts = [
        _plural(counts[s], word)
        for s, word in ((Severity.ERROR, "error"), (Severity.WARNING, "warning"), (Severity.INFO, "info"))
        if counts[s]
    ]
    if not counts[Severity.ERROR] and not counts[Severity.WARNING]:
        return f"All checks passed ({parts[0]})." if parts else "All checks passed."
    with_findings = len({d.loc.path for d in diags})
    checked = f" (checked {_plural(n_checked, 'file')})" if n_checked > with_findings else ""
    return f"Found {', '.join(parts)} in {_plural(with_findings, 'file')}{checked}."


def render_text(diags: Sequence[Diagnostic], *, files: Sequence[str], color: bool = False) -> str:
    """`diags` in the order given (`irlint.report.render` sorts them), a blank line after each, the summary."""
    paint = Painter(color)
    sources = SourceLines(loc for d in diags for loc in (d.loc, *(r.loc for r in d.related)))
    out: list[str] = []
    for d in diags:
        out += format_diagnostic(d, sources, paint)
        out.append("")
    out.append(paint(summary(diags, len(files)), "bold"))
    return "\n".join(out) + "\n"
