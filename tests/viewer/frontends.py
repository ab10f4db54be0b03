"""Models in the shapes real front ends give recurrent networks, built with openvino's Python API (a
test dependency only; no TensorFlow here): TensorFlow/Keras LSTMs as Loops (the Keras fixture, single,
bidirectional and stacked), LSTMs as TensorIterators around an LSTMCell (the Model Optimizer's and
the ONNX/Paddle front ends' shape before fusion: single, bidirectional, stacked), a Loop in a Loop and
a Loop in an If. Each function returns an `openvino.Model`."""

from __future__ import annotations

from pathlib import Path

import numpy as np

KERAS = Path(__file__).resolve().parent / "fixtures" / "keras_lstm.xml"
STEPS, FEATURES, UNITS = 5, 3, 4


def _keras_copy(x, scope: str = "lstm_1_1", serial: int = 0):  # type: ignore[no-untyped-def]
    """The Keras fixture's graph read afresh, its input taken from `x`; returns its output (batch, 4).
    Its layers are renamed as the TensorFlow front end names another layer's: the Keras scope
    `lstm_1_1` becomes `scope`, and generic names (`ShapeOf_3748`) get other numbers (+ `serial`)."""
    import openvino as ov

    m = ov.Core().read_model(str(KERAS))
    ops = list(m.get_ops())
    for op in list(ops):
        if op.get_type_name() == "Loop":
            ops += list(op.get_function().get_ops())
    for op in ops:
        name = op.get_friendly_name()
        renamed = name.replace("lstm_1_1", scope).replace("lstm_1_1".replace("/", "_"), scope.replace("/", "_"))
        tail = renamed.rsplit("_", 1)
        if renamed == name and len(tail) == 2 and tail[1].isdigit():
            renamed = f"{tail[0]}_{int(tail[1]) + serial}"
        op.set_friendly_name(renamed)
    param = m.get_parameters()[0]
    for target in list(param.output(0).get_target_inputs()):
        target.replace_source_output(x)
    return m.get_results()[0].input_value(0)


def keras_single():  # type: ignore[no-untyped-def]
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([1, STEPS, FEATURES], np.float32, name="x")
    return ov.Model([ops.result(_keras_copy(x.output(0)), name="y")], [x], "keras_single")


def keras_bidirectional():  # type: ignore[no-untyped-def]
    """Keras' Bidirectional(LSTM): a forward Loop and one over the reversed sequence, side by side,
    with one body shape."""
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([1, STEPS, FEATURES], np.float32, name="x")
    backward = ops.reverse_sequence(x, ops.constant(np.array([STEPS], np.int32)), 0, 1)
    backward.set_friendly_name("functional_1_1/bidirectional_1/backward_lstm_1/ReverseV2")
    forward = _keras_copy(x.output(0), "bidirectional_1/forward_lstm_1")
    both = ops.concat([forward, _keras_copy(backward.output(0), "bidirectional_1/backward_lstm_1", 10_000)], 1)
    both.set_friendly_name("functional_1_1/bidirectional_1/concat")
    return ov.Model([ops.result(both, name="y")], [x], "keras_bidirectional")


def keras_stacked(layers: int = 2):  # type: ignore[no-untyped-def]
    """LSTM layers one after the other: each Loop's output, projected back to the input's width and
    repeated over the steps, feeds the next Loop."""
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([1, STEPS, FEATURES], np.float32, name="x")
    h = x.output(0)
    for n in range(layers):
        out = _keras_copy(h, f"lstm_{n + 1}", 10_000 * n)
        if n == layers - 1:
            h = out
            break
        w = ops.constant(np.full((UNITS, FEATURES), 0.1, np.float32))
        proj = ops.unsqueeze(ops.matmul(out, w, False, False), ops.constant(np.int64(1)))
        h = ops.broadcast(proj, ops.constant(np.array([1, STEPS, FEATURES], np.int64))).output(0)
    return ov.Model([ops.result(h, name="y")], [x], f"keras_stacked_{layers}")


