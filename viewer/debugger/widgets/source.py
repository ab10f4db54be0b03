"""Lines of the model's XML around one place (a finding, a layer), that line in reverse video: the
lint-error screen shows a finding's, and `v` shows the selected layer's over the full screen."""

from __future__ import annotations

from pathlib import Path

from irlint.viewer.debugger.text import plain, safe_lines
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from irlint.diagnostics import Location


class SourceView(Static):
    """A window of the XML: the location, an optional hint (first, so it shows at 80x24), the lines."""

    def __init__(self, **kw) -> None:  # type: ignore[no-untyped-def]
        super().__init__("", markup=False, **kw)
        self._files: dict[str, list[str]] = {}  # the XML read once per file
        self.shown = Text()  # what it shows (for tests)

    def lines_of(self, path: str) -> list[str]:
        if path not in self._files:
            try:
                self._files[path] = Path(path).read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                self._files[path] = []
        return self._files[path]

    def show(self, loc: Location, hint: str | None = None, before: int = 2, after: int = 2,
             title: str | None = None, indent: bool = False) -> None:
        self.shown = source_text(loc, self.lines_of(loc.path), hint, before, after, title, indent)
        self.update(self.shown)


def source_text(loc: Location, lines: list[str], hint: str | None, before: int, after: int,
                title: str | None = None, indent: bool = False) -> Text:
    """`path:line:col` (or `title`), the hint, then the lines `before` above to `after` below the location's;
    with `indent`, as indented as in the file (less the indentation all of them share; tabs as 2 columns),
    so the element's nesting shows, else each line stripped (the findings pane's narrow window)."""
    out = plain(f"{title or loc}\n", style="bold")
    if hint:
        out.append(safe_lines(f"hint: {hint}\n"), style="italic")
    if not loc.line or loc.line > len(lines):
        return out + plain("(no source line)")
    lo, hi = max(1, loc.line - before), min(len(lines), loc.line + after)
    window = [lines[n - 1].rstrip().expandtabs(2) for n in range(lo, hi + 1)]
    shared = min((len(w) - len(w.lstrip()) for w in window if w.strip()), default=0)
    for n, line in zip(range(lo, hi + 1), window, strict=True):
        style = "reverse" if n == loc.line else ""
        out.append(safe_lines(f"{n:>5} | {line[shared:] if indent else line.strip()}\n"), style=style)
    return out


class XmlScreen(ModalScreen[None]):
    """The selected layer's element in the XML over the full screen (key v): its line in reverse video,
    two lines above, the rest of the screen below (the element's ports, data and body); scrollable."""

    BINDINGS = [Binding("escape,v,q", "dismiss", "close")]
    DEFAULT_CSS = """
    XmlScreen { align: center middle; }
    XmlScreen > VerticalScroll { width: 100%; height: 100%; border: round $accent; background: $panel;
                                 padding: 0 1; }
    """

    def __init__(self, loc: Location, title: str) -> None:
        super().__init__()
        self.loc, self.title_text = loc, title
        self.view = SourceView(id="xml")

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text("the layer in the XML (Esc or v closes; arrows, PgUp/PgDn scroll)", style="dim"))
            yield self.view

    def on_mount(self) -> None:
        self.view.show(self.loc, None, 2, max(10, self.app.size.height * 3), self.title_text, indent=True)

    def action_dismiss(self) -> None:  # type: ignore[override]
        self.dismiss(None)
