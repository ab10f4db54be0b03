"""Valid IRs of every TensorIterator/Loop configuration, built with the openvino API (and ONNX).

Each builder returns an `openvino.Model`; `ALL` maps a name to its builder. They are the
no-false-positive corpus: irlint must report no error on any of them, and the mutation suite
starts from some of them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np


def _ov():
    import openvino as ov
    import openvino.opset13 as ops

    return ov, ops


def _ti_tanh(x_shape, axis, start, stride, part, end, h_dim, *, out_concat=True, name="ti"):
    """A TI with a sliced X, a tanh state update (back edge) and last-value + concatenated outputs."""
    ov, ops = _ov()
    x = ops.parameter(x_shape, np.float32, name="X")
    slice_shape = list(x_shape)
    slice_shape[axis] = part
    h = ops.parameter([1, h_dim], np.float32, name="H")
    xi = ops.parameter(slice_shape, np.float32)
    hi = ops.parameter([1, h_dim], np.float32)
    flat = ops.reshape(xi, ops.constant(np.array([1, -1], np.int64)), False)
    w = ops.constant(np.linspace(-1, 1, int(np.prod(slice_shape)) * h_dim, dtype=np.float32).reshape(-1, h_dim))
    h2 = ops.tanh(ops.add(ops.matmul(flat, w, False, False), hi))
    ro = ops.result(h2)
    rs = ops.result(ops.unsqueeze(h2, ops.constant(np.array([1], np.int64))))
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([ro, rs] if out_concat else [ro], [xi, hi]))
    ti.set_sliced_input(xi, x.output(0), start, stride, part, end, axis)
    ti.set_merged_input(hi, h.output(0), ro.output(0))
    outs = [ops.result(ti.get_iter_value(ro.output(0), -1), name="last")]
    if out_concat:
        outs.append(ops.result(ti.get_concatenated_slices(rs.output(0), 0, 1, 1, -1, 1), name="all"))
    return ov.Model(outs, [x, h], name)


def ti_forward():
    return _ti_tanh([1, 5, 4], 1, 0, 1, 1, -1, 3)


def ti_reverse():
    return _ti_tanh([1, 5, 4], 1, -1, -1, 1, 0, 3)


def ti_part_size_2():
    return _ti_tanh([1, 6, 4], 1, 0, 2, 2, -1, 3)


def ti_axis0():
    return _ti_tanh([5, 2], 0, 0, 1, 1, -1, 2)


def ti_lstm():
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
    from make_examples import lstm_ti

    return lstm_ti()[0]


def ti_gru():
    ov, ops = _ov()
    import openvino.opset3 as ops3

    x = ops.parameter([2, 4, 3], np.float32, name="X")
    h = ops.parameter([2, 5], np.float32, name="H")
    xi = ops.parameter([2, 1, 3], np.float32)
    hi = ops.parameter([2, 5], np.float32)
    x2 = ops.squeeze(xi, ops.constant(np.array([1], np.int64)))
    rng = np.random.default_rng(1)
    cell = ops3.gru_cell(x2, hi, ops.constant(rng.standard_normal((15, 3)).astype(np.float32)),
                         ops.constant(rng.standard_normal((15, 5)).astype(np.float32)),
                         ops.constant(rng.standard_normal(20).astype(np.float32)), 5, linear_before_reset=True)
    ro = ops.result(cell)
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([ro], [xi, hi]))
    ti.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(hi, h.output(0), ro.output(0))
    return ov.Model([ops.result(ti.get_iter_value(ro.output(0), -1), name="h")], [x, h], "ti_gru")


def ti_rnn_dynamic_batch():
    ov, ops = _ov()
    x = ops.parameter([-1, 4, 3], np.float32, name="X")
    h = ops.parameter([-1, 2], np.float32, name="H")
    xi = ops.parameter([-1, 1, 3], np.float32)
    hi = ops.parameter([-1, 2], np.float32)
    x2 = ops.squeeze(xi, ops.constant(np.array([1], np.int64)))
    cell = ops.rnn_cell(x2, hi, ops.constant(np.ones((2, 3), np.float32)), ops.constant(np.ones((2, 2), np.float32)),
                        ops.constant(np.zeros(2, np.float32)), 2, ["tanh"], [], [])
    ro = ops.result(cell)
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([ro], [xi, hi]))
    ti.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(hi, h.output(0), ro.output(0))
    return ov.Model([ops.result(ti.get_iter_value(ro.output(0), -1), name="h")], [x, h], "ti_rnn_dyn")


def _loop(trip, cond, body_cond_fn, *, current_iteration=True, trip_dtype=np.int64, scan_axis=0, one_elem=False):
    ov, ops = _ov()
    x = ops.parameter([3], np.float32, name="x")
    i = ops.parameter([1] if one_elem else [], trip_dtype)
    acc = ops.parameter([3], np.float32)
    step = ops.convert(i, np.float32)
    nxt = ops.add(acc, ops.multiply(x_body := ops.parameter([3], np.float32), step))
    r = ops.result(nxt)
    c = ops.result(body_cond_fn(ops, nxt))
    scan = ops.result(ops.unsqueeze(nxt, ops.constant(np.array([scan_axis], np.int64))))
    params = [i, acc, x_body] if current_iteration else [acc, x_body]
    loop = ops.loop(ops.constant(np.array([trip] if one_elem else trip, trip_dtype)),
                    ops.constant(np.array([cond]) if one_elem else np.bool_(cond)))
    loop.set_function(ov.Model([r, c, scan], params))
    loop.set_special_body_ports([0 if current_iteration else -1, 1])
    loop.set_merged_input(acc, ops.constant(np.zeros(3, np.float32)).output(0), r.output(0))
    loop.set_invariant_input(x_body, x.output(0))
    outs = [ops.result(loop.get_iter_value(r.output(0), -1), name="acc"),
            ops.result(loop.get_concatenated_slices(scan.output(0), 0, 1, 1, -1, scan_axis), name="scan")]
    return ov.Model(outs, [x], "loop")


def loop_for():
    return _loop(4, True, lambda ops, v: ops.constant(np.bool_(True)))


def loop_for_i32_one_element():
    return _loop(4, True, lambda ops, v: ops.constant(np.array([True])), trip_dtype=np.int32, one_elem=True)


def loop_while():
    return _loop(-1, True, lambda ops, v: ops.less(ops.reduce_sum(v, ops.constant(np.array([0], np.int64)), False),
                                                   ops.constant(np.float32(20))))


def loop_do_while():
    return _loop(-1, True, lambda ops, v: ops.constant(np.bool_(False)))


def loop_for_with_condition():
    return _loop(6, True, lambda ops, v: ops.less(ops.reduce_max(v, ops.constant(np.array([0], np.int64)), False),
                                                  ops.constant(np.float32(9))))


def loop_zero_iterations():
    return _loop(0, True, lambda ops, v: ops.constant(np.bool_(True)))


def loop_scan_axis1():
    return _loop(3, True, lambda ops, v: ops.constant(np.bool_(True)), scan_axis=1)


def loop_sliced_input():
    ov, ops = _ov()
    x = ops.parameter([4, 3], np.float32, name="x")
    xi = ops.parameter([1, 3], np.float32)
    acc = ops.parameter([1, 3], np.float32)
    nxt = ops.add(acc, xi)
    r = ops.result(nxt)
    c = ops.result(ops.constant(np.bool_(True)))
    loop = ops.loop(ops.constant(np.int64(4)), ops.constant(np.bool_(True)))
    loop.set_function(ov.Model([r, c], [xi, acc]))
    loop.set_special_body_ports([-1, 1])
    loop.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 0)
    loop.set_merged_input(acc, ops.constant(np.zeros((1, 3), np.float32)).output(0), r.output(0))
    return ov.Model([ops.result(loop.get_iter_value(r.output(0), -1), name="sum")], [x], "loop_sliced")


def loop_slices(start=0, stride=1, part=1, end=-1, trip=None, *, length=6, second=None, name="loop_slices"):
    """A Loop summing the parts of x ([length, 2], sliced on axis 0 with the given attributes) into a
    merged [1, 2], with a concatenated [1, 2] per iteration; `trip` None makes the trip count a
    Parameter; `second` adds a second sliced input y of that many rows (default attributes)."""
    ov, ops = _ov()
    x = ops.parameter([length, 2], np.float32, name="x")
    xi = ops.parameter([part, 2], np.float32)
    acc = ops.parameter([1, 2], np.float32)
    s = ops.reduce_sum(xi, ops.constant(np.array([0], np.int64)), True)
    body_params, params = [xi, acc], [x]
    if second is not None:
        y = ops.parameter([second, 2], np.float32, name="y")
        yi = ops.parameter([1, 2], np.float32)
        s = ops.add(s, ops.multiply(yi, ops.constant(np.float32(100))))
        body_params.append(yi)
        params.append(y)
    nxt = ops.add(acc, s)
    r, c, scan = ops.result(nxt), ops.result(ops.constant(np.bool_(True))), ops.result(s)
    if trip is None:
        count = ops.parameter([], np.int64, name="trip")
        params.append(count)
    else:
        count = ops.constant(np.int64(trip))
    loop = ops.loop(count, ops.constant(np.bool_(True)))
    loop.set_function(ov.Model([r, c, scan], body_params))
    loop.set_special_body_ports([-1, 1])
    loop.set_sliced_input(xi, x.output(0), start, stride, part, end, 0)
    if second is not None:
        loop.set_sliced_input(yi, y.output(0), 0, 1, 1, -1, 0)
    loop.set_merged_input(acc, ops.constant(np.zeros((1, 2), np.float32)).output(0), r.output(0))
    outs = [ops.result(loop.get_iter_value(r.output(0), -1), name="sum"),
            ops.result(loop.get_concatenated_slices(scan.output(0), 0, 1, 1, -1, 0), name="scan")]
    return ov.Model(outs, params, name)


def loop_sliced_reversed():
    return loop_slices(-1, -1, 1, 0, 6)


def loop_sliced_reversed_fewer_iterations():
    return loop_slices(-1, -1, 1, 0, 4)


def loop_sliced_part_size_2():
    return loop_slices(0, 2, 2, -1, 3)


def loop_sliced_reversed_part_size_2():
    return loop_slices(-1, -2, 2, 0, 3)


def loop_sliced_different_lengths():
    return loop_slices(trip=4, second=4)


def ti_if_ti():
    """A TensorIterator whose body reaches another TensorIterator through an If: OpenVINO refuses a TI
    directly in a TI (G120), but reads, compiles and runs this one (measured on 2026.4)."""
    ov, ops = _ov()
    import openvino.opset8 as ops8

    x = ops.parameter([2, 3, 2], np.float32, name="X")
    xo = ops.parameter([1, 3, 2], np.float32)
    rows = ops.reshape(xo, ops.constant(np.array([3, 2], np.int64)), False)
    cond = ops.greater(ops.reduce_sum(rows, ops.constant(np.array([0, 1], np.int64)), False),
                       ops.constant(np.float32(0)))
    tp, ep = ops.parameter([3, 2], np.float32), ops.parameter([3, 2], np.float32)
    xi = ops.parameter([1, 2], np.float32)
    ri = ops.result(ops.relu(xi))
    inner = ops.tensor_iterator()
    inner.set_body(ov.Model([ri], [xi]))
    inner.set_sliced_input(xi, tp.output(0), 0, 1, 1, -1, 0)
    then_r = ops.result(inner.get_iter_value(ri.output(0), -1))
    else_r = ops.result(ops.negative(ops.slice(ep, ops.constant(np.array([0], np.int64)),
                                               ops.constant(np.array([1], np.int64)),
                                               ops.constant(np.array([1], np.int64)))))
    branch = ops8.if_op(cond.output(0))
    branch.set_then_body(ov.Model([then_r], [tp]))
    branch.set_else_body(ov.Model([else_r], [ep]))
    branch.set_input(rows.output(0), tp, ep)
    ro = ops.result(branch.set_output(then_r, else_r))
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([ro], [xo]))
    ti.set_sliced_input(xo, x.output(0), 0, 1, 1, -1, 0)
    outs = [ops.result(ti.get_iter_value(ro.output(0), -1), name="last"),
            ops.result(ti.get_concatenated_slices(ro.output(0), 0, 1, 1, -1, 0), name="all")]
    return ov.Model(outs, [x], "ti_if_ti")


def loop_in_ti():
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
    from make_examples import nested_loop_in_ti

    return nested_loop_in_ti()[0]


def ti_in_loop():
    ov, ops = _ov()
    x = ops.parameter([1, 3, 2], np.float32, name="X")
    xo = ops.parameter([1, 3, 2], np.float32)
    h = ops.parameter([1, 2], np.float32)
    xi = ops.parameter([1, 1, 2], np.float32)
    hi = ops.parameter([1, 2], np.float32)
    hn = ops.tanh(ops.add(ops.reshape(xi, ops.constant(np.array([1, 2], np.int64)), False), hi))
    rn = ops.result(hn)
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([rn], [xi, hi]))
    ti.set_sliced_input(xi, xo.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(hi, h.output(0), rn.output(0))
    r = ops.result(ti.get_iter_value(rn.output(0), -1))
    c = ops.result(ops.constant(np.bool_(True)))
    loop = ops.loop(ops.constant(np.int64(2)), ops.constant(np.bool_(True)))
    loop.set_function(ov.Model([r, c], [xo, h]))
    loop.set_special_body_ports([-1, 1])
    loop.set_invariant_input(xo, x.output(0))
    loop.set_merged_input(h, ops.constant(np.zeros((1, 2), np.float32)).output(0), r.output(0))
    return ov.Model([ops.result(loop.get_iter_value(r.output(0), -1), name="h")], [x], "ti_in_loop")


def loop_in_loop():
    ov, ops = _ov()
    x = ops.parameter([2], np.float32, name="x")
    a = ops.parameter([2], np.float32)
    ia = ops.parameter([2], np.float32)
    inner_r = ops.result(ops.add(ia, ops.constant(np.ones(2, np.float32))))
    inner_c = ops.result(ops.constant(np.bool_(True)))
    inner = ops.loop(ops.constant(np.int64(3)), ops.constant(np.bool_(True)))
    inner.set_function(ov.Model([inner_r, inner_c], [ia]))
    inner.set_special_body_ports([-1, 1])
    inner.set_merged_input(ia, a.output(0), inner_r.output(0))
    r = ops.result(inner.get_iter_value(inner_r.output(0), -1))
    c = ops.result(ops.constant(np.bool_(True)))
    outer = ops.loop(ops.constant(np.int64(2)), ops.constant(np.bool_(True)))
    outer.set_function(ov.Model([r, c], [a]))
    outer.set_special_body_ports([-1, 1])
    outer.set_merged_input(a, x.output(0), r.output(0))
    return ov.Model([ops.result(outer.get_iter_value(r.output(0), -1), name="y")], [x], "loop_in_loop")


def loop_growing_state():
    """A while-loop whose state grows each iteration (Concat): shape inference iterates the back edge
    to a fixed point (a dynamic dim), the interpreter concatenates dynamically."""
    ov, ops = _ov()
    x = ops.parameter([2], np.float32, name="x")
    acc = ops.parameter([-1], np.float32)
    xb = ops.parameter([2], np.float32)
    grown = ops.concat([acc, xb], 0)
    r = ops.result(grown)
    c = ops.result(ops.less(ops.shape_of(grown, "i64"), ops.constant(np.array([7], np.int64))))
    loop = ops.loop(ops.constant(np.int64(-1)), ops.constant(np.bool_(True)))
    loop.set_function(ov.Model([r, c], [acc, xb]))
    loop.set_special_body_ports([-1, 1])
    loop.set_merged_input(acc, ops.constant(np.zeros(1, np.float32)).output(0), r.output(0))
    loop.set_invariant_input(xb, x.output(0))
    return ov.Model([ops.result(loop.get_iter_value(r.output(0), -1), name="grown")], [x], "loop_growing_state")


def _ops8():
    import openvino.opset8 as ops8

    return ops8


def loop_scalar_state():
    """A Loop whose state Parameter is [1] while the back-edge Result gets [] (ReduceSum without
    keep_dims): one element either way; OpenVINO keeps the Parameter [1], compiles and runs it."""
    ov, ops = _ov()
    x = ops.parameter([1], np.float32, name="x")
    acc = ops.parameter([1], np.float32)
    s = ops.reduce_sum(ops.add(acc, ops.constant(np.ones(1, np.float32))), ops.constant(np.array([0], np.int64)),
                       False)
    r = ops.result(s)
    o = ops.result(ops.reshape(s, ops.constant(np.array([1], np.int64)), False))
    c = ops.result(ops.constant(np.array([True])))
    loop = ops.loop(ops.constant(np.int64(3)), ops.constant(np.array([True])))
    loop.set_function(ov.Model([r, c, o], [acc]))
    loop.set_special_body_ports([-1, 1])
    loop.set_merged_input(acc, x.output(0), r.output(0))
    return ov.Model([ops.result(loop.get_iter_value(o.output(0), -1), name="y")], [x], "loop_scalar_state")


def ti_scalar_state():
    """A TensorIterator whose state Parameter is [1] while the back-edge Result gets []."""
    ov, ops = _ov()
    x = ops.parameter([3, 1], np.float32, name="x")
    h = ops.parameter([1], np.float32, name="h")
    xi = ops.parameter([1, 1], np.float32)
    hi = ops.parameter([1], np.float32)
    flat = ops.reshape(xi, ops.constant(np.array([1], np.int64)), False)
    r = ops.result(ops.reduce_sum(ops.add(flat, hi), ops.constant(np.array([0], np.int64)), False))
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([r], [xi, hi]))
    ti.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 0)
    ti.set_merged_input(hi, h.output(0), r.output(0))
    return ov.Model([ops.result(ti.get_iter_value(r.output(0), -1), name="y")], [x, h], "ti_scalar_state")


def ti_scalar_state_reversed():
    """A TensorIterator whose state Parameter is [] while the back-edge Result gets [1] (an Unsqueeze):
    the CPU plugin carries the one element into the scalar (the output is [1], h + sum(x))."""
    ov, ops = _ov()
    x = ops.parameter([3, 1], np.float32, name="x")
    h = ops.parameter([], np.float32, name="h")
    xi = ops.parameter([1, 1], np.float32)
    hi = ops.parameter([], np.float32)
    s = ops.add(hi, ops.reduce_sum(xi, ops.constant(np.array([0, 1], np.int64)), False))
    r = ops.result(ops.unsqueeze(s, ops.constant(np.array([0], np.int64))))
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([r], [xi, hi]))
    ti.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 0)
    ti.set_merged_input(hi, h.output(0), r.output(0))
    return ov.Model([ops.result(ti.get_iter_value(r.output(0), -1), name="y")], [x, h], "ti_scalar_state_reversed")


def _if_branches(cond, x, then_build, else_build, shape):
    """An If on `cond` whose branches both read `x` (a Parameter of `shape` each) and build one output."""
    ov, ops = _ov()
    tx, ex = ops.parameter(shape, np.float32), ops.parameter(shape, np.float32)
    tr, er = ops.result(then_build(tx)), ops.result(else_build(ex))
    iff = _ops8().if_op(cond)
    iff.set_then_body(ov.Model([tr], [tx]))
    iff.set_else_body(ov.Model([er], [ex]))
    iff.set_input(x.output(0), tx, ex)
    return iff.set_output(tr, er)


def _reduce(keep: bool):
    ops = _ov()[1]
    return lambda t: ops.reduce_sum(t, ops.constant(np.array([0], np.int64)), keep)


def if_scalar_or_one():
    """An If on a runtime condition whose branches give [] and [1]: OpenVINO's output is [1]."""
    ov, ops = _ov()
    c, x = ops.parameter([], np.bool_, name="c"), ops.parameter([4], np.float32, name="x")
    out = _if_branches(c, x, _reduce(False), _reduce(True), [4])
    return ov.Model([ops.result(ops.relu(out), name="y")], [c, x], "if_scalar_or_one")


