"""What OpenVINO 2026.4 does with the Loop/TensorIterator cases whose rule messages quote it: SL608's
refusal, and PM410's TensorIterator that runs its body once on the CPU plugin."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import irlint
from irlint.diagnostics import Severity
from irlint.interp import run

ov = pytest.importorskip("openvino")
FIXTURES = Path(__file__).parent / "fixtures"
CPU = {"INFERENCE_PRECISION_HINT": "f32"}


def test_a_loop_concatenating_parts_of_four_is_refused_by_the_cpu_plugin() -> None:
    core = ov.Core()
    model = core.read_model(str(FIXTURES / "SL608" / "fail.xml"))
    assert str(model.outputs[-1].get_partial_shape()) == "[12,3]"  # the core joins 3 parts of 4
    with pytest.raises(Exception, match="Shape mismatch for tensor iterator port"):
        core.compile_model(model, "CPU", CPU)
    core.compile_model(core.read_model(str(FIXTURES / "SL608" / "pass.xml")), "CPU", CPU)


def ti_with_an_unread_slice(part: int):
    import openvino.opset13 as ops

    x, h = ops.parameter([4, 2], np.float32, name="x"), ops.parameter([2], np.float32, name="h")
    xi, hi = ops.parameter([part, 2], np.float32), ops.parameter([2], np.float32)
    r = ops.result(ops.add(hi, ops.constant(np.ones(2, np.float32))))
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([r], [xi, hi]))
    ti.set_sliced_input(xi, x.output(0), 0, part, part, -1, 0)
    ti.set_merged_input(hi, h.output(0), r.output(0))
    return ov.Model([ops.result(ti.get_iter_value(r.output(0), -1), name="y")], [x, h], "unread")


@pytest.mark.parametrize("part", [1, 2])
def test_a_tensor_iterator_whose_sliced_parameter_nothing_reads(part: int, tmp_path: Path) -> None:
    path = tmp_path / "unread.xml"
    ov.save_model(ti_with_an_unread_slice(part), str(path), compress_to_fp16=False)
    found = [d for d in irlint.check(path) if d.severity is not Severity.INFO]
    assert [d.code for d in found] == ["PM410"] and "runs the body once" in found[0].message
    inputs = {"x": np.zeros((4, 2), np.float32), "h": np.zeros(2, np.float32)}
    core = ov.Core()
    cpu = core.compile_model(core.read_model(str(path)), "CPU", CPU)([inputs["x"], inputs["h"]])
    np.testing.assert_array_equal(np.asarray(cpu[0]), np.ones(2, np.float32))  # one iteration
    np.testing.assert_array_equal(run(irlint.load(path), inputs)["y"], np.full(2, 4 // part, np.float32))


@pytest.mark.parametrize(("kind", "cpu_y", "irlint_y", "codes"), [("ti", 1.0, 4.0, ["PM410"]),
                                                                  ("loop", 10.0, 10.0, ["PM410"])])
def test_a_slice_read_only_by_an_if_input_no_branch_reads(kind: str, cpu_y: float, irlint_y: float,
                                                          codes: list[str], tmp_path: Path) -> None:
    """OpenVINO removes the If input and then the slicing: the TI runs once (PM410 says so, irlint follows
    the spec), the Loop runs its trip count (irlint follows: the input does not count iterations)."""
    from tests.rules.make_case_fixtures import body_reading_through_dead_if

    path = tmp_path / f"{kind}.xml"
    ov.save_model(body_reading_through_dead_if(kind), str(path), compress_to_fp16=False)
    found = [d for d in irlint.check(path) if d.severity is not Severity.INFO]
    assert [d.code for d in found] == codes, found
    inputs = {"x": np.zeros(4, np.float32), "s": np.zeros((), np.float32)}
    core = ov.Core()
    cpu = core.compile_model(core.read_model(str(path)), "CPU", CPU)([inputs["x"], inputs["s"]])
    assert float(np.asarray(cpu[0])) == cpu_y
    assert float(run(irlint.load(path), inputs)["y"]) == irlint_y


@pytest.mark.parametrize("table,ks", [([1, 2, 255, 0, 1], [0, 1, 2, 3]), ([4, 0, 1, 1, 1], [0, 1]),
                                      ([1, 1, 1, 1, 1], [0, 1, 2, 3, 4])])
def test_a_u8_body_condition_runs_on_the_cpu_plugin_nonzero_as_true(table, ks, tmp_path: Path) -> None:
    """The spec wants a boolean body condition (LP704 is an error); the CPU plugin runs a u8 one and
    continues while it is nonzero, as irlint's run does."""
    from tests.rules.make_case_fixtures import loop_typed_condition

    path = tmp_path / "m.xml"
    ov.save_model(loop_typed_condition(np.uint8), str(path), compress_to_fp16=False)
    t = np.array(table, np.uint8)
    cpu = ov.Core().compile_model(str(path), "CPU", CPU)({"t": t})["ks"]
    assert cpu.tolist() == ks
    assert run(irlint.load(path), {"t": t})["ks"].tolist() == ks
    (found,) = [d for d in irlint.check(path) if d.code == "LP704"]
    assert found.severity is Severity.ERROR and "reading a nonzero value as true" in found.message


