"""A seeded generator of random Loop, TensorIterator and If models, built with the `openvino` Python API.

`build(seed)` returns a `Case`: the model, inputs for it (drawn from the same seed) and a summary of
the choices made. The same seed and `Knobs` always give the same model and inputs, so a seed is a
complete reproduction recipe. While building, every tensor carries the concrete shape it has at
run time (`Val.shape`); declared shapes may be less precise (dynamic dims, dynamic rank), which is
what the generator varies on purpose.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

DTYPES = {"f32": np.float32, "f16": np.float16, "i32": np.int32, "i64": np.int64, "u8": np.uint8,
          "boolean": np.bool_, "i8": np.int8, "i16": np.int16, "u16": np.uint16, "u32": np.uint32,
          "u64": np.uint64}
FLOAT = ("f32", "f16")
NUMERIC = ("f32", "f16", "i32", "i64", "u8")
MORE_NUMERIC = ("i8", "i16", "u16", "u32", "u64")  # drawn only with `Knobs.more_types`
UNSIGNED = ("u8", "u16", "u32", "u64")


def _ov() -> tuple[Any, Any]:
    import openvino as ov
    import openvino.opset16 as ops

    return ov, ops


@dataclass(frozen=True)
class Knobs:
    """Size limits: the minimizer retries a failing seed with smaller ones."""

    max_depth: int = 3  # control-flow ops nested inside each other, counting the outermost
    max_steps: int = 3  # ops per state update in a body
    max_inputs: int = 3  # outer inputs of one control-flow op
    int_activations: bool = True  # Sigmoid/Tanh on integer tensors (rare)
    dynamic_rank: bool = True  # outer Parameters of dynamic rank (rare; the CPU plugin refuses them)
    edge_cases: bool = True  # zero iterations, more trip counts than slices, constant If conditions, ...
    # i8, i16, u16, u32 and u64 as the model's and Converts' element types too. Off by default: the
    # draws stay the same, but the types drawn differ, so turning it on changes every seed's model.
    more_types: bool = False
    # draw the Loop families of tests/differential/families.py instead (another seed space altogether)
    families: bool = False
    # the textbook recurrent bodies of tests/differential/textbook.py instead of random ones
    textbook: bool = False

    def smaller(self) -> list[Knobs]:
        """Knobs one step smaller than these, most shrinking first."""
        out = []
        if self.max_depth > 1:
            out.append(replace(self, max_depth=1))
            if self.max_depth > 2:
                out.append(replace(self, max_depth=self.max_depth - 1))
        if self.max_steps > 1:
            out.append(replace(self, max_steps=1))
        if self.max_inputs > 1:
            out.append(replace(self, max_inputs=1))
        return out


@dataclass
class Val:
    """An op output while building: the `ov.Output`, its run-time shape and its element type name."""

    out: Any
    shape: tuple[int, ...]
    dtype: str
    exact: bool = True  # False: a concatenated output, whose length depends on the iterations run


@dataclass
class Case:
    seed: int
    model: Any
    inputs: dict[str, np.ndarray]
    notes: list[str] = field(default_factory=list)
    knobs: Knobs = field(default_factory=Knobs)


class _Builder:
    def __init__(self, seed: int, knobs: Knobs):
        self.r = random.Random(seed)
        self.np = np.random.default_rng(seed)
        self.k = knobs
        self.ov, self.ops = _ov()
        self.params: list[Any] = []  # top-level Parameters
        self.inputs: dict[str, np.ndarray] = {}
        self.notes: list[str] = []
        self.parents: list[str] = []  # kinds of the control-flow ops being built, outermost first

    # --- leaves -------------------------------------------------------------------------------

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def const(self, value: np.ndarray) -> Val:
        return Val(self.ops.constant(value).output(0), tuple(value.shape), _name(value.dtype))

    def data(self, shape: tuple[int, ...], dtype: str) -> np.ndarray:
        if dtype in FLOAT:
            return self.np.standard_normal(shape).astype(DTYPES[dtype])
        if dtype == "boolean":
            return self.np.random(shape) < 0.5
        return self.np.integers(0, 4, shape).astype(DTYPES[dtype])

    def numeric(self) -> tuple[str, ...]:
        """The numeric element types this model may use."""
        return NUMERIC + MORE_NUMERIC if self.k.more_types else NUMERIC

    def declared(self, shape: tuple[int, ...], top: bool) -> list[int] | str:
        """How a Parameter declares `shape`: as is, with some dims dynamic, or (top level) of dynamic rank."""
        roll = self.r.random()
        if top and self.k.dynamic_rank and roll < 0.03:
            self.note("dynamic-rank parameter")
            return "..."
        if shape and roll < 0.3:
            self.note("dynamic dims")
            return [-1 if self.r.random() < 0.5 else d for d in shape]
        return list(shape)

    def _pshape(self, decl: list[int] | str) -> Any:
        return self.ov.PartialShape.dynamic() if decl == "..." else self.ov.PartialShape(decl)

    def top_param(self, shape: tuple[int, ...], dtype: str, value: np.ndarray | None = None) -> Val:
        name = f"in{len(self.params)}"
        p = self.ops.parameter(self._pshape(self.declared(shape, True)), DTYPES[dtype], name=name)
        self.params.append(p)
        self.inputs[name] = self.data(shape, dtype) if value is None else value
        return Val(p.output(0), shape, dtype)

    def body_param(self, v: Val) -> tuple[Any, Val]:
        p = self.ops.parameter(self._pshape(self.declared(v.shape, False)), DTYPES[v.dtype])
        return p, Val(p.output(0), v.shape, v.dtype)

    # --- shaping helpers ----------------------------------------------------------------------

    def convert(self, v: Val, dtype: str) -> Val:
        if v.dtype == dtype:
            return v
        return Val(self.ops.convert(v.out, DTYPES[dtype]).output(0), v.shape, dtype)

    def reshape(self, v: Val, shape: tuple[int, ...]) -> Val:
        if v.shape == shape:
            return v
        target = self.ops.constant(np.array(shape, np.int64))
        return Val(self.ops.reshape(v.out, target, False).output(0), shape, v.dtype)

    def fit(self, v: Val, shape: tuple[int, ...], dtype: str) -> Val:
        """`v` made to combine element-wise with a tensor of `shape` and `dtype`: reshaped when the
        element counts agree, else summed to a scalar (which broadcasts)."""
        if v.dtype == "boolean":
            v = self.convert(v, "i32")
        if v.exact and int(np.prod(v.shape)) == int(np.prod(shape)):
            return self.convert(self.reshape(v, shape), dtype)
        flat = self.ops.reshape(v.out, self.ops.constant(np.array([-1], np.int64)), False)
        summed = self.ops.reduce_sum(flat, self.ops.constant(np.array([0], np.int64)), False)
        return self.convert(Val(summed.output(0), (), v.dtype), dtype)

    def sliceable(self, pool: list[Val], axis: int, length: int, top: bool, want: Val | None = None) -> Val:
        """A tensor whose dim `axis` is `length`: a fresh input at the top level, else built from `want`
        (or a pool tensor) by summing over the axis, repeating and adding a ramp so parts differ."""
        src = want or self.r.choice(pool)
        if top and self.r.random() < 0.7:
            shape = list(src.shape) if len(src.shape) > axis else [1] * (axis + 1)
            shape[axis] = length
            return self.top_param(tuple(shape), src.dtype if src.dtype != "boolean" else "f32")
        if len(src.shape) <= axis:
            src = self.reshape(src, src.shape + (1,) * (axis + 1 - len(src.shape)))
        if src.dtype == "boolean":
            src = self.convert(src, "f32")
        one = self.ops.reduce_sum(src.out, self.ops.constant(np.array([axis], np.int64)), True)
        shape = list(src.shape)
        shape[axis] = length
        rep = self.ops.concat([one.output(0)] * length, axis)
        ramp = np.arange(int(np.prod(shape))).reshape(shape) % 5
        return Val(self.ops.add(rep, self.ops.constant(ramp.astype(DTYPES[src.dtype]))).output(0), tuple(shape),
                   src.dtype)

    def stride(self, part: int) -> int:
        """The stride of a slicing of `part_size` `part`: mostly `part` (the CPU plugin requires
        abs(stride) == part_size), sometimes 1 (which it refuses)."""
        if part > 1 and self.k.edge_cases and self.r.random() < 0.25:
            self.note("part_size > 1 with stride 1")
            return 1
        return part

    # --- element-wise updates -----------------------------------------------------------------

    def update(self, x: Val, others: list[Val], depth: int) -> Val:
        """A few ops turning `x` into a tensor of the same shape and type, mixing in `others`."""
        ops = self.ops
        for _ in range(self.r.randint(1, self.k.max_steps)):
            other = self.r.choice(others) if others else x
            if x.dtype == "boolean":
                g = ops.greater(self.fit(other, x.shape, "f32").out, ops.constant(np.float32(0.5)))
                x = Val((ops.logical_xor(x.out, g) if self.r.random() < 0.7 else ops.logical_not(x.out)).output(0),
                        x.shape, x.dtype)
                continue
            choices = ["add", "add", "mul", "relu", "select", "convert", "reshape"]
            if x.dtype in FLOAT or (self.k.int_activations and self.r.random() < 0.1):
                choices += ["sigmoid", "tanh", "sigmoid", "tanh"]
            if x.dtype in FLOAT and x.shape:
                choices.append("matmul")
            if depth < self.k.max_depth and self.r.random() < 0.35:
                choices.append("nest")
            op = self.r.choice(choices)
            f = self.fit(other, x.shape, x.dtype)
            if op == "add":
                x = Val(ops.add(x.out, f.out).output(0), x.shape, x.dtype)
            elif op == "mul":
                # integers: multiply by something in {0, 1}, so nothing overflows over the iterations
                if x.dtype not in FLOAT:
                    f = Val(ops.minimum(f.out, ops.constant(np.array(1, DTYPES[x.dtype]))).output(0), f.shape, x.dtype)
                x = Val(ops.multiply(x.out, f.out).output(0), x.shape, x.dtype)
            elif op in ("sigmoid", "tanh", "relu"):
                if x.dtype not in FLOAT and op != "relu":
                    self.note(f"integer {op}")
                x = Val(getattr(ops, op)(x.out).output(0), x.shape, x.dtype)
            elif op == "select":
                c = ops.greater(x.out, f.out)
                x = Val(ops.select(c, x.out, f.out).output(0), x.shape, x.dtype)
            elif op == "convert":
                mid = self.r.choice([d for d in self.numeric() if d != x.dtype])
                if x.dtype in FLOAT and mid in UNSIGNED:
                    mid = "i32"  # a negative float to an unsigned type is not defined
                self.note(f"convert {x.dtype} to {mid} and back")
                x = self.convert(self.convert(x, mid), x.dtype)
            elif op == "reshape":
                n = int(np.prod(x.shape))
                x = self.reshape(self.reshape(x, (n,)), x.shape) if x.shape != (n,) else self.reshape(
                    self.reshape(x, (1, n)), x.shape)
            elif op == "matmul":
                n = x.shape[-1]
                w = (self.np.standard_normal((n, n)) / max(n, 1)).astype(DTYPES[x.dtype])
                x = Val(ops.matmul(x.out, ops.constant(w), False, False).output(0), x.shape, x.dtype)
            elif op == "nest":
                outs = self.control_flow([x, *others], depth + 1, top=False)
                x = Val(ops.add(x.out, self.fit(self.r.choice(outs), x.shape, x.dtype).out).output(0), x.shape,
                        x.dtype)
        return x

    def scan_value(self, x: Val, others: list[Val]) -> Val:
        """A per-iteration value of rank >= 1 for a concatenated output (may change shape: Concat)."""
        if not x.shape:
            x = self.reshape(x, (1,))
        if x.dtype != "boolean" and others and self.r.random() < 0.4:
            axis = self.r.randrange(len(x.shape))
            o = self.fit(self.r.choice(others), x.shape, x.dtype)
            if o.shape != x.shape:  # a scalar: broadcast it first
                o = Val(self.ops.add(self.ops.multiply(x.out, self.ops.constant(np.array(0, DTYPES[x.dtype]))),
                                     o.out).output(0), x.shape, x.dtype)
            shape = list(x.shape)
            shape[axis] *= 2
            return Val(self.ops.concat([x.out, o.out], axis).output(0), tuple(shape), x.dtype)
        if x.dtype in FLOAT and self.r.random() < 0.5:
            return Val(self.ops.sigmoid(x.out).output(0), x.shape, x.dtype)
        return x

    # --- control flow -------------------------------------------------------------------------

    def control_flow(self, pool: list[Val], depth: int, top: bool) -> list[Val]:
        kinds = ["loop", "loop", "ti", "if"]
        if self.parents and self.parents[-1] == "ti":
            kinds.remove("ti")  # OpenVINO's API refuses a TensorIterator in a TensorIterator's body
        kind = self.r.choice(kinds)
        self.parents.append(kind)
        try:
            return self._control_flow(kind, pool, depth, top)
        finally:
            self.parents.pop()

    def _control_flow(self, kind: str, pool: list[Val], depth: int, top: bool) -> list[Val]:
        if kind == "if":
            return self.make_if(pool, depth, top)
        return self.make_loop(pool, depth, top, kind)

    def make_loop(self, pool: list[Val], depth: int, top: bool, kind: str) -> list[Val]:
        ov, ops, r = self.ov, self.ops, self.r
        n_iter = r.randint(1, 4)
        n_in = r.randint(1, self.k.max_inputs)
        roles = [r.choice(["sliced", "merged", "merged", "invariant"]) for _ in range(n_in)]
        if kind == "ti" and "sliced" not in roles:
            roles[0] = "sliced"
        if "merged" not in roles and r.random() < 0.7:
            roles.append("merged")
        params: list[Any] = []
        back: dict[int, Any] = {}  # id(body Parameter) -> the Result of its back edge
        bind: list[tuple[str, Any, Val, Val, dict]] = []  # role, body param, body value, outer value, slicing
        for role in roles:
            src = r.choice(pool)
            if role == "sliced":
                rank = max(len(src.shape), 1)
                axis = r.randrange(rank)
                # OpenVINO's Loop API takes only start 0, stride 1, part_size 1, end -1 (mutate mode varies them)
                part = 1 if kind == "loop" or r.random() < 0.7 else r.choice([2, 3])
                outer = self.sliceable(pool, axis, n_iter * part, top, src)
                shape = list(outer.shape)
                shape[axis] = part
                reverse = kind == "ti" and r.random() < 0.3
                neg_axis = self.k.edge_cases and r.random() < 0.05
                sl = {"axis": axis - len(shape) if neg_axis else axis, "part": part, "reverse": reverse,
                      "stride": self.stride(part)}
                self.note("reversed slice" if reverse else "forward slice")
                if part > 1:
                    self.note("part_size > 1")
                if neg_axis:
                    self.note("negative slice axis")
                p, v = self.body_param(Val(None, tuple(shape), outer.dtype))
                bind.append((role, p, v, outer, sl))
            else:
                p, v = self.body_param(src)
                bind.append((role, p, v, src, {}))
            params.append(p)
        cur = None
        if kind == "loop" and r.random() < 0.5:
            cur_t = r.choice(["i64", "i32"])
            cur_shape: tuple[int, ...] = r.choice([(), (1,)])
            cur = ops.parameter(cur_shape, DTYPES[cur_t])
            params.append(cur)
            self.note("current_iteration set")
        elif kind == "loop":
            self.note("current_iteration unset")
        body_vals = [v for _, _, v, _, _ in bind]
        if cur is not None:
            body_vals.append(Val(cur.output(0), cur_shape, cur_t))
        results: list[Any] = []
        outs: list[tuple[Any, Val, str, dict]] = []  # result, value, how to expose, concat attrs
        for role, p, v, _outer, _sl in bind:
            if role == "merged":
                nv = self.update(v, [b for b in body_vals if b is not v], depth)
                res = ops.result(nv.out)
                results.append(res)
                back[id(p)] = res
                if r.random() < 0.8:
                    outs.append((res, nv, "last", {}))
                if nv.shape and r.random() < 0.3:
                    if kind == "loop":  # part_size 1 only: the output gets a new axis of length 1
                        axis = r.randrange(len(nv.shape) + 1)
                        uv = self.reshape(nv, (*nv.shape[:axis], 1, *nv.shape[axis:]))
                        ures = ops.result(uv.out)
                        results.append(ures)
                        outs.append((ures, uv, "concat", {"axis": axis}))
                    else:
                        outs.append((res, nv, "concat", {"axis": r.randrange(len(nv.shape))}))
        n_scan = r.randint(0 if outs else 1, 2)
        for _ in range(n_scan):
            base = r.choice(body_vals)
            sv = self.scan_value(self.update(base, body_vals, depth) if base.dtype != "boolean" else base, body_vals)
            axis = r.randrange(len(sv.shape) + (kind == "loop"))
            if kind == "loop":  # part_size 1 only: the output gets a new axis of length 1
                sv = self.reshape(sv, (*sv.shape[:axis], 1, *sv.shape[axis:]))
            res = ops.result(sv.out)
            results.append(res)
            outs.append((res, sv, "concat" if r.random() < 0.7 else "last", {"axis": axis}))
        cond_res = None
        trip_value = n_iter
        if kind == "loop":
            cond_shape = r.choice([(), (1,)])
            if cur is not None and r.random() < 0.4:
                stop = r.randint(1, n_iter)
                ci = ops.convert(cur.output(0), np.int64)
                c = ops.less(ops.reshape(ci, ops.constant(np.array(cond_shape, np.int64)), False),
                             ops.constant(np.array(stop - 1, np.int64)))
                cond_res = ops.result(c)
                self.note("computed body condition (iteration)")
            elif r.random() < 0.2:
                x = self.fit(r.choice(body_vals), cond_shape, "f32")
                cond_res = ops.result(ops.less(x.out, ops.constant(np.float32(2.0))))
                self.note("computed body condition (data)")
            else:
                cond_res = ops.result(ops.constant(np.full(cond_shape, True)))
                self.note("constant body condition")
            results.append(cond_res)
            if self.k.edge_cases and r.random() < 0.03:
                trip_value = 0
                self.note("zero iterations")
            elif self.k.edge_cases and "sliced" in roles and r.random() < 0.03:
                trip_value = n_iter + 1
                self.note("trip count above slice count")
        for role, p, _v, _outer, _sl in bind:
            if role == "sliced" and not p.output(0).get_target_inputs():
                self.note(f"sliced input unused in a {kind} body")
        body = ov.Model(results, params)
        if kind == "loop":
            tdt = r.choice(["i64", "i32"])
            tshape: tuple[int, ...] = r.choice([(), (1,)])
            tval = np.full(tshape, trip_value, DTYPES[tdt])
            if top and r.random() < 0.4:
                trip = self.top_param(tshape, tdt, tval)
                self.note("trip count parameter")
            else:
                trip = self.const(tval)
            exec_shape: tuple[int, ...] = r.choice([(), (1,)])
            if top and r.random() < 0.2:
                on = not (self.k.edge_cases and r.random() < 0.1)
                if not on:
                    self.note("zero iterations")
                cond = self.top_param(exec_shape, "boolean", np.full(exec_shape, on))
                self.note("execution condition parameter")
            else:
                cond = self.const(np.full(exec_shape, True))
            node = ops.loop(trip.out, cond.out)
            node.set_function(body)
            node.set_special_body_ports([params.index(cur) if cur is not None else -1, results.index(cond_res)])
        else:
            node = ops.tensor_iterator()
            node.set_body(body)
        for role, p, _v, outer, sl in bind:
            if role == "sliced":
                part, axis = sl["part"], sl["axis"]
                step = sl["stride"]
                if sl["reverse"]:
                    node.set_sliced_input(p, outer.out, -1, -step, part, 0, axis)
                else:
                    node.set_sliced_input(p, outer.out, 0, step, part, -1, axis)
            elif role == "merged":
                node.set_merged_input(p, outer.out, back[id(p)].output(0))
            else:
                node.set_invariant_input(p, outer.out)
        got: list[Val] = []
        for res, v, how, attrs in outs:
            if how == "last" or not v.shape:
                got.append(Val(node.get_iter_value(res.output(0), -1), v.shape, v.dtype))
                continue
            axis = attrs["axis"]
            part = v.shape[axis]
            reverse = kind == "ti" and r.random() < 0.3
            self.note("reversed concat" if reverse else "forward concat")
            step = self.stride(part)
            if reverse:
                o = node.get_concatenated_slices(res.output(0), -1, -step, part, 0, axis)
            else:
                o = node.get_concatenated_slices(res.output(0), 0, step, part, -1, axis)
            shape = list(v.shape)
            shape[axis] *= max(n_iter, 1)
            got.append(Val(o, tuple(shape), v.dtype, exact=False))
        self.note(f"{kind} at depth {depth}")
        return got

    def make_if(self, pool: list[Val], depth: int, top: bool) -> list[Val]:
        ov, ops, r = self.ov, self.ops, self.r
        cshape: tuple[int, ...] = r.choice([(), (1,)])
        roll = r.random()
        if self.k.edge_cases and roll < 0.1:
            cond = self.const(np.full(cshape, r.random() < 0.5))
            self.note("constant If condition")
        elif top and roll < 0.6:
            cond = self.top_param(cshape, "boolean")
        else:
            x = self.fit(r.choice(pool), cshape, "f32")
            cond = Val(ops.greater(x.out, ops.constant(np.float32(0))).output(0), cshape, "boolean")
            self.note("computed If condition")
        node = ops.if_op(cond.out)
        srcs = [r.choice(pool) for _ in range(r.randint(1, self.k.max_inputs))]
        branches: dict[str, tuple[list[Any], list[Val | None]]] = {}
        for side in ("then", "else"):
            ps, vs = [], []
            for s in srcs:
                if self.k.edge_cases and r.random() < 0.15:
                    ps.append(None)
                    vs.append(None)
                    self.note("input unused in a branch")
                    continue
                p, v = self.body_param(s)
                ps.append(p)
                vs.append(v)
            branches[side] = (ps, vs)
        n_out = r.randint(1, 2)
        res: dict[str, list[Any]] = {"then": [], "else": []}
        shapes: list[tuple[tuple[int, ...], str]] = []
        for j in range(n_out):
            template = srcs[j % len(srcs)]
            dtype = template.dtype
            for side in ("then", "else"):
                _, vs = branches[side]
                have = [v for v in vs if v is not None]
                if have:
                    base = self.fit(r.choice(have), template.shape, dtype) if dtype != "boolean" else (
                        next((v for v in have if v.dtype == "boolean" and v.shape == template.shape), None)
                        or self.const(self.data(template.shape, "boolean")))
                else:
                    base = self.const(self.data(template.shape, dtype))
                out = self.update(base, have, depth)
                res[side].append(ops.result(out.out))
            shapes.append((template.shape, dtype))
        then_ps, _ = branches["then"]
        else_ps, _ = branches["else"]
        node.set_then_body(ov.Model(res["then"], [p for p in then_ps if p is not None]))
        node.set_else_body(ov.Model(res["else"], [p for p in else_ps if p is not None]))
        for s, tp, ep in zip(srcs, then_ps, else_ps):
            if tp is None and ep is None:
                continue
            node.set_input(s.out, tp, ep)
        got = []
        for j in range(n_out):
            o = node.set_output(res["then"][j], res["else"][j])
            got.append(Val(o, shapes[j][0], shapes[j][1]))
        self.note(f"if at depth {depth}")
        return got

    # --- the model ----------------------------------------------------------------------------

    def model(self) -> Any:
        r = self.r
        ints = ["i32", "i32", "i64", "u8"] if not self.k.more_types else ["i32", "i64", "u8", "i8"]
        if self.k.more_types:
            ints += [r.choice(MORE_NUMERIC)] * 2
        dtype = r.choice(["f32"] * 5 + ["f16"] + ints + (["boolean"] if r.random() < 0.3 else []))
        shape = r.choice([(), (1,), (r.randint(2, 4),), (r.randint(1, 3), r.randint(2, 4)),
                          (1, r.randint(1, 3), r.randint(2, 4))])
        pool = [self.top_param(shape, dtype)]
        if r.random() < 0.5:
            pool.append(self.top_param(r.choice([(), (1,), shape]), r.choice(["f32", dtype])))
        outs = self.control_flow(pool, 1, top=True)
        results = []
        for i, o in enumerate(outs):
            v = o
            if o.dtype in FLOAT and r.random() < 0.2:
                v = Val(self.ops.relu(o.out).output(0), o.shape, o.dtype)
            results.append(self.ops.result(v.out, name=f"out{i}"))
        self.note(f"element type {dtype}")
        self.note(f"rank {len(shape)}")
        return self.ov.Model(results, self.params, "differential")


def _name(dtype: np.dtype) -> str:
    for k, v in DTYPES.items():
        if np.dtype(v) == dtype:
            return k
    raise ValueError(dtype)


def build(seed: int, knobs: Knobs | None = None) -> Case:
    """The model and inputs of `seed`; raises only if the openvino API refuses what was built
    (reported by the campaign as a generator error, with the seed)."""
    knobs = knobs or Knobs()
    if knobs.families:
        from tests.differential.families import draw

        return Case(seed, *draw(seed), knobs)
    if knobs.textbook:
        from tests.differential.textbook import build as textbook

        return textbook(seed, knobs)
    b = _Builder(seed, knobs)
    m = b.model()
    return Case(seed, m, b.inputs, b.notes, knobs)
