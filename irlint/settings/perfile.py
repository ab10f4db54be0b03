"""`per-file-ignores`: codes switched off for files matching a glob, as in ruff.

Patterns are matched against the file's path relative to the folder of the configuration file
(`legacy/**`, `models/*/old_*.xml`); a pattern without a `/` also matches the file name alone, so
`"*_fp16.xml"` works at any depth. `**` crosses folders, `*` and `?` do not.

Findings meaning "this file could not be checked" (IR001, IR900) are never ignored: a file that
was not checked cannot be vouched for.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path

from irlint.diagnostics import Diagnostic

NEVER_IGNORED = frozenset({"IR001", "IR900"})


@lru_cache(maxsize=256)
def glob_regex(pattern: str) -> re.Pattern[str]:
    """A gitignore-like glob as a regex over posix paths: `**` any folders, `*`/`?` within one name."""
    out, i, n = [], 0, len(pattern)
    while i < n:
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[" and "]" in pattern[i + 2:]:
            j = pattern.index("]", i + 2)
            body = pattern[i + 1:j].replace("\\", "\\\\")
            neg = body.startswith("!")
            out.append("[" + ("^" + body[1:] if neg else body.lstrip("^")) + "]")
            i = j + 1
        else:
            out.append(re.escape(c))
            i += 1
    return re.compile("".join(out) + r"\Z")


def _relative(path: str, base: Path) -> str:
    try:
        rel = os.path.relpath(os.path.abspath(path), os.path.abspath(base))
    except ValueError:  # another drive on Windows
        return Path(path).as_posix()
    return Path(rel).as_posix()


class PerFileIgnores:
    """The `per-file-ignores` table of one configuration, applied to diagnostics."""

    def __init__(self, table: Mapping[str, Sequence[str]], base: Path) -> None:
        self.base = base
        self.rows = [(p.removeprefix("./"), [c.strip().upper() for c in codes if c.strip()])
                     for p, codes in table.items()]
        self._cache: dict[str, tuple[str, ...]] = {}

    def codes_for(self, path: str) -> tuple[str, ...]:
        """Code prefixes ignored for `path` (ALL ignores every code)."""
        got = self._cache.get(path)
        if got is None:
            rel = _relative(path, self.base)
            name = Path(path).name
            got = ()
            for pattern, codes in self.rows:
                rx = glob_regex(pattern)
                if rx.match(rel) or ("/" not in pattern and rx.match(name)) or \
                        (os.path.isabs(pattern) and rx.match(Path(os.path.abspath(path)).as_posix())):
                    got += tuple(codes)
            self._cache[path] = got
        return got

    def ignored(self, d: Diagnostic) -> bool:
        if d.code in NEVER_IGNORED:
            return False
        return any(c == "ALL" or d.code.startswith(c) for c in self.codes_for(d.loc.path))

    def filter(self, diags: Sequence[Diagnostic]) -> list[Diagnostic]:
        return [d for d in diags if not self.ignored(d)] if self.rows else list(diags)
