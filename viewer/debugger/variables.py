"""What the Variables list and the scope navigation show, without any UI: the scopes the current event
is nested in (the top level, each TI/Loop body at its iteration, each If branch that runs), and every
tensor of one scope at its iteration.

A scope is a graph plus the iterations of the frames up to it: `3/body` at iteration (2,) holds the
values its layers were recorded with in iteration 2. A layer not evaluated yet in that iteration has
no value there (shown as such, not as an older iteration's value).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from irlint.viewer.debugger.describe import Iteration, short
from irlint.viewer.debugger.inspector import changed_elements, full_stats, port_names, short_dtype

from irlint.interp.events import RunFinished
from irlint.ir.model import Graph, Layer
from irlint.layerpath import find_layer, iteration_label, subgraph


@dataclass(frozen=True)
class Scope:
    """One level of the nesting: `prefix` + layer id is a layer's path in it ('' at the top level)."""

    prefix: str
    graph: Graph
    iteration: Iteration  # the frames' iterations up to this level (an If's frame: 0)
    label: str  # `top level`, `#3 rnn (TensorIterator) it 2`, `#5 cond (If) then branch`


def scopes(session) -> list[Scope]:  # type: ignore[no-untyped-def]
    """The scopes of the current event, outermost first (the last: where the event happened)."""
    model = session.model
    out = [Scope("", model.graph, (), "top level")]
    ev = session.stepper.current
    if ev is None or ev.__class__ is RunFinished:
        return out
    frames = ev.frames
    here = getattr(getattr(ev, "layer", None), "path", "")
    for i, (path, _k) in enumerate(frames):
        owner = find_layer(model, path)
        if owner is None:
            break
        if owner.branches:  # the branch that runs: from the path of the layer the event is at, or its own
            rest = here[len(path) + 1 :].split("/", 1)[0] if here.startswith(path + "/") else ""
            part = rest or f"{getattr(ev, 'branch', None) or 'then'}_body"
        else:
            part = "body"
        graph = subgraph(owner, part)
        if graph is None:
            break
        its = tuple(k for _p, k in frames[: i + 1])
        where = (
            f"{part.removesuffix('_body')} branch" if owner.branches else f"it {iteration_label(its, f'{path}/body/0')}"
        )
        out.append(Scope(f"{path}/{part}/", graph, its, f"{short(owner)} {where}"))
    return out


def running_at(session, layer_path: str) -> tuple[Iteration, str] | None:  # type: ignore[no-untyped-def]
    """When the current event is inside the TI/Loop/If `layer_path` (it is running, its outputs not made
    yet): the iteration of the scope that holds it and where it is (`at its iteration 2`, `in its else
    branch`); else None. Scope navigation (u) selects such a layer at that iteration."""
    ev = session.stepper.current
    frames = getattr(ev, "frames", ()) if ev is not None and ev.__class__ is not RunFinished else ()
    for i, (path, k) in enumerate(frames):
        if path == layer_path:
            inside = next((sc.prefix for sc in scopes(session) if sc.prefix.startswith(path + "/")), "")
            part = inside[len(path) + 1 :].split("/", 1)[0]
            now = f"in its {part.removesuffix('_body')} branch" if part.endswith("_body") else f"at its iteration {k}"
            return tuple(j for _p, j in frames[:i]), now
    return None


@dataclass(frozen=True)
class Variable:
    """One tensor of a scope at its iteration (a multi-output layer: one per output)."""

    layer: Layer
    path: str
    port: str  # the inspector's name: out6, in (a Result)
    dtype: str  # f32, i64, bool; '' when not evaluated in this iteration
    shape: tuple[int, ...] | None
    lo: float | None
    hi: float | None
    nan: int
    inf: int
    changed: int | None  # elements changed since the layer's previous recorded iteration (None: no previous)
    iteration: Iteration | None  # where the value was recorded (None: not evaluated yet in this iteration)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape)) if self.shape is not None else 0

    def range_text(self) -> str:
        if self.lo is None or self.hi is None:
            return ""
        return f"{self.lo:.3g}" if self.lo == self.hi else f"{self.lo:.3g}..{self.hi:.3g}"


def variables(session, scope: Scope) -> list[Variable]:  # type: ignore[no-untyped-def]
    """Every layer output of `scope` at its iteration, in the graph's order (Consts: their weights)."""
    out = []
    for layer in scope.graph.layers:
        path = scope.prefix + str(layer.id)
        seen = session.iterations_seen(path)
        its = scope.iteration if scope.iteration in seen else None
        if its is None and not scope.prefix and seen:  # top level: one value per run
            its = seen[-1]
        tensors = session.tensor(path, its) if its is not None else None
        if tensors is None and layer.type == "Const":
            tensors, its = session.const_value(layer), ()
        if tensors is None:
            out.append(Variable(layer, path, "", "", None, None, None, 0, 0, None, None))
            continue
        prev = None
        if its in seen and seen.index(its) > 0:
            prev = session.tensor(path, seen[seen.index(its) - 1])
        for i, (name, t) in enumerate(zip(port_names(layer, len(tensors)), tensors)):
            a = np.asarray(t)
            s = full_stats(a)
            lo, hi = s.get("min"), s.get("max")
            if a.dtype == np.bool_ and a.size:
                lo, hi = float(a.min()), float(a.max())
            changed = None
            if prev is not None and i < len(prev) and np.shape(prev[i]) == a.shape and a.dtype.kind in "biuf":
                p = np.asarray(prev[i])
                changed = (
                    changed_elements(a, p)[1]
                    if p.dtype.kind in "iuf" and a.dtype.kind in "iuf"
                    else int(np.count_nonzero(a != p))
                )
            out.append(
                Variable(
                    layer,
                    path,
                    name,
                    short_dtype(a.dtype),
                    tuple(a.shape),
                    lo if isinstance(lo, float) else None,
                    hi if isinstance(hi, float) else None,
                    int(s.get("nan", 0) or 0),
                    int(s.get("inf", 0) or 0),
                    changed,
                    its,
                )
            )
    return out


SORTS = ("order", "name", "type", "size", "max |value|", "NaN/Inf", "changed")


def sort_key(how: str):  # type: ignore[no-untyped-def]
    """The key a sort order puts variables in (largest first for the numeric ones)."""
    if how == "name":
        return lambda v: v.layer.name.lower()
    if how == "type":
        return lambda v: (v.layer.type, v.layer.name.lower())
    if how == "size":
        return lambda v: -v.size
    if how == "max |value|":
        return lambda v: -max(abs(v.lo or 0.0), abs(v.hi or 0.0)) if v.lo is not None else 0.0
    if how == "NaN/Inf":
        return lambda v: -(v.nan + v.inf)
    if how == "changed":
        return lambda v: -(v.changed or 0)
    return None


def matches(v: Variable, text: str) -> bool:
    """The filter: a case-insensitive piece of the name, the type, the id path or the port."""
    t = text.strip().lower()
    return not t or any(t in s.lower() for s in (v.layer.name, v.layer.type, v.path, v.port, v.dtype))
