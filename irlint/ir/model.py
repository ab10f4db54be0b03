"""The typed IR model. Built once by the loader; rules and the interpreter only read it, never write.

A value that could not be parsed is ``None`` and the loader has already recorded a diagnostic for
it; `data` and a port_map entry's `attrs` keep the attributes as written, so a rule can quote them.

Sized for models of 100,000+ layers: the classes have slots, and an element's place in the file is
one integer (`at`, a byte offset) that becomes a `Location` only when `loc` is read (see
`irlint.ir.source`). Identical `<data>` attribute sets and port shapes are shared between layers,
and so are equal ports: a `Port` is a value without a place of its own (a layer's ports are
distinct objects, and `Layer.port_loc` finds where one is written).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from irlint.diagnostics import Diagnostic, Location
from irlint.ir.source import SourceMap
from irlint.ir.weights import Weights
from irlint.types import ElementType, Shape

CONTROL_FLOW = ("TensorIterator", "Loop")  # the layer types with a <body>, port_map and back_edges
BRANCHING = ("If",)  # the layer types with a <then_body>/<else_body> and their port maps
BRANCH_NAMES = ("then", "else")


def _empty() -> Mapping[str, str]:
    return MappingProxyType({})


class _Located:
    """An element of the file: `at` is its byte offset, and `loc` its line and column, resolved on demand."""

    __slots__ = ()
    at: int
    src: SourceMap

    @property
    def loc(self) -> Location:
        return self.src.loc(self.at)


class _Referable(_Located):
    """An element that caches may key weakly (plans are built once per layer or graph and die with it)."""

    __slots__ = ("__weakref__",)


@dataclass(slots=True, eq=False, frozen=True)
class Port:
    """An input or output port of a layer. `shape` is None when a dim could not be parsed.

    Shared between layers by the loader (most ports of a model repeat a few id/type/shape
    combinations), so it carries no location: ask its layer (`Layer.port_loc`).
    """

    id: int | None
    precision: ElementType | None
    shape: Shape | None
    names: tuple[str, ...]


@dataclass(slots=True, eq=False)
class Edge(_Located):
    """An `<edge from-layer from-port to-layer to-port>` of one graph level."""

    from_layer: int | None
    from_port: int | None
    to_layer: int | None
    to_port: int | None
    at: int
    src: SourceMap


@dataclass(slots=True, eq=False)
class PortMapEntry(_Located):
    """A `<port_map>` `<input>` or `<output>`; absent optional attributes are None (not defaulted)."""

    direction: str  # "input" | "output"
    external_port_id: int | None
    internal_layer_id: int | None
    axis: int | None
    start: int | None
    end: int | None
    stride: int | None
    part_size: int | None
    purpose: str | None
    at: int
    src: SourceMap
    attrs: Mapping[str, str] = field(default_factory=_empty)

    @property
    def sliced(self) -> bool:
        """True when the entry slices (input) or concatenates (output) along `axis`."""
        return "axis" in self.attrs


@dataclass(slots=True, eq=False)
class BackEdge(_Located):
    """A `<back_edges>` `<edge from-layer to-layer>` inside a TensorIterator or Loop."""

    from_layer: int | None
    to_layer: int | None
    from_port: int | None
    to_port: int | None
    at: int
    src: SourceMap


@dataclass(slots=True, eq=False)
class Branch:
    """One branch of an If: `name` is "then" or "else", `body` its graph (kind "then_body"/"else_body")
    and `port_map` its `<then_port_map>`/`<else_port_map>` entries (empty when the element is absent)."""

    name: str
    body: Graph
    port_map: tuple[PortMapEntry, ...] = ()


@dataclass(slots=True, eq=False)
class Layer(_Referable):
    """A `<layer>`. `data` holds the `<data>` attributes as written; `body` is set for TI/Loop."""

    id: int | None
    name: str
    type: str
    version: str
    data: Mapping[str, str]
    inputs: tuple[Port, ...]
    outputs: tuple[Port, ...]
    at: int
    src: SourceMap
    path: str  # id path such as "2/body/7"
    body: Graph | None = None
    port_map: tuple[PortMapEntry, ...] = ()
    back_edges: tuple[BackEdge, ...] = ()
    branches: tuple[Branch, ...] = ()  # an If's branches in file order; TI/Loop keep `body`

    def subgraphs(self) -> tuple[Graph, ...]:
        """Every graph nested directly in this layer: a TI/Loop body, or an If's branch bodies."""
        if not self.branches:  # (most layers: asked of every layer by the rules)
            return () if self.body is None else (self.body,)
        if self.body is not None:
            return (self.body, *(b.body for b in self.branches))
        return tuple(b.body for b in self.branches)

    def branch(self, name: str) -> Branch | None:
        """The If branch called `name` ("then"/"else"), None when the file has none."""
        for b in self.branches:
            if b.name == name:
                return b
        return None

    # Where the children are written is looked up in the file when asked (irlint.ir.source).
    def _child_loc(self, name: str) -> Location | None:
        parts = self.src.layer_parts(self.at)
        at = None if parts is None else getattr(parts, name)
        return None if at is None else self.src.loc(at)

    @property
    def data_loc(self) -> Location | None:
        """The `<data>` element (None when there is none or the layer cannot be read back)."""
        return self._child_loc("data")

    @property
    def port_map_loc(self) -> Location | None:
        return self._child_loc("port_map")

    @property
    def back_edges_loc(self) -> Location | None:
        return self._child_loc("back_edges")

    def branch_port_map_loc(self, name: str) -> Location | None:
        """Where an If's `<then_port_map>`/`<else_port_map>` is written."""
        return self._child_loc(f"{name}_port_map")

    def port_loc(self, port: Port) -> Location:
        """Where one of this layer's ports is written (the layer's own place if it cannot be found)."""
        parts = self.src.layer_parts(self.at)
        for mine, offsets in ((self.inputs, parts.inputs if parts else ()),
                              (self.outputs, parts.outputs if parts else ())):
            for i, p in enumerate(mine):
                if p is port:
                    return self.src.loc(offsets[i]) if i < len(offsets) else self.loc
        return self.loc

    def input(self, port_id: int) -> Port | None:
        for p in self.inputs:
            if p.id == port_id:
                return p
        return None

    def output(self, port_id: int) -> Port | None:
        for p in self.outputs:
            if p.id == port_id:
                return p
        return None

    def port(self, port_id: int) -> Port | None:
        return self.input(port_id) or self.output(port_id)

    def __repr__(self) -> str:
        return f"Layer({self.path} {self.type} {self.name!r})"

    def describe(self) -> str:
        """How messages name a layer: ``layer 7 'lstm_cell' (LSTMCell)``."""
        ident = "?" if self.id is None else str(self.id)
        return f"layer {ident} '{self.name}' ({self.type})"


