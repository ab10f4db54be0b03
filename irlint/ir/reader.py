"""The expat side of the loader: a stack of frames, one per open element, that builds the model.

Split from `irlint.ir.loader` (which owns files, chunks and errors) because this is where the
per-element work is: a 100,000-layer IR has over a million elements, so every handler here is
written to do as little as possible per call (docs/performance.md). Elements irlint does not read
share one `IGNORE` frame; inside a `<port>` the parser's handlers are swapped for the port
reader's, which only collect the dims' text.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import NamedTuple, Protocol
from xml.parsers import expat

from irlint.diagnostics import Diagnostic
from irlint.ir import codes
from irlint.ir.model import (
    BRANCH_NAMES,
    BRANCHING,
    CONTROL_FLOW,
    BackEdge,
    Branch,
    Edge,
    Graph,
    Layer,
    Port,
    PortMapEntry,
)
from irlint.ir.opsets import LAST_OPSET, LEGACY_TYPES, LEGACY_VERSIONS, names_an_opset, opset_holds, opsets_holding
from irlint.ir.source import LayerParts, SourceMap
from irlint.rule import Rule
from irlint.types import DYNAMIC, ELEMENT_TYPES, Dim, ElementType, Shape, element_type

SUPPORTED_VERSIONS = (10, 11)
MAX_DEPTH = 256  # libxml2's default limit; bodies nest about 3 elements a level, so ~80 nested loops
# No real IR comes near these: its longest tags are a few KiB, its elements have a few dozen attributes.
# They bound the parse in time and memory: expat (without reparse deferral) rescans an unfinished
# tag from its start on every chunk, so one tag of n bytes costs O(n^2); each attribute costs
# ~150 bytes of Python objects for its ~6 bytes of XML.
MAX_TAG_BYTES = 16 * 1024**2
MAX_ATTRIBUTES = 1024

_EMPTY: Mapping[str, str] = MappingProxyType({})
_PORT_MAP_INTS = ("external_port_id", "internal_layer_id", "axis", "start", "end", "stride", "part_size")


class DocumentRefused(Exception):
    """Raised inside a parser callback to stop parsing a document irlint will not read."""

    def __init__(self, code: Rule, message: str, at: int) -> None:
        super().__init__(message)
        self.code, self.message, self.at = code, message, at


Pending = tuple[Rule, str, int, str | None, str | None, int | None]  # a diagnostic, its place unresolved


class LayersPart(NamedTuple):
    """The tail of one `<layers>` parsed by a reader of its own: the layers, where their `</layers>`
    is, the diagnostics found in them and the children's offsets of TensorIterator/Loop layers."""

    layers: list[Layer]
    end: int
    pending: list[Pending]
    known: dict[int, LayerParts]


class PartialParse(Protocol):
    """All that loading one `<layers>` in two parts may do with a reader (irlint.ir.twocore): one
    reader parses the tail of a `<layers>` (`parse_tail`) after a made-up prefix opened it, the
    reader of the whole file checks the same `<layers>` is open at that point and `adopt`s the tail.
    The frames, the id table and the diagnostics list stay the reader's own."""

    def feed(self, data: bytes) -> None: ...

    def open_layers_owner(self) -> str | None: ...

    def parse_tail(self, chunks: Iterable[bytes]) -> LayersPart | None: ...

    def adopt(self, part: LayersPart) -> None: ...


class _Frame:
    """What the element on top of the parse stack is; `child` returns the frame of a child element."""

    __slots__ = ()

    def child(self, r: Reader, tag: str, a: dict[str, str], at: int) -> _Frame:
        return IGNORE

    def end(self, r: Reader) -> None:
        pass


IGNORE = _Frame()  # an element irlint does not read, and everything inside it


