"""A TensorIterator without a sliced input: OpenVINO's core takes its iteration count from the first
concatenated output's raw attributes (|end - start| // part_size) and its CPU plugin runs that many
iterations; irlint counts the same way (LoopPlan.unsliced_count). Measured against the CPU plugin."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.api import check
from irlint.interp import DepartureWarning

ov = pytest.importorskip("openvino")
CPU = {"INFERENCE_PRECISION_HINT": "f32"}


def _ti_invariant_only(start: int, end: int, part: int, stride: int):
    """y = concatenation of Relu(x) over the iterations; x [part] reaches the body as an invariant input."""
    import openvino.opset13 as ops

    x = ops.parameter([part], np.float32, name="x")
    xi = ops.parameter([part], np.float32)
    r = ops.result(ops.relu(xi))
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([r], [xi]))
    ti.set_invariant_input(xi, x.output(0))
    out = ti.get_concatenated_slices(r.output(0), start, stride, part, end, 0)
    return ov.Model([ops.result(out, name="y")], [x], "ti_invariant_only")


def _save(model, tmp_path: Path) -> Path:
    path = tmp_path / "m.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    return path


@pytest.mark.parametrize("start,end,part,stride,count", [
    (0, -1, 1, 1, 1), (0, 3, 1, 1, 3), (2, 0, 1, -1, 2), (0, 4, 2, 2, 2)])
def test_the_first_concatenated_output_counts_the_iterations(start, end, part, stride, count, tmp_path) -> None:
    model = _ti_invariant_only(start, end, part, stride)
    assert model.output(0).get_partial_shape() == ov.PartialShape([count * part])
    x = np.arange(1, part + 1, dtype=np.float32)
    cpu = next(iter(ov.Core().compile_model(model, "CPU", CPU)({"x": x}).values()))
    path = _save(model, tmp_path)
    ours = irlint.run(irlint.load(path), {"x": x})["y"]
    np.testing.assert_array_equal(ours, cpu)
    np.testing.assert_array_equal(ours, np.tile(x, count))


def test_a_count_of_zero_is_refused_by_the_cpu_plugin_and_reported(tmp_path) -> None:
    """|-1 - 0| // 2 = 0 iterations: the output is [0], and the plugin's range check over it fails."""
    model = _ti_invariant_only(0, -1, 2, 2)
    assert model.output(0).get_partial_shape() == ov.PartialShape([0])
    with pytest.raises(Exception, match='Invalid "start","stride","end" values in an iteration component'):
        ov.Core().compile_model(model, "CPU", CPU)
    codes = {d.code for d in check(_save(model, tmp_path))}
    assert "SL607" in codes, codes


def test_a_count_of_zero_on_a_dynamic_shape_fails_at_inference_and_is_reported(tmp_path) -> None:
    """|-1 - 0| // 3 = 0 iterations: the core declares [?,0]; the plugin compiles and refuses at inference.
    The saved IR declares [?,?], so SL607 says so from the attributes and a run warns."""
    from tests.rules.make_case_fixtures import ti_invariant_concat

    model = ti_invariant_concat(-1, 3)
    assert model.output(0).get_partial_shape() == ov.PartialShape([-1, 0])
    x = np.ones((2, 3), np.float32)
    compiled = ov.Core().compile_model(model, "CPU", CPU)
    with pytest.raises(Exception, match='Invalid "start","stride","end" values in an iteration component'):
        compiled({"x": x})
    path = _save(model, tmp_path)
    text = path.read_text()
    path.write_text(text.replace("<dim>0</dim>", "<dim>-1</dim>"))  # as a mutation leaves it: [?,?]
    assert "<dim>0</dim>" not in path.read_text()
    findings = [d for d in check(path) if d.code == "SL607"]
    assert findings and "0 iterations" in findings[0].message, findings
    with pytest.warns(DepartureWarning, match="refuses it at inference"):
        irlint.run(irlint.load(path), {"x": x})


def test_a_positive_count_on_a_dynamic_shape_runs_and_is_not_reported(tmp_path) -> None:
    """|6 - 0| // 3 = 2 iterations of a [2,3] x: the plugin runs it; nothing to report."""
    from tests.rules.make_case_fixtures import ti_invariant_concat

    model = ti_invariant_concat(6, 3)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    cpu = next(iter(ov.Core().compile_model(model, "CPU", CPU)({"x": x}).values()))
    path = _save(model, tmp_path)
    assert not [d for d in check(path) if d.code == "SL607"]
    ours = irlint.run(irlint.load(path), {"x": x})["y"]
    np.testing.assert_array_equal(ours, cpu)
