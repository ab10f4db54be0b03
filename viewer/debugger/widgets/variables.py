"""The Variables list (key V): every tensor of the current scope at the paused iteration, as pudb's and
VS Code's first pane: name, output, type and shape, range, NaN/Inf counts, elements changed since the
previous iteration. Typing filters (name, type, id path), Tab changes the sort, Enter opens the row in
the inspector (the screen closes with the layer, iteration and output port), Esc closes."""

from __future__ import annotations

from irlint.viewer.debugger.text import keep_tail
from irlint.viewer.debugger.variables import SORTS, Scope, Variable, matches, sort_key, variables
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Input, Static

from irlint.cli.printing import safe


def row_cells(v: Variable, name_width: int) -> list[Text]:
    """One row: `12 LSTMCell_16`, `out6`, `f32[1,4]`, `-0.7..0.9`, NaN, Inf, changed (`-`: no previous);
    a layer not evaluated yet in this iteration says `not yet`."""
    name = safe(v.layer.name)
    room = max(4, name_width - len(str(v.layer.id)) - 1)
    name = f"{v.layer.id} {keep_tail(name, room)}"  # the tail tells long scoped names apart, as in the tree
    if v.iteration is None:
        return [
            Text(name, style="dim"),
            Text(""),
            Text("not yet", style="dim"),
            Text(""),
            Text(""),
            Text(""),
            Text(""),
        ]
    bad = "bold red"
    return [
        Text(name),
        Text(v.port, style="cyan"),
        Text(f"{v.dtype}[{','.join(map(str, v.shape or ()))}]"),
        Text(v.range_text()),
        Text(str(v.nan) if v.nan else "", style=bad),
        Text(str(v.inf) if v.inf else "", style=bad),
        Text("-" if v.changed is None else str(v.changed), style="yellow" if v.changed else "dim"),
    ]


class VariablesScreen(ModalScreen[tuple[str, tuple[int, ...] | None, str] | None]):
    BINDINGS = [
        Binding("escape", "dismiss_none", "close"),
        Binding("tab", "sort", "sort", priority=True),
        Binding("down", "move(1)", "down", priority=True),
        Binding("up", "move(-1)", "up", priority=True),
        Binding("pagedown", "move(10)", "page down", priority=True),
        Binding("pageup", "move(-10)", "page up", priority=True),
        Binding("enter", "choose", "inspect", priority=True),
    ]
    DEFAULT_CSS = """
    VariablesScreen { align: center middle; }
    VariablesScreen > Vertical { width: 100%; height: 100%; border: round $accent; background: $panel;
                                 padding: 0 1; }
    VariablesScreen #vars-head { height: auto; }
    VariablesScreen Input { height: 3; }
    VariablesScreen DataTable { height: 1fr; }
    """

    def __init__(self, session, scope: Scope) -> None:  # type: ignore[no-untyped-def]
        super().__init__()
        self.session, self.scope = session, scope
        self.all = variables(session, scope)
        self.sort = SORTS[0]
        self.shown: list[Variable] = []

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("", id="vars-head", markup=False)
            yield Input(placeholder="filter: name, type or id path", id="vars-filter")
            yield DataTable(id="vars", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for label in ("layer", "port", "type", "range", "NaN", "Inf", "Δ"):
            table.add_column(label, key=label)
        self._fill()
        self.query_one(Input).focus()

    def _head(self) -> Text:
        n, total = len(self.shown), len(self.all)
        text = Text(safe(f"{self.scope.label}: {n} of {total} tensors"), style="bold")
        text.append(safe(f" | sort: {self.sort} (Tab) | Enter: inspect | Esc"), style="dim")
        return text

    def _fill(self) -> None:
        table = self.query_one(DataTable)
        text = self.query_one(Input).value
        shown = [v for v in self.all if matches(v, text)]
        key = sort_key(self.sort)
        if key is not None:
            shown.sort(key=key)
        self.shown = shown
        table.clear()
        width = max(12, self.app.size.width - 56)  # the other columns take about 52 at 80 columns
        for i, v in enumerate(shown):
            table.add_row(*row_cells(v, width), key=str(i))
        self.query_one("#vars-head", Static).update(self._head())

    def on_input_changed(self, _event: Input.Changed) -> None:
        self._fill()

    def action_sort(self) -> None:
        self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
        self._fill()

    def action_move(self, delta: int) -> None:
        table = self.query_one(DataTable)
        if self.shown:
            table.move_cursor(row=max(0, min(len(self.shown) - 1, table.cursor_row + delta)))

    def action_choose(self) -> None:
        table = self.query_one(DataTable)
        if self.shown and 0 <= table.cursor_row < len(self.shown):
            v = self.shown[table.cursor_row]
            self.dismiss((v.path, v.iteration, v.port))

    def on_data_table_row_selected(self, _event: DataTable.RowSelected) -> None:
        self.action_choose()

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
