"""`r` in the debugger: the diagram with the values recorded so far, at the iteration the run is paused
in. The recorded tensors become a trace (the keys of docs/trace-format.md), so the diagram annotates
edges exactly as `irlint render --trace T.npz --iteration K` does. No UI here: the App reports."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import numpy as np

from irlint.layerpath import find_layer, nesting


def trace_of(session) -> dict[str, np.ndarray]:  # type: ignore[no-untyped-def]
    """The session's recorded tensors by trace key: `out<k>` per output port, `in` for a body
    Parameter's value at the start of an iteration, `out` for what a Result receives."""
    model = session.model
    layers = {la.path: la for _g, la in model.layers()}
    out: dict[str, np.ndarray] = {}
    for (path, its), tensors in session.recorded():
        layer = layers.get(path)
        if layer is None:
            continue
        at = f"{path}@{'.'.join(map(str, its))}" if its else path
        if layer.type == "Result":
            whats = ["out"]
        elif layer.type == "Parameter" and nesting(path):
            whats = ["in"]
        else:
            whats = [f"out{p.id}" for p in layer.outputs]
        for what, value in zip(whats, tensors):
            out[f"{at}:{what}"] = np.asarray(value)
    return out


def paused_iteration(session) -> tuple[int, ...]:  # type: ignore[no-untyped-def]
    """The loop iterations (outer first; an If's frame left out) of the event the run is paused at, as
    `render --iteration` counts them; () outside loops and once the run has finished."""
    ev = session.stepper.current
    frames = getattr(ev, "frames", ()) if ev is not None else ()
    out = []
    for path, k in frames:
        layer = find_layer(session.model, path)
        if layer is not None and layer.body is not None:
            out.append(k)
    return tuple(out)


def render_paused(session, diagnostics, model_path: str,  # type: ignore[no-untyped-def]
                  reads: Iterable[tuple[str, str | None]], out: str | None = None) -> str:
    """Write the diagram with the paused iteration's values to `out` (default MODEL.debug.svg in the
    working directory) after the output checks every irlint output goes through (never over a file the
    run reads); returns what the log says. Raises UsageError (refused) or what graphviz raises."""
    from irlint.viewer.diagram import DiagramOptions, build_diagram
    from irlint.viewer.render_cmd import MAX_NODES, auto_collapses, drawn_nodes, pipe

    from irlint.cli.paths import atomic_write, check_outputs
    from irlint.ir.loader import default_weights_path

    out = out or Path(model_path).with_suffix(".debug.svg").name
    model = session.model
    check_outputs([("SVG", out)], [*reads, ("weights", default_weights_path(model_path))])
    if drawn_nodes(model.graph, auto_collapses(model, None), None, MAX_NODES) > MAX_NODES:
        return f"not rendered: more than {MAX_NODES} layers (use irlint render --collapse or --depth)"
    iteration = paused_iteration(session)
    opts = DiagramOptions(diagnostics=diagnostics, trace=trace_of(session), iteration=iteration)
    data = pipe(build_diagram(model, opts), "svg")
    atomic_write(out, lambda f: f.write(data))
    at = ".".join(map(str, iteration)) if iteration else "the latest values"
    return f"rendered the graph to {out} with the values recorded so far, at iteration {at}" if iteration \
        else f"rendered the graph to {out} with {at} recorded so far"
