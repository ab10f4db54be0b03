"""Loop/TensorIterator families that a generator outside the project found, built with the `openvino` API.

Each family is one shape of body around one CPU-plugin mechanism (docs/conformance.md, "Loop families
built outside the generator"); `build(seed)` draws a family and its variations, the triggering shape
and near neighbours that must not warn, so a campaign measures both disagreements and false warnings.
The deterministic builders (`iteration_back_edge`, ...) also make the rule fixtures
(tests/rules/make_family_fixtures.py). The generator draws these with `Knobs.families`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

DT = {"f32": np.float32, "i32": np.int32, "i64": np.int64}


def _ov() -> tuple[Any, Any]:
    import openvino as ov
    import openvino.opset16 as ops

    return ov, ops


def _true() -> Any:
    return _ov()[1].constant(np.array(True))


def _model(outs: list[Any], params: list[Any], name: str) -> Any:
    ov, ops = _ov()
    return ov.Model([ops.result(o, name=f"out{i}") for i, o in enumerate(outs)], params, name)


def _loop(trip: int) -> Any:
    _, ops = _ov()
    return ops.loop(ops.constant(np.array(trip, np.int64)), _true())


def _loop_or_ti(kind: str, trip: int, params: list[Any], results: list[Any]) -> tuple[Any, Any]:
    """A Loop of `trip` iterations (`kind` "loop") or a TensorIterator ("ti") with the body `params` ->
    `results`, to which it adds the Loop's condition Result, or the TI's Parameter z [1, 2] and z * z,
    the slice's own Result, so that every Result is read: (the node, that Result or None)."""
    ov, ops = _ov()
    zres = None
    if kind == "loop":
        n = _loop(trip)
        results.append(ops.result(_true()))
    else:
        n = ops.tensor_iterator()
        z = ops.parameter([1, 2], np.float32, name="z")
        params.append(z)
        zres = ops.result(ops.multiply(z, z))
        results.append(zres)
    n.set_function(ov.Model(results, params))
    if kind == "loop":
        n.set_special_body_ports([-1, len(results) - 1])
    return n, zres


def _slice_z(n: Any, z: Any, trip: int, inputs: list[Any]) -> None:
    """The TensorIterator's sliced input: a top-level xs [trip, 2] (added to `inputs`), a row an iteration into z."""
    _, ops = _ov()
    xs = ops.parameter([trip, 2], np.float32, name="xs")
    n.set_sliced_input(z, xs.output(0), 0, 1, 1, -1, 0)
    inputs.append(xs)


def _view(x: Any, how: str) -> Any:
    """`x` as is, through a Reshape to its own shape (a view for the CPU plugin), or through a computing op."""
    _, ops = _ov()
    if how == "direct":
        return x
    if how == "reshape":
        return ops.reshape(x, ops.shape_of(x, "i64"), False)
    return ops.add(x, ops.constant(np.zeros((), x.get_element_type().to_dtype())))


def iteration_back_edge(trip: int = 3, dtype: str = "i64", how: str = "direct", shape: tuple = ()) -> Any:
    """A Loop whose back edge passes on current_iteration: s <- Result(i), out1 = s + 10 (last value)."""
    ov, ops = _ov()
    x = ops.parameter(list(shape), DT[dtype], name="x")
    cur = ops.parameter(list(shape), DT[dtype], name="i")
    s = ops.parameter(list(shape), DT[dtype], name="s")
    rs = ops.result(_view(cur, how))
    ro = ops.result(ops.add(s, ops.constant(np.full(shape, 10, DT[dtype]))))
    n = _loop(trip)
    n.set_function(ov.Model([rs, ops.result(_true()), ro], [cur, s]))
    n.set_special_body_ports([0, 1])
    n.set_merged_input(s, x.output(0), rs.output(0))
    return _model([n.get_iter_value(ro.output(0), -1)], [x], "iteration_back_edge")


