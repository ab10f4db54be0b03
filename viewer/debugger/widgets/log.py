"""The event log: entries wrap to the pane's width and scroll; every entry is kept whole for the
full-screen view (`l`), and rewritten when the pane's width changes (RichLog wraps once, on write)."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import RichLog

KEEP = 2000  # entries kept for the full view
SHOWN = 500  # entries written again into the pane after a resize


class EventLog(RichLog):
    def __init__(self, **kw) -> None:  # type: ignore[no-untyped-def]
        super().__init__(max_lines=KEEP, wrap=True, min_width=20, markup=False, **kw)
        self.entries: list[Text] = []

    def add(self, text: Text) -> None:
        self.entries.append(text)
        del self.entries[:-KEEP]
        self.write(text)

    def rewrap(self) -> None:
        self.clear()
        for text in self.entries[-SHOWN:]:
            self.write(text)
