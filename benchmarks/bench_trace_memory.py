"""What a trace's bookkeeping costs: peak RSS of `irlint run --trace` on a TensorIterator of tiny tensors.

    .venv/bin/python benchmarks/bench_trace_memory.py [--slices 100000 1000000] [--budget BYTES ...]

The model (built with the openvino API) slices X [1, N] into N iterations; the body adds each slice
to the carried state (h += x) and gives it back twice (the next state and a concatenated output): four
4-byte tensors an iteration. Their values are a few MB; what a trace holds besides them (an array
object per tensor, the log, keys, statistics, the spill index) is what this measures. Each run is a
fresh `irlint run --trace` under `/usr/bin/time -v` (peak RSS: "Maximum resident set size"), against
the same run without `--trace`.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_interp import state_ti

ROOT = Path(__file__).resolve().parents[1]


def tiny_ti(path: Path, slices: int) -> Path:
    """The TensorIterator above as `path` (.xml and .bin), and its input as `path.npz`."""
    import openvino as ov
    import openvino.opset13 as ops

    x = ops.parameter([1, slices], np.float32, name="X")
    h0 = ops.parameter([1, 1], np.float32, name="H0")
    xi = ops.parameter([1, 1], np.float32)
    hi = ops.parameter([1, 1], np.float32)
    add = ops.add(xi, hi)
    rh, ry = ops.result(add), ops.result(add)
    model = state_ti(x, h0, xi, hi, rh, ry, "tiny_ti")
    ov.save_model(model, str(path.with_suffix(".xml")), compress_to_fp16=False)
    np.savez(path.with_suffix(".npz"), X=np.arange(slices, dtype=np.float32)[None] % 7, H0=np.zeros((1, 1), np.float32))
    return path.with_suffix(".xml")


def peak(cmd: list[str], timeout: float) -> tuple[int, float, int]:
    """(peak RSS in bytes, wall seconds, exit code) of `cmd` under /usr/bin/time -v."""
    start = time.monotonic()
    res = subprocess.run(["/usr/bin/time", "-v", *cmd], capture_output=True, text=True, timeout=timeout)
    wall = time.monotonic() - start
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", res.stderr)
    if m is None:
        raise RuntimeError(res.stderr[-2000:])
    return int(m.group(1)) * 1024, wall, res.returncode


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--slices", type=int, nargs="+", default=[100_000, 1_000_000])
    ap.add_argument("--budget", type=int, nargs="+", default=[512 * 1024**2, 64 * 1024**2],
                    help="--trace-budget values to run with (default: 512 MiB, 64 MiB)")
    ap.add_argument("--timeout", type=float, default=1200)
    args = ap.parse_args()
    irlint = [sys.executable, "-m", "irlint"]
    with tempfile.TemporaryDirectory(prefix="irlint-bench-") as tmp:
        print("| slices | tensors traced | --trace-budget | peak RSS, no trace | peak RSS, --trace | .npz | wall |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        for n in args.slices:
            xml = tiny_ti(Path(tmp) / f"ti{n}", n)
            run = [*irlint, "run", str(xml), "--inputs", str(xml.with_suffix(".npz")), "--max-iterations", str(n),
                   "--max-body-runs", str(n)]
            plain, _w, code = peak(run, args.timeout)
            assert code == 0, code
            for budget in args.budget:
                out = Path(tmp) / "t.npz"
                rss, wall, code = peak([*run, "--trace", str(out), "--trace-budget", str(budget)], args.timeout)
                assert code == 0, code
                size = out.stat().st_size
                out.unlink()
                shown = f"{budget / 1024**2:g} MiB" if budget >= 1024**2 else f"{budget:,} B"
                print(f"| {n:,} | {4 * n:,} | {shown} | {plain / 1e6:.0f} MB | {rss / 1e6:.0f} MB | "
                      f"{size / 1e6:.0f} MB | {wall:.1f} s |", flush=True)


if __name__ == "__main__":
    main()