def invariant_back_edge(kind: str = "loop", how: str = "direct", also_output: bool = False) -> Any:
    """A body Result of an invariant Parameter p is the back edge of state s: s <- p, out = s + 1."""
    _, ops = _ov()
    x = ops.parameter([2], np.float32, name="x")
    y = ops.parameter([2], np.float32, name="y")
    p = ops.parameter([2], np.float32, name="p")
    s = ops.parameter([2], np.float32, name="s")
    rs = ops.result(_view(p, how))
    ro = ops.result(ops.add(s, ops.constant(np.ones(2, np.float32))))
    params, results = [p, s], [rs, ro]
    n, zres = _loop_or_ti(kind, 3, params, results)
    n.set_invariant_input(p, x.output(0))
    n.set_merged_input(s, y.output(0), rs.output(0))
    inputs = [x, y]
    if kind == "ti":
        _slice_z(n, params[-1], 3, inputs)
    outs = [n.get_iter_value(ro.output(0), -1)]
    if kind == "ti":
        outs.append(n.get_concatenated_slices(zres.output(0), 0, 1, 1, -1, 0))
    if also_output:
        outs.append(n.get_iter_value(rs.output(0), -1))
    return _model(outs, inputs, "invariant_back_edge")


def shared_unchanged_result(
    kind: str = "loop", role: str = "invariant", outputs: int = 2, how: str = "direct", concat_last: bool = False
) -> Any:
    """A body Result of a Parameter that never changes (invariant, or merged with itself as back edge),
    given to `outputs` last-value outputs (a concatenated one last with `concat_last`)."""
    _, ops = _ov()
    x = ops.parameter([2], np.float32, name="x")
    p = ops.parameter([2], np.float32, name="p")
    rp = ops.result(_view(p, how))
    params, results = [p], [rp]
    inputs = [x]
    n, zres = _loop_or_ti(kind, 3, params, results)
    if role == "invariant":
        n.set_invariant_input(p, x.output(0))
    else:
        n.set_merged_input(p, x.output(0), rp.output(0))
    if kind == "ti":
        _slice_z(n, params[-1], 3, inputs)
    outs = [n.get_iter_value(rp.output(0), -1) for _ in range(outputs)]
    if kind == "ti":
        outs.append(n.get_concatenated_slices(zres.output(0), 0, 1, 1, -1, 0))
    if concat_last:
        outs.append(n.get_concatenated_slices(rp.output(0), 0, 1, 1, -1, 0))
    return _model(outs, inputs, "shared_unchanged_result")


def grown_unread_state(kind: str = "loop", read_state: bool = False, trip: int = 3) -> Any:
    """A state that grows on its back edge (s <- Concat(s, s)) beside a static state q; the grown state's
    output is read only with `read_state`."""
    _, ops = _ov()
    x = ops.parameter([1], np.float32, name="x")
    y = ops.parameter([2], np.float32, name="y")
    s = ops.parameter([-1], np.float32, name="s")
    q = ops.parameter([2], np.float32, name="q")
    rs = ops.result(ops.concat([s, s], 0))
    rq = ops.result(ops.add(q, q))
    params, results = [s, q], [rs, rq]
    n, zres = _loop_or_ti(kind, trip, params, results)
    n.set_merged_input(s, x.output(0), rs.output(0))
    n.set_merged_input(q, y.output(0), rq.output(0))
    inputs = [x, y]
    if kind == "ti":
        _slice_z(n, params[-1], trip, inputs)
    grown = n.get_iter_value(rs.output(0), -1)
    outs = [n.get_iter_value(rq.output(0), -1)] + ([grown] if read_state else [])
    if kind == "ti":
        outs.append(n.get_concatenated_slices(zres.output(0), 0, 1, 1, -1, 0))
    return _model(outs, inputs, "grown_unread_state")


