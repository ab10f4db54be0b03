"""Load a large IR on two cores: a forked child parses the second half of one `<layers>` element
while this process parses everything else, and sends its layers back pickled.

Why: loading is three quarters of `irlint check` on a 100,000-layer model, almost all of it
Python work in expat's callbacks, and a CI machine has a second core idle (docs/performance.md).
Unpickling half a model takes a tenth of the time parsing it does.

How the result stays exactly the serial one:
- `plan` picks the first `<layer` after the middle of the file and guesses from a byte scan which
  `<layers>` holds it (the top level, or the body of a top-level layer). It gives up on anything
  that could make a byte scan wrong: comments, CDATA, DOCTYPE, processing instructions, an
  encoding other than UTF-8, deeper nesting.
- The child builds the same parser state from a made-up prefix padded with spaces to the split
  offset (so expat's byte offsets are the file's), parses from the split to that `</layers>`, and
  stops there.
- This process parses up to the split, then checks that the element open there really is the
  `<layers>` the child assumed. Only then does it take the child's layers and diagnostics and feed
  its own parser spaces in place of the child's bytes; otherwise, or if the child failed in any
  way, it parses the rest itself. Locations are offsets into the file either way.
"""

from __future__ import annotations

import contextlib
import copyreg
import operator
import os
import pickle
import re
import signal
from collections.abc import Callable
from dataclasses import fields
from types import MappingProxyType
from typing import IO, Any, NamedTuple

from irlint.ir import codes
from irlint.ir.model import BackEdge, Edge, Graph, Layer, Port, PortMapEntry
from irlint.ir.reader import LayersClosed, Reader
from irlint.ir.source import LayerParts, ReadAt, SourceMap
from irlint.rule import Rule
from irlint.types import ELEMENT_TYPES, ElementType

MIN_BYTES = 1 << 20  # ~2,500 layers; at 1,000 layers (0.4 MB) fork and pickle cost what they save
SCAN = 1 << 20  # bytes read at a time by the scan
_LOOKBACK = 1 << 16  # how far before a <body> its layer's start tag is looked for
_ID = re.compile(rb"\sid\s*=\s*[\"']\s*(\d+)\s*[\"']")
_ENCODING = re.compile(rb"encoding\s*=\s*[\"']([^\"']*)[\"']")
_LOADER_RULES = {r.code: r for r in vars(codes).values() if isinstance(r, Rule)}

Pending = tuple[Rule, str, int, str | None, str | None, int | None]  # Reader.pending's entries


class Plan(NamedTuple):
    """Where the child starts (the offset of a `<layer`) and which `<layers>` holds that layer."""

    at: int
    owner: str  # "" for the top level, else the id of the top-level layer whose body it is

    def prefix(self) -> bytes:
        """A document opening the same elements as the file does at `at` (minus what the child does not need)."""
        body = f'<layer id="{self.owner}"><body><layers>' if self.owner else ""
        return f"<net><layers>{body}".encode()


class Part(NamedTuple):
    """What the child parsed: the layers, where their `</layers>` is, and its diagnostics."""

    layers: list[Layer]
    end: int
    pending: list[Pending]
    known: dict[int, LayerParts]  # SourceMap.known of the part


