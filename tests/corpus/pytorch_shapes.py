"""Models shaped as OpenVINO's PyTorch front end writes scripted loops, built with OpenVINO's Python API.

What `ov.convert_model` makes of a `torch.jit.script`ed loop (so that the tests need no torch):

- no TensorIterator: every `for`/`while` is a Loop-5, and every Loop has a current_iteration body
  Parameter and an execution_condition body Result (constant true for a `for`);
- `while cond:` and a loop left by `break` get a trip count of INT64_MAX (INT32_MAX where the count
  was converted to i32); the condition does the stopping;
- `for i in range(x.size(0))` computes its trip count: ShapeOf → Gather(0, axis 0);
- `ys.append(y)` then `torch.stack(ys)` becomes a concatenated output of the Unsqueezed body value;
- `x[i]` with the loop counter is a Gather at current_iteration;
- `nn.LSTM`/`nn.GRU`/`nn.RNN` are LSTMSequence/GRUSequence/RNNSequence, also inside If branches and Loop
  bodies (nested two deep: a sequence in an If in a Loop).

`PYTORCH_SHAPES` maps a name to a builder returning `(openvino.Model, inputs)`; the inputs are fixed
by a seed. The notebook examples/notebook/pytorch_loop.ipynb builds `while_break_stack` the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

INT64_MAX = np.iinfo(np.int64).max
INT32_MAX = np.iinfo(np.int32).max
H = 3  # hidden size of the recurrent cells


def _ov() -> tuple[Any, Any]:
    import openvino as ov
    import openvino.opset13 as ops

    return ov, ops


def _i64(*v: int) -> Any:
    _, ops = _ov()
    return ops.constant(np.array(v, np.int64))


def _scalar_i64(v: int) -> Any:
    _, ops = _ov()
    return ops.constant(np.int64(v))


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _loop(trip: Any, body_results: list[Any], body_params: list[Any], ci: Any, cond: Any) -> Any:
    """A Loop whose body has a current_iteration Parameter `ci` and an execution_condition Result `cond`,
    entered with a true condition (as the front end writes it)."""
    ov, ops = _ov()
    loop = ops.loop(trip, ops.constant(np.bool_(True)))
    loop.set_function(ov.Model(body_results, body_params))
    loop.set_special_body_ports([body_params.index(ci), body_results.index(cond)])
    return loop


def _for_stacking(trip: Any, value: Any, ci: Any, xb: Any, state: Any, x: Any, name: str) -> list[Any]:
    """`state = zeros; ys = []` / `for i in range(trip): state = value; ys.append(value)`: the Loop over a
    body of Parameters (ci, xb, state) with x invariant into xb and a for loop's constant-true condition;
    its outputs, the last state (`name`) and the values stacked ("ys")."""
    _, ops = _ov()
    r_state, r_cond = ops.result(value), ops.result(ops.constant(np.bool_(True)))
    r_y = ops.result(ops.unsqueeze(value, _i64(0)))
    loop = _loop(trip, [r_state, r_cond, r_y], [ci, xb, state], ci, r_cond)
    loop.set_invariant_input(xb, x.output(0))
    zeros = ops.constant(np.zeros(list(state.get_shape()), np.float32))
    loop.set_merged_input(state, zeros.output(0), r_state.output(0))
    return [
        ops.result(loop.get_iter_value(r_state.output(0), -1), name=name),
        ops.result(loop.get_concatenated_slices(r_y.output(0), 0, 1, 1, -1, 0), name="ys"),
    ]


def while_break_stack(steps: int = 5, trip_count: int = INT64_MAX) -> tuple[Any, dict[str, np.ndarray]]:
    """`h = h0; ys = []; i = 0` / `while True: h = tanh(h @ W + x); ys.append(h); i += 1; if i >= n: break`
    / `return h, torch.stack(ys)`: INT64_MAX trip count, the break as the execution condition (`trip_count`
    -1, the ONNX form of "no count", makes the same loop for the CPU plugin: see test_pytorch_shapes.py)."""
    ov, ops = _ov()
    rng = _rng(1)
    x = ops.parameter([2, H], np.float32, name="x")
    h0 = ops.parameter([2, H], np.float32, name="h0")
    n = ops.parameter([], np.int64, name="n")
    ci = ops.parameter([], np.int64, name="i")
    hb, xb, nb = (
        ops.parameter([2, H], np.float32, name="h"),
        ops.parameter([2, H], np.float32, name="x_in"),
        ops.parameter([], np.int64, name="n_in"),
    )
    w = ops.constant(rng.uniform(-0.8, 0.8, (H, H)).astype(np.float32))
    h1 = ops.tanh(ops.add(ops.matmul(hb, w, False, False), xb))
    h1.set_friendly_name("aten::tanh")
    go_on = ops.less(ops.add(ci, _scalar_i64(1)), nb)  # `if i >= n: break`, after the append
    r_h, r_cond = ops.result(h1), ops.result(go_on)
    r_y = ops.result(ops.unsqueeze(h1, _i64(0)))  # ys.append(h)
    loop = _loop(ops.constant(np.int64(trip_count)), [r_h, r_cond, r_y], [ci, hb, xb, nb], ci, r_cond)
    loop.set_merged_input(hb, h0.output(0), r_h.output(0))
    loop.set_invariant_input(xb, x.output(0))
    loop.set_invariant_input(nb, n.output(0))
    outs = [
        ops.result(loop.get_iter_value(r_h.output(0), -1), name="h"),
        ops.result(loop.get_concatenated_slices(r_y.output(0), 0, 1, 1, -1, 0), name="ys"),
    ]  # torch.stack(ys)
    inputs = {
        "x": rng.uniform(-1, 1, (2, H)).astype(np.float32),
        "h0": np.zeros((2, H), np.float32),
        "n": np.array(steps, np.int64),
    }
    return ov.Model(outs, [x, h0, n], "while_break_stack"), inputs


def while_int32_max() -> tuple[Any, dict[str, np.ndarray]]:
    """`while s.sum() < limit: s = s * 1.5 + 1` with the trip count converted to i32 (INT32_MAX)."""
    ov, ops = _ov()
    rng = _rng(2)
    s0 = ops.parameter([4], np.float32, name="s0")
    ci = ops.parameter([], np.int64, name="i")
    sb = ops.parameter([4], np.float32, name="s")
    s1 = ops.add(ops.multiply(sb, ops.constant(np.float32(1.5))), ops.constant(np.float32(1.0)))
    cond = ops.less(ops.reduce_sum(s1, _i64(0), False), ops.constant(np.float32(60.0)))
    r_s, r_cond = ops.result(s1), ops.result(cond)
    r_i = ops.result(ci)  # the counter leaves the loop too (`return s, i`)
    trip = ops.convert(ops.constant(np.int64(INT32_MAX)), np.int32)
    loop = _loop(trip, [r_s, r_cond, r_i], [ci, sb], ci, r_cond)
    loop.set_merged_input(sb, s0.output(0), r_s.output(0))
    outs = [
        ops.result(loop.get_iter_value(r_s.output(0), -1), name="s"),
        ops.result(loop.get_iter_value(r_i.output(0), -1), name="last_i"),
    ]
    return ov.Model(outs, [s0], "while_int32_max"), {"s0": rng.uniform(0, 1, 4).astype(np.float32)}


def for_size0_index() -> tuple[Any, dict[str, np.ndarray]]:
    """`acc = zeros; ys = []` / `for i in range(x.size(0)): acc = acc + x[i] * i; ys.append(acc)`: the trip
    count from ShapeOf → Gather, x[i] a Gather at current_iteration, a for loop's constant-true condition."""
    ov, ops = _ov()
    rng = _rng(3)
    x = ops.parameter([-1, 4], np.float32, name="x")
    trip = ops.gather(ops.shape_of(x), _scalar_i64(0), _scalar_i64(0))  # x.size(0)
    ci = ops.parameter([], np.int64, name="i")
    xb = ops.parameter([-1, 4], np.float32, name="x_in")
    acc = ops.parameter([4], np.float32, name="acc")
    row = ops.gather(xb, ci, _scalar_i64(0))  # x[i]
    acc1 = ops.add(acc, ops.multiply(row, ops.convert(ci, np.float32)))
    outs = _for_stacking(trip, acc1, ci, xb, acc, x, "acc")
    return ov.Model(outs, [x], "for_size0_index"), {"x": rng.uniform(-1, 1, (6, 4)).astype(np.float32)}


