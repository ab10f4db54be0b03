"""Where to split a file between the two processes: a byte scan for a `<layer` and its `<layers>`.

The scan guesses, and the parser checks the guess (`irlint.ir.twocore.child`); the scan only has to
give up on anything that could make a byte scan wrong: comments, CDATA, DOCTYPE, processing
instructions, an encoding other than UTF-8, `<layers>` nested deeper than a top-level body.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from irlint.ir.source import ReadAt

MIN_BYTES = 1 << 20  # ~2,500 layers; at 1,000 layers (0.4 MB) fork and pickle cost what they save
SCAN = 1 << 20  # bytes read at a time by the scan
_LOOKBACK = 1 << 16  # how far before a <body> its layer's start tag is looked for
_ID = re.compile(rb"\sid\s*=\s*[\"']\s*(\d+)\s*[\"']")
_ENCODING = re.compile(rb"encoding\s*=\s*[\"']([^\"']*)[\"']")


class SplitPoint(NamedTuple):
    """Where the child starts (the offset of a `<layer`) and which `<layers>` holds that layer."""

    at: int
    owner: str  # "" for the top level, else the id of the top-level layer whose body it is

    def prefix(self) -> bytes:
        """A document opening the same elements as the file does at `at` (minus what the child does not need)."""
        body = f'<layer id="{self.owner}"><body><layers>' if self.owner else ""
        return f"<net><layers>{body}".encode()


def find_split(read: ReadAt, size: int, at: int | None = None) -> SplitPoint | None:
    """Where to split a file of `size` bytes (the first `<layer` from `at`, default the middle), or None."""
    head = read(0, 512)
    m = _ENCODING.search(head[:head.find(b"?>")]) if head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<?xml") else None
    if m and m.group(1).lower().replace(b"_", b"-") not in (b"utf-8", b"utf8"):
        return None
    split = _next_layer(read, size // 2 if at is None else at, size)
    if split is None:
        return None
    opened: list[int] = []  # offsets of the <body> elements open at the split
    decls = 0
    for pos, token in _tokens(read, split):
        if token == b"<!":
            return None
        if token == b"<?":
            decls += 1
            if decls > 1 or pos > 3:
                return None
        elif token == b"</body":
            if not opened:
                return None
            opened.pop()
        else:
            opened.append(pos)
    if not opened:
        return SplitPoint(split, "")
    if len(opened) > 1:
        return None
    before = read(max(0, opened[0] - _LOOKBACK), min(opened[0], _LOOKBACK))
    tag = before.rfind(b"<layer")
    ident = _ID.search(before, tag + 6, before.find(b">", tag)) if tag >= 0 else None
    return SplitPoint(split, str(int(ident.group(1)))) if ident else None


def _next_layer(read: ReadAt, start: int, size: int) -> int | None:
    """The offset of the first `<layer` at or after `start` (an edge list may come first)."""
    for pos in range(start, size, SCAN):
        found = re.search(rb"<layer[\s>/]", read(pos, SCAN + 8))
        if found is not None:
            return pos + found.start()
    return None


_TOKEN = re.compile(rb"<!|<\?|</body\s*>|<body[\s>]")


def _tokens(read: ReadAt, end: int) -> list[tuple[int, bytes]]:
    """The offsets of `<!`, `<?`, `<body>` and `</body>` before `end` (`<body/>` is neither)."""
    out: list[tuple[int, bytes]] = []
    pos, keep = 0, 8  # chunks overlap by `keep` bytes so that no token is cut
    while pos < end:
        chunk = read(pos, min(SCAN + keep, end - pos + keep))
        if not chunk:
            break
        for m in _TOKEN.finditer(chunk):
            if m.start() >= SCAN or pos + m.start() >= end:
                break
            t = m.group()
            out.append((pos + m.start(), b"</body" if t.startswith(b"</") else t[:5] if t.startswith(b"<body") else t))
        pos += SCAN
    return out
