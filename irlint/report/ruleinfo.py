"""Rule metadata as the reporters need it (SARIF rule descriptors), detached from the rules' checks.

The rule engine builds these from its rules (`RuleInfo.from_rule`); the reporters never import a
rule pack, so a report can also be written from saved diagnostics.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from irlint.rule import Rule

PROJECT_URI = "https://github.com/irlint/irlint"
DOCS_URI = f"{PROJECT_URI}/blob/main/docs/rules.md"


@dataclass(frozen=True, slots=True)
class RuleInfo:
    """`severity` is the rule's default (`error`|`warning`|`info`); `summary` the first line of `doc`,
    which is the rule's full markdown documentation."""

    code: str
    name: str
    severity: str
    summary: str
    doc: str
    help_uri: str | None = None

    @staticmethod
    def from_rule(r: Rule) -> RuleInfo:
        """The docs anchor is GitHub's slug of the `## CODE name` heading in docs/rules.md."""
        return RuleInfo(r.code, r.name, r.severity.value, r.summary, r.doc, f"{DOCS_URI}#{r.code.lower()}-{r.name}")