def _ti_lstm(x, name: str, reverse: bool = False):  # type: ignore[no-untyped-def]
    """A TensorIterator over the steps of `x` (1, STEPS, width) around an LSTMCell, h and c on back
    edges, every step's h concatenated: what the Model Optimizer wrote for an LSTM layer."""
    import openvino as ov
    import openvino.opset13 as ops

    width = x.get_partial_shape()[2].get_length()
    xi = ops.parameter([1, 1, width], np.float32, name=f"{name}/x_t")
    hi = ops.parameter([1, UNITS], np.float32, name=f"{name}/h_prev")
    ci = ops.parameter([1, UNITS], np.float32, name=f"{name}/c_prev")
    sq = ops.squeeze(xi, ops.constant(np.array([1], np.int64)))
    sq.set_friendly_name(f"{name}/InputSqueeze")
    rng = np.random.default_rng(len(name))
    cell = ops.lstm_cell(
        sq,
        hi,
        ci,
        ops.constant(rng.normal(size=(4 * UNITS, width)).astype(np.float32)),
        ops.constant(rng.normal(size=(4 * UNITS, UNITS)).astype(np.float32)),
        ops.constant(np.zeros(4 * UNITS, np.float32)),
        UNITS,
    )
    cell.set_friendly_name(f"{name}/LSTMCell")
    h_res, c_res = ops.result(cell.output(0), name=f"{name}/h_next"), ops.result(cell.output(1), name=f"{name}/c_next")
    seq = ops.unsqueeze(cell.output(0), ops.constant(np.array([1], np.int64)))
    seq.set_friendly_name(f"{name}/OutputUnsqueeze")
    y_res = ops.result(seq, name=f"{name}/y_t")
    ti = ops.tensor_iterator()
    ti.set_friendly_name(name)
    ti.set_body(ov.Model([h_res, c_res, y_res], [xi, hi, ci]))
    zeros = ops.constant(np.zeros((1, UNITS), np.float32))
    if reverse:
        ti.set_sliced_input(xi, x, -1, -1, 1, 0, 1)
    else:
        ti.set_sliced_input(xi, x, 0, 1, 1, -1, 1)
    ti.set_merged_input(hi, zeros.output(0), h_res.output(0))
    ti.set_merged_input(ci, zeros.output(0), c_res.output(0))
    return ti.get_concatenated_slices(
        y_res.output(0), -1 if reverse else 0, -1 if reverse else 1, 1, 0 if reverse else -1, 1
    )


def ti_single():  # type: ignore[no-untyped-def]
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([1, STEPS, FEATURES], np.float32, name="x")
    return ov.Model([ops.result(_ti_lstm(x.output(0), "lstm/TensorIterator"), name="y")], [x], "ti_single")


def ti_bidirectional():  # type: ignore[no-untyped-def]
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([1, STEPS, FEATURES], np.float32, name="x")
    fw = _ti_lstm(x.output(0), "bidirectional/forward/TensorIterator")
    bw = _ti_lstm(x.output(0), "bidirectional/backward/TensorIterator", reverse=True)
    both = ops.concat([fw, bw], 2)
    both.set_friendly_name("bidirectional/concat")
    return ov.Model([ops.result(both, name="y")], [x], "ti_bidirectional")


def ti_stacked(layers: int = 2):  # type: ignore[no-untyped-def]
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([1, STEPS, FEATURES], np.float32, name="x")
    h = x.output(0)
    for n in range(layers):
        h = _ti_lstm(h, f"lstm_{n + 1}/TensorIterator")
    return ov.Model([ops.result(h, name="y")], [x], f"ti_stacked_{layers}")


def loop_in_loop():  # type: ignore[no-untyped-def]
    from tests.viewer import irs

    return irs.nan_in_nested_loops()


def loop_in_if():  # type: ignore[no-untyped-def]
    from tests import ifmodels

    return ifmodels.loop_in_if()


SHAPES = {
    "keras_single": keras_single,
    "keras_bidirectional": keras_bidirectional,
    "keras_stacked": keras_stacked,
    "ti_single": ti_single,
    "ti_bidirectional": ti_bidirectional,
    "ti_stacked": ti_stacked,
    "loop_in_loop": loop_in_loop,
    "loop_in_if": loop_in_if,
}