def ragged_concat(read: bool = False, trip: int = 3) -> Any:
    """A state [k,1] doubling along axis 0, concatenated along axis 1: parts of different lengths off the
    axis; the concatenated output is read only with `read`."""
    ov, ops = _ov()
    x = ops.parameter([1, 1], np.float32, name="x")
    s = ops.parameter([-1, 1], np.float32, name="s")
    rs = ops.result(ops.concat([s, s], 0))
    n = _loop(trip)
    n.set_function(ov.Model([rs, ops.result(_true())], [s]))
    n.set_special_body_ports([-1, 1])
    n.set_merged_input(s, x.output(0), rs.output(0))
    cat = n.get_concatenated_slices(rs.output(0), 0, 1, 1, -1, 1)
    return _model([n.get_iter_value(rs.output(0), -1)] + ([cat] if read else []), [x], "ragged_concat")


def constant_fed_unread_input(
    unread_input: bool = True, dtype: str = "u8", cond: str = "computed", consumer: str = "op"
) -> Any:
    """A Loop fed by a constant p (`dtype`), its body condition `cond` (computed from p, or true), its
    concatenated output read by an op or a Result, beside a model input q whose body Parameter only an
    unread output reads (with `unread_input`; else q's output is read too)."""
    ov, ops = _ov()
    x = ops.parameter([], np.uint8, name="x")
    xf = ops.parameter([2], np.float32, name="xf")
    npt = np.uint8 if dtype == "u8" else np.float32
    p = ops.parameter([1], npt, name="p")
    q = ops.parameter([2], np.float32, name="q")
    total = ops.reduce_sum(p, ops.constant(np.array([0], np.int64)), False)
    c = ops.less(ops.convert(total, ov.Type.f32), ops.constant(np.float32(2.0))) if cond == "computed" else _true()
    row = ops.reshape(p, ops.constant(np.array([1, 1], np.int64)), False)
    rq = ops.result(ops.multiply(q, q))
    n = _loop(2)
    n.set_function(ov.Model([ops.result(c), ops.result(row), rq], [p, q]))
    n.set_special_body_ports([-1, 0])
    n.set_invariant_input(p, ops.relu(ops.constant(np.array([0], npt))).output(0))
    n.set_invariant_input(q, xf.output(0))
    rows = n.get_concatenated_slices(row.output(0), 0, 1, 1, -1, 1)
    qv = n.get_iter_value(rq.output(0), -1)
    if consumer == "op":
        total_rows = ops.reduce_sum(
            ops.reshape(rows, ops.constant(np.array([-1], np.int64)), False),
            ops.constant(np.array([0], np.int64)),
            False,
        )
        outs = [ops.add(ops.convert(total_rows, ov.Type.u8), x)]
    else:
        outs = [rows, ops.relu(x)]
    if not unread_input:
        outs.append(qv)
    return _model(outs, [x, xf], "constant_fed_unread_input")


def early_stop_state(init: str = "const", how: str = "direct", stop: int = 1, trip: int = 4) -> Any:
    """A Loop whose body condition is state c (initial value a constant true, or a model input with
    `init="param"`), fed back as i < `stop`, read directly (`how="direct"`) or through c AND true, with a
    concatenated output of s <- s + 1."""
    ov, ops = _ov()
    x = ops.parameter([1], np.float32, name="x")
    b = ops.parameter([], np.bool_, name="b")
    cur = ops.parameter([], np.int64, name="i")
    s = ops.parameter([1], np.float32, name="s")
    c = ops.parameter([], np.bool_, name="c")
    rs = ops.result(ops.add(s, ops.constant(np.ones(1, np.float32))))
    rcond = ops.result(c if how == "direct" else ops.logical_and(c, _true()))
    rnext = ops.result(ops.less(cur, ops.constant(np.array(stop, np.int64))))
    n = _loop(trip)
    n.set_function(ov.Model([rs, rcond, rnext], [cur, s, c]))
    n.set_special_body_ports([0, 1])
    n.set_merged_input(s, x.output(0), rs.output(0))
    n.set_merged_input(c, (_true() if init == "const" else b).output(0), rnext.output(0))
    outs = [n.get_concatenated_slices(rs.output(0), 0, 1, 1, -1, 0), n.get_iter_value(rs.output(0), -1)]
    return _model(outs, [x] + ([b] if init == "param" else []), "early_stop_state")


