"""The floor of tracing by reference: what listeners that do less than the
trace cost on the same run.

    .venv/bin/python benchmarks/bench_trace_floor.py [--steps 1000] [--rounds 31] [--only loop_in_ti ...]

A trace keeps every iteration's tensors, so a traced run cannot reuse the memory a plain run frees
each iteration, and the plain driver must hand the tensors over. This times, in one process, each
against a plain run right beside it (the plain run first in every other round), CPU time:
- `handed`: a listener that takes every batch and the nested loops' two calls per iteration and
  keeps nothing (what the executor's hooks cost, with each batch's tensors held until it is handed
  over: up to 1,024 iterations, as the trace asks for);
- `kept`: one that keeps every batch and every record of the two calls, counting nothing (the
  floor of any trace that holds each iteration's tensors);
- `trace`: irlint's `Trace` (the same, plus its estimate of each record's bytes; the exact count
  waits until the trace is read, which this does not do).
Prints the median over rounds of (listener's run) / (plain run) - 1, per model of bench_interp.py
built without the cell TensorIterators (their bodies are one cell: nothing to separate there).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_interp import loop_in_ti_onnx, lstm_scan_onnx, while_loop_onnx

MODELS = {"lstm_scan": lstm_scan_onnx, "while_loop": while_loop_onnx, "loop_in_ti": loop_in_ti_onnx}


class Handed:
    """Takes everything the plain driver hands over, in batches as large as the trace's, and keeps nothing."""

    layers = False

    def iteration_started(self, *_args: Any) -> None: ...

    def iteration_finished(self, *_args: Any) -> None: ...

    def layer_evaluated(self, *_args: Any) -> None: ...

    def batches(self, *_args: Any) -> Callable[[int, list[Any], Any], int]:
        return lambda first, values, frames: 1024


class Kept(Handed):
    """Keeps every record by reference, as the trace does, and counts nothing."""

    def __init__(self) -> None:
        self.log: list[Any] = []

    def iteration_started(self, *args: Any) -> None:
        self.log.append(args)

    def iteration_finished(self, *args: Any) -> None:
        self.log.append(args)

    def batches(self, *_args: Any) -> Callable[[int, list[Any], Any], int]:
        log = self.log

        def take(first: int, values: list[Any], frames: Any) -> int:
            log.append((first, values, frames))
            return 1024

        return take


def overheads(xml: Path, inputs: dict[str, np.ndarray], rounds: int) -> dict[str, float]:
    import irlint
    from irlint.interp import run
    from irlint.interp.trace import Trace

    model = irlint.load(xml)
    listeners: dict[str, Callable[[], Any]] = {"handed": Handed, "kept": Kept, "trace": Trace}
    for make in listeners.values():  # warm the caches
        run(model, inputs, listener=make())
    ratios: dict[str, list[float]] = {k: [] for k in listeners}

    def timed(make: Callable[[], Any] | None) -> float:
        t0 = time.process_time()
        listener = make() if make is not None else None
        run(model, inputs, listener=listener)
        del listener  # freeing what it kept is part of its cost
        return time.process_time() - t0

    for r in range(rounds):
        for name, make in listeners.items():
            if r % 2 == 0:
                plain, heard = timed(None), timed(make)
            else:
                heard, plain = timed(make), timed(None)
            ratios[name].append(heard / plain)
    return {k: (statistics.median(v) - 1) * 100 for k, v in ratios.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=31)
    ap.add_argument("--only", nargs="*", choices=sorted(MODELS))
    args = ap.parse_args()
    print("| model | listener that keeps nothing | listener that keeps, counting nothing | Trace |")
    print("| --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.only or MODELS:
            import openvino as ov

            path = Path(tmp) / f"{name}.onnx"
            inputs = MODELS[name](path, args.steps)
            xml = path.with_suffix(".xml")
            ov.save_model(ov.convert_model(str(path)), str(xml), compress_to_fp16=False)
            got = overheads(xml, inputs, args.rounds)
            print(f"| {name} | {got['handed']:+.1f} % | {got['kept']:+.1f} % | {got['trace']:+.1f} % |")


if __name__ == "__main__":
    main()
