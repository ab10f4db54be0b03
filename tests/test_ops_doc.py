"""docs/ops.md is generated from the op registry by scripts/ops_table.py and must be current.

The conformance columns and the run date come from the last `scripts/ops_table.py --run`, so they
are compared only for shape; the op list, versions, shape-function/kernel flags and the left-out
section must match what the registry and OpenVINO's opset tables say now.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scripts import script

ROOT = Path(__file__).resolve().parents[1]


def test_ops_doc_lists_the_registry() -> None:
    pytest.importorskip("openvino")
    gen = script("ops_table")
    text = (ROOT / "docs" / "ops.md").read_text()
    assert gen.without_run_columns(text) == gen.without_run_columns(gen.ops_doc()), "run scripts/ops_table.py"


def test_every_registered_type_has_a_row() -> None:
    from irlint.ops import known_types

    text = (ROOT / "docs" / "ops.md").read_text()
    rows = {line.split("|")[1].strip() for line in text.splitlines() if line.startswith("| ")}
    assert set(known_types()) <= rows
    assert "| Add | opset1 | yes | yes |" in text


def test_left_out_ops_are_not_registered() -> None:
    from irlint.ops import known_types

    assert not set(script("ops_table").LEFT_OUT) & set(known_types())


def test_run_columns_are_ignored_but_the_op_columns_are_not() -> None:
    gen = script("ops_table")
    a = "| Add | opset1 | yes | yes | `tests/ops/test_math_ops.py` | pass (3/3; opset1) |"
    b = "| Add | opset1 | yes | yes | none | - |"
    assert gen.without_run_columns(a) == gen.without_run_columns(b)
    assert gen.without_run_columns(a) != gen.without_run_columns(b.replace("opset1", "opset2"))


def test_conformance_join_marks_an_op_failed_when_one_of_its_tests_fails(tmp_path) -> None:
    gen = script("ops_table")
    junit = tmp_path / "j.xml"
    junit.write_text(
        '<testsuites><testsuite>'
        '<testcase file="tests/ops/t.py" name="test_a[1]"/>'
        '<testcase file="tests/ops/t.py" name="test_a[2]"><failure message="x"/></testcase>'
        '<testcase file="tests/ops/u.py" name="test_b"><skipped/></testcase>'
        '</testsuite></testsuites>')
    lines = ["tests/ops/t.py::test_a[1]\tAdd\topset1", "tests/ops/t.py::test_a[2]\tAdd\topset1",
             "tests/ops/t.py::test_a[1]\tEye\topset9", "tests/ops/u.py::test_b\tTile\topset1"]
    ops = gen.summarize(lines, gen._junit_outcomes(junit))["ops"]
    assert ops["Add"] == {"files": ["tests/ops/t.py"], "versions": ["opset1"], "result": "fail", "tests": 2,
                          "failed": 1}
    assert ops["Eye"]["result"] == "pass"
    assert ops["Tile"]["result"] == "fail"  # a skipped test does not count as conformance
    row = gen.ops_doc({"date": "D", "ops": ops}, {"Add": ["opset1"]})
    assert "| Add | opset1 | yes | yes | `tests/ops/t.py` | fail (1/2; opset1) |" in row
