"""`Diagnostics`: the list `irlint.check` returns, shown in Jupyter as a table (`_repr_html_`), in IPython's
plain text and by `.text()` as `irlint check` prints it.

A plain list in every other respect. Each finding's row gives the code, severity, `path:line:col`, the
layer, the message, the hint, related places and the XML line it points at; every string that comes
from the model (names, messages quoting attributes, the XML itself) is HTML-escaped. The lines of a
model serialised from an `openvino.Model` are read from the bytes in memory, those of a file from the
file, and both forms say that the locations are those of the serialised XML.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import Any

from irlint.diagnostics import Diagnostic
from irlint.ir.model import Model
from irlint.report.sourcelines import SourceLines

_COLOURS = {"error": "#c0392b", "warning": "#b9770e", "info": "#2e86c1"}
MAX_ROWS = 200  # a notebook cell stays readable; the list itself holds every finding
MAX_LINE = 240  # characters of an XML line shown


class Diagnostics(list[Diagnostic]):
    """The findings of one check, sorted as the command line prints them."""

    def __init__(self, items: Iterable[Diagnostic] = (), model: Model | None = None) -> None:
        super().__init__(items)
        self.model = model

    def __reduce__(self) -> tuple[type, tuple[list[Diagnostic]]]:
        """Pickled (to a worker process and back) as the plain list: the model holds readers, not data."""
        return (list, (list(self),))

    def _lines(self, shown: list[Diagnostic]) -> SourceLines:
        xml = _in_memory(self.model)
        if xml is not None and self.model is not None:
            return _SerializedLines(self.model.path, xml)
        return SourceLines(loc for d in shown for loc in (d.loc, *(r.loc for r in d.related)))

    def _where(self) -> str:
        """Where the locations point: said for a model serialised from an `openvino.Model`."""
        if _in_memory(self.model) is None:
            return ""
        return " (lines and columns of the XML openvino.serialize writes for it, layers by friendly name)"

    def text(self) -> str:
        """The findings as `irlint check` prints them: each with its XML line, notes and hint, then a summary."""
        from irlint.report.text import Painter, format_diagnostic, summary

        where = self.model.path if self.model is not None else ""
        head = f"{where}: {self._where().strip(' ()')}\n\n" if self._where() else ""
        lines, paint = self._lines(list(self)), Painter(False)
        body = "".join("\n".join(format_diagnostic(d, lines, paint)) + "\n\n" for d in self)
        return head + body + summary(self, 1) + "\n"

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        """IPython's plain-text display (a terminal, or a notebook front end without HTML)."""
        p.text("[...]" if cycle else self.text().rstrip("\n"))

    def _layer(self, d: Diagnostic) -> str:
        """The layer's id path and name (the friendly name, for an openvino.Model)."""
        if d.layer is None:
            return ""
        from irlint.layerpath import find_layer

        layer = find_layer(self.model, d.layer) if self.model is not None else None
        return f"{d.layer} {layer.name!r}" if layer is not None else d.layer

    def _repr_html_(self) -> str:
        where = escape(self.model.path if self.model is not None else "")
        if not self:
            return f"<p><b>irlint</b>: no findings{' in ' + where if where else ''}.</p>"
        counts = {s: sum(1 for d in self if d.severity.value == s) for s in _COLOURS}
        said = ", ".join(f"{n} {s}{'s' if n != 1 else ''}" for s, n in counts.items() if n)
        lines = self._lines(self[:MAX_ROWS])
        rows = [_row(d, lines.text(d.loc.path, d.loc.line), self._layer(d)) for d in self[:MAX_ROWS]]
        more = f"<p>… and {len(self) - MAX_ROWS} more (all in the list).</p>" if len(self) > MAX_ROWS else ""
        note = self._where()
        return (
            f"<div class='irlint-diagnostics'><p><b>irlint</b>: {said}{' in ' + where if where else ''}{note}</p>"
            "<table><thead><tr><th>code</th><th>severity</th><th>location</th><th>layer</th>"
            "<th style='text-align:left'>finding</th></tr></thead><tbody>"
            + "".join(rows)
            + f"</tbody></table>{more}</div>"
        )


class _SerializedLines(SourceLines):
    """The lines of the XML serialised from an `openvino.Model`, from memory; no file is ever opened for
    its label (a file of that name in the working directory is someone else's)."""

    def __init__(self, path: str, xml: str) -> None:
        super().__init__()
        self._path = path
        self._xml = xml.encode("utf-8").splitlines()

    def line(self, path: str, n: int) -> bytes | None:
        if path != self._path:
            return None
        return self._xml[n - 1] if 0 < n <= len(self._xml) else None


def _in_memory(model: Model | None) -> str | None:
    from irlint.ir.ovmodel import serialized_xml

    return serialized_xml(model) if model is not None else None


def _row(d: Diagnostic, line: str | None, layer: str) -> str:
    colour = _COLOURS.get(d.severity.value, "#555")
    parts = [escape(d.message)]
    if line is not None:
        text = line.strip()
        text = text if len(text) <= MAX_LINE else text[:MAX_LINE] + "…"
        parts.append(f"<code>{escape(text)}</code>")
    parts += [f"<i>note</i>: {escape(r.note)} ({escape(str(r.loc))})" for r in d.related]
    if d.hint:
        parts.append(f"<i>hint</i>: {escape(d.hint)}")
    return (
        f"<tr><td><b>{escape(d.code)}</b></td><td style='color:{colour}'>{escape(d.severity.value)}</td>"
        f"<td>{escape(str(d.loc))}</td><td>{escape(layer)}</td>"
        f"<td style='text-align:left'>{'<br>'.join(parts)}</td></tr>"
    )
