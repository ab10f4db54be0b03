"""The README's rule table and docs/rules.md are generated from the rules and must be current."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _generator():
    spec = importlib.util.spec_from_file_location("update_readme_rules", ROOT / "scripts" / "update_readme_rules.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_readme_rule_table_is_current() -> None:
    gen = _generator()
    text = (ROOT / "README.md").read_text()
    assert gen.readme_with_table(text) == text, "run scripts/update_readme_rules.py"
    assert "| G101 | duplicate-layer-id |" in text


def test_rules_doc_is_current() -> None:
    assert (ROOT / "docs" / "rules.md").read_text() == _generator().rules_doc(), "run scripts/update_readme_rules.py"


def test_readme_names_the_two_commands() -> None:
    text = (ROOT / "README.md").read_text()
    assert "bash scripts/demo.sh" in text and "bash scripts/test.sh" in text