def _lstm(ops5: Any, x: Any, h: Any, c: Any, inp: int, rng: np.random.Generator, t: int) -> Any:
    _, ops = _ov()
    return ops5.lstm_sequence(
        x,
        h,
        c,
        ops.constant(np.full(1, t, np.int32)),
        ops.constant(rng.uniform(-0.5, 0.5, (1, 4 * H, inp)).astype(np.float32)),
        ops.constant(rng.uniform(-0.5, 0.5, (1, 4 * H, H)).astype(np.float32)),
        ops.constant(rng.uniform(-0.1, 0.1, (1, 4 * H)).astype(np.float32)),
        H,
        "forward",
    )


def lstm_in_loop() -> tuple[Any, dict[str, np.ndarray]]:
    """`for i in range(x.size(0)): out, (h, c) = self.lstm(x[i], (h, c)); ys.append(out)`: an
    LSTMSequence in a Loop body, its state carried, every chunk's output stacked."""
    ov, ops = _ov()
    import openvino.opset5 as ops5

    rng = _rng(4)
    x = ops.parameter([3, 1, 2, 2], np.float32, name="x")  # chunks, batch, time, features
    h0 = ops.parameter([1, 1, H], np.float32, name="h0")
    c0 = ops.parameter([1, 1, H], np.float32, name="c0")
    trip = ops.gather(ops.shape_of(x), _scalar_i64(0), _scalar_i64(0))
    ci = ops.parameter([], np.int64, name="i")
    xb = ops.parameter([3, 1, 2, 2], np.float32, name="x_in")
    hb, cb = ops.parameter([1, 1, H], np.float32, name="h"), ops.parameter([1, 1, H], np.float32, name="c")
    seq = _lstm(ops5, ops.gather(xb, ci, _scalar_i64(0)), hb, cb, 2, rng, 2)
    seq.set_friendly_name("aten::lstm")
    r_h, r_c = ops.result(seq.output(1)), ops.result(seq.output(2))
    r_y = ops.result(ops.unsqueeze(seq.output(0), _i64(0)))
    r_cond = ops.result(ops.constant(np.bool_(True)))
    loop = _loop(trip, [r_h, r_c, r_y, r_cond], [ci, xb, hb, cb], ci, r_cond)
    loop.set_invariant_input(xb, x.output(0))
    loop.set_merged_input(hb, h0.output(0), r_h.output(0))
    loop.set_merged_input(cb, c0.output(0), r_c.output(0))
    outs = [
        ops.result(loop.get_iter_value(r_h.output(0), -1), name="h"),
        ops.result(loop.get_concatenated_slices(r_y.output(0), 0, 1, 1, -1, 0), name="ys"),
    ]
    inputs = {
        "x": rng.uniform(-1, 1, (3, 1, 2, 2)).astype(np.float32),
        "h0": np.zeros((1, 1, H), np.float32),
        "c0": np.zeros((1, 1, H), np.float32),
    }
    return ov.Model(outs, [x, h0, c0], "lstm_in_loop"), inputs


