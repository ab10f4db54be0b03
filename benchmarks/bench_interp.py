"""Interpreter benchmark: irlint vs OpenVINO CPU vs onnx.reference on the same models.

    .venv/bin/python benchmarks/bench_interp.py [--steps 1000] [--repeat 5] [--whole-process]

Every model runs in all three engines: ONNX models are converted with openvino.convert_model (irlint
and OpenVINO run that IR, onnx.reference the ONNX); the LSTMCell TensorIterator is built with the
openvino API and its ONNX twin is one ONNX LSTM node with the same weights (gates reordered). The
script asserts that irlint's outputs agree with OpenVINO's (and the LSTM's with onnx.reference's).
- lstm_scan: an ONNX Scan over `steps` time steps whose body is an LSTM cell written out
  (MatMul, Add, Split, Sigmoid, Tanh, Mul) -> an IR TensorIterator;
- while_loop: an ONNX Loop with a data-dependent condition (runs `steps` iterations) -> an IR Loop;
- lstm_cell_ti: a TensorIterator over 512 steps whose body is one LSTMCell, hidden 256, input 128;
- gru_cell_ti: the same with one GRUCell (its ONNX twin one GRU node);
- loop_in_ti: an ONNX Scan over `steps` steps whose body runs an ONNX Loop of 10 iterations
  -> a Loop inside a TensorIterator.
Prints in-process times (the fastest of interleaved rounds) and ratios (the median over rounds of
the ratio of two runs timed back to back, which a shared machine's load disturbs least), the
dispatch overhead (irlint's time per kernel call minus the time inside the kernels), the tracing
overhead (`run(..., listener=Trace())`, with its keys written out, with the trace saved, and the event
path `Trace.observe(execute(...))`, each round against a plain run in the same block of irlint runs;
with --trace-command also `irlint run --trace` as a whole process)
and the debugger's step latency on a 100,000-iteration Loop.
"""

from __future__ import annotations

import argparse
import copy
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

HIDDEN, INPUT = 16, 8
CELL_HIDDEN, CELL_INPUT, CELL_STEPS = 256, 128, 512
INNER_TRIPS = 10
OPTIONS = None  # irlint's interpreter options (--hoist-cells sets them)


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


def cell_weights(rng: np.random.Generator, gates: int, hs: int, inp: int
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """W [gates*hs, inp], R [gates*hs, hs] and B [gates*hs] of a recurrent cell, small (x 0.05) so that
    hundreds of steps stay away from saturation."""
    w = (rng.standard_normal((gates * hs, inp)) * 0.05).astype(np.float32)
    r = (rng.standard_normal((gates * hs, hs)) * 0.05).astype(np.float32)
    b = (rng.standard_normal(gates * hs) * 0.05).astype(np.float32)
    return w, r, b


def state_ti(x, h0, xi, hi, rh, ry, name: str):  # type: ignore[no-untyped-def]
    """An openvino Model of one TensorIterator with one carried state: X sliced on axis 1 into the body
    Parameter `xi`, `rh` carried into `hi` (from H0); outputs H (the last `rh`) and Y (every `ry`,
    concatenated on axis 1). Arguments are openvino nodes; openvino is imported by the caller."""
    import openvino as ov
    import openvino.opset13 as ops

    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([rh, ry], [xi, hi]))
    ti.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(hi, h0.output(0), rh.output(0))
    return ov.Model([ops.result(ti.get_iter_value(rh.output(0), -1), name="H"),
                     ops.result(ti.get_concatenated_slices(ry.output(0), 0, 1, 1, -1, 1), name="Y")],
                    [x, h0], name)


