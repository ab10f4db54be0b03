"""More fixtures per rule: tests/rules/fixtures/<CODE>/fail-<case>.xml and pass-<case>.xml (needs openvino).

`python tests/rules/make_case_fixtures.py` (make_fixtures.py runs it after it rebuilt the main
fixtures). Each case is an IR written by openvino, edited as text where a defect is wanted, with
`<!-- expect: CODE -->` above each line that must be reported; test_fixtures.py checks them. A
rule without a main fixture of its own (PM412) gets its fail.xml/pass.xml here.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.rules.make_fixtures import OUT, Edit, Fixture, base_ti, mark, reverse_ti, save  # noqa: E402
from tests.rules.valid_irs import (  # noqa: E402
    _if_branches,
    _ops8,
    if_constant_then_ranks,
    if_scalar_or_one,
    if_scalar_or_vector,
    if_stale_branch,
    loop_scalar_state,
    loop_slices,
    ti_scalar_state,
)


def _ov():
    import openvino as ov
    import openvino.opset13 as ops

    return ov, ops


def relu_2x3():
    ov, ops = _ov()
    x = ops.parameter([2, 3], np.float32, name="x")
    return ov.Model([ops.result(ops.relu(x), name="y")], [x], "relu")


def dynamic_rank():
    """Ports without dims that are dynamic ranks: a Parameter of shape "...", Unsqueezes whose axes are an input."""
    ov, ops = _ov()
    x = ops.parameter(ov.PartialShape.dynamic(), np.float32, name="x")
    axes = ops.parameter([1], np.int64, name="axes")
    fixed = ops.parameter([2, 3, 4], np.float32, name="fixed")
    r = ops.relu(x)
    outs = [ops.result(ops.unsqueeze(r, axes), name="u"), ops.result(ops.unsqueeze(fixed, axes), name="fu"),
            ops.result(ops.reduce_sum(fixed, axes, True), name="fs"), ops.result(r, name="r")]
    return ov.Model(outs, [x, axes, fixed], "dynamic_rank")


def ti_dynamic_slice(start: int, end: int, stride: int):
    """A TensorIterator slicing x [?,3] on axis 0 with the given attributes, concatenating 2 * slice."""
    ov, ops = _ov()
    x = ops.parameter([-1, 3], np.float32, name="x")
    xi = ops.parameter([1, 3], np.float32)
    r = ops.result(ops.multiply(xi, ops.constant(np.float32(2))))
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([r], [xi]))
    ti.set_sliced_input(xi, x.output(0), start, stride, 1, end, 0)
    out = ti.get_concatenated_slices(r.output(0), 0, 1, 1, -1, 0)
    return ov.Model([ops.result(out, name="y")], [x], "ti_dynamic_slice")


def ti_dynamic_parts(end: int, part: int):
    """A TensorIterator slicing x [?,3] on axis 0 from 0 to `end` in parts (and stride) of `part`,
    concatenating 2 * slice."""
    ov, ops = _ov()
    x = ops.parameter([-1, 3], np.float32, name="x")
    xi = ops.parameter([part, 3], np.float32)
    r = ops.result(ops.multiply(xi, ops.constant(np.float32(2))))
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([r], [xi]))
    ti.set_sliced_input(xi, x.output(0), 0, part, part, end, 0)
    out = ti.get_concatenated_slices(r.output(0), 0, part, part, -1, 0)
    return ov.Model([ops.result(out, name="y")], [x], "ti_dynamic_parts")


def ti_invariant_concat(end: int, part: int):
    """A TensorIterator without a sliced input: x [?,?] an invariant input, Relu(x) concatenated along axis 1
    from 0 to `end` in parts (and stride) of `part`; OpenVINO's core counts |end| // part iterations."""
    ov, ops = _ov()
    x = ops.parameter([-1, -1], np.float32, name="x")
    xi = ops.parameter([-1, -1], np.float32)
    r = ops.result(ops.relu(xi))
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([r], [xi]))
    ti.set_invariant_input(xi, x.output(0))
    out = ti.get_concatenated_slices(r.output(0), 0, part, part, end, 1)
    return ov.Model([ops.result(out, name="y")], [x], "ti_invariant_concat")


def loop_reshape_part(target: list[int] | None):
    """A Loop slicing x [?] on axis 0 (trip count 2) into a body Parameter [1], Reshaped to `target`
    (None: a Relu instead); the last value is the output."""
    ov, ops = _ov()
    x = ops.parameter([-1], np.float32, name="x")
    xi = ops.parameter([1], np.float32)
    y = ops.relu(xi) if target is None else ops.reshape(xi, ops.constant(np.array(target, np.int64)), False)
    r, c = ops.result(y), ops.result(ops.constant(np.bool_(True)))
    loop = ops.loop(ops.constant(np.int64(2)), ops.constant(np.bool_(True)))
    loop.set_function(ov.Model([r, c], [xi]))
    loop.set_special_body_ports([-1, 1])
    loop.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 0)
    return ov.Model([ops.result(loop.get_iter_value(r.output(0), -1), name="y")], [x], "loop_reshape_part")


def scalar_add():
    ov, ops = _ov()
    x = ops.parameter([3], np.float32, name="x")
    return ov.Model([ops.result(ops.add(x, ops.constant(np.float32(2))), name="y")], [x], "scalar_add")


def every_type():
    """A Parameter and a Result of every element type OpenVINO has."""
    ov, ops = _ov()
    names = sorted(n for n in dir(ov.Type) if isinstance(getattr(ov.Type, n), ov.Type) and n != "dynamic")
    params = [ops.parameter([3], getattr(ov.Type, n), name=f"p_{n}") for n in names]
    return ov.Model([ops.result(p) for p in params], params, "every_type")


def prelu_last_axis():
    """PRelu with a slope [4] on [1,3,4]: broadcast over the last axis, as OpenVINO computes it."""
    ov, ops = _ov()
    x = ops.parameter([1, 3, 4], np.float32, name="x")
    slope = ops.constant(np.array([0.1, 0.2, 0.3, 0.4], np.float32))
    return ov.Model([ops.result(ops.prelu(x, slope), name="y")], [x], "prelu_last_axis")


def convert_chain():
    """Small constants through Converts to bf16 and f8 and from nf4 and u3 (valid; some not computable by irlint)."""
    ov, ops = _ov()
    x = ops.parameter([4], np.float32, name="x")
    c = ops.constant(np.array([1.5, -2.0, 0.25, 3.0], np.float32))
    acc = x
    for t in (ov.Type.bf16, ov.Type.f8e4m3, ov.Type.f8e5m2, ov.Type.f16):
        acc = ops.add(acc, ops.convert(ops.convert(c, t), ov.Type.f32))
    for t in (ov.Type.nf4, ov.Type.u3, ov.Type.u6, ov.Type.f4e2m1, ov.Type.i4):
        packed = ops.constant(np.array([1.0, 0.0, 1.0, 0.0], np.float32), dtype=t)
        acc = ops.add(acc, ops.convert(packed, ov.Type.f32))
    return ov.Model([ops.result(acc, name="y")], [x], "convert_chain")


def reshape_pattern():
    """x [6] reshaped to [2, 3] by a constant target shape."""
    ov, ops = _ov()
    x = ops.parameter([6], np.float32, name="x")
    y = ops.reshape(x, ops.constant(np.array([2, 3], np.int64)), False)
    return ov.Model([ops.result(y, name="y")], [x], "reshape_pattern")


_PATTERN_PORT = '<port id="1" precision="I64">\n\t\t\t\t\t<dim>2</dim>\n\t\t\t\t</port>'
_PATTERN_OUT = '<port id="0" precision="I64">\n\t\t\t\t\t<dim>2</dim>\n\t\t\t\t</port>'


def _pattern_edits(shape: str, dims: str, size: str) -> tuple[Edit, ...]:
    """reshape_pattern's target-shape Const redeclared as `shape` (its `<data>`, its port, the Reshape's port)."""
    return (Edit('shape="2" offset="0" size="16"', f'shape="{shape}" offset="0" size="{size}"', ()),
            Edit(_PATTERN_OUT, f'<port id="0" precision="I64">{dims}</port>', (), after='type="Const"'),
            Edit(_PATTERN_PORT, f'<port id="1" precision="I64">{dims}</port>', (), after='type="Reshape"'),
            Edit('type="Reshape"', 'type="Reshape"', ("T210",)))


def ti_dynamic_type():
    """A TI whose body Parameters are of dynamic element type (openvino writes it so)."""
    ov, ops = _ov()
    x = ops.parameter([1, 5, 4], np.float32, name="X")
    h = ops.parameter([1, 4], np.float32, name="H")
    xi = ops.parameter([1, 1, 4], ov.Type.dynamic)
    hi = ops.parameter([1, 4], ov.Type.dynamic)
    h2 = ops.tanh(ops.add(ops.reshape(xi, ops.constant(np.array([1, 4], np.int64)), False), hi))
    ro = ops.result(h2)
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([ro], [xi, hi]))
    ti.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(hi, h.output(0), ro.output(0))
    return ov.Model([ops.result(ti.get_iter_value(ro.output(0), -1), name="Y")], [x, h], "ti_dynamic_type")


def loop_dynamic_type_text(text: str) -> str:
    """The small Loop's body state Parameter (the second `shape="3"` Parameter, after the outer x) edited to
    element_type="dynamic": OpenVINO takes the outer type, compiles and runs it correctly."""
    old = '<data shape="3" element_type="f32" />'
    at = text.index(old, text.index(old) + 1)
    return text[:at] + '<data shape="3" element_type="dynamic" />' + text[at + len(old):]


def small_loop():
    ov, ops = _ov()
    x = ops.parameter([3], np.float32, name="x")
    acc = ops.parameter([3], np.float32)
    r = ops.result(ops.add(acc, ops.constant(np.ones(3, np.float32))))
    c = ops.result(ops.constant(np.array([True])))
    loop = ops.loop(ops.constant(np.int64(4)), ops.constant(np.array([True])))
    loop.set_function(ov.Model([r, c], [acc]))
    loop.set_special_body_ports([-1, 1])
    loop.set_merged_input(acc, x.output(0), r.output(0))
    return ov.Model([ops.result(loop.get_iter_value(r.output(0), -1), name="y")], [x], "small_loop")


def loop_unsqueeze_dynamic_axes():
    """A Loop whose body Unsqueezes by axes given as an input: OpenVINO writes the outputs without dims
    (a dynamic rank) where irlint knows the rank (3) but not the dims."""
    ov, ops = _ov()
    x = ops.parameter([2, 3], np.float32, name="x")
    axes = ops.parameter([1], np.int64, name="axes")
    xb = ops.parameter([2, 3], np.float32)
    ab = ops.parameter([1], np.int64)
    r = ops.result(ops.unsqueeze(ops.relu(xb), ab))
    c = ops.result(ops.constant(np.array([True])))
    loop = ops.loop(ops.constant(np.int64(2)), ops.constant(np.array([True])))
    loop.set_function(ov.Model([r, c], [xb, ab]))
    loop.set_special_body_ports([-1, 1])
    loop.set_invariant_input(xb, x.output(0))
    loop.set_invariant_input(ab, axes.output(0))
    return ov.Model([ops.result(loop.get_iter_value(r.output(0), -1), name="y")], [x, axes], "loop_unsqueeze")


def if_dead_branch_add():
    """A constant-true If built on a dynamic-rank x and reshaped to [2,3]: the else branch, which never
    runs, keeps its Parameter of dynamic rank and adds a [5] constant to it. OpenVINO reads, compiles
    and runs it; declared [2,3] (what the If feeds it), OpenVINO refuses it at read."""
    ov, ops = _ov()
    import openvino.opset8 as ops8

    x = ops.parameter(ov.PartialShape.dynamic(), np.float32, name="x")
    tx, ex = ops.parameter(ov.PartialShape.dynamic(), np.float32), ops.parameter(ov.PartialShape.dynamic(), np.float32)
    tr = ops.result(ops.relu(tx))
    er = ops.result(ops.add(ex, ops.constant(np.arange(5, dtype=np.float32))))
    iff = ops8.if_op(ops.constant(np.bool_(True)))
    iff.set_then_body(ov.Model([tr], [tx]))
    iff.set_else_body(ov.Model([er], [ex]))
    iff.set_input(x.output(0), tx, ex)
    m = ov.Model([ops.result(iff.set_output(tr, er), name="y")], [x], "if_dead_branch_add")
    m.reshape({"x": [2, 3]})
    return m


def loop_without_current_iteration(read: bool):
    """A Loop built with `set_special_body_ports([-1, 1])` (no current_iteration) whose body keeps the
    Parameter meant for the iteration number, nothing feeding it; `read`: the body adds it to the
    state. OpenVINO reads, compiles and runs both; the CPU plugin gives the Parameter zeros."""
    ov, ops = _ov()
    x = ops.parameter([3], np.float32, name="x")
    acc = ops.parameter([3], np.float32)
    it = ops.parameter([], np.int64, name="iter")
    nxt = ops.add(acc, ops.constant(np.ones(3, np.float32)))
    if read:
        nxt = ops.add(nxt, ops.convert(it, np.float32))
    r = ops.result(nxt)
    c = ops.result(ops.constant(np.array([True])))
    loop = ops.loop(ops.constant(np.int64(4)), ops.constant(np.array([True])))
    loop.set_function(ov.Model([r, c], [acc, it]))
    loop.set_special_body_ports([-1, 1])
    loop.set_merged_input(acc, x.output(0), r.output(0))
    return ov.Model([ops.result(loop.get_iter_value(r.output(0), -1), name="y")], [x], "loop_without_iteration")


def param_dynamic_rank():
    """A model input of dynamic rank (OpenVINO reads it; its CPU plugin cannot compile it)."""
    ov, ops = _ov()
    x = ops.parameter(ov.PartialShape.dynamic(), np.float32, name="x")
    return ov.Model([ops.result(ops.relu(x), name="y")], [x], "param_dynamic_rank")


def loop_widened_state(output_state: bool = True):
    """A Loop whose state Parameter p is [] and whose back edge carries Reshape(p + 1, [1]): OpenVINO's core
    widens p to a dynamic rank where that Result is also an output (`output_state`), and the CPU plugin
    refuses the Parameter; otherwise (only 2 * p is an output) it keeps p as [] and compiles."""
    ov, ops = _ov()
    x = ops.parameter([], np.float32, name="x")
    p = ops.parameter([], np.float32)
    state = ops.result(ops.reshape(ops.add(p, ops.constant(np.float32(1))),
                                   ops.constant(np.array([1], np.int64)), False))
    doubled = ops.result(ops.multiply(p, ops.constant(np.float32(2))))
    loop = ops.loop(ops.constant(np.int64(3)), ops.constant(np.bool_(True)))
    results = [state, ops.result(ops.constant(np.bool_(True)))] + ([] if output_state else [doubled])
    loop.set_function(ov.Model(results, [p]))
    loop.set_special_body_ports([-1, 1])
    loop.set_merged_input(p, x.output(0), state.output(0))
    out = state if output_state else doubled
    return ov.Model([ops.result(loop.get_iter_value(out.output(0), -1), name="y")], [x], "loop_widened_state")


def loop_state_of_other_rank():
    """A Loop whose state p takes an initial x of [?,?] (of one element) and, over its back edge,
    Sigmoid(Reshape(Reshape(p, [1]), [])) of shape [] (also the Loop's output): OpenVINO's core widens p to
    a dynamic rank whatever p declares. The failing fixture's edit declares p as [] (the XML then
    contradicts what p receives, which OpenVINO ignores)."""
    ov, ops = _ov()
    x = ops.parameter([-1, -1], np.float32, name="x")
    p = ops.parameter([], np.float32, name="p")
    one = ops.reshape(p, ops.constant(np.array([1], np.int64)), False)
    scalar = ov.op.Constant(ov.Type.i64, ov.Shape([0]), [])
    state = ops.result(ops.sigmoid(ops.reshape(one, scalar, False)))
    loop = ops.loop(ops.constant(np.int64(3)), ops.constant(np.bool_(True)))
    loop.set_function(ov.Model([state, ops.result(ops.constant(np.bool_(True)))], [p]))
    loop.set_special_body_ports([-1, 1])
    loop.set_merged_input(p, x.output(0), state.output(0))
    return ov.Model([ops.result(loop.get_iter_value(state.output(0), -1), name="y")], [x], "loop_state_of_other_rank")


def _declare_scalar_state(text: str) -> str:
    """Declare the body Parameter 'p' as [] (its <data> and its port) and mark it for T213."""
    at = text.index('name="p" type="Parameter"')
    end = text.index("</layer>", at)
    layer = text[at:end].replace('shape="?,?"', 'shape=""').replace(
        "\n\t\t\t\t\t\t\t\t<dim>-1</dim>\n\t\t\t\t\t\t\t\t<dim>-1</dim>", "")
    return _mark_line(text[:at] + layer + text[end:], 'name="p" type="Parameter"', "T213")


def iteration_loop(ops, ov, acc, etype, trip):
    """A Loop of `trip` iterations (an int or a tensor) adding its current_iteration Parameter, of element
    type `etype` and Converted to f32, to `acc` (a [?] f32 carried value); returns its last value."""
    xb, it = ops.parameter(acc.get_partial_shape(), np.float32), ops.parameter([], etype)
    r = ops.result(ops.add(xb, ops.convert(it, np.float32)))
    loop = ops.loop(trip if not isinstance(trip, int) else ops.constant(np.int64(trip)), ops.constant(np.bool_(True)))
    loop.set_function(ov.Model([r, ops.result(ops.constant(np.bool_(True)))], [xb, it]))
    loop.set_special_body_ports([1, 1])
    loop.set_merged_input(xb, acc, r.output(0))
    return loop.get_iter_value(r.output(0), -1)


def loop_typed_iteration(etype=np.uint32, length: int = 2, trip_input: bool = False):
    """y = x + 0 + 1 + 2: a Loop (trip count 3, or the input `n` when `trip_input`) adding its
    current_iteration Parameter of element type `etype` (i32/i64 per the spec) to x [length] (-1: a
    dynamic length)."""
    ov, ops = _ov()
    x = ops.parameter([length], np.float32, name="x")
    params = [x]
    trip = 3
    if trip_input:
        trip = ops.parameter([], np.int64, name="n")
        params.append(trip)
    return ov.Model([ops.result(iteration_loop(ops, ov, x.output(0), etype, trip), name="y")], params,
                    "loop_typed_iteration")


def loop_iteration_nested(etype=np.float32, dynamic: bool = True, read: bool = True, fixed: bool = False):
    """An outer Loop whose body runs the current_iteration Loop of `loop_typed_iteration` (3 iterations) on
    its carried value (with `fixed`, reshaped to [2]: static even in a dynamic body): with `dynamic`, on x [?] for `n`
    iterations (an input), else on x [2] for 2; with `read` false, the inner Loop gives only an outer
    output nothing reads, and the outer Loop's output y adds 1 per iteration."""
    ov, ops = _ov()
    x = ops.parameter([-1 if dynamic else 2], np.float32, name="x")
    params = [x]
    trip = ops.constant(np.int64(2))
    if dynamic:
        trip = ops.parameter([], np.int64, name="n")
        params.append(trip)
    ob = ops.parameter([2], np.float32)
    acc = ops.reshape(ob, ops.constant(np.array([2], np.int64)), False) if fixed else ob
    inner = iteration_loop(ops, ov, acc.output(0), etype, 3)
    kept = ops.result(inner if read else ops.add(ob, ops.constant(np.ones(2, np.float32))))
    results = [kept, ops.result(ops.constant(np.bool_(True)))]
    if not read:
        results.append(ops.result(inner))
    outer = ops.loop(trip, ops.constant(np.bool_(True)))
    outer.set_function(ov.Model(results, [ob]))
    outer.set_special_body_ports([-1, 1])
    outer.set_merged_input(ob, x.output(0), kept.output(0))
    y = outer.get_iter_value(kept.output(0), -1)
    if not read:
        outer.get_iter_value(results[2].output(0), -1)  # an output nothing reads
    return ov.Model([ops.result(y, name="y")], params, "loop_iteration_nested")