class Reader:
    """The parse: a stack of frames fed by expat callbacks, diagnostics as (rule, message, offset...).

    Ports are most of a model's elements (a port and its dims are over half of them), so inside a
    `<port>` the parser's handlers are swapped for lean ones that only collect the dims' text.
    """

    def __init__(self, src: SourceMap) -> None:
        self.src = src
        self.pending: list[Pending] = []
        self.stack: list[_Frame] = [_Document()]
        self.model_parts: tuple[str, int | None, Graph, int] | None = None
        self.data_cache: dict[tuple[tuple[str, str], ...], Mapping[str, str]] = {}
        self.shape_cache: dict[tuple[str, ...], tuple[Shape | None, tuple[int, ...], tuple[int, ...]]] = {}
        self.precision_cache: dict[str, ElementType | None] = {}
        self.port_cache: dict[tuple[int | None, ElementType | None, int], Port] = {}
        self.tuple_cache: dict[tuple[Port, ...], tuple[Port, ...]] = {}
        self.layer: _LayerFrame | None = None  # the innermost open <layer>
        self.good_types: set[tuple[str | None, str | None]] = set()  # (type, version) pairs OpenVINO reads
        self.ids: dict[int, int] = {}  # each layer id once, as one int object shared by the layer and its edges
        self.parser = p = expat.ParserCreate()
        p.buffer_text = True
        p.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        p.StartDoctypeDeclHandler = self.doctype
        self.start, self.end = self._frame_handlers()
        p.StartElementHandler, p.EndElementHandler = self.start, self.end
        self.ports = _PortReader(self)
        self.fed = 0  # bytes given to the parser
        self.tag_start = 0  # where the unfinished markup at the end of the input so far starts
        self.tag_equals = 0  # '=' signs in it: an upper bound of its attributes

    def feed(self, data: bytes | memoryview) -> None:
        """Parse a chunk, then refuse an unfinished tag (or comment, PI) that has grown past
        MAX_TAG_BYTES or MAX_ATTRIBUTES '=' signs, in O(chunk) per call: linear time overall.

        After `Parse` returns, `CurrentByteIndex` is where expat's unfinished token starts (text is
        consumed as it comes, so only markup stays pending); expat builds an element's attributes
        only once its tag is complete, so the count is checked here while the tag is still open."""
        parser = self.parser
        parser.Parse(data, False)
        n = len(data)
        self.fed += n
        start = parser.CurrentByteIndex
        if start < 0 or start >= self.fed:
            self.tag_start, self.tag_equals = self.fed, 0
            return
        if start == self.tag_start:  # the same tag as after the previous chunk, still open
            self.tag_equals += bytes(data).count(b"=") if isinstance(data, memoryview) else data.count(b"=")
        else:  # a tag that opened in this chunk
            self.tag_start = start
            skip = max(n - (self.fed - start), 0)
            self.tag_equals = bytes(data[skip:]).count(b"=") if isinstance(data, memoryview) else data.count(b"=", skip)
        if self.fed - start > MAX_TAG_BYTES:
            raise DocumentRefused(codes.MALFORMED_XML, f"malformed XML: a tag (or comment) longer than "
                                  f"{MAX_TAG_BYTES} bytes (irlint refuses such documents; no IR comes near)", start)
        if self.tag_equals > MAX_ATTRIBUTES:
            self.too_many_attributes(start)

    def too_many_attributes(self, at: int) -> None:
        raise DocumentRefused(codes.MALFORMED_XML, f"malformed XML: an element with more than {MAX_ATTRIBUTES} "
                              "attributes (irlint refuses such documents; no IR comes near)", at)

    def _frame_handlers(self) -> tuple[Callable[[str, dict[str, str]], None], Callable[[str], None]]:
        """The general handlers, as closures over locals: they run once per element."""
        stack = self.stack
        push, pop = stack.append, stack.pop
        parser = self.parser

        def start(tag: str, attrs: dict[str, str]) -> None:
            if len(stack) > MAX_DEPTH:
                self.too_deep()
            if len(attrs) > MAX_ATTRIBUTES:
                self.too_many_attributes(parser.CurrentByteIndex)
            push(stack[-1].child(self, tag, attrs, parser.CurrentByteIndex))

        def end(tag: str) -> None:
            frame = pop()
            if frame is not IGNORE:
                frame.end(self)

        return start, end

    def close(self) -> None:
        """Break the parser <-> handler reference cycle so the parse state is freed at once."""
        p = self.parser
        p.StartElementHandler = p.EndElementHandler = p.CharacterDataHandler = p.StartDoctypeDeclHandler = None
        del self.parser

    def too_deep(self) -> None:
        raise DocumentRefused(codes.MALFORMED_XML, f"malformed XML: more than {MAX_DEPTH} nested elements "
                              "(irlint refuses such documents instead of expanding them)", self.parser.CurrentByteIndex)

    # -- split loading: the `PartialParse` protocol (irlint.ir.twocore; `feed` is above) --------------
    def open_layers_owner(self) -> str | None:
        """The owner of the `<layers>` open on top of the stack ("" for the top level), or None if the
        innermost open element is not a `<layers>`."""
        top = self.stack[-1]
        if type(top) is not _LayersFrame:
            return None
        g = top.graph  # an If's branch is named with its kind, so that no split point names it
        return g.owner if g.kind == "body" else f"{g.owner}/{g.kind}"

    def parse_tail(self, chunks: Iterable[bytes]) -> LayersPart | None:
        """Parse `chunks` as the rest of the `<layers>` open now, up to its `</layers>`; None if the
        chunks end first (or no `<layers>` is open). What the parser raises is raised."""
        top = self.stack[-1]
        if type(top) is not _LayersFrame:
            return None
        graph = top.graph
        first, mark = len(graph.layers), len(self.pending)
        self.stack[-1] = _LastLayers(graph)
        try:
            for data in chunks:
                self.feed(data)
        except _LayersClosed as e:
            return LayersPart(graph.layers[first:], e.at, self.pending[mark:], self.src.known)
        return None

    def adopt(self, part: LayersPart) -> None:
        """Take a part another reader parsed of the `<layers>` open now, as if this one had parsed it
        (this reader then goes on after the part: its bytes are fed to it as spaces)."""
        top = self.stack[-1]
        assert type(top) is _LayersFrame
        top.graph.layers.extend(part.layers)
        ids = self.ids
        for layer in part.layers:
            if layer.id is not None:
                ids.setdefault(layer.id, layer.id)
        self.pending.extend(part.pending)
        self.src.known.update(part.known)

    # -- port mode -------------------------------------------------------------------------------
    def enter_port(self, ports: _PortReader) -> None:
        p = self.parser
        p.StartElementHandler, p.EndElementHandler = ports.child_start, ports.child_end
        p.CharacterDataHandler = ports.texts.append

    def leave_port(self) -> None:
        p = self.parser
        p.StartElementHandler, p.EndElementHandler = self.start, self.end
        p.CharacterDataHandler = None

    def doctype(self, name: str, system_id: str | None, public_id: str | None, internal_subset: bool) -> None:
        at = self.parser.CurrentByteIndex
        if internal_subset:
            raise DocumentRefused(codes.DTD_NOT_ALLOWED, "the file declares a DOCTYPE with an internal subset; IR "
                                  "never has one and irlint does not read its entity or attribute declarations", at)
        self.report(codes.DTD_NOT_ALLOWED, "the file declares a DOCTYPE; IR never has one and irlint does not read "
                    "the DTD it names", at, hint="remove the DOCTYPE and write values literally")

    # -- diagnostics -----------------------------------------------------------------------------
    def report(self, r: Rule, message: str, at: int, layer: str | None = None, hint: str | None = None,
               port: int | None = None) -> None:
        self.pending.append((r, message, at, layer, hint, port))

    def diagnostics(self) -> list[Diagnostic]:
        src = self.src
        return [Diagnostic(r.code, r.severity, msg, src.loc(at), r.name, layer, port, (), hint)
                for r, msg, at, layer, hint, port in self.pending]

    def int_attr(self, a: Mapping[str, str], name: str, at: int, *, required: bool, what: str,
                 layer: str | None = None) -> int | None:
        text = a.get(name)
        if text is None:
            if required:
                self.report(codes.INVALID_STRUCTURE, f"{what} has no '{name}' attribute", at, layer)
            return None
        try:
            return int(text)
        except ValueError:
            self.report(codes.INVALID_ATTRIBUTE, f"{what}: {name}={text!r} is not an integer",
                        self.src.attr_offset(at, name), layer)
            return None

    def data_mapping(self, a: dict[str, str]) -> Mapping[str, str]:
        """One shared read-only mapping per distinct `<data>` (most layers of a type have the same one)."""
        key = tuple(a.items())
        m = self.data_cache.get(key)
        if m is None:
            m = self.data_cache[key] = MappingProxyType(a)
        return m

    def precision(self, text: str) -> ElementType | None:
        try:
            return self.precision_cache[text]
        except KeyError:
            et = self.precision_cache[text] = element_type(text)
            return et

    def shape_of(self, texts: tuple[str, ...]) -> tuple[Shape | None, tuple[int, ...], tuple[int, ...]]:
        """The shape of a port's dims as OpenVINO reads them (shared between ports), the indices of
        the dims it refuses and of those it reads only partly (`port_dim`)."""
        got = self.shape_cache.get(texts)
        if got is None:
            read = [port_dim(t) for t in texts]
            bad = tuple(i for i, (d, _) in enumerate(read) if d is None)
            partly = tuple(i for i, (d, whole) in enumerate(read) if d is not None and not whole)
            shape = None if bad else tuple(d for d, _ in read)
            got = self.shape_cache[texts] = (shape, bad, partly)  # type: ignore[assignment]
        return got

    def port(self, pid: int | None, precision: ElementType | None, shape: Shape | None,
             names: tuple[str, ...]) -> Port:
        """The one `Port` with these fields: a model's unnamed ports repeat a few combinations
        (named ones are unique, tensor names being unique)."""
        if names:
            return Port(pid, precision, shape, names)
        key = (pid, precision, id(shape))  # shapes are shared already (`shape_of`)
        got = self.port_cache.get(key)
        if got is None:
            got = self.port_cache[key] = Port(pid, precision, shape, names)
        return got

    def port_tuples(self, inputs: list[Port], outputs: list[Port]) -> tuple[tuple[Port, ...], tuple[Port, ...]]:
        """A layer's port tuples, shared with earlier layers; its own ports stay distinct objects,
        so that `Layer.port_loc` can tell which one is meant (equal ports only come from a defect)."""
        both = inputs + outputs
        if len({id(p) for p in both}) != len(both):
            seen: set[int] = set()
            for ports in (inputs, outputs):
                for i, p in enumerate(ports):
                    if id(p) in seen:
                        ports[i] = Port(p.id, p.precision, p.shape, p.names)  # a copy of its own
                    seen.add(id(ports[i]))
        return self._shared(tuple(inputs)), self._shared(tuple(outputs))

    def _shared(self, ports: tuple[Port, ...]) -> tuple[Port, ...]:
        for p in ports:
            if p.names:  # such a tuple is unique: do not keep it in the cache
                return ports
        return self.tuple_cache.setdefault(ports, ports)