def if_constant_scalar_or_one():
    """A constant-true If whose branches give [] and [1]: OpenVINO validates the then branch alone, so
    the output is [] (no merge with the else branch's [1])."""
    ov, ops = _ov()
    x = ops.parameter([4], np.float32, name="x")
    out = _if_branches(ops.constant(np.bool_(True)), x, _reduce(False), _reduce(True), [4])
    return ov.Model([ops.result(ops.relu(out), name="y")], [x], "if_constant_scalar_or_one")


def if_scalar_or_vector():
    """An If on a runtime condition whose branches give [] and [4]: OpenVINO's output is [?]."""
    ov, ops = _ov()
    c, x = ops.parameter([], np.bool_, name="c"), ops.parameter([4], np.float32, name="x")
    out = _if_branches(c, x, _reduce(False), ops.relu, [4])
    return ov.Model([ops.result(ops.relu(out), name="y")], [c, x], "if_scalar_or_vector")


def _if_constant_ranks(flag: bool):
    ov, ops = _ov()
    x = ops.parameter([2, 3], np.float32, name="x")
    out = _if_branches(ops.constant(np.bool_(flag)), x, ops.relu,
                       lambda t: ops.reshape(t, ops.constant(np.array([6], np.int64)), False), [2, 3])
    return ov.Model([ops.result(out, name="y")], [x], f"if_constant_{'then' if flag else 'else'}")


