"""Baselines: adopt irlint on many existing models by recording today's findings and reporting only new ones.

A finding is recorded by its file (relative to the baseline's folder), code, layer *name path*
(`irlint.layerpath.name_parts`: ["lstm", "body", "h_next"]), the role of the port it is about
(`irlint.layerpath.port_role`: "output 0", its place among the layer's outputs) and message, never by
line or column: editing a model elsewhere moves lines but keeps these, so old findings stay matched.
Re-exporting renumbers layers and ports, so names rather than id paths, roles rather than port ids,
and the message is kept without the layer ids, port ids and line numbers it quotes ("layer 3 'lstm'" is
recorded as "layer # 'lstm'", `from-layer=11` as `from-layer=#`, "output port 4" as "output port #"),
and without the model's folder where it names a file. The name path is a JSON list: layer names hold
'/', so a joined path would not tell layer "b" in the body of "a" from a layer named "a/body/b".
Findings are counted: if a model had two identical findings and now has three, one is new.

Version 1 files (the name path as one "/"-joined string, port ids in messages) are still read; their
findings match the findings they recorded.

The file is JSON, sorted, one finding per line, so that it diffs well in version control.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from irlint.diagnostics import Diagnostic
from irlint.settings.perfile import NEVER_IGNORED

if TYPE_CHECKING:
    from irlint.layerpath import Place

FORMAT_VERSION = 2  # 1: layer name paths as one "/"-joined string, port ids in messages (still read)
Key = tuple[str, str, tuple[str, ...], str, str]  # path, code, layer names (() when none), port role, message
LegacyKey = tuple[str, str, str, str]  # version 1: path, code, "/"-joined name path ("" when none), message
NameOf = Callable[[Diagnostic], "Place | None"]


class BaselineError(Exception):
    """The baseline file exists but cannot be read or is not a baseline (exit code 2)."""


def _rel(path: str, base: Path) -> str:
    try:
        return Path(os.path.relpath(os.path.abspath(path), os.path.abspath(base))).as_posix()
    except ValueError:  # another drive on Windows
        return Path(os.path.abspath(path)).as_posix()


_SURROGATE = re.compile("[\ud800-\udfff]")


def _utf8(text: str) -> str:
    """`text` with U+FFFD for each lone surrogate: a file name that is not valid UTF-8 keeps its undecodable bytes
    as surrogates, which no UTF-8 file can hold. Keys are made of such text on reading and on writing alike."""
    return _SURROGATE.sub("\ufffd", text)


# Where messages quote layer ids, port ids, id paths and lines: replaced by "#" (the names beside them stay).
_ID_PATTERNS = (
    (re.compile(r"\b\d+(?:/(?:body|then_body|else_body)/\d+)+\b"), "#"),  # id paths: 2/body/7
    (re.compile(r"\b((?:from|to)-layer|internal_layer_id|(?:from|to)-port|external_port_id)=\d+\b"), r"\1=#"),
    (re.compile(r"\b(layers?|ports?|external_port_id) \d+\b"), r"\1 #"),  # layer 3, body layer 5, port 2
    (re.compile(r"\bedge \d+:\d+ -> \d+:\d+"), "edge #:# -> #:#"),
    (re.compile(r"\b(ports(?: are)?) \[\d+(?:, \d+)*\]"), r"\1 [#]"),  # its output ports are [3, 4, 5]
    (re.compile(r"\b(listed as) \d+(?:, \d+)+"), r"\1 #"),  # the input ports ... are listed as 1, 0
    (re.compile(r"\b(lines?) \d+\b"), r"\1 #"),
    (re.compile(r"(\.xml|\.bin):\d+(?::\d+)?\b"), r"\1:#"),  # a location: model.xml:12:3
)


def without_ids(message: str) -> str:
    """`message` without the layer ids, port ids and line numbers it quotes, which a re-export changes."""
    for pattern, repl in _ID_PATTERNS:
        message = pattern.sub(repl, message)
    return message


def portable(message: str, path: str) -> str:
    """`message` without the folder of the model it is about: messages that name the .bin (W301, W302)
    then match whether the model was given as `models/x.xml`, `./models/x.xml` or an absolute path."""
    folders = [os.path.dirname(os.path.abspath(path)), os.path.dirname(path)]
    for folder in sorted({f for f in folders if f}, key=len, reverse=True):
        message = message.replace(folder + os.sep, "")
    return message


MAX_COUNT = 2**63 - 1  # identical findings one entry may count (a count is never near it)


def _short(value: object, limit: int = 200) -> str:
    """`value` for a message, cut to `limit` characters (an entry may be megabytes long)."""
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= limit else text[:limit] + "..."


def _names(value: object) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        raise TypeError("a layer name path is a list of names")
    return tuple(value)


@dataclass
class Baseline:
    path: Path
    counts: Counter[Key]
    legacy: Counter[LegacyKey] = field(default_factory=Counter)  # findings of a version 1 file

    @staticmethod
    def load(path: Path) -> Baseline:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as e:
            raise BaselineError(f"cannot read baseline {path}: {e.strerror or e}") from e
        except UnicodeDecodeError:
            raise BaselineError(f"{path} is not an irlint baseline (not UTF-8 text)") from None
        except json.JSONDecodeError as e:
            raise BaselineError(f"{path} is not an irlint baseline (not JSON: {e})") from e
        except ValueError as e:  # an integer of more than 4,300 digits
            raise BaselineError(f"{path} is not an irlint baseline ({e})") from None
        except RecursionError:
            raise BaselineError(f"{path} is not an irlint baseline (JSON nested too deeply)") from None
        version = data.get("irlint-baseline") if isinstance(data, dict) else None
        if version not in (1, FORMAT_VERSION) or isinstance(version, bool):
            raise BaselineError(f"{path} is not an irlint baseline (version 1 or {FORMAT_VERSION})")
        rows = data.get("findings", [])
        if not isinstance(rows, list):
            raise BaselineError(f"baseline {path}: \"findings\" must be a list, not {type(rows).__name__}")
        counts: Counter[Key] = Counter()
        legacy: Counter[LegacyKey] = Counter()
        for i, row in enumerate(rows):
            try:
                if not isinstance(row, dict):
                    raise TypeError("not an object")
                file, code = str(row["path"]), str(row["code"])
                message = without_ids(str(row["message"]))  # (files that kept the ids match too)
                n = row.get("count", 1)
                if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= MAX_COUNT:
                    raise ValueError(f'"count" {_short(n)} is not a whole number from 0 to {MAX_COUNT}')
                if version == 1:
                    legacy[(file, code, str(row.get("layer") or ""), message)] += n
                else:
                    counts[(file, code, _names(row.get("layer")), str(row.get("port") or ""), message)] += n
            except (TypeError, KeyError, ValueError, AttributeError) as e:
                raise BaselineError(f'baseline {path}: malformed entry {i} of "findings" ({e}): {_short(row)}') from e
        return Baseline(path, counts, legacy)

    def key(self, d: Diagnostic, name_of: NameOf) -> Key:
        names, port = name_of(d) or ((), "")
        return (_utf8(_rel(d.loc.path, self.path.parent)), d.code, names, port,
                _utf8(without_ids(portable(d.message, d.loc.path))))

    def _take(self, k: Key, left: Counter[Key], legacy: Counter[LegacyKey]) -> bool:
        """Count `k` off the recorded findings: this file's own, else a version 1 file's (which named a layer
        by its "/"-joined name path, or before that by its own name only)."""
        if left[k] > 0:
            left[k] -= 1
            return True
        path, code, names, _port, message = k
        for name in ("/".join(names), names[-1] if names else ""):
            old = (path, code, name, message)
            if legacy[old] > 0:
                legacy[old] -= 1
                return True
        return False

    def split(self, diags: Sequence[Diagnostic], name_of: NameOf) -> tuple[list[Diagnostic], int, int]:
        """(new findings, how many matched the baseline, baseline entries no longer found).

        Findings that mean a file could not be checked are always new: the baseline cannot vouch for them."""
        left, legacy = Counter(self.counts), Counter(self.legacy)
        new: list[Diagnostic] = []
        matched = 0
        for d in diags:
            if d.code not in NEVER_IGNORED and self._take(self.key(d, name_of), left, legacy):
                matched += 1
            else:
                new.append(d)
        return new, matched, sum(left.values()) + sum(legacy.values())


def baseline_text(path: Path, diags: Iterable[Diagnostic], name_of: NameOf) -> tuple[str, int]:
    """The baseline file recording `diags` (paths relative to `path`'s folder) and how many findings it holds.

    The caller writes it (the CLI through its output-path checks and atomic write)."""
    b = Baseline(path, Counter())
    counts = Counter(b.key(d, name_of) for d in diags if d.code not in NEVER_IGNORED)
    rows = [{"path": p, "code": c, "layer": list(n) or None, "port": r or None, "message": m, "count": k}
            for (p, c, n, r, m), k in sorted(counts.items())]
    body = ",\n".join("    " + json.dumps(r, ensure_ascii=False, sort_keys=True) for r in rows)
    text = (f'{{\n  "irlint-baseline": {FORMAT_VERSION},\n  "findings": [\n' + body + ("\n" if rows else "")
            + "  ]\n}\n")
    return text, sum(counts.values())
