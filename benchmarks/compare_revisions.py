"""The interpreter and lint benchmarks for the working tree and another revision, side by side in one run.

    .venv/bin/python benchmarks/compare_revisions.py REV [--rounds 5] [--runs 20] [--steps 10]
                                                     [--lint-layers 100000] [--lint-runs 3] [--dry-run]

REV (any commit-ish, e.g. `main` or `$(git log --until=2026-11-24 -1 --format=%H main)`) is checked out
into a temporary git worktree outside the repository, removed afterwards; the working tree is never
touched. A is REV, B the working tree: B/A above 1 means the working tree is slower.

- Interpreter: one long-lived worker process per tree loads the same models (written once by this
  process with the openvino and onnx APIs) with its tree's irlint and compiles them with OpenVINO's
  CPU plugin (1 thread, {"INFERENCE_PRECISION_HINT": "f32"}), the yardstick. Each round asks A and B
  in turn (the order alternating) for `--runs` runs of a model, interleaving irlint, OpenVINO and
  irlint with a `Trace` listener. Per model: irlint's milliseconds (min and median of every run), x
  OpenVINO (irlint's fastest run over OpenVINO's fastest), tracing's cost (the median of traced over
  plain, beside each other, and the fastest traced run over the fastest plain one), and B/A (the
  median over rounds of B's median over A's).
- Lint: `irlint check` of a `--lint-layers` model (benchmarks/gen_large.py) as whole processes, A and
  B alternating with OpenVINO's `read_model` of the same file: wall seconds and CPU seconds (the
  process and the helper it forks; a busy machine moves them less than wall time), x read_model, B/A.

The machine's load moves single runs a lot; ratios of runs made side by side move far less, so read
the ratios. Every worker request and process has a timeout (`--timeout`).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODELS = ("loop_in_ti", "lstm_scan", "while_loop", "small_lstm_cell_ti")
SMALL_CELL = {"steps": 64, "hidden": 32, "inp": 16}  # numpy's per-call floor, not BLAS, decides its time
OV_CONFIG = {"INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": 1}
READ_MODEL = "import sys, openvino as ov; ov.Core().read_model(sys.argv[1])"
# Measure an ordinary installation, whose bytecode is cached (some CI images disable writing it).
ENV = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}


# -- running a tree's irlint ---------------------------------------------------------------------------


def use_tree(tree: Path) -> None:
    """Import irlint (and its rules/ and viewer/ packages, mapped as setup.py maps them) from `tree`,
    ahead of the installed editable copy."""
    from importlib.machinery import PathFinder
    from importlib.util import spec_from_file_location

    mapping = {"irlint": tree / "irlint", "irlint.rules": tree / "rules", "irlint.viewer": tree / "viewer"}

    class TreeFinder:
        @classmethod
        def find_spec(cls, fullname, path=None, target=None):  # type: ignore[no-untyped-def]
            if fullname in mapping:
                return spec_from_file_location(
                    fullname, mapping[fullname] / "__init__.py", submodule_search_locations=[str(mapping[fullname])]
                )
            parent = fullname.rpartition(".")[0]
            if parent in mapping:
                return PathFinder.find_spec(fullname, [str(mapping[parent])])
            return None

    sys.meta_path.insert(0, TreeFinder)  # type: ignore[arg-type]


def run_irlint(tree: Path, argv: Sequence[str]) -> None:
    """`irlint ARGV` with `tree`'s code (the lint processes)."""
    import runpy

    use_tree(tree)
    sys.argv = ["irlint", *argv]
    runpy.run_module("irlint", run_name="__main__", alter_sys=True)


