"""Small IRs for the viewer tests, written with openvino's Python API (openvino is a test dependency only)."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def counting_loop(trip: int, name: str = "count_loop", endless: bool = False):
    """acc += 1 each iteration; `endless`: trip count -1 and a constant-true condition (runs until stopped)."""
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([2], np.float32, name="x")
    acc = ops.parameter([2], np.float32, name="acc")
    acc_next = ops.add(acc, ops.constant(np.ones(2, np.float32)))
    acc_res = ops.result(acc_next, name="acc_next")
    cond_res = ops.result(ops.constant(np.bool_(True)), name="cond")
    loop = ops.loop(ops.constant(np.int64(-1 if endless else trip)), ops.constant(np.bool_(True)))
    loop.set_function(ov.Model([acc_res, cond_res], [acc], "body"))
    loop.set_special_body_ports([-1, 1])
    loop.set_merged_input(acc, x.output(0), acc_res.output(0))
    out = loop.get_iter_value(acc_res.output(0), -1)
    return ov.Model([ops.result(out, name="y")], [x], name)


def bracket_names():
    """lstm-like TI whose layer names carry PyTorch scope brackets (Rich markup if not escaped)."""
    return _tanh_ti(
        "bracket[net]",
        [1, 3, 2],
        x="Net/input[x]",
        h0="Net/h0[bold]",
        x_t="Net/LSTM[rnn]/x_t",
        h="Net/LSTM[rnn]/h[/]",
        add="Net/LSTM[rnn]/Add_5531",
        h_next="Net/LSTM[rnn]/out[red]",
        ti="Net/LSTM[rnn]",
        y="y[link=x]",
    )


def _tanh_ti(
    model: str, x_shape: list[int], *, x: str, h0: str, x_t: str, h: str, add: str, h_next: str, ti: str, y: str
):
    """A TensorIterator over axis 1 of x [1, N, 2], h = tanh(x_t + h) per iteration, the last h the output
    y; every layer named as given (what the viewer shows of names is what the tests ask)."""
    import openvino as ov
    import openvino.opset13 as ops

    xp = ops.parameter(x_shape, np.float32, name=x)
    hp = ops.parameter([1, 2], np.float32, name=h0)
    xi = ops.parameter([1, 1, 2], np.float32, name=x_t)
    hi = ops.parameter([1, 2], np.float32, name=h)
    r = ops.reshape(xi, ops.constant(np.array([1, 2], np.int64)), False)
    total = ops.add(r, hi)
    total.set_friendly_name(add)
    ro = ops.result(ops.tanh(total), name=h_next)
    node = ops.tensor_iterator()
    node.set_friendly_name(ti)
    node.set_body(ov.Model([ro], [xi, hi]))
    node.set_sliced_input(xi, xp.output(0), 0, 1, 1, -1, 1)
    node.set_merged_input(hi, hp.output(0), ro.output(0))
    last = node.get_iter_value(ro.output(0), -1)
    return ov.Model([ops.result(last, name=y)], [xp, hp], model)


def save(model, path: Path) -> Path:
    import openvino as ov

    ov.save_model(model, str(path), compress_to_fp16=False)
    return path


def trip_from_input(stop_at: float | None = None):
    """acc += 1 with the trip count a scalar i64 input `trip` (known only once the Loop runs), a bool tensor
    `flag = acc > [1.5, 2.5]` scanned out per iteration; `stop_at`: the body condition `sum(acc) < stop_at`
    (a dynamic condition that ends the Loop early), else constant true."""
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([2], np.float32, name="x")
    trip = ops.parameter([], np.int64, name="trip")
    acc = ops.parameter([2], np.float32, name="acc")
    acc_next = ops.add(acc, ops.constant(np.ones(2, np.float32)))
    acc_res = ops.result(acc_next, name="acc_next")
    flag = ops.greater(acc_next, ops.constant(np.array([1.5, 2.5], np.float32)))
    flag.set_friendly_name("flag")
    flag_res = ops.result(ops.unsqueeze(flag, ops.constant(np.int64(0))), name="flag_out")
    if stop_at is None:
        cond = ops.constant(np.bool_(True))
    else:
        cond = ops.less(ops.reduce_sum(acc_next, ops.constant(np.int64(0))), ops.constant(np.float32(stop_at)))
    cond_res = ops.result(cond, name="cond")
    loop = ops.loop(trip, ops.constant(np.bool_(True)))
    loop.set_function(ov.Model([acc_res, cond_res, flag_res], [acc], "body"))
    loop.set_special_body_ports([-1, 1])
    loop.set_merged_input(acc, x.output(0), acc_res.output(0))
    out = loop.get_iter_value(acc_res.output(0), -1)
    flags = loop.get_concatenated_slices(flag_res.output(0), 0, 1, 1, -1, 0)
    return ov.Model([ops.result(out, name="y"), ops.result(flags, name="flags")], [x, trip], "trip_loop")


def nan_in_nested_loops():
    """A Loop (3 its) around a Loop (4 its) whose body takes `sqrt([4, 5, 10] - (outer it + inner it))`:
    the first NaN is element 0 of the Sqrt in iteration 2.3 (outer 2, inner 3), nowhere earlier."""
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([3], np.float32, name="x")
    # inner body: Parameters (current inner iteration i64 scalar, outer iteration f32 [1], acc)
    i_it = ops.parameter([], np.int64, name="i_it")
    o_in = ops.parameter([1], np.float32, name="o_in")
    acc = ops.parameter([3], np.float32, name="acc")
    t = ops.subtract(ops.constant(np.array([4.0, 5.0, 10.0], np.float32)), ops.add(ops.convert(i_it, np.float32), o_in))
    v = ops.sqrt(t)
    v.set_friendly_name("root")
    acc_next = ops.add(acc, v)
    inner_res = ops.result(acc_next, name="inner_acc")
    inner = ops.loop(ops.constant(np.int64(4)), ops.constant(np.bool_(True)))
    inner.set_function(
        ov.Model([inner_res, ops.result(ops.constant(np.bool_(True)), name="icond")], [i_it, o_in, acc], "inner")
    )
    inner.set_special_body_ports([0, 1])
    # outer body
    o_it = ops.parameter([], np.int64, name="o_it")
    oacc = ops.parameter([3], np.float32, name="oacc")
    o_f = ops.unsqueeze(ops.convert(o_it, np.float32), ops.constant(np.int64(0)))
    inner.set_invariant_input(o_in, o_f.output(0))
    inner.set_merged_input(acc, oacc.output(0), inner_res.output(0))
    inner_out = inner.get_iter_value(inner_res.output(0), -1)
    outer_res = ops.result(inner_out, name="outer_acc")
    outer = ops.loop(ops.constant(np.int64(3)), ops.constant(np.bool_(True)))
    outer.set_function(
        ov.Model([outer_res, ops.result(ops.constant(np.bool_(True)), name="ocond")], [o_it, oacc], "outer")
    )
    outer.set_special_body_ports([0, 1])
    outer.set_merged_input(oacc, x.output(0), outer_res.output(0))
    out = outer.get_iter_value(outer_res.output(0), -1)
    return ov.Model([ops.result(out, name="y")], [x], "nan_nested")


def dynamic_ti():
    """A TensorIterator over axis 1 of an input of dynamic length (`x: [1, ?, 2]`): its iteration count is
    known only once it runs (5 with a [1, 5, 2] input); h = tanh(x_t + h) per iteration."""
    return _tanh_ti(
        "dynamic_ti", [1, -1, 2], x="x", h0="h0", x_t="x_t", h="h", add="sum", h_next="h_next", ti="rnn", y="y"
    )


def loop_in_ti_in_if():
    """An If (cond) whose then branch runs a TensorIterator over the 3 steps of x [1, 3, 2] whose body runs
    a Loop of 2 iterations (h = h * 0.5 + x_t); the else branch sums x over its steps. Four scope levels."""
    import openvino as ov
    import openvino.opset8 as o

    from tests.ifmodels import _if

    cond = o.parameter([], np.bool_, name="cond")
    x = o.parameter([1, 3, 2], np.float32, name="x")
    # the Loop's body: h = h * 0.5 + x_t (x_t invariant)
    bh, bx = o.parameter([1, 2], np.float32, name="loop_h"), o.parameter([1, 2], np.float32, name="loop_x")
    half = o.multiply(bh, o.constant(np.full([1], 0.5, np.float32)))
    half.set_friendly_name("halve")
    rh = o.result(o.add(half, bx), name="loop_h_next")
    loop = o.loop(o.constant(np.int64(2)), o.constant(np.bool_(True)))
    loop.set_friendly_name("inner_loop")
    loop.set_function(ov.Model([o.result(o.constant(np.bool_(True)), name="loop_cond"), rh], [bh, bx]))
    loop.set_special_body_ports([-1, 0])
    # the TI's body: x_t [1, 1, 2] -> [1, 2]; h through the Loop
    xi, hi = o.parameter([1, 1, 2], np.float32, name="x_t"), o.parameter([1, 2], np.float32, name="ti_h")
    xt = o.reshape(xi, o.constant(np.array([1, 2], np.int64)), False)
    loop.set_merged_input(bh, hi.output(0), rh.output(0))
    loop.set_invariant_input(bx, xt.output(0))
    ro = o.result(loop.get_iter_value(rh.output(0), -1), name="ti_h_next")
    ti = o.tensor_iterator()
    ti.set_friendly_name("steps")
    ti.set_body(ov.Model([ro], [xi, hi]))
    tx = o.parameter([1, 3, 2], np.float32, name="then_x")
    ti.set_sliced_input(xi, tx.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(hi, o.constant(np.zeros([1, 2], np.float32)).output(0), ro.output(0))
    tr = o.result(ti.get_iter_value(ro.output(0), -1), name="then_out")
    ex = o.parameter([1, 3, 2], np.float32, name="else_x")
    er = o.result(o.reduce_sum(ex, o.constant(np.int64(1)), False), name="else_out")
    (out,) = _if(cond, ov.Model([tr], [tx], "then"), ov.Model([er], [ex], "else"), [(x.output(0), tx, ex)], [(tr, er)])
    out.get_node().set_friendly_name("choose")
    return ov.Model([o.result(out, name="y")], [cond, x], "loop_in_ti_in_if")
