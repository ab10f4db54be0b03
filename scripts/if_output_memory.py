"""Random models around one If output of dynamic shape: does IF813 warn exactly where the CPU plugin misreads?

    .venv/bin/python scripts/if_output_memory.py --count 300 --seed 1000

Each seed builds, with OpenVINO's Python API, a model whose u8 or i8 input x of shape [?] feeds an If
(condition c > 0 on an f32 input) with a random elementwise op in each branch; a random op reads the If's
output (an output of the model), and zero to three more outputs compute from x (views, elementwise ops,
Converts to i64, f16, i32, f32, u16 or boolean, some converted back), in a random output order. The
plugin misreads when the first inference of a new shape on an infer request differs from a second
inference of the same inputs (two compilations, two shapes, both branches). Prints the seeds where
IF813's verdict and the plugin's disagree and the confusion counts.
"""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path

import numpy as np

import irlint


def _unary(ops, v, r: random.Random, dtype):  # type: ignore[no-untyped-def]
    kind = r.choice(["relu", "add", "mul", "min"])
    if kind == "relu":
        return ops.relu(v)
    if kind == "add":
        return ops.add(v, v)
    if kind == "mul":
        return ops.multiply(v, v)
    return ops.minimum(v, ops.constant(np.array([5], dtype)))


def _other(ops, x, r: random.Random, dtype):  # type: ignore[no-untyped-def]
    kind = r.choice(["relu", "add", "reshape", "concat", "reduce", "convert", "convert", "convert"])
    if kind == "convert":
        v = ops.convert(x, r.choice(["i64", "f16", "i32", "f32", "u16", "boolean"]))
        return ops.convert(v, np.dtype(dtype).name.replace("int", "i").replace("ui", "u")) if r.random() < 0.4 else v
    if kind == "relu":
        return ops.relu(x)
    if kind == "add":
        return ops.add(x, ops.constant(np.array([1], dtype)))
    if kind == "reshape":
        return ops.reshape(x, ops.constant(np.array([-1, 1], np.int64)), False)
    if kind == "concat":
        return ops.concat([x, x], 0)
    return ops.reduce_sum(x, ops.constant(np.array([0], np.int64)), True)


def build(seed: int):  # type: ignore[no-untyped-def]
    import openvino as ov
    import openvino.opset16 as ops

    r = random.Random(seed)
    dtype = r.choice([np.uint8, np.int8])
    x = ops.parameter([-1], dtype, name="x")
    c = ops.parameter([], np.float32, name="c")
    tp, ep = ops.parameter([-1], dtype), ops.parameter([-1], dtype)
    then = ov.Model([ops.result(_unary(ops, tp, r, dtype))], [tp])
    other = ov.Model([ops.result(_unary(ops, ep, r, dtype))], [ep])
    node = ops.if_op(ops.greater(c, ops.constant(np.float32(0))).output(0))
    node.set_then_body(then)
    node.set_else_body(other)
    node.set_input(x.output(0), tp, ep)
    out = node.set_output(then.get_results()[0], other.get_results()[0])
    reader = r.choice(["add", "relu", "mul"])
    read = ops.add(out, x) if reader == "add" else ops.relu(out) if reader == "relu" else ops.multiply(out, x)
    results = [ops.result(read, name="y")]
    results += [ops.result(_other(ops, x, r, dtype)) for _ in range(r.randint(0, 3))]
    if len(results) > 1 and r.random() < 0.3:
        results = results[1:] + results[:1]
    return ov.Model(results, [x, c])


def misreads(core, path: Path) -> bool:  # type: ignore[no-untyped-def]
    model = core.read_model(str(path))
    dtype = model.input("x").get_element_type().to_dtype()
    for _ in range(2):
        request = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"}).create_infer_request()
        for values in ([3, 1], [1, 2, 3]):
            for c in (1.0, -1.0):
                inputs = {"x": np.array(values, dtype), "c": np.float32(c)}
                first = np.array(request.infer(inputs)["y"])
                if not np.array_equal(first, request.infer(inputs)["y"]):
                    return True
    return False


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1000)
    args = ap.parse_args()
    import openvino as ov

    core = ov.Core()
    counts: dict[tuple[bool, bool], int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "model.xml"
        for seed in range(args.seed, args.seed + args.count):
            ov.save_model(build(seed), str(path), compress_to_fp16=False)
            bad = misreads(core, path)
            warned = "IF813" in {d.code for d in irlint.check(path)}
            counts[(warned, bad)] = counts.get((warned, bad), 0) + 1
            if warned != bad:
                print(f"seed {seed}: IF813 {'warns' if warned else 'is silent'}, the plugin "
                      f"{'misreads' if bad else 'agrees'}", flush=True)
    print(f"IF813 warns and the plugin misreads: {counts.get((True, True), 0)}; both silent/agree: "
          f"{counts.get((False, False), 0)}; needless warnings: {counts.get((True, False), 0)}; "
          f"missed: {counts.get((False, True), 0)}")


if __name__ == "__main__":
    main()
