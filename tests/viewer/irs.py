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