def loop_condition_nested(etype=np.int32, read: bool = True):
    """An outer Loop (2 iterations) over x [2] whose body runs an inner Loop (3 iterations, adding 1) whose
    body condition, true throughout, is computed in element type `etype`; with `read` false the inner Loop
    gives only an outer output nothing reads, and the outer Loop's output y adds 1 per iteration."""
    ov, ops = _ov()
    x = ops.parameter([2], np.float32, name="x")
    ob, ip = ops.parameter([2], np.float32), ops.parameter([2], np.float32)
    step = ops.result(ops.add(ip, ops.constant(np.ones(2, np.float32))))
    total = ops.reduce_sum(ip, ops.constant(np.array([0], np.int64)), False)
    cond = ops.result(ops.convert(ops.greater(total, ops.constant(np.float32(-1e9))), etype))
    inner = ops.loop(ops.constant(np.int64(3)), ops.constant(np.bool_(True)))
    inner.set_function(ov.Model([step, cond], [ip]))
    inner.set_special_body_ports([-1, 1])
    inner.set_merged_input(ip, ob.output(0), step.output(0))
    value = inner.get_iter_value(step.output(0), -1)
    kept = ops.result(value if read else ops.add(ob, ops.constant(np.ones(2, np.float32))))
    results = [kept, ops.result(ops.constant(np.bool_(True)))] + ([] if read else [ops.result(value)])
    outer = ops.loop(ops.constant(np.int64(2)), ops.constant(np.bool_(True)))
    outer.set_function(ov.Model(results, [ob]))
    outer.set_special_body_ports([-1, 1])
    outer.set_merged_input(ob, x.output(0), kept.output(0))
    y = outer.get_iter_value(kept.output(0), -1)
    if not read:
        outer.get_iter_value(results[2].output(0), -1)  # an output nothing reads
    return ov.Model([ops.result(y, name="y")], [x], "loop_condition_nested")


def loop_typed_condition(etype=np.uint8, length: int = 5):
    """A Loop (trip count 5) whose body condition is the current iteration's entry of an input table t
    [length] (-1: a dynamic length), of element type `etype` (boolean per the spec; OpenVINO's CPU plugin
    also runs u8, nonzero as true); the iteration numbers are concatenated into `ks`."""
    ov, ops = _ov()
    outer = ops.parameter([length], etype, name="t")
    it, table = ops.parameter([], np.int64), ops.parameter([length], etype)
    cond = ops.result(ops.gather(table, it, ops.constant(np.int64(0))))
    k = ops.result(ops.unsqueeze(it, ops.constant(np.array([0], np.int64))))
    loop = ops.loop(ops.constant(np.int64(5)), ops.constant(np.bool_(True)))
    loop.set_function(ov.Model([cond, k], [it, table]))
    loop.set_special_body_ports([0, 0])
    loop.set_invariant_input(table, outer.output(0))
    out = loop.get_concatenated_slices(k.output(0), 0, 1, 1, -1, 0)
    return ov.Model([ops.result(out, name="ks")], [outer], "loop_typed_condition")


def param_dynamic_dims():
    """A model input of known rank with dynamic dims: the CPU plugin compiles it."""
    ov, ops = _ov()
    x = ops.parameter([-1, 3], np.float32, name="x")
    return ov.Model([ops.result(ops.relu(x), name="y")], [x], "param_dynamic_dims")


def param_dynamic_type():
    """A model input of element type dynamic (OpenVINO reads it; its CPU plugin cannot compile it)."""
    ov, ops = _ov()
    x = ops.parameter([3], ov.Type.dynamic, name="x")
    return ov.Model([ops.result(ops.relu(x), name="y")], [x], "param_dynamic_type")


def loop_scalar_state_output():
    """A Loop whose back edge carries a [] Result into a [1] Parameter, the Result also being the Loop's
    output: OpenVINO widens the Parameter to a dynamic rank and its CPU plugin refuses the Loop."""
    ov, ops = _ov()
    x = ops.parameter([1], np.float32, name="x")
    acc = ops.parameter([1], np.float32)
    s = ops.reduce_sum(ops.add(acc, ops.constant(np.ones(1, np.float32))), ops.constant(np.array([0], np.int64)),
                       False)
    r = ops.result(s)
    c = ops.result(ops.constant(np.array([True])))
    loop = ops.loop(ops.constant(np.int64(3)), ops.constant(np.array([True])))
    loop.set_function(ov.Model([r, c], [acc]))
    loop.set_special_body_ports([-1, 1])
    loop.set_merged_input(acc, x.output(0), r.output(0))
    return ov.Model([ops.result(loop.get_iter_value(r.output(0), -1), name="y")], [x], "loop_scalar_state_output")


def if_rank_differs():
    """An If on a runtime condition whose branches give [2,3] and [6]: a dynamic-rank output."""
    ov, ops = _ov()
    c, x = ops.parameter([], np.bool_, name="c"), ops.parameter([2, 3], np.float32, name="x")
    out = _if_branches(c, x, ops.relu, lambda t: ops.reshape(t, ops.constant(np.array([6], np.int64)), False), [2, 3])
    return ov.Model([ops.result(out, name="y")], [c, x], "if_rank_differs")


def if_unfed_unread():
    """An If whose then branch keeps a Parameter that nothing feeds and nothing reads: OpenVINO reads,
    compiles and runs it (then = Relu(x))."""
    ov, ops = _ov()
    c, x = ops.parameter([], np.bool_, name="c"), ops.parameter([3], np.float32, name="x")
    tx, extra, ex = (ops.parameter([3], np.float32, name=n) for n in ("tx", "extra", "ex"))
    tr, er = ops.result(ops.relu(tx)), ops.result(ops.negative(ex))
    iff = _ops8().if_op(c)
    iff.set_then_body(ov.Model([tr], [tx, extra]))
    iff.set_else_body(ov.Model([er], [ex]))
    iff.set_input(x.output(0), tx, ex)
    return ov.Model([ops.result(iff.set_output(tr, er), name="y")], [c, x], "if_unfed_unread")


def f16_round_trip(through_relu: bool = False):
    """x (f32) converted to f16 (through a Relu in f16 with `through_relu`) and back to f32: the CPU
    plugin computes f16 in f32, so neither Convert rounds there."""
    ov, ops = _ov()
    x = ops.parameter([4], np.float32, name="x")
    half = ops.convert(x, ov.Type.f16)
    mid = ops.relu(half) if through_relu else half
    return ov.Model([ops.result(ops.convert(mid, ov.Type.f32), name="y")], [x], "f16_round_trip")


def f16_rounded_pairs():
    """Round trips the CPU plugin rounds: of a constant (folded), through bf16, and an f16 model output."""
    ov, ops = _ov()
    x = ops.parameter([4], np.float32, name="x")
    c = ops.constant(np.array([1.0001, 3.14159, 1000.1234, 7.5], np.float32))
    folded = ops.convert(ops.convert(c, ov.Type.f16), ov.Type.f32)
    bf = ops.convert(ops.convert(x, ov.Type.bf16), ov.Type.f32)
    y = ops.add(bf, folded)
    return ov.Model([ops.result(y, name="y"), ops.result(ops.convert(x, ov.Type.f16), name="half")], [x],
                    "f16_rounded_pairs")


def f16_computed(exact: bool = False):
    """x (f16) times itself, summed, read back as f32 (y): the CPU plugin computes the f16 ops in f32. With
    `exact`, only ops that move f16 values (Relu, Reshape) and a decompressed f16 Const lead to y, and the
    computed f16 sum is an f16 output (half): nothing is rounded differently."""
    ov, ops = _ov()
    x = ops.parameter([4], np.float16, name="x")
    w = ops.convert(ops.constant(np.array([0.5, 1.5, 2.5, 3.5], np.float16)), ov.Type.f32)
    if exact:
        moved = ops.reshape(ops.relu(x), ops.constant(np.array([4], np.int64)), False)
        y = ops.add(ops.convert(moved, ov.Type.f32), w)
        half = ops.reduce_sum(ops.multiply(x, x), ops.constant(np.array([0], np.int64)), True)
        return ov.Model([ops.result(y, name="y"), ops.result(half, name="half")], [x], "f16_moved")
    prod = ops.multiply(x, x)
    total = ops.reduce_sum(prod, ops.constant(np.array([0], np.int64)), True)
    y = ops.add(ops.convert(total, ov.Type.f32), w)
    return ov.Model([ops.result(y, name="y")], [x], "f16_computed")


def f16_across_bodies(kind: str):
    """An f16 value rounded on one side of a body boundary and read back as f32 on the other: the CPU plugin
    rounds none of them. `kind` "into-loop": x converted to f16 outside, read as f32 in a Loop body; "into-if":
    the same through both branches of an If; "out-of-loop": converted to f16 in the body, read as f32 after the
    Loop; "back-edge": converted to f16 in the body, fed back, read as f32 in the next iteration; "f16-output":
    converted to f16 in a Loop body and leaving the model as an f16 output (rounded there: no finding);
    "op-after": converted to f16 in the body, added to itself in f16 after the Loop, read as f32 (the Convert
    carries the finding, the Add of a rounded value none of its own)."""
    ov, ops = _ov()
    x = ops.parameter([4], np.float32, name="x")
    true = ops.constant(np.array(True))
    if kind == "into-if":
        c = ops.parameter([], np.bool_, name="c")
        half = ops.convert(x, ov.Type.f16)
        tb, eb = ops.parameter([4], np.float16), ops.parameter([4], np.float16)
        rt = ops.result(ops.convert(tb, ov.Type.f32))
        re_ = ops.result(ops.relu(ops.convert(eb, ov.Type.f32)))
        branch = ops.if_op(c)
        branch.set_then_body(ov.Model([rt], [tb]))
        branch.set_else_body(ov.Model([re_], [eb]))
        branch.set_input(half.output(0), tb, eb)
        return ov.Model([ops.result(branch.set_output(rt, re_), name="y")], [x, c], "f16_into_if")
    loop = ops.loop(ops.constant(np.int64(2)), true)
    cond = ops.result(ops.constant(np.array(True)))
    if kind == "into-loop":
        half = ops.convert(x, ov.Type.f16)
        hb = ops.parameter([4], np.float16)
        r = ops.result(ops.convert(hb, ov.Type.f32))
        loop.set_function(ov.Model([r, cond], [hb]))
        loop.set_special_body_ports([-1, 1])
        loop.set_invariant_input(hb, half.output(0))
        return ov.Model([ops.result(loop.get_iter_value(r.output(0), -1), name="y")], [x], "f16_into_loop")
    xb = ops.parameter([4], np.float32)
    r = ops.result(ops.convert(xb, ov.Type.f16))
    if kind == "back-edge":
        hb = ops.parameter([4], np.float16)
        ry = ops.result(ops.convert(hb, ov.Type.f32))
        loop.set_function(ov.Model([r, ry, cond], [xb, hb]))
        loop.set_special_body_ports([-1, 2])
        loop.set_invariant_input(xb, x.output(0))
        loop.set_merged_input(hb, ops.constant(np.zeros(4, np.float16)).output(0), r.output(0))
        return ov.Model([ops.result(loop.get_iter_value(ry.output(0), -1), name="y")], [x], "f16_back_edge")
    loop.set_function(ov.Model([r, cond], [xb]))
    loop.set_special_body_ports([-1, 1])
    loop.set_invariant_input(xb, x.output(0))
    out = loop.get_iter_value(r.output(0), -1)
    if kind == "f16-output":
        return ov.Model([ops.result(out, name="y")], [x], "f16_loop_output")
    if kind == "op-after":
        y = ops.convert(ops.add(out, out), ov.Type.f32)
        return ov.Model([ops.result(y, name="y")], [x], "f16_op_after_loop")
    return ov.Model([ops.result(ops.convert(out, ov.Type.f32), name="y")], [x], "f16_out_of_loop")


def f16_fed_back_op(chain: bool = False):
    """An f16 Tanh in a Loop body fed back to its own input and read as f32 in the next iteration: the Tanh
    reads x unrounded in the first iteration, so it is the first op of its chain to round and carries the
    finding; the CPU plugin computes it in f32. `chain`: two Tanh in a row fed back (the first carries it)."""
    ov, ops = _ov()
    x = ops.parameter([4], np.float16, name="x")
    loop = ops.loop(ops.constant(np.int64(2)), ops.constant(np.array(True)))
    hb = ops.parameter([4], np.float16)
    first = ops.tanh(hb, name="first")
    rt = ops.result(ops.tanh(first, name="second") if chain else first)
    ry = ops.result(ops.convert(hb, ov.Type.f32))
    cond = ops.result(ops.constant(np.array(True)))
    loop.set_function(ov.Model([rt, ry, cond], [hb]))
    loop.set_special_body_ports([-1, 2])
    loop.set_merged_input(hb, x.output(0), rt.output(0))
    return ov.Model([ops.result(loop.get_iter_value(ry.output(0), -1), name="y")], [x], "f16_fed_back_op")


def swish_pattern(refused: bool):
    """x * Sigmoid(x * b), b a [1] Parameter: fused into a Swish the CPU plugin refuses. Not `refused`: the
    same with b * x inside and Sigmoid * x outside (not fused), with b a [1] Const and with b of shape []."""
    ov, ops = _ov()
    x = ops.parameter([1, 3], np.float32, name="x")
    b = ops.parameter([1], np.float32, name="b")
    if refused:
        y = ops.multiply(x, ops.sigmoid(ops.multiply(x, b)))
        return ov.Model([ops.result(y, name="y")], [x, b], "swish_refused")
    s = ops.parameter([], np.float32, name="s")
    swapped = ops.multiply(ops.sigmoid(ops.multiply(b, x)), x)
    folded = ops.multiply(x, ops.sigmoid(ops.multiply(x, ops.constant(np.array([0.7], np.float32)))))
    scalar = ops.multiply(x, ops.sigmoid(ops.multiply(x, s)))
    return ov.Model([ops.result(swapped, name="y"), ops.result(folded, name="z"), ops.result(scalar, name="w")],
                    [x, b, s], "swish_compiled")


def _invariant_loop(ov, ops, body_outputs, params, feeds):
    """A Loop running its body once, each body Parameter of `params` fed the outer value in `feeds`; its
    outputs the last values of the body Results `body_outputs`."""
    loop = ops.loop(ops.constant(np.int64(1)), ops.constant(True))
    loop.set_function(ov.Model([*body_outputs, ops.result(ops.constant(True))], params))
    loop.set_special_body_ports([-1, len(body_outputs)])
    for p, v in zip(params, feeds):
        loop.set_invariant_input(p, v.output(0))
    return [loop.get_iter_value(r.output(0), -1) for r in body_outputs]


def ti_without_inputs(kind: str):
    """TensorIterators OpenVINO leaves without inputs (PM416), y = TI(...) + q. "fail": one constant invariant
    input; "fail-removed": a constant invariant input beside a sliced model input whose Parameter only an
    unread output reads; "fail-loop": the first in a Loop body; "pass": a constant invariant input beside
    one fed by q, a constant merged input, a constant sliced input (each runs on the CPU plugin)."""
    ov, ops = _ov()
    q = ops.parameter([1], np.float32, name="q")

    def ti(inputs):  # inputs: (how, source) with how "invariant", "merged" or "sliced"; one body Result
        params = [ops.parameter([1], np.float32) for _ in inputs]
        total = params[0]
        for extra in params[1:]:
            total = ops.add(total, extra)
        r = ops.result(ops.add(total, total))
        node = ops.tensor_iterator()
        node.set_body(ov.Model([r], params))
        for p, (how, src) in zip(params, inputs):
            if how == "invariant":
                node.set_invariant_input(p, src.output(0))
            elif how == "merged":
                node.set_merged_input(p, src.output(0), r.output(0))
            else:
                node.set_sliced_input(p, src.output(0), 0, 1, 1, -1, 0)
        return node, r

    two = ops.constant(np.full([1], 2, np.float32))
    if kind == "fail":
        node, r = ti([("invariant", two)])
        outs = [ops.result(ops.add(node.get_iter_value(r.output(0), -1), q), name="y")]
    elif kind == "fail-removed":
        x = ops.parameter([3], np.float32, name="x")
        p, c = ops.parameter([1], np.float32), ops.parameter([1], np.float32)
        unread, kept = ops.result(ops.relu(p)), ops.result(ops.add(c, c))
        node = ops.tensor_iterator()
        node.set_body(ov.Model([unread, kept], [p, c]))
        node.set_sliced_input(p, x.output(0), 0, 1, 1, -1, 0)
        node.set_invariant_input(c, two.output(0))
        node.get_concatenated_slices(unread.output(0), 0, 1, 1, -1, 0)
        outs = [ops.result(ops.add(node.get_iter_value(kept.output(0), -1), q), name="y")]
        return ov.Model(outs, [x, q], "ti_without_inputs_removed")
    elif kind == "fail-loop":
        bq = ops.parameter([1], np.float32)
        node, r = ti([("invariant", two)])
        (y,) = _invariant_loop(ov, ops, [ops.result(ops.add(node.get_iter_value(r.output(0), -1), bq))], [bq], [q])
        outs = [ops.result(y, name="y")]
    else:
        outs = []
        for i, inputs in enumerate(([("invariant", two), ("invariant", q)], [("merged", two)],
                                    [("sliced", ops.constant(np.arange(3, dtype=np.float32)))])):
            node, r = ti(inputs)
            outs.append(ops.result(ops.add(node.get_iter_value(r.output(0), -1), q), name=f"y{i}"))
    return ov.Model(outs, [q], f"ti_without_inputs_{kind.replace('-', '_')}")


