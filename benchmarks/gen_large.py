"""Generate large IRs for the lint benchmark: a TensorIterator with a big body plus a big top-level graph.

    python benchmarks/gen_large.py OUT_DIR 1000 10000 100000

writes OUT_DIR/large_<N>.xml/.bin with about N layers (half in the TI body, half at the top level),
built with the openvino API and saved with openvino.save_model. Every model ends in a Const feeding a
ReduceSum; `--bin-gb G` makes that Const G gigabytes (otherwise it has one element), so the
`_bin<G>gb` file is the same model as the plain one except for the size of one weight.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np


def build(n_layers: int, big_const_bytes: int = 0):
    import openvino as ov
    import openvino.opset13 as ops

    # Each chain step adds 3 layers (Const, Add, Tanh/Relu alternating); half the budget per level.
    steps = max(1, n_layers // 6)
    x = ops.parameter([1, 8, 16], np.float32, name="X")
    h0 = ops.parameter([1, 16], np.float32, name="H")

    xi = ops.parameter([1, 1, 16], np.float32)
    hi = ops.parameter([1, 16], np.float32)
    cur = ops.add(ops.reshape(xi, ops.constant(np.array([1, 16], np.int64)), False), hi)
    for i in range(steps):
        cur = ops.add(cur, ops.constant(np.full((1, 16), i % 7, np.float32)))
        cur = ops.tanh(cur) if i % 2 else ops.relu(cur)
    ro = ops.result(cur)
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([ro], [xi, hi]))
    ti.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(hi, h0.output(0), ro.output(0))
    top = ti.get_iter_value(ro.output(0), -1)
    for i in range(steps):
        top = ops.multiply(top, ops.constant(np.full((1, 16), 1 + (i % 3) * 0.001, np.float32)))
        top = ops.tanh(top) if i % 2 else ops.relu(top)
    outputs = [ops.result(top, name="out")]
    pad = ops.constant(np.zeros(max(1, big_const_bytes // 4), np.float32))
    outputs.append(ops.result(ops.reduce_sum(pad, ops.constant(np.array([0], np.int64)), False), name="pad"))
    return ov.Model(outputs, [x, h0], f"large_{n_layers}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("sizes", type=int, nargs="+")
    ap.add_argument("--bin-gb", type=float, default=0.0, help="make the padding Const this many GB")
    args = ap.parse_args()
    import openvino as ov

    args.out.mkdir(parents=True, exist_ok=True)
    for n in args.sizes:
        suffix = f"_bin{args.bin_gb:g}gb" if args.bin_gb else ""
        path = args.out / f"large_{n}{suffix}.xml"
        ov.save_model(build(n, int(args.bin_gb * 1024**3)), str(path), compress_to_fp16=False)
        print(path, path.stat().st_size, "bytes XML")


if __name__ == "__main__":
    main()