def lstm_cell_ti(path: Path, steps: int = CELL_STEPS, hidden: int = CELL_HIDDEN, inp: int = CELL_INPUT
                 ) -> dict[str, np.ndarray]:
    """An IR TensorIterator whose body is one LSTMCell-4 (written to path.with_suffix('.xml')), and its
    ONNX twin: one LSTM node (ONNX orders the gates i, o, f, c; OpenVINO f, i, c, o) at `path`."""
    import onnx
    import openvino as ov
    import openvino.opset13 as ops
    from onnx import TensorProto, helper, numpy_helper

    hs = hidden
    rng = np.random.default_rng(1)
    w, r, b = cell_weights(rng, 4, hs, inp)
    x = ops.parameter([1, steps, inp], np.float32, name="X")
    h0 = ops.parameter([1, hs], np.float32, name="H0")
    c0 = ops.parameter([1, hs], np.float32, name="C0")
    xi = ops.parameter([1, 1, inp], np.float32)
    hi = ops.parameter([1, hs], np.float32)
    ci = ops.parameter([1, hs], np.float32)
    cell = ops.lstm_cell(ops.squeeze(xi, ops.constant(np.array([1], np.int64))), hi, ci, ops.constant(w),
                         ops.constant(r), ops.constant(b), hs)
    rh, rc = ops.result(cell.output(0)), ops.result(cell.output(1))
    ry = ops.result(ops.unsqueeze(cell.output(0), ops.constant(np.array([1], np.int64))))
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([rh, rc, ry], [xi, hi, ci]))
    ti.set_sliced_input(xi, x.output(0), 0, 1, 1, -1, 1)
    ti.set_merged_input(hi, h0.output(0), rh.output(0))
    ti.set_merged_input(ci, c0.output(0), rc.output(0))
    model = ov.Model([ops.result(ti.get_iter_value(rh.output(0), -1), name="H"),
                      ops.result(ti.get_iter_value(rc.output(0), -1), name="C"),
                      ops.result(ti.get_concatenated_slices(ry.output(0), 0, 1, 1, -1, 1), name="Y")],
                     [x, h0, c0], "lstm_cell_ti")
    ov.save_model(model, str(path.with_suffix(".xml")), compress_to_fp16=False)

    def iofc(m: np.ndarray) -> np.ndarray:
        f, i, c, o = np.split(m, 4, axis=0)
        return np.concatenate([i, o, f, c], axis=0)

    graph = helper.make_graph(
        [helper.make_node("LSTM", ["Xs", "W", "R", "B", "", "H0s", "C0s"], ["Y", "H", "C"], hidden_size=hs)],
        "lstm", [helper.make_tensor_value_info("Xs", TensorProto.FLOAT, [steps, 1, inp]),
                 helper.make_tensor_value_info("H0s", TensorProto.FLOAT, [1, 1, hs]),
                 helper.make_tensor_value_info("C0s", TensorProto.FLOAT, [1, 1, hs])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [steps, 1, 1, hs]),
         helper.make_tensor_value_info("H", TensorProto.FLOAT, [1, 1, hs]),
         helper.make_tensor_value_info("C", TensorProto.FLOAT, [1, 1, hs])],
        initializer=[numpy_helper.from_array(iofc(w)[None], "W"), numpy_helper.from_array(iofc(r)[None], "R"),
                     numpy_helper.from_array(np.concatenate([iofc(b), np.zeros(4 * hs, np.float32)])[None], "B")])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)]), str(path))
    return {"X": rng.standard_normal((1, steps, inp)).astype(np.float32),
            "H0": np.zeros((1, hs), np.float32), "C0": np.zeros((1, hs), np.float32)}


