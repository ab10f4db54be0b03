"""Byte-level view of the XML text, to give every element and attribute a column as well as a line.

lxml reports only line numbers; columns come from finding the tag or attribute on its line. Line
starts are computed once with numpy, so a 35 MB file costs a few milliseconds.
"""

from __future__ import annotations

import re

import numpy as np

from irlint.diagnostics import Location


class SourceText:
    """The raw bytes of one XML file with fast line lookup."""

    def __init__(self, path: str, data: bytes) -> None:
        self.path = path
        self.data = data
        nl = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == 10)
        # a plain list: indexing it per element is much cheaper than indexing a numpy array
        self._starts: list[int] = np.concatenate(([0], nl + 1)).astype(np.int64).tolist()

    def line_span(self, line: int) -> tuple[int, int]:
        """Byte range [start, end) of a 1-based line, without its newline."""
        if line < 1 or line > len(self._starts):
            return 0, 0
        start = self._starts[line - 1]
        end = self._starts[line] - 1 if line < len(self._starts) else len(self.data)
        return start, end

    def column_of(self, line: int, needle: bytes, after: int = 0) -> int:
        """1-based column of `needle` on `line` (the first at or after column `after`), or 1."""
        start, end = self.line_span(line)
        i = self.data.find(needle, start + max(after - 1, 0), end)
        return i - start + 1 if i >= 0 else 1

    def element_loc(self, line: int | None, tag: str) -> Location:
        if not line:
            return Location(self.path, 0, 0)
        return Location(self.path, line, self.column_of(line, b"<" + tag.encode()))

    def attr_loc(self, line: int | None, tag: str, attr: str) -> Location:
        """Where `attr=` stands on the element's line (falling back to the element itself)."""
        if not line:
            return Location(self.path, 0, 0)
        start, end = self.line_span(line)
        m = re.compile(rb"[\s<]" + re.escape(attr.encode()) + rb"\s*=").search(self.data, start, end)
        if m:
            return Location(self.path, line, m.start() - start + 2)
        return self.element_loc(line, tag)
