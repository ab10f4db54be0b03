"""Baselines: adopt irlint on many existing models by recording today's findings and reporting only new ones.

A finding is recorded by its file (relative to the baseline's folder), code, layer *name* and
message (without the model's folder where it names a file), never by line or column: editing a
model elsewhere moves lines but keeps these, so old findings stay matched. Layer names rather than
id paths, because re-exporting renumbers layers.
Findings are counted: if a model had two identical findings and now has three, one is new.

The file is JSON, sorted, one finding per line, so that it diffs well in version control.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from irlint.diagnostics import Diagnostic
from irlint.perfile import NEVER_IGNORED

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
                key = (str(row["path"]), str(row["code"]), str(row.get("layer") or ""), str(row["message"]))
                n = int(row.get("count", 1))
            except (TypeError, KeyError, ValueError) as e:
                raise BaselineError(f"baseline {path}: malformed entry {row!r}") from e
            counts[key] += max(n, 0)
        return Baseline(path, counts)

    def key(self, d: Diagnostic, name_of: NameOf) -> Key:
        return (_rel(d.loc.path, self.path.parent), d.code, name_of(d) or "", portable(d.message, d.loc.path))

    def split(self, diags: Sequence[Diagnostic], name_of: NameOf) -> tuple[list[Diagnostic], int, int]:
        """(new findings, how many matched the baseline, baseline entries no longer found).

        Findings that mean a file could not be checked are always new: the baseline cannot vouch for them."""
        left = Counter(self.counts)
        new: list[Diagnostic] = []
        matched = 0
        for d in diags:
            k = self.key(d, name_of)
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
