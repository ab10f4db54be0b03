"""Small If (opset8) models built with openvino, shared by the reader, shape, interpreter and viewer tests.

Each builder returns an `openvino.Model`; `save(model, dir, name)` writes it as IR (f32 weights).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np


def save(model, directory: Path, name: str) -> Path:
    import openvino as ov

    path = directory / f"{name}.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    return path


def _if(cond, then, other, inputs, outputs):
    """An If over `cond`; `inputs`: (outer output, then Parameter or None, else Parameter or None);
    `outputs`: (then Result, else Result)."""
    import openvino.opset8 as o

    node = o.if_op(cond.output(0) if hasattr(cond, "output") else cond)
    node.set_then_body(then)
    node.set_else_body(other)
    for outer, tp, ep in inputs:
        node.set_input(outer, tp, ep)
    return [node.set_output(tr, er) for tr, er in outputs]


def simple_if(cond_value: bool | None = None):
    """then: x + y; else: x * 2 (the else branch ignores y). The condition is a Parameter, or a
    Constant when `cond_value` is given."""
    import openvino as ov
    import openvino.opset8 as o

    params = []
    if cond_value is None:
        cond = o.parameter([], np.bool_, name="cond")
        params.append(cond)
    else:
        cond = o.constant(np.bool_(cond_value))
    x = o.parameter([2, 3], np.float32, name="x")
    y = o.parameter([2, 3], np.float32, name="y")
    tx, ty = o.parameter([2, 3], np.float32, name="tx"), o.parameter([2, 3], np.float32, name="ty")
    tr = o.result(o.add(tx, ty))
    then = ov.Model([tr], [tx, ty], "then")
    ex = o.parameter([2, 3], np.float32, name="ex")
    er = o.result(o.multiply(ex, o.constant(np.full([1], 2, np.float32))))
    other = ov.Model([er], [ex], "else")
    (out,) = _if(cond, then, other, [(x.output(0), tx, ex), (y.output(0), ty, None)], [(tr, er)])
    return ov.Model([o.result(out, name="out")], [*params, x, y], "simple_if")


def dynamic_if():
    """Branches whose outputs differ in shape: then concat(x, x) on axis 0 ([4,3]), else relu(x) ([2,3])."""
    import openvino as ov
    import openvino.opset8 as o

    cond = o.parameter([], np.bool_, name="cond")
    x = o.parameter([2, 3], np.float32, name="x")
    tx = o.parameter([2, 3], np.float32)
    tr = o.result(o.concat([tx, tx], 0))
    ex = o.parameter([2, 3], np.float32)
    er = o.result(o.relu(ex))
    (out,) = _if(cond, ov.Model([tr], [tx]), ov.Model([er], [ex]), [(x.output(0), tx, ex)], [(tr, er)])
    return ov.Model([o.result(out, name="out")], [cond, x], "dynamic_if")


def if_in_loop(trip: int = 4):
    """A Loop whose body holds an If taking a branch by the iteration's parity: the state h becomes
    h + x on even iterations and h * 0.5 on odd ones; the per-iteration values are concatenated."""
    import openvino as ov
    import openvino.opset8 as o

    x = o.parameter([1, 3], np.float32, name="x")
    h0 = o.parameter([1, 3], np.float32, name="h0")
    it = o.parameter([], np.int64, name="it")
    bx, bh = o.parameter([1, 3], np.float32), o.parameter([1, 3], np.float32)
    even = o.equal(o.floor_mod(it, o.constant(np.int64(2))), o.constant(np.int64(0)))
    tx, th = o.parameter([1, 3], np.float32), o.parameter([1, 3], np.float32)
    tr = o.result(o.add(th, tx))
    eh = o.parameter([1, 3], np.float32)
    er = o.result(o.multiply(eh, o.constant(np.full([1, 1], 0.5, np.float32))))
    (h1,) = _if(even, ov.Model([tr], [tx, th]), ov.Model([er], [eh]),
                [(bx.output(0), tx, None), (bh.output(0), th, eh)], [(tr, er)])
    rh = o.result(h1)
    rc = o.result(o.constant(np.bool_(True)))
    loop = o.loop(o.constant(np.int64(trip)), o.constant(np.bool_(True)))
    loop.set_function(ov.Model([rc, rh], [bx, bh, it]))
    loop.set_special_body_ports([2, 0])
    loop.set_invariant_input(bx, x.output(0))
    loop.set_merged_input(bh, h0.output(0), rh.output(0))
    last = loop.get_iter_value(rh.output(0), -1)
    allh = loop.get_concatenated_slices(rh.output(0), 0, 1, 1, -1, 0)
    return ov.Model([o.result(last, name="last"), o.result(allh, name="all")], [x, h0], "if_in_loop")


def loop_in_if():
    """An If whose then branch runs a Loop (3 iterations of h = h * 2 + 1) and whose else branch is -x."""
    import openvino as ov
    import openvino.opset8 as o

    cond = o.parameter([], np.bool_, name="cond")
    x = o.parameter([2, 2], np.float32, name="x")
    tx = o.parameter([2, 2], np.float32)
    bh = o.parameter([2, 2], np.float32)
    rh = o.result(o.add(o.multiply(bh, o.constant(np.full([1], 2, np.float32))), o.constant(np.ones([1], np.float32))))
    rc = o.result(o.constant(np.bool_(True)))
    loop = o.loop(o.constant(np.int64(3)), o.constant(np.bool_(True)))
    loop.set_function(ov.Model([rc, rh], [bh]))
    loop.set_special_body_ports([-1, 0])
    loop.set_merged_input(bh, tx.output(0), rh.output(0))
    tr = o.result(loop.get_iter_value(rh.output(0), -1))
    ex = o.parameter([2, 2], np.float32)
    er = o.result(o.negative(ex))
    (out,) = _if(cond, ov.Model([tr], [tx]), ov.Model([er], [ex]), [(x.output(0), tx, ex)], [(tr, er)])
    return ov.Model([o.result(out, name="out")], [cond, x], "loop_in_if")


def pass_through_if(n: int = 4):
    """An If passing `n` values through: then as they are, else negated (`n` Parameters and Results a branch)."""
    import openvino as ov
    import openvino.opset8 as o

    cond = o.parameter([], np.bool_, name="cond")
    xs = [o.parameter([2], np.float32, name=f"x{i}") for i in range(n)]
    tps = [o.parameter([2], np.float32, name=f"t{i}") for i in range(n)]
    eps = [o.parameter([2], np.float32, name=f"e{i}") for i in range(n)]
    trs = [o.result(p, name=f"t{i}_out") for i, p in enumerate(tps)]
    ers = [o.result(o.negative(p), name=f"e{i}_out") for i, p in enumerate(eps)]
    inputs = [(x.output(0), t, e) for x, t, e in zip(xs, tps, eps)]
    outs = _if(cond, ov.Model(trs, tps, "then"), ov.Model(ers, eps, "else"), inputs, list(zip(trs, ers)))
    return ov.Model([o.result(v, name=f"y{i}") for i, v in enumerate(outs)], [cond, *xs], "pass_through_if")


def reference(model, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The CPU plugin's outputs (f32 precision) by Result name, for inputs given by name."""
    import openvino as ov

    compiled = ov.Core().compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    res = compiled({compiled.input(name): v for name, v in feeds.items()})
    return {r.get_friendly_name(): np.asarray(res[i]) for i, r in enumerate(model.get_results())}