class _Document(_Frame):
    __slots__ = ()

    def child(self, r: Reader, tag: str, a: dict[str, str], at: int) -> _Frame:
        if tag != "net":
            r.report(codes.INVALID_STRUCTURE, f"the root element is <{tag}>, not <net>", at)
            return IGNORE
        version = r.int_attr(a, "version", at, required=True, what="<net>")
        if version is not None and version not in SUPPORTED_VERSIONS:
            # another layout (v7 has no Parameter/Const layers of the opsets, <blobs> instead of Consts):
            # the v10/v11 rules would only report that layout, so the file is not read further
            raise DocumentRefused(codes.UNSUPPORTED_VERSION, f"IR version {version} is not supported (irlint and "
                                  "OpenVINO read versions 10 and 11); the file is not checked further",
                                  r.src.attr_offset(at, "version"))
        return _GraphFrame("", 0, "<net>", at, None, (a.get("name", ""), version))


class _GraphFrame(_Frame):
    """`<net>` or a `<body>`: its first `<layers>` and first `<edges>`."""

    __slots__ = ("at", "depth", "edges", "kind", "layer", "layers", "net", "owner", "pre", "seen_edges",
                 "seen_layers", "what")

    def __init__(self, owner: str, depth: int, what: str, at: int, layer: _LayerFrame | None,
                 net: tuple[str, int | None] | None, kind: str = "body") -> None:
        self.owner, self.depth, self.what, self.at, self.layer, self.net = owner, depth, what, at, layer, net
        self.kind = kind
        self.layers: list[Layer] = []
        self.edges: list[Edge] = []
        self.seen_layers = self.seen_edges = False
        self.pre: _PreProcessFrame | None = None

    def child(self, r: Reader, tag: str, a: dict[str, str], at: int) -> _Frame:
        if tag == "layers" and not self.seen_layers:
            self.seen_layers = True
            return _LayersFrame(self)
        if tag == "edges" and not self.seen_edges:
            self.seen_edges = True
            return _EdgesFrame(self)
        if tag == "pre-process" and self.net is not None:
            self.pre = _PreProcessFrame(self, a.get("reference-layer-name"), at)
            return self.pre
        return IGNORE

    def end(self, r: Reader) -> None:
        if not self.seen_layers:
            r.report(codes.INVALID_STRUCTURE, f"{self.what} has no <layers>", self.at, self.owner or None)
        graph = Graph.build(tuple(self.layers), tuple(self.edges), self.owner, self.at, r.src, self.kind)
        if self.layer is not None:
            if self.kind == "body":
                self.layer.layer.body = graph
            else:
                frame = self.layer
                if frame.branch_bodies is None:
                    frame.branch_bodies = {}
                frame.branch_bodies.setdefault(self.kind[:-5], graph)  # the first one counts
        elif self.net is not None:
            r.model_parts = (self.net[0], self.net[1], graph, self.at)
            if self.pre is not None:  # OpenVINO reads <pre-process> once the model is built, wherever it stands
                self.pre.check(r)