def worker(tree: Path, models: Path) -> None:
    """Serve timing requests on stdin (one JSON line each: {"model": name, "runs": n}) with `tree`'s
    irlint; answer each with one JSON line of lists of seconds."""
    import numpy as np

    use_tree(tree)
    import openvino as ov

    import irlint
    from irlint.interp import run
    from irlint.interp.trace import Trace

    assert Path(irlint.__file__).resolve().is_relative_to(tree.resolve()), irlint.__file__
    core = ov.Core()
    loaded = {}
    for xml in sorted(models.glob("*.xml")):
        inputs = dict(np.load(xml.with_suffix(".npz")))
        model = irlint.load(xml)
        ov_model = core.read_model(str(xml))
        compiled = core.compile_model(ov_model, "CPU", OV_CONFIG)
        feed = [inputs[p.get_friendly_name()] for p in ov_model.get_parameters()]
        ours, theirs = run(model, inputs), compiled(feed)
        agree = all(
            np.allclose(ours[r.get_friendly_name()], np.asarray(theirs[i]), rtol=1e-3, atol=1e-4)
            for i, r in enumerate(ov_model.get_results())
        )
        loaded[xml.stem] = (model, inputs, compiled, feed, agree)
    clock = time.perf_counter
    print(json.dumps({"ready": sorted(loaded)}), flush=True)
    for line in sys.stdin:
        req = json.loads(line)
        model, inputs, compiled, feed, agree = loaded[req["model"]]
        plain, openvino, traced = [], [], []

        def plain_run(model=model, inputs=inputs) -> float:  # type: ignore[no-untyped-def]
            t0 = clock()
            run(model, inputs)
            return clock() - t0

        def traced_run(model=model, inputs=inputs) -> float:  # type: ignore[no-untyped-def]
            trace = Trace()
            t0 = clock()
            run(model, inputs, listener=trace)
            seconds = clock() - t0
            trace.close()
            return seconds

        for i in range(req["runs"]):
            t0 = clock()
            compiled(feed)
            openvino.append(clock() - t0)
            # A run right after OpenVINO's finds irlint's code and data colder: plain and traced take
            # that place in turn, so that tracing's ratio is not tilted either way.
            if i % 2:
                traced.append(traced_run())
                plain.append(plain_run())
            else:
                plain.append(plain_run())
                traced.append(traced_run())
        print(json.dumps({"irlint": plain, "openvino": openvino, "traced": traced, "agree": agree}), flush=True)


class Worker:
    """A worker process for one tree, with a timeout on every answer."""

    def __init__(self, tree: Path, models: Path, timeout: float) -> None:
        self.timeout = timeout
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker", str(tree), str(models)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=ENV,
            cwd=tempfile.gettempdir(),
        )
        self.ready = self.answer()["ready"]

    def ask(self, model: str, runs: int) -> dict:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"model": model, "runs": runs}) + "\n")
        self.proc.stdin.flush()
        return self.answer()

    def answer(self) -> dict:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], self.timeout)
        line = self.proc.stdout.readline() if ready else ""
        if not line:
            self.close()
            raise SystemExit(f"a benchmark worker gave no answer within {self.timeout:g} s (or died)")
        return json.loads(line)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


# -- summaries (pure: tested) --------------------------------------------------------------------------


@dataclass
class Side:
    """One tree's samples of one benchmark: per round, the list of run times (and OpenVINO's beside)."""

    rounds: list[list[float]] = field(default_factory=list)
    yardstick: list[list[float]] = field(default_factory=list)
    traced: list[list[float]] = field(default_factory=list)

    def all(self) -> list[float]:
        return [t for r in self.rounds for t in r]

    def x_yardstick(self) -> float:
        """The fastest run over the yardstick's fastest, both from the same rounds: a busy machine slows
        OpenVINO's thread hand-offs far more than irlint's one thread, so medians of the pairs wander."""
        return min(self.all()) / min(t for r in self.yardstick for t in r)

    def tracing(self) -> float | None:
        """Traced over plain: the median of the pairs run side by side, less one."""
        if not self.traced:
            return None
        return statistics.median(t / p for r, tr in zip(self.rounds, self.traced) for p, t in zip(r, tr)) - 1

    def tracing_of_minima(self) -> float | None:
        """The fastest traced run over the fastest plain one, less one (what load moves least)."""
        if not self.traced:
            return None
        return min(t for r in self.traced for t in r) / min(self.all()) - 1


def ratio(a: Side, b: Side) -> float:
    """B/A: the median over rounds of B's median over A's median in the same round."""
    return statistics.median(statistics.median(rb) / statistics.median(ra) for ra, rb in zip(a.rounds, b.rounds))


def row(name: str, a: Side, b: Side, unit: float) -> str:
    """One table row: times in `unit`s (1e3: ms), x yardstick, tracing's cost, B/A by medians and by minima."""

    def fmt(s: Side) -> str:
        times = s.all()
        return f"{min(times) * unit:.3g} / {statistics.median(times) * unit:.3g}"

    def pct(x: float | None) -> str:
        return "" if x is None else f"{x * 100:+.0f}%"

    def tracing(s: Side) -> str:
        return "" if s.tracing() is None else f"{pct(s.tracing())} / {pct(s.tracing_of_minima())}"

    cells = [
        name,
        fmt(a),
        fmt(b),
        f"{a.x_yardstick():.2f}x",
        f"{b.x_yardstick():.2f}x",
        tracing(a),
        tracing(b),
        f"{ratio(a, b):.3f}",
        f"{min(b.all()) / min(a.all()):.3f}",
    ]
    return "| " + " | ".join(cells) + " |"


