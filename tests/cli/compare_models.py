"""Small TensorIterator IRs for `irlint compare` tests, written by openvino.save_model."""

from __future__ import annotations

from pathlib import Path

import numpy as np


def _ti(body_fn, x_shape: list[int], dtype, name: str):  # type: ignore[no-untyped-def]
    """A TensorIterator slicing X along axis 1 (one step per element), the body's output concatenated
    along axis 1 as Result 'Y'; body_fn(parameter) -> the body's output node."""
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter(x_shape, dtype, name="X")
    xi = ops.parameter([x_shape[0], 1, *x_shape[2:]], dtype, name="x_t")
    out = ops.result(body_fn(xi))
    ti = ops.tensor_iterator()
    ti.set_friendly_name("steps")
    ti.set_body(ov.Model([out], [xi]))
    ti.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 1)
    y = ti.get_concatenated_slices(out.output(0), 0, 1, 1, -1, 1)
    return ov.Model([ops.result(y, name="Y")], [x], name)


def int_divide_ti():  # type: ignore[no-untyped-def]
    """Per step: shifted = x + 1; q = shifted / 3 (i32, Divide's default m_pythondiv: floor division);
    twice = q * 2. The CPU plugin truncates instead (docs/semantics.md): it parts where shifted < 0."""
    import openvino.opset13 as ops

    def body(xi):  # type: ignore[no-untyped-def]
        shifted = ops.add(xi, ops.constant(np.array(1, np.int32)), name="shifted")
        q = ops.divide(shifted, ops.constant(np.array(3, np.int32)), name="quotient")
        return ops.multiply(q, ops.constant(np.array(2, np.int32)), name="twice")

    return _ti(body, [1, 4], np.int32, "int_divide_ti")


def scaled_ti(scale: float):  # type: ignore[no-untyped-def]
    """Per step: y = tanh(x * scale) + 1, the Multiply named 'scale'."""
    import openvino.opset13 as ops

    def body(xi):  # type: ignore[no-untyped-def]
        m = ops.multiply(xi, ops.constant(np.array(scale, np.float32)), name="scale")
        return ops.add(ops.tanh(m, name="squash"), ops.constant(np.array(1, np.float32)), name="shift")

    return _ti(body, [1, 6, 3], np.float32, "scaled_ti")


def chain_ti(steps: int, layers: int, width: int):  # type: ignore[no-untyped-def]
    """A body of `layers` element-wise layers (alternately x * 0.999 and x + 0.001) on [1, 1, width]."""
    import openvino.opset13 as ops

    def body(xi):  # type: ignore[no-untyped-def]
        v = xi
        for i in range(layers):
            if i % 2:
                v = ops.add(v, ops.constant(np.array(0.001, np.float32)), name=f"add_{i}")
            else:
                v = ops.multiply(v, ops.constant(np.array(0.999, np.float32)), name=f"mul_{i}")
        return v

    return _ti(body, [1, steps, width], np.float32, "chain_ti")


def lstm_ti(steps: int, inputs: int = 16, hidden: int = 32):  # type: ignore[no-untyped-def]
    """An LSTM as a TensorIterator over `steps` steps (state through back edges), outputs Y, H, C."""
    import openvino as ov
    import openvino.opset13 as ops

    rng = np.random.default_rng(0)
    x = ops.parameter([1, steps, inputs], np.float32, name="X")
    h0 = ops.parameter([1, hidden], np.float32, name="H0")
    c0 = ops.parameter([1, hidden], np.float32, name="C0")
    xi = ops.parameter([1, 1, inputs], np.float32, name="x_t")
    hi = ops.parameter([1, hidden], np.float32, name="h_prev")
    ci = ops.parameter([1, hidden], np.float32, name="c_prev")
    flat = ops.reshape(xi, ops.constant(np.array([1, inputs], np.int64)), False, name="x_flat")
    w = ops.constant((rng.standard_normal((4 * hidden, inputs)) * 0.3).astype(np.float32))
    r = ops.constant((rng.standard_normal((4 * hidden, hidden)) * 0.3).astype(np.float32))
    b = ops.constant((rng.standard_normal(4 * hidden) * 0.1).astype(np.float32))
    cell = ops.lstm_cell(flat, hi, ci, w, r, b, hidden, name="cell")
    ho, co = ops.result(cell.output(0)), ops.result(cell.output(1))
    yo = ops.result(ops.unsqueeze(cell.output(0), ops.constant(np.array([1], np.int64)), name="y_t"))
    ti = ops.tensor_iterator()
    ti.set_friendly_name("lstm")
    ti.set_body(ov.Model([ho, co, yo], [xi, hi, ci]))
    ti.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(hi, h0.output(0), ho.output(0))
    ti.set_merged_input(ci, c0.output(0), co.output(0))
    outs = [ti.get_concatenated_slices(yo.output(0), 0, 1, 1, -1, 1), ti.get_iter_value(ho.output(0), -1),
            ti.get_iter_value(co.output(0), -1)]
    return ov.Model([ops.result(o, name=n) for o, n in zip(outs, "YHC")], [x, h0, c0], "lstm_ti")


def save(model, path: Path) -> Path:  # type: ignore[no-untyped-def]
    import openvino as ov

    ov.save_model(model, str(path), compress_to_fp16=False)
    return path


def if_divide_ti():  # type: ignore[no-untyped-def]
    """Per step an If on x > 0: then x / 3 ('pos_quotient'), else (x - 1) / 3 ('neg_quotient', after
    'minus_one'), i32 with Divide's default floor division, which the CPU plugin truncates instead."""
    import openvino as ov
    import openvino.opset8 as ops

    def body(xi):  # type: ignore[no-untyped-def]
        three = np.array(3, np.int32)
        pt, pe = ops.parameter([1, 1], np.int32, name="x_then"), ops.parameter([1, 1], np.int32, name="x_else")
        rt = ops.result(ops.divide(pt, ops.constant(three), name="pos_quotient"))
        minus = ops.subtract(pe, ops.constant(np.array(1, np.int32)), name="minus_one")
        re = ops.result(ops.divide(minus, ops.constant(three), name="neg_quotient"))
        cond = ops.squeeze(ops.greater(xi, ops.constant(np.array(0, np.int32))),
                           ops.constant(np.array([0, 1], np.int64)), name="positive")
        branch = ops.if_op(cond.output(0))
        branch.set_friendly_name("sign")
        branch.set_then_body(ov.Model([rt], [pt]))
        branch.set_else_body(ov.Model([re], [pe]))
        branch.set_input(xi.output(0), pt, pe)
        return branch.set_output(rt, re)

    return _ti(body, [1, 4], np.int32, "if_divide_ti")


def widened_ti(widen: bool):  # type: ignore[no-untyped-def]
    """Per step 'double' then 'squash' (tanh): 'double' is x * 2, or with `widen` x and x concatenated."""
    import openvino.opset13 as ops

    def body(xi):  # type: ignore[no-untyped-def]
        if widen:
            d = ops.concat([xi, xi], 2, name="double")
        else:
            d = ops.multiply(xi, ops.constant(np.array(2, np.float32)), name="double")
        return ops.tanh(d, name="squash")

    return _ti(body, [1, 3, 3], np.float32, "widened_ti")
