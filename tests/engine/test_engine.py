"""The rule engine: every finding collected, broken rules isolated, packs from folders, selection."""

from __future__ import annotations

from pathlib import Path

import pytest

import irlint
from irlint.engine.discovery import PackError, all_rules
from irlint.engine.selection import Selection

ROOT = Path(__file__).resolve().parents[2]


def test_selection_longest_prefix_wins() -> None:
    s = Selection.build(["PM", "G1"], ignore=["PM4"])
    assert s.enabled("G101") and not s.enabled("PM401") and not s.enabled("T201")
    s = Selection.build(["PM401"], ignore=["PM"])
    assert s.enabled("PM401") and not s.enabled("PM402")
    assert Selection.build(None).enabled("ANY999")
    assert Selection.build(None, ignore=["G"]).enabled("T201")


def test_crashing_rule_becomes_internal_error_and_others_still_run(tmp_path: Path, broken_copy) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "crash.py").write_text(
        "from irlint.rule import rule\n"
        "@rule('X901', 'always-crashes', scope='model')\n"
        "def always_crashes(ctx):\n"
        "    '''Crashes.'''\n"
        "    raise KeyError('boom')\n"
    )
    path = broken_copy('to-layer="6" to-port="1"', 'to-layer="6" to-port="7"')
    diags = irlint.check(path, rule_dirs=[str(pack)])
    internal = [d for d in diags if d.code == "IR900"]
    assert len(internal) == 1 and "X901" in internal[0].message and "KeyError" in internal[0].message
    assert any(d.code == "G103" for d in diags)  # the other rules still ran


def test_debug_keeps_traceback(tmp_path: Path, small_ti: Path) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "crash.py").write_text(
        "from irlint.rule import rule\n"
        "@rule('X902', 'crashes-on-layers', scope='layer', types=('Tanh',))\n"
        "def crashes(ctx, graph, layer):\n"
        "    '''Crashes.'''\n"
        "    yield from ()\n"
        "    1 / 0\n"
    )
    (d,) = [d for d in irlint.check(small_ti, rule_dirs=[str(pack)], debug=True) if d.code == "IR900"]
    assert "Traceback" in d.message and "ZeroDivisionError" in d.message
    assert d.layer is None and d.loc.line > 0  # located at the layer being checked


def test_user_pack_from_docs_example(small_ti: Path) -> None:
    codes = {r.code for r in all_rules([ROOT / "docs" / "examples" / "rulepack"])}
    assert "X101" in codes


def test_duplicate_codes_are_refused(tmp_path: Path) -> None:
    pack = tmp_path / "dup"
    pack.mkdir()
    (pack / "dup.py").write_text(
        "from irlint.rule import rule\n"
        "@rule('G101', 'mine', scope='model')\n"
        "def mine(ctx):\n"
        "    '''Mine.'''\n"
        "    yield from ()\n"
    )
    with pytest.raises(PackError, match="G101"):
        all_rules([pack])


def test_builtin_pack_is_found_through_the_entry_point() -> None:
    from irlint.engine.discovery import entry_point_rules

    packs = {r.pack.split(".")[0] + "." + r.pack.split(".")[1] for r in entry_point_rules()}
    assert "irlint.rules" in packs


def test_all_findings_reported_not_just_the_first(broken_copy) -> None:
    path = broken_copy('to-layer="6" to-port="1"', 'to-layer="6" to-port="7"')
    text = path.read_text().replace('to-layer="3" to-port="1"', 'to-layer="3" to-port="8"', 1)
    path.write_text(text)
    g103 = [d for d in irlint.check(path) if d.code == "G103"]
    assert len(g103) == 2