class _LayersFrame(_Frame):
    __slots__ = ("graph",)

    def __init__(self, graph: _GraphFrame) -> None:
        self.graph = graph

    def child(self, r: Reader, tag: str, a: dict[str, str], at: int) -> _Frame:
        return _LayerFrame(r, self.graph, a, at) if tag == "layer" else IGNORE


class _LayersClosed(Exception):
    """Raised when the `<layers>` that `Reader.parse_tail` parses ends; `at` is its `</layers>`."""

    def __init__(self, at: int) -> None:
        super().__init__(at)
        self.at = at


class _LastLayers(_LayersFrame):
    """A `<layers>` whose end stops the parse (`Reader.parse_tail`)."""

    __slots__ = ()

    def end(self, r: Reader) -> None:
        raise _LayersClosed(r.parser.CurrentByteIndex)


class _EdgesFrame(_Frame):
    __slots__ = ("graph",)

    def __init__(self, graph: _GraphFrame) -> None:
        self.graph = graph

    def child(self, r: Reader, tag: str, a: dict[str, str], at: int) -> _Frame:
        if tag == "edge":
            try:
                ids = r.ids  # layer ids as the layers' own int objects (one object per id, not one per mention)
                fl, tl = int(a["from-layer"]), int(a["to-layer"])
                edge = Edge(ids.get(fl, fl), int(a["from-port"]), ids.get(tl, tl), int(a["to-port"]), at, r.src)
            except (KeyError, ValueError):  # the slow path reports each bad end
                owner = self.graph.owner or None
                ends = [r.int_attr(a, n, at, required=True, what="edge", layer=owner)
                        for n in ("from-layer", "from-port", "to-layer", "to-port")]
                edge = Edge(ends[0], ends[1], ends[2], ends[3], at, r.src)
            self.graph.edges.append(edge)
        return IGNORE