def int_activation_fusion(kind: str):
    """A u8 activation read only by an eltwise op in a body, which the CPU plugin fuses and computes in f32
    (T219). "fail": m + Sigmoid(a) in a Loop body; "fail-if": m * Exp(a) in an If branch (condition a
    Parameter); "fail-folded-if": the Sigmoid in an If of constant condition in the body, the Add after the
    If; "pass": an i32 pair in a Loop body, the u8 pair at the top level, a u8 Sigmoid read also
    by a Result, m / Sqrt(a) (Divide on input 1) and the u8 pair in an If of constant condition;
    "fail-reshapes": m + Reshape(Reshape(Sigmoid(a), [1,1]), [1]) in a Loop body (OpenVINO removes the pair);
    "pass-reshapes": Reshapes (and Unsqueezes) to [1,1] on both inputs of the Add, which keep it apart."""
    ov, ops = _ov()
    m, a = ops.parameter([1], np.uint8, name="m"), ops.parameter([1], np.uint8, name="a")
    if kind == "fail":
        bm, ba = ops.parameter([1], np.uint8), ops.parameter([1], np.uint8)
        (y,) = _invariant_loop(ov, ops, [ops.result(ops.add(bm, ops.sigmoid(ba)))], [bm, ba], [m, a])
        return ov.Model([ops.result(y, name="y")], [m, a], "int_activation_loop")
    if kind == "fail-if":
        c = ops.parameter([], np.bool_, name="c")
        node = ops.if_op(c)
        tm, ta, em, ea = (ops.parameter([1], np.uint8) for _ in range(4))
        rt, re = ops.result(ops.multiply(tm, ops.exp(ta))), ops.result(ops.add(em, ea))
        node.set_then_body(ov.Model([rt], [tm, ta]))
        node.set_else_body(ov.Model([re], [em, ea]))
        node.set_input(m.output(0), tm, em)
        node.set_input(a.output(0), ta, ea)
        return ov.Model([ops.result(node.set_output(rt, re), name="y")], [m, a, c], "int_activation_if")
    if kind == "fail-folded-if":  # the Sigmoid in the taken branch of an If of constant condition, the Add after it
        bm, ba = ops.parameter([1], np.uint8), ops.parameter([1], np.uint8)
        node = ops.if_op(ops.constant(True))
        ta, ea = ops.parameter([1], np.uint8), ops.parameter([1], np.uint8)
        rt, re = ops.result(ops.sigmoid(ta)), ops.result(ops.relu(ea))
        node.set_then_body(ov.Model([rt], [ta]))
        node.set_else_body(ov.Model([re], [ea]))
        node.set_input(ba.output(0), ta, ea)
        (y,) = _invariant_loop(ov, ops, [ops.result(ops.add(bm, node.set_output(rt, re)))], [bm, ba], [m, a])
        return ov.Model([ops.result(y, name="y")], [m, a], "int_activation_folded_if")
    if kind == "fail-chain":  # an i32 Sigmoid read only by a Sigmoid at the top level: fused at every level
        xi = ops.parameter([4], np.int32, name="x")
        return ov.Model([ops.result(ops.sigmoid(ops.sigmoid(xi)), name="y")], [xi], "int_activation_chain")
    if kind == "fail-chain-loop":  # an i8 Sqrt(Sigmoid(x)) in a Loop body: fused there
        xb = ops.parameter([4], np.int8, name="x")
        bx = ops.parameter([4], np.int8)
        (y,) = _invariant_loop(ov, ops, [ops.result(ops.sqrt(ops.sigmoid(bx)))], [bx], [xb])
        return ov.Model([ops.result(y, name="y")], [xb], "int_activation_chain_loop")
    if kind == "fail-chain-unsigned":  # u16, u32 and u64 Sigmoid(Sigmoid(x)) at the top level: fused there too
        xs = [ops.parameter([4], t, name=f"x{t.__name__[4:]}") for t in (np.uint16, np.uint32, np.uint64)]
        outs = [ops.result(ops.sigmoid(ops.sigmoid(x), name=f"outer{t}"), name=f"y{t}")
                for x, t in zip(xs, (16, 32, 64))]
        return ov.Model(outs, xs, "int_activation_chain_unsigned")
    if kind == "pass-chain":  # an i8 chain at the top level; an i32 Sigmoid read by a Sigmoid and a Result
        x8, xi = ops.parameter([4], np.int8, name="x"), ops.parameter([4], np.int32, name="xi")
        s = ops.sigmoid(xi)
        outs = [ops.result(ops.sqrt(ops.sigmoid(x8)), name="y8"), ops.result(ops.sigmoid(s), name="y"),
                ops.result(s, name="s")]
        return ov.Model(outs, [x8, xi], "int_activation_chain_kept")
    if kind in ("fail-reshapes", "pass-reshapes"):  # Reshapes between the Sigmoid and the Add
        def reshape(x, shape):  # type: ignore[no-untyped-def]
            return ops.reshape(x, ops.constant(np.array(shape, np.int64)), False)

        bodies = ([lambda bm, s: ops.add(bm, reshape(reshape(s, [1, 1]), [1]))] if kind == "fail-reshapes" else
                  [lambda bm, s: ops.add(reshape(bm, [1, 1]), reshape(s, [1, 1])),
                   lambda bm, s: ops.add(ops.unsqueeze(bm, ops.constant(np.int64(0))),
                                         ops.unsqueeze(s, ops.constant(np.int64(0))))])
        outs = []
        for i, body in enumerate(bodies):
            bm, ba = ops.parameter([1], np.uint8), ops.parameter([1], np.uint8)
            (y,) = _invariant_loop(ov, ops, [ops.result(body(bm, ops.sigmoid(ba)))], [bm, ba], [m, a])
            outs.append(ops.result(y, name=f"y{i}" if i else "y"))
        return ov.Model(outs, [m, a], f"int_activation_{kind.replace('-', '_')}")
    mi, ai = ops.parameter([1], np.int32, name="mi"), ops.parameter([1], np.int32, name="ai")
    bmi, bai = ops.parameter([1], np.int32), ops.parameter([1], np.int32)
    (wide,) = _invariant_loop(ov, ops, [ops.result(ops.add(bmi, ops.sigmoid(bai)))], [bmi, bai], [mi, ai])
    top = ops.add(m, ops.sigmoid(a))
    bm, ba = ops.parameter([1], np.uint8), ops.parameter([1], np.uint8)
    s = ops.sigmoid(ba)
    shared, alone = _invariant_loop(ov, ops, [ops.result(ops.add(bm, s)), ops.result(s)], [bm, ba], [m, a])
    dm, da = ops.parameter([1], np.uint8), ops.parameter([1], np.uint8)
    (divided,) = _invariant_loop(ov, ops, [ops.result(ops.divide(dm, ops.sqrt(da)))], [dm, da], [m, a])
    node = ops.if_op(ops.constant(True))
    tm, ta, em, ea = (ops.parameter([1], np.uint8) for _ in range(4))
    rt, re = ops.result(ops.add(tm, ops.sigmoid(ta))), ops.result(ops.add(em, ea))
    node.set_then_body(ov.Model([rt], [tm, ta]))
    node.set_else_body(ov.Model([re], [em, ea]))
    node.set_input(m.output(0), tm, em)
    node.set_input(a.output(0), ta, ea)
    folded = node.set_output(rt, re)
    outs = [ops.result(v, name=n) for v, n in ((wide, "wide"), (top, "top"), (shared, "shared"), (alone, "s"),
                                                (divided, "divided"), (folded, "folded"))]
    return ov.Model(outs, [m, a, mi, ai], "int_activation_kept")


def _scan_state(ov, ops, dtype, step, loop: bool = True, m_read: bool = False):
    """m' = step(x[k], m) over a sliced [4] input x (x[k] of shape [1]) with m a scalar on a back edge,
    in a Loop (trip count 4) or a TensorIterator; every m' concatenated. `m_read`: a Result reads m too."""
    x, m0 = ops.parameter([4], dtype), ops.parameter([], dtype)
    xs, m = ops.parameter([1], dtype), ops.parameter([], dtype)
    r = ops.result(step(xs, m))
    extra = [ops.result(m)] if m_read else []
    if loop:
        node = ops.loop(ops.constant(np.int64(4)), ops.constant(True))
        node.set_function(ov.Model([r, ops.result(ops.constant(True)), *extra], [xs, m]))
        node.set_special_body_ports([-1, 1])
    else:
        node = ops.tensor_iterator()
        node.set_body(ov.Model([r, *extra], [xs, m]))
    node.set_sliced_input(xs, x.output(0), 0, 1, 1, -1, 0)
    node.set_merged_input(m, m0.output(0), r.output(0))
    outs = [node.get_concatenated_slices(r.output(0), 0, 1, 1, -1, 0)]
    return x, m0, outs + [node.get_iter_value(e.output(0), -1) for e in extra]


def in_place_back_edge(kind: str):
    """A back edge passing on an Add/Multiply computed over a reshaped slice (BE507). "fail": Reshape(x[k]) * m
    in f32; "fail-u8-fused": m * Minimum(Reshape(x[k]), 1) in u8 in a TensorIterator; "fail-tail": Reshape(x[k])
    * m through a Relu and Reshapes to [1] and back to [] in f32 in a TensorIterator; "fail-u8-tail": the u8 pair
    through the same tail in a Loop; "pass": m * Reshape(x[k]), the u8 pair in f32, Relu(m) * Minimum(Reshape(x[k]),
    1) in u8, Reshape(x[k]) * m with m also an output, Reshape(x[k]) - m, and Reshape(x[k]) * m reshaped to [1] and
    back to [] (then through a Relu)."""
    ov, ops = _ov()

    def flat(xs):
        return ops.reshape(xs, ops.constant(np.zeros(0, np.int64)), False)

    def low(xs, dtype):
        return ops.minimum(flat(xs), ops.constant(dtype(1)))

    def views(v):  # [] to [1] and back
        return flat(ops.reshape(v, ops.constant(np.array([1], np.int64)), False))

    cases = {
        "fail": (np.float32, lambda xs, m: ops.multiply(flat(xs), m), True),
        "fail-u8-fused": (np.uint8, lambda xs, m: ops.multiply(m, low(xs, np.uint8)), False),
        "fail-tail": (np.float32, lambda xs, m: views(ops.relu(ops.multiply(flat(xs), m))), False),
        "fail-u8-tail": (np.uint8, lambda xs, m: views(ops.relu(ops.multiply(m, low(xs, np.uint8)))), True),
    }
    if kind in cases:
        dtype, step, loop = cases[kind]
        x, m0, (y,) = _scan_state(ov, ops, dtype, step, loop)
        x.set_friendly_name("x")
        m0.set_friendly_name("m0")
        return ov.Model([ops.result(y, name="y")], [x, m0], kind.replace("-", "_"))
    kept = {
        "swapped": (np.float32, lambda xs, m: ops.multiply(m, flat(xs)), False),
        "f32_fused": (np.float32, lambda xs, m: ops.multiply(m, low(xs, np.float32)), False),
        "relu_m": (np.uint8, lambda xs, m: ops.multiply(ops.relu(m), low(xs, np.uint8)), False),
        "m_read": (np.float32, lambda xs, m: ops.multiply(flat(xs), m), True),
        "subtract": (np.float32, lambda xs, m: ops.subtract(flat(xs), m), False),
        "views": (np.float32, lambda xs, m: views(ops.multiply(flat(xs), m)), False),
        "views_relu": (np.float32, lambda xs, m: ops.relu(views(ops.multiply(flat(xs), m))), False),
    }
    params, outs = [], []
    for name, (dtype, step, m_read) in kept.items():
        x, m0, ys = _scan_state(ov, ops, dtype, step, True, m_read)
        x.set_friendly_name(f"x_{name}")
        m0.set_friendly_name(f"m0_{name}")
        params += [x, m0]
        outs += [ops.result(y, name=name + ("_m" if i else "")) for i, y in enumerate(ys)]
    return ov.Model(outs, params, "in_place_kept")


def in_place_over_state(kind: str):
    """Two states s ([1]) and a (a scalar), a' = a + Reshape(s) to [] and s' = E, an Add/Multiply whose input 0
    reads Reshape(a) to [1] (BE507's state case); the last a is the output. "fail": in u8 in a Loop (trip count
    3), E = Convert(Convert(s, i64), u8) * Minimum(Reshape(a), 1); "fail-ti": in f32 in a TensorIterator over a
    sliced [3] input x, E = Reshape(a) * Convert(Convert(s, i64), f32), a' = a + Reshape(s) + Reshape(x[k]);
    "pass": the u8 Loop with s's Parameter and Result first, with a' = a, with E's other operand s itself, with
    it Reshape(Reshape(s)), and in f32. "fail-itself": in u8 in a TensorIterator over a sliced [3] input x,
    s' = s * Minimum(Reshape(a), 1), s read only by E, a' = a + Reshape(x[k]); the last s is the output too."""
    ov, ops = _ov()

    def to(v, shape):
        return ops.reshape(v, ops.constant(np.array(shape, np.int64)), False)

    def through_i64(v, back):
        return ops.convert(ops.convert(v, "i64"), back)

    def fused(s, a, dtype, et):
        return ops.multiply(through_i64(s, et), ops.minimum(to(a, [1]), ops.constant(dtype(1))))

    def state_loop(name, dtype, step, a_step=None, s_first=False, ti=False):
        et = {np.uint8: "u8", np.float32: "f32"}[dtype]
        s0, a0 = ops.parameter([1], dtype, name=f"s0_{name}"), ops.parameter([], dtype, name=f"a0_{name}")
        s, a, xk = ops.parameter([1], dtype), ops.parameter([], dtype), ops.parameter([1], dtype)
        rs = ops.result(step(s, a, dtype, et))
        a1 = a_step(s, a) if a_step is not None else ops.add(a, to(s, []))
        ra = ops.result(ops.add(a1, to(xk, [])) if ti else a1)  # the TI's body reads its slice
        params, results = ([s, a], [rs, ra]) if s_first else ([a, s], [ra, rs])
        if ti:
            x = ops.parameter([3], dtype, name=f"x_{name}")
            node = ops.tensor_iterator()
            node.set_body(ov.Model(results, [*params, xk]))
            node.set_sliced_input(xk, x.output(0), 0, 1, 1, -1, 0)
            outer = [s0, a0, x]
        else:
            node = ops.loop(ops.constant(np.int64(3)), ops.constant(True))
            node.set_function(ov.Model([*results, ops.result(ops.constant(True))], params))
            node.set_special_body_ports([-1, 2])
            outer = [s0, a0]
        for p in params:
            init, r = (s0, rs) if p is s else (a0, ra)
            node.set_merged_input(p, init.output(0), r.output(0))
        return outer, ops.result(node.get_iter_value(ra.output(0), -1), name=f"a_{name}")

    if kind == "fail":
        outer, out = state_loop("u8", np.uint8, fused)
        return ov.Model([out], outer, "in_place_over_state")
    if kind == "fail-itself":
        s0, a0, x = (ops.parameter([1], np.uint8, name="s0_u8"), ops.parameter([], np.uint8, name="a0_u8"),
                     ops.parameter([3], np.uint8, name="x_u8"))
        s, a, xk = ops.parameter([1], np.uint8), ops.parameter([], np.uint8), ops.parameter([1], np.uint8)
        ra = ops.result(ops.add(a, to(xk, [])))
        rs = ops.result(ops.multiply(s, ops.minimum(to(a, [1]), ops.constant(np.uint8(1)))))
        node = ops.tensor_iterator()
        node.set_body(ov.Model([ra, rs], [a, s, xk]))
        node.set_sliced_input(xk, x.output(0), 0, 1, 1, -1, 0)
        node.set_merged_input(a, a0.output(0), ra.output(0))
        node.set_merged_input(s, s0.output(0), rs.output(0))
        outs = [ops.result(node.get_iter_value(r.output(0), -1), name=n) for r, n in ((ra, "a_u8"), (rs, "s_u8"))]
        return ov.Model(outs, [s0, a0, x], "in_place_over_state_itself")
    if kind == "fail-ti":
        outer, out = state_loop("f32", np.float32, lambda s, a, dtype, et: ops.multiply(to(a, [1]), through_i64(s, et)),
                                ti=True)
        return ov.Model([out], outer, "in_place_over_state_ti")
    kept = {
        "s_first": dict(dtype=np.uint8, step=fused, s_first=True),
        "a_kept": dict(dtype=np.uint8, step=fused, a_step=lambda s, a: a),
        "s_itself": dict(dtype=np.uint8, step=lambda s, a, dtype, et: ops.multiply(
            s, ops.minimum(to(a, [1]), ops.constant(dtype(1))))),
        "s_viewed": dict(dtype=np.uint8, step=lambda s, a, dtype, et: ops.multiply(
            to(to(s, []), [1]), ops.minimum(to(a, [1]), ops.constant(dtype(1))))),
        "f32": dict(dtype=np.float32, step=fused),
    }
    params, outs = [], []
    for name, kw in kept.items():
        outer, out = state_loop(name, **kw)
        params += outer
        outs.append(out)
    return ov.Model(outs, params, "in_place_over_state_kept")


def invariant_plus_slice(kind: str, loop: bool = False):
    """a[k] = x + s[k] in a TensorIterator (or a Loop), x a scalar invariant input, s sliced, a concatenated.
    `kind` "fail": x is the Add's input 0; "swapped": s[k] + x; "rank1": x of shape [1]; "convert": in i32,
    x reaches the Add through Converts to i64 and back (which the CPU plugin removes); "convert-kept": in
    i32 through Converts to f32 and back (which it keeps); "reshape": x reaches the Add through Reshapes to
    [1] and back to [] (which the plugin computes in x's memory); "squeeze": x of shape [1] squeezed to [];
    "reduced": the Add's other input is ReduceSum(s[k]), not a view of the slice; "slice-read-twice": the
    body also returns Relu(s[k]) as z; "reader-before"/"reader-after": x also read by a Sigmoid whose Result
    (z) comes before/after y's in the body, so the plugin runs it before/after the Add; "reader-view": x also
    read by a Reshape (a view); "fused-tail": the Add is read by a Relu, which the plugin fuses into its node;
    "view-relu"/"view-subtract"/"view-multiply": the slice view sk (the Add's input 1) is also read by Relu(sk),
    x - sk or sk * 2, whose Result (z) comes first; "reduced-view"/"loop-view"/"tanh-view": the Add's other
    input is ReduceSum(s[k]) (kept as [1]), the output of a nested Loop computing Tanh(s[k]), or Tanh(s[k]),
    reshaped to []; "result-reader": the Add is also read by a Result of its own; "if-condition": the Add's
    other input is an If's [1] output (s[k] * 2 or * 3 on x > -100) reshaped to [], "if-branch": the same If on
    s[k] > -100 reading x in its branches (Reshape(x, [1]) * s[k] or + s[k]), "if-value": the If on x > -100
    giving [] (s[k] reshaped to [] before it, * 2 or * 3), "if-reader-after": "if-condition" with Sigmoid(x)
    run after the Add (its Result z second); "reader-reshape": x also read by Reshape(x, []) * 2 (a Reshape
    OpenVINO removes), whose Result z comes first."""
    ov, ops = _ov()
    xs = [1] if kind in ("rank1", "squeeze") else []
    et = np.int32 if kind.startswith("convert") else np.float32
    bx, bs = ops.parameter(xs, et, name="xb"), ops.parameter([1], et, name="sb")
    sk = ops.reshape(bs, ops.constant(np.array(xs, np.int64)), False)
    xv = bx
    if kind.startswith("convert"):
        xv = ops.convert(ops.convert(bx, np.float32 if kind == "convert-kept" else np.int64), np.int32)
    if kind == "reshape":
        shape = lambda v: ov.op.Constant(ov.Type.i64, ov.Shape([len(v)]), v)  # noqa: E731
        xv = ops.reshape(ops.reshape(bx, shape([1]), False), shape([]), False)
    if kind == "squeeze":
        xv = ops.squeeze(bx, ops.constant(np.array([0], np.int64)))
        sk = ops.reshape(bs, ov.op.Constant(ov.Type.i64, ov.Shape([0]), []), False)
    if kind == "reduced":
        sk = ops.reduce_sum(bs, ops.constant(np.array([0], np.int64)), False)
    if kind in ("reduced-view", "loop-view", "tanh-view"):
        src = {"reduced-view": lambda: ops.reduce_sum(bs, ops.constant(np.array([0], np.int64)), True),
               "loop-view": lambda: _tanh_loop(ov, ops, bs),
               "tanh-view": lambda: ops.tanh(bs)}[kind]()
        sk = ops.reshape(src, ov.op.Constant(ov.Type.i64, ov.Shape([0]), []), False)
    if kind.startswith("if-"):
        sk = _if_of_slice(ov, ops, bx, bs, kind)
    a = ops.add(sk, bx) if kind == "swapped" else ops.add(xv, sk)
    r = ops.result(ops.reshape(ops.relu(a) if kind == "fused-tail" else a, ops.constant(np.array([1], np.int64)),
                               False))
    if kind == "slice-read-twice":
        rz = ops.result(ops.relu(bs))
        ti = ops.tensor_iterator()
        ti.set_body(ov.Model([r, rz], [bx, bs]))
        x, s = ops.parameter(xs, et, name="x"), ops.parameter([4], et, name="s")
        ti.set_invariant_input(bx, x.output(0))
        ti.set_sliced_input(bs, s.output(0), 0, 1, 1, -1, 0)
        y, z = (ti.get_concatenated_slices(o.output(0), 0, 1, 1, -1, 0) for o in (r, rz))
        return ov.Model([ops.result(y, name="y"), ops.result(z, name="z")], [x, s], "invariant_plus_slice")
    results = [r]
    if kind.startswith("view-"):  # the slice view sk also read by a Relu, x - sk or sk * 2, whose Result is first
        rd = {"view-relu": lambda: ops.relu(sk), "view-subtract": lambda: ops.subtract(bx, sk),
              "view-multiply": lambda: ops.multiply(sk, ops.constant(np.float32(2)))}[kind]()
        rz = ops.result(ops.reshape(rd, ops.constant(np.array([1], np.int64)), False))
        results = [rz, r]
    if kind == "result-reader":  # the Add also read by a Result of its own, listed first
        rz = ops.result(a)
        results = [rz, r]
    if kind.startswith("reader-") or kind == "if-reader-after":
        rd = {"reader-view": lambda: bx, "reader-reshape": lambda: ops.multiply(
            ops.reshape(bx, ov.op.Constant(ov.Type.i64, ov.Shape([0]), []), False), ops.constant(np.float32(2)))
              }.get(kind, lambda: ops.sigmoid(bx))()
        rz = ops.result(ops.reshape(rd, ops.constant(np.array([1], np.int64)), False))
        results = [r, rz] if kind.endswith("reader-after") else [rz, r]
    if loop:
        node = ops.loop(ops.constant(np.int64(4)), ops.constant(True))
        node.set_function(ov.Model([*results, ops.result(ops.constant(True))], [bx, bs]))
        node.set_special_body_ports([-1, len(results)])
    else:
        node = ops.tensor_iterator()
        node.set_body(ov.Model(results, [bx, bs]))
    x, s = ops.parameter(xs, et, name="x"), ops.parameter([4], et, name="s")
    node.set_invariant_input(bx, x.output(0))
    node.set_sliced_input(bs, s.output(0), 0, 1, 1, -1, 0)
    y = node.get_concatenated_slices(r.output(0), 0, 1, 1, -1, 0)
    outs = [ops.result(y, name="y")]
    if kind.startswith(("reader-", "view-")) or kind == "if-reader-after":
        outs.append(ops.result(node.get_concatenated_slices(rz.output(0), 0, 1, 1, -1, 0), name="z"))
    if kind == "result-reader":
        outs.append(ops.result(node.get_iter_value(rz.output(0), -1), name="z"))
    return ov.Model(outs, [x, s], "invariant_plus_slice")


