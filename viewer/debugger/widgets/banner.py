"""The yellow banner of `--random-inputs`: which inputs are random, in at most 3 lines, names never cut;
what does not fit is counted (the log lists every random input). Hidden when every input was given."""

from __future__ import annotations

from irlint.viewer.debugger.text import fit_items, plain
from textual.widgets import Static


class RandomBanner(Static):
    def __init__(self, notes: list[str], **kw) -> None:  # type: ignore[no-untyped-def]
        super().__init__("", markup=False, **kw)
        self.notes = notes
        self.display = bool(notes)

    def fit(self, width: int) -> None:
        """Say it again in `width` columns (at the start and whenever the pane's width changes)."""
        notes = self.notes
        if not notes:
            return
        seed = notes[0].rsplit("seed ", 1)[-1].rstrip(")") if "seed " in notes[0] else "?"
        items = [n.split("RANDOM input ", 1)[-1].split(" (--random-inputs", 1)[0].replace(", ", ",") for n in notes]
        head = f"RANDOM inputs (--random-inputs, seed {seed}): "
        self.update(plain(fit_items(head, items, max(20, width), 3, ";"), style="bold black on yellow"))