class _LayerFrame(_Frame):
    """A `<layer>`: the `Layer` is made at its start and completed by its children and its end."""

    __slots__ = ("back_edges", "branch_bodies", "branch_maps", "graph", "has_data", "ident", "inputs", "known",
                 "layer", "outer", "outputs", "port_map")

    def __init__(self, r: Reader, graph: _GraphFrame, a: dict[str, str], at: int) -> None:
        self.graph = graph
        text = a.get("id")
        try:
            lid = int(text)  # type: ignore[arg-type]
            layer_id: int | None = r.ids.setdefault(lid, lid)
        except (TypeError, ValueError):
            layer_id = r.int_attr(a, "id", at, required=True, what="layer")
        self.ident = ident = a.get("id", "?") if layer_id is None else str(layer_id)
        owner = graph.owner
        path = f"{owner}/{graph.kind}/{ident}" if owner else ident
        if layer_id is not None and layer_id < 0:
            r.report(codes.INVALID_ATTRIBUTE, f"layer id={layer_id} is negative; OpenVINO reads layer ids as unsigned "
                     "64-bit integers and refuses it", r.src.attr_offset(at, "id"), path,
                     hint="number layers from 0 within their graph")
        ltype, version = a.get("type"), a.get("version")
        if (ltype, version) not in r.good_types or "name" not in a:
            _check_identity(r, a, at, ident, path)  # the common case (a name, a type and version seen) passes
        ltype = ltype or ""
        self.layer = Layer(layer_id, a.get("name", ""), sys.intern(ltype), sys.intern(version or ""), _EMPTY,
                           (), (), at, r.src, path)
        self.inputs: list[Port] = []
        self.outputs: list[Port] = []
        self.port_map: list[PortMapEntry] | None = None
        self.back_edges: list[BackEdge] | None = None
        # an If's "then"/"else" bodies and port maps (made when one is met: most layers have none)
        self.branch_bodies: dict[str, Graph] | None = None
        self.branch_maps: dict[str, list[PortMapEntry]] | None = None
        self.has_data = False
        # where the children are, for a layer with a body (SourceMap.known); [data, port_map,
        # back_edges, input ports, output ports, then_port_map, else_port_map], with the same
        # first/last rules as the rest
        self.known: list[object] | None = ([None, None, None, [], [], None, None]
                                           if ltype in CONTROL_FLOW or ltype in BRANCHING else None)
        self.outer, r.layer = r.layer, self  # the <input>/<output> frames read the current layer from r

    def child(self, r: Reader, tag: str, a: dict[str, str], at: int) -> _Frame:
        known = self.known
        if tag == "input":
            self.inputs = []  # a repeated element replaces the earlier one, as in the tree-based reader
            if known is not None:
                known[3] = []
            return _INPUTS
        if tag == "output":
            self.outputs = []
            if known is not None:
                known[4] = []
            return _OUTPUTS
        layer = self.layer
        if tag == "data":
            if not self.has_data:  # the first <data> counts (irlint.ir.source places it the same way)
                self.has_data = True
                layer.data = r.data_mapping(a)
                _check_data_types(r, a, at, layer.path, layer.type)
                if known is not None:
                    known[0] = at
            return IGNORE
        if tag == "body":
            return _GraphFrame(layer.path, self.graph.depth + 1, f"the body of layer {layer.path}", at, self, None)
        if tag == "port_map":
            self.port_map = []
            if known is not None:
                known[1] = at
            return _PortMapFrame(self.port_map, layer.path)
        if tag in ("then_body", "else_body"):
            return _GraphFrame(layer.path, self.graph.depth + 1, f"the {tag} of layer {layer.path}", at, self, None,
                               tag)
        if tag in ("then_port_map", "else_port_map"):
            if self.branch_maps is None:
                self.branch_maps = {}
            entries = self.branch_maps[tag[:4]] = []  # the last one counts, like <port_map>
            if known is not None:
                known[5 if tag[0] == "t" else 6] = at
            return _PortMapFrame(entries, layer.path)
        if tag == "back_edges":
            self.back_edges = []
            if known is not None:
                known[2] = at
            return _BackEdgesFrame(self.back_edges, layer.path)
        if tag == "rt_info":
            return _RtInfoFrame(f"layer {layer.path}", layer.path)
        return IGNORE

    def end_branches(self, r: Reader) -> None:
        """An If's branches from its bodies and port maps; a missing one is reported (a port map
        without its body is dropped with it). Another layer's branch bodies are reported and dropped."""
        layer, out = self.layer, []
        bodies, maps = self.branch_bodies or {}, self.branch_maps or {}
        if layer.type not in BRANCHING:
            r.report(codes.INVALID_STRUCTURE, f"{layer.type} layer {self.ident} '{layer.name}' has a "
                     f"<{next(iter(bodies))}_body>, which only If layers have; it is not read", layer.at, layer.path)
            return
        for name in BRANCH_NAMES:
            body = bodies.get(name)
            if body is None:
                r.report(codes.INVALID_STRUCTURE, f"If layer {self.ident} '{layer.name}' has no <{name}_body>",
                         layer.at, layer.path)
                continue
            entries = maps.get(name)
            if entries is None:
                r.report(codes.INVALID_STRUCTURE, f"If layer {self.ident} '{layer.name}' has no <{name}_port_map>",
                         layer.at, layer.path)
            out.append(Branch(name, body, tuple(entries or ())))
        layer.branches = tuple(out)

    def end(self, r: Reader) -> None:
        layer = self.layer
        if not self.has_data and layer.type in _NEEDS_DATA:
            refusal, needed = _NEEDS_DATA[layer.type]
            r.report(codes.INVALID_STRUCTURE, f"{layer.type} layer {self.ident} '{layer.name}' has no <data>; "
                     f"OpenVINO refuses it ({refusal})", layer.at, layer.path, hint=f"add <data {needed} />")
        if layer.type in CONTROL_FLOW and layer.body is None:
            r.report(codes.INVALID_STRUCTURE, f"{layer.type} layer {self.ident} '{layer.name}' has no <body>",
                     layer.at, layer.path)
        if self.branch_bodies is not None or layer.type in BRANCHING:
            self.end_branches(r)
        layer.inputs, layer.outputs = r.port_tuples(self.inputs, self.outputs)
        k = self.known
        if k is not None:
            r.src.known[layer.at] = LayerParts(k[0], k[1], k[2], tuple(k[3]), tuple(k[4]),  # type: ignore[arg-type]
                                               k[5], k[6])  # type: ignore[arg-type]
        if self.port_map is not None:
            layer.port_map = tuple(self.port_map)
        if self.back_edges is not None:
            layer.back_edges = tuple(self.back_edges)
        self.graph.layers.append(layer)
        r.layer = self.outer