def gru_cell_ti(path: Path, steps: int = CELL_STEPS) -> dict[str, np.ndarray]:
    """lstm_cell_ti's GRU twin: a TensorIterator over one GRUCell-3 (hidden 256, input 128), and one
    ONNX GRU node with the same weights (ONNX orders the gates z, r, h as OpenVINO does)."""
    import onnx
    import openvino as ov
    import openvino.opset13 as ops
    from onnx import TensorProto, helper, numpy_helper

    hs, inp = CELL_HIDDEN, CELL_INPUT
    rng = np.random.default_rng(4)
    w, r, b = cell_weights(rng, 3, hs, inp)
    x = ops.parameter([1, steps, inp], np.float32, name="X")
    h0 = ops.parameter([1, hs], np.float32, name="H0")
    xi = ops.parameter([1, 1, inp], np.float32)
    hi = ops.parameter([1, hs], np.float32)
    cell = ops.gru_cell(ops.squeeze(xi, ops.constant(np.array([1], np.int64))), hi, ops.constant(w),
                        ops.constant(r), ops.constant(b), hs)
    rh = ops.result(cell.output(0))
    ry = ops.result(ops.unsqueeze(cell.output(0), ops.constant(np.array([1], np.int64))))
    model = state_ti(x, h0, xi, hi, rh, ry, "gru_cell_ti")
    ov.save_model(model, str(path.with_suffix(".xml")), compress_to_fp16=False)
    graph = helper.make_graph(
        [helper.make_node("GRU", ["Xs", "W", "R", "B", "", "H0s"], ["Y", "H"], hidden_size=hs)],
        "gru", [helper.make_tensor_value_info("Xs", TensorProto.FLOAT, [steps, 1, inp]),
                helper.make_tensor_value_info("H0s", TensorProto.FLOAT, [1, 1, hs])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [steps, 1, 1, hs]),
         helper.make_tensor_value_info("H", TensorProto.FLOAT, [1, 1, hs])],
        initializer=[numpy_helper.from_array(w[None], "W"), numpy_helper.from_array(r[None], "R"),
                     numpy_helper.from_array(np.concatenate([b, np.zeros(3 * hs, np.float32)])[None], "B")])
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)]), str(path))
    return {"X": rng.standard_normal((1, steps, inp)).astype(np.float32), "H0": np.zeros((1, hs), np.float32)}


