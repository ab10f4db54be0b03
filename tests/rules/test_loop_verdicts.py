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


def _lp705(model, tmp_path: Path):
    """LP705's finding on `model` (saved under tmp_path) and the path."""
    path = tmp_path / "m.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    (found,) = [d for d in irlint.check(path) if d.code == "LP705"]
    return found, path


@pytest.mark.parametrize("etype", [np.int16, np.uint16, np.uint32, np.uint64, np.int8, np.uint8, np.float32,
                                   np.float16, np.bool_])
def test_the_current_iteration_types_the_cpu_plugin_takes(etype, tmp_path: Path) -> None:
    """The CPU plugin converts i16, u16, u32 and u64 to i32 and takes them (a warning: the spec names i32 and
    i64); it refuses i8, u8, f32, f16 and boolean at compile (an error)."""
    from tests.rules.make_case_fixtures import loop_typed_iteration

    found, path = _lp705(loop_typed_iteration(etype), tmp_path)
    core = ov.Core()
    model = core.read_model(str(path))
    if np.dtype(etype).kind in "iu" and np.dtype(etype).itemsize >= 2:
        assert found.severity is Severity.WARNING and "takes it" in found.message
        x = np.float32([1, 2])
        y = core.compile_model(model, "CPU", CPU)({"x": x})["y"]
        np.testing.assert_array_equal(y, x + 3)
        np.testing.assert_array_equal(run(irlint.load(path), {"x": x})["y"], y)
        return
    assert found.severity is Severity.ERROR and "refuses it at compile" in found.message
    assert not _tolerated("LP705", found.message)
    with pytest.raises(Exception, match=r"to->getDataType\(\) == memory::data_type::s32"):
        core.compile_model(model, "CPU", CPU)


@pytest.mark.parametrize("nested", [False, True])
def test_an_f32_current_iteration_in_a_dynamic_loop_is_refused_when_an_iteration_runs(nested: bool,
                                                                                       tmp_path: Path) -> None:
    """A Loop with an input of dynamic shape (its own, or one an outer Loop's dynamic input makes so) is
    compiled; the CPU plugin refuses the f32 Parameter at the first inference that runs an iteration."""
    from tests.rules.make_case_fixtures import loop_iteration_nested, loop_typed_iteration

    model = loop_iteration_nested(np.float32) if nested else loop_typed_iteration(np.float32, -1, trip_input=True)
    found, path = _lp705(model, tmp_path)
    assert found.severity is Severity.ERROR and _tolerated("LP705", found.message)
    assert "first inference that runs an iteration" in found.message
    compiled = ov.Core().compile_model(str(path), "CPU", CPU)
    x = np.float32([1, 2])
    np.testing.assert_array_equal(compiled({"x": x, "n": np.int64(0)})["y"], x)  # no iteration: not refused
    with pytest.raises(Exception, match=r"to->getDataType\(\) == memory::data_type::s32"):
        compiled({"x": x, "n": np.int64(2)})


def test_a_static_loop_in_a_dynamic_body_is_checked_at_compile(tmp_path: Path) -> None:
    """The Loop's own inputs decide: one fed [2] in the body of a Loop with a dynamic input is refused at
    compile."""
    from tests.rules.make_case_fixtures import loop_iteration_nested

    found, path = _lp705(loop_iteration_nested(np.float32, fixed=True), tmp_path)
    assert found.severity is Severity.ERROR and "refuses it at compile" in found.message
    with pytest.raises(Exception, match=r"to->getDataType\(\) == memory::data_type::s32"):
        ov.Core().compile_model(str(path), "CPU", CPU)


@pytest.mark.parametrize("read", [False, True])
def test_an_f32_current_iteration_in_a_loop_nothing_reads(read: bool, tmp_path: Path) -> None:
    """A Loop whose output only an unread output of the Loop around it takes is removed with that output
    before the CPU plugin checks it; read, it is refused at compile."""
    from tests.rules.make_case_fixtures import loop_iteration_nested

    _removed_unless_read("LP705", loop_iteration_nested(np.float32, dynamic=False, read=read), read,
                         r"to->getDataType\(\) == memory::data_type::s32", tmp_path)


def _removed_unless_read(code: str, model, read: bool, refusal: str, tmp_path: Path) -> None:
    """`code`'s error on a Loop nested in another: read, the CPU plugin refuses it at compile (`refusal`);
    unread, OpenVINO removes it first, the model computes y = x + 2, and the message says so (tolerated)."""
    path = tmp_path / "m.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    (found,) = [d for d in irlint.check(path) if d.code == code]
    assert found.severity is Severity.ERROR
    assert ("removes the Loop" in found.message) is not read and _tolerated(code, found.message) is not read
    core = ov.Core()
    if read:
        with pytest.raises(Exception, match=refusal):
            core.compile_model(str(path), "CPU", CPU)
        return
    x = np.float32([1, 2])
    np.testing.assert_array_equal(core.compile_model(str(path), "CPU", CPU)({"x": x})["y"], x + 2)