def _branch_sequences(rng: np.random.Generator, kinds: tuple[str, str] = ("gru", "rnn")) -> tuple[Any, Any]:
    """(then, else) bodies of an If: `self.<kind>(x, h)` each (an LSTM's cell state starts at zero), the
    output sequence and the state."""
    ov, ops = _ov()
    import openvino.opset5 as ops5

    gates = {"lstm": 4, "gru": 3, "rnn": 1}
    bodies = []
    for kind in kinds:
        x = ops.parameter([1, 2, 2], np.float32, name=f"{kind}_x")
        h = ops.parameter([1, 1, H], np.float32, name=f"{kind}_h")
        g = gates[kind]
        w = ops.constant(rng.uniform(-0.5, 0.5, (1, g * H, 2)).astype(np.float32))
        r = ops.constant(rng.uniform(-0.5, 0.5, (1, g * H, H)).astype(np.float32))
        b = ops.constant(rng.uniform(-0.1, 0.1, (1, g * H)).astype(np.float32))
        lens = ops.constant(np.full(1, 2, np.int32))
        if kind == "lstm":
            c = ops.constant(np.zeros((1, 1, H), np.float32))
            seq = ops5.lstm_sequence(x, h, c, lens, w, r, b, H, "forward")
        else:
            fn = ops5.gru_sequence if kind == "gru" else ops5.rnn_sequence
            seq = fn(x, h, lens, w, r, b, H, "forward")
        seq.set_friendly_name(f"aten::{kind}")
        bodies.append(ov.Model([ops.result(ops.squeeze(seq.output(0), _i64(1))), ops.result(seq.output(1))], [x, h]))
    return bodies[0], bodies[1]


def _if(cond: Any, x: Any, h: Any, rng: np.random.Generator, kinds: tuple[str, str] = ("gru", "rnn")) -> Any:
    _, ops = _ov()
    then_body, else_body = _branch_sequences(rng, kinds)
    node = ops.if_op(cond.output(0))
    node.set_then_body(then_body)
    node.set_else_body(else_body)
    tp, ep = then_body.get_parameters(), else_body.get_parameters()
    node.set_input(x.output(0) if hasattr(x, "output") else x, tp[0], ep[0])
    node.set_input(h.output(0) if hasattr(h, "output") else h, tp[1], ep[1])
    y = node.set_output(then_body.get_results()[0], else_body.get_results()[0])
    hn = node.set_output(then_body.get_results()[1], else_body.get_results()[1])
    return y, hn


