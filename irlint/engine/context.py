"""What a rule sees: the model, edge indexes and networkx views per graph level, inferred shapes.

Everything derived is computed on first use and cached, so a run whose selected rules need no
shapes never pays for shape inference.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from irlint.diagnostics import Location, Related
from irlint.ir.index import GraphIndex
from irlint.ir.model import Graph, Layer, Model

if TYPE_CHECKING:
    import networkx as nx

    from irlint.shapes import ShapeResult


T = TypeVar("T")


class Context:
    """Shared, read-only state for one model's rule run."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self._index: dict[int, GraphIndex] = {}
        self._nx: dict[int, Any] = {}
        self._shapes: ShapeResult | None = None
        self._memo: dict[tuple[str, int], Any] = {}

    def index(self, graph: Graph) -> GraphIndex:
        idx = self._index.get(id(graph))
        if idx is None:
            idx = self._index[id(graph)] = GraphIndex.build(graph)
        return idx

    def nx(self, graph: Graph) -> nx.MultiDiGraph:
        """A networkx MultiDiGraph of one level: nodes are layer ids, edges carry their `Edge`."""
        g = self._nx.get(id(graph))
        if g is None:
            import networkx as nx

            g = nx.MultiDiGraph()
            g.add_nodes_from(layer.id for layer in graph.layers if layer.id is not None)
            for e in graph.edges:
                if e.from_layer in graph.by_id and e.to_layer in graph.by_id:
                    g.add_edge(e.from_layer, e.to_layer, edge=e)
            self._nx[id(graph)] = g
        return g

    def memo(self, name: str, graph: Graph, compute: Callable[[], T]) -> T:
        """A per-level value computed once and shared by the rules that need it (e.g. resolved edge ends)."""
        key = (name, id(graph))
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]  # type: ignore[no-any-return]

    @property
    def shapes(self) -> ShapeResult:
        """Inferred element types and shapes of every output port at every level."""
        if self._shapes is None:
            from irlint.shapes import inferred

            self._shapes = inferred(self.model, self.index)
        return self._shapes

    @staticmethod
    def related(layer: Layer, note: str, loc: Location | None = None) -> Related:
        return Related(loc or layer.loc, note)
