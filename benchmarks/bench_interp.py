"""Interpreter benchmark: irlint run vs OpenVINO CPU vs onnx.reference on the same models.

    .venv/bin/python benchmarks/bench_interp.py [--steps 1000] [--repeat 3]

Two models, each written as ONNX and converted with openvino.convert_model, so all three engines
run the same computation:
- lstm_scan: an ONNX Scan over `steps` time steps whose body is an LSTM cell written out
  (MatMul, Add, Split, Sigmoid, Tanh, Mul) -> an IR TensorIterator;
- while_loop: an ONNX Loop with a data-dependent condition (runs about `steps` iterations) -> an IR Loop.
Prints in-process medians, events per second, the per-layer dispatch overhead (irlint's time per
layer evaluation minus the time of the numpy kernels themselves) and the tracing overhead.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

HIDDEN, INPUT = 16, 8


def lstm_scan_onnx(path: Path, steps: int) -> dict[str, np.ndarray]:
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(0)
    w = (rng.standard_normal((INPUT, 4 * HIDDEN)) * 0.2).astype(np.float32)
    r = (rng.standard_normal((HIDDEN, 4 * HIDDEN)) * 0.2).astype(np.float32)
    b = (rng.standard_normal(4 * HIDDEN) * 0.1).astype(np.float32)
    nodes = [
        helper.make_node("MatMul", ["x_t", "W"], ["xw"]),
        helper.make_node("MatMul", ["h_in", "R"], ["hr"]),
        helper.make_node("Add", ["xw", "hr"], ["s0"]),
        helper.make_node("Add", ["s0", "B"], ["gates"]),
        helper.make_node("Split", ["gates", "split"], ["gi", "gf", "gc", "go"], axis=1),
        helper.make_node("Sigmoid", ["gi"], ["i"]),
        helper.make_node("Sigmoid", ["gf"], ["f"]),
        helper.make_node("Tanh", ["gc"], ["c_hat"]),
        helper.make_node("Sigmoid", ["go"], ["o"]),
        helper.make_node("Mul", ["f", "c_in"], ["fc"]),
        helper.make_node("Mul", ["i", "c_hat"], ["ic"]),
        helper.make_node("Add", ["fc", "ic"], ["c_out"]),
        helper.make_node("Tanh", ["c_out"], ["tc"]),
        helper.make_node("Mul", ["o", "tc"], ["h_out"]),
        helper.make_node("Identity", ["h_out"], ["y_t"]),
    ]
    body = helper.make_graph(
        nodes, "lstm_body",
        [helper.make_tensor_value_info("h_in", TensorProto.FLOAT, [1, HIDDEN]),
         helper.make_tensor_value_info("c_in", TensorProto.FLOAT, [1, HIDDEN]),
         helper.make_tensor_value_info("x_t", TensorProto.FLOAT, [1, INPUT])],
        [helper.make_tensor_value_info("h_out", TensorProto.FLOAT, [1, HIDDEN]),
         helper.make_tensor_value_info("c_out", TensorProto.FLOAT, [1, HIDDEN]),
         helper.make_tensor_value_info("y_t", TensorProto.FLOAT, [1, HIDDEN])],
        initializer=[numpy_helper.from_array(w, "W"), numpy_helper.from_array(r, "R"),
                     numpy_helper.from_array(b, "B"),
                     numpy_helper.from_array(np.array([HIDDEN] * 4, np.int64), "split")],
    )
    graph = helper.make_graph(
        [helper.make_node("Scan", ["h0", "c0", "xs"], ["h", "c", "ys"], body=body, num_scan_inputs=1)],
        "lstm_scan",
        [helper.make_tensor_value_info("h0", TensorProto.FLOAT, [1, HIDDEN]),
         helper.make_tensor_value_info("c0", TensorProto.FLOAT, [1, HIDDEN]),
         helper.make_tensor_value_info("xs", TensorProto.FLOAT, [steps, 1, INPUT])],
        [helper.make_tensor_value_info("h", TensorProto.FLOAT, [1, HIDDEN]),
         helper.make_tensor_value_info("c", TensorProto.FLOAT, [1, HIDDEN]),
         helper.make_tensor_value_info("ys", TensorProto.FLOAT, [steps, 1, HIDDEN])],
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)]), str(path))
    return {"h0": np.zeros((1, HIDDEN), np.float32), "c0": np.zeros((1, HIDDEN), np.float32),
            "xs": rng.standard_normal((steps, 1, INPUT)).astype(np.float32)}


def while_loop_onnx(path: Path, steps: int) -> dict[str, np.ndarray]:
    """acc += x while sum(acc) < steps * sum(x) - 0.5 (about `steps` iterations), bounded by 10 * steps."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    x = np.full(4, 0.25, np.float32)
    body = helper.make_graph(
        [helper.make_node("Add", ["acc_in", "x"], ["acc_out"]),
         helper.make_node("ReduceSum", ["acc_out"], ["total"], keepdims=0),
         helper.make_node("Less", ["total", "limit"], ["cond_out"]),
         helper.make_node("Identity", ["total"], ["trace_t"])],
        "while_body",
        [helper.make_tensor_value_info("iter", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("acc_in", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("acc_out", TensorProto.FLOAT, [4]),
         helper.make_tensor_value_info("trace_t", TensorProto.FLOAT, [])],
        initializer=[numpy_helper.from_array(np.array(steps - 0.5, np.float32), "limit")],
    )
    graph = helper.make_graph(
        [helper.make_node("Loop", ["M", "cond", "acc0"], ["acc", "totals"], body=body)],
        "while_loop",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [4]),
         helper.make_tensor_value_info("acc0", TensorProto.FLOAT, [4])],
        [helper.make_tensor_value_info("acc", TensorProto.FLOAT, [4]),
         helper.make_tensor_value_info("totals", TensorProto.FLOAT, [None])],
        initializer=[numpy_helper.from_array(np.array(10 * steps, np.int64), "M"),
                     numpy_helper.from_array(np.array(True), "cond")],
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)]), str(path))
    return {"x": x, "acc0": np.zeros(4, np.float32)}


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def kernel_time(model, inputs) -> tuple[float, int]:
    """Time spent inside op.compute during one run, and the number of layer evaluations."""
    from irlint.interp import execute
    from irlint.interp.events import LayerEvaluated
    from irlint.interp.schedule import _CACHE

    spent = 0.0
    originals = {}
    for schedule in list(_CACHE.values()):
        for step in schedule.steps:
            if step.op is not None and id(step.op) not in originals:
                originals[id(step.op)] = (step.op, step.op.compute)

    def timed(orig):
        def wrapper(attrs, args):
            nonlocal spent
            t0 = time.perf_counter()
            try:
                return orig(attrs, args)
            finally:
                spent += time.perf_counter() - t0
        return wrapper

    for op, orig in originals.values():
        op.compute = timed(orig)
    try:
        count = sum(1 for ev in execute(model, inputs) if isinstance(ev, LayerEvaluated))
    finally:
        for op, orig in originals.values():
            op.compute = orig
    return spent, count


