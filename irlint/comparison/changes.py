"""What differs between two IRs of one model before anything runs: the likely causes of a numeric
difference, listed first in the two-model report.

Layers are matched by name key (`irlint.comparison.two`). For each matched pair: a changed type or opset
version, a Const whose element type, shape or bytes changed, changed attributes. Layers only in A and
only in B that hold the same place (same enclosing loops, same type, fed by the same producers; for a
Const, read by the same layers; a body Parameter, by its position) are taken as one layer renamed: they
are compared under both names, and the rename is said (a Const's by its value only: converters make its
name up); a loop or If matched so carries the layers inside it along. The computing layers left over
are listed as only in A ("removed") or only in B ("added").
"""

from __future__ import annotations

from typing import Any

import numpy as np

from irlint.ir.declared import declared_info
from irlint.ir.model import Graph, Layer, Model
from irlint.ir.weights import WeightsError

NameKey = tuple[str, ...]
Keys = tuple[dict[str, NameKey], dict[NameKey, Layer], dict[str, Graph], set[NameKey]]
CONSTS = ("Const", "Constant")
_PLACEMENT = ("offset", "size")  # where a Const's bytes sit in the .bin says nothing about its value


def changes(model_a: Model, model_b: Model, keys_a: Keys, keys_b: Keys
            ) -> tuple[list[dict[str, Any]], dict[NameKey, NameKey]]:
    """Every change between A and B, in A's file order: kind "type", "const", "attributes" or "renamed"; then
    the layers only in A ("removed") and only in B ("added"). Also the layers matched by place rather than
    name key (A's key -> B's; `translate` carries a renamed loop's or If's key to the layers inside it)."""
    by_path_a, by_key_a, graphs_a, dup_a = keys_a
    by_path_b, by_key_b, graphs_b, dup_b = keys_b
    out: list[dict[str, Any]] = []
    for key, la in by_key_a.items():
        lb = by_key_b.get(key)
        if lb is None or key in dup_a or key in dup_b:
            continue
        out += _pair(model_a, model_b, key, la, lb)
    renames = _renames(by_path_a, by_key_a, graphs_a, by_path_b, by_key_b, graphs_b, dup_a | dup_b)
    for ka, kb in renames.items():
        la, lb = by_key_a[ka], by_key_b[kb]
        out += _pair(model_a, model_b, ka, la, lb)
        # a Const's name is mostly made up by the converter, and Result_12 against Result_31 says nothing;
        # a layer whose loop or If alone was renamed keeps its own name
        if la.type not in CONSTS and la.name != lb.name and not (_made_up(la) and _made_up(lb)):
            out.append(_entry("renamed", ka, la, lb, la.name, lb.name, key_b=list(kb)))
    order = {la.path: i for i, la in enumerate(by_key_a.values())}
    out = sorted(out, key=lambda c: order.get(c["path_a"], 0))
    return out + _lone(by_key_a, by_key_b, renames, dup_a | dup_b), renames


def translate(key: NameKey, renamed: dict[NameKey, NameKey]) -> NameKey:
    """A's name key in B's names: its longest renamed prefix (the layer, or a loop or If around it) replaced."""
    for end in range(len(key), 0, -1):
        hit = renamed.get(key[:end])
        if hit is not None:
            return (*hit, *key[end:])
    return key


def _lone(by_key_a: dict[NameKey, Layer], by_key_b: dict[NameKey, Layer], renames: dict[NameKey, NameKey],
          ambiguous: set[NameKey]) -> list[dict[str, Any]]:
    """Computing layers only in A ("removed") or only in B ("added"), matched neither by name nor by place.
    Constants, Parameters and Results are left to the layers that read them and to the outputs' lists."""
    renamed_b = set(renames.values())
    out = []
    for side, mine, other, taken in (("removed", by_key_a, by_key_b, set(renames)), ("added", by_key_b, by_key_a,
                                                                                      renamed_b)):
        for key, la in mine.items():
            if key in other or key in taken or key in ambiguous or la.type in (*CONSTS, "Parameter", "Result"):
                continue
            where = f"{la.type} ({la.version})"
            out.append({"kind": side, "layer": la.name, "key": list(key), "path": la.path, "type": where,
                        "a": where if side == "removed" else None, "b": where if side == "added" else None})
    return out


def _entry(kind: str, key: NameKey, la: Layer, lb: Layer, a: str, b: str, **more: Any) -> dict[str, Any]:
    entry = {"kind": kind, "layer": la.name, "key_a": list(key), "path_a": la.path, "path_b": lb.path, "a": a,
             "b": b, **more}
    if la.name != lb.name:
        entry["layer_b"] = lb.name
    return entry


def _pair(model_a: Model, model_b: Model, key: NameKey, la: Layer, lb: Layer) -> list[dict[str, Any]]:
    if (la.type, la.version) != (lb.type, lb.version):
        return [_entry("type", key, la, lb, f"{la.type} ({la.version})", f"{lb.type} ({lb.version})")]
    if la.type in CONSTS:
        const = _const(model_a, model_b, key, la, lb)
        return [const] if const else []
    if dict(la.data) != dict(lb.data):
        names = sorted(k for k in set(la.data) | set(lb.data) if la.data.get(k) != lb.data.get(k))
        return [_entry("attributes", key, la, lb, _attrs(la, names), _attrs(lb, names), attributes=names)]
    return []


def _made_up(layer: Layer) -> bool:
    """A name OpenVINO made up (`Result_1234`): the type and a counter."""
    head, _, tail = layer.name.rpartition("_")
    return head == layer.type and tail.isdigit()


