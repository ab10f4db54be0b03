"""Find a layer by its id path (``2/body/7``), the way diagnostics name layers."""

from __future__ import annotations

from collections.abc import Iterable

from irlint.diagnostics import Diagnostic
from irlint.ir.model import Graph, Layer, Model


def find_layer(model: Model, path: str | None) -> Layer | None:
    """The layer at `path` ("7", "2/body/7", ...) or None; the first layer wins where ids repeat."""
    if not path:
        return None
    graph: Graph | None = model.graph
    layer: Layer | None = None
    parts = path.split("/")
    for i, part in enumerate(parts):
        if i % 2 == 1:
            if layer is None:
                return None
            graph = subgraph(layer, part)
            continue
        if graph is None:
            return None
        try:
            layer = graph.layer(int(part))
        except ValueError:
            return None
        if layer is None:
            return None
    return layer


def subgraph(layer: Layer, kind: str) -> Graph | None:
    """The graph a path part names inside `layer`: "body" (TI/Loop), "then_body"/"else_body" (If)."""
    if kind == "body":
        return layer.body
    if kind in ("then_body", "else_body"):
        b = layer.branch(kind[:-5])
        return None if b is None else b.body
    return None


def owner_of(model: Model, path: str) -> Layer | None:
    """The TensorIterator/Loop/If whose body holds the layer at `path` (None at top level)."""
    parts = path.split("/")
    return find_layer(model, "/".join(parts[:-2])) if len(parts) >= 3 else None


Place = tuple[tuple[str, ...], str]  # a finding's layer as names (`name_parts`), its port's role ("input 1")


def name_parts(model: Model, path: str) -> tuple[str, ...] | None:
    """The layer at id path `path` named by names: "2/body/7" -> ("lstm", "body", "h_next") (the enclosing
    layers' names and the bodies, then its own), or None if a layer on the way is missing. A re-export that
    renumbers layers keeps it. A sequence, not one string: names hold '/' ("model/lstm/while/add"), so a
    joined path could not tell layer "b" in the body of "a" from a layer named "a/body/b"."""
    parts = path.split("/")
    names: list[str] = []
    for i in range(0, len(parts), 2):
        layer = find_layer(model, "/".join(parts[: i + 1]))
        if layer is None:
            return None
        names += [layer.name] if i == 0 else [parts[i - 1], layer.name]
    return tuple(names)


def port_role(layer: Layer | None, port_id: int | None) -> str:
    """Port `port_id` of `layer` by its place among the layer's inputs or outputs ("input 1", "output 0"),
    which a re-export that renumbers port ids keeps; "" when there is no such port."""
    if layer is None or port_id is None:
        return ""
    for role, ports in (("input", layer.inputs), ("output", layer.outputs)):
        for i, p in enumerate(ports):
            if p.id == port_id:
                return f"{role} {i}"
    return ""


def place_key(d: Diagnostic) -> str:
    """The key of `d`'s layer and port in `finding_places`' answer ("2/body/7:5"; "" for no layer)."""
    if not d.layer:
        return ""
    return d.layer if d.port is None else f"{d.layer}:{d.port}"


def finding_places(model: Model, diags: Iterable[Diagnostic]) -> dict[str, Place]:
    """`place_key` -> the names of the layer and the role of the port `diags` point at (how baselines match
    findings across re-exports that renumber layers and ports)."""
    out: dict[str, Place] = {}
    for d in diags:
        key = place_key(d)
        if key and key not in out:
            named = name_parts(model, d.layer or "")
            if named is not None:
                out[key] = (named, port_role(find_layer(model, d.layer), d.port))
    return out


def nesting(path: str) -> list[str]:
    """What each enclosing body of the layer at `path` is, outer first: 'body' (a TensorIterator/Loop
    iteration) or 'then'/'else' (an If's branch), one per frame of an event there."""
    parts = path.split("/")[1::2]
    return [p if p == "body" else p.removesuffix("_body") for p in parts]


def loop_positions(path: str) -> list[int]:
    """Which frames of a layer at `path` are loop iterations (the others are If branches)."""
    return [i for i, kind in enumerate(nesting(path)) if kind == "body"]


def project_its(iterations: tuple[int, ...], path: str) -> tuple[int, ...]:
    """The loop iterations among a layer's frames (an If's frame, always 0, left out)."""
    return tuple(iterations[i] for i in loop_positions(path) if i < len(iterations))


def iteration_label(iterations: Iterable[int], path: str, branch: str | None = None) -> str:
    """The iterations of a layer at `path` for people: loop iterations as numbers, an If's frame as the
    branch that ran, outer first (`2.then.1`); `-` outside any body. The If's frame is `0` in trace keys;
    shown as a number it read as an iteration of a nested loop. `branch` names the frame of an If's own
    events (its path does not say which branch runs)."""
    kinds = nesting(path)
    out = []
    for i, k in enumerate(iterations):
        kind = kinds[i] if i < len(kinds) else (branch or "body")
        out.append(str(k) if kind == "body" else kind)
    return ".".join(out) or "-"
