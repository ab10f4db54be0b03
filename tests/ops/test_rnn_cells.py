"""LSTMCell-4, GRUCell-3 and RNNCell-1 against OpenVINO's CPU plugin, and their shape checks."""

from __future__ import annotations

import numpy as np
import pytest

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, F32, Dim, static_shape
from tests.opcheck import check_op

ov = pytest.importorskip("openvino")
ops = pytest.importorskip("openvino.opset13")
ops4 = pytest.importorskip("openvino.opset4")
ops3 = pytest.importorskip("openvino.opset3")

RNG = np.random.default_rng(3)


def rand(*shape: int, scale: float = 0.5) -> np.ndarray:
    return (RNG.standard_normal(shape) * scale).astype(np.float32)


@pytest.mark.parametrize("batch,inp,hid,clip,acts", [
    (1, 4, 3, 0.0, None), (2, 5, 4, 0.7, None), (2, 3, 2, 0.0, ["relu", "tanh", "sigmoid"]),
])
def test_lstm_cell(batch, inp, hid, clip, acts) -> None:
    x = ops.parameter([batch, inp], np.float32, name="x")
    h = ops.parameter([batch, hid], np.float32, name="h")
    c = ops.parameter([batch, hid], np.float32, name="c")
    kw = {"clip": clip} if clip else {}
    if acts:
        kw["activations"] = acts
    cell = ops4.lstm_cell(x, h, c, ops.constant(rand(4 * hid, inp)), ops.constant(rand(4 * hid, hid)),
                          ops.constant(rand(4 * hid)), hid, **kw)
    model = ov.Model([ops.result(cell.output(0), name="ho"), ops.result(cell.output(1), name="co")], [x, h, c])
    check_op(model, {"x": rand(batch, inp, scale=2), "h": rand(batch, hid), "c": rand(batch, hid)}, "LSTMCell")


@pytest.mark.parametrize("lbr", [False, True])
@pytest.mark.parametrize("clip", [0.0, 0.5])
def test_gru_cell(lbr, clip) -> None:
    b, inp, hid = 2, 4, 3
    x = ops.parameter([b, inp], np.float32, name="x")
    h = ops.parameter([b, hid], np.float32, name="h")
    cell = ops3.gru_cell(x, h, ops.constant(rand(3 * hid, inp)), ops.constant(rand(3 * hid, hid)),
                         ops.constant(rand((4 if lbr else 3) * hid)), hid, linear_before_reset=lbr, clip=clip)
    model = ov.Model([ops.result(cell, name="y")], [x, h])
    check_op(model, {"x": rand(b, inp, scale=2), "h": rand(b, hid)}, "GRUCell")


@pytest.mark.parametrize("act,alpha,beta", [("tanh", [], []), ("relu", [], []), ("sigmoid", [], [])])
def test_rnn_cell(act, alpha, beta) -> None:
    b, inp, hid = 3, 4, 5
    x = ops.parameter([b, inp], np.float32, name="x")
    h = ops.parameter([b, hid], np.float32, name="h")
    cell = ops.rnn_cell(x, h, ops.constant(rand(hid, inp)), ops.constant(rand(hid, hid)), ops.constant(rand(hid)),
                        hid, activations=[act], activations_alpha=alpha, activations_beta=beta)
    model = ov.Model([ops.result(cell, name="y")], [x, h])
    check_op(model, {"x": rand(b, inp), "h": rand(b, hid)}, "RNNCell")


def test_cell_shape_checks_name_the_input() -> None:
    op = lookup("LSTMCell", "opset4")
    attrs, problems = bind_attrs(op.Attrs, {"hidden_size": "4", "activations": "sigmoid, tanh, tanh",
                                            "activations_alpha": "", "activations_beta": "", "clip": "0"})
    assert not problems
    x, h = TensorInfo(F32, (DYNAMIC, Dim.of(8))), TensorInfo(F32, (DYNAMIC, Dim.of(4)))
    w, r, b = (TensorInfo(F32, static_shape(s)) for s in ([16, 8], [16, 4], [16]))
    out = op.infer(attrs, [x, h, h, w, r, b])
    assert [o.shape for o in out] == [(DYNAMIC, Dim.of(4))] * 2
    with pytest.raises(OpError, match="input W is \\[16,7\\], expected \\[16,8\\]"):
        op.infer(attrs, [x, h, h, TensorInfo(F32, static_shape([16, 7])), r, b])
    with pytest.raises(OpError, match="input B"):
        op.infer(attrs, [x, h, h, w, r, TensorInfo(F32, static_shape([12]))])
