"""The model as a tree: one node per layer (bodies and If branches nested), breakpoints marked `●`,
layer types shown once the pane is WIDE columns wide; its width follows the screen (38%) until the
user sets it with < / >."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Tree

from irlint.cli.printing import safe
from irlint.ir.model import Graph, Layer, Model

WIDE = 44  # from this pane width on (columns), labels also show the layer type
MIN_RIGHT = 30  # columns always left for the inspector


class ModelTree(Tree):
    def __init__(self, label: str, **kw) -> None:  # type: ignore[no-untyped-def]
        super().__init__(Text(safe(label)), **kw)
        self.nodes: dict[str, object] = {}  # layer path -> tree node
        self.columns: int | None = None  # set with < / >; None: 38% of the screen, at least 30
        self._marked: set[str] = set()
        self._wide = False

    def width_in(self, screen_width: int) -> int:
        return self.columns if self.columns is not None else max(30, screen_width * 38 // 100)

    def fill(self, model: Model, screen_width: int) -> None:
        self.root.expand()
        self._wide = self.width_in(screen_width) >= WIDE
        self._fill(self.root, model.graph)

    def _fill(self, node, graph: Graph) -> None:  # type: ignore[no-untyped-def]
        for layer in graph.layers:
            label = self.label_of(layer)
            if layer.body is not None:
                child = node.add(label, data=layer, expand=True)
                self._fill(child, layer.body)
            elif layer.branches:  # an If: one node per branch, named like its layers' paths
                child = node.add(label, data=layer, expand=True)
                for b in layer.branches:
                    branch = child.add(Text(safe(f"{b.name} branch"), style="italic"), data=layer, expand=True)
                    self._fill(branch, b.body)
            else:
                child = node.add_leaf(label, data=layer)
            self.nodes[layer.path] = child

    def label_of(self, layer: Layer) -> Text:
        text = Text("● " if layer.path in self._marked else "", style="bold red")
        text.append(safe(f"{layer.id} {layer.name}"))
        if layer.type not in layer.name and self._wide:
            text.append(safe(f" {layer.type}"), style="dim")
        return text

    def resize_by(self, delta: int, screen_width: int) -> int:
        """Widen or narrow the pane (keys < and >), leaving MIN_RIGHT columns; returns the new width."""
        self.columns = max(16, min(screen_width - MIN_RIGHT, self.width_in(screen_width) + delta))
        self.styles.width = self.styles.min_width = self.columns
        self.relabel(screen_width)
        return self.columns

    def relabel(self, screen_width: int) -> None:
        wide = self.width_in(screen_width) >= WIDE
        if wide != self._wide:  # the labels change only when the width crosses WIDE
            self._wide = wide
            self.mark(self._marked, every=True)

    def mark(self, marked: set[str], every: bool = False) -> None:
        """Show the breakpoint marker on `marked` layer paths (relabelling only the changed ones)."""
        changed = self.nodes if every else (marked ^ self._marked)
        self._marked = set(marked)
        for path in changed:
            node = self.nodes.get(path)
            if node is not None:
                node.set_label(self.label_of(node.data))  # type: ignore[attr-defined]

    def select(self, layer: Layer) -> None:
        node = self.nodes.get(layer.path)
        if node is not None:
            self.move_cursor(node)  # type: ignore[arg-type]