# what OpenVINO says of a Parameter or Const without <data>
_NEEDS_DATA = {
    "Parameter": ('"Layer data must be defined for: opset1::Parameter ..."', 'shape="..." element_type="..."'),
    "Const": ('"No attrtibutes defined for Const op!"', 'element_type="..." shape="..." offset="..." size="..."'),
}
_NEEDS_DATA["Constant"] = _NEEDS_DATA["Const"]
_CONST_DATA = ("element_type", "shape", "offset", "size")  # OpenVINO refuses a Const <data> without any of them


_LEADING_INT = re.compile(r"[ \t\n\r\f\v]*([+-]?[0-9]+)")
_INT64_MAX = 2**63 - 1


def port_dim(text: str) -> tuple[Dim | None, bool]:
    """A port `<dim>` as OpenVINO's reader reads it (a C++ stream's `>> int64_t`): the integer the
    text starts with, None if there is none or it is below -1 or past int64; and whether the
    integer is the whole text (OpenVINO drops what follows it: `1..3` is 1)."""
    m = _LEADING_INT.match(text)
    if m is None:
        return None, False
    n = int(m.group(1))
    if n < -1 or n > _INT64_MAX:
        return None, False
    return (DYNAMIC if n == -1 else Dim(n, n)), not text[m.end():].strip()


def _check_identity(r: Reader, a: Mapping[str, str], at: int, ident: str, path: str) -> None:
    """The `type`, `version` and `name` of a `<layer>`, each of which OpenVINO's reader requires: a
    missing one is refused ("node <layer> is missing mandatory attribute: version"), an empty type
    names no op, a version that names no opset is refused ("from unsupported opset")."""
    ltype, version = a.get("type"), a.get("version")
    for name in ("type", "version", "name"):
        if name not in a:
            r.report(codes.INVALID_STRUCTURE, f"layer {ident} has no '{name}' attribute", at, path,
                     hint=f"OpenVINO refuses a <layer> without {name}=")
    if ltype == "":
        r.report(codes.INVALID_STRUCTURE, f"layer {ident} has an empty 'type': it names no op",
                 r.src.attr_offset(at, "type"), path, hint="write the op's type, e.g. type=\"Add\"")
    if not ltype or version is None:
        return
    if not names_an_opset(ltype, version):
        legacy = (f"; '{version}' is read only for {', '.join(sorted(LEGACY_TYPES))}"
                  if version in LEGACY_VERSIONS else "")
        r.report(codes.UNKNOWN_OPSET, f"layer {ident} ({ltype}): version={version!r} names no opset OpenVINO reads "
                 f"(opset1 ... opset{LAST_OPSET}){legacy}", r.src.attr_offset(at, "version"), path,
                 hint=_opset_hint(ltype))
    elif not opset_holds(ltype, version):
        held = opsets_holding(ltype)
        where = f"{ltype} is in {held}" if held else f"no opset of OpenVINO holds an op {ltype}"
        r.report(codes.OP_NOT_IN_OPSET, f"layer {ident}: {version} holds no op of type {ltype!r} ({where})",
                 r.src.attr_offset(at, "type" if not held else "version"), path, hint=_opset_hint(ltype))
    else:
        r.good_types.add((ltype, version))


def _opset_hint(ltype: str) -> str:
    held = opsets_holding(ltype)
    if not held:
        return "use an op of OpenVINO's opsets (a custom op is read only with the extension that defines it loaded)"
    return (f"write the opset the op version is defined in ({ltype} is in {held}); openvino.save_model writes the "
            "first opset holding that version")


def _check_data_types(r: Reader, a: Mapping[str, str], at: int, path: str, layer_type: str) -> None:
    et = a.get("element_type")
    if et is not None and et not in ELEMENT_TYPES and element_type(et) is None:  # (the common case first)
        r.report(codes.UNKNOWN_PRECISION, f"layer {path}: unknown element_type {et!r}",
                 r.src.attr_offset(at, "element_type"), path)
    if layer_type not in ("Const", "Constant"):  # elsewhere offset is an op attribute (PriorBox: a float)
        return
    if not all(n in a for n in _CONST_DATA):
        missing = [n for n in _CONST_DATA if n not in a]
        r.report(codes.INVALID_STRUCTURE, f"layer {path}: the Const's <data> has no {', '.join(missing)}; "
                 "OpenVINO refuses it (\"missing mandatory attribute\")", at, path,
                 hint="a Const's <data> needs element_type, shape, offset and size")
    for name in ("offset", "size"):
        text = a.get(name)
        if text is not None and not (text.isascii() and text.isdigit()):  # (the common case: digits alone)
            try:
                if int(text) < 0:
                    raise ValueError
            except ValueError:
                r.report(codes.INVALID_ATTRIBUTE, f"layer {path}: {name}={text!r} is not a non-negative integer",
                         r.src.attr_offset(at, name), path)


