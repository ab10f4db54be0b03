"""auto_broadcast="pdpd", which OpenVINO writes (e.g. for PaddlePaddle models): a valid IR, so no T210;
irlint infers the output shape (the first input's) but does not compute it (a run-time error)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.diagnostics import Severity
from irlint.interp import ExecutionError, run

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")


@pytest.mark.parametrize("b_shape", [[2, 1], [2], [2, 3, 4], [1, 3, 1]])
def test_pdpd_add_checks_clean_with_openvinos_output_shape(b_shape: list[int], tmp_path: Path) -> None:
    a = ops.parameter([2, 3, 4], np.float32, name="a")
    b = ops.parameter(b_shape, np.float32, name="b")
    y = ops.add(a, b, auto_broadcast="pdpd")
    path = tmp_path / "pdpd.xml"
    ov.save_model(ov.Model([ops.result(y, name="y")], [a, b]), str(path))
    assert 'auto_broadcast="pdpd"' in path.read_text()
    assert [d.code for d in irlint.check(path) if d.severity is not Severity.INFO] == []
    with pytest.raises(ExecutionError, match="pdpd"):
        run(irlint.load(path), {"a": np.zeros((2, 3, 4), np.float32), "b": np.ones(b_shape, np.float32)})
