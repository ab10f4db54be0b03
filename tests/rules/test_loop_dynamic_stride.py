"""A Loop input sliced along an axis of dynamic length with |stride| other than part_size (SL607), against
OpenVINO 2026.4's CPU plugin: it reads parts of |stride| elements into the part_size-long body Parameter,
computing other values, and fails at inference where that Parameter feeds a nested Loop."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.diagnostics import Severity
from irlint.interp import run

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")
FIXTURES = Path(__file__).parent / "fixtures" / "SL607"
CPU = {"INFERENCE_PRECISION_HINT": "f32"}


def findings(path: Path) -> list[str]:
    return [d.code for d in irlint.check(path) if d.severity is not Severity.INFO]


def test_parts_of_stride_2_give_other_values() -> None:
    path = FIXTURES / "fail-loop-dynamic.xml"
    assert findings(path) == ["SL607"]
    x = np.arange(8, dtype=np.float32).reshape(4, 2)
    core = ov.Core()
    got = np.asarray(core.compile_model(core.read_model(str(path)), "CPU", CPU)([x, np.int64(2)])[0])
    np.testing.assert_array_equal(got, [[0, 2], [8, 10]])  # rows 0 and 2: parts of 2 rows, the first row of each
    np.testing.assert_array_equal(run(irlint.load(path), {"x": x, "trip": np.int64(2)})["y"], [[0, 2], [4, 6]])


def nested(stride: int, tmp_path: Path) -> Path:
    """x [1, ?, ?] sliced on axis 2 into a [1, ?, 1] Parameter that initialises a nested Loop's merged input."""
    x = ops.parameter([1, -1, -1], np.float32, name="x")
    xi = ops.parameter([1, -1, 1], np.float32)
    p = ops.parameter([1, -1, 1], np.float32)
    inner_r = ops.result(ops.add(p, ops.constant(np.float32(1))))
    inner = ops.loop(ops.constant(np.int64(2)), ops.constant(np.bool_(True)))
    inner.set_function(ov.Model([inner_r, ops.result(ops.constant(np.bool_(True)))], [p]))
    inner.set_special_body_ports([-1, 1])
    inner.set_merged_input(p, xi.output(0), inner_r.output(0))
    r = ops.result(inner.get_iter_value(inner_r.output(0), -1))
    trip = ops.parameter([], np.int64, name="trip")
    loop = ops.loop(trip, ops.constant(np.bool_(True)))
    loop.set_function(ov.Model([r, ops.result(ops.constant(np.bool_(True)))], [xi]))
    loop.set_special_body_ports([-1, 1])
    loop.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 2)
    out = loop.get_concatenated_slices(r.output(0), 0, 1, 1, -1, 2)
    path = tmp_path / f"nested{stride}.xml"
    ov.save_model(ov.Model([ops.result(out, name="y")], [x, trip], "nested"), str(path), compress_to_fp16=False)
    text = path.read_text()
    at = text.index('stride="1"', text.index('<input axis="2"'))
    path.write_text(text[:at] + f'stride="{stride}"' + text[at + len('stride="1"'):])
    return path


def test_a_parameter_feeding_a_nested_loop_fails_at_inference(tmp_path: Path) -> None:
    x = np.arange(18, dtype=np.float32).reshape(1, 3, 6)
    core = ov.Core()
    good = nested(1, tmp_path)
    assert findings(good) == []
    want = np.asarray(core.compile_model(core.read_model(str(good)), "CPU", CPU)([x, np.int64(2)])[0])
    np.testing.assert_array_equal(want, x[:, :, :2] + 2)
    np.testing.assert_array_equal(run(irlint.load(good), {"x": x, "trip": np.int64(2)})["y"], want)
    bad = nested(3, tmp_path)
    assert findings(bad) == ["SL607"]
    compiled = core.compile_model(core.read_model(str(bad)), "CPU", CPU)
    with pytest.raises(Exception, match=r"Can not clone with new dims. Descriptor's shape: \{1, 0 - \?, 1\} is "
                                        r"incompatible with provided dimensions: \{1, 3, 3\}"):
        compiled([x, np.int64(2)])
    np.testing.assert_array_equal(run(irlint.load(bad), {"x": x, "trip": np.int64(2)})["y"], x[:, :, :2] + 2)
