"""Prepared kernels are kept across runs (per program, while the model lives) with the constant inputs
they were prepared from: a second run prepares nothing again, and gives the same bits."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.interp import run
from irlint.ops.math.elementwise import Binary
from irlint.ops.movement.matmul import MatMul
from tests.interp.test_codegen import loop_of, saved

ops = pytest.importorskip("openvino.opset13")


def test_a_second_run_prepares_no_kernel_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    w = np.arange(16, dtype=np.float32).reshape(4, 4) / 10
    model = saved(loop_of(lambda a, b: ops.tanh(ops.add(ops.matmul(ops.unsqueeze(a, ops.constant(np.int64(0))),
                                                                   ops.constant(w), False, False),
                                                        ops.multiply(b, ops.constant(np.float32(0.5))))),
                          trip=4), tmp_path)
    prepared: list[str] = []
    for cls in (Binary, MatMul):
        original = cls.prepare

        def counting(self, attrs, consts, original=original):  # type: ignore[no-untyped-def]
            prepared.append(type(self).__name__)
            return original(self, attrs, consts)

        monkeypatch.setattr(cls, "prepare", counting)
    inputs = {"a": np.linspace(-1, 1, 4, dtype=np.float32), "b": np.ones(4, np.float32)}
    first = run(model, inputs)["y"]
    assert sorted(prepared) == ["Add", "MatMul", "Multiply"]
    prepared.clear()
    second = run(model, inputs)["y"]
    assert prepared == [] and np.array_equal(first, second)
    again = irlint.load(model.path)  # another model object: its layers' kernels are its own
    assert np.array_equal(run(again, inputs)["y"], first) and sorted(prepared) == ["Add", "MatMul", "Multiply"]