@pytest.mark.parametrize("etype", [np.uint32, np.float32])
def test_a_sliced_parameter_that_is_also_the_current_iteration(etype, tmp_path: Path) -> None:
    """An entry slicing x into the current_iteration Parameter: the iteration number wins, the slice is lost,
    and the Parameter's own type is checked (u32 taken, f32 refused); PM408 is the error."""
    import openvino.opset13 as ops

    x = ops.parameter([4], etype, name="x")
    a, c = ops.parameter([1], etype), ops.parameter([], np.int32)
    ra = ops.result(ops.convert(a, np.int64))
    rc = ops.result(ops.unsqueeze(ops.convert(c, np.int64), ops.constant(np.array([0], np.int64))))
    loop = ops.loop(ops.constant(np.int64(4)), ops.constant(np.bool_(True)))
    loop.set_function(ov.Model([ops.result(ops.constant(np.bool_(True))), ra, rc], [a, c]))
    loop.set_special_body_ports([1, 0])
    loop.set_sliced_input(a, x.output(0), 0, 1, 1, -1, 0)
    outs = [ops.result(loop.get_concatenated_slices(r.output(0), 0, 1, 1, -1, 0), name=n)
            for r, n in ((ra, "a"), (rc, "c"))]
    path = tmp_path / "m.xml"
    ov.save_model(ov.Model(outs, [x], "doubled"), str(path), compress_to_fp16=False)
    text = path.read_text()
    path.write_text(text.replace('internal_layer_id="1" purpose="current_iteration"',
                                 'internal_layer_id="0" purpose="current_iteration"'))
    found = {d.code: d for d in irlint.check(path) if d.severity is not Severity.INFO}
    assert found["PM408"].severity is Severity.ERROR
    core = ov.Core()
    if etype is np.float32:
        assert found["LP705"].severity is Severity.ERROR
        with pytest.raises(Exception, match=r"to->getDataType\(\) == memory::data_type::s32"):
            core.compile_model(str(path), "CPU", CPU)
        return
    assert found["LP705"].severity is Severity.WARNING
    got = core.compile_model(str(path), "CPU", CPU)({"x": np.array([10, 20, 30, 40], etype)})
    np.testing.assert_array_equal(got["a"], [0, 1, 2, 3])  # the iteration number, not the slice
    np.testing.assert_array_equal(got["c"], [0, 0, 0, 0])  # the unfed Parameter: zeros


@pytest.mark.parametrize("read", [False, True])
def test_a_body_condition_of_another_type_in_a_loop_nothing_reads(read: bool, tmp_path: Path) -> None:
    """A Loop whose output only an unread output of the Loop around it takes is removed with that output
    before the CPU plugin checks its i32 body condition; read, it is refused at compile."""
    from tests.rules.make_case_fixtures import loop_condition_nested

    _removed_unless_read("LP704", loop_condition_nested(np.int32, read), read,
                         r"mem->getDataType\(\) == memory::data_type::u8", tmp_path)


def loop_condition_from_input(body_type):
    """A Loop (3 iterations) whose execution condition is a model input `ec` and whose body condition is an
    invariant input of `body_type` (a [1] tensor of 1); y stacks x plus 1 per iteration (of dynamic length)."""
    import openvino.opset13 as ops

    x, ec, t = ops.parameter([2], np.float32, name="x"), ops.parameter([], np.bool_, name="ec"), ops.parameter(
        [1], body_type, name="t")
    tb, xb = ops.parameter([1], body_type), ops.parameter([2], np.float32)
    r, cr = ops.result(ops.add(xb, ops.constant(np.float32(1)))), ops.result(tb)
    loop = ops.loop(ops.constant(np.int64(3)), ec)
    loop.set_function(ov.Model([r, cr], [tb, xb]))
    loop.set_special_body_ports([-1, 1])
    loop.set_invariant_input(tb, t.output(0))
    loop.set_merged_input(xb, x.output(0), r.output(0))
    y = loop.get_concatenated_slices(r.output(0), 0, 1, 1, -1, 0)
    return ov.Model([ops.result(y, name="y")], [x, ec, t], "condition_input")


def test_a_body_condition_of_another_type_is_refused_at_the_first_run_when_the_loop_condition_is_an_input(
        tmp_path: Path) -> None:
    """An execution condition the model computes (here a model input), with an output of dynamic shape, makes
    the CPU plugin check the body condition's type at the first inference, not at compile (the third-party
    loop_port1_unconnected.xml)."""
    path = tmp_path / "m.xml"
    ov.save_model(loop_condition_from_input(np.int64), str(path), compress_to_fp16=False)
    compiled = ov.Core().compile_model(str(path), "CPU", CPU)  # compile_model accepts it
    with pytest.raises(Exception, match=r"mem->getDataType\(\) == memory::data_type::u8"):
        compiled({"x": np.ones(2, np.float32), "ec": np.array(True), "t": np.ones(1, np.int64)})
    (found,) = [d for d in irlint.check(path) if d.code == "LP704"]
    assert "execution condition (input port 1) being computed when the model runs" in found.message
    assert "at the first inference that runs the Loop" in found.message and "at compile" not in found.message
