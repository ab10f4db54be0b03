"""Lines of the checked files, for code frames and column conversion.

A model's XML can be tens of megabytes and a report needs a handful of its lines, so a file is read
once, on first use, as a stream that keeps only the lines asked for and stops after the last of
them. Files are opened read-only; a file that cannot be read, is not a regular file or looks
binary yields no lines, and the reporters then simply leave the frame out.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from typing import BinaryIO

from irlint.diagnostics import Location

MAX_LINE_BYTES = 1 << 20  # a longer line is kept truncated; its tail is skipped, not buffered


class SourceLines:
    """`line(path, n)` is the raw bytes of 1-based line n (without its newline), or None."""

    def __init__(self, wanted: Iterable[Location] = ()) -> None:
        self._wanted: dict[str, set[int]] = {}
        self._cache: dict[str, dict[int, bytes]] = {}
        for loc in wanted:
            self.want(loc)

    def want(self, loc: Location) -> None:
        """Register a line to be kept when its file is read (before the first `line` call on it)."""
        if loc.line > 0:
            self._wanted.setdefault(loc.path, set()).add(loc.line)

    def line(self, path: str, n: int) -> bytes | None:
        if n < 1:
            return None
        wanted = self._wanted.setdefault(path, set())
        if path in self._cache and n not in wanted:  # an unregistered line: read the file again
            del self._cache[path]
        wanted.add(n)
        if path not in self._cache:
            self._cache[path] = _read_lines(path, wanted)
        return self._cache[path].get(n)

    def text(self, path: str, n: int) -> str | None:
        """The line decoded as UTF-8 (undecodable bytes replaced)."""
        raw = self.line(path, n)
        return None if raw is None else raw.decode("utf-8", "replace")


def _read_lines(path: str, wanted: set[int]) -> dict[int, bytes]:
    try:
        with open(path, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # a FIFO or device would block or never end
                return {}
            return _scan(f, wanted)
    except OSError:
        return {}


def _scan(f: BinaryIO, wanted: set[int]) -> dict[int, bytes]:
    found: dict[int, bytes] = {}
    last = max(wanted, default=0)
    n = 0
    while n < last:
        chunk = f.readline(MAX_LINE_BYTES)
        if not chunk:
            break
        n += 1
        head = chunk
        while not chunk.endswith(b"\n"):  # skip the rest of an over-long line without keeping it
            chunk = f.readline(MAX_LINE_BYTES)
            if not chunk:
                break
        if n in wanted:
            if b"\0" in head:  # a binary file (a .bin named by a related location): no frame
                return {}
            found[n] = head.rstrip(b"\r\n")
    return found