def invariant_plus_invariant(shape: list[int], reader: str, loop: bool = False):
    """a[k] = x + Reshape(p, []) in a TensorIterator (or a Loop) of four slices s[k], x a scalar invariant
    input, p an invariant input of `shape` ([-1] or [1]) that `reader` ("concat": the body's Concat, "result":
    a Result of its own, listed first) also reads; the body gives Concat(Reshape(a, [1]), s[k]) (and p)."""
    ov, ops = _ov()
    bx, bp, bs = ops.parameter([], np.int32, name="xb"), ops.parameter(shape, np.int32, name="pb"), \
        ops.parameter([1], np.int32, name="sb")
    a = ops.add(bx, ops.reshape(bp, ov.op.Constant(ov.Type.i64, ov.Shape([0]), []), False))
    parts = [ops.reshape(a, ops.constant(np.array([1], np.int64)), False), bs]
    r = ops.result(ops.unsqueeze(ops.concat(parts + ([bp] if reader == "concat" else []), 0),
                                 ops.constant(np.array([0], np.int64))))
    results = [ops.result(bp), r] if reader == "result" else [r]
    if loop:
        node = ops.loop(ops.constant(np.int64(4)), ops.constant(True))
        node.set_function(ov.Model([*results, ops.result(ops.constant(True))], [bx, bp, bs]))
        node.set_special_body_ports([-1, len(results)])
    else:
        node = ops.tensor_iterator()
        node.set_body(ov.Model(results, [bx, bp, bs]))
    x, p, s = (ops.parameter(sh, np.int32, name=n) for sh, n in (([], "x"), (shape, "p"), ([4], "s")))
    node.set_invariant_input(bx, x.output(0))
    node.set_invariant_input(bp, p.output(0))
    node.set_sliced_input(bs, s.output(0), 0, 1, 1, -1, 0)
    outs = [ops.result(node.get_concatenated_slices(r.output(0), 0, 1, 1, -1, 0), name="y")]
    if reader == "result":
        outs.append(ops.result(node.get_iter_value(results[0].output(0), -1), name="z"))
    return ov.Model(outs, [x, p, s], "invariant_plus_invariant")


def _if_of_slice(ov, ops, x, s, kind: str):
    """The If of `invariant_plus_slice`'s "if-" kinds: s * 2 or s * 3 on x > -100 (on s > -100 reading x in
    its branches for "if-branch"), reshaped to [] after it (before it for "if-value")."""
    scalar = ov.op.Constant(ov.Type.i64, ov.Shape([0]), [])
    if kind == "if-value":
        s = ops.reshape(s, scalar, False)
    reads_x = kind == "if-branch"
    cond = ops.greater(ops.reshape(s, scalar, False) if reads_x else x, ops.constant(np.float32(-100)))
    shape = list(s.get_output_partial_shape(0).to_shape()) if kind == "if-value" else [1]
    one = ops.constant(np.array([1], np.int64))
    bodies = []
    for op in (ops.multiply, ops.add):
        bs = ops.parameter(shape, np.float32)
        bx = ops.parameter([], np.float32)
        v = op(ops.reshape(bx, one, False), bs) if reads_x else ops.multiply(
            bs, ops.constant(np.float32(2 if op is ops.multiply else 3)))
        bodies.append((ops.result(v), [bs, bx] if reads_x else [bs]))
    node = ops.if_op(cond.output(0))
    node.set_then_body(ov.Model([bodies[0][0]], bodies[0][1]))
    node.set_else_body(ov.Model([bodies[1][0]], bodies[1][1]))
    node.set_input(s.output(0), bodies[0][1][0], bodies[1][1][0])
    if reads_x:
        node.set_input(x.output(0), bodies[0][1][1], bodies[1][1][1])
    out = node.set_output(bodies[0][0], bodies[1][0])
    return out if kind == "if-value" else ops.reshape(out, scalar, False)


def _tanh_loop(ov, ops, s):
    """The last value of a Loop of one iteration computing Tanh of its merged input, which starts as `s`."""
    p = ops.parameter([1], np.float32)
    t = ops.tanh(p)
    node = ops.loop(ops.constant(np.int64(1)), ops.constant(True))
    node.set_function(ov.Model([ops.result(t), ops.result(ops.constant(True))], [p]))
    node.set_special_body_ports([-1, 1])
    node.set_merged_input(p, s.output(0), t.output(0))
    return node.get_iter_value(t.output(0), -1)


def invariant_reshaped_plus_slice(first: str, loop: bool = False):
    """A TensorIterator (or a Loop) over 4 slices of s: y[k] = Reshape(x, [2,1]) + ReduceSum(s[k]) and
    t[k] = Tanh(x) (as [1,?]), x an invariant input of shape [?]. `first` names the body Result listed first ("t" or
    "y"): the CPU plugin runs that Result's ops first, and copies x before the Add when Tanh runs after it."""
    ov, ops = _ov()
    bx, bs = ops.parameter([-1], np.float32, name="xb"), ops.parameter([1], np.float32, name="sb")
    view = ops.reshape(bx, ops.constant(np.array([2, 1], np.int64)), False)
    ry = ops.result(ops.add(view, ops.reduce_sum(bs, ops.constant(np.array([0], np.int64)), False)))
    rt = ops.result(ops.unsqueeze(ops.tanh(bx), ops.constant(np.array([0], np.int64))))
    results = [rt, ry] if first == "t" else [ry, rt]
    if loop:
        node = ops.loop(ops.constant(np.int64(4)), ops.constant(True))
        node.set_function(ov.Model([*results, ops.result(ops.constant(True))], [bx, bs]))
        node.set_special_body_ports([-1, 2])
    else:
        node = ops.tensor_iterator()
        node.set_body(ov.Model(results, [bx, bs]))
    x, s = ops.parameter([-1], np.float32, name="x"), ops.parameter([4], np.float32, name="s")
    node.set_invariant_input(bx, x.output(0))
    node.set_sliced_input(bs, s.output(0), 0, 1, 1, -1, 0)
    y = node.get_concatenated_slices(ry.output(0), 0, 1, 1, -1, 1)
    t = node.get_concatenated_slices(rt.output(0), 0, 1, 1, -1, 0)
    return ov.Model([ops.result(y, name="y"), ops.result(t, name="t")], [x, s], "invariant_reshaped_plus_slice")


def if_shape_in_dynamic_body(dynamic: bool):
    """A TensorIterator over 3 slices: x (merged, [1,?,?] when `dynamic`, else [1,2,2]) becomes
    Select(a > 2, a, 2), a = x + ReduceSum(If(sum(m) > 0, then [1], else m twice: [2])) + 0 * s[k]."""
    ov, ops = _ov()
    axis = lambda: ops.constant(np.array([0], np.int64))  # noqa: E731
    xs = [1, -1, -1] if dynamic else [1, 2, 2]
    x, s, m = ops.parameter(xs, np.int64, name="xb"), ops.parameter([1], np.int64), ops.parameter([1], np.int64)
    node = ops.if_op(ops.greater(ops.reduce_sum(m, axis(), False), ops.constant(np.int64(0))).output(0))
    tp, ep = ops.parameter([1], np.int64), ops.parameter([1], np.int64)
    tr, er = ops.result(ops.constant(np.array([1], np.int64))), ops.result(ops.concat([ep, ep], 0))
    node.set_then_body(ov.Model([tr], [tp]))
    node.set_else_body(ov.Model([er], [ep]))
    node.set_input(m.output(0), tp, ep)
    inc = ops.reduce_sum(node.set_output(tr, er), axis(), False)
    zero = ops.reduce_sum(ops.multiply(s, ops.constant(np.array([0], np.int64))), axis(), False)
    a = ops.add(ops.add(x, inc), zero)
    t = ops.constant(np.int64(2))
    rx, rm = ops.result(ops.select(ops.greater(a, t), a, t)), ops.result(m)
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([rx, rm], [x, s, m]))
    xo, mo = ops.parameter(xs, np.int64, name="x"), ops.parameter([1], np.int64, name="m")
    ti.set_merged_input(x, xo.output(0), rx.output(0))
    ti.set_sliced_input(s, ops.constant(np.zeros(3, np.int64)).output(0), 0, 1, 1, -1, 0)
    ti.set_merged_input(m, mo.output(0), rm.output(0))
    return ov.Model([ops.result(ti.get_iter_value(rx.output(0), -1), name="y")], [xo, mo], "if_in_dynamic_body")


def if_value_in_dynamic_state(dynamic: bool):
    """A TensorIterator over the 2 slices of x on axis 2 (backwards): s (merged, [?,2,3] when `dynamic`, else
    [1,2,3]) becomes Convert(Convert(s + ReduceSum(If(sum(x) > 2.5, x * 3, x + x)), f32), i64)."""
    ov, ops = _ov()
    i64 = lambda v: ops.constant(np.array(v, np.int64))  # noqa: E731
    d = -1 if dynamic else 1
    xo, so = ops.parameter([d, 2, 2], np.int64, name="x"), ops.parameter([d, 2, 3], np.int64, name="s")
    xb, sb = ops.parameter([d, 2, 1], np.int64), ops.parameter([d, 2, 3], np.int64)
    flat = lambda v: ops.reshape(v, i64([-1]), False)  # noqa: E731
    cond = ops.greater(ops.convert(ops.reduce_sum(flat(xb), i64([0])), "f32"), ops.constant(np.float32(2.5)))
    node = ops.if_op(cond.output(0))
    tp, ep = ops.parameter([d, 2, 1], np.int64), ops.parameter([d, 2, 1], np.int64)
    tr, er = ops.result(ops.multiply(tp, i64(3))), ops.result(ops.add(ep, ep))
    node.set_then_body(ov.Model([tr], [tp]))
    node.set_else_body(ov.Model([er], [ep]))
    node.set_input(xb.output(0), tp, ep)
    a = ops.add(sb, ops.reduce_sum(flat(node.set_output(tr, er)), i64([0])))
    r = ops.result(ops.convert(ops.convert(a, "f32"), "i64"))
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([r], [xb, sb]))
    ti.set_sliced_input(xb, xo.output(0), -1, -1, 1, 0, 2)
    ti.set_merged_input(sb, so.output(0), r.output(0))
    return ov.Model([ops.result(ti.get_iter_value(r.output(0), -1), name="y")], [xo, so], "if_value_in_dynamic_state")


def if_value_in_u8_state(pair: bool):
    """A Loop of one iteration: its u8 state x ([1,1,4], widened to [1,?,4] by the back edge) becomes
    x + If(sum(x) > 0, c + c, Minimum(s, 1)) (s a [1,?,4] slice), through Convert(Convert(., i64), u8) when `pair`."""
    ov, ops = _ov()
    i64 = lambda v: ops.constant(np.array(v, np.int64))  # noqa: E731
    xo, so = ops.parameter([1, 1, 4], np.uint8, name="x"), ops.parameter([1, -1, 4], np.uint8, name="s")
    xb, sb = ops.parameter([1, 1, 4], np.uint8), ops.parameter([1, -1, 4], np.uint8)
    total = ops.reduce_sum(ops.reshape(xb, i64([-1]), False), i64([0]), False)
    node = ops.if_op(ops.greater(ops.convert(total, "f32"), ops.constant(np.float32(0))).output(0))
    c = ops.constant(np.array([1, 1, 3, 0], np.uint8).reshape(1, 1, 4))
    ep = ops.parameter([1, -1, 4], np.uint8)
    tr, er = ops.result(ops.add(c, c)), ops.result(ops.minimum(ep, ops.constant(np.uint8(1))))
    node.set_then_body(ov.Model([tr], []))
    node.set_else_body(ov.Model([er], [ep]))
    node.set_input(sb.output(0), None, ep)
    a = ops.add(xb, node.set_output(tr, er))
    r = ops.result(ops.convert(ops.convert(a, "i64"), "u8") if pair else a)
    loop = ops.loop(ops.constant(np.int32(1)), ops.constant(np.array(True)))
    loop.set_function(ov.Model([r, ops.result(ops.constant(np.array(True)))], [xb, sb]))
    loop.set_special_body_ports([-1, 1])
    loop.set_merged_input(xb, xo.output(0), r.output(0))
    loop.set_sliced_input(sb, so.output(0), 0, 1, 1, -1, 0)
    return ov.Model([ops.result(loop.get_iter_value(r.output(0), -1), name="y")], [xo, so], "if_value_in_u8_state")


def if_value_in_dynamic_state_output(result_reads: bool):
    """A Loop of 4 iterations over the slices s [?,2,1] of Concat(x sums) + c: its state p [?,2,2] (merged x)
    becomes p + ReduceSum(If(ReduceSum(s) > 0, s @ [[-0.728]], Sigmoid(Tanh(s)))) + ReduceSum(s), the loop also
    outputs Concat(s, s) * 2, and ReLU reads the state's output; a Result reads it too when `result_reads`."""
    ov, ops = _ov()
    i64, f32 = (lambda v: ops.constant(np.array(v, np.int64))), (lambda v: ops.constant(np.array(v, np.float32)))
    flat_sum = lambda v: ops.reduce_sum(ops.reshape(v, i64([-1]), False), i64([0]), False)  # noqa: E731
    x = ops.parameter([-1, 2, 2], np.float32, name="x")
    rs = ops.reduce_sum(x, i64([2]), True)
    s_in = ops.add(ops.concat([rs, rs, rs, rs], 2), f32(np.array([0, 1, 2, 3, 4, 0, 1, 2]).reshape(1, 2, 4)))
    p, s = ops.parameter([-1, 2, 2], np.float32), ops.parameter([-1, 2, 1], np.float32)
    node = ops.if_op(ops.greater(flat_sum(s), f32(0.0)).output(0))
    tp, ep = ops.parameter([-1, 2, 1], np.float32), ops.parameter([-1, 2, 1], np.float32)
    tr, er = ops.result(ops.matmul(tp, f32([[-0.728]]), False, False)), ops.result(ops.sigmoid(ops.tanh(ep)))
    node.set_then_body(ov.Model([tr], [tp]))
    node.set_else_body(ov.Model([er], [ep]))
    node.set_input(s.output(0), tp, ep)
    r = ops.result(ops.add(ops.add(p, flat_sum(node.set_output(tr, er))), flat_sum(s)))
    other = ops.result(ops.multiply(ops.concat([s, s], 2), f32(2.0)))
    loop = ops.loop(i64([4]), ops.constant(np.array([True])))
    loop.set_function(ov.Model([r, other, ops.result(ops.constant(True))], [p, s]))
    loop.set_special_body_ports([-1, 2])
    loop.set_merged_input(p, x.output(0), r.output(0))
    loop.set_sliced_input(s, s_in.output(0), 0, 1, 1, -1, 2)
    state = loop.get_iter_value(r.output(0), -1)
    outs = [ops.result(ops.relu(state), name="y"), ops.result(loop.get_iter_value(other.output(0), -1), name="z")]
    if result_reads:
        outs.append(ops.result(state, name="state"))
    return ov.Model(outs, [x], "if_value_in_dynamic_state_output")


def if_byte_output_beside_loop(f32: bool, ti: bool = False):
    """y = x + If(Convert(x, f32) > 0, ReLU(x), x + Loop(1 iteration, state p = ReLU(p) from x)) for a u8 x of
    shape [?], beside a second output Convert(x, f16) (Convert(x, f32) when `f32`); a TensorIterator of one
    iteration instead of the Loop when `ti`."""
    ov, ops = _ov()
    x = ops.parameter([-1], np.uint8, name="x")
    cond = ops.greater(ops.convert(x, "f32"), ops.constant(np.float32(0)))
    tp, ep, p = (ops.parameter([-1], np.uint8) for _ in range(3))
    r = ops.result(ops.relu(p))
    if ti:
        loop = ops.tensor_iterator()
        loop.set_body(ov.Model([r], [p]))
    else:
        loop = ops.loop(ops.constant(np.array([1], np.int32)), ops.constant(np.array([True])))
        loop.set_function(ov.Model([r, ops.result(ops.constant(np.array(True)))], [p]))
        loop.set_special_body_ports([-1, 1])
    loop.set_merged_input(p, ep.output(0), r.output(0))
    tr, er = ops.result(ops.relu(tp)), ops.result(ops.add(ep, loop.get_iter_value(r.output(0), -1)))
    node = ops.if_op(cond.output(0))
    node.set_then_body(ov.Model([tr], [tp]))
    node.set_else_body(ov.Model([er], [ep]))
    node.set_input(x.output(0), tp, ep)
    y = ops.add(x, node.set_output(tr, er))
    z = ops.convert(x, "f32" if f32 else "f16")
    return ov.Model([ops.result(y, name="y"), ops.result(z, name="z")], [x], "if_byte_output_beside_loop")


def if_byte_output_then_converted(variant: str):
    """y = Convert(Convert(x + If(Convert(ReduceSum(x), f32) > 0, ReLU(x), Minimum(x, 1)), f16), u8) for a u8 x
    of shape [?] (IF813's failing model); `variant` "f32" converts the Add to f32 alone, "direct" converts the
    If's output itself, "static" gives x the shape [3], "i8" makes the pair u8 -> i8 -> u8 (variants the CPU
    plugin computes as the spec)."""
    ov, ops = _ov()
    x = ops.parameter([3] if variant == "static" else [-1], np.uint8, name="x")
    total = ops.reduce_sum(x, ops.constant(np.array([0], np.int64)), False)
    cond = ops.greater(ops.convert(total, "f32"), ops.constant(np.float32(0)))
    tp, ep = (ops.parameter(x.get_partial_shape(), np.uint8) for _ in range(2))
    tr, er = ops.result(ops.relu(tp)), ops.result(ops.minimum(ep, ops.constant(np.uint8(1))))
    node = ops.if_op(cond.output(0))
    node.set_then_body(ov.Model([tr], [tp]))
    node.set_else_body(ov.Model([er], [ep]))
    node.set_input(x.output(0), tp, ep)
    out = node.set_output(tr, er)
    if variant == "f32":
        y = ops.convert(ops.add(x, out), "f32")
    else:
        read = out if variant == "direct" else ops.add(x, out)
        y = ops.convert(ops.convert(read, "i8" if variant == "i8" else "f16"), "u8")
    return ov.Model([ops.result(y, name="y")], [x], "if_byte_output_then_converted")


