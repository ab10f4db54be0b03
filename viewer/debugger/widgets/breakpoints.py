"""The breakpoints list (key x): every breakpoint, enabled or not; space enables/disables, d deletes, e edits
the line (layer and condition). Changes go to the Session at once; the screen posts `Changed` so the App
redraws the tree markers and the status line."""

from __future__ import annotations

from irlint.viewer.debugger.conditions import ConditionError, breakpoint_text, parse_breakpoint
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from irlint.cli.printing import safe


class BreakpointsScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape,x,q", "close", "close"),
        Binding("space,enter", "toggle", "enable/disable"),
        Binding("d,delete", "delete", "delete"),
        Binding("e", "edit", "edit"),
    ]
    DEFAULT_CSS = """
    BreakpointsScreen { align: center middle; }
    BreakpointsScreen > Vertical { width: 90%; max-width: 110; height: 80%; border: round $accent;
                                   background: $panel; padding: 0 1; }
    BreakpointsScreen OptionList { height: 1fr; }
    BreakpointsScreen #bp-msg { height: auto; max-height: 3; }
    """

    class Changed(Message):
        """A breakpoint was enabled, disabled, deleted or edited."""

    def __init__(self, session) -> None:  # type: ignore[no-untyped-def]
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("breakpoints: space enables/disables, d deletes, e edits, Esc closes", style="bold"))
            yield OptionList(id="bp-list")
            yield Static("", id="bp-msg", markup=False)

    def on_mount(self) -> None:
        self._fill()

    def _fill(self, keep: int = 0) -> None:
        opts = self.query_one(OptionList)
        opts.clear_options()
        entries = self.session.breakpoint_list()
        for bp, on in entries:
            text = Text("● " if on else "○ ", style="bold red" if on else "dim")
            text.append(safe(breakpoint_text(bp)), style="" if on else "dim strike")
            layer = self.session.find_layer(bp.layer) if bp.layer is not None else None
            if layer is not None:
                text.append(safe(f"  {layer.name} ({layer.type})"), style="dim")
            opts.add_option(Option(text))
        if not entries:
            opts.add_option(Option(Text("(no breakpoints: b on a layer, B with a condition, ! for NaN/Inf)",
                                        style="dim"), disabled=True))
        elif entries:
            opts.highlighted = min(keep, len(entries) - 1)

    def _current(self):  # type: ignore[no-untyped-def]
        i = self.query_one(OptionList).highlighted
        entries = self.session.breakpoint_list()
        return (i, *entries[i]) if i is not None and i < len(entries) else None

    def _say(self, text: str, style: str = "") -> None:
        self.query_one("#bp-msg", Static).update(Text(safe(text), style=style))

    def action_toggle(self) -> None:
        cur = self._current()
        if cur is not None:
            i, bp, on = cur
            self.session.set_enabled(bp, not on)
            self._say(f"{'disabled' if on else 'enabled'}: {breakpoint_text(bp)}")
            self._fill(i)
            self.post_message(self.Changed())

    def action_delete(self) -> None:
        cur = self._current()
        if cur is not None:
            i, bp, _on = cur
            self.session.remove_breakpoint(bp)
            self._say(f"deleted: {breakpoint_text(bp)}")
            self._fill(i)
            self.post_message(self.Changed())

    def action_edit(self) -> None:
        cur = self._current()
        if cur is None:
            return
        from irlint.viewer.debugger.screens import PromptScreen

        i, bp, _on = cur

        def done(text: str | None) -> None:
            if not text:
                return
            try:
                new = parse_breakpoint(text, self.session.model)
            except ConditionError as e:
                self._say(f"not changed: {e}", "bold red")
                return
            self.session.replace_breakpoint(bp, new)
            self._say(f"now: {breakpoint_text(new)}")
            self._fill(i)
            self.post_message(self.Changed())

        self.app.push_screen(PromptScreen("edit the breakpoint: [layer ID|PATH|NAME] [when CONDITION] | nonfinite [M]",
                                          "", breakpoint_text(bp)), done)

    def action_close(self) -> None:
        self.dismiss(None)
