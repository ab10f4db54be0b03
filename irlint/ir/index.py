"""Edge lookups for one graph level, built once and shared by shape inference, rules and the interpreter.

Sized for 100,000-edge levels: edges are filed under a layer id (an int the layers already hold,
so no key object is made), and a layer fed by one edge maps to that `Edge` itself, one fed by
several to a tuple of them (4 MB at 100,000 edges, where (layer, port) keys took 11 MB). The
index by producer is built only when a rule asks for it (few do, and only on bodies), and for
bodies before the two-core check forks (irlint.engine.parallel), whose halves both ask.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from irlint.ir.model import Edge, Graph, Layer

_Filed = dict[int | None, Edge | tuple[Edge, ...]]


def _index(edges: Sequence[Edge], into: bool) -> _Filed:
    out: _Filed = {}
    for e in edges:
        key = e.to_layer if into else e.from_layer
        had = out.setdefault(key, e)
        if had is not e:
            out[key] = (*had, e) if isinstance(had, tuple) else (had, e)
    return out


def _at(filed: _Filed, layer_id: int | None, port_id: int | None, into: bool) -> Sequence[Edge]:
    """The edges filed under `layer_id` that end (`into`) or start at port `port_id`, in file order."""
    got = filed.get(layer_id)
    if got is None:
        return ()
    if not isinstance(got, tuple):
        return (got,) if (got.to_port if into else got.from_port) == port_id else ()
    if into:
        return tuple(e for e in got if e.to_port == port_id)
    return tuple(e for e in got if e.from_port == port_id)


@dataclass(eq=False)
class GraphIndex:
    """Edges by their ends: which edges feed an input port, which leave an output port."""

    graph: Graph
    _into: _Filed
    _out: _Filed | None = None
    order: tuple[list[Layer], int] | None = None  # the topological sort, once computed

    def sorted_layers(self) -> tuple[list[Layer], int]:
        """The topological order and how many layers it could place (the rest sit on or behind cycles).

        Computed once per index: shape inference, the interpreter's schedule and the cycle rule need it.
        """
        if self.order is None:
            self.order = _sort_layers(self.graph)
        return self.order

    def topological_order(self) -> list[Layer]:
        """Layers in an order where producers come first; layers on a cycle come last in file order."""
        return list(self.sorted_layers()[0])

    @staticmethod
    def build(graph: Graph) -> GraphIndex:
        return GraphIndex(graph, _index(graph.edges, into=True))

    def edges_into(self, layer_id: int | None, port_id: int | None) -> Sequence[Edge]:
        """Every edge ending in an input port (normally one), in file order."""
        return _at(self._into, layer_id, port_id, True)

    def edges_into_layer(self, layer_id: int | None) -> Sequence[Edge]:
        """Every edge ending in any input port of a layer, in file order."""
        got = self._into.get(layer_id)
        return () if got is None else got if isinstance(got, tuple) else (got,)

    def is_fed(self, layer_id: int | None, port_id: int | None) -> bool:
        return self.source(layer_id, port_id) is not None

    def source(self, layer_id: int | None, port_id: int | None) -> Edge | None:
        """The single edge feeding an input port (the first if there are several)."""
        got = self._into.get(layer_id)
        if got is None:
            return None
        if not isinstance(got, tuple):
            return got if got.to_port == port_id else None
        for e in got:
            if e.to_port == port_id:
                return e
        return None

    def multiply_fed(self) -> Iterator[tuple[int | None, int | None, list[Edge]]]:
        """(layer id, port id, edges) of every port fed by more than one edge."""
        for layer_id, got in self._into.items():
            if not isinstance(got, tuple):
                continue
            by_port: dict[int | None, list[Edge]] = {}
            for e in got:
                by_port.setdefault(e.to_port, []).append(e)
            for port_id, edges in by_port.items():
                if len(edges) > 1:
                    yield layer_id, port_id, edges

    def edges_out(self, layer_id: int | None, port_id: int | None) -> Sequence[Edge]:
        """Every edge leaving an output port."""
        if self._out is None:
            self.index_producers()
        return _at(self._out, layer_id, port_id, False)  # type: ignore[arg-type]

    def index_producers(self) -> None:
        """Build the index by producer now (before a fork, so that both processes share one)."""
        if self._out is None:
            self._out = _index(self.graph.edges, into=False)

    def users(self, layer: Layer) -> list[Edge]:
        """Every edge leaving any output port of `layer`."""
        out: list[Edge] = []
        for p in layer.outputs:
            out += self.edges_out(layer.id, p.id)
        return out


def _sort_layers(graph: Graph) -> tuple[list[Layer], int]:
    """Depth first (a consumer soon after its producer), and among layers ready together the one first in
    the file first: a TensorIterator's three Results run (and show in the debugger) in file order."""
    indeg: dict[int, int] = {}
    pos: dict[int, int] = {}
    for i, layer in enumerate(graph.layers):
        if layer.id is not None and layer.id not in indeg:
            indeg[layer.id] = 0
            pos[layer.id] = i
    succ: dict[int, list[int]] = {}
    for e in graph.edges:
        if e.from_layer in indeg and e.to_layer in indeg:
            indeg[e.to_layer] += 1  # type: ignore[index]
            succ.setdefault(e.from_layer, []).append(e.to_layer)  # type: ignore[arg-type]
    ready = [lid for lid in indeg if indeg[lid] == 0]
    ready.reverse()  # a stack: the last pushed runs first
    order: list[Layer] = []
    seen: set[int] = set()
    while ready:
        lid = ready.pop()
        seen.add(lid)
        order.append(graph.by_id[lid])
        freed = []
        for nxt in succ.get(lid, ()):
            indeg[nxt] -= 1
            if indeg[nxt] == 0:
                freed.append(nxt)
        if len(freed) > 1:
            freed.sort(key=pos.__getitem__, reverse=True)
        ready.extend(freed)
    placed = len(order)
    order += [la for la in graph.layers if la.id is not None and la.id not in seen and graph.by_id[la.id] is la]
    return order, placed
