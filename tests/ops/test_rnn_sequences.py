"""LSTMSequence-5, GRUSequence-5, RNNSequence-5 against OpenVINO's CPU plugin (directions, seq_lengths)."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, Dim, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")

RNG = np.random.default_rng(11)
B, T, IN, H = 2, 4, 3, 5


def rand(*shape: int, scale: float = 0.5) -> np.ndarray:
    return (RNG.standard_normal(shape) * scale).astype(np.float32)


def run(kind: str, direction: str, lengths: list[int]) -> None:
    d = 2 if direction == "bidirectional" else 1
    g = {"LSTM": 4, "GRU": 3, "RNN": 1}[kind]
    x = ops.parameter([B, T, IN], np.float32, name="x")
    h = ops.parameter([B, d, H], np.float32, name="h")
    sl = ops.constant(np.array(lengths, np.int32))
    w, r, b = ops.constant(rand(d, g * H, IN)), ops.constant(rand(d, g * H, H)), ops.constant(rand(d, g * H))
    feed = {"x": rand(B, T, IN, scale=1.5), "h": rand(B, d, H)}
    if kind == "LSTM":
        c = ops.parameter([B, d, H], np.float32, name="c")
        node = ops.lstm_sequence(x, h, c, sl, w, r, b, H, direction)
        params, feed["c"] = [x, h, c], rand(B, d, H)
    elif kind == "GRU":
        node = ops.gru_sequence(x, h, sl, w, r, b, H, direction)
        params = [x, h]
    else:
        node = ops.rnn_sequence(x, h, sl, w, r, b, H, direction)
        params = [x, h]
    results = [ops.result(node.output(i), name=f"o{i}") for i in range(len(node.outputs()))]
    check_op(ov.Model(results, params), feed, f"{kind}Sequence")


@pytest.mark.parametrize("kind", ["LSTM", "GRU", "RNN"])
@pytest.mark.parametrize("direction", ["forward", "reverse", "bidirectional"])
def test_sequences_full_length(kind: str, direction: str) -> None:
    run(kind, direction, [T, T])


@pytest.mark.parametrize("kind", ["LSTM", "GRU", "RNN"])
@pytest.mark.parametrize("direction", ["forward", "reverse"])
def test_sequences_shorter_lengths(kind: str, direction: str) -> None:
    run(kind, direction, [T, 2])


def test_sequence_shape_function() -> None:
    op = lookup("LSTMSequence", "opset5")
    attrs, problems = bind_attrs(op.Attrs, {"hidden_size": "5", "direction": "bidirectional"})
    assert not problems
    x = TensorInfo(F32, (DYNAMIC, Dim.of(7), Dim.of(3)))
    w = TensorInfo(F32, static_shape([2, 20, 3]))
    out = op.infer(attrs, [x, None, None, None, w, None, None])
    assert out[0].shape == (DYNAMIC, Dim.of(2), Dim.of(7), Dim.of(5))
    assert out[1].shape == out[2].shape == (DYNAMIC, Dim.of(2), Dim.of(5))
    attrs1, _ = bind_attrs(op.Attrs, {"hidden_size": "5", "direction": "forward"})
    with pytest.raises(OpError, match="2 directions"):
        op.infer(attrs1, [x, None, None, None, w, None, None])