def whole_process(xml: Path, onnx_path: Path, inputs: dict[str, np.ndarray], repeat: int) -> dict[str, float]:
    """Wall time of a fresh process for each engine: import, read, (compile), run once."""
    import subprocess

    npz = xml.with_suffix(".npz")
    np.savez(npz, **inputs)
    py = sys.executable
    commands = {
        "irlint_proc_s": [py, "-m", "irlint", "run", str(xml), "--inputs", str(npz)],
        "openvino_proc_s": [py, "-c", "import sys, numpy as np, openvino as ov; c = ov.Core(); "
                            "m = c.read_model(sys.argv[1]); k = c.compile_model(m, 'CPU'); "
                            "z = np.load(sys.argv[2]); k([z[p.get_friendly_name()] for p in m.get_parameters()])",
                            str(xml), str(npz)],
        "onnx_ref_proc_s": [py, "-c", "import sys, numpy as np; from onnx.reference import ReferenceEvaluator; "
                            "z = np.load(sys.argv[2]); ReferenceEvaluator(sys.argv[1]).run(None, dict(z))",
                            str(onnx_path), str(npz)],
    }
    out = {}
    for key_name, cmd in commands.items():
        def once(cmd=cmd) -> None:
            subprocess.run(cmd, check=True, capture_output=True)
        out[key_name] = median_time(once, repeat)
    return out


