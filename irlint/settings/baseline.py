"""Baselines: adopt irlint on many existing models by recording today's findings and reporting only new ones.

A finding is recorded by its file (relative to the baseline's folder), code, layer *name path*
(`irlint.layerpath.name_path`: "lstm/body/h_next") and message, never by line or column: editing a
model elsewhere moves lines but keeps these, so old findings stay matched. Re-exporting renumbers
layers, so names rather than id paths, and the message is kept without the layer ids and line
numbers it quotes ("layer 3 'lstm'" is recorded as "layer # 'lstm'", `from-layer=11` as
`from-layer=#`), and without the model's folder where it names a file.
Findings are counted: if a model had two identical findings and now has three, one is new.

The file is JSON, sorted, one finding per line, so that it diffs well in version control.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from irlint.diagnostics import Diagnostic
from irlint.settings.perfile import NEVER_IGNORED

FORMAT_VERSION = 1
Key = tuple[str, str, str, str]  # path, code, layer name ("" when none), message
NameOf = Callable[[Diagnostic], "str | None"]


class BaselineError(Exception):
    """The baseline file exists but cannot be read or is not a baseline (exit code 2)."""


def _rel(path: str, base: Path) -> str:
    try:
        return Path(os.path.relpath(os.path.abspath(path), os.path.abspath(base))).as_posix()
    except ValueError:  # another drive on Windows
        return Path(os.path.abspath(path)).as_posix()


# Where messages quote layer ids, id paths and lines: replaced by "#" (the names beside them stay).
_ID_PATTERNS = (
    (re.compile(r"\b\d+(?:/(?:body|then_body|else_body)/\d+)+\b"), "#"),  # id paths: 2/body/7
    (re.compile(r"\b((?:from|to)-layer|internal_layer_id)=\d+\b"), r"\1=#"),
    (re.compile(r"\b(layers?) \d+\b"), r"\1 #"),  # layer 3, body layer 5
    (re.compile(r"\bedge \d+:(\d+) -> \d+:(\d+)"), r"edge #:\1 -> #:\2"),
    (re.compile(r"\b(lines?) \d+\b"), r"\1 #"),
    (re.compile(r"(\.xml|\.bin):\d+(?::\d+)?\b"), r"\1:#"),  # a location: model.xml:12:3
)


def without_ids(message: str) -> str:
    """`message` without the layer ids and line numbers it quotes, which a re-export changes."""
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


@dataclass
class Baseline:
    path: Path
    counts: Counter[Key]

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
        if not isinstance(data, dict) or data.get("irlint-baseline") != FORMAT_VERSION:
            raise BaselineError(f"{path} is not an irlint baseline (version {FORMAT_VERSION})")
        counts: Counter[Key] = Counter()
        for row in data.get("findings", []):
            try:
                key = (str(row["path"]), str(row["code"]), str(row.get("layer") or ""),
                       without_ids(str(row["message"])))  # (files that kept the ids match too)
                n = int(row.get("count", 1))
            except (TypeError, KeyError, ValueError) as e:
                raise BaselineError(f"baseline {path}: malformed entry {row!r}") from e
            counts[key] += max(n, 0)
        return Baseline(path, counts)

    def key(self, d: Diagnostic, name_of: NameOf) -> Key:
        return (_rel(d.loc.path, self.path.parent), d.code, name_of(d) or "",
                without_ids(portable(d.message, d.loc.path)))

    def split(self, diags: Sequence[Diagnostic], name_of: NameOf) -> tuple[list[Diagnostic], int, int]:
        """(new findings, how many matched the baseline, baseline entries no longer found).

        Findings that mean a file could not be checked are always new: the baseline cannot vouch for them."""
        left = Counter(self.counts)
        new: list[Diagnostic] = []
        matched = 0
        for d in diags:
            k = self.key(d, name_of)
            if left[k] <= 0 and "/" in k[2]:  # recorded by the layer's own name only (files written before)
                k = (*k[:2], k[2].rsplit("/", 1)[-1], k[3])
            if d.code not in NEVER_IGNORED and left[k] > 0:
                left[k] -= 1
                matched += 1
            else:
                new.append(d)
        return new, matched, sum(left.values())


def baseline_text(path: Path, diags: Iterable[Diagnostic], name_of: NameOf) -> tuple[str, int]:
    """The baseline file recording `diags` (paths relative to `path`'s folder) and how many findings it holds.

    The caller writes it (the CLI through its output-path checks and atomic write)."""
    b = Baseline(path, Counter())
    counts = Counter(b.key(d, name_of) for d in diags if d.code not in NEVER_IGNORED)
    rows = [{"path": p, "code": c, "layer": n or None, "message": m, "count": k}
            for (p, c, n, m), k in sorted(counts.items())]
    body = ",\n".join("    " + json.dumps(r, ensure_ascii=False, sort_keys=True) for r in rows)
    text = (f'{{\n  "irlint-baseline": {FORMAT_VERSION},\n  "findings": [\n' + body + ("\n" if rows else "")
            + "  ]\n}\n")
    return text, sum(counts.values())
