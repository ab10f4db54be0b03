"""How reporters name files for machines: relative to the working directory when the file is below it.

Code-scanning services (GitHub's SARIF upload, workflow annotations) resolve paths against the
repository root, which is where CI runs the tool; a file elsewhere keeps an absolute name.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote_from_bytes


def relative_path(path: str) -> str | None:
    """`path` relative to the working directory with forward slashes, or None if it lies outside it."""
    try:
        rel = os.path.relpath(os.path.abspath(path), os.getcwd())
    except ValueError:  # another drive on Windows
        return None
    if rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel):
        return None
    return Path(rel).as_posix()


def display_path(path: str) -> str:
    """The cwd-relative path when there is one, else the path as given (GitHub annotations)."""
    return relative_path(path) or path


def _bytes(path: str) -> bytes:
    """The file name's bytes: an undecodable byte was kept as a surrogate (U+DC80..U+DCFF) and is restored;
    any other lone surrogate (a path made up by an API caller) becomes U+FFFD."""
    try:
        return os.fsencode(path)
    except UnicodeEncodeError:
        return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in path).encode("utf-8")


def artifact_uri(path: str) -> str:
    """A valid URI reference for SARIF: percent-encoded relative path, else an absolute file: URI.

    The path's bytes are encoded, so a name that is not valid UTF-8 keeps its exact bytes (`%FF`)."""
    rel = relative_path(path)
    if rel is not None:
        return quote_from_bytes(_bytes(rel), safe="/")
    if os.name == "nt":  # a drive letter: pathlib spells it as a file: URI does
        return Path(os.path.abspath(path)).as_uri()
    return "file://" + quote_from_bytes(_bytes(os.path.abspath(path)), safe="/")