def if_byte_output_beside_convert(destination: str):
    """y = Add(If(c > 0, x + x, x + x), x) for a u8 x of shape [?] and an f32 scalar c, beside a second output
    Convert(w, `destination`) of another u8 input w: "i64" is IF813's failing model (the plugin computes the
    Convert to i32), "i32" its passing neighbour."""
    ov, ops = _ov()
    x = ops.parameter([-1], np.uint8, name="x")
    w = ops.parameter([-1], np.uint8, name="w")
    c = ops.parameter([], np.float32, name="c")
    tp, ep = (ops.parameter([-1], np.uint8) for _ in range(2))
    tr, er = ops.result(ops.add(tp, tp)), ops.result(ops.add(ep, ep))
    node = ops.if_op(ops.greater(c, ops.constant(np.float32(0))).output(0))
    node.set_then_body(ov.Model([tr], [tp]))
    node.set_else_body(ov.Model([er], [ep]))
    node.set_input(x.output(0), tp, ep)
    y = ops.add(node.set_output(tr, er), x)
    z = ops.convert(w, destination)
    return ov.Model([ops.result(y, name="y"), ops.result(z, name="z")], [x, w, c], "if_byte_output_beside_convert")


def if_byte_output_in_loop_body(through: str | None):
    """A Loop of trip count `trip` over two u8 states of shape [?] from x: p passes unchanged, q = q + If(i > 0,
    q + p + p + p, p + p) on the current iteration i; y stacks q's values, and z stacks Convert(Convert(p,
    `through`), u8) (z stacks Convert(p, i32) when `through` is None). Through "i64" the plugin hands the
    Add the If's output unwritten at the first iteration (IF813); the i32 Convert alone agrees."""
    ov, ops = _ov()
    x = ops.parameter([-1], np.uint8, name="x")
    trip = ops.parameter([1], np.int32, name="trip")
    p, q = (ops.parameter([-1], np.uint8) for _ in range(2))
    i = ops.parameter([], np.int32)
    cond = ops.greater(ops.convert(i, "f32"), ops.constant(np.float32(0)))
    t0, t1, e1 = (ops.parameter([-1], np.uint8) for _ in range(3))
    tr = ops.result(ops.add(ops.add(ops.add(t1, t0), t0), t0))
    er = ops.result(ops.add(e1, e1))
    node = ops.if_op(cond.output(0))
    node.set_then_body(ov.Model([tr], [t0, t1]))
    node.set_else_body(ov.Model([er], [e1]))
    node.set_input(p.output(0), t0, e1)
    node.set_input(q.output(0), t1, None)
    q_next = ops.add(q, node.set_output(tr, er))
    converted = ops.convert(ops.convert(p, through), "u8") if through else ops.convert(p, "i32")
    rq, ry, rp, rz = ops.result(q_next), ops.result(q_next), ops.result(p), ops.result(converted)
    loop = ops.loop(trip, ops.constant(np.array(True)))
    loop.set_function(ov.Model([rq, ry, rp, rz, ops.result(ops.constant(np.array(True)))], [p, q, i]))
    loop.set_special_body_ports([2, 4])
    loop.set_merged_input(p, x.output(0), rp.output(0))
    loop.set_merged_input(q, x.output(0), rq.output(0))
    y = loop.get_concatenated_slices(ry.output(0), 0, 1, 1, -1, 0)
    z = loop.get_concatenated_slices(rz.output(0), 0, 1, 1, -1, 0)
    return ov.Model([ops.result(y, name="y"), ops.result(z, name="z")], [x, trip], "if_byte_output_in_loop_body")


def loop_condition_of(scalar: bool):
    """A Loop counting to 3 whose body condition is x < 100 over an invariant x of shape [?]: a [?]
    condition, or (`scalar`) the scalar ReduceSum(x) < 100."""
    ov, ops = _ov()
    x = ops.parameter([-1], np.float32, name="x")
    acc, xb = ops.parameter([3], np.float32), ops.parameter([-1], np.float32)
    r = ops.result(ops.add(acc, ops.constant(np.ones(3, np.float32))))
    v = ops.reduce_sum(xb, ops.constant(np.array([0], np.int64))) if scalar else xb
    c = ops.result(ops.less(v, ops.constant(np.float32(100))))
    loop = ops.loop(ops.constant(np.int64(3)), ops.constant(np.array([True])))
    loop.set_function(ov.Model([r, c], [acc, xb]))
    loop.set_special_body_ports([-1, 1])
    loop.set_merged_input(acc, ops.constant(np.zeros(3, np.float32)).output(0), r.output(0))
    loop.set_invariant_input(xb, x.output(0))
    return ov.Model([ops.result(loop.get_iter_value(r.output(0), -1), name="y")], [x], "loop_condition")


def loop_unread_output(cur_first: bool):
    """A Loop (current_iteration set, last in the body unless `cur_first`) whose invariant x feeds only the
    Result of an output nothing reads: the CPU plugin's removal of it fails (LP714)."""
    ov, ops = _ov()
    x = ops.parameter([3], np.float32, name="x")
    xb, acc, it = ops.parameter([3], np.float32), ops.parameter([3], np.float32), ops.parameter([], np.int64)
    r = ops.result(ops.add(acc, ops.constant(np.ones(3, np.float32))))
    extra = ops.result(ops.multiply(xb, ops.constant(np.float32(2))))
    c = ops.result(ops.less(it, ops.constant(np.int64(5))))
    params = [it, xb, acc] if cur_first else [xb, acc, it]
    loop = ops.loop(ops.constant(np.int64(3)), ops.constant(np.array(True)))
    loop.set_function(ov.Model([r, extra, c], params))
    loop.set_special_body_ports([params.index(it), 2])
    loop.set_invariant_input(xb, x.output(0))
    loop.set_merged_input(acc, ops.constant(np.zeros(3, np.float32)).output(0), r.output(0))
    loop.get_iter_value(extra.output(0), -1)  # an output port nothing reads
    return ov.Model([ops.result(loop.get_iter_value(r.output(0), -1), name="y")], [x], "loop_unread_output")


def loop_constant_input(kind: str):
    """A Loop (current_iteration set) whose body Parameter xb, listed before the current_iteration one, takes a
    constant invariant input: OpenVINO pushes the constant into the body and removes xb, and the CPU plugin fails
    to compile (LP715). `kind` "fail": the constant is a Const; "in-if": the Loop is in an If branch whose input is
    a Const; "one-iteration": "fail" with a trip count of 1 (the removal happens before anything runs);
    "middle": another Parameter follows the current_iteration one; "shapeof": the input is the shape of
    the model input (static, so folded). "pass": Loops that compile: the
    current_iteration Parameter first, the input fed by the model input, a sliced and a merged constant input, a
    constant Parameter the body does not read ("unread", which PM410 reports as unused)."""
    ov, ops = _ov()
    x = ops.parameter([1], np.float32, name="x")
    cst = ops.constant(np.array([0.5], np.float32)).output(0)

    def loop(src, order=("xb", "it"), how="invariant", read=True, other=None, trip=3):
        xb, it, ob = ops.parameter([1], np.float32), ops.parameter([], np.int64), ops.parameter([1], np.float32)
        step = ops.convert(ops.unsqueeze(it, ops.constant(np.array([0], np.int64))), ov.Type.f32)
        value = ops.add(ops.relu(xb), step) if read else step
        r = ops.result(ops.add(value, ob) if other is not None else value)
        c = ops.result(ops.constant(np.array(True)))
        params = [dict(xb=xb, it=it, ob=ob)[k] for k in order]
        lp = ops.loop(ops.constant(np.int64(trip)), ops.constant(np.array(True)))
        lp.set_function(ov.Model([r, c], params))
        lp.set_special_body_ports([params.index(it), 1])
        if how == "sliced":
            lp.set_sliced_input(xb, src, 0, 1, 1, -1, 0)
        elif how == "merged":
            lp.set_merged_input(xb, src, r.output(0))
        else:
            lp.set_invariant_input(xb, src)
        if other is not None:
            lp.set_invariant_input(ob, other)
        return lp.get_iter_value(r.output(0), -1)

    if kind in ("fail", "one-iteration"):
        y = ops.add(loop(cst, trip=1 if kind == "one-iteration" else 3), x)
        return ov.Model([ops.result(y, name="y")], [x], "loop_constant_input")
    if kind == "middle":
        y = loop(cst, ("xb", "it", "ob"), other=x.output(0))
        return ov.Model([ops.result(y, name="y")], [x], "loop_constant_input_middle")
    if kind == "in-if":
        c = ops.parameter([], np.bool_, name="c")
        tb, eb = ops.parameter([1], np.float32), ops.parameter([1], np.float32)
        rt, re_ = ops.result(loop(tb.output(0))), ops.result(ops.relu(eb))
        branch = ops.if_op(c)
        branch.set_then_body(ov.Model([rt], [tb]))
        branch.set_else_body(ov.Model([re_], [eb]))
        branch.set_input(cst, tb, eb)
        return ov.Model([ops.result(ops.add(branch.set_output(rt, re_), x), name="y")], [x, c], "loop_constant_in_if")
    if kind == "unread":
        return ov.Model([ops.result(ops.add(loop(cst, read=False), x), name="y")], [x], "loop_constant_unread")
    if kind == "shapeof":
        dims = ops.convert(ops.shape_of(x), ov.Type.f32)
        return ov.Model([ops.result(ops.add(loop(dims.output(0)), x), name="y")], [x], "loop_constant_shapeof")
    three = ops.constant(np.array([0.5, 1.5, 2.5], np.float32)).output(0)
    ys = [loop(cst, ("it", "xb")), loop(x.output(0)), loop(three, how="sliced"), loop(cst, how="merged")]
    return ov.Model([ops.result(ops.add(y, x), name=f"y{i}") for i, y in enumerate(ys)], [x], "loop_constant_pass")


def loop_folded_nested(kind: str):
    """An outer Loop whose trip count, condition and input are Consts, holding a Loop whose body compares u8
    values with Greater: OpenVINO's constant folding evaluates the outer Loop, its core has no u8 Greater and
    compile_model fails (LP716). "pass": the outer Loop fed by the model input, the Greater directly in the
    constant-fed Loop's body, and an i32 Greater in the nested body all compile."""
    ov, ops = _ov()

    def loop(src, et, depth):
        p0, p1 = ops.parameter([], et), ops.parameter([], et)
        if depth == 1:
            value = ops.add(ops.convert(ops.greater(p0, p1), et), p0)
        else:
            value = ops.add(loop(p0.output(0), et, depth - 1), p1)
        r, c = ops.result(value), ops.result(ops.constant(np.array([True])))
        lp = ops.loop(ops.constant(np.int64(2)), ops.constant(np.array([True])))
        lp.set_function(ov.Model([r, c], [p0, p1]))
        lp.set_special_body_ports([-1, 1])
        lp.set_merged_input(p0, src, r.output(0))
        lp.set_invariant_input(p1, src)
        return lp.get_iter_value(r.output(0), -1)

    x = ops.parameter([], np.uint8, name="x")
    three = ops.constant(np.array(3, np.uint8)).output(0)
    if kind == "fail":
        return ov.Model([ops.result(ops.add(loop(three, ov.Type.u8, 2), x), name="y")], [x], "loop_folded_nested")
    wide = ops.constant(np.array(3, np.int32)).output(0)
    ys = [loop(x.output(0), ov.Type.u8, 2), loop(three, ov.Type.u8, 1),
          ops.convert(loop(wide, ov.Type.i32, 2), ov.Type.u8)]
    return ov.Model([ops.result(ops.add(y, x), name=f"y{i}") for i, y in enumerate(ys)], [x], "loop_folded_pass")


def loop_constant_fed_dynamic(kind: str):
    """A Loop whose trip count, condition and input are computed from Consts, whose body condition is computed
    from its input and whose concatenated output is read: OpenVINO leaves that output's length dynamic and the
    CPU plugin refuses the model ("Can not create StaticMemory object") (LP717); "in-if": the same Loop in an If
    branch. "pass": the Loop fed by the model input, with a constant body condition, with only its last value
    read, and with its concatenated output unread all compile."""
    ov, ops = _ov()

    def loop(src, computed=True, concat=True, read_concat=True):
        p = ops.parameter([1], np.uint8)
        total = ops.reduce_sum(p, ops.constant(np.array([0], np.int64)), False)
        cond = (ops.less(ops.convert(total, ov.Type.f32), ops.constant(np.float32(2.0))) if computed
                else ops.constant(np.array(True)))
        row = ops.reshape(p, ops.constant(np.array([1, 1], np.int64)), False)
        last = ops.relu(p)
        lp = ops.loop(ops.constant(np.array([2], np.int64)), ops.constant(np.array(True)))
        results = [ops.result(cond), ops.result(last)] + ([ops.result(row)] if concat else [])
        lp.set_function(ov.Model(results, [p]))
        lp.set_special_body_ports([-1, 0])
        lp.set_invariant_input(p, src)
        rows = lp.get_concatenated_slices(row.output(0), 0, 1, 1, -1, 1) if concat else None
        value = lp.get_iter_value(last.output(0), -1)
        if rows is not None and read_concat:
            return ops.reduce_sum(ops.reshape(rows, ops.constant(np.array([-1], np.int64)), False),
                                  ops.constant(np.array([0], np.int64)), False)
        return ops.reshape(value, ops.constant(np.zeros([0], np.int64)), False)

    x = ops.parameter([], np.uint8, name="x")
    zero = ops.relu(ops.constant(np.array([0], np.uint8))).output(0)
    if kind == "fail":
        return ov.Model([ops.result(ops.add(loop(zero), x), name="y")], [x], "loop_constant_fed_dynamic")
    if kind == "in-if":
        c = ops.parameter([], np.uint8, name="c")
        tx = ops.parameter([], np.uint8)
        then_r = ops.result(ops.relu(tx))
        else_r = ops.result(loop(ops.relu(ops.constant(np.array([0], np.uint8))).output(0)))
        branch = ops.if_op(ops.greater(ops.convert(c, ov.Type.f32), ops.constant(np.float32(0))).output(0))
        branch.set_then_body(ov.Model([then_r], [tx]))
        branch.set_else_body(ov.Model([else_r], []))
        branch.set_input(x.output(0), tx, None)
        y = branch.set_output(then_r, else_r)
        return ov.Model([ops.result(y, name="y")], [x, c], "loop_constant_fed_dynamic_if")
    row = ops.reshape(x, ops.constant(np.array([1], np.int64)), False).output(0)
    ys = [loop(row), loop(zero, computed=False), loop(zero, concat=False), loop(zero, read_concat=False)]
    return ov.Model([ops.result(ops.add(y, x), name=f"y{i}") for i, y in enumerate(ys)], [x], "loop_constant_fed_pass")


def ti_unread_output(part: int):
    """A TI slicing x (3 rows) whose sliced Parameter is read only for output w, which nothing reads; the read
    output y concatenates the invariant z (`part` copies per iteration, stride -part): the CPU plugin drops w
    and the slicing, then runs the body once (part 1) or refuses y (part 2) (PM410)."""
    ov, ops = _ov()
    x, z = ops.parameter([3], np.float32, name="x"), ops.parameter([1], np.float32, name="z")
    xi, zi = ops.parameter([1], np.float32), ops.parameter([1], np.float32)
    ry = ops.result(ops.concat([zi] * part, 0) if part > 1 else ops.relu(zi))
    rw = ops.result(ops.relu(xi))
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([ry, rw], [xi, zi]))
    ti.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 0)
    ti.set_invariant_input(zi, z.output(0))
    y = ti.get_concatenated_slices(ry.output(0), -1, -part, part, 0, 0)
    ti.get_concatenated_slices(rw.output(0), 0, 1, 1, -1, 0)  # w: an output port nothing reads
    return ov.Model([ops.result(y, name="y")], [x, z], "ti_unread_output")


def body_reading_through_dead_if(kind: str):
    """A TI or Loop slicing x (4 rows) whose sliced Parameter feeds only an If input neither branch reads; the
    If adds 1 to a merged s: OpenVINO removes the If input and the slicing, so the CPU plugin runs the TI's
    body once (PM410) and the Loop its trip count, 10 (measured: y = 1 and 10; the spec's 4 slices give 4)."""
    ov, ops = _ov()
    x, s = ops.parameter([4], np.float32, name="x"), ops.parameter([], np.float32, name="s")
    xi, si = ops.parameter([1], np.float32), ops.parameter([], np.float32)
    bodies = []
    for add in (1.0, 2.0):
        bx, bs = ops.parameter([1], np.float32), ops.parameter([], np.float32)
        bodies.append((ov.Model([ops.result(ops.add(bs, ops.constant(np.float32(add))))], [bx, bs]), bx, bs))
    branch = ops.if_op(ops.greater(si, ops.constant(np.float32(-100))).output(0))
    branch.set_then_body(bodies[0][0])
    branch.set_else_body(bodies[1][0])
    branch.set_input(xi.output(0), bodies[0][1], bodies[1][1])
    branch.set_input(si.output(0), bodies[0][2], bodies[1][2])
    r = ops.result(branch.set_output(bodies[0][0].get_results()[0], bodies[1][0].get_results()[0]))
    if kind == "ti":
        node = ops.tensor_iterator()
        node.set_body(ov.Model([r], [xi, si]))
    else:
        node = ops.loop(ops.constant(np.int64(10)).output(0), ops.constant(True).output(0))
        node.set_function(ov.Model([r, ops.result(ops.constant(True))], [xi, si]))
        node.set_special_body_ports([-1, 1])
    node.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 0)
    node.set_merged_input(si, s.output(0), r.output(0))
    return ov.Model([ops.result(node.get_iter_value(r.output(0), -1), name="y")], [x, s], f"{kind}_dead_if")


def loop_nested_unread_output():
    """An outer Loop (current_iteration last) whose invariant x only feeds an inner Loop whose Parameter for it
    is read only for an inner output nothing reads: the CPU plugin's removals cascade out and fail (LP714)."""
    ov, ops = _ov()
    x = ops.parameter([3], np.float32, name="x")
    # the inner Loop: acc + 1 three times, and x * 2 as an output nobody reads
    ixb, iacc = ops.parameter([3], np.float32), ops.parameter([3], np.float32)
    ir = ops.result(ops.add(iacc, ops.constant(np.ones(3, np.float32))))
    iextra = ops.result(ops.multiply(ixb, ops.constant(np.float32(2))))
    inner = ops.loop(ops.constant(np.int64(3)), ops.constant(np.array(True)))
    inner.set_function(ov.Model([ir, iextra, ops.result(ops.constant(np.array(True)))], [ixb, iacc]))
    inner.set_special_body_ports([-1, 2])
    # the outer Loop's body: its x goes only to the inner Loop
    xb, acc, it = ops.parameter([3], np.float32), ops.parameter([3], np.float32), ops.parameter([], np.int64)
    inner.set_invariant_input(ixb, xb.output(0))
    inner.set_merged_input(iacc, acc.output(0), ir.output(0))
    inner.get_iter_value(iextra.output(0), -1)  # read by nothing
    r = ops.result(inner.get_iter_value(ir.output(0), -1))
    c = ops.result(ops.less(it, ops.constant(np.int64(5))))
    loop = ops.loop(ops.constant(np.int64(2)), ops.constant(np.array(True)))
    loop.set_function(ov.Model([r, c], [xb, acc, it]))
    loop.set_special_body_ports([2, 1])
    loop.set_invariant_input(xb, x.output(0))
    loop.set_merged_input(acc, ops.constant(np.zeros(3, np.float32)).output(0), r.output(0))
    return ov.Model([ops.result(loop.get_iter_value(r.output(0), -1), name="y")], [x], "loop_nested_unread_output")


