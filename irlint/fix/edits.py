"""Text edits at byte offsets, and the applier that keeps every byte outside them identical.

Fixes never re-serialise the XML: formatting, comments, attribute order and the bytes of every
other element stay exactly as written, so a fixed file diffs as the few values that changed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
class Edit:
    """Replace bytes `start:end` (an empty range inserts) by `text`."""

    start: int
    end: int
    text: bytes

    def __post_init__(self) -> None:
        if not 0 <= self.start <= self.end:
            raise ValueError(f"invalid edit range {self.start}..{self.end}")

    def overlaps(self, other: Edit) -> bool:
        """True when the two edits touch the same bytes, or insert at the same place (order would matter)."""
        if self.start == other.start:
            return True
        return self.start < other.end and other.start < self.end


class EditConflict(ValueError):
    """Two edits of one fix overlap: a bug in the fix provider."""


def conflicts(a: Iterable[Edit], b: Iterable[Edit]) -> bool:
    bs = list(b)
    return any(x.overlaps(y) for x in a for y in bs)


def apply_edits(data: bytes, edits: Iterable[Edit]) -> bytes:
    """`data` with `edits` applied; the bytes between edits are copied unchanged. Edits must not overlap."""
    todo = sorted(edits)
    out: list[bytes] = []
    pos = 0
    for i, e in enumerate(todo):
        if e.end > len(data):
            raise EditConflict(f"edit {e.start}..{e.end} reaches past the end of the data ({len(data)} bytes)")
        if i and todo[i - 1].overlaps(e):
            raise EditConflict(f"edits at {todo[i - 1].start} and {e.start} overlap")
        out.append(data[pos:e.start])
        out.append(e.text)
        pos = e.end
    out.append(data[pos:])
    return b"".join(out)
