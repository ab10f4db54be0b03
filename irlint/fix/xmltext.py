"""Where values sit in the raw XML bytes, and the `Edit`s that change them.

The loader records the byte offset of each element's `<` (`irlint.ir.source`); these helpers read
the start tag there and find an attribute's value or a port's `<dim>` children. Anything
unexpected (a value with an entity, a tag that does not parse) gives no edit: a fix that cannot
be placed exactly is not offered.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from irlint.fix.edits import Edit

_TAG = re.compile(rb"<([^\s/>]+)((?:\s+[^\s=/>]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*)(\s*)(/?)>")
# A `<dim>` as XML allows it to be written: text (with character references), CDATA sections
# (`<dim><![CDATA[6]]></dim>`, which parsers read as 6), comments and processing instructions (which they
# skip: `<dim>1<!-- x -->2</dim>` is 12), in any mix. Every dim the loader reads must be found here, or a
# fix offered for it (`[*]`) would edit the wrong dim or none.
_DIM = re.compile(rb"<dim>((?:[^<]|<!\[CDATA\[.*?\]\]>|<!--.*?-->|<\?.*?\?>)*)</dim>", re.S)
_PIECE = re.compile(
    rb"<!\[CDATA\[(.*?)\]\]>|<!--.*?-->|<\?.*?\?>"
    rb"|&#[xX]([0-9a-fA-F]+);|&#([0-9]+);|&(lt|gt|amp|quot|apos);|([^<&]+|&)",
    re.S,
)
_ENTITIES = {b"lt": b"<", b"gt": b">", b"amp": b"&", b"quot": b'"', b"apos": b"'"}
_INDENT = re.compile(rb"[ \t]*")


class Tag:
    """The start tag at an offset: its span, attribute area and whether it closes itself."""

    def __init__(self, data: bytes, at: int) -> None:
        m = _TAG.match(data, at)
        if m is None:
            raise LookupError(f"no start tag at byte {at}")
        self.data, self.at, self.m = data, at, m
        self.name = m.group(1).decode("ascii", "replace")
        self.end = m.end()
        self.self_closing = bool(m.group(4))

    def attr_span(self, name: str) -> tuple[int, int] | None:
        """The byte range of `name`'s value (inside the quotes), or None when the tag lacks it."""
        rx = re.compile(rb"\s" + re.escape(name.encode()) + rb"\s*=\s*(\"([^\"]*)\"|'([^']*)')")
        m = rx.search(self.data, self.m.start(2), self.m.end(2))
        if m is None:
            return None
        g = 2 if m.group(2) is not None else 3
        return m.start(g), m.end(g)

    def attr(self, name: str) -> str | None:
        span = self.attr_span(name)
        return None if span is None else self.data[span[0] : span[1]].decode("utf-8", "replace")

    def set_attr(self, name: str, value: str) -> Edit:
        """Change `name`'s value, or add ` name="value"` after the last attribute when it is absent."""
        span = self.attr_span(name)
        from xml.sax.saxutils import quoteattr  # here: it imports urllib.request, which a plain check never needs

        escaped = quoteattr(value, {'"': "&quot;"})[1:-1]
        if span is not None:
            if self.data[span[0] - 1 : span[0]] == b"'":
                escaped = escaped.replace("'", "&apos;")
            return Edit(span[0], span[1], escaped.encode())
        at = self.m.end(2)
        return Edit(at, at, f' {name}="{escaped}"'.encode())


def _piece(m: re.Match[bytes]) -> bytes:
    cdata, hexref, decref, entity, text = m.groups()
    if cdata is not None or text is not None:
        return cdata if cdata is not None else text
    if hexref is not None or decref is not None:
        digits = hexref if hexref is not None else decref
        code = int(digits, 16 if hexref is not None else 10) if len(digits) <= 8 else 0x110000
        return chr(code).encode("utf-8", "replace") if code < 0x110000 else b""  # not a character: no dim
    return _ENTITIES[entity] if entity is not None else b""  # a comment or processing instruction


def dim_text(raw: bytes) -> bytes:
    """A `<dim>`'s content as a parser reads it: CDATA unwrapped, references decoded, comments and
    processing instructions dropped."""
    return b"".join(_piece(m) for m in _PIECE.finditer(raw))


def dim_value(raw: bytes) -> bytes:
    """A `<dim>`'s value as the loader reads it: its text (`dim_text`), blanks around it dropped."""
    return dim_text(raw).strip()


def line_indent(data: bytes, at: int) -> bytes:
    """The whitespace that starts the line holding offset `at`."""
    start = data.rfind(b"\n", 0, at) + 1
    return _INDENT.match(data, start).group()  # type: ignore[union-attr]


def _unit(indent: bytes) -> bytes:
    return b"\t" if b"\t" in indent or not indent else b"  "


def set_port_dims(data: bytes, port_at: int, dims: Sequence[int]) -> list[Edit]:
    """Edits making the `<port>` at `port_at` declare exactly `dims` (values changed in place; dims
    added or removed with the separator the port already uses). Empty when it already does."""
    tag = Tag(data, port_at)
    if tag.name != "port":
        raise LookupError(f"expected <port> at byte {port_at}, found <{tag.name}>")
    new = [str(int(d)).encode() for d in dims]
    indent = line_indent(data, port_at)
    inner = b"\n" + indent + _unit(indent)
    if tag.self_closing:
        if not new:
            return []
        body = b"".join(inner + b"<dim>" + v + b"</dim>" for v in new)
        return [Edit(tag.m.start(3), tag.end, b">" + body + b"\n" + indent + b"</port>")]
    close = data.find(b"</port>", tag.end)
    if close < 0:
        raise LookupError(f"<port> at byte {port_at} has no end tag")
    old = list(_DIM.finditer(data, tag.end, close))
    edits: list[Edit] = []
    for m, v in zip(old, new):
        if dim_value(m.group(1)) != v:  # "<dim> 3 </dim>" already says 3: left as written (CDATA, comments rewritten)
            edits.append(Edit(m.start(1), m.end(1), v))
    if len(new) > len(old):
        if old:
            at = old[-1].end()
            prev_end = old[-2].end() if len(old) > 1 else tag.end
            sep = data[prev_end : old[-1].start()]
            if sep.strip():
                raise LookupError("dims separated by other content")
        else:
            at, sep = tag.end, inner
        edits.append(Edit(at, at, b"".join(sep + b"<dim>" + v + b"</dim>" for v in new[len(old) :])))
    elif len(new) < len(old):
        start = old[len(new) - 1].end() if new else tag.end
        gap = data[start : old[len(new)].start()]
        if gap.strip():
            raise LookupError("dims separated by other content")
        edits.append(Edit(start, old[-1].end(), b""))
    return edits


def port_dims_text(data: bytes, port_at: int) -> list[str]:
    """The `<dim>` values of the port at `port_at` as written (tests and messages)."""
    tag = Tag(data, port_at)
    if tag.self_closing:
        return []
    close = data.find(b"</port>", tag.end)
    return [dim_text(m.group(1)).decode() for m in _DIM.finditer(data, tag.end, close)]


def format_shape_attr(dims: Sequence[int], like: str | None) -> str:
    """A `shape` attribute value in the style of `like` (OpenVINO writes "1,5,4"; some writers "1, 5, 4")."""
    sep = ", " if like is not None and ", " in like else ","
    return sep.join(str(int(d)) for d in dims)
