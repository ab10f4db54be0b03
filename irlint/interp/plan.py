"""A linear schedule per graph level, built once: layers in dependency order with bound attributes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from irlint.interp.errors import ExecutionError
from irlint.ir.index import GraphIndex
from irlint.ir.model import Graph, Layer
from irlint.ops import Op, bind_attrs, lookup
from irlint.shapes.infer import topological_order

STRUCTURAL = ("Parameter", "Const", "Result", "TensorIterator", "Loop")


@dataclass(frozen=True, slots=True)
class Step:
    layer: Layer
    op: Op | None  # None for Parameter/Const/Result/TI/Loop
    attrs: Any
    sources: tuple[tuple[int, int], ...]  # (producer layer id, output port id) per input port


@dataclass(frozen=True, slots=True)
class Plan:
    graph: Graph
    steps: tuple[Step, ...]


_CACHE: dict[int, Plan] = {}


def plan_for(graph: Graph) -> Plan:
    """The schedule of one graph level (cached per Graph object)."""
    cached = _CACHE.get(id(graph))
    if cached is not None and cached.graph is graph:
        return cached
    idx = GraphIndex.build(graph)
    steps = []
    seen: set[int] = set()
    for layer in topological_order(graph, idx):
        sources = []
        for p in layer.inputs:
            e = idx.source(layer.id, p.id)
            if e is None or e.from_layer is None or e.from_port is None:
                raise ExecutionError(f"input port {p.id} of {layer.describe()} is not connected", layer)
            if e.from_layer not in seen:
                raise ExecutionError(f"{layer.describe()} is on a cycle or reads a missing layer", layer)
            sources.append((e.from_layer, e.from_port))
        op, attrs = None, None
        if layer.type not in STRUCTURAL:
            op = lookup(layer.type, layer.version)
            if op is None:
                raise ExecutionError(f"irlint cannot run {layer.describe()}: no kernel for {layer.type} "
                                     f"({layer.version})", layer)
            attrs, problems = bind_attrs(op.Attrs, layer.data)
            if problems:
                raise ExecutionError(f"{layer.describe()}: {'; '.join(problems)}", layer)
        if layer.id is not None:
            seen.add(layer.id)
        steps.append(Step(layer, op, attrs, tuple(sources)))
    plan = Plan(graph, tuple(steps))
    _CACHE[id(graph)] = plan
    return plan
