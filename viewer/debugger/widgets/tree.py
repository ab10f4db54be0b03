"""The model as a tree: one node per layer (bodies and If branches nested), breakpoints marked `●`,
layer types shown once the pane is WIDE columns wide; its width follows the screen (38%) until the
user sets it with < / >."""

from __future__ import annotations

from irlint.viewer.debugger.text import keep_tail
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
        self._room = 0  # the pane's columns (labels longer than their room keep their name's tail)
        self._depth: dict[str, int] = {}  # layer path -> its node's depth below the root
        self._rows = 0  # the screen's rows: with more nodes than fit, the scrollbar takes 2 columns
        self._count = 0  # the tree's lines with every node expanded

    def width_in(self, screen_width: int) -> int:
        return self.columns if self.columns is not None else max(30, screen_width * 38 // 100)

    def fill(self, model: Model, screen_width: int, screen_height: int = 0) -> None:
        self.root.expand()
        self._rows = screen_height
        self._count = sum(1 + len(la.branches) for _g, la in model.layers())  # the tree's lines, expanded
        self._room = self.width_in(screen_width)
        self._wide = self._room >= WIDE
        self._fill(self.root, model.graph, 1)

    def _fill(self, node, graph: Graph, depth: int) -> None:  # type: ignore[no-untyped-def]
        for layer in graph.layers:
            self._depth[layer.path] = depth
            label = self.label_of(layer)
            if layer.body is not None:
                child = node.add(label, data=layer, expand=True)
                self._fill(child, layer.body, depth + 1)
            elif layer.branches:  # an If: one node per branch, named like its layers' paths
                child = node.add(label, data=layer, expand=True)
                for b in layer.branches:
                    branch = child.add(Text(safe(f"{b.name} branch"), style="italic"), data=layer, expand=True)
                    self._fill(branch, b.body, depth + 2)
            else:
                child = node.add_leaf(label, data=layer)
            self.nodes[layer.path] = child

    def label_of(self, layer: Layer) -> Text:
        """`● 23 name Type`; a name longer than the room its depth leaves keeps its tail (`23 …cell_1/MatMul`):
        Keras and PyTorch names share long scope prefixes, and their ends tell the layers apart."""
        marker = "● " if layer.path in self._marked else ""
        text = Text(marker, style="bold red")
        kind = f" {layer.type}" if layer.type not in layer.name and self._wide else ""
        name = safe(layer.name)
        # the border takes 2 columns, the guides guide_depth per level, an expandable node's icon 2 more
        icon = 2 if layer.body is not None or layer.branches else 0
        bar = 2 if self._rows and self._count + 1 > self._rows - 3 else 0  # rows less footer and border
        room = (
            self._room
            - 2
            - bar
            - self._depth.get(layer.path, 1) * self.guide_depth
            - icon
            - len(marker)
            - len(str(layer.id))
            - 1
        )
        if self._room and len(name) + len(kind) > room:
            if len(name) > room and room >= 8:
                name = keep_tail(name, room)
            kind = "" if len(name) + len(kind) > room else kind
        text.append(f"{layer.id} {name}")
        if kind:
            text.append(safe(kind), style="dim")
        return text

    def resize_by(self, delta: int, screen_width: int) -> int:
        """Widen or narrow the pane (keys < and >), leaving MIN_RIGHT columns; returns the new width."""
        self.columns = max(16, min(screen_width - MIN_RIGHT, self.width_in(screen_width) + delta))
        self.styles.width = self.styles.min_width = self.columns
        self.relabel(screen_width)
        return self.columns

    def relabel(self, screen_width: int, screen_height: int | None = None) -> None:
        room = self.width_in(screen_width)
        rows = self._rows if screen_height is None else screen_height
        if room != self._room or rows != self._rows:
            self._room, self._wide, self._rows = room, room >= WIDE, rows
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
