"""T212: a crashing shape function is an info note at the layer, never a false error downstream."""

from __future__ import annotations

from pathlib import Path

import pytest

import irlint
from irlint.diagnostics import Severity
from irlint.ops import lookup


def test_crashing_shape_function_is_info_and_silent_downstream(small_ti: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    op = lookup("Tanh", "opset1")

    def boom(attrs, inputs):
        raise IndexError("simulated bug")

    monkeypatch.setattr(op, "infer", boom)
    diags = irlint.check(small_ti)
    (d,) = [d for d in diags if d.code == "T212"]
    assert d.severity is Severity.INFO and "Tanh" in d.message and "IndexError" in d.message
    line = small_ti.read_text().splitlines()[d.loc.line - 1]
    assert 'type="Tanh"' in line
    assert [x for x in diags if x.severity is not Severity.INFO] == []
