"""The watch list: tensors pinned with `w` (any layer, any output port, any depth), shown at every stop
with the iteration of their latest recorded value, so they stay in view while `t`, `g` or a
breakpoint moves the selection elsewhere."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from irlint.viewer.debugger.inspector import port_names, summary
from rich.text import Text
from textual.widgets import Static

from irlint.cli.printing import safe
from irlint.ir.model import Layer
from irlint.layerpath import iteration_label


@dataclass(frozen=True)
class Watch:
    """One pinned tensor: a layer (by its id path) and the index of its output in the recorded tuple."""

    layer: Layer
    port: int


def watch_line(session, w: Watch) -> Text:  # type: ignore[no-untyped-def]
    """`#8 h_next in it 0.2: f32[1,2] min .. max ..` or `... not evaluated yet` for one watch."""
    seen = session.iterations_seen(w.layer.path)
    tensors = session.tensor(w.layer.path) if seen else None
    if tensors is None and w.layer.type == "Const":
        tensors, seen = session.const_value(w.layer), [()]
    names = port_names(w.layer, max(w.port + 1, len(tensors) if tensors else 0))
    head = Text(safe(f"#{w.layer.path} {w.layer.name} {names[w.port]}"), style="bold")
    if not tensors or not seen or w.port >= len(tensors):
        return head + Text(": not evaluated yet", style="dim")
    it = iteration_label(seen[-1], w.layer.path)
    return head + Text(f" it {it}", style="cyan") + Text(safe(f": {summary(np.asarray(tensors[w.port]))}"))


class WatchList(Static):
    """The pinned tensors, one line each (hidden while there are none)."""

    def __init__(self, **kw) -> None:  # type: ignore[no-untyped-def]
        super().__init__("", markup=False, **kw)
        self.watches: list[Watch] = []
        self.display = False

    def toggle(self, layer: Layer, port: int) -> bool:
        """Pin the output, or unpin it when it is pinned; returns True if it is pinned now."""
        w = Watch(layer, port)
        if w in self.watches:
            self.watches.remove(w)
            return False
        self.watches.append(w)
        return True

    def toggle_text(self, layer: Layer, port: int) -> str:
        """Pin or unpin the output; returns what the log says."""
        on = self.toggle(layer, port)
        return f"{'watching' if on else 'no longer watching'} {layer.describe()} {port_names(layer, port + 1)[port]}"

    def clear_all(self) -> None:
        self.watches.clear()

    def show(self, session) -> None:  # type: ignore[no-untyped-def]
        """Redraw from the session's recorded values (called at every stop)."""
        self.display = bool(self.watches)
        title = Text(f"watch ({len(self.watches)}; w pins/unpins, W clears)", style="dim")
        self.update(Text("\n").join([title, *(watch_line(session, w) for w in self.watches)]))
