"""Edge lookups for one graph level, built once and shared by shape inference, rules and the interpreter."""

from __future__ import annotations

from dataclasses import dataclass, field

from irlint.ir.model import Edge, Graph, Layer


@dataclass(eq=False)
class GraphIndex:
    """Edges by their ends; `producers[(layer, port)]` lists every edge into that input port."""

    graph: Graph
    producers: dict[tuple[int | None, int | None], list[Edge]] = field(default_factory=dict)
    consumers: dict[tuple[int | None, int | None], list[Edge]] = field(default_factory=dict)
    order: tuple[list[Layer], int] | None = None  # the topological sort, once computed (irlint.shapes.infer)

    @staticmethod
    def build(graph: Graph) -> GraphIndex:
        idx = GraphIndex(graph)
        for e in graph.edges:
            idx.producers.setdefault((e.to_layer, e.to_port), []).append(e)
            idx.consumers.setdefault((e.from_layer, e.from_port), []).append(e)
        return idx

    def source(self, layer_id: int | None, port_id: int | None) -> Edge | None:
        """The single edge feeding an input port (the first if there are several)."""
        edges = self.producers.get((layer_id, port_id))
        return edges[0] if edges else None

    def users(self, layer: Layer) -> list[Edge]:
        """Every edge leaving any output port of `layer`."""
        out: list[Edge] = []
        for p in layer.outputs:
            out += self.consumers.get((layer.id, p.id), [])
        return out