class _PortsFrame(_Frame):
    """`<input>` or `<output>` of the current layer (two shared frames, not one per element)."""

    __slots__ = ("output", "what")

    def __init__(self, output: bool) -> None:
        self.output, self.what = output, "output port" if output else "input port"

    def child(self, r: Reader, tag: str, a: dict[str, str], at: int) -> _Frame:
        if tag == "port":
            layer = r.layer
            assert layer is not None
            if layer.known is not None:
                layer.known[4 if self.output else 3].append(at)  # type: ignore[attr-defined]
            # the port's end is seen by the port reader, not by this stack
            r.ports.open(layer.outputs if self.output else layer.inputs, self.what, layer.layer.path, a, at)
        return IGNORE


_INPUTS, _OUTPUTS = _PortsFrame(False), _PortsFrame(True)


class _PortReader:
    """Reads `<port>`s: while one is open, its `child_start`/`child_end` are the parser's handlers.

    One per parse, reset for each port; only the dims' text is collected (character data goes to
    `texts` through the C-level `list.append`, and `mark` remembers where the current dim's text starts).
    """

    __slots__ = ("at", "depth", "dims", "in_rt", "mark", "names", "path", "pid", "ports", "precision", "r", "rt_seen",
                 "texts", "what")

    def __init__(self, r: Reader) -> None:
        self.r = r
        self.texts: list[str] = []
        self.dims: list[str] = []
        self.mark = self.depth = self.at = 0
        self.pid: int | None = None
        self.precision: ElementType | None = None
        self.names: tuple[str, ...] = ()
        self.ports: list[Port] = []
        self.what = self.path = ""
        self.in_rt = False
        self.rt_seen: set[str] = set()

    def open(self, ports: list[Port], what: str, path: str, a: dict[str, str], at: int) -> None:
        r = self.r
        self.ports, self.what, self.path = ports, what, path
        text = a.get("id")
        try:
            pid: int | None = int(text)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            pid = r.int_attr(a, "id", at, required=True, what=self.what, layer=self.path)
        prec = a.get("precision")
        precision = None
        if prec is not None:
            precision = r.precision(prec)
            if precision is None:
                r.report(codes.UNKNOWN_PRECISION, f"{self.what} {pid}: unknown precision {prec!r}",
                         r.src.attr_offset(at, "precision"), self.path, port=pid)
        elif what == "output port":  # OpenVINO never reads an input port's precision
            r.report(codes.INVALID_STRUCTURE, f"{what} {pid} has no 'precision' attribute; OpenVINO refuses it "
                     "(\"missing mandatory attribute: precision\")", at, path, port=pid,
                     hint="write the element type the port carries, e.g. precision=\"FP32\"")
        names = a.get("names")
        self.pid, self.precision, self.at = pid, precision, at
        self.names = tuple(n.strip() for n in names.split(",")) if names else ()
        self.depth = 0
        r.enter_port(self)

    def child_start(self, tag: str, a: dict[str, str]) -> None:
        if len(a) > MAX_ATTRIBUTES:
            self.r.too_many_attributes(self.r.parser.CurrentByteIndex)
        depth = self.depth = self.depth + 1
        if depth == 1:
            if tag == "dim":
                self.mark = len(self.texts)
            elif tag == "rt_info":
                self.in_rt = True
                self.rt_seen.clear()
        elif len(self.r.stack) + depth > MAX_DEPTH:
            self.r.too_deep()
        elif depth == 2 and self.in_rt and tag == "attribute":
            _rt_attribute(self.r, self.rt_seen, a.get("name"), self.r.parser.CurrentByteIndex,
                          f"{self.what} {self.pid}", self.path, self.pid)

    def child_end(self, tag: str) -> None:
        depth = self.depth
        if depth == 0:
            self.finish()
            return
        if depth == 1 and tag == "rt_info":
            self.in_rt = False
        if depth == 1 and tag == "dim":  # only the text of a direct <dim> child counts
            texts, mark = self.texts, self.mark
            self.dims.append(texts[mark] if len(texts) == mark + 1 else "".join(texts[mark:]))
        self.depth = depth - 1

    def finish(self) -> None:
        r, pid, dims = self.r, self.pid, self.dims
        r.leave_port()
        r.stack.pop()  # the placeholder the general handler pushed for this port
        shape, bad, partly = r.shape_of(tuple(dims))
        for i in bad:
            r.report(codes.INVALID_ATTRIBUTE, f"{self.what} {pid}: <dim>{dims[i].strip()}</dim> is not a dimension "
                     "OpenVINO reads (\"must be greater or equal to -1\")", r.src.nth_tag_offset(self.at, "dim", i),
                     self.path, hint="a port's dim is an integer: a size, or -1 for a dynamic dim (`?` and intervals "
                     "belong in `shape` attributes)", port=pid)
        for i in partly:  # the shape is None when another dim is refused: read this one again for the message
            d = port_dim(dims[i])[0]
            r.report(codes.PARTIAL_DIM, f"{self.what} {pid}: OpenVINO reads <dim>{dims[i].strip()}</dim> as "
                     f"{-1 if d is None or d.hi is None else d.lo}, dropping the text after the integer",
                     r.src.nth_tag_offset(self.at, "dim", i), self.path,
                     hint="write the integer, or -1 for a dynamic dim (bounds go in the Parameter's `shape`)", port=pid)
        self.ports.append(r.port(pid, self.precision, shape, self.names))
        self.texts.clear()
        dims.clear()