def loop_if_unread_output(read: bool = False):
    """A Loop (current_iteration set, listed after xb) whose body If gives two outputs: Sigmoid of xb in its then
    branch (a constant in the else one), which nothing in the body reads, and a value of the iteration, which is
    read. OpenVINO removes the unread If output, the then-branch Parameter, the If input and xb, and the CPU plugin
    fails to compile (LP714). `read`: the body adds both If outputs, and the Loop compiles."""
    ov, ops = _ov()
    x = ops.parameter([1], np.float32, name="x")
    xb, it = ops.parameter([1], np.float32), ops.parameter([], np.int64)
    step = ops.convert(ops.unsqueeze(it, ops.constant(np.array([0], np.int64))), ov.Type.f32)
    t0, t1, e1 = ops.parameter([1], np.float32), ops.parameter([1], np.float32), ops.parameter([1], np.float32)
    branch = ops.if_op(ops.less(it, ops.constant(np.int64(2))).output(0))
    branch.set_then_body(ov.Model([ops.result(ops.sigmoid(t0)), ops.result(ops.relu(t1))], [t0, t1]))
    branch.set_else_body(ov.Model([ops.result(ops.constant(np.array([1.0], np.float32))),
                                   ops.result(ops.tanh(e1))], [e1]))
    branch.set_input(xb.output(0), t0, None)
    branch.set_input(step.output(0), t1, e1)
    then_r, else_r = branch.get_then_body().get_results(), branch.get_else_body().get_results()
    first = branch.set_output(then_r[0], else_r[0])  # read by nothing unless `read`
    second = branch.set_output(then_r[1], else_r[1])
    r = ops.result(ops.add(second, first) if read else second)
    loop = ops.loop(ops.constant(np.int64(3)), ops.constant(np.array(True)))
    loop.set_function(ov.Model([r, ops.result(ops.constant(np.array(True)))], [xb, it]))
    loop.set_special_body_ports([1, 1])
    loop.set_invariant_input(xb, x.output(0))
    return ov.Model([ops.result(loop.get_iter_value(r.output(0), -1), name="y")], [x], "loop_if_unread_output")


def ti_if_ti(constant: bool, in_taken: bool, read: bool = True):
    """A TensorIterator over x [2,3] whose body holds an If (condition true: a Const with `constant`, else
    the model input c) with a TensorIterator summing its [3] input in the then branch (`in_taken`) or
    in the else branch (the other branch sums with ReduceSum). With `read` false the If gives only an
    outer output nothing reads, and y is the last row's Relu."""
    ov, ops = _ov()

    def inner_ti(v):
        ti = ops.tensor_iterator()
        p, s = ops.parameter([1], np.float32), ops.parameter([1], np.float32)
        body = ov.Model([ops.result(ops.add(p, s))], [p, s])
        ti.set_body(body)
        ti.set_sliced_input(p, v, 0, 1, 1, -1, 0)
        ti.set_merged_input(s, ops.constant(np.zeros(1, np.float32)).output(0), body.get_results()[0].output(0))
        return ti.get_iter_value(body.get_results()[0].output(0), -1)

    x = ops.parameter([2, 3], np.float32, name="x")
    c = ops.parameter([], np.bool_, name="c")
    px, pc = ops.parameter([1, 3], np.float32), ops.parameter([], np.bool_)
    row = ops.reshape(px, ops.constant(np.array([3])), False).output(0)
    branch = ops.if_op(ops.constant(np.bool_(True)) if constant else pc)
    pt, pe = ops.parameter([3], np.float32), ops.parameter([3], np.float32)
    summed = [inner_ti(p.output(0)) if (p is pt) == in_taken else
              ops.reduce_sum(p, ops.constant(np.array([0])), True).output(0) for p in (pt, pe)]
    then_body, else_body = ov.Model([ops.result(summed[0])], [pt]), ov.Model([ops.result(summed[1])], [pe])
    branch.set_then_body(then_body)
    branch.set_else_body(else_body)
    branch.set_input(row, pt, None)
    branch.set_input(row, None, pe)
    out = ops.result(branch.set_output(then_body.get_results()[0], else_body.get_results()[0]))
    results = [out] if read else [ops.result(ops.relu(px)), out]
    body = ov.Model(results, [px] if constant else [px, pc])
    ti = ops.tensor_iterator()
    ti.set_body(body)
    ti.set_sliced_input(px, x.output(0), 0, 1, 1, -1, 0)
    if not constant:
        ti.set_invariant_input(pc, c.output(0))
    y = ti.get_iter_value(results[0].output(0), -1)
    if not read:
        ti.get_iter_value(out.output(0), -1)  # an output nothing reads
    return ov.Model([ops.result(y, name="y")], [x] if constant else [x, c], "ti_if_ti")


def back_edge_slice(loop: bool, via: str):
    """A TensorIterator (or Loop, 4 iterations) slicing x [4,2] in rows p whose back edge passes on `via`:
    "none" p itself, "views" Squeeze(Unsqueeze(p)), "relu" Relu(p); the state s (initial s0) is
    concatenated as 2 * s."""
    ov, ops = _ov()
    x, s0 = ops.parameter([4, 2], np.float32, name="x"), ops.parameter([1, 2], np.float32, name="s0")
    p, s = ops.parameter([1, 2], np.float32), ops.parameter([1, 2], np.float32)
    v = {"none": p, "views": ops.squeeze(ops.unsqueeze(p, ops.constant(np.array([0]))), ops.constant(np.array([0]))),
         "relu": ops.relu(p)}[via]
    passed, seen = ops.result(v), ops.result(ops.multiply(s, ops.constant(np.float32(2))))
    if loop:
        cond = ops.result(ops.constant(True))
        body = ov.Model([passed, seen, cond], [p, s])
        node = ops.loop(ops.constant(np.int64(4)), ops.constant(True))
        node.set_function(body)
        node.set_special_body_ports([-1, 2])
    else:
        body = ov.Model([passed, seen], [p, s])
        node = ops.tensor_iterator()
        node.set_body(body)
    node.set_sliced_input(p, x.output(0), 0, 1, 1, -1, 0)
    node.set_merged_input(s, s0.output(0), passed.output(0))
    y = node.get_concatenated_slices(seen.output(0), 0, 1, 1, -1, 0)
    return ov.Model([ops.result(y, name="y")], [x, s0], "back_edge_slice")


def _mark_back_edge(text: str, code: str) -> str:
    """Mark the first back edge's line."""
    at = text.index("<edge ", text.index("<back_edges>"))
    start = text.rindex("\n", 0, at) + 1
    return text[:start] + f"{text[start:at]}<!-- expect: {code} -->\n" + text[start:]


@dataclass
class Case:
    """One fixture file: `build` makes the IR, `edit` (optional) turns its text into the fixture."""

    code: str
    name: str  # "fail-x", "pass-x", "fail" or "pass"
    build: Callable
    edit: Callable[[str], str] | None = None


def dynamic_slices(ti: bool = False):
    """x [?, 2] sliced on axis 0 in rows (stride 1) by a TensorIterator or a Loop (trip count a Parameter)
    that doubles each row and concatenates it: the slicing is only known at run time."""
    ov, ops = _ov()
    x = ops.parameter([-1, 2], np.float32, name="x")
    xi = ops.parameter([1, 2], np.float32)
    r = ops.result(ops.multiply(xi, ops.constant(np.float32(2))))
    params = [x]
    if ti:
        loop = ops.tensor_iterator()
        loop.set_body(ov.Model([r], [xi]))
    else:
        trip = ops.parameter([], np.int64, name="trip")
        params.append(trip)
        loop = ops.loop(trip, ops.constant(np.bool_(True)))
        loop.set_function(ov.Model([r, ops.result(ops.constant(np.bool_(True)))], [xi]))
        loop.set_special_body_ports([-1, 1])
    loop.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 0)
    out = loop.get_concatenated_slices(r.output(0), 0, 1, 1, -1, 0)
    return ov.Model([ops.result(out, name="y")], params, "dynamic_slices")


def shared_result(order: str = "AB", loop: bool = False, read_both: bool = False):
    """A TensorIterator (or a Loop of 4 iterations) over x [4, 3] whose body has Results A (x + 1, no
    output gives it) and B (ReLU(x)) in `order`, and two concatenated outputs both giving B; only the
    first is read unless `read_both`. A Loop's condition Result comes last."""
    ov, ops = _ov()
    x = ops.parameter([4, 3], np.float32, name="x")
    xi = ops.parameter([1, 3], np.float32)
    res = {"A": ops.result(ops.add(xi, ops.constant(np.float32(1))), name="a"),
           "B": ops.result(ops.relu(xi), name="b")}
    body = [res[k] for k in order]
    if loop:
        layer = ops.loop(ops.constant(np.int64(4)), ops.constant(np.bool_(True)))
        layer.set_function(ov.Model([*body, ops.result(ops.constant(np.bool_(True)))], [xi]))
        layer.set_special_body_ports([-1, len(body)])
    else:
        layer = ops.tensor_iterator()
        layer.set_body(ov.Model(body, [xi]))
    layer.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 0)
    outs = [layer.get_concatenated_slices(res["B"].output(0), 0, 1, 1, -1, 0) for _ in range(2)]
    return ov.Model([ops.result(o, name=f"y{i}") for i, o in enumerate(outs[:2 if read_both else 1])], [x],
                    "shared_result")


def _fx(code: str, *edits: Edit, also: list | None = None) -> Callable[[str], str]:
    return lambda text: mark(text, Fixture(code, "", list(edits), also=also or []))


V7 = """<?xml version="1.0" ?>
<net name="relu_v7" version="7" batch="1">
\t<layers>
\t\t<layer id="0" name="x" precision="FP32" type="Input">
\t\t\t<output>
\t\t\t\t<port id="0">
\t\t\t\t\t<dim>1</dim>
\t\t\t\t\t<dim>3</dim>
\t\t\t\t</port>
\t\t\t</output>
\t\t</layer>
\t\t<layer id="1" name="y" precision="FP32" type="ReLU">
\t\t\t<data negative_slope="0"/>
\t\t\t<input>
\t\t\t\t<port id="0">
\t\t\t\t\t<dim>1</dim>
\t\t\t\t\t<dim>3</dim>
\t\t\t\t</port>
\t\t\t</input>
\t\t\t<output>
\t\t\t\t<port id="1">
\t\t\t\t\t<dim>1</dim>
\t\t\t\t\t<dim>3</dim>
\t\t\t\t</port>
\t\t\t</output>
\t\t</layer>
\t</layers>
\t<edges>
\t\t<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
\t</edges>
</net>
"""

def _rank2_edits(precision: str, code: str, port: int) -> tuple[Edit, ...]:
    """small_loop's outer Const feeding Loop input `port` (the trip count is the first Const, the
    condition the first boolean one) made [1, 1]: its `<data>`, its output port and the Loop's input
    port; a scalar's port line is marked with `code` (a [1] port's line is marked through `also`, as
    the edit is on its `<dim>` line)."""
    if precision == "I64":  # the scalar trip count: ports without dims
        const, shape = 'type="Const"', 'shape=""'
        old, new = f'precision="{precision}" />', f'precision="{precision}">{_DIMS2}</port>'
        return (Edit(shape, 'shape="1, 1"', (), after=const), Edit(old, new, (code,), after=const),
                Edit(f'<port id="{port}" {old}', f'<port id="{port}" {new}', (), after="<input>"))
    const = 'element_type="boolean" shape="1"'
    return (Edit(const, 'element_type="boolean" shape="1, 1"', ()),
            Edit("<dim>1</dim>", _DIMS2, (), after='element_type="boolean" shape="1, 1"'),
            Edit("<dim>1</dim>", _DIMS2, (), after=f'<port id="{port}" precision="{precision}">'))


_DIMS2 = "<dim>1</dim><dim>1</dim>"
def zero_loop(trip: int | None, *, unmerged: bool = False, concat: bool = True, length: int = 1, start=True):
    """A Loop summing x into a merged state (initial value 7s), with a concatenated output of the state
    (`length` copies along axis 0 per iteration) and, with `unmerged`, a last-value output x * 2 that no
    back edge feeds; `trip` None makes the trip count a Parameter, `start` None the execution condition."""
    ov, ops = _ov()
    x = ops.parameter([3], np.float32, name="x")
    xb, acc = ops.parameter([3], np.float32), ops.parameter([3], np.float32)
    nxt = ops.add(acc, xb)
    r, c = ops.result(nxt), ops.result(ops.constant(np.bool_(True)))
    part = ops.unsqueeze(nxt, ops.constant(np.array([0], np.int64)))
    scan = ops.result(ops.concat([part] * length, 0) if length > 1 else part)
    y = ops.result(ops.multiply(xb, ops.constant(np.float32(2))))
    params = [x]
    if trip is None:
        count = ops.parameter([], np.int64, name="trip")
        params.append(count)
    else:
        count = ops.constant(np.int64(trip))
    if start is None:
        first = ops.parameter([], np.bool_, name="start")
        params.append(first)
    else:
        first = ops.constant(np.bool_(start))
    loop = ops.loop(count, first)
    loop.set_function(ov.Model([r, c] + ([y] if unmerged else []) + ([scan] if concat else []), [acc, xb]))
    loop.set_special_body_ports([-1, 1])
    loop.set_merged_input(acc, ops.constant(np.full(3, 7, np.float32)).output(0), r.output(0))
    loop.set_invariant_input(xb, x.output(0))
    outs = [ops.result(loop.get_iter_value(r.output(0), -1), name="acc")]
    if unmerged:
        outs.append(ops.result(loop.get_iter_value(y.output(0), -1), name="y"))
    if concat:
        outs.append(ops.result(loop.get_concatenated_slices(scan.output(0), 0, 1, 1, -1, 0), name="scan"))
    return ov.Model(outs, params, "zero_loop")


def _mark_picked(code: str, pick: Callable[[list[str]], int]) -> Callable[[str], str]:
    """Mark the line `pick` chooses among the file's lines."""
    def edit(text: str) -> str:
        lines = text.split("\n")
        n = pick(lines)
        indent = lines[n][: len(lines[n]) - len(lines[n].lstrip())]
        lines.insert(n, f"{indent}<!-- expect: {code} -->")
        return "\n".join(lines)
    return edit


def _entry_of(port_name: str) -> Callable[[list[str]], int]:
    """The port_map <output> entry whose external port is the Loop output port named `port_name`."""
    def pick(lines: list[str]) -> int:
        loop = next(i for i, line in enumerate(lines) if 'type="Loop"' in line)
        port = next(line for line in lines[loop:] if f'names="{port_name}"' in line or f'name="{port_name}"' in line)
        pid = port.split('port id="')[1].split('"')[0] if 'port id="' in port else None
        return next(i for i, line in enumerate(lines) if i > loop and "<output " in line
                    and f'external_port_id="{pid}"' in line)
    return pick


def _loop_input_port(port: int) -> Callable[[list[str]], int]:
    def pick(lines: list[str]) -> int:
        loop = next(i for i, line in enumerate(lines) if 'type="Loop"' in line)
        start = next(i for i, line in enumerate(lines) if i > loop and line.strip() == "<input>")
        return next(i for i, line in enumerate(lines) if i > start and f'<port id="{port}"' in line)
    return pick


def _slice_entry(lines: list[str]) -> int:
    return next(i for i, line in enumerate(lines) if '<input axis="0"' in line)


def _concat_entry(lines: list[str]) -> int:
    return next(i for i, line in enumerate(lines) if '<output axis="0"' in line)


def _first_body_parameter(lines: list[str]) -> int:
    body = next(i for i, line in enumerate(lines) if "<body>" in line)
    return next(i for i, line in enumerate(lines) if i > body and 'type="Parameter"' in line)


def _back_edge_to(layer_id: int) -> Callable[[list[str]], int]:
    """The first back edge into body layer `layer_id`."""
    def pick(lines: list[str]) -> int:
        start = next(i for i, line in enumerate(lines) if "<back_edges>" in line)
        return next(i for i, line in enumerate(lines) if i > start and f'to-layer="{layer_id}"' in line)
    return pick


def _first_back_edge(lines: list[str]) -> int:
    start = next(i for i, line in enumerate(lines) if "<back_edges>" in line)
    return next(i for i, line in enumerate(lines) if i > start and "<edge " in line)


def _condition_result(lines: list[str]) -> int:
    """The body Result the execution_condition entry names."""
    entry = next(line for line in lines if 'purpose="execution_condition"' in line)
    rid = entry.split('internal_layer_id="')[1].split('"')[0]
    body = next(i for i, line in enumerate(lines) if "<body>" in line)
    return next(i for i, line in enumerate(lines) if i > body and f'<layer id="{rid}"' in line)


def invariant_plus_two_slices(reader: str):
    """y[k] = Sigmoid(Reshape(R(x + a[k], b[k]), [1])) in a TensorIterator, x a scalar invariant input ('xb'),
    a and b sliced and reshaped to []: `reader` R is "add", "multiply", "maximum", "minimum" (the plugin fuses
    it into the Add's node, which computes in x's memory) or "subtract-second" (b[k] - (x + a[k])); the
    neighbours "subtract" ((x + a[k]) - b[k]), "divide" and "relu-operand" (R adds Relu(b[k])) leave x
    alone."""
    ov, ops = _ov()
    xb, ab, bb = ops.parameter([], np.float32, name="xb"), ops.parameter([1], np.float32), ops.parameter([1],
                                                                                                         np.float32)
    scalar = ov.op.Constant(ov.Type.i64, ov.Shape([0]), [])
    a_s, b_s = ops.reshape(ab, scalar, False), ops.reshape(bb, scalar, False)
    s1 = ops.add(xb, a_s)
    other = ops.relu(b_s) if reader == "relu-operand" else b_s
    s2 = {"add": ops.add, "multiply": ops.multiply, "maximum": ops.maximum, "minimum": ops.minimum,
          "subtract": ops.subtract, "divide": ops.divide, "relu-operand": ops.add,
          "subtract-second": lambda u, v: ops.subtract(v, u)}[reader](s1, other)
    r = ops.result(ops.sigmoid(ops.reshape(s2, ops.constant(np.array([1], np.int64)), False)))
    x, a, b = (ops.parameter(shape, np.float32, name=n) for n, shape in (("x", []), ("a", [-1]), ("b", [-1])))
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([r], [xb, ab, bb]))
    ti.set_invariant_input(xb, x.output(0))
    ti.set_sliced_input(ab, a.output(0), 0, 1, 1, -1, 0)
    ti.set_sliced_input(bb, b.output(0), 0, 1, 1, -1, 0)
    y = ti.get_concatenated_slices(r.output(0), 0, 1, 1, -1, 0)
    return ov.Model([ops.result(y, name="y")], [x, a, b], "invariant_plus_two_slices")


def invariant_two_readers(kind: str):
    """y[k] = Sigmoid(Reshape(x + Reshape(s[k], []), [1])) in a TensorIterator (x a scalar invariant input 'xb',
    s sliced), with a second output z (its Result first) of: "shared-chains" the same chain written again
    (OpenVINO merges the two, so x has one reader and the Add computes in x's memory), "mul-chain" the chain
    with a Multiply (x keeps two readers: no overwrite)."""
    ov, ops = _ov()
    xb, sb = ops.parameter([], np.float32, name="xb"), ops.parameter([1], np.float32, name="sb")
    scalar, one = ov.op.Constant(ov.Type.i64, ov.Shape([0]), []), ops.constant(np.array([1], np.int64))

    def chain(op):  # type: ignore[no-untyped-def]
        return ops.sigmoid(ops.reshape(op(xb, ops.reshape(sb, scalar, False)), one, False))

    r = ops.result(chain(ops.add))
    rz = ops.result(chain(ops.add if kind == "shared-chains" else ops.multiply))
    x, s = ops.parameter([], np.float32, name="x"), ops.parameter([-1], np.float32, name="s")
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([rz, r], [sb, xb]))
    ti.set_sliced_input(sb, s.output(0), 0, 1, 1, -1, 0)
    ti.set_invariant_input(xb, x.output(0))
    y = ti.get_concatenated_slices(r.output(0), 0, 1, 1, -1, 0)
    z = ti.get_iter_value(rz.output(0), -1)
    return ov.Model([ops.result(y, name="y"), ops.result(z, name="z")], [x, s], "invariant_two_readers")


