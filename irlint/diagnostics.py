"""Diagnostics are values: every check, the loader included, returns them instead of raising."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 2, "warning": 1, "info": 0}[self.value]


@dataclass(frozen=True, slots=True)
class Location:
    """A place in a source file; line and column are 1-based (0 when unknown)."""

    path: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if self.line:
            return f"{self.path}:{self.line}:{self.column or 1}"
        return self.path


@dataclass(frozen=True, slots=True)
class Related:
    """A second location that explains a diagnostic ("the body Result is here")."""

    loc: Location
    note: str


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding. `layer` is an id path such as ``2/body/7``; `port` the port id when one is meant."""

    code: str
    severity: Severity
    message: str
    loc: Location
    rule: str = ""
    layer: str | None = None
    port: int | None = None
    related: tuple[Related, ...] = field(default_factory=tuple)
    hint: str | None = None
    # Recovery (irlint/engine/recovery.py): what this finding says is wrong (`claims`), and the defects
    # it follows from (`because`); a finding whose cause another finding claims becomes its note.
    claims: tuple[str, ...] = field(default=(), compare=False)
    because: tuple[str, ...] = field(default=(), compare=False)
    # what the defect does here in concrete terms ("makes output port 5 of ... [3,1,2] instead of its
    # declared [3,4,2]"): the note a root carries for this finding when it is folded into it
    effect: str | None = field(default=None, compare=False)
    # The fix `irlint check --fix` offers for it (irlint/fix/): "safe", "unsafe" (only with --unsafe-fixes)
    # or None; set by the CLI, which marks the findings a fix applies to.
    fix: str | None = field(default=None, compare=False)

    @property
    def path(self) -> str:
        return self.loc.path

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.loc.path, self.loc.line, self.loc.column, self.code)

    def to_dict(self) -> dict[str, object]:
        """The JSON form (docs/contracts.md)."""
        return {
            "path": self.loc.path,
            "line": self.loc.line,
            "column": self.loc.column,
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "rule": self.rule,
            "layer": self.layer,
            "port": self.port,
            "related": [
                {"path": r.loc.path, "line": r.loc.line, "column": r.loc.column, "note": r.note}
                for r in self.related
            ],
            "hint": self.hint,
        }
