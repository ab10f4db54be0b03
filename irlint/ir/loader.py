"""Read IR XML safely into the typed `Model` in one streaming pass, recording every problem as a diagnostic.

Why a streaming expat parse: a 100,000-layer IR has over a million elements. A full lxml tree of
it takes ~700 MB and building the model from the tree again visits every element in Python;
expat's callbacks (`irlint.ir.reader`) build the model directly from a stream of 1 MiB chunks, so
the file is never held in memory and each element is touched once (docs/performance.md has the
measurements). With `two_cores`, `irlint.ir.twocore` has a forked child parse half of a large file.

Safety: expat never fetches anything (no external DTD or entity is read), and a DOCTYPE is
reported (IR002); a DOCTYPE with an internal subset (entity or attribute declarations) is not
processed at all, so no entity is ever expanded and no default attribute injected. Nesting deeper
than `MAX_DEPTH` elements is refused like libxml2 refuses it. The loader keeps going after a bad
attribute: the value becomes None and a diagnostic is recorded.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from xml.parsers import expat

from irlint.diagnostics import Diagnostic
from irlint.gcpause import paused_gc
from irlint.ir import codes, twocore
from irlint.ir.model import Graph, Model
from irlint.ir.reader import MAX_DEPTH, SUPPORTED_VERSIONS, DocumentRefused, Reader
from irlint.ir.source import NOWHERE, ReadAt, SourceMap, file_reader
from irlint.ir.weights import Weights
from irlint.rule import Rule

__all__ = ["CHUNK", "MAX_DEPTH", "MAX_XML_BYTES", "SUPPORTED_VERSIONS", "LoadError", "load", "parse_bytes"]

# The model takes a few times the XML size in memory (docs/performance.md); this keeps a worst
# case well inside the memory of a CI machine.
MAX_XML_BYTES = 512 * 1024**2
CHUNK = 1 << 20


class LoadError(Exception):
    """The file could not be read at all (missing, a directory, too large): exit code 2."""


def default_weights_path(xml_path: str) -> str:
    base, _ = os.path.splitext(xml_path)
    return base + ".bin"


def _check_size(path: str) -> int:
    """Turn the file system's objections into `LoadError` before anything is read (exit code 2)."""
    try:
        if os.path.isdir(path):
            raise LoadError(f"{path} is a directory")
        size = os.path.getsize(path)
    except FileNotFoundError as e:
        raise LoadError(f"{path}: no such file") from e
    except OSError as e:
        raise LoadError(f"{path}: cannot read ({e.strerror or e})") from e
    if size > MAX_XML_BYTES:
        raise LoadError(f"{path} is {size} bytes, larger than the {MAX_XML_BYTES // 1024**2} MiB of XML irlint "
                        "parses (the parsed model would not fit in memory)")
    return size


def load(path: str | os.PathLike[str], weights: str | os.PathLike[str] | None = None, *,
         two_cores: bool = False) -> Model:
    """Read an IR file into a `Model`; raises `LoadError` only if the file cannot be read at all.

    `two_cores`: a large file is parsed half in a forked process (irlint.ir.twocore); same model.
    """
    return _load(os.fspath(path), weights, two_cores)[0]


def _load(p: str, weights: str | os.PathLike[str] | None, two_cores: bool,
          split_at: int | None = None) -> tuple[Model, bool]:
    """`load`, and whether a child parsed part of the file (`split_at` forces a split there: tests)."""
    _check_size(p)
    w = Weights.open(os.fspath(weights) if weights is not None else default_weights_path(p))
    read = file_reader(p)
    used = False
    try:
        with open(p, "rb") as f:
            def feed(reader: Reader, src: SourceMap) -> None:
                nonlocal used
                used = twocore.load_into(reader, src, f, p, CHUNK, two_cores=two_cores, split_at=split_at)

            return _parse(feed, p, w, read), used
    except OSError as e:
        raise LoadError(f"{p}: cannot read ({e.strerror or e})") from e


def parse_bytes(data: bytes, path: str, weights: Weights) -> Model:
    """Parse XML bytes already in memory (the file name is only used for locations).

    The model keeps `data`: its locations are read from it (`irlint.ir.source`).
    """
    def feed(reader: Reader, src: SourceMap) -> None:
        view = memoryview(data)
        for i in range(0, len(data), CHUNK):
            src.feed(view[i:i + CHUNK])
            reader.parser.Parse(view[i:i + CHUNK], False)

    return _parse(feed, path, weights, lambda at, n: data[at:at + n])


def _parse(feed: Callable[[Reader, SourceMap], None], path: str, weights: Weights, read: ReadAt) -> Model:
    """Run `feed` (which gives the parser the document), the cyclic garbage collector paused
    (irlint.gcpause says why), and turn what the parser raised into diagnostics."""
    src = SourceMap(path, read)
    reader = Reader(src)
    parser = reader.parser
    failure: list[tuple[Rule, str, int]] = []
    try:
        with paused_gc():
            feed(reader, src)
            parser.Parse(b"", True)
    except expat.ExpatError as e:
        failure.append((codes.MALFORMED_XML, f"malformed XML: {expat.ErrorString(e.code)}", parser.ErrorByteIndex))
    except DocumentRefused as e:
        failure.append((e.code, e.message, e.at))
    except (ValueError, LookupError, UnicodeError) as e:  # e.g. an encoding expat cannot decode
        failure.append((codes.MALFORMED_XML, f"malformed XML: {e}", NOWHERE))
    finally:
        reader.close()
    if failure or reader.model_parts is None:
        for r, msg, at in failure:
            hint = _HINTS.get(r.code)
            reader.report(r, msg, at, hint=hint)
        return _empty_model(path, src, weights, reader.diagnostics())
    name, version, graph, at = reader.model_parts
    return Model(path, name, version, graph, weights, at, src, tuple(reader.diagnostics()))


_HINTS = {codes.DTD_NOT_ALLOWED.code: "remove the DOCTYPE and write values literally",
          codes.UNSUPPORTED_VERSION.code: "convert the model again with a current OpenVINO (openvino.convert_model, "
          "then openvino.save_model)"}


def _empty_model(path: str, src: SourceMap, weights: Weights, diags: Iterable[Diagnostic]) -> Model:
    return Model(path, "", None, Graph.build((), (), "", NOWHERE, src), weights, NOWHERE, src, tuple(diags))

