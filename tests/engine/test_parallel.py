"""Checking on two cores (irlint.engine.parallel) gives exactly the diagnostics of one core,
including when the forked child fails."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from irlint.diagnostics import Diagnostic
from irlint.engine import parallel
from irlint.engine.discovery import all_rules
from irlint.engine.runner import run_rules
from irlint.ir import load

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
FIXTURES = Path(__file__).resolve().parents[1] / "rules" / "fixtures"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def key(diags: list[Diagnostic]) -> list[tuple[object, ...]]:
    return sorted((d.code, str(d.loc), d.message, d.layer, d.port) for d in diags)


@pytest.mark.parametrize("path", [EXAMPLES / "broken" / "lstm_ti_broken.xml", FIXTURES / "SL604" / "fail.xml",
                                  FIXTURES / "T210" / "fail.xml", FIXTURES / "LP707" / "fail.xml",
                                  EXAMPLES / "nested_loop_in_ti.xml"])
def test_two_cores_find_the_same(path: Path) -> None:
    model, rules = load(path), all_rules()
    assert any(r.uses_shapes for r in rules) and any(not r.uses_shapes for r in rules)
    one = run_rules(model, rules)
    two = parallel.run_rules_forked(model, rules, min_layers=0)
    assert key(two) == key(one)
    if path.parent.name != "examples":
        assert one  # the broken files do have findings


def test_a_failing_child_is_replaced_by_running_its_rules_here(monkeypatch: pytest.MonkeyPatch) -> None:
    model, rules = load(EXAMPLES / "broken" / "lstm_ti_broken.xml"), all_rules()

    def broken_dumps(obj: object) -> bytes:
        raise RuntimeError("the child cannot pickle")  # only the child pickles

    monkeypatch.setattr(parallel.pickle, "dumps", broken_dumps)
    assert key(parallel.run_rules_forked(model, rules, min_layers=0)) == key(run_rules(model, rules))


def test_small_models_stay_in_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork() -> int:
        raise AssertionError("forked for a small model")

    monkeypatch.setattr(parallel.os, "fork", no_fork)
    model, rules = load(EXAMPLES / "lstm_ti.xml"), all_rules()
    assert key(parallel.run_rules_forked(model, rules)) == key(run_rules(model, rules))