def bench(name: str, onnx_path: Path, inputs: dict[str, np.ndarray], repeat: int) -> dict[str, float]:
    import openvino as ov
    from onnx.reference import ReferenceEvaluator

    import irlint
    from irlint.interp import execute, run
    from irlint.interp.trace import Trace

    xml = onnx_path.with_suffix(".xml")
    ov.save_model(ov.convert_model(str(onnx_path)), str(xml), compress_to_fp16=False)
    model = irlint.load(xml)
    core = ov.Core()
    ov_model = core.read_model(str(xml))
    compiled = core.compile_model(ov_model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    feed = [inputs[p.get_friendly_name()] for p in ov_model.get_parameters()]
    ref = ReferenceEvaluator(str(onnx_path))

    run(model, inputs)  # warm the plan cache
    t_irlint = median_time(lambda: run(model, inputs), repeat)
    t_ov = median_time(lambda: compiled(feed), repeat)
    t_ref = median_time(lambda: ref.run(None, inputs), repeat)

    def traced():
        trace = Trace()
        for _ in trace.observe(execute(model, inputs)):
            pass
        trace.close()

    t_trace = median_time(traced, repeat)
    k_time, evaluations = kernel_time(model, inputs)
    dispatch_us = (t_irlint - k_time) / max(evaluations, 1) * 1e6
    # agreement check
    ours = run(model, inputs)
    want = compiled(feed)
    for i, r in enumerate(ov_model.get_results()):
        np.testing.assert_allclose(ours[r.get_friendly_name()], np.asarray(want[i]), rtol=1e-3, atol=1e-4)
    whole = whole_process(xml, onnx_path, inputs, repeat)
    return {**whole, "irlint_s": t_irlint, "openvino_s": t_ov, "onnx_ref_s": t_ref, "traced_s": t_trace,
            "layer_evaluations": evaluations, "dispatch_us": dispatch_us,
            "trace_overhead_pct": (t_trace / t_irlint - 1) * 100}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, make in (("lstm_scan", lstm_scan_onnx), ("while_loop", while_loop_onnx)):
            path = Path(tmp) / f"{name}.onnx"
            inputs = make(path, args.steps)
            rows.append((name, bench(name, path, inputs, args.repeat)))
    print(f"steps={args.steps}, median of {args.repeat} runs")
    print("\nWhole process (import, read, run once):\n")
    print("| model | irlint run (s) | OpenVINO CPU (s) | onnx.reference (s) |")
    print("| --- | --- | --- | --- |")
    for name, r in rows:
        print(f"| {name} | {r['irlint_proc_s']:.2f} | {r['openvino_proc_s']:.2f} | {r['onnx_ref_proc_s']:.2f} |")
    print("\nIn-process:\n")
    print("| model | irlint (s) | OpenVINO CPU (s) | onnx.reference (s) | irlint vs onnx.reference | "
          "layer evaluations | dispatch overhead (us/layer) | tracing overhead |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, r in rows:
        print(f"| {name} | {r['irlint_s']:.3f} | {r['openvino_s']:.4f} | {r['onnx_ref_s']:.3f} | "
              f"{r['onnx_ref_s'] / r['irlint_s']:.2f}x faster | {r['layer_evaluations']} | "
              f"{r['dispatch_us']:.1f} | {r['trace_overhead_pct']:+.0f}% |")


if __name__ == "__main__":
    main()
