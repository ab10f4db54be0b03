"""How the debugger puts a model's strings on the screen: plain text (never Rich markup), control and
bidi characters made visible, and lists fitted into a few lines without cutting an item."""

from __future__ import annotations

from rich.text import Text

from irlint.cli.printing import safe


def safe_lines(text: object) -> str:
    """A model's string for the screen: control, bidi and separator characters made visible (as every
    printer does), line breaks kept; shown as plain text, never parsed as Rich markup."""
    return safe(text).replace("\u2424", "\n")


def plain(text: object, style: str = "") -> Text:
    return Text(safe_lines(text), style=style)


def fit_items(head: str, items: list[str], width: int, lines: int, sep: str = ", ", more: str = "(l: the log)") -> str:
    """`head` and as many whole `items` as fit in `lines` lines of `width` columns (an item is never
    split across lines), then how many more there are (and where to see them): nothing is cut in the
    middle."""
    for shown in range(len(items), -1, -1):
        rest = len(items) - shown
        tokens = head.split() + [it + (sep if i < shown - 1 or rest else "") for i, it in enumerate(items[:shown])]
        if rest:
            tokens.append(f"... {rest} more {more}".rstrip())
        out: list[str] = []
        for tok in tokens:
            if out and len(out[-1]) + 1 + len(tok) <= width:
                out[-1] += " " + tok
            else:
                out.append(tok)
        if len(out) <= lines and all(len(line) <= width for line in out):
            return "\n".join(out)
    return head


def keep_tail(name: str, width: int) -> str:
    """`name` in at most `width` characters, its start given way to `…`: Keras and PyTorch names share
    long scope prefixes (`functional_1_1/lstm_1_1/while/...`), their ends tell the layers apart."""
    if len(name) <= width:
        return name
    return "…" + name[len(name) - max(1, width - 1) :]
