"""Which rules run: ruff-style prefix selection (`--select`, `--extend-select`, `--ignore`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from irlint.rule import Rule


@dataclass(frozen=True)
class Selection:
    """Prefixes to select and ignore; the longest matching prefix wins, as in ruff."""

    select: tuple[str, ...] = ("ALL",)
    ignore: tuple[str, ...] = ()

    @staticmethod
    def build(select: Sequence[str] | None = None, extend_select: Sequence[str] = (),
              ignore: Sequence[str] = ()) -> Selection:
        base = tuple(select) if select else ("ALL",)
        return Selection(tuple(_norm(base)) + tuple(_norm(extend_select)), tuple(_norm(ignore)))

    def enabled(self, code: str) -> bool:
        sel = _best(code, self.select)
        ign = _best(code, self.ignore)
        if sel < 0:
            return False
        return ign < sel if ign >= 0 else True

    def filter(self, rules: Iterable[Rule]) -> list[Rule]:
        return [r for r in rules if self.enabled(r.code)]


def _norm(items: Iterable[str]) -> list[str]:
    out = []
    for item in items:
        out += [p.strip().upper() for p in item.split(",") if p.strip()]
    return out


def _best(code: str, prefixes: Sequence[str]) -> int:
    """Length of the longest prefix of `code` in `prefixes` (ALL counts as 0), or -1."""
    best = -1
    for p in prefixes:
        if p == "ALL":
            best = max(best, 0)
        elif code.startswith(p):
            best = max(best, len(p))
    return best
