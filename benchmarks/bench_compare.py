"""`irlint compare --inside` against a plain `irlint compare` on a 1,000-step LSTM TensorIterator.

Both run as processes (as a user runs them), interleaved, `--repeat` times each; the ratio of the
medians is what docs/performance.md reports. The model (16 inputs, 32 hidden units, random
inputs from seed 0) is written by OpenVINO into a temporary folder.

Usage: .venv/bin/python benchmarks/bench_compare.py [--steps 1000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.cli.compare_models import lstm_ti, save


def timed(cmd: list[str]) -> float:
    t = time.perf_counter()
    res = subprocess.run(cmd, capture_output=True, text=True, timeout=1200)
    took = time.perf_counter() - t
    if res.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({res.returncode}):\n{res.stderr}")
    return took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        xml = save(lstm_ti(args.steps), Path(tmp) / "lstm.xml")
        base = [sys.executable, "-m", "irlint", "compare", str(xml), "--random-inputs"]
        plain, inside = [], []
        for _ in range(args.repeat):
            plain.append(timed(base))
            inside.append(timed([*base, "--inside"]))
    p, i = statistics.median(plain), statistics.median(inside)
    print(f"plain compare: median {p:.2f} s ({', '.join(f'{x:.2f}' for x in plain)})")
    print(f"compare --inside: median {i:.2f} s ({', '.join(f'{x:.2f}' for x in inside)})")
    print(f"ratio: {i / p:.2f}x")


if __name__ == "__main__":
    main()