def unbounded_stack(trip: int = 2**63 - 1, stop: int = 2, source: str = "const") -> Any:
    """What PyTorch writes for `while True: ...; ys.append(s); if i >= stop: break` then torch.stack(ys): a
    Loop of trip count `trip` (a Const, or a model input with `source="param"`), body condition i < `stop`,
    s <- s + 1 on [2,3] f32, concatenated output of Unsqueeze(s) on axis 0 (parts of 24 bytes)."""
    ov, ops = _ov()
    x = ops.parameter([2, 3], np.float32, name="x")
    t = ops.parameter([], np.int64, name="t")
    cur = ops.parameter([], np.int64, name="i")
    s = ops.parameter([2, 3], np.float32, name="s")
    nxt = ops.add(s, ops.constant(np.ones((2, 3), np.float32)))
    rs = ops.result(nxt)
    part = ops.result(ops.unsqueeze(nxt, ops.constant(np.array([0], np.int64))))
    rc = ops.result(ops.less(cur, ops.constant(np.array(stop, np.int64))))
    n = ops.loop(ops.constant(np.array(trip, np.int64)) if source == "const" else t, _true())
    n.set_function(ov.Model([rs, part, rc], [cur, s]))
    n.set_special_body_ports([0, 2])
    n.set_merged_input(s, x.output(0), rs.output(0))
    out = n.get_concatenated_slices(part.output(0), 0, 1, 1, -1, 0)
    return _model([out], [x] + ([t] if source == "param" else []), "unbounded_stack")


def nested_grown_count(grow: bool = True, read: bool = True, trip: int = 3, count_by: str = "trip") -> Any:
    """A Loop (`trip` iterations) whose state g grows by one element per iteration (or keeps its length
    with `grow=False`), holding a Loop of trip count ShapeOf(g)[0] that concatenates its iteration
    numbers (as f32); the inner concatenated output leaves the outer Loop as a last value, which the model
    gives out with `read` (else OpenVINO removes it, and the inner output with it). With `count_by="condition"`
    the inner Loop has the trip count -1, the count as invariant input k and the body condition i + 1 < k."""
    ov, ops = _ov()
    x = ops.parameter([1], np.float32, name="x")
    g = ops.parameter([-1], np.float32, name="g")
    one = ops.constant(np.ones(1, np.float32))
    rg = ops.result(ops.concat([g, one], 0) if grow else ops.add(g, one))
    count = ops.squeeze(ops.shape_of(g, "i64"), ops.constant(np.array([0], np.int64)))
    ic = ops.parameter([], np.int64, name="ic")
    part = ops.result(ops.unsqueeze(ops.convert(ic, ov.Type.f32), ops.constant(np.array([0], np.int64))))
    if count_by == "trip":
        inner = ops.loop(count, _true())
        inner.set_function(ov.Model([part, ops.result(_true())], [ic]))
    else:
        k = ops.parameter([], np.int64, name="k")
        go_on = ops.less(ops.add(ic, ops.constant(np.array(1, np.int64))), k)
        inner = ops.loop(ops.constant(np.array(-1, np.int64)), ops.greater(count, ops.constant(np.array(0, np.int64))))
        inner.set_function(ov.Model([part, ops.result(go_on)], [ic, k]))
        inner.set_invariant_input(k, count.output(0))
    inner.set_special_body_ports([0, 1])
    rcat = ops.result(inner.get_concatenated_slices(part.output(0), 0, 1, 1, -1, 0))
    n = _loop(trip)
    n.set_function(ov.Model([rg, rcat, ops.result(_true())], [g]))
    n.set_special_body_ports([-1, 2])
    n.set_merged_input(g, x.output(0), rg.output(0))
    cat = n.get_iter_value(rcat.output(0), -1)  # an output port either way; unread without `read`
    return _model([n.get_iter_value(rg.output(0), -1)] + ([cat] if read else []), [x], "nested_grown_count")