def gru_rnn_in_if() -> tuple[Any, dict[str, np.ndarray]]:
    """`if x.sum() > 0: y, h = self.gru(x, h) else: y, h = self.rnn(x, h)`: sequences in both branches."""
    ov, ops = _ov()
    rng = _rng(5)
    x = ops.parameter([1, 2, 2], np.float32, name="x")
    h0 = ops.parameter([1, 1, H], np.float32, name="h0")
    cond = ops.greater(ops.reduce_sum(x, _i64(0, 1, 2), False), ops.constant(np.float32(0)))
    y, hn = _if(cond, x, h0, rng)
    outs = [ops.result(y, name="y"), ops.result(hn, name="h")]
    inputs = {"x": rng.uniform(-1, 1, (1, 2, 2)).astype(np.float32), "h0": np.zeros((1, 1, H), np.float32)}
    return ov.Model(outs, [x, h0], "gru_rnn_in_if"), inputs


def lstm_in_if() -> tuple[Any, dict[str, np.ndarray]]:
    """`if use_lstm: y, (h, _) = self.lstm(x, (h, zeros)) else: y, h = self.rnn(x, h)`: the branch chosen by
    a bool input."""
    ov, ops = _ov()
    rng = _rng(8)
    x = ops.parameter([1, 2, 2], np.float32, name="x")
    h0 = ops.parameter([1, 1, H], np.float32, name="h0")
    use_lstm = ops.parameter([], np.bool_, name="use_lstm")
    y, hn = _if(use_lstm, x, h0, rng, ("lstm", "rnn"))
    outs = [ops.result(y, name="y"), ops.result(hn, name="h")]
    inputs = {
        "x": rng.uniform(-1, 1, (1, 2, 2)).astype(np.float32),
        "h0": np.zeros((1, 1, H), np.float32),
        "use_lstm": np.array(True),
    }
    return ov.Model(outs, [x, h0, use_lstm], "lstm_in_if"), inputs


def sequences_in_if_in_loop() -> tuple[Any, dict[str, np.ndarray]]:
    """`for i in range(x.size(0)): if i % 2 == 0: y, h = self.gru(x[i], h) else: y, h = self.rnn(x[i], h);
    ys.append(y)`: GRUSequence/RNNSequence in an If in a Loop (two deep), the branch chosen by the counter."""
    ov, ops = _ov()
    rng = _rng(6)
    x = ops.parameter([4, 1, 2, 2], np.float32, name="x")
    h0 = ops.parameter([1, 1, H], np.float32, name="h0")
    trip = ops.gather(ops.shape_of(x), _scalar_i64(0), _scalar_i64(0))
    ci = ops.parameter([], np.int64, name="i")
    xb, hb = ops.parameter([4, 1, 2, 2], np.float32, name="x_in"), ops.parameter([1, 1, H], np.float32, name="h")
    even = ops.equal(ops.floor_mod(ci, _scalar_i64(2)), _scalar_i64(0))
    y, hn = _if(even, ops.gather(xb, ci, _scalar_i64(0)), hb, rng)
    r_h, r_y = ops.result(hn), ops.result(ops.unsqueeze(y, _i64(0)))
    r_cond = ops.result(ops.constant(np.bool_(True)))
    loop = _loop(trip, [r_h, r_y, r_cond], [ci, xb, hb], ci, r_cond)
    loop.set_invariant_input(xb, x.output(0))
    loop.set_merged_input(hb, h0.output(0), r_h.output(0))
    outs = [
        ops.result(loop.get_iter_value(r_h.output(0), -1), name="h"),
        ops.result(loop.get_concatenated_slices(r_y.output(0), 0, 1, 1, -1, 0), name="ys"),
    ]
    inputs = {"x": rng.uniform(-1, 1, (4, 1, 2, 2)).astype(np.float32), "h0": np.zeros((1, 1, H), np.float32)}
    return ov.Model(outs, [x, h0], "sequences_in_if_in_loop"), inputs


