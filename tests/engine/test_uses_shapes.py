"""`uses_shapes` is declared right on every built-in rule: on a large model the rules that say True
run in the process that infers shapes, the others beside it, so a wrong flag costs a second
inference (True on a rule that never reads shapes) or one in the wrong process (False on one that
does). Every rule runs on every fixture with a context that records who reads `ctx.shapes`."""

from __future__ import annotations

from pathlib import Path

import irlint
from irlint.engine.context import Context
from irlint.engine.discovery import entry_point_rules
from irlint.engine.runner import run_rules

FIXTURES = Path(__file__).resolve().parents[1] / "rules" / "fixtures"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


class _Recording(Context):
    reader: set[str]
    current = ""

    @property
    def shapes(self):  # type: ignore[override]
        self.reader.add(self.current)
        return super().shapes


def test_uses_shapes_matches_what_each_rule_reads() -> None:
    rules = [r for r in entry_point_rules() if r.check is not None]
    readers: set[str] = set()
    files = sorted(FIXTURES.glob("*/*.xml")) + sorted(EXAMPLES.glob("**/*.xml"))
    assert files
    for path in files:
        model = irlint.load(path)
        ctx = _Recording(model)
        ctx.reader = readers
        for r in rules:
            ctx.current = r.code
            run_rules(model, [r], loader_diagnostics=False, context=ctx)
    declared = {r.code for r in rules if r.uses_shapes}
    assert sorted(declared - readers) == [], "uses_shapes=True but never reads ctx.shapes"
    assert sorted(readers - declared) == [], "reads ctx.shapes but says uses_shapes=False"
