"""DOT text from model strings: every attribute value the diagram writes goes through `Digraph`.

A layer or model name is data, never DOT: the graphviz package writes a string that starts with `<`
and ends with `>` unquoted, as an HTML-like label (a model named `<a> {X} digraph <b>` would close
the graph and open a second one; `</x><y>` makes dot fail), and dot expands `\\N`, `\\G`, `\\l` in
plain labels. `Digraph` passes every value through `text` (controls made visible, backslashes
doubled, never HTML) unless the diagram built it as `Html` (an HTML-like label whose model parts went
through `html_text`) or `EscString` (a label whose `\\l` line ends the diagram wrote around parts it
escaped with `escape_string`).
"""

from __future__ import annotations

from collections.abc import Mapping

import graphviz

from irlint.report.text import clean


class Html(str):
    """An HTML-like label `<...>` built by the diagram, its model text escaped by `html_text`."""


class EscString(str):
    """A plain label with graphviz escapes the diagram wrote itself (`\\l`), model text escaped."""


def text(value: str) -> str:
    """A model string as a DOT value shown literally: never HTML-like, backslashes doubled, controls and
    bidi overrides drawn visibly (U+202E would show a layer name reversed)."""
    if isinstance(value, Html):
        return value
    if isinstance(value, EscString):
        return graphviz.nohtml(clean(value))
    return graphviz.escape(clean(str(value)))


def escape_string(value: str) -> str:
    """A model string as part of an `EscString` (backslashes doubled)."""
    return clean(value).replace("\\", "\\\\")


def html_text(value: str) -> str:
    """A model string as text or an attribute value inside an HTML-like label (newlines as references)."""
    return (
        clean(value)
        .replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("\n", "&#10;")
    )


def _values(attrs: Mapping[str, object] | None) -> dict[str, str] | None:
    if attrs is None:
        return None
    return {k: text(str(v)) for k, v in attrs.items()}


class Digraph(graphviz.Digraph):
    """A `graphviz.Digraph` whose labels, tooltips and other attribute values are `text` (its
    subgraphs are of this class too). Node names are the diagram's own ids (`L_3_body_1`, `table:r4`)."""

    def __init__(
        self,
        name: str | None = None,
        *args,
        graph_attr=None,
        node_attr=None,
        edge_attr=None,  # type: ignore[no-untyped-def]
        **kwargs,
    ) -> None:
        super().__init__(
            None if name is None else text(name),
            *args,
            graph_attr=_values(graph_attr),
            node_attr=_values(node_attr),
            edge_attr=_values(edge_attr),
            **kwargs,
        )

    def node(self, name: str, label: str | None = None, _attributes=None, **attrs) -> None:  # type: ignore[no-untyped-def,override]
        super().node(
            name, None if label is None else text(label), _attributes=_values(_attributes), **_values(attrs) or {}
        )

    def edge(
        self,
        tail_name: str,
        head_name: str,
        label: str | None = None,
        _attributes=None,  # type: ignore[no-untyped-def,override]
        **attrs,
    ) -> None:
        super().edge(
            tail_name,
            head_name,
            None if label is None else text(label),
            _attributes=_values(_attributes),
            **_values(attrs) or {},
        )

    def attr(self, kw: str | None = None, _attributes=None, **attrs) -> None:  # type: ignore[no-untyped-def,override]
        super().attr(kw, _attributes=_values(_attributes), **_values(attrs) or {})