def recurrence() -> tuple[Any, dict[str, np.ndarray]]:
    """docs/pytorch.md's module: `ys = []` / `for t in range(x.size(0)): h = tanh(self.w(h) + x[t]);
    ys.append(h)` / `return h, torch.stack(ys)`, with x and h inputs (the names `forward` gives them)."""
    ov, ops = _ov()
    rng = _rng(9)
    x = ops.parameter([-1, 2, H], np.float32, name="x")  # time, batch, features
    h0 = ops.parameter([2, H], np.float32, name="h")
    trip = ops.gather(ops.shape_of(x), _scalar_i64(0), _scalar_i64(0))  # x.size(0)
    ci = ops.parameter([], np.int64, name="t")
    xb, hb = ops.parameter([-1, 2, H], np.float32, name="x_in"), ops.parameter([2, H], np.float32, name="h_in")
    w = ops.constant(rng.uniform(-0.8, 0.8, (H, H)).astype(np.float32))
    b = ops.constant(rng.uniform(-0.1, 0.1, H).astype(np.float32))
    linear = ops.add(ops.matmul(hb, w, False, True), b)  # self.w(h): h @ W.T + b
    h1 = ops.tanh(ops.add(linear, ops.gather(xb, ci, _scalar_i64(0))))  # x[t]
    h1.set_friendly_name("aten::tanh")
    r_h, r_cond = ops.result(h1), ops.result(ops.constant(np.bool_(True)))
    r_y = ops.result(ops.unsqueeze(h1, _i64(0)))  # ys.append(h)
    loop = _loop(trip, [r_h, r_cond, r_y], [ci, xb, hb], ci, r_cond)
    loop.set_invariant_input(xb, x.output(0))
    loop.set_merged_input(hb, h0.output(0), r_h.output(0))
    outs = [
        ops.result(loop.get_iter_value(r_h.output(0), -1), name="h_last"),
        ops.result(loop.get_concatenated_slices(r_y.output(0), 0, 1, 1, -1, 0), name="ys"),
    ]
    inputs = {"x": rng.uniform(-1, 1, (6, 2, H)).astype(np.float32), "h": np.zeros((2, H), np.float32)}
    return ov.Model(outs, [x, h0], "recurrence"), inputs


def loop_in_loop_break() -> tuple[Any, dict[str, np.ndarray]]:
    """`for i in range(x.size(0)): j = 0; while True: s = s + x[i]; j += 1; if j > i: break`: a
    while/break Loop (INT64_MAX) inside a for Loop (ShapeOf → Gather), the inner bound read from the outer
    counter."""
    ov, ops = _ov()
    rng = _rng(7)
    x = ops.parameter([3, 2], np.float32, name="x")
    trip = ops.gather(ops.shape_of(x), _scalar_i64(0), _scalar_i64(0))
    # inner: while True: s += row; if j >= i: break
    j = ops.parameter([], np.int64, name="j")
    s_in, row_in, i_in = (
        ops.parameter([2], np.float32, name="s_inner"),
        ops.parameter([2], np.float32, name="row"),
        ops.parameter([], np.int64, name="i_outer"),
    )
    s2 = ops.add(s_in, row_in)
    r_s2, r_c2 = ops.result(s2), ops.result(ops.less(j, i_in))
    inner = _loop(ops.constant(np.int64(INT64_MAX)), [r_s2, r_c2], [j, s_in, row_in, i_in], j, r_c2)
    # outer: for i in range(x.size(0))
    i = ops.parameter([], np.int64, name="i")
    xb, s = ops.parameter([3, 2], np.float32, name="x_in"), ops.parameter([2], np.float32, name="s")
    inner.set_merged_input(s_in, s.output(0), r_s2.output(0))
    inner.set_invariant_input(row_in, ops.gather(xb, i, _scalar_i64(0)).output(0))
    inner.set_invariant_input(i_in, i.output(0))
    s_next = inner.get_iter_value(r_s2.output(0), -1)
    outs = _for_stacking(trip, s_next, i, xb, s, x, "s")
    return ov.Model(outs, [x], "loop_in_loop_break"), {"x": rng.uniform(-1, 1, (3, 2)).astype(np.float32)}


PYTORCH_SHAPES: dict[str, Callable[[], tuple[Any, dict[str, np.ndarray]]]] = {
    "while_break_stack": while_break_stack,
    "while_int32_max": while_int32_max,
    "for_size0_index": for_size0_index,
    "lstm_in_loop": lstm_in_loop,
    "gru_rnn_in_if": gru_rnn_in_if,
    "lstm_in_if": lstm_in_if,
    "sequences_in_if_in_loop": sequences_in_if_in_loop,
    "loop_in_loop_break": loop_in_loop_break,
    "recurrence": recurrence,
}
