"""The matrix-product floor of one LSTMCell/GRUCell time step (the cell TensorIterators).

    .venv/bin/python benchmarks/bench_cell_floor.py [--repeat 15]

A cell step with batch 1, hidden 256 and input 128 must multiply the hidden state by the recurrent
weights (H·Rᵀ: 1 x 256 by 256 x 4·256 for an LSTM, 3·256 for a GRU; 1 MB or 0.75 MB of f32 read
per step) and the input by the input weights (x·Wᵀ, or its share of one product over all steps when
hoisted). Both numpy engines, irlint and onnx.reference, pay these products through the same BLAS;
whatever else a step does comes on top. This prints the products' time per step next to the whole
step of irlint and onnx.reference (bench_interp.py's lstm_cell_ti and gru_cell_ti, 512 steps) and
irlint's cell kernel alone (one call, as the loop makes it), and two bounds on the ratio to
onnx.reference: if irlint's step cost only its kernel (no interpreter at all), and if it cost only
the matrix products (no elementwise work either, x·Wᵀ hoisted).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_interp import CELL_HIDDEN, CELL_INPUT, CELL_STEPS, gru_cell_ti, lstm_cell_ti, onnx_feed_lstm


def fastest(fn, repeat: int, number: int) -> float:  # type: ignore[no-untyped-def]
    """The fastest of `repeat` rounds of `number` calls, per call (seconds)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best


def products(gates: int, repeat: int) -> tuple[float, float, float]:
    """(H·Rᵀ, x·Wᵀ, x·Wᵀ hoisted over all steps, per step) in seconds, f32, C-ordered transposed weights."""
    rng = np.random.default_rng(0)
    h = rng.standard_normal((1, CELL_HIDDEN)).astype(np.float32)
    x = rng.standard_normal((1, CELL_INPUT)).astype(np.float32)
    xs = rng.standard_normal((CELL_STEPS, CELL_INPUT)).astype(np.float32)
    rt = np.ascontiguousarray(rng.standard_normal((gates * CELL_HIDDEN, CELL_HIDDEN)).astype(np.float32).T)
    wt = np.ascontiguousarray(rng.standard_normal((gates * CELL_HIDDEN, CELL_INPUT)).astype(np.float32).T)
    hr = fastest(lambda: h @ rt, repeat, 500)
    xw = fastest(lambda: x @ wt, repeat, 500)
    hoisted = fastest(lambda: xs @ wt, repeat, 5) / CELL_STEPS
    return hr, xw, hoisted


def whole_steps(make, repeat: int) -> tuple[float, float, float]:  # type: ignore[no-untyped-def]
    """(irlint's whole step, irlint's cell kernel alone (one call, as the loop makes it), onnx.reference's
    step) in seconds for the model `make` builds."""
    from onnx.reference import ReferenceEvaluator

    import irlint
    from irlint.interp import executor, run
    from irlint.ops.rnn.cells import CellKernel

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cell.onnx"
        inputs = make(path)
        model = irlint.load(path.with_suffix(".xml"))
        ref = ReferenceEvaluator(str(path))
        feed = onnx_feed_lstm(inputs)
        ours = fastest(lambda: run(model, inputs), repeat, 1)
        theirs = fastest(lambda: ref.run(None, feed), repeat, 1)
        (cell,) = [entry[7] for _program, plan, _assigns in executor._BINDINGS.values() for entry in plan
                   if isinstance(entry[7], CellKernel)]  # the prepared kernel the runs keep
        x = inputs["X"][:, 0, :]
        state = [np.full((1, CELL_HIDDEN), 0.1, np.float32) for _ in range(2)]
        args = (x, *state)
        kernel = fastest(lambda: cell(args), repeat, 500)  # one whole step of the kernel, as the loop calls it
        executor._BINDINGS.clear()
    return ours / CELL_STEPS, kernel, theirs / CELL_STEPS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    print("| cell | H·Rᵀ (us) | x·Wᵀ (us) | x·Wᵀ hoisted (us/step) | irlint's cell kernel alone (us) "
          "| irlint step (us) "
          "| onnx.reference step (us) | onnx.reference / irlint | the same if a step were only the kernel | "
          "the same if it were only the products (x·Wᵀ hoisted) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, gates, make in (("LSTMCell", 4, lstm_cell_ti), ("GRUCell", 3, gru_cell_ti)):
        hr, xw, hoisted = products(gates, args.repeat)
        ours, kernel, theirs = whole_steps(make, args.repeat)
        print(f"| {name} | {hr * 1e6:.1f} | {xw * 1e6:.1f} | {hoisted * 1e6:.1f} | {kernel * 1e6:.1f} | "
              f"{ours * 1e6:.1f} | {theirs * 1e6:.1f} | {theirs / ours:.2f}x | {theirs / kernel:.2f}x | "
              f"{theirs / (hr + hoisted):.2f}x |")


if __name__ == "__main__":
    main()