def two_output_if():
    """then: (x + 1, x * 10), else: (x - 1, x * -10); outputs A (port 2) and B (port 3)."""
    import openvino as ov
    import openvino.opset8 as o

    cond = o.parameter([], np.bool_, name="cond")
    x = o.parameter([2], np.float32, name="x")
    tx, ex = o.parameter([2], np.float32), o.parameter([2], np.float32)
    ta, tb = o.result(o.add(tx, o.constant(np.float32([1, 1])))), o.result(o.multiply(tx, o.constant(np.float32([10]))))
    ea = o.result(o.subtract(ex, o.constant(np.float32([1, 1]))))
    eb = o.result(o.multiply(ex, o.constant(np.float32([-10]))))
    node = o.if_op(cond)
    node.set_then_body(ov.Model([ta, tb], [tx]))
    node.set_else_body(ov.Model([ea, eb], [ex]))
    node.set_input(x.output(0), tx, ex)
    a, b = node.set_output(ta, ea), node.set_output(tb, eb)
    return ov.Model([o.result(a, name="A"), o.result(b, name="B")], [cond, x], "if2")


def shifted_output_ids(path: Path, ids: dict[str, str]) -> tuple[Path, list[int]]:
    """`path` with each data `<output>` entry's external_port_id replaced by `ids[old]`; the edited lines."""
    lines = path.read_text().splitlines(keepends=True)
    edited = []
    for n, line in enumerate(lines, 1):
        m = re.search(r'<output [^>]*external_port_id="(\d+)"', line)
        if m and m.group(1) in ids:
            lines[n - 1] = line.replace(f'external_port_id="{m.group(1)}"', f'external_port_id="{ids[m.group(1)]}"')
            edited.append(n)
    out = path.with_name(f"shifted-{path.name}")
    out.write_text("".join(lines))
    out.with_suffix(".bin").write_bytes(path.with_suffix(".bin").read_bytes())
    return out, edited
