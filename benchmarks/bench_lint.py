"""Lint benchmark: `irlint check` against OpenVINO's `read_model` on the same files, whole process.

    .venv/bin/python benchmarks/bench_lint.py [--sizes 1000 10000 100000] [--runs 5] [--bin-gb 2]
                                              [--bin-layers 10000] [--many 64] [--work /tmp/irlint-bench]

Generates the inputs with benchmarks/gen_large.py (openvino API + save_model) unless they exist,
then measures, each in a fresh process and interleaved so machine noise hits both alike:
- `irlint check FILE` (all rules, shape inference included; a large model uses a second core),
  `irlint check -j 1 FILE` (one process) and
  `python -c "import openvino as ov; ov.Core().read_model(FILE)"`, plus lxml's parse of the same
  file for scale; median wall time and peak RSS (from wait4: the largest of the process and the
  children it forks, not their sum), and in one more, untimed run the peak of the summed PSS of
  the process tree (what the default two-process mode holds in all); MB are 10^6 bytes throughout;
- the same model with a `--bin-gb` GB .bin against its tiny-.bin twin (weights are never read);
- `irlint -j 1` vs `-j 2` over a directory of `--many` small IRs;
- `irlint --version` and `irlint check` on a small example (start-up).
Prints Markdown tables (docs/performance.md records a run). Run it on an idle machine: the
medians still move by ±15 % on a shared 2-core VM, which is why each ratio is measured side by side.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
IRLINT = [PY, "-m", "irlint"]
READ_MODEL = [PY, "-c", "import sys, openvino as ov; ov.Core().read_model(sys.argv[1])"]
LXML = [PY, "-c", "import sys, lxml.etree as e; e.parse(sys.argv[1])"]
# Measure an ordinary installation, whose bytecode is cached (some CI images disable writing it).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


@dataclass
class Sample:
    seconds: float
    rss_mb: float


def measure(cmd: list[str]) -> Sample:
    """Wall time and peak RSS of one process (stdout discarded); exit codes 0 and 1 both count as ran."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{err}")
    return Sample(seconds, usage.ru_maxrss * 1024 / 1e6)  # KiB -> MB, the unit of the XML sizes


def _tree(pid: int) -> list[int]:
    """A process and its descendants (from /proc)."""
    out = [pid]
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as f:
                for child in f.read().split():
                    out += _tree(int(child))
    except OSError:
        pass
    return out