def if_constant_then_ranks():
    """A constant-true If whose branches give [2,3] and [6]: OpenVINO checks only the then branch."""
    return _if_constant_ranks(True)


def if_constant_else_ranks():
    """The same with a constant-false condition: the output is the else branch's [6]."""
    return _if_constant_ranks(False)


def if_stale_branch(flag: bool = True):
    """Built on a dynamic-rank x, then reshaped to [32,40,10]: OpenVINO validates only the branch a
    constant condition takes, so the other keeps its Parameter of shape "..." and ports without dims."""
    ov, ops = _ov()
    x = ops.parameter(ov.PartialShape.dynamic(), np.float32, name="x")
    out = _if_branches(ops.constant(np.bool_(flag)), x, ops.relu,
                       lambda t: ops.multiply(ops.sigmoid(t), ops.constant(np.float32(2))), ov.PartialShape.dynamic())
    m = ov.Model([ops.result(ops.relu(out), name="y")], [x], "if_stale_branch")
    m.reshape({"x": [32, 40, 10]})
    return m


def if_stale_else_branch():
    return if_stale_branch(False)


def onnx_loop(tmp: Path):
    """An ONNX Loop (trip count M, cond, a carried sum and a scan output) through openvino.convert_model."""
    import onnx
    import openvino as ov
    from onnx import TensorProto, helper

    body = helper.make_graph(
        [helper.make_node("Identity", ["cond_in"], ["cond_out"]),
         helper.make_node("Add", ["s_in", "x"], ["s_out"]),
         helper.make_node("Identity", ["s_out"], ["scan_out"])],
        "body",
        [helper.make_tensor_value_info("iter", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("s_in", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("s_out", TensorProto.FLOAT, [2]),
         helper.make_tensor_value_info("scan_out", TensorProto.FLOAT, [2])],
    )
    graph = helper.make_graph(
        [helper.make_node("Loop", ["M", "cond", "s0"], ["s_final", "scans"], body=body)],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2]),
         helper.make_tensor_value_info("s0", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("s_final", TensorProto.FLOAT, [2]),
         helper.make_tensor_value_info("scans", TensorProto.FLOAT, [None, 2])],
        initializer=[helper.make_tensor("M", TensorProto.INT64, [], [3]),
                     helper.make_tensor("cond", TensorProto.BOOL, [], [True])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)])
    path = tmp / "loop.onnx"
    onnx.save(model, str(path))
    return ov.convert_model(str(path))