HEADER = (
    "| benchmark | A {u} (min / median) | B {u} (min / median) | A x {y} | B x {y} "
    "| A tracing (median / minima) | B tracing (median / minima) | B/A | B/A of minima |\n"
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
)


def table(rows: dict[str, tuple[Side, Side]], unit: float, unit_name: str, yardstick: str) -> str:
    """The Markdown table of every benchmark's two sides."""
    lines = [HEADER.format(u=unit_name, y=yardstick)]
    lines += [row(name, a, b, unit) for name, (a, b) in rows.items()]
    return "\n".join(lines)


def parse_table(text: str) -> dict[str, dict[str, str]]:
    """The rows of a printed table by benchmark, each by column title (for scripts that compare runs)."""
    lines = [ln for ln in text.splitlines() if ln.startswith("| ")]
    if not lines:
        return {}
    titles = [c.strip() for c in lines[0].strip("|").split("|")]
    rows = {}
    for ln in lines[1:]:
        cells = [c.strip() for c in ln.strip("|").split("|")]
        if not cells[0].startswith("---") and len(cells) == len(titles):
            rows[cells[0]] = dict(zip(titles, cells))
    return rows


# -- the run -------------------------------------------------------------------------------------------


def git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True, timeout=120
    ).stdout.strip()


def write_models(out: Path, steps: int, only: Sequence[str]) -> None:
    """The benchmark models as IR (.xml) with their inputs (.npz), from bench_interp's generators."""
    import numpy as np
    import openvino as ov

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_interp as b

    makers = {
        "loop_in_ti": lambda p: b.loop_in_ti_onnx(p, steps),
        "lstm_scan": lambda p: b.lstm_scan_onnx(p, steps),
        "while_loop": lambda p: b.while_loop_onnx(p, steps),
        "small_lstm_cell_ti": lambda p: b.lstm_cell_ti(p, **SMALL_CELL),
    }
    for name in only:
        onnx_path = out / f"{name}.onnx"
        inputs = makers[name](onnx_path)
        xml = out / f"{name}.xml"
        if not xml.exists():  # the cell writes its IR itself; the others are converted from ONNX
            ov.save_model(ov.convert_model(str(onnx_path)), str(xml), compress_to_fp16=False)
        np.savez(xml.with_suffix(".npz"), **inputs)
        onnx_path.unlink()


def timed_process(cmd: list[str], timeout: float) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its children) of one command; exit 0 or 1 (findings)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=ENV, timeout=timeout, cwd=tempfile.gettempdir()
    )
    seconds = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):  # 1: findings
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr.decode(errors='replace')}")
    return seconds, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def interp_rounds(
    trees: dict[str, Path], models: Path, names: Sequence[str], args: argparse.Namespace
) -> dict[str, tuple[Side, Side]]:
    workers = {side: Worker(tree, models, args.timeout) for side, tree in trees.items()}
    try:
        sides = {name: (Side(), Side()) for name in names}
        disagree = set()
        for r in range(args.rounds):
            order = ("A", "B") if r % 2 == 0 else ("B", "A")
            for name in names:
                for side in order:
                    got = workers[side].ask(name, args.runs)
                    s = sides[name][0 if side == "A" else 1]
                    s.rounds.append(got["irlint"])
                    s.yardstick.append(got["openvino"])
                    s.traced.append(got["traced"])
                    if not got["agree"]:
                        disagree.add(f"{name} ({side})")
            print(f"interpreter round {r + 1} of {args.rounds} done", file=sys.stderr, flush=True)
        if disagree:
            print(f"outputs differ from OpenVINO's: {', '.join(sorted(disagree))}", file=sys.stderr)
        return sides
    finally:
        for w in workers.values():
            w.close()


