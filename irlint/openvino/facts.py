"""What the memory analysis reads of a model: shapes, edges and the CPU plugin's execution order."""

from __future__ import annotations

from typing import Protocol

from irlint.ir.index import GraphIndex
from irlint.ir.model import Graph, Layer
from irlint.shapes import ShapeResult


class Facts(Protocol):
    """The inferred shapes and the edge index of each graph level (a rule's `Context` is one)."""

    @property
    def shapes(self) -> ShapeResult: ...

    def index(self, graph: Graph) -> GraphIndex: ...


def fed_by(body: Graph, idx: GraphIndex, layer: Layer, port_index: int) -> Layer | None:
    """The layer whose output feeds input `port_index` of `layer`."""
    if port_index >= len(layer.inputs):
        return None
    e = idx.source(layer.id, layer.inputs[port_index].id)
    return body.layer(e.from_layer) if e is not None else None


def shape(facts: Facts, layer: Layer | None) -> tuple | None:
    """The inferred shape of `layer`'s first output, if known."""
    if layer is None or not layer.outputs:
        return None
    return facts.shapes.output(layer, layer.outputs[0].id).shape


def same_shape(facts: Facts, a: Layer | None, b: Layer) -> bool:
    """Whether `a`'s and `b`'s first outputs have one known shape."""
    sa = shape(facts, a)
    return sa is not None and sa == shape(facts, b)


def etype(facts: Facts, layer: Layer | None) -> str | None:
    """The element type of `layer`'s first output, if known and static."""
    if layer is None or not layer.outputs:
        return None
    info = facts.shapes.output(layer, layer.outputs[0].id)
    et = info.etype
    if et is None:
        port = layer.output(layer.outputs[0].id)
        et = port.precision if port is not None else None
    return et.name if et is not None and not et.is_dynamic else None


def folded(body: Graph, idx: GraphIndex, layer: Layer, memo: dict[int | None, bool] | None = None) -> bool:
    """Whether every value `layer` reads comes from Consts: OpenVINO folds it into a constant before the
    plugin builds its nodes (ConstantFolding), so it is an input node of the plugin's graph."""
    memo = {} if memo is None else memo
    if layer.id in memo:
        return memo[layer.id]
    memo[layer.id] = False  # a cycle (a defect of its own) is not constant
    if layer.type in ("Const", "Constant"):
        memo[layer.id] = True
        return True
    if not layer.inputs or layer.type in ("Parameter", "ReadValue") or layer.body is not None or layer.branches:
        return False
    ok = all(
        src is not None and folded(body, idx, src, memo)
        for src in (fed_by(body, idx, layer, i) for i in range(len(layer.inputs)))
    )
    memo[layer.id] = ok
    return ok


def plugin_order(body: Graph, idx: GraphIndex) -> dict[int | None, int]:
    """The position of each body layer in the CPU plugin's run: depth first from each Result in the body's
    order, every layer after its inputs taken in port order, then the layers no Result needs (graph.cpp,
    Graph::SortTopologically visits from the outputs; measured to match on bodies)."""
    order: dict[int | None, int] = {}
    starts = [lay for lay in body.layers if lay.type == "Result"] + list(body.layers)
    for start in starts:
        if start.id in order:
            continue
        stack: list[tuple[Layer, int]] = [(start, 0)]
        seen = {start.id}
        while stack:
            lay, i = stack.pop()
            if i < len(lay.inputs):
                stack.append((lay, i + 1))
                src = fed_by(body, idx, lay, i)
                if src is not None and src.id not in order and src.id not in seen:
                    seen.add(src.id)
                    stack.append((src, 0))
            elif lay.id not in order:
                order[lay.id] = len(order)
    return order