@pytest.mark.parametrize("etype", [np.int8, np.int32, np.int64, np.float16, np.float32])
def test_a_body_condition_of_another_type_is_refused_at_compile(etype, tmp_path: Path) -> None:
    from tests.rules.make_case_fixtures import loop_typed_condition

    path = tmp_path / "m.xml"
    ov.save_model(loop_typed_condition(etype), str(path), compress_to_fp16=False)
    core = ov.Core()
    model = core.read_model(str(path))  # the reader takes any type
    with pytest.raises(Exception, match=r"mem->getDataType\(\) == memory::data_type::u8"):
        core.compile_model(model, "CPU", CPU)
    (found,) = [d for d in irlint.check(path) if d.code == "LP704"]
    assert found.severity is Severity.ERROR and "refuses it at compile" in found.message


def _tolerated(code: str, message: str) -> bool:
    from tests.differential.compare import TOLERATED_WHEN

    return any(c == code and re.search(rx, message) for c, rx, _ in TOLERATED_WHEN)


@pytest.mark.parametrize("etype", [np.int64, np.float32])
def test_a_body_condition_of_another_type_in_a_dynamic_loop_is_refused_at_its_first_run(etype, tmp_path: Path) -> None:
    from tests.rules.make_case_fixtures import loop_typed_condition

    path = tmp_path / "m.xml"
    ov.save_model(loop_typed_condition(etype, -1), str(path), compress_to_fp16=False)
    compiled = ov.Core().compile_model(str(path), "CPU", CPU)  # compile_model accepts it
    with pytest.raises(Exception, match=r"mem->getDataType\(\) == memory::data_type::u8"):
        compiled({"t": np.ones(5, etype)})
    (found,) = [d for d in irlint.check(path) if d.code == "LP704"]
    assert found.severity is Severity.ERROR and "at the first inference that runs the Loop" in found.message
    assert "at compile" not in found.message and _tolerated("LP704", found.message)


def loop_with_typed_current_iteration(first, second, read: bool):
    """A Loop (3 iterations) whose current_iteration Parameter `ci` (type `first`) is also fed by an invariant
    input s and read by the body only when `read`; the body Parameter after it is of type `second`, without input
    and unread.
    y is x plus 1 per iteration (plus ci when read)."""
    import openvino.opset13 as ops

    x, s = ops.parameter([2], np.float32, name="x"), ops.parameter([], first, name="s")
    ci, nxt, xb = ops.parameter([], first), ops.parameter([], second), ops.parameter([2], np.float32)
    step = ops.constant(np.float32(1))
    if read:
        step = ops.add(step, ops.convert(ci, np.float32))
    r, cr = ops.result(ops.add(xb, step)), ops.result(ops.constant(np.bool_(True)))
    loop = ops.loop(ops.constant(np.int64(3)), ops.constant(np.bool_(True)))
    loop.set_function(ov.Model([r, cr], [ci, nxt, xb]))
    loop.set_special_body_ports([0, 1])
    loop.set_invariant_input(ci, s.output(0))
    loop.set_merged_input(xb, x.output(0), r.output(0))
    return ov.Model([ops.result(loop.get_iter_value(r.output(0), -1), name="y")], [x, s], "typed_current_iteration")


@pytest.mark.parametrize(("second", "read", "accepted"), [(np.int32, False, True), (np.int64, False, True),
                                                          (np.float32, False, False), (np.int32, True, False)])
def test_an_f32_current_iteration_parameter_on_the_cpu_plugin(second, read: bool, accepted: bool,
                                                              tmp_path: Path) -> None:
    """OpenVINO removes an unread current_iteration Parameter an input feeds and keeps the index: the CPU
    plugin then checks the next body Parameter's type; a read one keeps its own f32 and is refused."""
    path = tmp_path / "m.xml"
    ov.save_model(loop_with_typed_current_iteration(np.float32, second, read), str(path), compress_to_fp16=False)
    core = ov.Core()
    model = core.read_model(str(path))  # the reader takes any type
    (found,) = [d for d in irlint.check(path) if d.code == "LP705"]
    assert found.severity is Severity.ERROR and _tolerated("LP705", found.message) is accepted
    if accepted:
        y = core.compile_model(model, "CPU", CPU)({"x": np.zeros(2, np.float32), "s": np.float32(7)})["y"]
        np.testing.assert_array_equal(y, np.full(2, 3, np.float32))
        assert "removes it" in found.message
        return
    with pytest.raises(Exception, match=r"to->getDataType\(\) == memory::data_type::s32"):
        core.compile_model(model, "CPU", CPU)
