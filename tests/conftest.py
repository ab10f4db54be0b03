"""Shared fixtures: small real IRs written by openvino.save_model into a session temp dir."""

from __future__ import annotations

import os
from pathlib import Path

# numpy's OpenBLAS on one thread in the test processes (the pytest-xdist workers inherit it): its thread
# pool, beside OpenVINO's in the same process, was seen spinning for ever in a cell's matrix product
# (exec_blas, its workers asleep) on this 2-core machine, and the suite's products are small.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
import pytest


def build_small_ti(named: bool = False):
    """A TensorIterator with a sliced input, a merged state (back edge), last-value and concatenated outputs.
    `named`: every layer named, and the model "fixable" (OpenVINO's automatic names depend on what the
    process built before, and the fix fixtures anchor their edits on names)."""
    import openvino as ov
    import openvino.opset13 as ops

    def n(name: str) -> str | None:
        return name if named else None

    x = ops.parameter([1, 5, 4], np.float32, name="X")
    h = ops.parameter([1, 3], np.float32, name="H")
    xi = ops.parameter([1, 1, 4], np.float32, name=n("Parameter_3"))
    hi = ops.parameter([1, 3], np.float32, name=n("Parameter_4"))
    r = ops.reshape(xi, ops.constant(np.array([1, 4], np.int64), name=n("Constant_6")), False, name=n("Reshape_7"))
    w = ops.constant(np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3), name=n("Constant_9"))
    h2 = ops.tanh(ops.add(ops.matmul(r, w, False, False, name=n("MatMul_10")), hi, name=n("Add_11")), name=n("Tanh"))
    ro = ops.result(h2, name=n("ro"))
    rs = ops.result(
        ops.unsqueeze(h2, ops.constant(np.array([1], np.int64), name=n("axes")), name=n("Unsq")), name=n("rs")
    )
    ti = ops.tensor_iterator()
    if named:
        ti.set_friendly_name("TI")
    ti.set_body(ov.Model([ro, rs], [xi, hi]))
    ti.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(hi, h.output(0), ro.output(0))
    last = ti.get_iter_value(ro.output(0), -1)
    allh = ti.get_concatenated_slices(rs.output(0), 0, 1, 1, -1, 1)
    outs = [ops.result(last, name="last"), ops.result(allh, name="all")]
    return ov.Model(outs, [x, h], "fixable" if named else "small_ti")


@pytest.fixture(scope="session")
def small_ti(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Path of a valid TensorIterator IR (with its .bin)."""
    import openvino as ov

    d = tmp_path_factory.mktemp("small_ti")
    path = d / "small_ti.xml"
    ov.save_model(build_small_ti(), str(path), compress_to_fp16=False)
    return path


@pytest.fixture
def broken_copy(small_ti: Path, tmp_path: Path):
    """Make an edited copy of small_ti: broken_copy(old, new) -> path (the .bin is copied too)."""

    def make(old: str, new: str, name: str = "broken") -> Path:
        text = small_ti.read_text()
        assert old in text, f"{old!r} not in the IR"
        out = tmp_path / f"{name}.xml"
        out.write_text(text.replace(old, new, 1))
        (tmp_path / f"{name}.bin").write_bytes(small_ti.with_suffix(".bin").read_bytes())
        return out

    return make
