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
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([1, 3, 2], np.float32, name="Net/input[x]")
    h = ops.parameter([1, 2], np.float32, name="Net/h0[bold]")
    xi = ops.parameter([1, 1, 2], np.float32, name="Net/LSTM[rnn]/x_t")
    hi = ops.parameter([1, 2], np.float32, name="Net/LSTM[rnn]/h[/]")
    r = ops.reshape(xi, ops.constant(np.array([1, 2], np.int64)), False)
    add = ops.add(r, hi)
    add.set_friendly_name("Net/LSTM[rnn]/Add_5531")
    ro = ops.result(ops.tanh(add), name="Net/LSTM[rnn]/out[red]")
    ti = ops.tensor_iterator()
    ti.set_friendly_name("Net/LSTM[rnn]")
    ti.set_body(ov.Model([ro], [xi, hi]))
    ti.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(hi, h.output(0), ro.output(0))
    last = ti.get_iter_value(ro.output(0), -1)
    return ov.Model([ops.result(last, name="y[link=x]")], [x, h], "bracket[net]")


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
    t = ops.subtract(ops.constant(np.array([4.0, 5.0, 10.0], np.float32)),
                     ops.add(ops.convert(i_it, np.float32), o_in))
    v = ops.sqrt(t)
    v.set_friendly_name("root")
    acc_next = ops.add(acc, v)
    inner_res = ops.result(acc_next, name="inner_acc")
    inner = ops.loop(ops.constant(np.int64(4)), ops.constant(np.bool_(True)))
    inner.set_function(ov.Model([inner_res, ops.result(ops.constant(np.bool_(True)), name="icond")],
                                [i_it, o_in, acc], "inner"))
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
    outer.set_function(ov.Model([outer_res, ops.result(ops.constant(np.bool_(True)), name="ocond")],
                                [o_it, oacc], "outer"))
    outer.set_special_body_ports([0, 1])
    outer.set_merged_input(oacc, x.output(0), outer_res.output(0))
    out = outer.get_iter_value(outer_res.output(0), -1)
    return ov.Model([ops.result(out, name="y")], [x], "nan_nested")


def dynamic_ti():
    """A TensorIterator over axis 1 of an input of dynamic length (`x: [1, ?, 2]`): its iteration count is
    known only once it runs (5 with a [1, 5, 2] input); h = tanh(x_t + h) per iteration."""
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([1, -1, 2], np.float32, name="x")
    h0 = ops.parameter([1, 2], np.float32, name="h0")
    xi = ops.parameter([1, 1, 2], np.float32, name="x_t")
    hi = ops.parameter([1, 2], np.float32, name="h")
    r = ops.reshape(xi, ops.constant(np.array([1, 2], np.int64)), False)
    add = ops.add(r, hi)
    add.set_friendly_name("sum")
    ho = ops.result(ops.tanh(add), name="h_next")
    ti = ops.tensor_iterator()
    ti.set_friendly_name("rnn")
    ti.set_body(ov.Model([ho], [xi, hi]))
    ti.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(hi, h0.output(0), ho.output(0))
    last = ti.get_iter_value(ho.output(0), -1)
    return ov.Model([ops.result(last, name="y")], [x, h0], "dynamic_ti")
