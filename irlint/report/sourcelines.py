"""Lines of the checked files for code frames: read lazily, read-only, cached per file."""

from __future__ import annotations


class SourceLines:
    """`line(path, n)` returns the 1-based line n of a file, or None if it cannot be read."""

    MAX_FILE = 512 * 1024 * 1024

    def __init__(self) -> None:
        self._files: dict[str, list[bytes] | None] = {}

    def line(self, path: str, n: int) -> str | None:
        if n < 1:
            return None
        lines = self._files.get(path, ...)
        if lines is ...:
            lines = self._read(path)
            self._files[path] = lines
        if lines is None or n > len(lines):
            return None
        return lines[n - 1].decode("utf-8", "replace").rstrip("\r\n")

    def _read(self, path: str) -> list[bytes] | None:
        try:
            with open(path, "rb") as f:
                data = f.read(self.MAX_FILE)
        except OSError:
            return None
        return data.split(b"\n")