# family -> (builder, draw of its keyword arguments)
FAMILIES: dict[str, tuple[Callable[..., Any], Callable[[random.Random], dict]]] = {
    "iteration_back_edge": (
        iteration_back_edge,
        lambda r: {
            "trip": r.randint(1, 4),
            "dtype": r.choice(["i64", "i32"]),
            "shape": r.choice([(), (1,)]),
            "how": r.choice(["direct", "direct", "reshape", "add"]),
        },
    ),
    "invariant_back_edge": (
        invariant_back_edge,
        lambda r: {
            "kind": r.choice(["loop", "ti"]),
            "how": r.choice(["direct", "direct", "reshape", "add"]),
            "also_output": r.random() < 0.3,
        },
    ),
    "shared_unchanged_result": (
        shared_unchanged_result,
        lambda r: {
            "kind": r.choice(["loop", "ti"]),
            "role": r.choice(["invariant", "merged"]),
            "outputs": r.randint(1, 3),
            "how": r.choice(["direct", "direct", "reshape", "add"]),
            "concat_last": r.random() < 0.2,
        },
    ),
    "grown_unread_state": (
        grown_unread_state,
        lambda r: {"kind": r.choice(["loop", "ti"]), "read_state": r.random() < 0.4, "trip": r.randint(1, 4)},
    ),
    "early_stop_state": (
        early_stop_state,
        lambda r: {
            "init": r.choice(["const", "const", "param"]),
            "how": r.choice(["direct", "direct", "and"]),
            "stop": r.randint(0, 4),
            "trip": r.randint(1, 4),
        },
    ),
    "unbounded_stack": (
        unbounded_stack,
        lambda r: {
            "trip": r.choice([-1, 4, 10**6, 2**31 - 1, 2**63 - 1]),
            "stop": r.randint(0, 3),
            "source": r.choice(["const", "const", "param"]),
        },
    ),
    "nested_grown_count": (
        nested_grown_count,
        lambda r: {
            "grow": r.random() < 0.6,
            "read": r.random() < 0.7,
            "trip": r.randint(1, 3),
            "count_by": r.choice(["trip", "trip", "condition"]),
        },
    ),
    "ragged_concat": (ragged_concat, lambda r: {"read": r.random() < 0.4, "trip": r.randint(1, 4)}),
    "constant_fed_unread_input": (
        constant_fed_unread_input,
        lambda r: {
            "unread_input": r.random() < 0.6,
            "dtype": r.choice(["u8", "u8", "f32"]),
            "cond": r.choice(["computed", "computed", "true"]),
            "consumer": r.choice(["op", "result"]),
        },
    ),
}


def random_input(rng: np.random.Generator, shape: list[int], dt: np.dtype) -> np.ndarray:
    """An input the families run on: all true for a condition, small integers (0..3), or normal floats."""
    return (
        np.ones(shape, bool)
        if dt == np.bool_
        else rng.integers(0, 4, shape)
        if dt.kind in "iu"
        else rng.standard_normal(shape)
    ).astype(dt)


def draw(seed: int) -> tuple[Any, dict[str, np.ndarray], list[str]]:
    """The model, inputs and notes of `seed`: a family and its variation."""
    r = random.Random(seed)
    rng = np.random.default_rng(seed)
    name = r.choice(sorted(FAMILIES))
    make, knobs = FAMILIES[name]
    kw = knobs(r)
    model = make(**kw)
    inputs = {}
    for p in model.get_parameters():
        shape = [d.get_length() for d in p.get_partial_shape()]
        dt = p.get_element_type().to_dtype()
        inputs[p.get_friendly_name()] = random_input(rng, shape, dt)
    notes = [f"family {name}"] + [f"{k}={v}" for k, v in sorted(kw.items())]
    return model, inputs, notes
