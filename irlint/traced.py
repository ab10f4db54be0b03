"""A run and its trace, for the Python API (`irlint.trace`): outputs, recorded tensors, per-iteration plots.

The trace is the one `irlint run --trace` records (irlint.interp.trace; keys as docs/trace-format.md
says): every body Parameter (`in`) and Result (`out`) per iteration, every layer's outputs with
`trace_all`. `plot(layer, ...)` draws what `irlint trace --watch LAYER --plot` draws (min..max, mean,
norm, NaN/Inf per iteration) and shows inline in Jupyter as SVG; `irlint.render(model, trace=run,
iteration=K)` annotates the diagram with iteration K. Tensors past the trace's memory budget are kept in
a temporary directory that `close()` (or the object's end) removes.
"""

from __future__ import annotations

import io
import weakref
from collections.abc import Mapping
from typing import Any

import numpy as np

from irlint.interp import Options, State
from irlint.interp.trace import DEFAULT_BUDGET, Trace
from irlint.ir.model import Layer, Model
from irlint.layerpath import iteration_label


class TracedRun:
    """The outputs of one run (by Result name) and its `Trace`."""

    def __init__(self, model: Model, outputs: dict[str, np.ndarray], trace: Trace) -> None:
        self.model = model
        self.outputs = outputs
        self.trace = trace
        self._finalize = weakref.finalize(self, trace.close)

    @property
    def values(self) -> dict[str, np.ndarray]:
        """Every recorded tensor by trace key (`2/body/7@3:out`), spilled ones read back."""
        keys = self.trace.keys()  # a Trace, not a dict: its keys are written out on this call
        return {k: self.trace.get(k) for k in keys}

    def close(self) -> None:
        """Remove what the trace spilled to disk (nothing when it fitted its budget)."""
        self._finalize()

    def __enter__(self) -> TracedRun:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def series(self, layer: str) -> dict[str, list[tuple[str, np.ndarray]]]:
        """A layer's (id path or name) recorded tensors per iteration, by what was recorded (`in`, `out`,
        `out<port>`): lists of (iteration label, tensor) in recording order. KeyError if not in the model."""
        found = [la for _g, la in self.model.layers() if layer in (la.path, la.name)]
        if not found:
            raise KeyError(f"no layer {layer!r} in {self.model.path} (use an id path like 2/body/7 or a name)")
        paths = {la.path for la in found}
        out: dict[str, list[tuple[str, np.ndarray]]] = {}
        keys = self.trace.keys()
        for k in keys:
            base, _, what = k.rpartition(":")
            path, _, its = base.partition("@")
            if path in paths:
                label = iteration_label([int(i) for i in its.split(".")] if its else [], path)
                out.setdefault(f"{path}:{what}", []).append((label, self.trace.get(k)))
        return out

    def plot(self, *layers: str) -> TracePlot:
        """One panel per recorded tensor of each layer: min..max, mean, norm and NaN/Inf per iteration.
        Without layers: every body Result the trace holds."""
        from irlint.cli.trace_plot import Series

        wanted = list(layers) or [la.path for _g, la in self.model.layers() if la.type == "Result" and _in_body(la)]
        panels = []
        for name in wanted:
            for key, rows in self.series(name).items():
                path, _, what = key.partition(":")
                la = next(la for _g, la in self.model.layers() if la.path == path)
                s = Series(f"{la.path} {la.name!r} ({la.type}) {what}")
                for label, value in rows:
                    s.add(label, value)
                panels.append(s)
        return TracePlot(panels, self.model.name or self.model.path)


def _in_body(layer: Layer) -> bool:
    return "/" in layer.path


class TracePlot:
    """The per-iteration panels of `TracedRun.plot`, drawn with matplotlib (irlint[plot]) when shown or saved."""

    def __init__(self, series: list[Any], title: str) -> None:
        self.series = series
        self.title = title

    def _draw(self, fmt: str) -> bytes:
        from irlint.cli.command import UsageError
        from irlint.cli.trace_plot import figure, import_pyplot

        try:
            plt = import_pyplot()
        except UsageError as e:
            raise ImportError(str(e)) from e
        fig = figure(self.series, self.title)
        try:
            buf = io.BytesIO()
            fig.savefig(buf, dpi=110, format=fmt)
            return buf.getvalue()
        finally:
            plt.close(fig)

    def _repr_svg_(self) -> str:
        return self._draw("svg").decode("utf-8")

    def save(self, path: str) -> None:
        """Write the plot as PNG, SVG or PDF (by extension)."""
        data = self._draw(path.rpartition(".")[2].lower() or "png")
        with open(path, "wb") as f:
            f.write(data)


def traced_run(
    model: Model,
    inputs: Mapping[str, np.ndarray],
    *,
    trace_all: bool = False,
    state: State | None = None,
    options: Options | None = None,
    budget: int = DEFAULT_BUDGET,
) -> TracedRun:
    """Run `model` with a `Trace` listening (the plain driver, as `irlint run --trace`)."""
    from irlint.interp import run

    trace = Trace(budget=budget, trace_all=trace_all)
    try:
        outputs = run(model, inputs, options, listener=trace, state=state)
    except BaseException:
        trace.close()
        raise
    return TracedRun(model, outputs, trace)
