"""JSON reporter: golden output, the contract in docs/contracts.md, key order, escaping."""

from __future__ import annotations

import json

from irlint.report import render
from tests.report.sample import FILES, MODEL, RULES, assert_golden, sample

KEYS = ["path", "line", "column", "code", "severity", "message", "rule", "layer", "port", "related", "hint"]


def as_json() -> str:
    return render("json", sample(), files=FILES, rules=RULES)


def test_golden() -> None:
    assert_golden("json.json", as_json())


def test_top_level_array_sorted_with_stable_key_order() -> None:
    data = json.loads(as_json())
    assert isinstance(data, list) and len(data) == len(sample())
    assert all(list(d) == KEYS for d in data)
    keys = [(d["path"], d["line"], d["column"], d["code"]) for d in data]
    assert keys == sorted(keys)


def test_values_round_trip() -> None:
    by_line = {(d["path"], d["line"]): d for d in json.loads(as_json())}
    g102 = by_line[(MODEL, 12)]
    assert g102["related"] == [{"path": MODEL, "line": 4, "column": 3, "note": "layers are declared here"}]
    assert g102["severity"] == "error" and g102["rule"] == "edge-unknown-layer" and g102["layer"] is None
    t203 = by_line[(MODEL, 7)]
    assert t203["message"] == 'message with "quotes", <tags> & ampersands,\nnewline, 100% ünïcode, a,b:c'
    assert t203["port"] == 0 and t203["hint"] == "declare f32[1,3]"


def test_escaping_is_json_not_ascii() -> None:
    out = as_json()
    assert '\\"quotes\\"' in out and "ampersands,\\nnewline" in out and "ünïcode" in out
    assert "\\u001b" in out  # the ESC in a message is escaped, never written raw
    assert "\x1b" not in out


def test_empty_report_is_an_empty_array() -> None:
    assert json.loads(render("json", [], files=FILES, rules=RULES)) == []
