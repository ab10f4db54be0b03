"""Shape inference does no needless work: constants are read from the .bin only when a
consumer needs their value, and a shape function runs once per distinct (op, attributes, input
types and shapes)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from irlint.ir import load
from irlint.ir.weights import Weights
from irlint.ops.registry import lookup
from irlint.shapes import infer_model
from irlint.types import Dim


@pytest.fixture(scope="module")
def model_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([2, 3], np.float32, name="x")
    added = ops.add(x, ops.constant(np.ones((2, 3), np.float32)))  # value not needed: Add infers from shapes
    a, b = ops.relu(added), ops.relu(added)  # the same shape function twice
    shaped = ops.reshape(ops.add(a, b), ops.constant(np.array([3, 2], np.int64)), False)  # value needed
    path = tmp_path_factory.mktemp("cost") / "m.xml"
    ov.save_model(ov.Model([ops.result(shaped)], [x]), str(path), compress_to_fp16=False)
    return path


def test_constants_are_read_only_when_their_value_is_used(model_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[tuple[int, int]] = []
    original = Weights.array

    def counting(self: Weights, offset: int, size: int, *args: object) -> np.ndarray:
        reads.append((offset, size))
        return original(self, offset, size, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Weights, "array", counting)
    m = load(model_path)
    res = infer_model(m)
    reshape_shape = next(la for _g, la in m.layers() if la.type == "Const" and la.data["element_type"] == "i64")
    assert reads == [(int(reshape_shape.data["offset"]), 16)]  # only the Reshape target shape
    reshape = next(la for _g, la in m.layers() if la.type == "Reshape")
    assert res.output(reshape, reshape.outputs[0].id).shape == (Dim.of(3), Dim.of(2))


def test_shape_functions_are_memoised(model_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    relu = lookup("Relu", "opset1")
    assert relu is not None and not relu.infer_reads_values
    calls: list[object] = []
    original = type(relu).infer

    def counting(self: object, attrs: object, inputs: object) -> object:
        calls.append(inputs)
        return original(self, attrs, inputs)  # type: ignore[arg-type]

    monkeypatch.setattr(type(relu), "infer", counting)
    m = load(model_path)
    res = infer_model(m)
    relus = [la for _g, la in m.layers() if la.type == "ReLU"]
    assert len(relus) == 2 and len(calls) == 1
    assert all(res.output(la, la.outputs[0].id).shape == (Dim.of(2), Dim.of(3)) for la in relus)
