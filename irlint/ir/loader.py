"""Read IR XML safely into the typed `Model`, recording every problem as a diagnostic.

Safety: the lxml parser never resolves entities, never loads a DTD, never touches the network, and
refuses documents deeper than libxml2's default limit; a DOCTYPE is reported (IR002). The loader
keeps going after a bad attribute: the value becomes None and a diagnostic is recorded.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from types import MappingProxyType

from lxml import etree

from irlint.diagnostics import Diagnostic, Location
from irlint.ir import codes
from irlint.ir.model import BackEdge, Edge, Graph, Layer, Model, Port, PortMapEntry
from irlint.ir.source import SourceText
from irlint.ir.weights import Weights
from irlint.rule import Rule
from irlint.types import Dim, Shape, element_type, parse_dim

SUPPORTED_VERSIONS = (10, 11)
CONTROL_FLOW = ("TensorIterator", "Loop")
# Refuse larger XML before reading it: the parsed tree and model take up to ~30x the file size
# (docs/performance.md), so this keeps a worst case well inside the memory of a CI machine.
MAX_XML_BYTES = 512 * 1024**2


class LoadError(Exception):
    """The file could not be read at all (missing, a directory, too large): exit code 2."""


def _parser() -> etree.XMLParser:
    return etree.XMLParser(
        resolve_entities=False,
        load_dtd=False,
        dtd_validation=False,
        no_network=True,
        remove_blank_text=False,
        huge_tree=False,
        collect_ids=False,
    )


class _Reader:
    """One pass over a parsed tree; collects diagnostics as it builds the model."""

    def __init__(self, src: SourceText) -> None:
        self.src = src
        self.diags: list[Diagnostic] = []

    # -- diagnostics ---------------------------------------------------------------------------
    def report(self, r: Rule, message: str, loc: Location, layer: str | None = None, hint: str | None = None,
               port: int | None = None) -> None:
        self.diags.append(Diagnostic(r.code, r.severity, message, loc, r.name, layer, port, (), hint))

    def loc(self, el: etree._Element) -> Location:
        return self.src.element_loc(el.sourceline, el.tag if isinstance(el.tag, str) else "")

    # -- attribute helpers ---------------------------------------------------------------------
    def int_attr(self, el: etree._Element, name: str, *, required: bool, what: str,
                 layer: str | None = None) -> int | None:
        text = el.get(name)
        if text is None:
            if required:
                self.report(codes.INVALID_STRUCTURE, f"{what} has no '{name}' attribute", self.loc(el), layer)
            return None
        try:
            return int(text.strip())
        except ValueError:
            self.report(
                codes.INVALID_ATTRIBUTE,
                f"{what}: {name}={text!r} is not an integer",
                self.src.attr_loc(el.sourceline, str(el.tag), name),
                layer,
            )
            return None

    def children(self, el: etree._Element, tag: str) -> list[etree._Element]:
        return [c for c in el if c.tag == tag]

    # -- structure -----------------------------------------------------------------------------
    def port(self, el: etree._Element, layer_path: str, what: str) -> Port:
        pid = self.int_attr(el, "id", required=True, what=what, layer=layer_path)
        prec_text = el.get("precision")
        precision = None
        if prec_text is not None:
            precision = element_type(prec_text)
            if precision is None:
                self.report(
                    codes.UNKNOWN_PRECISION,
                    f"{what} {pid}: unknown precision {prec_text!r}",
                    self.src.attr_loc(el.sourceline, "port", "precision"),
                    layer_path,
                    port=pid,
                )
        dims: list[Dim] = []
        shape: Shape | None = None
        ok = True
        for d in el:
            if d.tag != "dim":
                continue
            parsed = parse_dim(d.text or "")
            if parsed is None:
                ok = False
                self.report(
                    codes.INVALID_ATTRIBUTE,
                    f"{what} {pid}: <dim>{(d.text or '').strip()}</dim> is not a valid dimension",
                    self.loc(d),
                    layer_path,
                    hint="a dim is a non-negative integer, -1 or ? (dynamic), or an interval lo..hi",
                    port=pid,
                )
            else:
                dims.append(parsed)
        if ok:
            shape = tuple(dims)
        names_text = el.get("names")
        names = tuple(n.strip() for n in names_text.split(",")) if names_text else ()
        return Port(pid, precision, shape, names, self.loc(el), MappingProxyType(dict(el.attrib)))

    def layer(self, el: etree._Element, owner: str, depth: int) -> Layer:
        lid = self.int_attr(el, "id", required=True, what="layer")
        ident = el.get("id", "?") if lid is None else str(lid)
        path = f"{owner}/body/{ident}" if owner else ident
        ltype = el.get("type")
        if ltype is None:
            self.report(codes.INVALID_STRUCTURE, f"layer {ident} has no 'type' attribute", self.loc(el), path)
            ltype = ""
        name = el.get("name", "")
        data_el = next((c for c in el if c.tag == "data"), None)
        data = MappingProxyType(dict(data_el.attrib)) if data_el is not None else MappingProxyType({})
        inputs: tuple[Port, ...] = ()
        outputs: tuple[Port, ...] = ()
        body = None
        port_map: tuple[PortMapEntry, ...] = ()
        back_edges: tuple[BackEdge, ...] = ()
        port_map_loc = back_edges_loc = None
        for c in el:
            if c.tag == "input":
                inputs = tuple(self.port(p, path, "input port") for p in c if p.tag == "port")
            elif c.tag == "output":
                outputs = tuple(self.port(p, path, "output port") for p in c if p.tag == "port")
            elif c.tag == "body":
                body = self.body(c, path, depth + 1)
            elif c.tag == "port_map":
                port_map_loc = self.loc(c)
                port_map = tuple(self.port_map_entry(e, path) for e in c if e.tag in ("input", "output"))
            elif c.tag == "back_edges":
                back_edges_loc = self.loc(c)
                back_edges = tuple(self.back_edge(e, path) for e in c if e.tag == "edge")
        if ltype in CONTROL_FLOW and body is None:
            self.report(codes.INVALID_STRUCTURE, f"{ltype} layer {ident} '{name}' has no <body>",
                        self.loc(el), path)
        self.check_data_types(data_el, path)
        return Layer(
            lid, name, ltype, el.get("version", ""), data, inputs, outputs, self.loc(el), path,
            self.loc(data_el) if data_el is not None else None, body, port_map, back_edges,
            port_map_loc, back_edges_loc, MappingProxyType(dict(el.attrib)),
        )

    def check_data_types(self, data_el: etree._Element | None, path: str) -> None:
        if data_el is None:
            return
        et = data_el.get("element_type")
        if et is not None and element_type(et) is None:
            self.report(
                codes.UNKNOWN_PRECISION,
                f"layer {path}: unknown element_type {et!r}",
                self.src.attr_loc(data_el.sourceline, "data", "element_type"),
                path,
            )
        for name in ("offset", "size"):
            text = data_el.get(name)
            if text is not None:
                try:
                    if int(text) < 0:
                        raise ValueError
                except ValueError:
                    self.report(
                        codes.INVALID_ATTRIBUTE,
                        f"layer {path}: {name}={text!r} is not a non-negative integer",
                        self.src.attr_loc(data_el.sourceline, "data", name),
                        path,
                    )

    def port_map_entry(self, el: etree._Element, owner: str) -> PortMapEntry:
        what = f"port_map <{el.tag}>"
        ints = {
            name: self.int_attr(el, name, required=name in ("external_port_id", "internal_layer_id"),
                                what=what, layer=owner)
            for name in ("external_port_id", "internal_layer_id", "axis", "start", "end", "stride", "part_size")
        }
        return PortMapEntry(
            str(el.tag), ints["external_port_id"], ints["internal_layer_id"], ints["axis"], ints["start"],
            ints["end"], ints["stride"], ints["part_size"], el.get("purpose"), self.loc(el),
            MappingProxyType(dict(el.attrib)),
        )

    def back_edge(self, el: etree._Element, owner: str) -> BackEdge:
        what = "back edge"
        return BackEdge(
            self.int_attr(el, "from-layer", required=True, what=what, layer=owner),
            self.int_attr(el, "to-layer", required=True, what=what, layer=owner),
            self.int_attr(el, "from-port", required=False, what=what, layer=owner),
            self.int_attr(el, "to-port", required=False, what=what, layer=owner),
            self.loc(el),
        )

    def edges(self, el: etree._Element | None, owner: str) -> tuple[Edge, ...]:
        if el is None:
            return ()
        out = []
        for e in el:
            if e.tag != "edge":
                continue
            ends = [self.int_attr(e, a, required=True, what="edge", layer=owner or None)
                    for a in ("from-layer", "from-port", "to-layer", "to-port")]
            out.append(Edge(ends[0], ends[1], ends[2], ends[3], self.loc(e)))
        return tuple(out)

    def graph_of(self, el: etree._Element, owner: str, depth: int, what: str) -> Graph:
        layers_el = next((c for c in el if c.tag == "layers"), None)
        edges_el = next((c for c in el if c.tag == "edges"), None)
        if layers_el is None:
            self.report(codes.INVALID_STRUCTURE, f"{what} has no <layers>", self.loc(el), owner or None)
        layers = tuple(self.layer(c, owner, depth) for c in (layers_el if layers_el is not None else ())
                       if c.tag == "layer")
        return Graph.build(layers, self.edges(edges_el, owner), owner, self.loc(el))

    def body(self, el: etree._Element, owner: str, depth: int) -> Graph:
        return self.graph_of(el, owner, depth, f"the body of layer {owner}")


def _xml_error(path: str, err: etree.XMLSyntaxError) -> Diagnostic:
    line, col = err.position if err.position else (0, 0)
    msg = (err.msg or str(err)).strip()
    if "Excessive depth" in msg or "Detected an entity reference loop" in msg:
        msg += " (irlint refuses such documents instead of expanding them)"
    r = codes.MALFORMED_XML
    return Diagnostic(r.code, r.severity, f"malformed XML: {msg}", Location(path, line or 0, (col or 0) + 1),
                      r.name)


def _empty_model(path: str, weights: Weights, diags: Iterable[Diagnostic]) -> Model:
    loc = Location(path, 0, 0)
    return Model(path, "", None, Graph.build((), (), "", loc), weights, loc, tuple(diags))


def default_weights_path(xml_path: str) -> str:
    base, _ = os.path.splitext(xml_path)
    return base + ".bin"


def read_source(path: str) -> bytes:
    """Read the XML file, turning every OS failure into `LoadError` (exit code 2)."""
    try:
        if os.path.isdir(path):
            raise LoadError(f"{path} is a directory")
        size = os.path.getsize(path)
        if size > MAX_XML_BYTES:
            raise LoadError(f"{path} is {size} bytes, larger than the {MAX_XML_BYTES // 1024**2} MiB of XML irlint "
                            "parses (the parsed model would not fit in memory)")
        with open(path, "rb") as f:
            head = f.read(4096)
            if head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] not in (b"<", b""):
                return head  # not XML at all: the parser reports it from the first bytes, the rest is not read
            return head + f.read()
    except FileNotFoundError as e:
        raise LoadError(f"{path}: no such file") from e
    except OSError as e:
        raise LoadError(f"{path}: cannot read ({e.strerror or e})") from e


def load(path: str | os.PathLike[str], weights: str | os.PathLike[str] | None = None) -> Model:
    """Read an IR file into a `Model`; raises `LoadError` only if the file cannot be read at all."""
    p = os.fspath(path)
    data = read_source(p)
    w = Weights.open(os.fspath(weights) if weights is not None else default_weights_path(p))
    return parse_bytes(data, p, w)


def _doctype_diagnostic(src: SourceText, data: bytes, path: str) -> Diagnostic | None:
    """IR002 if the prolog declares a DOCTYPE (found textually, so even a file that fails to parse gets it)."""
    root_at = data.find(b"<net")
    pos = data.find(b"<!DOCTYPE", 0, root_at if root_at >= 0 else min(len(data), 1 << 20))
    if pos < 0:
        return None
    line = 1 + data.count(b"\n", 0, pos)
    r = codes.DTD_NOT_ALLOWED
    return Diagnostic(r.code, r.severity,
                      "the file declares a DOCTYPE; IR never has one and irlint does not expand its entities",
                      Location(path, line, src.column_of(line, b"<!DOCTYPE")), r.name,
                      hint="remove the DOCTYPE and write values literally")


def parse_bytes(data: bytes, path: str, weights: Weights) -> Model:
    """Parse XML bytes already in memory (the file name is only used for locations)."""
    src = SourceText(path, data)
    doctype = _doctype_diagnostic(src, data, path)
    pre = [doctype] if doctype else []
    try:
        tree = etree.fromstring(data, _parser()).getroottree()
    except etree.XMLSyntaxError as e:
        return _empty_model(path, weights, [*pre, _xml_error(path, e)])
    except ValueError as e:  # e.g. unsupported encoding declarations
        r = codes.MALFORMED_XML
        return _empty_model(path, weights, [*pre, Diagnostic(r.code, r.severity, f"malformed XML: {e}",
                                                             Location(path, 1, 1), r.name)])
    reader = _Reader(src)
    reader.diags += pre
    root = tree.getroot()
    if root.tag != "net":
        reader.report(codes.INVALID_STRUCTURE, f"the root element is <{root.tag}>, not <net>", reader.loc(root))
        return _empty_model(path, weights, reader.diags)
    version = reader.int_attr(root, "version", required=True, what="<net>")
    if version is not None and version not in SUPPORTED_VERSIONS:
        reader.report(codes.UNSUPPORTED_VERSION,
                      f"IR version {version} is not supported (irlint and OpenVINO read versions 10 and 11)",
                      src.attr_loc(root.sourceline, "net", "version"))
    graph = reader.graph_of(root, "", 0, "<net>")
    return Model(path, root.get("name", ""), version, graph, weights, reader.loc(root),
                 tuple(reader.diags))
