"""Textbook recurrent bodies for the differential campaign: the loops people write by hand.

`build(seed)` draws one model: an RNN, GRU or LSTM cell written op by op, a state swap (a <- b,
b <- a) or a body Result that reads a body Parameter directly, in a TensorIterator, a Loop or the
TensorIterator OpenVINO's ONNX front end writes for an ONNX Scan. The slice reaches the cell through
a Squeeze, Reshape or Unsqueeze (or as it is), the cell's Add takes the slice first or the state
first, and its activation is any the CPU plugin runs as an Eltwise node. These are the shapes in
which the plugin's in-place memory shows (docs/conformance.md, "Textbook recurrent bodies").
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

# Unary activations the CPU plugin runs as Eltwise nodes (its nodes/eltwise.cpp initializers), by the
# opset16 function that builds them; `None` is no activation.
ACTIVATIONS: dict[str, Any] = {
    "none": None,
    "relu": "relu",
    "sigmoid": "sigmoid",
    "tanh": "tanh",
    "exp": "exp",
    "abs": "abs",
    "clamp": ("clamp", -0.5, 0.75),
    "elu": ("elu", 0.5),
    "gelu": "gelu",
    "hswish": "hswish",
    "hsigmoid": "hsigmoid",
    "swish": "swish",
    "mish": "mish",
    "softplus": "softplus",
    "softsign": "softsign",
    "negative": "negative",
    "floor": "floor",
    "ceiling": "ceiling",
    "round": ("round", "half_to_even"),
    "erf": "erf",
    "sqrt": "sqrt",
}
CELLS = ("rnn", "rnn", "rnn", "rnn_weighted", "gru", "lstm", "swap", "pass")
LOOPS = ("ti", "loop", "scan")
VIEWS = ("squeeze", "reshape", "unsqueeze", "none")


def _ov() -> tuple[Any, Any]:
    import openvino as ov
    import openvino.opset16 as ops

    return ov, ops


class _Cell:
    """One body drawn from `r`: its Parameters, Results and which Result feeds which state."""

    def __init__(self, r: random.Random, n: int):
        self.r, self.n = r, n
        self.ov, self.ops = _ov()
        self.cell = r.choice(CELLS)
        self.view = r.choice(VIEWS)
        self.order = r.choice(("xh", "hx"))
        self.act = r.choice(sorted(ACTIVATIONS))
        self.notes = [f"cell {self.cell}", f"view {self.view}", f"order {self.order}", f"activation {self.act}"]

    def activate(self, v: Any, name: str | None = None) -> Any:
        spec = ACTIVATIONS[name or self.act]
        if spec is None:
            return v
        fn, *args = spec if isinstance(spec, tuple) else (spec,)
        if fn == "sqrt":  # keep the root of a real number
            v = self.ops.abs(v)
        if fn == "gelu":
            return self.ops.gelu(v, self.r.choice(("erf", "tanh")))
        return getattr(self.ops, fn)(v, *args)

    def slice_param(self) -> tuple[Any, Any]:
        """The body Parameter receiving the slice and the cell's view of it ([n], or [1, 1, n] unsqueezed)."""
        ops = self.ops
        xt = ops.parameter([1, self.n], np.float32, name="x_t")
        if self.view == "squeeze":
            return xt, ops.squeeze(xt, ops.constant(np.array([0], np.int64)))
        if self.view == "reshape":
            return xt, ops.reshape(xt, ops.constant(np.array([self.n], np.int64)), False)
        if self.view == "unsqueeze":
            return xt, ops.unsqueeze(xt, ops.constant(np.array([0], np.int64)))
        return xt, xt

    def state_shape(self) -> list[int]:
        return {"squeeze": [self.n], "reshape": [self.n], "unsqueeze": [1, 1, self.n], "none": [1, self.n]}[self.view]

    def add(self, x: Any, h: Any) -> Any:
        return self.ops.add(x, h) if self.order == "xh" else self.ops.add(h, x)

    def weight(self) -> Any:
        w = np.random.default_rng(self.r.randrange(1 << 30)).uniform(0.3, 0.9, self.state_shape())
        return self.ops.constant(w.astype(np.float32))

    def body(self) -> tuple[list[Any], list[Any], dict[int, int], list[int]]:
        """(Parameters, Results, {state Parameter index: Result index}, indices of Results read outside)."""
        ops, shape = self.ops, self.state_shape()
        xt, x = self.slice_param()
        if self.cell in ("rnn", "rnn_weighted"):
            h = ops.parameter(shape, np.float32, name="h")
            if self.cell == "rnn_weighted":
                x = ops.multiply(x, self.weight())
            y = ops.result(self.activate(self.add(x, h)))
            return [xt, h], [y], {1: 0}, [0]
        if self.cell == "gru":  # h' = (1 - z) * n + z * h, z = sigmoid(x Wz + h), n = act(x + r * h)
            h = ops.parameter(shape, np.float32, name="h")
            z = ops.sigmoid(self.add(ops.multiply(x, self.weight()), h))
            rr = ops.sigmoid(ops.multiply(h, self.weight()))
            n = self.activate(self.add(x, ops.multiply(rr, h)))
            one = ops.constant(np.ones(shape, np.float32))
            y = ops.result(ops.add(ops.multiply(ops.subtract(one, z), n), ops.multiply(z, h)))
            return [xt, h], [y], {1: 0}, [0]
        if self.cell == "lstm":  # c' = f * c + i * g, h' = o * act(c')
            h = ops.parameter(shape, np.float32, name="h")
            c = ops.parameter(shape, np.float32, name="c")
            f = ops.sigmoid(self.add(ops.multiply(x, self.weight()), h))
            g = ops.tanh(self.add(x, ops.multiply(h, self.weight())))
            c2 = ops.add(ops.multiply(f, c), g)
            h2 = ops.multiply(ops.sigmoid(h), self.activate(c2))
            return [xt, h, c], [ops.result(h2), ops.result(c2)], {1: 0, 2: 1}, [0, 1]
        a = ops.parameter(shape, np.float32, name="a")
        b = ops.parameter(shape, np.float32, name="b")
        if self.cell == "swap":  # a <- b, b <- a (b <- act(x + a) in half of them); the slice read for an output
            nb = self.activate(self.add(x, a)) if self.r.random() < 0.5 else a
            return [xt, a, b], [ops.result(b), ops.result(nb), ops.result(ops.relu(xt))], {1: 0, 2: 1}, [0, 1, 2]
        # "pass": a Result reads the slice (itself or its view) or a state Parameter itself
        first = self.r.choice(("slice", "state", "other"))
        src = {"slice": x, "state": a, "other": b}[first]
        self.notes.append(f"passes {first}")
        added = self.r.choice(("a", "b"))
        self.notes.append(f"adds {added}")
        nb = self.activate(self.add(x, a if added == "a" else b))
        return [xt, a, b], [ops.result(src), ops.result(nb)], {1: 0, 2: 1}, [0, 1]


