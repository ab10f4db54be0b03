"""The departure checks are decided once per program and loop layer (irlint.interp.overflow.watch_plan,
irlint.interp.loops.cpu_checks): which ops and loops are watched, and the CPU-plugin readings that let a
whole-range loop skip its refusal checks. The warnings themselves are tested where each departure is
(test_narrow_overflow, test_cpu_loop_refusals, ...)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import irlint
from irlint.controlflow import cpu_plugin_iterations, cpu_plugin_plan
from irlint.interp import DepartureWarning, overflow, run
from irlint.interp.loops import ALL_CPU_CHECKS, NO_CPU_CHECKS, REGULAR_CPU_CHECKS, cpu_checks, loop_code
from irlint.interp.program import program_for

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _entry(start=None, end=None, stride=None, part_size=None):  # type: ignore[no-untyped-def]
    return SimpleNamespace(entry=SimpleNamespace(start=start, end=end, stride=stride, part_size=part_size))


def test_an_f32_model_watches_no_op_and_its_loops_only_check_part_lengths() -> None:
    model = irlint.load(EXAMPLES / "lstm_ti.xml")
    for graph in model.graphs():
        assert all(w is None for w in overflow.watch_plan(program_for(graph)))
        for layer in graph.layers:
            if layer.type in ("TensorIterator", "Loop"):
                assert loop_code(layer).cpu_checks in (NO_CPU_CHECKS, REGULAR_CPU_CHECKS)


def test_a_narrow_integer_add_is_watched_once_per_program(tmp_path: Path) -> None:
    ov = pytest.importorskip("openvino")
    ops = pytest.importorskip("openvino.opset13")
    a, b = (ops.parameter([2], ov.Type.u8, name=n) for n in ("a", "b"))
    added = ops.add(a, b)
    path = tmp_path / "m.xml"
    ov.save_model(ov.Model([ops.result(ops.add(added, b), name="y")], [a, b]), str(path))
    model = irlint.load(path)
    program = program_for(model.graph)
    plan = overflow.watch_plan(program)
    watched = {i.layer.name: w for i, w in zip(program.order, plan) if w is not None}
    # both Adds may wrap; the first feeds the second, the second only the model's output
    assert sorted(watched.values()) == [False, True]
    assert overflow.watch_plan(program) is plan  # decided once
    with pytest.warns(DepartureWarning, match="wraps"):
        run(model, {"a": np.array([200, 1], np.uint8), "b": np.array([100, 1], np.uint8)})


def test_cpu_checks_from_the_port_map() -> None:
    whole, explicit = _entry(), _entry(0, -1, 1, 1)
    assert cpu_checks(False, [], []) == NO_CPU_CHECKS
    assert cpu_checks(True, [whole], []) == NO_CPU_CHECKS  # a Loop's slices: only the slice count, elsewhere
    assert cpu_checks(False, [whole], [explicit]) == REGULAR_CPU_CHECKS
    assert cpu_checks(True, [], [whole]) == REGULAR_CPU_CHECKS
    for odd in (_entry(1), _entry(None, -2), _entry(None, None, -1), _entry(None, None, 2, 2), _entry(0, 3)):
        assert cpu_checks(False, [whole], [odd]) == ALL_CPU_CHECKS
        assert cpu_checks(False, [odd], []) == ALL_CPU_CHECKS


@pytest.mark.parametrize("dim", [1, 2, 3, 7, 64, 1000])
def test_the_plugin_reads_a_whole_range_entry_as_the_spec_does(dim: int) -> None:
    """What REGULAR_CPU_CHECKS relies on: start 0, end -1, stride 1 counts `dim` iterations on the CPU
    plugin and places the same slices, so only parts of another length can make it refuse."""
    assert cpu_plugin_iterations(dim, 0, -1, 1) == dim
    assert cpu_plugin_plan(dim, 0, -1, 1, 1) == (0, dim, 1)


class _Layer(SimpleNamespace):
    """A layer's declared types (weakly referable and hashed by identity, as a Layer is: its quick test is
    chosen once per layer)."""

    __hash__ = object.__hash__


def _layer(kind: str, ins: list[type], out: type):  # type: ignore[no-untyped-def]
    port = lambda t: SimpleNamespace(precision=SimpleNamespace(dtype=t))  # noqa: E731
    return _Layer(type=kind, inputs=[port(t) for t in ins], outputs=[port(out)])


def _quick(kind: str, ins: list[type], out: type, outputs_only: bool = False, consts=()):  # type: ignore[no-untyped-def]
    """Whether a call whose inputs are `args` and whose result is `result` passes the layer's quick test
    (else it goes on to the full check); None where the layer has no quick test."""
    result: list[np.ndarray] = []
    slowed: list[int] = []
    kernel = overflow._quick_watch(
        _layer(kind, ins, out), lambda args: result, lambda a, o: slowed.append(1), outputs_only, consts
    )
    if kernel is None:
        return None

    def passes(args: list[np.ndarray], value: np.ndarray) -> bool:
        result[:], slowed[:] = [value], []
        got = kernel(args)[0]  # the kernel's result (a Convert within range: numpy's cast, the same values)
        assert got is value or (kind == "Convert" and got.dtype == value.dtype and np.array_equal(got, value))
        return not slowed

    return passes


def test_a_quick_exit_passes_only_results_that_cannot_depart() -> None:
    """Each watched op's cheap per-call test (chosen from its declared types) says "cannot depart" only
    where the full check finds nothing; any doubt sends the call on to the full check."""
    counter = _quick("Add", [np.int64, np.int64], np.int64)
    assert counter([], np.array(7)) and counter([], np.array([1, -(2**31), 2**31 - 1]))
    assert not counter([], np.array(2**31)) and not counter([], np.arange(100) * 2**26)  # (past 64 values: numpy)
    assert not counter([], np.array(5, np.int32))  # another type than declared: the full check decides
    f16 = _quick("Multiply", [np.float16, np.float16], np.float16)
    assert f16([], np.ones(8, np.float16)) and f16([], np.ones(100, np.float16))
    for bad in (np.inf, -np.inf, np.nan):
        assert not f16([], np.array([1, bad], np.float16)) and not f16([], np.full(100, bad, np.float16))
    # read by the outputs alone (the plugin rounds to inf too), or an f16 Multiply by constants of magnitudes
    # at most 1 (a Divide by at least 1), which cannot overflow: no test, the kernel itself
    half = np.array([0.5, -1.0], np.float16)
    for kind, consts, only in (("Multiply", (), True), ("Multiply", (half, None), False),
                               ("Multiply", (None, half), False), ("Divide", (None, np.array(-4, np.float16)), False)):
        kernel = lambda args: []  # noqa: E731
        assert overflow._quick_watch(_layer(kind, [np.float16] * 2, np.float16), kernel, print, only, consts) is kernel
    u32 = _quick("Add", [np.uint32, np.uint32], np.uint32)
    assert u32([np.array(2**31 - 1, np.uint32), np.array([0, 1], np.uint32)], np.array(0, np.uint32))
    assert not u32([np.array(1, np.uint32), np.array([0, 2**31], np.uint32)], np.array(0, np.uint32))
    assert not u32([np.array("a"), np.array(1, np.uint32)], np.array(0, np.uint32))  # not a number: full check
    step, big = np.array(1, np.uint32), np.array(2**31, np.uint32)  # constant inputs, tested once
    assert _quick("Add", [np.uint32, np.uint32], np.uint32, consts=[None, step])(
        [np.array(5, np.uint32), step], np.array(0, np.uint32)
    )
    assert not _quick("Add", [np.uint32, np.uint32], np.uint32, consts=[None, big])(
        [np.array(5, np.uint32), big], np.array(0, np.uint32)
    )
    to_i16 = _quick("Convert", [np.float32], np.int16)
    assert to_i16([np.array([-32768.0, 32767.0], np.float32)], np.array([-32768, 32767], np.int16))
    assert to_i16([np.array([7, -1], np.int32)], np.array([7, -1], np.int16))
    for bad in (32768.0, -1e9, np.nan, np.inf):
        assert not to_i16([np.array([0.0, bad], np.float32)], np.zeros(2, np.int16))
    assert not _quick("Convert", [np.float32], np.uint16)([np.array([-1.2], np.float32)], np.zeros(1, np.uint16))
    assert not to_i16([np.array([b"7"], object)], np.zeros(1, np.int16))  # not numbers: the full check decides
    u8_add = _quick("Add", [np.uint8, np.uint8], np.uint8)  # the extremes of the inputs bound the result
    assert u8_add([np.array([0, 200], np.uint8), np.array(55, np.uint8)], np.zeros(2, np.uint8))
    assert not u8_add([np.array([0, 200], np.uint8), np.array(56, np.uint8)], np.zeros(2, np.uint8))
    i8_mul = _quick("Multiply", [np.int8, np.int8], np.int8)
    assert i8_mul([np.array([-8, 15], np.int8), np.array([-8, 8], np.int8)], np.zeros(2, np.int8))
    assert not i8_mul([np.array([-8, 16], np.int8), np.array([-8, 8], np.int8)], np.zeros(2, np.int8))  # 128
    i16_sub = _quick("Subtract", [np.int16, np.int16], np.int16)
    assert not i16_sub([np.array(-32768, np.int16), np.array(1, np.int16)], np.zeros((), np.int16))
    assert i16_sub([np.array(-32767, np.int16), np.array(1, np.int16)], np.zeros((), np.int16))  # one value each
    assert not _quick("Multiply", [np.int16, np.int16], np.int16)(
        [np.array(256, np.int16), np.array(128, np.int16)], np.zeros((), np.int16)
    )
    # one integer constant operand: the other input's bounds are worked out once
    step = np.array(1, np.int16)
    count = _quick("Add", [np.int16, np.int16], np.int16, consts=[None, step])
    assert count([np.array(32766, np.int16), step], np.zeros((), np.int16))
    assert not count([np.array(32767, np.int16), step], np.zeros((), np.int16))
    assert not count([np.array([0, 32767], np.int16), step], np.zeros(2, np.int16))
    assert not count([np.array(5, np.int32), step], np.zeros((), np.int32))  # another result type: full check
    cut = np.array([2, 9], np.uint8)
    down = _quick("Subtract", [np.uint8, np.uint8], np.uint8, consts=[None, cut])
    assert down([np.array([9, 200], np.uint8), cut], np.zeros(2, np.uint8))  # x - c, c up to 9
    assert not down([np.array([8, 200], np.uint8), cut], np.zeros(2, np.uint8))
    flip = _quick("Subtract", [np.int8, np.int8], np.int8, consts=[np.array(-100, np.int8), None])
    assert flip([np.array(-100, np.int8), np.array(28, np.int8)], np.zeros((), np.int8))  # -100 - 28 = -128
    assert not flip([np.array(-100, np.int8), np.array(29, np.int8)], np.zeros((), np.int8))
    # a constant that can grow the other operand: the finite test
    grown = _quick("Multiply", [np.float16, np.float16], np.float16, consts=[None, np.array([0.5, 2], np.float16)])
    assert not grown([np.zeros(2, np.float16), None], np.array([np.inf, 1], np.float16))
    assert not _quick("Divide", [np.float16, np.float16], np.float16, consts=[np.array(4, np.float16), None])(
        [], np.array([np.inf], np.float16)
    )  # a constant dividend: the quotient can grow
    # reductions have no quick test: the full check runs on every call
    assert _quick("ReduceSum", [np.int32, np.int64], np.int32) is None


def test_a_quick_test_is_chosen_once_per_layer_and_constants(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run makes only the closures: the choice is the layer's and its constants', kept across runs."""
    chosen: list[object] = []
    choose = overflow._quick_maker
    monkeypatch.setattr(overflow, "_quick_maker", lambda *a: chosen.append(a) or choose(*a))
    layer, step, other = _layer("Add", [np.int16, np.int16], np.int16), np.array(1, np.int16), np.array(1, np.int16)
    for consts in ([None, step], [None, step], [None, other], [None, other]):
        assert overflow._quick_watch(layer, lambda args: [], lambda a, o: None, False, consts) is not None
    assert len(chosen) == 2  # again only for constants that are other objects
