"""A sliced input's part_size below 1: the spec forbids it, OpenVINO's reader takes it. Its core gives
the body Parameter part_size on the axis (0 for part_size 0 or -2, a dynamic dim for -1), whatever the
Parameter declares, and infers the body from there; irlint's shape inference does the same, so a
Reshape of those 0 elements to [] is refused at read by OpenVINO and reported by irlint (SL605, the
Reshape's T210 as its note). Measured on TensorIterator and Loop."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.api import check
from irlint.shapes import infer_model

ov = pytest.importorskip("openvino")


def _model(kind: str, target: list[int] | None):
    """x [?] sliced on axis 0 into a body Parameter [1], Relu (target None) or Reshaped to `target`."""
    import openvino.opset13 as ops

    x = ops.parameter([-1], np.float32, name="x")
    xi = ops.parameter([1], np.float32)
    y = ops.relu(xi) if target is None else ops.reshape(xi, ops.constant(np.array(target, np.int64)), False)
    r = ops.result(y)
    if kind == "loop":
        node = ops.loop(ops.constant(np.int64(2)), ops.constant(np.bool_(True)))
        node.set_function(ov.Model([r, ops.result(ops.constant(np.bool_(True)))], [xi]))
        node.set_special_body_ports([-1, 1])
    else:
        node = ops.tensor_iterator()
        node.set_body(ov.Model([r], [xi]))
    node.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 0)
    return ov.Model([ops.result(node.get_iter_value(r.output(0), -1), name="y")], [x], "part_size")


def _write(kind: str, target: list[int] | None, part: int, tmp_path: Path) -> Path:
    """The model as OpenVINO writes it, its sliced input's part_size edited to `part`."""
    src = tmp_path / "src.xml"
    ov.save_model(_model(kind, target), str(src), compress_to_fp16=False)
    text, n = re.subn(r'(<input axis="0"[^>]*part_size=")1"', rf'\g<1>{part}"', src.read_text(), count=1)
    assert n == 1
    path = tmp_path / "m.xml"
    path.write_text(text)
    shutil.copyfile(src.with_suffix(".bin"), path.with_suffix(".bin"))
    return path


@pytest.mark.parametrize("kind", ["loop", "ti"])
@pytest.mark.parametrize("part,dims", [(0, "[0]"), (-1, "[?]"), (-2, "[0]"), (2, "[2]")])
def test_the_body_parameter_takes_part_size_as_openvino_s_core_gives_it(kind, part, dims, tmp_path) -> None:
    path = _write(kind, None, part, tmp_path)
    read = ov.Core().read_model(str(path))
    assert str(read.output(0).get_partial_shape()) == dims
    model = irlint.load(path)
    node = next(layer for layer in model.graph.layers if layer.type in ("Loop", "TensorIterator"))
    port = next(p for p in node.outputs if p.id is not None)
    got = infer_model(model).output(node, port.id).shape
    assert "[" + ",".join(str(d) for d in got) + "]" == dims


@pytest.mark.parametrize("kind", ["loop", "ti"])
def test_a_reshape_of_the_empty_part_is_refused_at_read_and_reported(kind, tmp_path) -> None:
    path = _write(kind, [], 0, tmp_path)
    with pytest.raises(Exception, match=r"Requested output shape \[\] is incompatible with input shape"):
        ov.Core().read_model(str(path))
    errors = [d for d in check(path) if d.severity.name == "ERROR"]
    assert [d.code for d in errors] == ["SL603"], errors
    assert "part_size is 0; it must be at least 1" in errors[0].message
