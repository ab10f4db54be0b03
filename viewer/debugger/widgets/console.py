"""The expression console (`:`): numpy expressions over the tensors of the current stop, evaluated with the
conditional breakpoints' whitelist (conditions.py), results printed within numpy's summarising threshold.

Evaluation runs in a thread worker, so a slow one never blocks the screen; the arithmetic bound of
conditions.py (MAX_ELEMENTS) keeps any one expression to a few passes over tensors of that size.
Up/Down walk the history (kept by the app for the whole session), Esc closes.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from irlint.viewer.debugger.inspector import summary
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Input, RichLog, Static

from irlint.cli.printing import safe

THRESHOLD = 200  # numpy's printoptions threshold: larger results print summarised (first/last EDGE items)
EDGE = 3
MAX_CHARS = 4000  # the longest text one result prints (a tuple of many tensors, a long string)
MAX_ITEMS = 8  # the items of a tuple printed one by one
HINT = ("x outputs iteration iterations layer | value('LAYER'[, port[, iteration]]) | abs max min mean sum any all "
        "isnan isinf isfinite norm size len float int | x.sum() .mean() .max() .min() .std() .argmax() .shape ...")


def result_text(value: object, width: int = 80) -> str:
    """A result as text: a tensor's summary line, then its values (summarised past THRESHOLD elements);
    tuples of numbers as Python prints them, other tuples item by item; never more than MAX_CHARS characters."""
    if isinstance(value, tuple) and all(isinstance(v, (int, float, bool, np.generic)) for v in value):
        return _cut(repr(tuple(v.item() if isinstance(v, np.generic) else v for v in value)))  # (2, 1)
    if isinstance(value, tuple):
        items = [f"[{i}] {result_text(v, width)}" for i, v in enumerate(value[:MAX_ITEMS])]
        more = [f"... {len(value) - MAX_ITEMS} more"] if len(value) > MAX_ITEMS else []
        return _cut("\n".join([f"tuple of {len(value)}", *items, *more]) if value else "()")
    if isinstance(value, (np.ndarray, np.generic)) and np.asarray(value).dtype.kind in "biufc":
        a = np.asarray(value)
        with np.printoptions(threshold=THRESHOLD, edgeitems=EDGE, linewidth=max(20, width), precision=6):
            body = np.array2string(a)
        return _cut(body if a.ndim == 0 else f"{summary(a)}\n{body}")
    return _cut(repr(value))


def _cut(text: str) -> str:
    return text if len(text) <= MAX_CHARS else text[:MAX_CHARS] + f"... ({len(text) - MAX_CHARS} more characters)"


def one_line(error: BaseException) -> str:
    """An evaluation error as one line: the message (a numpy or Python error: its type, then its message)."""
    from irlint.viewer.debugger.conditions import ConditionError

    text = " ".join(str(error).split()) or type(error).__name__
    return text if isinstance(error, ConditionError) else f"{type(error).__name__}: {text}"


class HistoryInput(Input):
    """The console's input line; Up/Down recall earlier expressions."""

    BINDINGS = [Binding("up", "recall(-1)", "previous", show=False),
                Binding("down", "recall(1)", "next", show=False)]

    def __init__(self, history: list[str], **kw) -> None:  # type: ignore[no-untyped-def]
        super().__init__(**kw)
        self.history = history
        self.index = len(history)  # len(history): the new line being typed

    def action_recall(self, delta: int) -> None:
        if not self.history:
            return
        self.index = max(0, min(len(self.history), self.index + delta))
        self.value = self.history[self.index] if self.index < len(self.history) else ""
        self.cursor_position = len(self.value)


class ConsoleScreen(ModalScreen[None]):
    """The console over the screen's lower part; `evaluate` is the session's (text -> value, raises)."""

    BINDINGS = [Binding("escape", "close", "close")]
    DEFAULT_CSS = """
    ConsoleScreen { align: center bottom; }
    ConsoleScreen > Vertical { width: 100%; height: 85%; min-height: 12; border: round $accent;
                               background: $panel; padding: 0 1; }
    ConsoleScreen #console-head { height: auto; max-height: 4; }
    ConsoleScreen #console-out { height: 1fr; min-height: 4; }
    """

    class Evaluated(Message):
        """A result (or an error) is ready: posted by the worker thread."""

        def __init__(self, text: str, error: bool) -> None:
            super().__init__()
            self.text = text
            self.error = error

    def __init__(self, evaluate: Callable[[str], object], where: str, history: list[str]) -> None:
        super().__init__()
        self.evaluate = evaluate
        self.where = where
        self.history = history
        self.results: list[tuple[str, bool]] = []  # every result shown: (text, error), for tests and scripting

    def compose(self) -> ComposeResult:
        with Vertical():
            head = Text("expression console (Esc closes; Up/Down: history) at ", style="bold")
            head.append(safe(self.where))
            head.append("\n" + HINT, style="dim")
            yield Static(head, id="console-head", markup=False)
            yield RichLog(id="console-out", wrap=True, markup=False, min_width=20)
            yield HistoryInput(self.history, placeholder="e.g. x.max(), abs(x - value('h_prev')).max(), x[0, :4]",
                               id="console-in", select_on_focus=False)

    def on_mount(self) -> None:
        self.query_one(HistoryInput).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if not text:
            return
        if not self.history or self.history[-1] != text:
            self.history.append(text)
        self.query_one(HistoryInput).index = len(self.history)
        self.query_one(RichLog).write(Text(safe(f"> {text}"), style="bold cyan"))
        self._evaluate(text, self.query_one(RichLog).scrollable_content_region.width)

    @work(thread=True, group="console")
    def _evaluate(self, text: str, width: int) -> None:
        try:
            out, error = result_text(self.evaluate(text), width), False
        except MemoryError:
            out, error = "MemoryError: the result does not fit in memory", True
        except Exception as e:  # any evaluation error is one line in the console, never a traceback
            out, error = one_line(e), True
        self.post_message(self.Evaluated(out, error))

    def on_console_screen_evaluated(self, message: Evaluated) -> None:
        self.results.append((message.text, message.error))
        style = "bold red" if message.error else ""
        self.query_one(RichLog).write(Text(safe(message.text).replace("\u2424", "\n"), style=style))

    def action_close(self) -> None:
        self.dismiss(None)
