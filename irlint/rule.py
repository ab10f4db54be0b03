"""How a rule is declared: the `@rule` decorator, the `Finding` a check yields, and the rule's docs.

A rule is a generator function with metadata. Its docstring carries the documentation in fixed
sections (What it checks / Why it matters / Example / How to fix) from which `irlint explain` and
the README's rule table are generated. A check yields `Finding`s; the engine stamps code, rule name
and severity on them, so a rule never builds a `Diagnostic` itself.

Scopes (the order the engine runs them in, op-local first as in MLIR's verifiers):
- ``"model"``: once per model, ``check(ctx)``;
- ``"layer"``: once per layer of the listed `types` (all layers if empty), at every graph level,
  ``check(ctx, graph, layer)``;
- ``"graph"``: once per graph level (top level and every body), ``check(ctx, graph)``.
Rules with ``scope="loader"`` have no check: the loader emits them, they exist for their docs.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from irlint.diagnostics import Location, Related, Severity

SCOPES = ("loader", "model", "layer", "graph")
CODE_RE = re.compile(r"^[A-Z]{1,3}[0-9]{3}$")
NAME_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
DOC_SECTIONS = ("What it checks", "Why it matters", "Example", "How to fix")


@dataclass(frozen=True, slots=True)
class Finding:
    """What a check reports; `severity` overrides the rule's default when set."""

    message: str
    loc: Location
    layer: str | None = None
    port: int | None = None
    related: tuple[Related, ...] = ()
    hint: str | None = None
    severity: Severity | None = None
    # keys of irlint.causes: what this finding reports as wrong, and the defects it is a consequence of
    claims: tuple[str, ...] = ()
    because: tuple[str, ...] = ()
    # for a consequence: what the defect does here, for its root's note (Diagnostic.effect)
    effect: str | None = None


@dataclass(frozen=True)
class Rule:
    """A rule's identity, docs and check function."""

    code: str
    name: str
    severity: Severity
    scope: str
    types: frozenset[str]
    doc: str
    check: Callable[..., Iterator[Finding]] | None = field(default=None, compare=False)
    pack: str = "irlint"
    # True when the check reads ctx.shapes: on a large model such rules run beside the others, in a
    # second process that infers the shapes (irlint.engine.parallel). A rule that reads shapes
    # without saying so still works; it only makes the other process infer them too.
    uses_shapes: bool = False

    @property
    def summary(self) -> str:
        return self.doc.strip().splitlines()[0] if self.doc.strip() else ""

    def section(self, title: str) -> str:
        """The text of one docstring section (empty if absent)."""
        m = re.search(
            rf"^{re.escape(title)}:?\s*\n(.*?)(?=^(?:{'|'.join(map(re.escape, DOC_SECTIONS))}):?\s*$|\Z)",
            self.doc,
            flags=re.M | re.S,
        )
        return m.group(1).strip("\n") if m else ""


def rule(
    code: str,
    name: str,
    *,
    severity: str = "error",
    scope: str = "layer",
    types: tuple[str, ...] | frozenset[str] = (),
    uses_shapes: bool = False,
) -> Callable[[Callable[..., Iterator[Finding]]], Rule]:
    """Declare a rule. The decorated function becomes a `Rule` that the engine discovers in its module."""
    if not CODE_RE.match(code):
        raise ValueError(f"rule code {code!r} must be a family prefix plus three digits")
    if not NAME_RE.match(name):
        raise ValueError(f"rule name {name!r} must be kebab-case")
    if scope not in SCOPES:
        raise ValueError(f"rule scope {scope!r} must be one of {SCOPES}")

    def wrap(fn: Callable[..., Iterator[Finding]]) -> Rule:
        doc = inspect.cleandoc(fn.__doc__ or "")
        return Rule(code, name, Severity(severity), scope, frozenset(types), doc, fn, fn.__module__, uses_shapes)

    return wrap


def declared(code: str, name: str, doc: str, *, severity: str = "error") -> Rule:
    """A rule that the loader (or another core component) emits itself; declared for its docs."""
    return Rule(code, name, Severity(severity), "loader", frozenset(), inspect.cleandoc(doc), None, "irlint")


def missing_doc_sections(r: Rule) -> list[str]:
    """Sections the docstring lacks (a test requires none)."""
    return [s for s in DOC_SECTIONS if not re.search(rf"^{re.escape(s)}:?\s*$", r.doc, flags=re.M)]


def rules_in(namespace: dict[str, Any]) -> list[Rule]:
    """Every `Rule` object among a module's globals (how packs are collected)."""
    return [v for v in namespace.values() if isinstance(v, Rule)]
