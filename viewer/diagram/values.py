"""Traced values as edges show them: which iteration of which loop a label is taken from."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

import numpy as np
from irlint.viewer.diagram.context import Ctx
from irlint.viewer.diagram.tracecheck import split_key

from irlint.ir.model import Graph, Layer
from irlint.layerpath import iteration_label, project_its


def branch_taken(ctx: Ctx, layer: Layer, name: str, depth: int) -> bool:
    """Whether the trace shows the If's `name` branch running (at the requested outer loop iterations, if
    given): its layers' keys carry the enclosing iterations plus the If's own 0."""
    prefix = f"{layer.path}/{name}_body/"
    want = ctx.opts.iteration
    for path, recorded in ctx.trace.items():
        if path.startswith(prefix) and path.count("/") == prefix.count("/"):
            for it in recorded:
                if len(it) != depth + 1:
                    continue
                loops = project_its(it[:depth], layer.path)
                if want is None or loops == tuple(want)[:len(loops)]:
                    return True
    return False


def index_trace(ctx: Ctx, trace: Mapping[str, np.ndarray]) -> None:
    for key, value in trace.items():
        parts = split_key(key)
        if parts is not None:
            path, it, what = parts
            ctx.trace.setdefault(path, {}).setdefault(it, {})[what] = value


@dataclass(frozen=True)
class Value:
    """A traced value as an edge shows it: a short label line and the whole tensor for the tooltip."""

    text: str = ""
    tip: str = ""
    final: bool = False  # taken from the last iteration its loop ran (a back edge carries it nowhere)

    def named(self, name: str) -> Value:
        """Prefixed with (the short name of) the body layer it is about ('h_prev it 3: ...'), so that a
        port-map edge says which end of the iteration the value belongs to."""
        return replace(self, text=f"{name} {self.text}") if self.text else self


# Which iteration of the innermost loop a value is taken from: the requested one, the first (what an
# initial-value edge carries) or the last (what a last-value output delivers).
REQUESTED, FIRST, LAST = "requested", "first", "last"
TIP_ELEMENTS = 1000  # a tooltip prints at most this many elements, then numpy's summary


def trace_value(ctx: Ctx, layer: Layer, port: int | None, depth: int, what: str | None = None,
                 pick: str = REQUESTED) -> Value:
    """The value `layer` produced at the requested iteration, for a layer `depth` loops deep.

    The requested iteration gives the outer loops first; a deeper loop not given shows its last
    recorded iteration, and the label always says which full iteration it is. FIRST and LAST keep
    the requested outer iterations and take the innermost loop's first or last iteration."""
    want = ctx.opts.iteration
    if want is None or not ctx.trace:
        return Value()
    assert isinstance(want, tuple)
    recorded = ctx.trace.get(layer.path)
    if not recorded:
        return Value()
    # the requested iteration counts loops (outer first; an If's frame is its branch, no number to give);
    # FIRST/LAST leave the innermost loop's number free
    free = 0 if pick == REQUESTED else 1
    candidates = []
    for it in recorded:
        if len(it) == depth:
            loops = project_its(it, layer.path)
            fixed = loops[:max(len(loops) - free, 0)]
            if fixed[:len(want)] == want[:len(fixed)]:
                candidates.append(it)
    if not candidates:
        return Value()
    it = max(candidates)
    if pick == FIRST and it:
        it = min(c for c in candidates if c[:-1] == it[:-1])
    keys = [what] if what else ["in", "out", f"out{port}"] if layer.type in ("Parameter", "Result") \
        else [f"out{port}"]
    value = next((recorded[it][k] for k in keys if k in recorded[it]), None)
    if value is None:
        return Value()
    v = np.asarray(value)
    at = f"it {iteration_label(it, layer.path)}" if it else "value"
    tip = f"{layer.name} {at}: {v.dtype}{list(v.shape)}\n" + np.array2string(
        v, precision=6, threshold=TIP_ELEMENTS, max_line_width=100)
    final = bool(it) and not any(len(c) == len(it) and c[:-1] == it[:-1] and c[-1] > it[-1] for c in recorded)
    if v.size <= 4:  # a scalar (shape []) prints as `1`, a one-element tensor as `[1]`
        return Value(f"{at}: {np.array2string(v if v.ndim == 0 else v.reshape(-1), precision=3)}", tip, final)
    f = v.astype(np.float64)
    return Value(f"{at}: {list(v.shape)} [{np.nanmin(f):.3g}, {np.nanmax(f):.3g}]", tip, final)


def edge_value(ctx: Ctx, graph: Graph, src: Layer, port: int | None, dst: Layer, level: int) -> Value:
    """What flows on an edge: the producer's recorded output, or, when only a trace of Parameters and
    Results was taken, the value of the Result the edge feeds (the same tensor)."""
    value = trace_value(ctx, src, port, level)
    if not value.text and dst.type == "Result":
        value = trace_value(ctx, dst, None, level, "out")
    return value
