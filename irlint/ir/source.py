"""Byte offsets of one XML file, turned into `Location`s only when a location is asked for.

The loader records one integer per element (the byte offset of its `<`), not a `Location`: a
100,000-layer model has over a million elements and a rule run needs the place of a handful. Line
starts are kept in a numpy array (4 bytes a line), and a lookup is a binary search.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from irlint.diagnostics import Location

NOWHERE = -1  # the offset of something that is not in the file (a location of line 0)

# One start tag from its '<' to its '>': quoted values may contain '>' and newlines.
_START_TAG = re.compile(rb"<[^\s/>]+(?:\s+[^\s=/>]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*\s*/?>")
WINDOW = 1 << 16  # bytes read after an element's offset to find one of its attributes


class SourceMap:
    """Line starts of one file, fed chunk by chunk while it is parsed, and byte offset -> Location."""

    __slots__ = ("_parts", "_size", "_starts", "_window", "path")

    def __init__(self, path: str, window: Callable[[int, int], bytes] | None = None) -> None:
        self.path = path
        self._parts: list[np.ndarray] = [np.zeros(1, np.int32)]
        self._size = 0
        self._starts: np.ndarray | None = None
        self._window = window  # reads `n` bytes at an offset: only to place an attribute in a diagnostic

    def feed(self, chunk: bytes | memoryview) -> None:
        """Record the line starts of the next chunk of the file."""
        nl = np.flatnonzero(np.frombuffer(chunk, dtype=np.uint8) == 10)
        if nl.size:
            wide = self._size + len(chunk) >= 2**31  # 4 bytes a line while offsets fit (the loader caps at 512 MiB)
            self._parts.append(nl.astype(np.int64 if wide else np.int32) + (self._size + 1))
            self._starts = None
        self._size += len(chunk)

    def done(self) -> None:
        """The file is read: drop the reader (and the file or buffer it holds)."""
        self._window = None
        self._line_starts()

    def _line_starts(self) -> np.ndarray:
        if self._starts is None:
            self._starts = np.concatenate(self._parts) if len(self._parts) > 1 else self._parts[0]
            self._parts = [self._starts]
        return self._starts

    def loc(self, at: int) -> Location:
        """The line and (byte) column of a byte offset; `NOWHERE` gives a location without a line."""
        if at < 0:
            return Location(self.path, 0, 0)
        starts = self._line_starts()
        line = int(np.searchsorted(starts, at, side="right"))
        return Location(self.path, line, at - int(starts[line - 1]) + 1)

    def nth_tag_offset(self, at: int, tag: str, n: int) -> int:
        """Offset of the n-th (0-based) `<tag` after `at` (`at` itself when it cannot be found)."""
        if self._window is None or at < 0:
            return at
        text = self._window(at, WINDOW)
        pos = -1
        for _ in range(n + 1):
            pos = text.find(b"<" + tag.encode(), pos + 1)
            if pos < 0:
                return at
        return at + pos

    def attr_offset(self, at: int, attr: str) -> int:
        """Offset of `attr=` in the start tag at `at` (the tag itself when it cannot be found)."""
        if self._window is None or at < 0:
            return at
        text = self._window(at, WINDOW)
        tag = _START_TAG.match(text)
        end = tag.end() if tag else len(text)
        m = re.compile(rb"[\s<]" + re.escape(attr.encode()) + rb"\s*=").search(text, 0, end)
        return at + m.start() + 1 if m else at
