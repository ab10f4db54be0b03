"""Modal screens of the debugger: the `?` help and the one-line prompts (go to iteration, breakpoint)."""

from __future__ import annotations

from irlint.viewer.debugger.keys import KEYS
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Static


def help_table() -> Table:
    t = Table(show_header=False, box=None, padding=(0, 1), expand=True)
    t.add_column(style="bold cyan", no_wrap=True)
    t.add_column(ratio=1)
    for k, text in KEYS:
        t.add_row(k, text)
    return t


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "close")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 90%; max-width: 100; height: 90%; border: round $accent;
                                  background: $panel; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text("irlint debug: keys (Esc or ? closes)", style="bold"))
            yield Static(help_table())
            yield Static(Text("Iterations are 0-based everywhere, outer first: 2.1 is iteration 1 of the inner "
                              "loop in iteration 2 of the outer one, as in traces and diagnostics.", style="dim"))

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)


class PromptScreen(ModalScreen[str | None]):
    """One line of input; dismisses with the text (None on Esc)."""

    BINDINGS = [Binding("escape", "cancel", "cancel")]
    DEFAULT_CSS = """
    PromptScreen { align: center middle; }
    PromptScreen > Vertical { width: 90%; max-width: 90; height: auto; border: round $accent;
                              background: $panel; padding: 0 1; }
    """

    def __init__(self, title: str, placeholder: str = "", value: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.placeholder = placeholder
        self.value = value

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_text))
            yield Input(value=self.value, placeholder=self.placeholder, select_on_focus=False)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class LogScreen(ModalScreen[None]):
    """The whole event log, wrapped and scrollable, over the full screen (key l)."""

    BINDINGS = [Binding("escape,l,q", "dismiss", "close")]
    DEFAULT_CSS = """
    LogScreen { align: center middle; }
    LogScreen > VerticalScroll { width: 100%; height: 100%; border: round $accent; background: $panel;
                                 padding: 0 1; }
    """

    def __init__(self, lines: list[Text]) -> None:
        super().__init__()
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text(f"event log, {len(self.lines)} entries (Esc or l closes; arrows, PgUp/PgDn scroll)",
                              style="bold"))
            yield Static(Text("\n").join(self.lines) if self.lines else Text("(empty)", style="dim"), id="log-all")

    def on_mount(self) -> None:
        self.query_one(VerticalScroll).scroll_end(animate=False)

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