def _mark_xb(text: str) -> str:
    """Mark the invariant Parameter 'xb' whose memory the CPU plugin's Add writes over (PM414's cases)."""
    return _mark_line(text, 'name="xb" type="Parameter"', "PM414")


CASES = [
    # a back edge passing on the slice (or a view of it): the CPU plugin passes on this iteration's slice
    Case("BE508", "fail", lambda: back_edge_slice(False, "views"), lambda text: _mark_back_edge(text, "BE508")),
    Case("BE508", "fail-loop", lambda: back_edge_slice(True, "none"), lambda text: _mark_back_edge(text, "BE508")),
    Case("BE508", "pass", lambda: back_edge_slice(False, "relu")),
    Case("BE508", "pass-loop", lambda: back_edge_slice(True, "relu")),
    # a TensorIterator in the taken branch of an If of constant condition in a TensorIterator body: OpenVINO
    # folds the If, and then refuses the nested TensorIterator; the other branch, or a computed condition, is fine
    Case("G120", "fail-folded-if", lambda: ti_if_ti(True, True),
         lambda text: _mark_last_line(text, 'type="TensorIterator"', "G120")),
    Case("G120", "pass-untaken-branch", lambda: ti_if_ti(True, False)),
    Case("G120", "pass-computed-condition", lambda: ti_if_ti(False, True)),
    Case("G120", "pass-unread", lambda: ti_if_ti(True, True, read=False)),
    # a port without dims where irlint infers every dim: a scalar is declared, and that is wrong
    Case("T211", "fail-dimless", relu_2x3, _fx("T211", Edit(
        '<port id="1" precision="FP32" names="y">\n\t\t\t\t\t<dim>2</dim>\n\t\t\t\t\t<dim>3</dim>\n\t\t\t\t</port>',
        '<port id="1" precision="FP32" names="y" />', ("T211",)))),
    Case("T211", "pass-dynamic-rank", dynamic_rank, lambda text: _mark_line(text, 'shape="..."', "T213")),
    # a scalar Const feeding a port that declares [3]; a dynamic rank feeding one that declares dims is fine
    Case("T202", "fail-scalar-const", scalar_add, _fx("T202", Edit(
        '<port id="1" precision="FP32" />', '<port id="1" precision="FP32">\n\t\t\t\t\t<dim>3</dim>\n\t\t\t\t</port>',
        ("T202",), after='type="Add"'))),
    Case("T202", "pass-dynamic-rank", dynamic_rank, _fx("T202", Edit(
        '<port id="0" precision="FP32" />', '<port id="0" precision="FP32">\n\t\t\t\t\t<dim>2</dim>\n\t\t\t\t</port>',
        (), after='type="ReLU"'), Edit('shape="..."', 'shape="..."', ("T213",)))),
    Case("IR005", "pass-every-type", every_type),
    Case("IR003", "fail-v7", lambda: None, lambda _text: V7.replace(
        '<net name="relu_v7"', '<!-- expect: IR003 -->\n<net name="relu_v7"')),
    Case("T210", "pass-prelu-last-axis", prelu_last_axis),
    Case("T210", "pass-converts", convert_chain),
    # a target shape of rank 2, or a scalar: OpenVINO's Reshape refuses both ("Pattern shape must have rank 1")
    Case("T210", "pass-reshape-pattern", reshape_pattern),
    Case("T210", "fail-reshape-pattern-rank2", reshape_pattern,
         _fx("T210", *_pattern_edits("1, 2", "<dim>1</dim><dim>2</dim>", "16"))),
    Case("T210", "fail-reshape-pattern-scalar", reshape_pattern, _fx("T210", *_pattern_edits("", "", "8"))),
    # concatenated outputs get the checks of sliced inputs (read over the output they assemble)
    Case("SL603", "fail-output-stride0", base_ti, _fx("SL603", Edit(
        'internal_layer_id="11" start="0" end="-1" stride="1"', 'internal_layer_id="11" start="0" end="-1" stride="0"',
        ("SL603",)))),
    Case("SL603", "fail-output-stride-sign", base_ti, _fx("SL603", Edit(
        'internal_layer_id="11" start="0" end="-1" stride="1"', 'internal_layer_id="11" start="0" end="-1" stride="-1"',
        ("SL603",)))),
    Case("SL603", "pass-output-reversed", reverse_ti),
    # two outputs giving one body Result, one of them unread: OpenVINO removes the Result with it
    Case("PM415", "fail", shared_result, _fx("PM415", Edit('<output axis="0" external_port_id="2"',
                                                           '<output axis="0" external_port_id="2"', ("PM415",)),
                                             also=[('name="a"', 0, ("PM409",))])),
    Case("PM415", "fail-next", lambda: shared_result("BA"), _fx(
        "PM415", Edit('<output axis="0" external_port_id="2"', '<output axis="0" external_port_id="2"', ("PM415",)),
        also=[('name="a"', 0, ("PM409",))])),
    Case("PM415", "fail-loop", lambda: shared_result(loop=True), _fx(
        "PM415", Edit('<output axis="0" external_port_id="4"', '<output axis="0" external_port_id="4"', ("PM415",)),
        also=[('name="a"', 0, ("PM409",))])),
    Case("PM415", "pass", lambda: shared_result("B", read_both=True)),
    # a TensorIterator left without inputs (removed, constants pushed in): the CPU plugin crashes at inference
    Case("PM416", "fail", lambda: ti_without_inputs("fail"),
         lambda text: _mark_line(text, 'type="TensorIterator"', "PM416")),
    Case("PM416", "fail-removed", lambda: ti_without_inputs("fail-removed"),
         lambda text: _mark_body_param(_mark_line(text, 'type="TensorIterator"', "PM416"), "PM410")),
    Case("PM416", "fail-loop", lambda: ti_without_inputs("fail-loop"),
         lambda text: _mark_line(text, 'type="TensorIterator"', "PM416")),
    Case("PM416", "pass", lambda: ti_without_inputs("pass")),
    # a stride of 0 on a sliced input of dynamic length: no length makes it valid (the CPU plugin refuses a
    # TensorIterator, a Loop kills the process dividing by it)
    Case("SL603", "fail-stride0-dynamic-loop", dynamic_slices, _fx("SL603", Edit(
        'internal_layer_id="0" start="0" end="-1" stride="1"', 'internal_layer_id="0" start="0" end="-1" stride="0"',
        ("SL603",)))),
    Case("SL603", "fail-stride0-dynamic-ti", lambda: dynamic_slices(ti=True), _fx("SL603", Edit(
        'internal_layer_id="0" start="0" end="-1" stride="1"', 'internal_layer_id="0" start="0" end="-1" stride="0"',
        ("SL603",)))),
    Case("SL603", "pass-dynamic-loop", dynamic_slices),
    # start 0, end 2 in parts of 2 on an axis of unknown length: 3 elements on every length that holds them
    Case("SL603", "fail-dynamic-never-whole", lambda: ti_dynamic_parts(2, 2),
         lambda text: _mark_line(text, '<input axis="0"', "SL603")),
    Case("SL603", "pass-dynamic-whole", lambda: ti_dynamic_parts(-1, 2)),
    # part_size -1 on a Loop input of dynamic length: no length makes it a slicing (the CPU plugin reads
    # parts of |stride| instead)
    Case("SL603", "fail-part-size-dynamic-loop", dynamic_slices, _fx("SL603", Edit(
        'internal_layer_id="0" start="0" end="-1" stride="1" part_size="1"',
        'internal_layer_id="0" start="0" end="-1" stride="1" part_size="-1"', ("SL603",)))),
    Case("SL606", "pass-dynamic-rank", loop_unsqueeze_dynamic_axes,
         lambda text: _mark_line(text, '<port id="4" precision="FP32" names="y" />', "PM420")),
    Case("SL604", "fail-output-count", base_ti, _fx("SL604", Edit(
        'internal_layer_id="11" start="0" end="-1"', 'internal_layer_id="11" start="0" end="2"', ("SL604",)))),
    Case("SL604", "fail-output-start", base_ti, _fx("SL604", Edit(
        'internal_layer_id="11" start="0" end="-1"', 'internal_layer_id="11" start="1" end="-1"', ("SL604",)))),
    # a Loop: OpenVINO ignores start/end (LP709) and its CPU plugin takes parts of |stride| (SL607)
    Case("SL607", "fail-loop", lambda: loop_slices(0, 1, 2, -1, 3), _fx("SL607", Edit(
        '<input axis="0" external_port_id="2"', '<input axis="0" external_port_id="2"', ("SL607",)))),
    Case("SL607", "pass-loop", lambda: loop_slices(-1, -2, 2, 0, 3)),
    # a Loop input of dynamic length read in parts of |stride| 2 by the CPU plugin, of part_size 1 by the core
    Case("SL607", "fail-loop-dynamic", dynamic_slices, _fx("SL607", Edit(
        'internal_layer_id="0" start="0" end="-1" stride="1"', 'internal_layer_id="0" start="0" end="-1" stride="2"',
        ("SL607",)))),
    # part_size 0 on an axis of unknown length: OpenVINO's core gives the body Parameter [0], and the
    # Reshape of its 0 elements to [] is refused at read; SL603 names the part_size, the one cause
    Case("SL603", "fail-part-size-0-reshape", lambda: loop_reshape_part([]), _fx("SL603", Edit(
        'start="0" end="-1" stride="1" part_size="1"', 'start="0" end="-1" stride="1" part_size="0"', ("SL603",)))),
    Case("SL603", "pass-part-size-1-reshape", lambda: loop_reshape_part([])),
    # an axis of unknown length: the CPU plugin reads a reversed sub-range from the axis's last element
    Case("SL607", "fail-dynamic", lambda: ti_dynamic_slice(-3, 0, -1), _fx("SL607", Edit(
        '<input axis="0" external_port_id="0"', '<input axis="0" external_port_id="0"', ("SL607",)))),
    Case("SL607", "pass-dynamic", lambda: ti_dynamic_slice(0, -2, 1)),
    # no sliced input: |-1 - 0| // 3 = 0 iterations, the output's axis left of unknown length in the file
    Case("SL607", "fail-no-sliced-input", lambda: ti_invariant_concat(-1, 3), _fx("SL607", *[
        Edit("<dim>0</dim>", "<dim>-1</dim>")] * 2, Edit(
        '<output axis="1" external_port_id="1"', '<output axis="1" external_port_id="1"', ("SL607",)))),
    Case("SL607", "pass-no-sliced-input", lambda: ti_invariant_concat(6, 3)),
    Case("SL607", "pass-dynamic-reversed", lambda: ti_dynamic_slice(-1, 0, -1)),
    # the same on an axis of unknown length: the CPU plugin has dim // |stride| parts and fails past them
    Case("SL607", "fail-loop-dynamic-stride-3", lambda: loop_slices(0, 3, 1, -1, length=-1), _fx("SL607", Edit(
        '<input axis="0" external_port_id="2"', '<input axis="0" external_port_id="2"', ("SL607",)))),
    Case("SL607", "pass-loop-dynamic", lambda: loop_slices(-1, -2, 2, 0, length=-1)),
    Case("LP709", "fail-input", lambda: loop_slices(trip=3), _fx("LP709", Edit(
        'internal_layer_id="0" start="0" end="-1"', 'internal_layer_id="0" start="1" end="3"', ("LP709",)))),
    Case("LP709", "pass-reversed", lambda: loop_slices(trip=4), _fx("LP709", Edit(
        'internal_layer_id="0" start="0" end="-1" stride="1"', 'internal_layer_id="0" start="-1" end="0" stride="-1"',
        ()))),
    # a one-element tensor of rank 2 where the Loop takes rank 0 or 1 (OpenVINO: "Rank of ... must be
    # equal to 0 or 1"); declared consistently, so only the Loop rule speaks
    Case("LP701", "fail-rank2", small_loop, _fx("LP701", *_rank2_edits("I64", "LP701", 0))),
    Case("LP702", "fail-rank2", small_loop, _fx("LP702", *_rank2_edits("BOOL", "LP702", 1), also=[
        ('<port id="0" precision="BOOL">', 0, ("LP702",), 'element_type="boolean" shape="1, 1"')])),
    # the CPU plugin takes an i16/u16/u32/u64 current_iteration (a warning), refuses f32 at the first run of
    # a dynamic Loop, and never sees one in a Loop only an unread output of the Loop around it reads
    Case("LP705", "fail-u32", loop_typed_iteration, _fx("LP705", Edit(
        '<data shape="" element_type="u32" />', '<data shape="" element_type="u32" />', ("LP705",)))),
    Case("LP705", "fail-dynamic", lambda: loop_typed_iteration(np.float32, -1, trip_input=True), _fx("LP705", Edit(
        '<data shape="" element_type="f32" />', '<data shape="" element_type="f32" />', ("LP705",)))),
    Case("LP705", "fail-unread", lambda: loop_iteration_nested(np.float32, dynamic=False, read=False),
         _fx("LP705", Edit('<data shape="" element_type="f32" />', '<data shape="" element_type="f32" />',
                           ("LP705",)))),
    Case("LP705", "pass-unread", lambda: loop_iteration_nested(np.int64, dynamic=False, read=False)),
    Case("LP704", "fail-u8", loop_typed_condition, _fx("LP704", Edit(
        'type="Result"', 'type="Result"', ("LP704",), after="<body>"))),
    Case("LP704", "pass-boolean", lambda: loop_typed_condition(np.bool_)),
    Case("LP704", "fail-unread", lambda: loop_condition_nested(np.int32, read=False), _fx("LP704", Edit(
        'type="Result"', 'type="Result"', ("LP704",), after='<layer id="9"'))),
    Case("LP704", "fail-rank2", small_loop, _fx("LP704", Edit(
        'element_type="boolean" shape="1"', 'element_type="boolean" shape="1, 1"', (), after="<body>"),
        Edit("<dim>1</dim>", _DIMS2, (), after='element_type="boolean" shape="1, 1"'),
        Edit("<dim>1</dim>", _DIMS2, (), after='type="Result"'),
        Edit('<layer id="5"', '<layer id="5"', ("LP704",), after="<body>"))),
    # a scalar and a one-element 1-D shape meet (docs/semantics.md, "Where two shapes meet")
    Case("BE505", "pass-scalar-state", loop_scalar_state),
    Case("BE505", "pass-ti-scalar-state", ti_scalar_state),
    Case("IF804", "pass-scalar-or-one", if_scalar_or_one),
    Case("IF804", "pass-scalar-or-vector", if_scalar_or_vector),
    # a constant condition: OpenVINO checks only the branch that runs
    Case("IF804", "pass-constant-ranks", if_constant_then_ranks),
    Case("T211", "pass-stale-branch", if_stale_branch),
    Case("T210", "pass-dead-branch", if_dead_branch_add),
    Case("T210", "fail-dead-branch", if_dead_branch_add, lambda text: _mark_line(
        _declare_dead_parameter(text), 'type="Add"', "T210")),
    # an unfed body Parameter: an error when the body reads it, a warning when nothing does
    Case("PM407", "fail-read", lambda: loop_without_current_iteration(True),
         lambda text: _mark_line(text, 'name="iter" type="Parameter"', "PM407")),
    Case("PM407", "fail-unused", lambda: loop_without_current_iteration(False),
         lambda text: _mark_line(text, 'name="iter" type="Parameter"', "PM407")),
    # no trip count and a body condition always true: the slices end the Loop (the CPU plugin fails there)
    Case("LP708", "fail-unbounded", lambda: loop_slices(trip=-1), _mark_picked("LP708", _slice_entry)),
    # a Loop reads whole parts only: 5 rows in parts of 2 leave row 4 unread
    Case("LP712", "fail", lambda: loop_slices(0, 2, 2, -1, 2, length=5), _mark_picked("LP712", _slice_entry)),
    Case("LP712", "pass", lambda: loop_slices(0, 2, 2, -1, 3)),
    # Loops that may run, or surely run, zero times; a Loop concatenating values of length 4
    Case("LP710", "fail", lambda: zero_loop(None, unmerged=True), _mark_picked("LP710", _entry_of("y"))),
    Case("LP710", "pass", lambda: zero_loop(None)),
    Case("LP711", "fail", lambda: zero_loop(0), _mark_picked("LP711", _loop_input_port(0))),
    Case("LP711", "pass", lambda: zero_loop(0, concat=False)),
    Case("SL608", "fail", lambda: zero_loop(3, length=4), _mark_picked("SL608", _concat_entry)),
    Case("SL608", "pass", lambda: zero_loop(3)),
    # valid IR that OpenVINO's CPU plugin refuses to compile (warnings)
    Case("IF806", "fail-unused", if_unfed_unread,
         lambda text: _mark_line(text, 'name="extra" type="Parameter"', "IF806")),
    Case("T213", "fail", param_dynamic_rank, lambda text: _mark_line(text, 'shape="..."', "T213")),
    Case("T213", "pass", param_dynamic_dims),
    Case("T213", "fail-loop", loop_widened_state, lambda text: _mark_body_param(text, "T213")),
    Case("T213", "pass-loop", lambda: loop_widened_state(False)),
    Case("T213", "fail-declared-scalar", loop_state_of_other_rank, _declare_scalar_state),
    Case("T214", "fail", param_dynamic_type, lambda text: _mark_line(text, 'element_type="dynamic"', "T214")),
    Case("T214", "fail-undefined", param_dynamic_type, lambda text: _mark_line(
        text.replace('element_type="dynamic"', 'element_type="undefined"'), 'element_type="undefined"', "T214")),
    Case("T214", "pass", relu_2x3),
    Case("PM420", "fail", loop_scalar_state_output, lambda text: _mark_body_param(_mark_line(
        text, '<port id="3" precision="FP32" names="y" />', "PM420"), "T213")),  # the widened state Parameter
    Case("PM420", "pass", loop_scalar_state),
    Case("IF807", "fail", if_rank_differs, lambda text: _mark_line(text, '<port id="2" precision="FP32"', "IF807")),
    Case("IF807", "pass", if_scalar_or_vector),
    # a Convert to f16 read back as f32: the CPU plugin computes f16 in f32 and does not round (T216)
    Case("T216", "fail", f16_round_trip, lambda text: _mark_line(text, 'type="Convert"', "T216")),
    Case("T216", "fail-through-op", lambda: f16_round_trip(True),
         lambda text: _mark_line(text, 'type="Convert"', "T216")),
    Case("T216", "pass", f16_rounded_pairs),
    # f16 ops read back as f32: the first op that rounds (the Multiply) carries the finding
    Case("T216", "fail-computed", f16_computed, lambda text: _mark_line(text, 'type="Multiply"', "T216")),
    Case("T216", "pass-moved", lambda: f16_computed(True)),
    # the same across body boundaries: the walk follows port maps, If branches and back edges
    Case("T216", "fail-into-loop", lambda: f16_across_bodies("into-loop"),
         lambda text: _mark_line(text, 'type="Convert"', "T216")),
    Case("T216", "fail-into-if", lambda: f16_across_bodies("into-if"),
         lambda text: _mark_line(text, 'type="Convert"', "T216")),
    Case("T216", "fail-out-of-loop", lambda: f16_across_bodies("out-of-loop"),
         lambda text: _mark_line(text, 'type="Convert"', "T216")),
    Case("T216", "fail-back-edge", lambda: f16_across_bodies("back-edge"),
         lambda text: _mark_layer_of(text, 'destination_type="f16"', "T216")),
    Case("T216", "pass-f16-output", lambda: f16_across_bodies("f16-output")),
    Case("T216", "fail-fed-back-op", f16_fed_back_op, lambda text: _mark_line(text, 'type="Tanh"', "T216")),
    Case("T216", "fail-fed-back-chain", lambda: f16_fed_back_op(True),
         lambda text: _mark_line(text, 'name="first"', "T216")),
    Case("T216", "fail-op-after", lambda: f16_across_bodies("op-after"),
         lambda text: _mark_layer_of(text, 'destination_type="f16"', "T216")),
    # x * Sigmoid(x * b), b a [1] Parameter: the CPU plugin fuses a Swish and refuses its beta (T218)
    Case("T218", "fail", lambda: swish_pattern(True), lambda text: _mark_last_line(text, 'type="Multiply"', "T218")),
    Case("T218", "pass", lambda: swish_pattern(False)),
    # a back edge passing on an Add/Multiply over a reshaped slice: the CPU plugin computes it in place (BE507)
    Case("BE507", "fail", lambda: in_place_back_edge("fail"), _mark_picked("BE507", _first_back_edge)),
    Case("BE507", "fail-u8-fused", lambda: in_place_back_edge("fail-u8-fused"),
         _mark_picked("BE507", _first_back_edge)),
    Case("BE507", "fail-tail", lambda: in_place_back_edge("fail-tail"), _mark_picked("BE507", _first_back_edge)),
    Case("BE507", "fail-u8-tail", lambda: in_place_back_edge("fail-u8-tail"),
         _mark_picked("BE507", _first_back_edge)),
    Case("BE507", "pass", lambda: in_place_back_edge("pass")),
    # ... and one over another state's memory, whose back edge writes its next value there first
    Case("BE507", "fail-state", lambda: in_place_over_state("fail"), _mark_picked("BE507", _back_edge_to(1))),
    Case("BE507", "fail-state-ti", lambda: in_place_over_state("fail-ti"), _mark_picked("BE507", _back_edge_to(1))),
    Case("BE507", "fail-state-itself", lambda: in_place_over_state("fail-itself"),
         _mark_picked("BE507", _back_edge_to(1))),
    Case("BE507", "pass-state", lambda: in_place_over_state("pass")),
    # a u8 activation read only by an eltwise op in a body: the CPU plugin computes the pair in f32 (T219)
    Case("T219", "fail", lambda: int_activation_fusion("fail"),
         lambda text: _mark_last_line(text, 'type="Add"', "T219")),
    Case("T219", "fail-reshapes", lambda: int_activation_fusion("fail-reshapes"),
         lambda text: _mark_last_line(text, 'type="Add"', "T219")),
    Case("T219", "pass-reshapes", lambda: int_activation_fusion("pass-reshapes")),
    Case("T219", "fail-if", lambda: int_activation_fusion("fail-if"),
         lambda text: _mark_line(text, 'type="Multiply"', "T219")),
    Case("T219", "fail-folded-if", lambda: int_activation_fusion("fail-folded-if"),
         lambda text: _mark_last_line(text, 'type="Add"', "T219")),
    Case("T219", "pass", lambda: int_activation_fusion("pass")),
    Case("T219", "fail-chain", lambda: int_activation_fusion("fail-chain"),
         lambda text: _mark_last_line(text, 'type="Sigmoid"', "T219")),
    Case("T219", "fail-chain-loop", lambda: int_activation_fusion("fail-chain-loop"),
         lambda text: _mark_line(text, 'type="Sqrt"', "T219")),
    Case("T219", "fail-chain-unsigned", lambda: int_activation_fusion("fail-chain-unsigned"),
         lambda text: _mark_layer_of(text, 'name="outer', "T219", every=True)),
    Case("T219", "pass-chain", lambda: int_activation_fusion("pass-chain")),
    # x + s[k], x a scalar invariant input on the Add's input 0: the CPU plugin adds in place (PM414)
    Case("PM414", "fail", lambda: invariant_plus_slice("fail"),
         _mark_xb),
    Case("PM414", "fail-loop", lambda: invariant_plus_slice("fail", loop=True),
         _mark_xb),
    Case("PM414", "pass", lambda: invariant_plus_slice("swapped")),
    Case("PM414", "pass-rank1", lambda: invariant_plus_slice("rank1")),
    Case("PM414", "fail-convert", lambda: invariant_plus_slice("convert"),
         _mark_xb),
    Case("PM414", "pass-convert-kept", lambda: invariant_plus_slice("convert-kept")),
    Case("PM414", "fail-reshape", lambda: invariant_plus_slice("reshape"),
         _mark_xb),
    Case("PM414", "pass-squeeze", lambda: invariant_plus_slice("squeeze")),
    Case("PM414", "pass-reduced", lambda: invariant_plus_slice("reduced")),
    Case("PM414", "pass-slice-read-twice", lambda: invariant_plus_slice("slice-read-twice")),
    # x read by two identical chains (merged by OpenVINO) or by two different ones
    Case("PM414", "fail-shared-chains", lambda: invariant_two_readers("shared-chains"), _mark_xb),
    Case("PM414", "pass-two-chains", lambda: invariant_two_readers("mul-chain")),
    # x + a[k] read by an op of b[k] fused into its node: the node still computes in x's memory
    *(Case("PM414", f"fail-fused-{r}", lambda r=r: invariant_plus_two_slices(r), _mark_xb)
      for r in ("add", "multiply", "maximum", "minimum", "subtract-second")),
    *(Case("PM414", f"pass-fused-{r}", lambda r=r: invariant_plus_two_slices(r))
      for r in ("subtract", "divide", "relu-operand")),
    # Reshape(x, [2,1]) + ReduceSum(s[k]) with Tanh(x) run before (its Result first): added in x's memory
    Case("PM414", "fail-view", lambda: invariant_reshaped_plus_slice("t"),
         _mark_xb),
    Case("PM414", "fail-view-loop", lambda: invariant_reshaped_plus_slice("t", loop=True),
         _mark_xb),
    Case("PM414", "pass-view-read-after", lambda: invariant_reshaped_plus_slice("y")),
    # x also read by a Sigmoid the plugin runs before the Add (its Result first): the Add is still in place
    Case("PM414", "fail-reader-before", lambda: invariant_plus_slice("reader-before"),
         _mark_xb),
    Case("PM414", "fail-reader-before-loop", lambda: invariant_plus_slice("reader-before", loop=True),
         _mark_xb),
    Case("PM414", "pass-reader-after", lambda: invariant_plus_slice("reader-after")),
    Case("PM414", "pass-reader-view", lambda: invariant_plus_slice("reader-view")),
    Case("PM414", "pass-fused-tail", lambda: invariant_plus_slice("fused-tail")),
    Case("PM414", "fail-slice-view-relu", lambda: invariant_plus_slice("view-relu"),
         _mark_xb),
    Case("PM414", "fail-slice-view-subtract", lambda: invariant_plus_slice("view-subtract"),
         _mark_xb),
    Case("PM414", "pass-slice-view-multiply", lambda: invariant_plus_slice("view-multiply")),
    Case("PM414", "fail-reduced-view", lambda: invariant_plus_slice("reduced-view"),
         _mark_xb),
    Case("PM414", "fail-nested-loop-view", lambda: invariant_plus_slice("loop-view"),
         _mark_xb),
    Case("PM414", "pass-eltwise-view", lambda: invariant_plus_slice("tanh-view")),
    Case("PM414", "pass-result-reader", lambda: invariant_plus_slice("result-reader")),
    # an If's value reshaped to [] beside x: the If reading x (its condition or branch) still lets it add in place
    Case("PM414", "fail-if-condition", lambda: invariant_plus_slice("if-condition"),
         _mark_xb),
    Case("PM414", "fail-if-branch", lambda: invariant_plus_slice("if-branch"),
         _mark_xb),
    Case("PM414", "pass-if-value", lambda: invariant_plus_slice("if-value")),
    Case("PM414", "pass-if-reader-after", lambda: invariant_plus_slice("if-reader-after")),
    Case("PM414", "fail-reader-reshape", lambda: invariant_plus_slice("reader-reshape"),
         _mark_xb),
    # x + Reshape(p, []), p an invariant input with another reader: in place where p's shape is dynamic (PM414)
    Case("PM414", "fail-dynamic-invariant", lambda: invariant_plus_invariant([-1], "concat"), _mark_xb),
    Case("PM414", "fail-dynamic-invariant-loop", lambda: invariant_plus_invariant([-1], "concat", loop=True),
         _mark_xb),
    Case("PM414", "pass-static-invariant", lambda: invariant_plus_invariant([1], "concat")),
    Case("PM414", "fail-invariant-result", lambda: invariant_plus_invariant([1], "result"), _mark_xb),
    # an If of branch-dependent shape in a TI body whose merged input has dynamic dims (IF810)
    Case("IF810", "fail", lambda: if_shape_in_dynamic_body(True),
         lambda text: _mark_line(text, '<port id="2" precision="I64">\n\t\t\t\t\t\t\t\t<dim>-1</dim>', "IF810")),
    Case("IF810", "pass", lambda: if_shape_in_dynamic_body(False)),
    # an If's value added to a TI state of dynamic dims, then a Convert pair on the back edge's way (IF811)
    Case("IF811", "fail", lambda: if_value_in_dynamic_state(True),
         lambda text: _mark_line(text, 'type="If"', "IF811")),
    Case("IF811", "pass", lambda: if_value_in_dynamic_state(False)),
    # the same in a Loop whose state path is only Add, with another computed output and ReLU reading the state
    Case("IF811", "fail-output", lambda: if_value_in_dynamic_state_output(False),
         lambda text: _mark_line(text, 'type="If"', "IF811")),
    Case("IF811", "pass-output", lambda: if_value_in_dynamic_state_output(True)),
    # a u8 Loop state widened to dynamic dims takes an If's value, then a Convert pair through i64
    # the If's u8 output of dynamic shape, read by the Add the Convert pair reads, is IF813's structure too
    Case("IF811", "fail-u8", lambda: if_value_in_u8_state(True),
         lambda text: _mark_if_output(_mark_line(text, 'type="If"', "IF811"), "IF813")),
    Case("IF811", "pass-u8", lambda: if_value_in_u8_state(False)),
    # a u8 If output of dynamic shape read by an op, in a model holding a Convert the plugin rewrites (IF813):
    # a Convert of an unrelated input to i64 (to i32 passes), a pair u8 -> f16 -> u8 after the reader, a
    # Loop in the other branch beside a Convert of x to f16 (to f32 passes), and in a Loop body
    Case("IF813", "fail", lambda: if_byte_output_beside_convert("i64"),
         lambda text: _mark_if_output(text, "IF813")),
    Case("IF813", "pass", lambda: if_byte_output_beside_convert("i32")),
    Case("IF813", "fail-pair", lambda: if_byte_output_then_converted("pair"),
         lambda text: _mark_if_output(text, "IF813")),
    Case("IF813", "pass-f32", lambda: if_byte_output_then_converted("f32")),
    Case("IF813", "fail-loop-branch", lambda: if_byte_output_beside_loop(False),
         lambda text: _mark_if_output(text, "IF813")),
    Case("IF813", "fail-ti-branch", lambda: if_byte_output_beside_loop(False, ti=True),
         lambda text: _mark_if_output(text, "IF813")),
    Case("IF813", "pass-loop-branch", lambda: if_byte_output_beside_loop(True)),
    Case("IF813", "fail-loop-body", lambda: if_byte_output_in_loop_body("i64"),
         lambda text: _mark_if_output(text, "IF813")),
    Case("IF813", "pass-loop-body", lambda: if_byte_output_in_loop_body(None)),
    Case("IF813", "pass-direct", lambda: if_byte_output_then_converted("direct")),
    Case("IF813", "pass-static", lambda: if_byte_output_then_converted("static")),
    Case("IF813", "pass-i8", lambda: if_byte_output_then_converted("i8")),
    # a body condition of shape [?]: the CPU plugin fails at inference (LP713); a scalar one runs
    Case("LP713", "fail", lambda: loop_condition_of(False), _mark_picked("LP713", _condition_result)),
    Case("LP713", "pass", lambda: loop_condition_of(True)),
    # an output nothing reads, alone reading a Parameter before current_iteration: the CPU plugin fails (LP714)
    Case("LP714", "fail", lambda: loop_unread_output(False), _mark_picked("LP714", _first_body_parameter)),
    Case("LP714", "pass", lambda: loop_unread_output(True)),
    Case("LP714", "fail-nested", loop_nested_unread_output, _mark_picked("LP714", _first_body_parameter)),
    Case("LP714", "fail-if", loop_if_unread_output, _mark_picked("LP714", _first_body_parameter)),
    Case("LP714", "pass-if", lambda: loop_if_unread_output(read=True)),
    # a constant invariant input before current_iteration: OpenVINO pushes it into the body, the CPU plugin fails
    Case("LP715", "fail", lambda: loop_constant_input("fail"), _mark_picked("LP715", _first_body_parameter)),
    Case("LP715", "fail-in-if", lambda: loop_constant_input("in-if"), _mark_picked("LP715", _first_body_parameter)),
    Case("LP715", "fail-middle", lambda: loop_constant_input("middle"),
         _mark_picked("LP715", _first_body_parameter)),
    Case("LP715", "fail-shapeof", lambda: loop_constant_input("shapeof"),
         _mark_picked("LP715", _first_body_parameter)),
    Case("LP715", "fail-one-iteration", lambda: loop_constant_input("one-iteration"),
         _mark_picked("LP715", _first_body_parameter)),
    Case("LP715", "pass", lambda: loop_constant_input("pass")),
    Case("LP716", "fail", lambda: loop_folded_nested("fail"),
         lambda text: _mark_layer_of(text, 'type="Greater"', "LP716")),
    Case("LP716", "pass", lambda: loop_folded_nested("pass")),
    Case("LP717", "fail", lambda: loop_constant_fed_dynamic("fail"),
         lambda text: _mark_line(text, 'axis="1" external_port_id=', "LP717")),
    Case("LP717", "fail-in-if", lambda: loop_constant_fed_dynamic("in-if"),
         lambda text: _mark_line(text, 'axis="1" external_port_id=', "LP717")),
    Case("LP717", "pass", lambda: loop_constant_fed_dynamic("pass")),
    Case("LP715", "pass-unread", lambda: loop_constant_input("unread"), _mark_picked("PM410", _first_body_parameter)),
    # a TI's sliced Parameter read only for an output nothing reads: the CPU plugin drops the slicing (PM410)
    Case("PM410", "fail-unread-output", lambda: ti_unread_output(1), _mark_picked("PM410", _first_body_parameter)),
    Case("PM410", "fail-unread-output-stride2", lambda: ti_unread_output(2),
         _mark_picked("PM410", _first_body_parameter)),
    # a TI's sliced Parameter read only by an If input no branch reads: the CPU plugin runs the body once (PM410)
    Case("PM410", "fail-dead-if-input", lambda: body_reading_through_dead_if("ti"),
         _mark_picked("PM410", _first_body_parameter)),
    # the body is the textbook RNN tanh(Reshape(x[k]) + h): BE507 too (irlint/openvino/memory.py)
    Case("PM412", "fail", ti_dynamic_type,
         lambda text: _mark_line(_mark_dynamic(text, "PM412"), '<edge from-layer="6" to-layer="1"', "BE507")),
    Case("PM412", "pass", small_loop, loop_dynamic_type_text),
]


