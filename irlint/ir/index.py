"""Edge lookups for one graph level, built once and shared by shape inference, rules and the interpreter.

Sized for 100,000-edge levels: an input port fed by one edge (nearly all of them) maps to that
`Edge` itself, not to a one-element list, and the index by producer is built only when a rule asks
for it (few do, and only on bodies).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from irlint.ir.model import Edge, Graph, Layer

_Key = tuple[int | None, int | None]


def _index(edges: Sequence[Edge], into: bool) -> dict[_Key, Edge | list[Edge]]:
    out: dict[_Key, Edge | list[Edge]] = {}
    for e in edges:
        key = (e.to_layer, e.to_port) if into else (e.from_layer, e.from_port)
        had = out.setdefault(key, e)
        if had is not e:
            if isinstance(had, list):
                had.append(e)
            else:
                out[key] = [had, e]
    return out


@dataclass(eq=False)
class GraphIndex:
    """Edges by their ends: which edges feed an input port, which leave an output port."""

    graph: Graph
    _into: dict[_Key, Edge | list[Edge]] = field(default_factory=dict)
    _out: dict[_Key, Edge | list[Edge]] | None = None
    order: tuple[list[Layer], int] | None = None  # the topological sort, once computed (irlint.shapes.infer)

    @staticmethod
    def build(graph: Graph) -> GraphIndex:
        return GraphIndex(graph, _index(graph.edges, into=True))

    def edges_into(self, layer_id: int | None, port_id: int | None) -> Sequence[Edge]:
        """Every edge ending in an input port (normally one), in file order."""
        got = self._into.get((layer_id, port_id))
        return () if got is None else got if isinstance(got, list) else (got,)

    def is_fed(self, layer_id: int | None, port_id: int | None) -> bool:
        return (layer_id, port_id) in self._into

    def source(self, layer_id: int | None, port_id: int | None) -> Edge | None:
        """The single edge feeding an input port (the first if there are several)."""
        got = self._into.get((layer_id, port_id))
        return got[0] if isinstance(got, list) else got

    def multiply_fed(self) -> Iterator[tuple[int | None, int | None, list[Edge]]]:
        """(layer id, port id, edges) of every port fed by more than one edge."""
        for (layer_id, port_id), got in self._into.items():
            if isinstance(got, list):
                yield layer_id, port_id, got

    def edges_out(self, layer_id: int | None, port_id: int | None) -> Sequence[Edge]:
        """Every edge leaving an output port."""
        if self._out is None:
            self._out = _index(self.graph.edges, into=False)
        got = self._out.get((layer_id, port_id))
        return () if got is None else got if isinstance(got, list) else (got,)

    def users(self, layer: Layer) -> list[Edge]:
        """Every edge leaving any output port of `layer`."""
        out: list[Edge] = []
        for p in layer.outputs:
            out += self.edges_out(layer.id, p.id)
        return out