def _pss_kib(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def summed_pss_mb(cmd: list[str]) -> float:
    """The peak of the summed PSS of a command's process tree, sampled every 10 ms (an untimed run:
    sampling costs CPU). PSS splits shared pages between the processes that share them, so the sum
    is the memory the whole command holds, where wait4's peak RSS is that of its largest process."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV)
    peak = 0
    while proc.poll() is None:
        peak = max(peak, sum(_pss_kib(p) for p in _tree(proc.pid)))
        time.sleep(0.01)
    return peak * 1024 / 1e6


def medians(samples: list[Sample]) -> Sample:
    return Sample(statistics.median(s.seconds for s in samples), statistics.median(s.rss_mb for s in samples))


def side_by_side(cmds: dict[str, list[str]], runs: int) -> dict[str, Sample]:
    for cmd in cmds.values():
        measure(cmd)  # warm-up: page cache, bytecode
    got: dict[str, list[Sample]] = {k: [] for k in cmds}
    for _ in range(runs):
        for name, cmd in cmds.items():
            got[name].append(measure(cmd))
    return {k: medians(v) for k, v in got.items()}


def generate(work: Path, sizes: list[int], bin_gb: float = 0.0) -> None:
    gen = [PY, str(ROOT / "benchmarks" / "gen_large.py"), str(work)]
    missing = [n for n in sizes if not (work / f"large_{n}.xml").exists()]
    if missing:
        subprocess.run([*gen, *map(str, missing)], check=True)
    if bin_gb:
        for n in sizes:
            if not (work / f"large_{n}_bin{bin_gb:g}gb.xml").exists():
                subprocess.run([*gen, str(n), "--bin-gb", str(bin_gb)], check=True)


def scale_table(work: Path, sizes: list[int], runs: int) -> None:
    print("| layers | XML | irlint check | peak RSS (x XML) | summed PSS (x XML) | irlint check -j 1 "
          "| peak RSS (x XML) | read_model | read_model peak RSS | irlint / read_model | -j 1 / read_model "
          "| lxml parse only |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for n in sizes:
        xml = work / f"large_{n}.xml"
        mb = xml.stat().st_size / 1e6
        m = side_by_side({"irlint": [*IRLINT, "check", str(xml)], "one": [*IRLINT, "check", "-j", "1", str(xml)],
                          "ov": [*READ_MODEL, str(xml)], "lxml": [*LXML, str(xml)]}, runs)
        ir, one, ov, lx = m["irlint"], m["one"], m["ov"], m["lxml"]
        pss = summed_pss_mb([*IRLINT, "check", str(xml)])
        print(f"| {n:,} | {mb:.1f} MB | {ir.seconds:.2f} s | {ir.rss_mb:.0f} MB ({ir.rss_mb / mb:.2f}x) "
              f"| {pss:.0f} MB ({pss / mb:.2f}x) "
              f"| {one.seconds:.2f} s | {one.rss_mb:.0f} MB ({one.rss_mb / mb:.2f}x) | {ov.seconds:.2f} s "
              f"| {ov.rss_mb:.0f} MB | {ir.seconds / ov.seconds:.2f} | {one.seconds / ov.seconds:.2f} "
              f"| {lx.seconds:.2f} s |", flush=True)


def weights_table(work: Path, n: int, bin_gb: float, runs: int) -> None:
    tiny, big = work / f"large_{n}.xml", work / f"large_{n}_bin{bin_gb:g}gb.xml"
    big_bin = big.with_suffix(".bin").stat().st_size / 1e9
    m = side_by_side({"tiny": [*IRLINT, "check", str(tiny)], "big": [*IRLINT, "check", str(big)]}, runs)
    print(f"\n| {n:,} layers | .bin | irlint check | peak RSS |\n| --- | --- | --- | --- |")
    print(f"| tiny .bin | {tiny.with_suffix('.bin').stat().st_size:,} B | {m['tiny'].seconds:.2f} s "
          f"| {m['tiny'].rss_mb:.0f} MB |")
    print(f"| big .bin | {big_bin:.2f} GB | {m['big'].seconds:.2f} s | {m['big'].rss_mb:.0f} MB |")
    print(f"\nbig/tiny time: {m['big'].seconds / m['tiny'].seconds:.3f}", flush=True)


def jobs_table(work: Path, many: int, runs: int) -> None:
    folder = work / f"many_{many}"
    if not folder.exists():
        folder.mkdir()
        src = work / "large_1000.xml"
        for i in range(many):
            shutil.copy(src, folder / f"m{i:03d}.xml")
            shutil.copy(src.with_suffix(".bin"), folder / f"m{i:03d}.bin")
    m = side_by_side({f"-j {j}": [*IRLINT, "check", "-j", str(j), str(folder)] for j in (1, 2)}, runs)
    print(f"\n| {many} IRs of 1,000 layers | wall | speed-up |\n| --- | --- | --- |")
    for name, s in m.items():
        print(f"| `irlint check {name}` | {s.seconds:.2f} s | {m['-j 1'].seconds / s.seconds:.2f}x |")
    print(f"(os.cpu_count() = {os.cpu_count()})", flush=True)


def startup_table(runs: int) -> None:
    small = ROOT / "examples" / "lstm_ti.xml"
    m = side_by_side({"--version": [*IRLINT, "--version"], "check small": [*IRLINT, "check", str(small)],
                      "python -c pass": [PY, "-c", "pass"]}, runs)
    print("\n| start-up | wall |\n| --- | --- |")
    for name, s in m.items():
        print(f"| `{name}` | {s.seconds:.3f} s |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    ap.add_argument("--runs", type=int, default=5, help="runs per command (the median is shown)")
    ap.add_argument("--bin-gb", type=float, default=2.0, help="size of the big .bin (0: skip that table)")
    ap.add_argument("--bin-layers", type=int, default=10000, help="layers of the big-.bin model and its twin")
    ap.add_argument("--many", type=int, default=64, help="small IRs in the -j directory (0: skip)")
    ap.add_argument("--work", type=Path, default=Path("/tmp/irlint-bench"), help="where inputs are generated")
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    sizes = sorted(args.sizes)
    generate(args.work, sizes)
    scale_table(args.work, sizes, args.runs)
    if args.bin_gb:
        generate(args.work, [args.bin_layers], args.bin_gb)
        weights_table(args.work, args.bin_layers, args.bin_gb, args.runs)
    if args.many:
        generate(args.work, [1000])
        jobs_table(args.work, args.many, args.runs)
    startup_table(args.runs)


if __name__ == "__main__":
    main()