class _PreProcessFrame(_Frame):
    """The legacy `<pre-process>` of `<net>`: what OpenVINO refuses (IR011) or applies (IR012)."""

    __slots__ = ("at", "graph", "means", "ref")

    def __init__(self, graph: _GraphFrame, ref: str | None, at: int) -> None:
        self.graph, self.ref, self.at = graph, ref, at
        self.means: list[tuple[dict[str, str], int]] = []

    def child(self, r: Reader, tag: str, a: dict[str, str], at: int) -> _Frame:
        return _MeanFrame(self) if tag == "channel" else IGNORE

    def check(self, r: Reader) -> None:
        param = next((la for la in self.graph.layers if la.type == "Parameter" and la.name == self.ref), None)
        if param is None:
            r.report(codes.PRE_PROCESS_REFUSED, f"<pre-process> names input {self.ref!r}, which is no Parameter; "
                     f"OpenVINO refuses it (\"pre-process name ref '{self.ref}' refers to un-existing input\")",
                     self.at, hint="name the Parameter the means apply to")
            return
        if not self.means:
            return
        for a, at in self.means:
            if "value" not in a and "size" not in a:
                r.report(codes.PRE_PROCESS_REFUSED, "<mean> has neither value nor size; OpenVINO refuses it (\"mean "
                         "should have at least one of the following attribute: value, size\")", at)
                return
        dims = [d.strip() for d in param.data.get("shape", "").split(",")]
        if len(dims) >= 2 and all(d.isdigit() for d in dims):
            if len(self.means) != int(dims[1]):
                r.report(codes.PRE_PROCESS_REFUSED, f"<pre-process> gives {len(self.means)} means for the "
                         f"{dims[1]} channels of input {self.ref!r}; OpenVINO refuses it (\"Number of mean values "
                         f"({len(self.means)}) is not equal to number of channels ({dims[1]})\")", self.at)
                return
            plane = 4
            for d in dims[2:]:
                plane *= int(d)
            for a, at in self.means:
                if "value" not in a and a.get("size", "").strip() != str(plane):
                    r.report(codes.PRE_PROCESS_REFUSED, f"<mean> blob of size {a.get('size')!r}: a plane of input "
                             f"{self.ref!r} takes {plane} bytes (f32); OpenVINO refuses it (\"mean blob size "
                             "mismatch\")", at)
                    return
        r.report(codes.PRE_PROCESS_MEANS, f"<pre-process> gives input {self.ref!r} {len(self.means)} channel means, "
                 "which OpenVINO subtracts from it as it reads the model; irlint does not apply them (its outputs "
                 "differ from OpenVINO's by the subtraction)", self.at, param.path,
                 hint="fold the subtraction into the model (a Subtract after the Parameter)")


class _MeanFrame(_Frame):
    __slots__ = ("pre",)

    def __init__(self, pre: _PreProcessFrame) -> None:
        self.pre = pre

    def child(self, r: Reader, tag: str, a: dict[str, str], at: int) -> _Frame:
        if tag == "mean":
            self.pre.means.append((a, at))
        return IGNORE


class _RtInfoFrame(_Frame):
    """A layer's `<rt_info>`: an attribute OpenVINO reads, named twice, is refused (IR010)."""

    __slots__ = ("path", "seen", "what")

    def __init__(self, what: str, path: str) -> None:
        self.what, self.path = what, path
        self.seen: set[str] = set()

    def child(self, r: Reader, tag: str, a: dict[str, str], at: int) -> _Frame:
        if tag == "attribute":
            _rt_attribute(r, self.seen, a.get("name"), at, self.what, self.path)
        return IGNORE


def _rt_attribute(r: Reader, seen: set[str], name: str | None, at: int, what: str, path: str,
                  port: int | None = None) -> None:
    if name not in codes.RT_INFO_READ:
        return
    if name in seen:
        r.report(codes.DUPLICATE_RT_INFO, f"{what}: <rt_info> names the attribute {name!r} twice; OpenVINO refuses "
                 f"it (\"multiple rt_info attributes are detected: {name}\")", at, path or None,
                 hint="keep one of them", port=port)
    seen.add(name)


class _PortMapFrame(_Frame):
    __slots__ = ("entries", "owner")

    def __init__(self, entries: list[PortMapEntry], owner: str) -> None:
        self.entries, self.owner = entries, owner

    def child(self, r: Reader, tag: str, a: dict[str, str], at: int) -> _Frame:
        if tag in ("input", "output"):
            what = f"port_map <{tag}>"
            v = [r.int_attr(a, n, at, required=n in ("external_port_id", "internal_layer_id"), what=what,
                            layer=self.owner) for n in _PORT_MAP_INTS]
            self.entries.append(PortMapEntry(tag, v[0], v[1], v[2], v[3], v[4], v[5], v[6], a.get("purpose"), at,
                                             r.src, MappingProxyType(a)))
        return IGNORE


class _BackEdgesFrame(_Frame):
    __slots__ = ("edges", "owner")

    def __init__(self, edges: list[BackEdge], owner: str) -> None:
        self.edges, self.owner = edges, owner

    def child(self, r: Reader, tag: str, a: dict[str, str], at: int) -> _Frame:
        if tag == "edge":
            def get(name: str, required: bool) -> int | None:
                return r.int_attr(a, name, at, required=required, what="back edge", layer=self.owner)

            self.edges.append(BackEdge(get("from-layer", True), get("to-layer", True), get("from-port", False),
                                       get("to-port", False), at, r.src))
        return IGNORE
