"""The lint-error screen's body: every finding of a model that is not run (scrollable), and under it the
highlighted finding's line of XML with its hint. Posts `Chosen` so the App selects the finding's layer."""

from __future__ import annotations

from irlint.viewer.debugger.text import plain, safe_lines
from irlint.viewer.debugger.widgets.source import SourceView
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from irlint.diagnostics import Diagnostic

SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


class Findings(Vertical):
    class Chosen(Message):
        """A finding was highlighted."""

        def __init__(self, diagnostic: Diagnostic) -> None:
            super().__init__()
            self.diagnostic = diagnostic

    def __init__(self, diagnostics: list[Diagnostic], **kw) -> None:  # type: ignore[no-untyped-def]
        super().__init__(**kw)
        self.diagnostics = diagnostics

    def compose(self) -> ComposeResult:
        yield OptionList(id="findings")
        with VerticalScroll(id="source-box"):
            yield SourceView(id="source")

    def on_mount(self) -> None:
        opts = self.query_one(OptionList)
        for d in self.diagnostics:
            text = plain(f"{d.loc.line}:{d.loc.column} ", style="dim")
            text.append(safe_lines(f"{d.code} [{d.severity.value}]"), style=SEVERITY_STYLE[d.severity.value])
            text.append(safe_lines(f" {d.message}"))
            opts.add_option(Option(text))
        if self.diagnostics:
            opts.highlighted = 0
        opts.focus()

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_index is not None and event.option_index < len(self.diagnostics):
            self.show(self.diagnostics[event.option_index])

    def show(self, d: Diagnostic) -> None:
        """The finding's line of XML, its hint first (so it shows at 80x24), with more context when tall."""
        context = 2 if self.app.size.height < 30 else 5
        self.query_one(SourceView).show(d.loc, d.hint, context, context)
        self.post_message(self.Chosen(d))