@dataclass(slots=True, eq=False)
class Graph(_Referable):
    """One graph level: the top-level net or a body. `owner` is the TI/Loop/If path ("" at top level);
    `kind` the element that holds it ("body", or an If's "then_body"/"else_body"), the middle
    part of its layers' paths ("2/body/7", "3/then_body/1")."""

    layers: tuple[Layer, ...]
    edges: tuple[Edge, ...]
    owner: str
    at: int
    src: SourceMap
    by_id: Mapping[int, Layer] = field(default_factory=dict)
    kind: str = "body"

    @staticmethod
    def build(layers: tuple[Layer, ...], edges: tuple[Edge, ...], owner: str, at: int, src: SourceMap,
              kind: str = "body") -> Graph:
        by_id: dict[int, Layer] = {}
        for layer in layers:
            if layer.id is not None and layer.id not in by_id:
                by_id[layer.id] = layer  # first wins; duplicates are a rule's business
        return Graph(layers, edges, owner, at, src, MappingProxyType(by_id), kind)

    @property
    def where(self) -> str:
        """How messages name this level: "3/body", "3/then_body", or "" at top level."""
        return f"{self.owner}/{self.kind}" if self.owner else ""

    def layer(self, layer_id: int | None) -> Layer | None:
        return None if layer_id is None else self.by_id.get(layer_id)

    def __repr__(self) -> str:
        return f"Graph(owner={self.owner!r}, {len(self.layers)} layers)"

    @property
    def is_body(self) -> bool:
        return self.owner != ""

    def parameters(self) -> list[Layer]:
        return [layer for layer in self.layers if layer.type == "Parameter"]

    def results(self) -> list[Layer]:
        return [layer for layer in self.layers if layer.type == "Result"]


@dataclass(slots=True, eq=False)
class Model(_Referable):
    """A whole IR: the top-level graph, the weights, and what the loader had to say."""

    path: str
    name: str
    version: int | None
    graph: Graph
    weights: Weights
    at: int
    src: SourceMap
    diagnostics: tuple[Diagnostic, ...] = ()

    def graphs(self) -> Iterator[Graph]:
        """Every graph level, top level first, then bodies depth-first in file order."""
        stack = [self.graph]
        while stack:
            g = stack.pop()
            yield g
            stack.extend(reversed([sub for layer in g.layers if layer.body is not None or layer.branches
                                   for sub in layer.subgraphs()]))

    def layers(self) -> Iterator[tuple[Graph, Layer]]:
        """Every layer of every level with the graph that holds it."""
        for g in self.graphs():
            for layer in g.layers:
                yield g, layer
