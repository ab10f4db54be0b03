"""`irlint.render(model)`: the diagram of `irlint render` as an object Jupyter shows inline (`_repr_svg_`).

The model may be a path, a loaded `Model` or an `openvino.Model` (irlint.api.load); `lint=True` draws
each finding where `--lint` draws it, `trace` (an `irlint.trace(...)` run, a mapping of trace keys, or a
`.npz` written by `irlint run --trace`) with `iteration` annotates edges with that iteration's values.
The checks are `irlint render`'s: a trace of another model or an iteration it does not hold is refused
(`ValueError`), and so is a diagram of more than `max_nodes` drawn layers (graphviz's time grows faster
than the size). The SVG is drawn once, when first shown or asked for.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from irlint.ir.model import Model


class Diagram:
    """A drawn model: `.svg` (text), `.dot` (graphviz source), `.save(path)`; shown inline as SVG."""

    def __init__(self, model: Model, graph: Any, diagnostics: Sequence[Any] = (), notes: Sequence[str] = ()) -> None:
        self.model = model
        self.graph = graph  # a graphviz.Digraph
        self.diagnostics = diagnostics  # drawn on it (lint=True)
        self.notes = list(notes)  # what the diagram says it did (bodies collapsed ...)
        self._svg: str | None = None

    @property
    def dot(self) -> str:
        return str(self.graph.source)

    @property
    def svg(self) -> str:
        if self._svg is None:
            self._svg = self._pipe("svg").decode("utf-8")
        return self._svg

    def _pipe(self, fmt: str) -> bytes:
        """`dot`'s output, `dot` run as `irlint render` runs it: a child that ends with the process (a killed
        or restarted kernel leaves no `dot` laying out a large graph; the graphviz package's pipe would)."""
        import shutil

        from irlint.viewer.render_cmd import pipe

        if shutil.which("dot") is None:
            raise RuntimeError(
                "drawing the diagram needs Graphviz's `dot` program: install it (Debian: apt-get "
                "install graphviz), or take the DOT source from `.dot`"
            )
        return pipe(self.graph, fmt)

    def _repr_svg_(self) -> str:
        return self.svg

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the diagram as .svg, .png, .pdf, .dot or .html (one self-contained page), by extension."""
        fmt = os.fspath(path).rpartition(".")[2].lower()
        if fmt == "svg":
            data = self.svg.encode("utf-8")
        elif fmt == "dot":
            data = self.dot.encode("utf-8")
        elif fmt == "html":
            from irlint.viewer.diagram.html import page

            data = page(self.model, self.svg, self.diagnostics).encode("utf-8")
        elif fmt in ("png", "pdf"):
            data = self._pipe(fmt)
        else:
            raise ValueError(f"{path}: the extension must be one of svg, png, pdf, dot, html")
        with open(path, "wb") as f:
            f.write(data)


def _is_traced_run(obj: Any) -> bool:
    from irlint.traced import TracedRun

    return isinstance(obj, TracedRun)


def _trace_mapping(trace: Any) -> Mapping[str, np.ndarray]:
    if _is_traced_run(trace):
        return trace.values  # type: ignore[no-any-return]
    if isinstance(trace, (str, os.PathLike)):
        from irlint.interp.trace import load_trace

        return load_trace(trace)[0]
    if isinstance(trace, Mapping):
        return trace
    raise TypeError(
        f"trace: expected irlint.trace(...)'s result, a mapping of trace keys or a .npz path, "
        f"not {type(trace).__name__}"
    )


def render(
    model: Any,
    *,
    lint: bool = True,
    trace: Any = None,
    iteration: int | str | Sequence[int] | None = None,
    collapse: bool = False,
    depth: int | None = None,
    expand: Sequence[str] = (),
    scope_depth: int | None = None,
    rankdir: str = "TB",
    max_nodes: int | None = None,
    weights: str | None = None,
) -> Diagram:
    """The diagram of `model` (see the module's docstring); `iteration` is K or "K.M" (0-based, outer first).
    `render(irlint.trace(model, inputs), iteration=K)` draws the traced run's model with its values."""
    from irlint.viewer.diagram import DiagramOptions, build_diagram
    from irlint.viewer.diagram.tracecheck import check_trace, parse_iteration
    from irlint.viewer.render_cmd import MAX_NODES, auto_collapses, drawn_nodes

    from irlint.api import check_model, load

    if trace is None and _is_traced_run(model):  # irlint.render(irlint.trace(...), iteration=K)
        model, trace = model.model, model
    m = load(model, weights)
    limit = MAX_NODES if max_nodes is None else max_nodes
    n = drawn_nodes(m.graph, collapse or auto_collapses(m, depth), depth, limit)
    if n > limit:
        raise ValueError(
            f"the diagram would have more than {limit} layers, too many for graphviz to lay out in "
            "bounded time: collapse=True, a smaller depth=, or a larger max_nodes="
        )
    values, its = None, None
    if (trace is None) != (iteration is None):
        raise ValueError("trace= and iteration= go together")
    if trace is not None:
        values = _trace_mapping(trace)
        its = (
            tuple(int(k) for k in iteration)
            if isinstance(iteration, (tuple, list))  # type: ignore[union-attr]
            else parse_iteration(str(iteration))
        )
        check_trace(m, values, its)  # TraceMismatch is a ValueError
    diagnostics = check_model(m) if lint else ()
    opts = DiagramOptions(
        depth=depth,
        collapse=collapse,
        rankdir=rankdir,
        diagnostics=diagnostics,
        trace=values,
        iteration=its,
        expand=tuple(expand),
        scope_depth=scope_depth,
    )
    g = build_diagram(m, opts)
    return Diagram(m, g, diagnostics, getattr(g, "irlint_notes", ()))