def plan(read: ReadAt, size: int, at: int | None = None) -> Plan | None:
    """Where to split a file of `size` bytes (the first `<layer` from `at`, default the middle), or None."""
    head = read(0, 512)
    m = _ENCODING.search(head[:head.find(b"?>")]) if head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<?xml") else None
    if m and m.group(1).lower().replace(b"_", b"-") not in (b"utf-8", b"utf8"):
        return None
    split = _next_layer(read, size // 2 if at is None else at, size)
    if split is None:
        return None
    opened: list[int] = []  # offsets of the <body> elements open at the split
    decls = 0
    for pos, token in _tokens(read, split):
        if token == b"<!":
            return None
        if token == b"<?":
            decls += 1
            if decls > 1 or pos > 3:
                return None
        elif token == b"</body":
            if not opened:
                return None
            opened.pop()
        else:
            opened.append(pos)
    if not opened:
        return Plan(split, "")
    if len(opened) > 1:
        return None
    before = read(max(0, opened[0] - _LOOKBACK), min(opened[0], _LOOKBACK))
    tag = before.rfind(b"<layer")
    ident = _ID.search(before, tag + 6, before.find(b">", tag)) if tag >= 0 else None
    return Plan(split, str(int(ident.group(1)))) if ident else None


def _next_layer(read: ReadAt, start: int, size: int) -> int | None:
    """The offset of the first `<layer` at or after `start` (an edge list may come first)."""
    for pos in range(start, size, SCAN):
        found = re.search(rb"<layer[\s>/]", read(pos, SCAN + 8))
        if found is not None:
            return pos + found.start()
    return None


_TOKEN = re.compile(rb"<!|<\?|</body\s*>|<body[\s>]")


def _tokens(read: ReadAt, end: int) -> list[tuple[int, bytes]]:
    """The offsets of `<!`, `<?`, `<body>` and `</body>` before `end` (`<body/>` is neither)."""
    out: list[tuple[int, bytes]] = []
    pos, keep = 0, 8  # chunks overlap by `keep` bytes so that no token is cut
    while pos < end:
        chunk = read(pos, min(SCAN + keep, end - pos + keep))
        if not chunk:
            break
        for m in _TOKEN.finditer(chunk):
            if m.start() >= SCAN or pos + m.start() >= end:
                break
            t = m.group()
            out.append((pos + m.start(), b"</body" if t.startswith(b"</") else t[:5] if t.startswith(b"<body") else t))
        pos += SCAN
    return out


# -- the child ------------------------------------------------------------------------------------


class Child:
    """A forked process parsing one part; `result` collects it (None if it failed), `cancel` stops it."""

    def __init__(self, pid: int, pipe: IO[bytes]) -> None:
        self.pid, self.pipe = pid, pipe

    @staticmethod
    def start(path: str, p: Plan, chunk: int) -> Child | None:
        """Fork a child parsing `p` (None where fork is unavailable or fails)."""
        if not hasattr(os, "fork"):
            return None
        try:
            read_end, write_end = os.pipe()
            pid = os.fork()
        except OSError:
            return None
        if pid == 0:  # never returns
            code = 1
            try:
                os.close(read_end)
                with os.fdopen(write_end, "wb") as out:
                    part = _parse_part(path, p, chunk)
                    _Pickler(out).dump(part)
                code = 0 if part is not None else 1
            finally:
                os._exit(code)  # no cleanup: the parent owns stdout and the model
        os.close(write_end)
        return Child(pid, os.fdopen(read_end, "rb"))

    def result(self, src: SourceMap) -> Part | None:
        """The child's part (its locations read from `src`), or None if it failed."""
        try:
            part = _Unpickler(self.pipe, src).load()
        except Exception:  # a failed child writes nothing or a partial pickle
            part = None
        status = self._reap()
        return part if status == 0 and isinstance(part, Part) else None

    def cancel(self) -> None:
        with contextlib.suppress(OSError):
            os.kill(self.pid, signal.SIGKILL)
        self._reap()

    def _reap(self) -> int:
        self.pipe.close()
        try:
            _, status = os.waitpid(self.pid, 0)
        except ChildProcessError:
            return -1
        return os.waitstatus_to_exitcode(status)


def _parse_part(path: str, p: Plan, chunk: int) -> Part | None:
    """The child's parse: the made-up prefix, spaces up to `p.at`, then the file until the `</layers>`."""
    reader = Reader(SourceMap(path))
    prefix = p.prefix()
    if len(prefix) > p.at:
        return None
    try:
        reader.feed(prefix)
        pad(lambda data, _final: reader.feed(data), p.at - len(prefix), chunk)
        opened = reader.open_layers()
        if opened is None:
            return None
        layers = opened[1]
        reader.stop_when_layers_close()
        with open(path, "rb") as f:
            f.seek(p.at)
            while data := f.read(chunk):
                reader.feed(data)
        return None  # the file ended inside the <layers>: the parent reports it
    except LayersClosed as e:
        pending = [d for d in reader.pending if d[2] >= p.at]  # not the made-up prefix's
        return Part(layers, e.at, pending, reader.src.known)
    except Exception:
        return None


def pad(feed: Callable[[bytes, bool], object], n: int, chunk: int) -> None:
    """Feed `n` spaces (character data between elements, which no handler reads)."""
    spaces = b" " * min(n, chunk)
    while n > 0:
        feed(spaces[:n], False)
        n -= len(spaces)


# -- pickling a part -------------------------------------------------------------------------------


def _proxy(d: dict[str, Any]) -> MappingProxyType[str, Any]:
    return MappingProxyType(d)


def _by_fields(cls: type) -> Callable[[Any], tuple[type, tuple[Any, ...]]]:
    """Reduce a slotted dataclass to its constructor call: far faster than the default per-slot state."""
    get = operator.attrgetter(*(f.name for f in fields(cls)))
    return lambda o: (cls, get(o))


def _layer(*args: Any) -> Layer:
    return Layer(*args[:-1])


_layer_fields = operator.attrgetter(*(f.name for f in fields(Layer)))

# The unpickler keeps every argument tuple until the end of the load. A layer's would be exactly
# as large as the `Layer` (13 fields): freed, they would leave holes between the layers that
# nothing reuses (7 MB at 100,000 layers). One more item puts them in pools of their own.
_DISPATCH: dict[type, Callable[[Any], Any]] = {
    **copyreg.dispatch_table,
    MappingProxyType: lambda m: (_proxy, (dict(m),)),
    Layer: lambda o: (_layer, (*_layer_fields(o), None)),
    **{cls: _by_fields(cls) for cls in (Edge, Port, PortMapEntry, BackEdge, Graph)},
}


class _Pickler(pickle.Pickler):
    """Shared objects are sent by name: the source map, element types and the loader's rules."""

    dispatch_table = _DISPATCH

    def __init__(self, out: IO[bytes]) -> None:
        super().__init__(out, protocol=pickle.HIGHEST_PROTOCOL)

    def persistent_id(self, obj: Any) -> tuple[str, str] | None:
        if isinstance(obj, SourceMap):
            return ("src", "")
        if isinstance(obj, ElementType):
            return ("type", obj.name)
        if isinstance(obj, Rule):
            return ("rule", obj.code)
        return None


class _Unpickler(pickle.Unpickler):
    def __init__(self, data: IO[bytes], src: SourceMap) -> None:
        super().__init__(data)
        self.src = src

    def persistent_load(self, pid: Any) -> Any:
        kind, name = pid
        if kind == "src":
            return self.src
        if kind == "type":
            return ELEMENT_TYPES[name]
        if kind == "rule":
            return _LOADER_RULES[name]
        raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")


# -- the parent -----------------------------------------------------------------------------------


def feed(f: IO[bytes], reader: Reader, src: SourceMap, start: int, end: int | None, chunk: int,
         blank: bool = False) -> int:
    """Parse the file from `start` to `end` (None: its end); returns where it stopped. `blank`: the
    line index reads the bytes, the parser gets as many spaces (a part another process parsed)."""
    parse = reader.feed  # the parser, with the reader's bounds on one tag
    spaces = b" " * chunk if blank else b""
    f.seek(start)
    pos = start
    while end is None or pos < end:
        data = f.read(chunk if end is None else min(chunk, end - pos))
        if not data:
            break
        src.feed(data)
        parse(spaces[:len(data)] if blank else data)
        pos += len(data)
    return pos


def feed_split(f: IO[bytes], path: str, p: Plan, reader: Reader, src: SourceMap, chunk: int) -> bool:
    """Parse the whole file with a child parsing the part `p` names; True if the child's part was used."""
    child = Child.start(path, p, chunk)
    if child is None:
        feed(f, reader, src, 0, None, chunk)
        return False
    try:
        reached = feed(f, reader, src, 0, p.at, chunk)
        opened = reader.open_layers()
        part = None
        if reached == p.at and opened is not None and opened[0] == p.owner:
            part = child.result(src)
        else:
            child.cancel()
        child = None
        if part is None:
            feed(f, reader, src, p.at, None, chunk)
            return False
        assert opened is not None
        opened[1].extend(part.layers)
        ids = reader.ids
        for layer in part.layers:
            if layer.id is not None:
                ids.setdefault(layer.id, layer.id)
        reader.pending.extend(part.pending)
        src.known.update(part.known)
        feed(f, reader, src, p.at, part.end, chunk, blank=True)
        feed(f, reader, src, part.end, None, chunk)
        return True
    finally:
        if child is not None:
            child.cancel()
