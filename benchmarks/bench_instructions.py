"""Instructions per interpreter run, counted by valgrind's cachegrind: a measure a shared machine's load
cannot move (wall and CPU times on the 2-core VM move by up to 50 % between processes).

    .venv/bin/python benchmarks/bench_instructions.py [--src DIR ...] [--only MODEL ...] [--runs 3] [--traced]

Builds bench_interp.py's models, then for each source tree (`--src`, default this checkout; give a
`git worktree` of an older commit to compare) runs each model once and `--runs` + 1 times in a fresh
Python under cachegrind (one BLAS thread) and prints (difference) / runs: the instructions of one
`irlint.interp.run` with the model loaded and its caches warm; with `--traced`, also of one run with a
`Trace` listening, and the tracing overhead in instructions. Needs `valgrind` (Debian package).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

RUNNER = """
import sys
sys.path.insert(0, sys.argv[1])
import numpy as np
import irlint
from irlint.interp import run
model = irlint.load(sys.argv[2])
inputs = dict(np.load(sys.argv[3]))
traced = sys.argv[5] == "traced"
if traced:
    from irlint.interp.trace import Trace
for _ in range(int(sys.argv[4])):
    if traced:
        trace = Trace()
        run(model, inputs, listener=trace)
        trace.close()
    else:
        run(model, inputs)
"""


def instructions(src: Path, xml: Path, npz: Path, runs: int, runner: Path, traced: bool = False) -> int:
    """Instructions of a fresh Python that loads `xml` and runs it `runs` times (irlint from `src`),
    with a trace listening when `traced`."""
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          sys.executable, str(runner), str(src), str(xml), str(npz), str(runs),
                          "traced" if traced else "plain"],
                         capture_output=True, text=True, env=env, timeout=1800, check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    if found is None:
        raise SystemExit(f"no instruction count in valgrind's output:\n{out.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def build(tmp: Path, steps: int) -> dict[str, tuple[Path, Path]]:
    """bench_interp's five models as IR + inputs in `tmp`."""
    import bench_interp as b
    import openvino as ov

    made = {}
    for name, make in (("lstm_scan", lambda p: b.lstm_scan_onnx(p, steps)),
                       ("while_loop", lambda p: b.while_loop_onnx(p, steps)),
                       ("lstm_cell_ti", b.lstm_cell_ti), ("gru_cell_ti", b.gru_cell_ti),
                       ("loop_in_ti", lambda p: b.loop_in_ti_onnx(p, steps))):
        path = tmp / f"{name}.onnx"
        inputs = make(path)
        xml = path.with_suffix(".xml")
        if not xml.exists():  # the ONNX models are converted; the cell models are written as IR directly
            ov.save_model(ov.convert_model(str(path)), str(xml), compress_to_fp16=False)
        np.savez(tmp / f"{name}.npz", **inputs)
        made[name] = (xml, tmp / f"{name}.npz")
    return made


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--src", nargs="*", type=Path, default=[HERE.parent], help="irlint source trees to compare")
    ap.add_argument("--only", nargs="*", help="model names (default: all five)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--traced", action="store_true", help="also count traced runs (a Trace listening)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        runner = tmp / "runner.py"
        runner.write_text(RUNNER)
        models = build(tmp, args.steps)
        heads = [str(s) for s in args.src] + [f"{s}, traced" for s in args.src if args.traced]
        print("| model | " + " | ".join(heads) + " |")
        print("| --- |" + " --- |" * len(heads))
        for name, (xml, npz) in models.items():
            if args.only and name not in args.only:
                continue
            counts = []
            for traced in (False, True) if args.traced else (False,):
                for src in args.src:
                    once = instructions(src, xml, npz, 1, runner, traced)
                    more = instructions(src, xml, npz, args.runs + 1, runner, traced)
                    counts.append((more - once) / args.runs)
            # each count against the first tree's plain run; a traced count against its own tree's plain run
            n = len(args.src)
            cells = [f"{c / 1e6:.1f} M" + (f" ({c / counts[i % n] - 1:+.0%})" if i >= n else
                                          f" ({c / counts[0] - 1:+.0%})" if i else "") for i, c in enumerate(counts)]
            print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
