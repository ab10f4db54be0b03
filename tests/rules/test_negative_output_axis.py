"""What OpenVINO makes of a TensorIterator output concatenated along axis -1 (PM413), on a model the
openvino API builds with axis 0 and whose text then says -1: its core declares the output one part
long and the CPU plugin gives the last iteration's part, so a consumer that broadcasts with that one
part runs. irlint follows the spec (all parts along the last axis); what breaks downstream of it follows
from the defect PM413 claims, which the differential comparator counts as OpenVINO's departure."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.diagnostics import Severity
from tests.differential.compare import irlint_side, tolerated

ov = pytest.importorskip("openvino")
opset = pytest.importorskip("openvino.opset8")


def _model(tmp_path: Path) -> Path:
    """x [1,2,2] sliced along axis 1 (2 iterations of [1,1,2]); the body adds 1; the output concatenates
    the parts along axis 0 ([2,1,2]) and an Add of a [1,1,2] reads it; then the text says axis -1."""
    x = opset.parameter([1, 2, 2], np.float32, name="x")
    part = opset.parameter([1, 1, 2], np.float32)
    res = opset.result(opset.add(part, opset.constant(np.ones([1, 1, 2], np.float32))))
    ti = opset.tensor_iterator()
    ti.set_body(ov.Model([res], [part]))
    ti.set_sliced_input(part, x.output(0), 0, 1, 1, -1, 1)
    out = ti.get_concatenated_slices(res.output(0), 0, 1, 1, -1, 0)
    y = opset.add(out, opset.constant(np.full([1, 1, 2], 10, np.float32)))
    path = tmp_path / "m.xml"
    ov.save_model(ov.Model([opset.result(y)], [x]), str(path), compress_to_fp16=False)
    text = path.read_text()
    assert text.count('<output axis="0" external_port_id="1"') == 1
    path.write_text(text.replace('<output axis="0" external_port_id="1"', '<output axis="-1" external_port_id="1"'))
    return path


def test_openvino_gives_the_last_part_and_the_errors_follow_from_pm413(tmp_path: Path) -> None:
    path = _model(tmp_path)
    assert 'axis="-1"' in path.read_text()
    core = ov.Core()
    model = core.read_model(str(path))
    ti = next(op for op in model.get_ordered_ops() if op.get_type_name() == "TensorIterator")
    assert [d.axis for d in ti.get_output_descriptions()] == [-1]
    assert str(ti.output(0).get_partial_shape()) == "[1,1,2]"  # one part, not the spec's [1,1,4]
    compiled = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    got = np.asarray(compiled({"x": np.arange(4, dtype=np.float32).reshape(1, 2, 2)})[0])
    np.testing.assert_array_equal(got, [[[13.0, 14.0]]])  # the last iteration's part, 2 + 1 and 3 + 1, + 10

    diags = irlint.check(path)
    warning = next(d for d in diags if d.code == "PM413")
    errors = [d for d in diags if d.severity == Severity.ERROR]
    assert {d.code for d in errors} == {"SL604", "SL606", "T210"}, [(d.code, d.message) for d in diags]
    for d in errors:
        if d.code != "SL604":  # the part count, tolerated on its own (TOLERATED_WHEN)
            assert set(d.because) & set(warning.claims), (d.code, d.message)
    side = irlint_side(path, None, want_run=False)
    assert side.errors and all(tolerated(e) or e in side.after_departure for e in side.errors), side.errors
