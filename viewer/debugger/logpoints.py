"""Logpoints and hit counts: what a `... log EXPR` or `... hit N` breakpoint does when it is hit.

A logpoint prints EXPR (evaluated as the console evaluates it, over the hit layer's tensors) at every
hit and the run goes on: to the event log, at most PANE_LINES lines per command (the rest counted), and
every line to a text file when the session has one (`--logpoints FILE`, checked like every output: never
over a file the run reads). `hit N` stops at the Nth hit. Hits are counted per run (a restart counts
from 0); events replayed after a step back were counted when they first ran and are not counted again.
"""

from __future__ import annotations

from typing import IO, TYPE_CHECKING

import numpy as np
from irlint.viewer.debugger.breakpoints import ConditionalBreakpoint
from irlint.viewer.debugger.conditions import compile_expression

from irlint.interp.events import Event
from irlint.layerpath import iteration_label

if TYPE_CHECKING:
    from irlint.viewer.debugger.session import Session

PANE_LINES = 200  # logpoint lines one command writes to the event log (all go to the file)


def value_text(v: object) -> str:
    """A logged value in one line: numbers as `%g`, up to 8 elements in full, larger tensors summarised."""
    from irlint.viewer.debugger.inspector import summary

    a = np.asarray(v) if isinstance(v, (np.ndarray, np.generic, int, float, bool)) else None
    if a is None or a.dtype.kind not in "biuf":
        return str(v)
    if a.size == 1:
        x = a.reshape(-1)[0]
        return f"{x:.6g}" if a.dtype.kind == "f" else str(x.item())
    if a.size <= 8:
        return np.array2string(a.reshape(-1) if a.ndim > 1 else a, precision=5, separator=" ")
    return summary(a)


class Logpoints:
    """Hit counts and the lines of a session's logpoints."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.path: str | None = None  # the file every logpoint line goes to (None: the log only)
        self.reads: list[tuple[str, str | None]] = []  # files the run reads: the file never overwrites them
        self.counts: dict[int, int] = {}  # id(breakpoint) -> hits in this run
        self._file: IO[str] | None = None
        self._pane = 0  # logpoint lines written to the log in the running command
        self._held_back = 0  # ... and those beyond PANE_LINES

    def attach(self, bp: object) -> None:
        """Let a logpoint or counted breakpoint report its hits here (in place: the caller keeps its object)."""
        if isinstance(bp, ConditionalBreakpoint) and (bp.log or bp.count) and bp.on_hit is None:
            object.__setattr__(bp, "on_hit", self.hit)

    def hits(self, bp: object) -> int:
        return self.counts.get(id(bp), 0)

    def hit(self, bp: ConditionalBreakpoint, env: dict[str, object], event: Event) -> bool:
        """Count the hit, print a logpoint's line; True to stop (the Nth hit, or every hit without log/hit)."""
        if self.session.recorder.cursor is not None:  # a kept event replayed after a step back: counted already
            return False
        n = self.counts[id(bp)] = self.counts.get(id(bp), 0) + 1
        if bp.log:
            self._write(bp, env, event, n)
        return n == bp.count if bp.count else not bp.log

    def _write(self, bp: ConditionalBreakpoint, env: dict[str, object], event: Event, n: int) -> None:
        layer = event.layer  # type: ignore[attr-defined]
        its = iteration_label([k for _p, k in event.frames], layer.path)
        try:
            fn = compile_expression(bp.log, {"value": self.session.value}, what="expression")
            shown = value_text(fn(dict(env)))
        except Exception as e:  # printed, never raised into the run
            shown = f"({type(e).__name__}: {e})"
        line = f"log #{n} {layer.name} it {its}: {bp.log} = {shown}"
        if self._pane < PANE_LINES:
            self._pane += 1
            self.session.log.append(line)
        else:
            self._held_back += 1
        self._to_file(line)

    def _to_file(self, line: str) -> None:
        if self.path is None:
            return
        if self._file is None:
            from irlint.cli.command import UsageError
            from irlint.cli.paths import check_outputs

            try:
                check_outputs([("--logpoints", self.path)], self.reads)
                self._file = open(self.path, "w", encoding="utf-8")  # noqa: SIM115 - open across commands
            except (UsageError, OSError) as e:
                self.session.log.append(f"logpoint lines not written to a file: {e}")
                self.path = None
                return
        self._file.write(line + "\n")

    def command_done(self) -> None:
        """After a command: say how many lines the log left out; the file is flushed."""
        if self._held_back:
            where = f" (all in {self.path})" if self.path else ""
            self.session.log.append(f"... {self._held_back} more logpoint lines{where}")
        self._pane = self._held_back = 0
        if self._file is not None:
            self._file.flush()

    def restart(self) -> None:
        """A new run counts its hits from 0."""
        self.counts.clear()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
