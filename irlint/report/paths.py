"""How reporters name files for machines: relative to the working directory when the file is below it.

Code-scanning services (GitHub's SARIF upload, workflow annotations) resolve paths against the
repository root, which is where CI runs the tool; a file elsewhere keeps an absolute name.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote


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


def artifact_uri(path: str) -> str:
    """A valid URI reference for SARIF: percent-encoded relative path, else an absolute file: URI."""
    rel = relative_path(path)
    if rel is not None:
        return quote(rel, safe="/")
    return Path(os.path.abspath(path)).as_uri()