def _attrs(layer: Layer, names: list[str]) -> str:
    return ", ".join(f"{n}={layer.data[n]!r}" if n in layer.data else f"{n} absent" for n in names)


def _const(model_a: Model, model_b: Model, key: NameKey, la: Layer, lb: Layer) -> dict[str, Any] | None:
    """A Const whose declaration or bytes differ; how many elements and by how much when they compare."""
    ia, ib = declared_info(la), declared_info(lb)
    decl_a, decl_b = f"{ia.etype}{_shape(ia.shape)}", f"{ib.etype}{_shape(ib.shape)}"
    if decl_a != decl_b:
        return _entry("const", key, la, lb, decl_a, decl_b, what="declaration")
    try:
        raw_a = model_a.weights.raw(int(la.data["offset"]), int(la.data["size"]))
        raw_b = model_b.weights.raw(int(lb.data["offset"]), int(lb.data["size"]))
    except (KeyError, ValueError, WeightsError):
        other = {k: v for k, v in la.data.items() if k not in _PLACEMENT}
        if other != {k: v for k, v in lb.data.items() if k not in _PLACEMENT}:
            return _entry("const", key, la, lb, decl_a, decl_b, what="attributes")
        return None
    if raw_a.tobytes() == raw_b.tobytes():
        return None
    extra: dict[str, Any] = {"what": "bytes", "read_by": _readers(model_a, la)}
    dtype = ia.etype.dtype if ia.etype is not None else None
    if dtype is not None and dtype.kind in "fiub" and raw_a.size == raw_b.size and raw_a.size % dtype.itemsize == 0:
        va = raw_a.view(dtype).astype(np.float64)
        vb = raw_b.view(dtype).astype(np.float64)
        with np.errstate(invalid="ignore"):
            gap = np.abs(va - vb)
        unequal = ~((va == vb) | (np.isnan(va) & np.isnan(vb)))
        extra.update(elements_changed=int(unequal.sum()), elements=int(va.size),
                     max_abs=float(np.nanmax(np.where(unequal, gap, 0.0), initial=0.0)),
                     first_index=int(np.argmax(unequal)))
    return _entry("const", key, la, lb, decl_a, decl_b, **extra)


def _readers(model: Model, const: Layer) -> list[str]:
    """The layers a Const feeds, as NAME:PORT."""
    graph = next(g for g in model.graphs() if any(la is const for la in g.layers))
    return [f"{reader.name}:{e.to_port}" for e in graph.edges if e.from_layer == const.id
            for reader in [graph.layer(e.to_layer)] if reader is not None]


def _shape(shape: Any) -> str:
    return "[...]" if shape is None else "[" + ",".join(str(d) for d in shape) + "]"


def _renames(by_path_a: dict[str, NameKey], by_key_a: dict[NameKey, Layer], graphs_a: dict[str, Graph],
             by_path_b: dict[str, NameKey], by_key_b: dict[NameKey, Layer], graphs_b: dict[str, Graph],
             ambiguous: set[NameKey]) -> dict[NameKey, NameKey]:
    """Unmatched layers of A and B with the same place: enclosing key, type and producers, or for a layer
    fed by nothing (a Const) its readers (pass after pass, so that a layer fed by a renamed one is found too)."""
    only_a = [k for k in by_key_a if k not in by_key_b and k not in ambiguous]
    only_b = {k for k in by_key_b if k not in by_key_a and k not in ambiguous}
    renamed: dict[NameKey, NameKey] = {}
    taken: set[NameKey] = set()
    while True:  # until nothing more is found: a layer fed by a renamed one is found on the next pass
        found = len(renamed)
        sigs_b: dict[tuple[Any, ...], list[NameKey]] = {}
        for k in only_b - taken:
            sigs_b.setdefault(_signature(by_key_b[k], k, graphs_b, by_path_b, {}), []).append(k)
        for k in only_a:
            if k in renamed:
                continue
            hits = sigs_b.get(_signature(by_key_a[k], k, graphs_a, by_path_a, renamed), [])
            if len(hits) == 1 and hits[0] not in taken:
                renamed[k] = hits[0]
                taken.add(hits[0])
        if len(renamed) == found:
            return renamed


def _signature(layer: Layer, key: NameKey, graphs: dict[str, Graph], by_path: dict[str, NameKey],
               renamed: dict[NameKey, NameKey]) -> tuple[Any, ...]:
    graph = graphs[layer.path]
    feeds, reads = [], []
    for e in graph.edges:
        if e.to_layer == layer.id:
            feeds.append((e.to_port, _key_of(graph, e.from_layer, by_path, renamed), e.from_port))
        elif e.from_layer == layer.id and layer.type in CONSTS:
            reads.append((e.from_port, _key_of(graph, e.to_layer, by_path, renamed), e.to_port))
    # a body Parameter (fed by nothing, its name made up) is placed by its position among the body's inputs
    place = [i for i, q in enumerate(graph.parameters()) if q is layer] if layer.type == "Parameter" else []
    return (translate(key[:-1], renamed), layer.type, layer.version, tuple(place), tuple(sorted(feeds, key=repr)),
            tuple(sorted(reads, key=repr)))


def _key_of(graph: Graph, layer_id: int | None, by_path: dict[str, NameKey], renamed: dict[NameKey, NameKey]
            ) -> NameKey | None:
    other = graph.layer(layer_id)
    if other is not None and other.type in CONSTS:
        return ("Const",)  # Consts are placed by their readers, not their made-up names
    key = by_path.get(other.path) if other is not None else None
    return translate(key, renamed) if key is not None else None