def lint_rounds(trees: dict[str, Path], xml: Path, args: argparse.Namespace) -> dict[str, tuple[Side, Side]]:
    """`irlint check` of `xml` per tree, A and B in turn beside read_model: wall and CPU time."""
    wall, cpu = (Side(), Side()), (Side(), Side())
    me = str(Path(__file__).resolve())
    for r in range(args.lint_runs):
        order = ("A", "B") if r % 2 == 0 else ("B", "A")
        read = timed_process([sys.executable, "-c", READ_MODEL, str(xml)], args.timeout)
        for side in order:
            got = timed_process(
                [sys.executable, me, "--in-tree", str(trees[side]), "--", "check", str(xml)], args.timeout
            )
            for sides, mine, theirs in ((wall, got[0], read[0]), (cpu, got[1], read[1])):
                s = sides[0 if side == "A" else 1]
                s.rounds.append([mine])
                s.yardstick.append([theirs])
        print(f"lint round {r + 1} of {args.lint_runs} done", file=sys.stderr, flush=True)
    return {"irlint check (wall)": wall, "irlint check (CPU)": cpu}


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("rev", help="the revision to compare the working tree with (A; the working tree is B)")
    ap.add_argument("--rounds", type=int, default=5, help="interpreter rounds (A and B each once a round)")
    ap.add_argument("--runs", type=int, default=20, help="runs of each model per side and round")
    ap.add_argument("--steps", type=int, default=10, help="time steps of the Scan/Loop models")
    ap.add_argument("--only", nargs="+", choices=MODELS, default=list(MODELS), help="interpreter models")
    ap.add_argument("--lint-layers", type=int, default=100_000, help="layers of the lint model (0: no lint)")
    ap.add_argument("--lint-runs", type=int, default=3, help="whole-process lint runs per side")
    ap.add_argument(
        "--work",
        type=Path,
        default=Path(tempfile.gettempdir()) / "irlint-bench",
        help="where gen_large.py's lint models are kept between runs",
    )
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds any one request or process may take")
    ap.add_argument("--dry-run", action="store_true", help="print what would run, run nothing")
    args = ap.parse_args(argv)
    for name in ("rounds", "runs", "steps", "lint_runs"):
        if getattr(args, name) < 1:
            ap.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.lint_layers < 0 or args.timeout <= 0:
        ap.error("--lint-layers must be >= 0 and --timeout > 0")
    return args


def plan(args: argparse.Namespace) -> list[str]:
    """What a run does, in order (printed by --dry-run)."""
    steps = [
        f"check out {args.rev} into a temporary git worktree (A); the working tree {ROOT} is B",
        f"write models {', '.join(args.only)} (steps {args.steps}; small_lstm_cell_ti {SMALL_CELL})",
    ]
    steps += [
        f"{args.rounds} interpreter rounds x {len(args.only)} models x 2 sides x {args.runs} runs "
        "(irlint, OpenVINO 1 thread f32, irlint traced)"
    ]
    if args.lint_layers:
        steps += [
            f"{args.lint_runs} lint rounds: irlint check of large_{args.lint_layers}.xml per side, read_model beside"
        ]
    steps += ["remove the temporary worktree"]
    return steps


def main(argv: Sequence[str] | None = None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--worker"]:
        return worker(Path(argv[1]), Path(argv[2]))
    if argv[:1] == ["--in-tree"]:
        return run_irlint(Path(argv[1]), argv[3:] if argv[2:3] == ["--"] else argv[2:])
    args = parse_args(argv)
    if args.dry_run:
        print("\n".join(plan(args)))
        return None
    commit = git("rev-parse", "--verify", f"{args.rev}^{{commit}}")
    here = git("rev-parse", "--short", "HEAD") + (
        " + changes" if git("status", "--porcelain", "--", "irlint", "rules") else ""
    )
    tmp = Path(tempfile.mkdtemp(prefix="irlint-compare-"))
    tree = tmp / "tree"
    try:
        git("worktree", "add", "--detach", str(tree), commit)
        models = tmp / "models"
        models.mkdir()
        write_models(models, args.steps, args.only)
        trees = {"A": tree, "B": ROOT}
        interp = interp_rounds(trees, models, args.only, args)
        lint = None
        if args.lint_layers:
            xml = args.work / f"large_{args.lint_layers}.xml"
            if not xml.exists():
                subprocess.run(
                    [sys.executable, str(ROOT / "benchmarks" / "gen_large.py"), str(args.work), str(args.lint_layers)],
                    check=True,
                    timeout=args.timeout,
                    stdout=subprocess.DEVNULL,
                )
            lint = lint_rounds(trees, xml, args)
    finally:
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], capture_output=True, timeout=120
        )
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"A = {args.rev} ({commit[:10]}), B = the working tree ({here}); B/A above 1: B is slower.")
    print(
        f"Interpreter: {args.rounds} rounds of {args.runs} runs per side and model, steps {args.steps}; "
        "OpenVINO CPU, 1 thread, f32 hint.\n"
    )
    print(table(interp, 1e3, "ms", "OpenVINO"))
    if lint is not None:
        print(f"\nLint of {args.lint_layers:,} layers, whole process, {args.lint_runs} runs per side:\n")
        print(table(lint, 1.0, "s", "read_model"))
    return None


if __name__ == "__main__":
    main()
