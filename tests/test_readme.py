"""The README's rule table and docs/rules.md are generated from the rules and must be current."""

from __future__ import annotations

from pathlib import Path

from tests.scripts import script

ROOT = Path(__file__).resolve().parents[1]


def test_readme_rule_table_is_current() -> None:
    gen = script("update_readme_rules")
    text = (ROOT / "README.md").read_text()
    assert gen.readme_with_table(text) == text, "run scripts/update_readme_rules.py"
    assert "| G101 | duplicate-layer-id |" in text


def test_rules_doc_is_current() -> None:
    want = script("update_readme_rules").rules_doc()
    assert (ROOT / "docs" / "rules.md").read_text() == want, "run scripts/update_readme_rules.py"


def test_readme_names_the_two_commands() -> None:
    text = (ROOT / "README.md").read_text()
    assert "bash scripts/demo.sh" in text and "bash scripts/test.sh" in text