def _api_model(r: random.Random, cell: _Cell, kind: str, t: int, n: int, outputs: str | None = None) -> Any:
    """The cell in a TensorIterator or Loop over x [t, n]; `outputs` "last" or "concat" fixes how the Results
    read outside are given out (drawn otherwise)."""
    ov, ops = cell.ov, cell.ops
    xs = ops.parameter([t, n], np.float32, name="x")
    params, results, merged, read = cell.body()
    outer = [xs]
    body_results = list(results)
    if kind == "loop":
        body_results.append(ops.result(ops.constant(np.array(True))))
        op = ops.loop(ops.constant(np.array(t, np.int64)), ops.constant(np.array(True)))
        op.set_function(ov.Model(body_results, params))
        op.set_special_body_ports([-1, len(body_results) - 1])
    else:
        op = ops.tensor_iterator()
        op.set_body(ov.Model(body_results, params))
    op.set_sliced_input(params[0], xs.output(0), 0, 1, 1, -1, 0)
    for pi, ri in merged.items():
        init = ops.parameter(params[pi].get_partial_shape(), np.float32, name=f"{params[pi].get_friendly_name()}0")
        outer.append(init)
        op.set_merged_input(params[pi], init.output(0), results[ri].output(0))
    outs = []
    for ri in read:
        how = outputs or r.choice(("last", "last", "concat"))
        out = (
            op.get_iter_value(results[ri].output(0), -1)
            if how == "last"
            else op.get_concatenated_slices(results[ri].output(0), 0, 1, 1, -1, 0)
        )
        outs.append(ops.result(out, name=f"out{ri}"))
        cell.notes.append(f"output {how}")
    return ov.Model(outs, outer, "textbook")


