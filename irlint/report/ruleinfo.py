"""Rule metadata as the reporters need it (SARIF rule descriptors, JUnit names), detached from checks."""

from __future__ import annotations

from dataclasses import dataclass

from irlint.rule import Rule

DOCS_URI = "https://github.com/irlint/irlint/blob/main/docs/rules.md"


@dataclass(frozen=True)
class RuleInfo:
    code: str
    name: str
    severity: str
    summary: str
    doc: str
    help_uri: str | None = None

    @staticmethod
    def from_rule(r: Rule) -> RuleInfo:
        return RuleInfo(r.code, r.name, r.severity.value, r.summary, r.doc,
                        f"{DOCS_URI}#{r.code.lower()}-{r.name}")
