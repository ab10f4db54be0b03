"""Which ops OpenVINO merges into an identical one before the CPU plugin builds its graph.

OpenVINO's SharedOpOptimization (src/common/transformations/src/transformations/common_optimizations/
shared_ops_optimization.cpp) replaces, among the readers of one output, each op of the same type and
version, with the same attributes and reading the same outputs (or equal Consts), by the first of them
in topological order. The CPU plugin's CommonOptimizations run it (through StridedSliceOptimization)
before the plugin builds its nodes: two Add(x, Reshape(s, [])) chains of one body write x's memory as
one (measured). Where the memory analysis counts the readers of a value, duplicates count once.
"""

from __future__ import annotations

from irlint.ir.index import GraphIndex
from irlint.ir.model import Graph, Layer

# Ops never merged: the graph's ends, and the ops holding bodies (their bodies are not compared).
_NEVER = frozenset({"Parameter", "Result", "Const", "TensorIterator", "Loop", "If", "ReadValue", "Assign"})


def _const_key(layer: Layer) -> tuple[str, ...]:
    """A Const by the bytes it reads: OpenVINO's serializer writes equal Consts at one offset."""
    d = layer.data
    return ("Const", d.get("element_type", ""), d.get("shape", ""), d.get("offset", ""), d.get("size", ""))


def canonical(body: Graph, idx: GraphIndex) -> dict[int | None, int | None]:
    """Each layer id of `body` mapped to the id of the layer OpenVINO keeps in its place (itself when kept)."""
    keep: dict[int | None, int | None] = {}
    seen: dict[tuple, int | None] = {}
    for layer in idx.topological_order():
        keep[layer.id] = layer.id
        if layer.type in _NEVER or not layer.inputs or len(layer.outputs) != 1:
            continue
        sources: list[tuple] = []
        shared = False
        for port in layer.inputs:
            e = idx.source(layer.id, port.id)
            src = body.layer(e.from_layer) if e is not None else None
            if src is None or e is None:
                break
            if src.type == "Const":
                sources.append(_const_key(src))
            else:
                sources.append((keep.get(src.id, src.id), e.from_port))
                shared = True
        else:
            if not shared:
                continue  # readers of Consts alone share no output: nothing groups them
            key = (layer.type, layer.version, tuple(sorted(layer.data.items())), tuple(sources))
            if key in seen:
                keep[layer.id] = seen[key]
            else:
                seen[key] = layer.id
    return keep

