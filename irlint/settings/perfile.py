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


class GlobError(ValueError):
    """A per-file-ignores pattern that is not a glob (a character range like `[z-a]`, an oversized pattern)."""


MAX_GLOB = 4096  # characters of one pattern; a real one is a path


class Glob:
    """A gitignore-like glob over posix paths: `**/` any folders, `**` anything, `*`/`?` within one name,
    `[...]`/`[!...]` one character.

    Why not a regex: Python's `re` backtracks, and `**/**/**/.../x.xml` against a deep path that does not
    match takes exponential time (a configuration could hang `check`). The pattern is matched as an
    automaton instead, one bit per pattern position (shift-and), in O(len(path)) big-integer steps.
    `**/` is two positions, "anything" then "/", which the automaton may skip together only when it has
    just arrived (the group matches nothing or ends with "/").
    """

    def __init__(self, pattern: str) -> None:
        if len(pattern) > MAX_GLOB:
            raise GlobError(f"longer than {MAX_GLOB} characters")
        self.pattern = pattern
        self._literal: dict[str, int] = {}  # a character -> positions that take it and move on
        self._classes: list[tuple[int, re.Pattern[str]]] = []
        one = name = anything = group = 0
        pos, i, n = 0, 0, len(pattern)
        while i < n:
            bit, c = 1 << pos, pattern[i]
            if pattern.startswith("**/", i):
                while pattern.startswith("**/", i):  # `**/**/` is `**/`
                    i += 3
                group |= bit
                anything |= bit
                self._literal["/"] = self._literal.get("/", 0) | bit << 1
                pos += 1
            elif pattern.startswith("**", i):
                anything |= bit
                i += 2
            elif c == "*":
                name |= bit
                i += 1
            elif c == "?":
                one |= bit
                i += 1
            elif c == "[" and "]" in pattern[i + 2:]:
                j = pattern.index("]", i + 2)
                body = pattern[i + 1:j].replace("\\", "\\\\")
                neg = body.startswith("!")
                try:
                    rx = re.compile("[" + ("^" + body[1:] if neg else body.lstrip("^")) + "]")
                except re.error as e:
                    raise GlobError(f"{pattern[i:j + 1]} is not a character class ({e})") from None
                self._classes.append((bit, rx))
                i = j + 1
            else:
                self._literal[c] = self._literal.get(c, 0) | bit
                i += 1
            pos += 1
        self._one, self._name, self._anything, self._group = one, name, anything, group
        self._empty = name | anything  # positions that may end having matched nothing more
        self._end = 1 << pos
        self._steps: dict[str, tuple[int, int]] = {}

    def _step(self, c: str) -> tuple[int, int]:
        """(positions that take `c` and move on, positions that take `c` and stay)."""
        got = self._steps.get(c)
        if got is None:
            move = self._literal.get(c, 0)
            for bit, rx in self._classes:
                if rx.fullmatch(c):
                    move |= bit
            got = (move, self._anything) if c == "/" else (move | self._one, self._anything | self._name)
            if len(self._steps) < 1024:
                self._steps[c] = got
        return got

    def _closed(self, s: int) -> int:
        """`s` plus every position reached from it by matching nothing more: within each run of such
        positions, the addition carries a set bit to the end of its run."""
        return s | (((s & self._empty) + self._empty) ^ self._empty)

    def _arrived(self, s: int) -> int:
        """`_closed`, where the positions in `s` were just arrived at: a `**/` group may then be skipped."""
        s = self._closed(s)
        while True:
            t = self._closed(s | (s & self._group) << 2)
            if t == s:
                return s
            s = t

    def match(self, path: str) -> bool:
        """Whether the whole of `path` matches."""
        s = self._arrived(1)
        for c in path:
            move, stay = self._step(c)
            kept = s & stay
            s = self._arrived((s & move) << 1 | kept & ~self._group) | self._closed(kept & self._group)
            if not s:
                return False
        return bool(s & self._end)


@lru_cache(maxsize=256)
def compile_glob(pattern: str) -> Glob:
    """`Glob(pattern)`, kept: a configuration's patterns are matched against every checked file."""
    return Glob(pattern)


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
        self._globs = [compile_glob(p) for p, _codes in self.rows]  # once: a table may hold thousands
        self._cache: dict[str, tuple[str, ...]] = {}

    def codes_for(self, path: str) -> tuple[str, ...]:
        """Code prefixes ignored for `path` (ALL ignores every code)."""
        got = self._cache.get(path)
        if got is None:
            rel = _relative(path, self.base)
            name = Path(path).name
            got = ()
            for (pattern, codes), rx in zip(self.rows, self._globs):
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