def _declare_dead_parameter(text: str) -> str:
    """The else branch's Parameter declared [2,3] (what the If feeds it) instead of a dynamic rank."""
    at = text.index("<else_body>")
    old = '<data shape="..." element_type="f32" />'
    at = text.index(old, at)
    text = text[:at] + '<data shape="2,3" element_type="f32" />' + text[at + len(old):]
    port_at = text.index("<port ", at)
    end = text.index("/>", port_at) + 2
    dims = "\n\t\t\t\t\t\t\t\t<dim>2</dim>\n\t\t\t\t\t\t\t\t<dim>3</dim>\n\t\t\t\t\t\t\t</port>"
    return text[:port_at] + text[port_at:end - 2].rstrip() + ">" + dims + text[end:]


def _mark_body_param(text: str, code: str) -> str:
    """Mark the `<layer` line of the first Parameter inside a `<body>`."""
    at = text.index('type="Parameter"', text.index("<body>"))
    start = text.rindex("\n", 0, at) + 1
    indent = text[start:at][: len(text[start:at]) - len(text[start:at].lstrip())]
    return text[:start] + f"{indent}<!-- expect: {code} -->\n" + text[start:]


def _mark_line(text: str, needle: str, code: str) -> str:
    """Mark the first line holding `needle`."""
    at = text.index(needle)
    start = text.rindex("\n", 0, at) + 1
    indent = text[start:at][: len(text[start:at]) - len(text[start:at].lstrip())]
    return text[:start] + f"{indent}<!-- expect: {code} -->\n" + text[start:]


def _mark_layer_of(text: str, needle: str, code: str, every: bool = False) -> str:
    """Mark the `<layer` line of the first layer holding `needle` (of each, with `every`)."""
    found = text.find(needle)
    while found >= 0:
        at = text.rindex("<layer ", 0, found)
        start = text.rindex("\n", 0, at) + 1
        mark = f"{text[start:at]}<!-- expect: {code} -->\n"
        text = text[:start] + mark + text[start:]
        found = text.find(needle, found + len(mark) + 1) if every else -1
    return text


def _mark_if_output(text: str, code: str) -> str:
    """Mark the output port line of the first If (its `<output>` block's first port)."""
    at = text.index('type="If"')
    at = text.index("<output>", at)
    at = text.index("<port ", at)
    start = text.rindex("\n", 0, at) + 1
    return text[:start] + f"{text[start:at]}<!-- expect: {code} -->\n" + text[start:]


def _mark_last_line(text: str, needle: str, code: str) -> str:
    """Mark the last line holding `needle`."""
    at = text.rindex(needle)
    start = text.rindex("\n", 0, at) + 1
    indent = text[start:at][: len(text[start:at]) - len(text[start:at].lstrip())]
    return text[:start] + f"{indent}<!-- expect: {code} -->\n" + text[start:]


def _mark_dynamic(text: str, code: str) -> str:
    """Mark every `element_type="dynamic"` line."""
    lines = text.split("\n")
    out = []
    for line in lines:
        if 'element_type="dynamic"' in line:
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}<!-- expect: {code} -->")
        out.append(line)
    return "\n".join(out)


def main(only: list[str] | None = None) -> None:
    """Every case (after removing the old ones), or with `only` (codes) just those codes' cases."""
    if not only:
        for old in OUT.glob("*/*-*.*"):
            old.unlink()
    with tempfile.TemporaryDirectory() as tmp:
        for case in CASES:
            if only and case.code not in only:
                continue
            d = OUT / case.code
            d.mkdir(parents=True, exist_ok=True)
            model = case.build()
            if model is None:
                src_text = ""
            else:
                src = Path(tmp) / f"{case.code}-{case.name}.xml"
                save(model, src)
                src_text = src.read_text()
                shutil.copyfile(src.with_suffix(".bin"), d / f"{case.name}.bin")
            (d / f"{case.name}.xml").write_text(case.edit(src_text) if case.edit else src_text)
            print(case.code, case.name)
    if only:
        return
    from tests.rules.make_reader_fixtures import main as make_reader

    make_reader()  # its fail-/pass- files were removed above with the others
    from tests.rules.make_family_fixtures import main as make_families

    make_families()  # the same for the Loop families' cases


if __name__ == "__main__":
    main(sys.argv[1:])  # `make_case_fixtures.py T216 LP713`: only those codes' cases