def onnx_feed_lstm(inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    feed = {"Xs": inputs["X"].transpose(1, 0, 2), "H0s": inputs["H0"][None]}
    if "C0" in inputs:
        feed["C0s"] = inputs["C0"][None]
    return feed


def loop_in_ti_onnx(path: Path, steps: int) -> dict[str, np.ndarray]:
    """Scan over `steps` steps of x_t; each step runs a Loop of INNER_TRIPS iterations
    v = tanh(0.5 * v + x_t) starting from the carried h; the Loop's v is the new h and the step's output."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    n = 8
    loop_body = helper.make_graph(
        [helper.make_node("Mul", ["v_in", "half"], ["hv"]),
         helper.make_node("Add", ["hv", "x_t"], ["pre"]),
         helper.make_node("Tanh", ["pre"], ["v_out"]),
         helper.make_node("Identity", ["cond_in"], ["cond_out"])],
        "inner",
        [helper.make_tensor_value_info("i", TensorProto.INT64, []),
         helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
         helper.make_tensor_value_info("v_in", TensorProto.FLOAT, [1, n])],
        [helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
         helper.make_tensor_value_info("v_out", TensorProto.FLOAT, [1, n])],
        initializer=[numpy_helper.from_array(np.array(0.5, np.float32), "half")],
    )
    scan_body = helper.make_graph(
        [helper.make_node("Loop", ["M", "T", "h_in"], ["h_out"], body=loop_body),
         helper.make_node("Identity", ["h_out"], ["y_t"])],
        "outer",
        [helper.make_tensor_value_info("h_in", TensorProto.FLOAT, [1, n]),
         helper.make_tensor_value_info("x_t", TensorProto.FLOAT, [1, n])],
        [helper.make_tensor_value_info("h_out", TensorProto.FLOAT, [1, n]),
         helper.make_tensor_value_info("y_t", TensorProto.FLOAT, [1, n])],
        initializer=[numpy_helper.from_array(np.array(INNER_TRIPS, np.int64), "M"),
                     numpy_helper.from_array(np.array(True), "T")],
    )
    graph = helper.make_graph(
        [helper.make_node("Scan", ["h0", "xs"], ["h", "ys"], body=scan_body, num_scan_inputs=1)],
        "loop_in_ti",
        [helper.make_tensor_value_info("h0", TensorProto.FLOAT, [1, n]),
         helper.make_tensor_value_info("xs", TensorProto.FLOAT, [steps, 1, n])],
        [helper.make_tensor_value_info("h", TensorProto.FLOAT, [1, n]),
         helper.make_tensor_value_info("ys", TensorProto.FLOAT, [steps, 1, n])],
    )
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)]), str(path))
    rng = np.random.default_rng(2)
    return {"h0": np.zeros((1, n), np.float32), "xs": rng.standard_normal((steps, 1, n)).astype(np.float32)}


def long_loop(path: Path, trips: int) -> None:
    """A counting Loop of `trips` iterations (acc += 1, scan of acc) for the debugger's step latency."""
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([4], np.float32, name="x")
    acc = ops.parameter([4], np.float32)
    nxt = ops.add(acc, ops.constant(np.ones(4, np.float32)))
    r = ops.result(nxt)
    c = ops.result(ops.constant(np.bool_(True)))
    scan = ops.result(ops.unsqueeze(nxt, ops.constant(np.array([0], np.int64))))
    loop = ops.loop(ops.constant(np.int64(trips)), ops.constant(np.bool_(True)))
    loop.set_function(ov.Model([r, c, scan], [acc]))
    loop.set_special_body_ports([-1, 1])
    loop.set_merged_input(acc, x.output(0), r.output(0))
    ov.save_model(ov.Model([ops.result(loop.get_iter_value(r.output(0), -1), name="acc"),
                            ops.result(loop.get_concatenated_slices(scan.output(0), 0, 1, 1, -1, 0), name="all")],
                           [x], "long_loop"), str(path), compress_to_fp16=False)


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def dispatch_time(model, inputs) -> tuple[float, float, int]:
    """(time outside the kernels per kernel call, time inside the kernels, kernel calls) of one plain run.

    Every kernel the executor binds is wrapped in a timer and the whole run is timed too, so both
    come from the same run; the wrapper's own cost outside its timed interval, measured on a no-op
    kernel, is subtracted per call."""
    from irlint.interp import executor, run
    from irlint.ops.rnn.cells import CellKernel

    clock = time.perf_counter
    inside, calls = 0.0, 0

    def timed(kernel):  # type: ignore[no-untyped-def]
        def wrapper(args):  # type: ignore[no-untyped-def]
            nonlocal inside, calls
            start = clock()
            out = kernel(args)
            inside += clock() - start
            calls += 1
            return out

        return wrapper

    def timed_cell(kernel):  # type: ignore[no-untyped-def]
        """A cell's kernel stays a CellKernel (so that a TensorIterator still hoists its projections):
        its class becomes a subclass whose whole call, step and projection are timed (the outermost
        of them only: a call runs the other two; a hoisted cell's step is called directly)."""
        base = type(kernel)
        depth = 0

        def timed_part(fn, counted):  # type: ignore[no-untyped-def]
            nonlocal inside, calls, depth
            if depth:
                return fn()
            depth += 1
            start = clock()
            try:
                return fn()
            finally:
                inside += clock() - start
                calls += counted
                depth -= 1

        class Timed(base):  # type: ignore[misc, valid-type]
            def __call__(self, args):  # type: ignore[no-untyped-def]
                return timed_part(lambda: base.__call__(self, args), 1)

            def step(self, xw, args):  # type: ignore[no-untyped-def]
                return timed_part(lambda: base.step(self, xw, args), 1)

            def project(self, x, out=None):  # type: ignore[no-untyped-def]
                return timed_part(lambda: base.project(self, x, out), 0)

        timed_kernel = copy.copy(kernel)  # the executor keeps prepared cells across runs: leave them as they are
        timed_kernel.__class__ = Timed
        return timed_kernel

    wrapped: list[object] = []

    def wrap(kernel):  # type: ignore[no-untyped-def]
        wrapped.append(kernel)
        return timed_cell(kernel) if isinstance(kernel, CellKernel) else timed(kernel)

    noop = timed(lambda args: args)
    t0 = clock()
    for _ in range(20000):
        noop([])
    wrapper_cost = (clock() - t0 - inside) / 20000

    class Noop(CellKernel):  # the cells' wrapper's own cost, measured the same way
        def __call__(self, args):  # type: ignore[no-untyped-def]
            return args

    noop_cell = timed_cell(Noop())
    inside = 0.0
    t0 = clock()
    for _ in range(20000):
        noop_cell([])
    cell_wrapper_cost = (clock() - t0 - inside) / 20000
    inside, calls = 0.0, 0
    original = executor._Executor.kernel
    executor._Executor.kernel = lambda self, instr, consts: wrap(original(self, instr, consts))  # type: ignore[method-assign]
    try:
        run(model, inputs, OPTIONS)  # binds (and wraps) the kernels
        inside, calls = 0.0, 0
        t0 = clock()
        run(model, inputs, OPTIONS)
        total = clock() - t0
    finally:
        executor._Executor.kernel = original  # type: ignore[method-assign]
    cells = sum(1 for k in wrapped if isinstance(k, CellKernel))
    cell_share = cells / max(len(wrapped), 1)  # cells run as often as the body's other kernels
    cost = wrapper_cost + cell_share * (cell_wrapper_cost - wrapper_cost)
    return (total - inside) / max(calls, 1) - cost, inside, calls


def replay_dispatch(model, inputs, repeat: int) -> float:
    """Seconds per kernel call outside the kernels, measured without timers around them: one run's
    kernel calls (kernel, inputs) are recorded, then the run and a replay of those calls back to back
    are timed alternately; (run - replay) / calls. The replay finds its data warmer in the caches than
    the run did, so this leans high, never low."""
    from irlint.interp import executor, run

    calls: list[tuple[object, object]] = []
    original = executor._Executor.kernel

    def recording(self, instr, consts):  # type: ignore[no-untyped-def]
        kernel = original(self, instr, consts)

        def record(args):  # type: ignore[no-untyped-def]
            calls.append((kernel, args))
            return kernel(args)

        return record

    executor._Executor.kernel = recording  # type: ignore[method-assign]
    try:
        run(model, inputs, OPTIONS)
    finally:
        executor._Executor.kernel = original  # type: ignore[method-assign]

    def replay() -> None:
        for kernel, args in calls:
            kernel(args)  # type: ignore[operator]

    with np.errstate(all="ignore"):
        alone = min(_timed(replay) for _ in range(repeat))
    whole = min(_timed(lambda: run(model, inputs, OPTIONS)) for _ in range(repeat))
    return (whole - alone) / max(len(calls), 1)


def _timed(fn) -> float:  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


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


def trace_command_times(xml: Path, inputs: dict[str, np.ndarray], repeat: int) -> dict[str, float]:
    """`irlint run` against `irlint run --trace T.npz`, each a fresh process (import, lint, read, run,
    and for the second: record and save the trace), interleaved; the fastest of each (wall and the
    child's CPU time) and the median over rounds of the ratio of the two runs timed back to back."""
    import resource
    import subprocess

    npz = xml.with_suffix(".inputs.npz")
    np.savez(npz, **inputs)
    plain = [sys.executable, "-m", "irlint", "run", str(xml), "--inputs", str(npz)]
    traced = [*plain, "--trace", str(xml.with_suffix(".cmd-trace.npz"))]
    times: dict[str, list[float]] = {"run": [], "run_trace": []}
    cpu: dict[str, list[float]] = {"run": [], "run_trace": []}
    for _ in range(repeat):
        for key_name, cmd in (("run", plain), ("run_trace", traced)):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True)
            times[key_name].append(time.perf_counter() - t0)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[key_name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)

    def ratio(clock: dict[str, list[float]]) -> float:
        return (statistics.median(t / p for t, p in zip(clock["run_trace"], clock["run"])) - 1) * 100
    return {"cmd_run_s": min(times["run"]), "cmd_run_trace_s": min(times["run_trace"]),
            "cmd_run_cpu_s": min(cpu["run"]), "cmd_run_trace_cpu_s": min(cpu["run_trace"]),
            "cmd_trace_overhead_pct": ratio(times), "cmd_trace_cpu_overhead_pct": ratio(cpu)}


