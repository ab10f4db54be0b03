"""Name scopes (`a/b/c` in layer names) as a tree, for drawing them as collapsible clusters.

A layer named `encoder/lstm/cell/Sigmoid` belongs to the scope `encoder/lstm/cell`. The diagram
draws a scope either as a cluster holding its layers and sub-scopes (expanded) or as one node
standing for all of them (collapsed). Layers the diagram's port-map and back-edge drawing attaches
to — Parameters, Results and TensorIterator/Loop/If layers — are never hidden in a collapsed scope.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from irlint.ir.model import Layer

MIN_LAYERS = 3  # a scope with fewer layers is drawn flat: a cluster or a node for two saves nothing
ALL = "all"  # `--expand all`


def scope_of(name: str) -> str:
    """The scope of a layer name: its `/`-separated parts without the last one."""
    parts = [p for p in name.split("/") if p]
    return "/".join(parts[:-1])


def pinned(layer: Layer) -> bool:
    """Whether the layer must stay a node of its own (edges of port maps and back edges attach to it)."""
    return layer.type in ("Parameter", "Result") or layer.body is not None or bool(layer.branches)


@dataclass
class Scope:
    path: str  # "" for the graph itself
    layers: list[Layer] = field(default_factory=list)  # directly in this scope
    children: dict[str, Scope] = field(default_factory=dict)

    def all_layers(self) -> list[Layer]:
        out = list(self.layers)
        for child in self.children.values():
            out += child.all_layers()
        return out

    def hidden(self) -> list[Layer]:
        """The layers a collapsed node of this scope stands for."""
        return [la for la in self.all_layers() if not pinned(la)]


def scope_tree(layers: Iterable[Layer]) -> Scope:
    """The layers of one graph by scope; a scope whose only content is one sub-scope is merged into
    it (`a` holding only `a/b` becomes `a/b`), so nesting shows only where names branch."""
    root = Scope("")
    for layer in layers:
        node = root
        parts = [p for p in scope_of(layer.name).split("/") if p]
        for n in range(1, len(parts) + 1):
            path = "/".join(parts[:n])
            node = node.children.setdefault(path, Scope(path))
        node.layers.append(layer)
    _merge_chains(root)
    return root


def _merge_chains(scope: Scope) -> None:
    for key, child in list(scope.children.items()):
        while not child.layers and len(child.children) == 1:
            child = next(iter(child.children.values()))
        scope.children[key] = child
        _merge_chains(child)


def expanded(scope: Scope, expand: Sequence[str], whole_graph: int, depth: int = 1,
             scope_depth: int | None = None) -> bool:
    """Whether to draw `scope` (at nesting level `depth`, 1 for a graph's outermost scopes) as a cluster:
    asked for (itself, a scope inside it, or `all`), within `scope_depth` levels when that is given, or
    else when it holds more than half of its graph's layers (a front end often puts nearly everything
    in one scope: one node for it would show nothing, so the picture opens at the level where names
    branch)."""
    if ALL in expand or any(e == scope.path or e.startswith(scope.path + "/") for e in expand):
        return True
    if scope_depth is not None:
        return depth <= scope_depth
    return 2 * len(scope.all_layers()) > whole_graph