def onnx_scan(tmp: Path):
    """An ONNX Scan (reverse direction on the scan input) through openvino.convert_model (a TensorIterator)."""
    import onnx
    import openvino as ov
    from onnx import TensorProto, helper

    body = helper.make_graph(
        [helper.make_node("Add", ["s_in", "x_t"], ["s_out"]), helper.make_node("Identity", ["s_out"], ["y_t"])],
        "body",
        [helper.make_tensor_value_info("s_in", TensorProto.FLOAT, [2]),
         helper.make_tensor_value_info("x_t", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("s_out", TensorProto.FLOAT, [2]),
         helper.make_tensor_value_info("y_t", TensorProto.FLOAT, [2])],
    )
    graph = helper.make_graph(
        [helper.make_node("Scan", ["s0", "xs"], ["s_final", "ys"], body=body, num_scan_inputs=1,
                          scan_input_directions=[1])],
        "g",
        [helper.make_tensor_value_info("s0", TensorProto.FLOAT, [2]),
         helper.make_tensor_value_info("xs", TensorProto.FLOAT, [4, 2])],
        [helper.make_tensor_value_info("s_final", TensorProto.FLOAT, [2]),
         helper.make_tensor_value_info("ys", TensorProto.FLOAT, [4, 2])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)])
    path = tmp / "scan.onnx"
    onnx.save(model, str(path))
    return ov.convert_model(str(path))


ALL: dict[str, Callable] = {
    f.__name__: f for f in (
        ti_forward, ti_reverse, ti_part_size_2, ti_axis0, ti_lstm, ti_gru, ti_rnn_dynamic_batch,
        loop_for, loop_for_i32_one_element, loop_while, loop_do_while, loop_for_with_condition,
        loop_zero_iterations, loop_scan_axis1, loop_sliced_input, loop_in_ti, ti_in_loop, loop_in_loop,
        loop_growing_state, loop_sliced_reversed, loop_sliced_reversed_fewer_iterations, loop_sliced_part_size_2,
        loop_sliced_reversed_part_size_2, loop_sliced_different_lengths, ti_if_ti,
        loop_scalar_state, ti_scalar_state, ti_scalar_state_reversed, if_scalar_or_one, if_scalar_or_vector,
        if_constant_scalar_or_one,
        if_constant_then_ranks, if_constant_else_ranks, if_stale_branch, if_stale_else_branch,
    )
}
ONNX: dict[str, Callable] = {"onnx_loop": onnx_loop, "onnx_scan": onnx_scan}