def bench(name: str, onnx_path: Path, inputs: dict[str, np.ndarray], repeat: int, *, xml: Path | None = None,
          onnx_feed=None, whole: bool = False, trace_command: bool = False) -> dict[str, float]:  # type: ignore[no-untyped-def]
    import openvino as ov
    from onnx.reference import ReferenceEvaluator

    import irlint
    from irlint.interp import execute, run
    from irlint.interp.trace import Trace

    if xml is None:
        xml = onnx_path.with_suffix(".xml")
        ov.save_model(ov.convert_model(str(onnx_path)), str(xml), compress_to_fp16=False)
    model = irlint.load(xml)
    core = ov.Core()
    ov_model = core.read_model(str(xml))
    compiled = core.compile_model(ov_model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    single = core.compile_model(ov_model, "CPU", {"INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": 1})
    feed = [inputs[p.get_friendly_name()] for p in ov_model.get_parameters()]
    ref = ReferenceEvaluator(str(onnx_path))
    ref_inputs = onnx_feed(inputs) if onnx_feed else inputs

    def traced() -> None:
        trace = Trace()
        run(model, inputs, OPTIONS, listener=trace)
        trace.close()

    def traced_read() -> None:  # the trace's keys written out too (what save() and get() do first)
        trace = Trace()
        run(model, inputs, OPTIONS, listener=trace)
        trace.keys()
        trace.close()

    trace_file = xml.with_suffix(".trace.npz")

    def traced_saved() -> None:  # what `irlint run --trace T.npz` does after reading: record, then save
        trace = Trace()
        run(model, inputs, listener=trace)
        trace.save(trace_file)
        trace.close()

    def observed() -> None:  # the event path (the stepper's and the debugger's)
        trace = Trace()
        for _ in trace.observe(execute(model, inputs, OPTIONS)):
            pass
        trace.close()

    def plain() -> None:
        run(model, inputs, OPTIONS)

    plain()  # warm the program caches
    engines = {"irlint_s": plain, "openvino_s": lambda: compiled(feed),
               "openvino1_s": lambda: single(feed), "onnx_ref_s": lambda: ref.run(None, ref_inputs)}
    # Tracing is measured in pairs of its own in each round: each traced variant right next to a plain
    # run, which goes first in every other round. A run right after OpenVINO's threads or
    # onnx.reference finds irlint's code and model data cold; a traced run that followed them looked
    # up to twice as dear as it is next to a plain run (docs/performance.md, "How it is measured").
    tracing = {"traced_s": traced, "traced_read_s": traced_read, "traced_saved_s": traced_saved,
               "observed_s": observed}
    single(feed)
    times: dict[str, list[float]] = {k: [] for k in (*engines, *tracing)}
    cpu: dict[str, list[float]] = {k: [] for k in times}
    plain_times: dict[str, list[float]] = {k: [] for k in tracing}  # the plain run of each pair
    plain_cpu: dict[str, list[float]] = {k: [] for k in tracing}

    def timed(fn: Callable[[], object], wall: list[float], clock: list[float]) -> None:
        c0, t0 = time.process_time(), time.perf_counter()
        fn()
        wall.append(time.perf_counter() - t0)
        clock.append(time.process_time() - c0)

    for r in range(repeat):  # interleaved, so that the machine's load drifts alike for all
        for key_name, fn in engines.items():
            timed(fn, times[key_name], cpu[key_name])
        for key_name, fn in tracing.items():
            pair = [(plain, plain_times[key_name], plain_cpu[key_name]), (fn, times[key_name], cpu[key_name])]
            for args in pair if r % 2 == 0 else pair[::-1]:
                timed(*args)
    # The fastest of the interleaved runs: on a shared machine the other runs measure the neighbours too.
    # CPU time (all threads of the process) is less disturbed by them still.
    med = {k: min(v) for k, v in times.items()}
    med.update({f"cpu_{k}": min(v) for k, v in cpu.items()})

    def paired(a: str, b: str, clock: dict[str, list[float]] = times) -> float:
        """The median over rounds of a/b, each pair timed back to back (so under the same load)."""
        return statistics.median(x / y for x, y in zip(clock[a], clock[b]))

    def overhead(a: str, clock: dict[str, list[float]] = cpu, plains: dict[str, list[float]] = plain_cpu) -> float:
        """Tracing's cost in CPU time (the process's own; a shared machine's load moves wall time far
        more than the few percent measured here), as a percentage of the plain run next to it."""
        return (statistics.median(x / y for x, y in zip(clock[a], plains[a])) - 1) * 100
    dispatch = sorted(dispatch_time(model, inputs) for _ in range(repeat))
    calls = dispatch[0][2]
    # agreement checks
    ours = run(model, inputs, OPTIONS)
    want = compiled(feed)
    for i, r in enumerate(ov_model.get_results()):
        np.testing.assert_allclose(ours[r.get_friendly_name()], np.asarray(want[i]), rtol=1e-3, atol=1e-4)
    if onnx_feed is not None:  # the LSTM/GRU twin: onnx.reference's Y_h against irlint's H
        np.testing.assert_allclose(ref.run(["H"], ref_inputs)[0][0], ours["H"], rtol=1e-3, atol=1e-4)
    whole_times = whole_process(xml, onnx_path, inputs, repeat) if whole and onnx_feed is None else {}
    if trace_command:
        whole_times.update(trace_command_times(xml, inputs, repeat))
    return {**whole_times, **med, "kernel_calls": calls, "kernel_s": dispatch[0][1],
            "dispatch_us": dispatch[0][0] * 1e6, "replay_dispatch_us": replay_dispatch(model, inputs, repeat) * 1e6,
            "vs_openvino": paired("irlint_s", "openvino_s"), "vs_openvino1": paired("irlint_s", "openvino1_s"),
            "ref_vs": paired("onnx_ref_s", "irlint_s"),
            "trace_overhead_pct": overhead("traced_s"), "trace_read_overhead_pct": overhead("traced_read_s"),
            "trace_saved_overhead_pct": overhead("traced_saved_s"), "observed_overhead_pct": overhead("observed_s"),
            "trace_wall_overhead_pct": overhead("traced_s", times, plain_times)}


def debugger_latency(tmp: Path, trips: int = 100_000) -> list[tuple[int, float, float, float]]:
    """The debugger's session (the stepper plus what the UI records) on a `trips`-iteration Loop: the
    time of one `step` and one `next iteration` command at several iterations, and of the `continue`
    to a breakpoint that got there (from the previous stop)."""
    from irlint.viewer.debugger.session import Session

    import irlint
    from irlint.interp.stepper import Breakpoint

    path = tmp / "long_loop.xml"
    long_loop(path, trips)
    session = Session(irlint.load(path), {"x": np.zeros(4, np.float32)})
    rows = []
    for at in (0, 1_000, 50_000, trips - 10):
        session.stepper.breakpoints[:] = [Breakpoint(iteration=at)]
        t0 = time.perf_counter()
        session.do("continue")
        t_continue = time.perf_counter() - t0
        session.stepper.breakpoints.clear()
        steps = []
        for _ in range(5):
            t0 = time.perf_counter()
            session.do("step")
            steps.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        session.do("iteration")
        t_iter = time.perf_counter() - t0
        rows.append((at, statistics.median(steps), t_iter, t_continue))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--whole-process", action="store_true", help="also time a fresh process per engine")
    ap.add_argument("--only", nargs="*", help="model names to run (default: all)")
    ap.add_argument("--hoist-cells", action="store_true",
                    help="irlint computes a TensorIterator cell's input projections before the loop")
    ap.add_argument("--trace-command", action="store_true",
                    help="also time `irlint run` against `irlint run --trace T.npz` (fresh processes)")
    args = ap.parse_args()
    if args.hoist_cells:
        global OPTIONS
        from irlint.interp import Options

        OPTIONS = Options(hoist_cells=True)
    rows = []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        models = {
            "lstm_scan": lambda p: (lstm_scan_onnx(p, args.steps), {}),
            "while_loop": lambda p: (while_loop_onnx(p, args.steps), {}),
            "lstm_cell_ti": lambda p: (lstm_cell_ti(p), {"xml": p.with_suffix(".xml"), "onnx_feed": onnx_feed_lstm}),
            "gru_cell_ti": lambda p: (gru_cell_ti(p), {"xml": p.with_suffix(".xml"), "onnx_feed": onnx_feed_lstm}),
            "loop_in_ti": lambda p: (loop_in_ti_onnx(p, args.steps), {}),
        }
        for name, make in models.items():
            if args.only and name not in args.only:
                continue
            path = tmp / f"{name}.onnx"
            inputs, extra = make(path)
            rows.append((name, bench(name, path, inputs, args.repeat, whole=args.whole_process,
                                           trace_command=args.trace_command, **extra)))
        latency = debugger_latency(tmp) if not args.only or "debugger" in args.only else []
    print(f"steps={args.steps}; times: the fastest of {args.repeat} interleaved rounds; ratios and overheads: the "
          "median over rounds of the ratio of the two runs timed back to back in a round")
    if args.whole_process:
        print("\nWhole process (import, read, run once):\n")
        print("| model | irlint run (s) | OpenVINO CPU (s) | onnx.reference (s) |")
        print("| --- | --- | --- | --- |")
        for name, r in rows:
            if "irlint_proc_s" in r:
                print(f"| {name} | {r['irlint_proc_s']:.2f} | {r['openvino_proc_s']:.2f} | "
                      f"{r['onnx_ref_proc_s']:.2f} |")
    print("\nIn-process:\n")
    print("| model | irlint (s) | OpenVINO CPU (s) | irlint / OpenVINO | OpenVINO 1 thread (s) | irlint / OpenVINO "
          "1 thread | CPU time irlint / OpenVINO | onnx.reference (s) | onnx.reference / irlint |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, r in rows:
        print(f"| {name} | {r['irlint_s']:.4f} | {r['openvino_s']:.4f} | {r['vs_openvino']:.2f}x | "
              f"{r['openvino1_s']:.4f} | {r['vs_openvino1']:.2f}x | "
              f"{r['cpu_irlint_s'] / max(r['cpu_openvino_s'], 1e-9):.2f}x | "
              f"{r['onnx_ref_s']:.4f} | {r['ref_vs']:.1f}x |")
    print("\nTracing overheads: CPU time, the median over rounds of (traced run) / (plain run) - 1; in brackets "
          "the listener's in wall time.\n")
    print("| model | kernel calls | dispatch (us/kernel call) | dispatch by replay | tracing | tracing, keys written "
          "| tracing, saved "
          "| event-path trace |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, r in rows:
        print(f"| {name} | {r['kernel_calls']} | {r['dispatch_us']:.2f} | {r['replay_dispatch_us']:.2f} | "
              f"{r['trace_overhead_pct']:+.0f}% "
              f"({r['trace_wall_overhead_pct']:+.0f}%) | {r['trace_read_overhead_pct']:+.0f}% | "
              f"{r['trace_saved_overhead_pct']:+.0f}% | {r['observed_overhead_pct']:+.0f}% |")
    if args.trace_command:
        print("\n`irlint run` against `irlint run --trace T.npz` (fresh processes; fastest wall and CPU times):\n")
        print("| model | irlint run (s) | irlint run --trace (s) | overhead (wall) | CPU (s) | CPU --trace (s) | "
              "overhead (CPU) |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for name, r in rows:
            print(f"| {name} | {r['cmd_run_s']:.3f} | {r['cmd_run_trace_s']:.3f} | "
                  f"{r['cmd_trace_overhead_pct']:+.0f}% | {r['cmd_run_cpu_s']:.3f} | {r['cmd_run_trace_cpu_s']:.3f} | "
                  f"{r['cmd_trace_cpu_overhead_pct']:+.0f}% |")
    if latency:
        print("\nDebugger (irlint.viewer's Session) on a 100,000-iteration Loop:\n")
        print("| at iteration | step (ms) | next iteration (ms) | continue to it from the previous stop (s) |")
        print("| --- | --- | --- | --- |")
        for at, step, it, cont in latency:
            print(f"| {at} | {step * 1e3:.3f} | {it * 1e3:.3f} | {cont:.2f} |")


if __name__ == "__main__":
    main()
