"""Search (`/`, then n/N): the layers whose name, type or id path holds a piece of text, in the order
the tree shows them (each TI/Loop/If followed by its bodies), so n walks down the tree and N up."""

from __future__ import annotations

from collections.abc import Iterator

from irlint.ir.model import Graph, Layer, Model


def tree_order(graph: Graph) -> Iterator[Layer]:
    """Every layer as the tree lists it: a layer, then the layers of its body or branches."""
    for layer in graph.layers:
        yield layer
        if layer.body is not None:
            yield from tree_order(layer.body)
        for b in layer.branches:
            yield from tree_order(b.body)


def find(model: Model, text: str) -> list[Layer]:
    """The layers whose name, type or id path contains `text` (case-insensitive), in tree order; an id
    path (`2/body/6`) matches itself and the layers below it."""
    t = text.strip().lower()
    if not t:
        return []
    return [
        la
        for la in tree_order(model.graph)
        if t in la.name.lower()
        or t == la.type.lower()
        or la.path == t
        or la.path.startswith(t + "/")
        or (t in la.type.lower() and len(t) >= 3)
    ]


class Search:
    """The hits of the latest search and which one is shown."""

    def __init__(self, text: str, hits: list[Layer], start: Layer | None) -> None:
        self.text, self.hits = text, hits
        order = {id(la): i for i, la in enumerate(hits)}
        self.at = order.get(id(start), -1)  # searching from the selection: the next hit after it

    def step(self, delta: int) -> Layer | None:
        """The next (+1) or previous (-1) hit, wrapping around."""
        if not self.hits:
            return None
        self.at = (self.at + delta) % len(self.hits) if self.at >= 0 or delta > 0 else len(self.hits) - 1
        return self.hits[self.at]

    def status(self, short: bool = False) -> str:
        """`/lstm 2/9 (n/N, Esc)` for the status line (`/lstm 2/9` where it is short of room)."""
        return f"/{self.text} {self.at + 1}/{len(self.hits)}" + ("" if short else " (n/N, Esc)")
