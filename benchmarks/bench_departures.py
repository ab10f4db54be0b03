"""What the run-time departure checks cost where they can fire.

    .venv/bin/python benchmarks/bench_departures.py [--iterations 100] [--rounds 201] [--only f16_loop ...]

A model none of whose ops can depart from OpenVINO's CPU plugin runs bare kernels
(`irlint.interp.overflow.watch_plan`), so its checks cost nothing. These models each hold a Loop of
`--iterations` iterations whose body has ops the plan must watch (irlint.interp.overflow): an i64
counter (`i64_counter`: n + 1 beside three f32 ops), f16 arithmetic (`f16_loop`: the cell in f16,
whose Tanh is never watched and whose Multiply by 0.5 cannot overflow, so its Add alone is tested), a
u32 counter read by an op (`u32_counter`), a float Convert to i16 and back (`convert_i16`) and an i16
counter (`i16_counter`, narrow arithmetic), none of which departs on these inputs (so every call pays
its test and nothing more). Each round times a run with the checks and one with `watch_plan`
answering "nothing to watch", side by side (the order alternating), CPU time; prints per model the
ops the plan watches and how many of them test each call, the median over rounds of checked over
bare, and both runs' fastest times.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _loop_model(body: Callable[..., tuple], state_type: str, iterations: int, extra: tuple = ()):  # type: ignore[no-untyped-def]
    """A Loop of `iterations` over a [1, 8] state of `state_type` (s' = tanh(s * w + s), written by
    `body`), with `extra` (initial value, its body step) carried beside it; outputs the final state."""
    import openvino as ov
    import openvino.opset13 as ops

    t = ov.Type.f16 if state_type == "f16" else ov.Type.f32
    npt = np.float16 if state_type == "f16" else np.float32
    bs = ops.parameter([1, 8], t, name="bs")
    new_s = body(bs, ops, npt)
    results = [ops.result(new_s), ops.result(ops.constant(True))]
    params = [bs]
    carried = []
    for init, step in extra:
        p = ops.parameter(list(init.shape), ov.Type(init.dtype), name=f"e{len(carried)}")
        r = ops.result(step(p, ops))
        params.append(p)
        results.append(r)
        carried.append((p, init, r))
    loop = ops.loop(ops.constant(np.int64(iterations)), ops.constant(True))
    loop.set_function(ov.Model(results, params))
    loop.set_special_body_ports([-1, 1])
    x = ops.parameter([1, 8], t, name="x")
    loop.set_merged_input(bs, x.output(0), results[0].output(0))
    for p, init, r in carried:
        loop.set_merged_input(p, ops.constant(init).output(0), r.output(0))
    outs = [ops.result(loop.get_iter_value(results[0].output(0), -1), name="y")]
    outs += [ops.result(loop.get_iter_value(r.output(0), -1), name=f"c{i}") for i, (_p, _i, r) in enumerate(carried)]
    return ov.Model(outs, [x])


def _cell(bs, ops, npt):  # type: ignore[no-untyped-def]
    w = ops.constant(np.full((1, 8), 0.5, npt))
    return ops.tanh(ops.add(ops.multiply(bs, w), bs))


def _quantised(bs, ops, npt):  # type: ignore[no-untyped-def]
    """The cell's state rounded through i16 (x 1000): a float Convert to i16 the plugin keeps as i32."""
    import openvino as ov

    scale = ops.constant(np.full((1, 8), 1000.0, npt))
    q = ops.convert(ops.multiply(_cell(bs, ops, npt), scale), ov.Type.i16)
    return ops.divide(ops.convert(q, ov.Type.f32), scale)


MODELS: dict[str, Callable[[int], object]] = {
    "i64_counter": lambda n: _loop_model(
        _cell, "f32", n, ((np.zeros((), np.int64), lambda p, ops: ops.add(p, ops.constant(np.int64(1)))),)
    ),
    "f16_loop": lambda n: _loop_model(_cell, "f16", n),
    "u32_counter": lambda n: _loop_model(
        _cell, "f32", n, ((np.zeros((), np.uint32), lambda p, ops: ops.add(p, ops.constant(np.uint32(1)))),)
    ),
    "convert_i16": lambda n: _loop_model(_quantised, "f32", n),
    "i16_counter": lambda n: _loop_model(
        _cell, "f32", n, ((np.zeros((), np.int16), lambda p, ops: ops.add(p, ops.constant(np.int16(1)))),)
    ),
}


def overhead(xml: Path, inputs: dict[str, np.ndarray], rounds: int) -> tuple[float, float, float, int, int]:
    """(median of checked / bare - 1 in %, fastest checked ms, fastest bare ms, ops watched, ops tested)."""
    import irlint
    from irlint.interp import executor, overflow, run
    from irlint.interp.program import program_for

    # Two loads of the model: the executor keeps each program's binding (its watch plan included) across
    # runs, so each copy keeps the plan of its first run (`watch_plan` is swapped in around every run).
    model, bare_model = irlint.load(xml), irlint.load(xml)
    checked = overflow.watch_plan

    def bare(program):  # type: ignore[no-untyped-def]
        return (None,) * len(program.order)

    body = next(la.body for la in model.graph.layers if la.body is not None)
    program = program_for(body)

    def timed(plan: Callable) -> float:  # type: ignore[type-arg]
        executor.overflow.watch_plan = plan  # (read by the executor once per program)
        try:
            t0 = time.process_time()
            run(model if plan is checked else bare_model, inputs)
            return time.process_time() - t0
        finally:
            executor.overflow.watch_plan = checked

    for _ in range(5):
        timed(checked), timed(bare)
    # watched by the plan, and of them tested per call: a constant can leave nothing to test (`_bare`)
    watched = [i.layer for i, w in zip(program.order, checked(program)) if w is not None]
    tested = sum(overflow._QUICK.get(la, (None, None))[1] is not overflow._bare for la in watched)
    ratios, on, off = [], [], []
    for r in range(rounds):
        if r % 2:
            a, b = timed(checked), timed(bare)
        else:
            b, a = timed(bare), timed(checked)
        on.append(a)
        off.append(b)
        ratios.append(a / b)
    return (statistics.median(ratios) - 1) * 100, min(on) * 1e3, min(off) * 1e3, len(watched), tested


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=201)
    ap.add_argument("--only", nargs="*", choices=sorted(MODELS))
    args = ap.parse_args()
    import openvino as ov

    print(f"load average {os.getloadavg()[0]:.2f}")
    print("| model | ops watched per iteration (tested per call) | checked ms (fastest) | bare ms (fastest) "
          "| checks cost (median) |")
    print("| --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.only or MODELS:
            xml = Path(tmp) / f"{name}.xml"
            ov.save_model(MODELS[name](args.iterations), str(xml), compress_to_fp16=False)  # type: ignore[arg-type]
            dtype = np.float16 if name.startswith("f16") else np.float32
            inputs = {"x": np.linspace(-1, 1, 8, dtype=np.float32).astype(dtype).reshape(1, 8)}
            cost, on, off, watched, tested = overhead(xml, inputs, args.rounds)
            print(f"| {name} | {watched} ({tested}) | {on:.3f} | {off:.3f} | {cost:+.1f} % |", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
