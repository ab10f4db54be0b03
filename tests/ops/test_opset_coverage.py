"""Every op type and version of OpenVINO's opsets 1-16 is either run by irlint or left out on purpose.

The list comes from the installed openvino wheel (its opset tables, read as scripts/ops_table.py
reads them), so a newer OpenVINO that adds an op, or an op version, fails here until irlint
registers it or docs/ops.md's left-out table gives the reason.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from irlint.ir.model import BRANCHING, CONTROL_FLOW
from irlint.ops import known_types, lookup
from tests.scripts import script

ROOT = Path(__file__).resolve().parents[2]


def test_every_opset_op_is_registered_or_left_out_with_a_reason() -> None:
    pytest.importorskip("openvino")
    gen = script("ops_table")
    opsets = gen.openvino_ops()
    # The tables were found and read: a broken path must not make this test pass vacuously.
    assert len(opsets) > 150 and {"Add", "Loop", "TensorIterator", "SegmentMax"} <= set(opsets)
    missing = []
    for name, versions in opsets.items():
        if name in gen.LEFT_OUT:
            assert gen.LEFT_OUT[name].strip(), f"{name} is left out without a reason"
            continue
        if name in gen.CONTROL_FLOW:  # run as nested programs by the interpreter, not as kernels
            assert name in CONTROL_FLOW + BRANCHING and gen.CONTROL_FLOW[name].strip(), name
            continue
        for version in versions:
            op = lookup(name, version)
            if op is not None and version in op.versions:
                continue
            if op is not None and (name, version) in gen.UNCHANGED and gen.UNCHANGED[name, version].strip():
                continue
            missing.append(f"{name} {version}" + ("" if op is None else f" (irlint has {', '.join(op.versions)})"))
    assert not missing, "OpenVINO ops irlint neither runs nor leaves out: " + "; ".join(missing)


def test_left_out_and_unchanged_entries_are_real() -> None:
    pytest.importorskip("openvino")
    gen = script("ops_table")
    opsets = gen.openvino_ops()
    registered = set(known_types())
    stale = [n for n in (*gen.LEFT_OUT, *gen.CONTROL_FLOW) if n not in opsets or n in registered]
    assert not stale, f"left-out entries that OpenVINO does not have or irlint registers: {stale}"
    for (name, version), _ in gen.UNCHANGED.items():
        assert version in opsets.get(name, []) and lookup(name, version) is not None, (name, version)


def test_the_doc_lists_nothing_as_not_implemented() -> None:
    text = (ROOT / "docs" / "ops.md").read_text()
    not_done = text.split("## Not implemented yet", 1)[1]
    assert [line for line in not_done.splitlines() if line.startswith("- ")] == ["- none", "- none"]