def _scan_model(r: random.Random, cell: _Cell, t: int, n: int) -> Any:
    """An ONNX Scan h' = act(x_t + h) (or h + x_t) converted by OpenVINO's ONNX front end."""
    import onnx
    from onnx import TensorProto, helper

    ov = cell.ov
    acts = {
        "relu": "Relu",
        "sigmoid": "Sigmoid",
        "tanh": "Tanh",
        "exp": "Exp",
        "abs": "Abs",
        "neg": "Neg",
        "floor": "Floor",
        "ceiling": "Ceil",
        "erf": "Erf",
        "softplus": "Softplus",
        "softsign": "Softsign",
        "elu": "Elu",
        "none": "Identity",
    }
    name = r.choice(sorted(acts))
    cell.notes[-1] = f"activation {name}"
    add = ["x_t", "h"] if cell.order == "xh" else ["h", "x_t"]
    body = helper.make_graph(
        [
            helper.make_node("Add", add, ["s"]),
            helper.make_node(acts[name], ["s"], ["h2"]),
            helper.make_node("Identity", ["h2"], ["y"]),
        ],
        "body",
        [
            helper.make_tensor_value_info("h", TensorProto.FLOAT, [n]),
            helper.make_tensor_value_info("x_t", TensorProto.FLOAT, [n]),
        ],
        [
            helper.make_tensor_value_info("h2", TensorProto.FLOAT, [n]),
            helper.make_tensor_value_info("y", TensorProto.FLOAT, [n]),
        ],
    )
    scan = helper.make_node("Scan", ["h0", "x"], ["hT", "ys"], num_scan_inputs=1, body=body)
    graph = helper.make_graph(
        [scan],
        "scan",
        [
            helper.make_tensor_value_info("h0", TensorProto.FLOAT, [n]),
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [t, n]),
        ],
        [
            helper.make_tensor_value_info("hT", TensorProto.FLOAT, [n]),
            helper.make_tensor_value_info("ys", TensorProto.FLOAT, [t, n]),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)])
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "scan.onnx"
        onnx.save(model, str(path))
        return ov.convert_model(str(path))


def build(seed: int, knobs: Any = None) -> Any:
    """The `Case` of `seed` (tests/differential/generator.py's), drawn from the textbook bodies."""
    from tests.differential.generator import Case, Knobs

    r = random.Random(seed)
    t, n = r.randint(2, 5), r.randint(1, 4)
    cell = _Cell(r, n)
    kind = r.choice(LOOPS)
    if kind == "scan":
        cell.cell, cell.view = "rnn", "squeeze"
        cell.notes[:3] = ["cell rnn", "view scan", f"order {cell.order}"]
        model = _scan_model(r, cell, t, n)
    else:
        model = _api_model(r, cell, kind, t, n)
    cell.notes.insert(0, f"loop {kind}")
    rng = np.random.default_rng(seed)
    inputs = {
        p.get_friendly_name(): rng.uniform(-1.5, 1.5, [d.get_length() for d in p.get_partial_shape()]).astype(
            np.float32
        )
        for p in model.get_parameters()
    }
    return Case(seed, model, inputs, cell.notes, knobs or Knobs(textbook=True))
