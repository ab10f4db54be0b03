"""What `run`, `trace` and `compare` share: loading and linting the model, building the inputs."""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from irlint.cli.argtypes import non_negative_int, positive_float, positive_int
from irlint.cli.arrays import load_npy, load_npz
from irlint.cli.command import UsageError
from irlint.cli.paths import atomic_write, regular_file
from irlint.cli.printing import safe
from irlint.diagnostics import Severity
from irlint.interp import DepartureWarning, Options
from irlint.interp.executor import DEFAULT_MAX_BODY_RUNS
from irlint.ir.declared import declared_info
from irlint.ir.loader import LoadError, default_weights_path, load
from irlint.ir.model import Model

# Codes meaning "this file could not be read as an IR" (exit 2, as in `check`).
UNCHECKABLE = {"IR001", "IR002", "IR900"}
# ... and for the commands that run the model, its weights file missing or unusable (W301): nothing to run.
UNRUNNABLE = UNCHECKABLE | {"W301"}


@contextmanager
def departures() -> Iterator[None]:
    """Around a run: where the interpreter warns that OpenVINO's CPU plugin fails or gives undefined
    values (`DepartureWarning`, docs/semantics.md), one `warning:` line on stderr each, after the run."""
    caught: list[warnings.WarningMessage] = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", DepartureWarning)
            yield
    finally:  # outside the recording: a warning passed on inside it was recorded again, for ever
        for w in caught:
            if issubclass(w.category, DepartureWarning):
                print(f"warning: {safe(str(w.message))}", file=sys.stderr)
            else:
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)


class ModelHasErrors(Exception):
    """The model has lint errors; they were printed (exit 1)."""


def add_model_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", help="the IR .xml")
    p.add_argument("--weights", metavar="PATH", help="the .bin (default: MODEL.bin)")
    p.add_argument("--inputs", metavar="IN.npz", help="inputs keyed by top-level Parameter name")
    p.add_argument("assign", nargs="*", metavar="NAME=FILE.npy", help="an input from a .npy file")
    p.add_argument(
        "--random-inputs",
        action="store_true",
        help="fill inputs that are not given with random values (from --seed); said prominently",
    )
    p.add_argument("--seed", type=non_negative_int, default=0, help="seed for --random-inputs (default 0)")
    p.add_argument(
        "--shape",
        action="append",
        default=[],
        metavar="NAME=D0,D1,...",
        help="the concrete shape of an input with dynamic dims (random inputs)",
    )
    p.add_argument(
        "--max-iterations",
        type=positive_int,
        default=100_000,
        metavar="N",
        help="stop an unbounded Loop after N iterations (default 100000)",
    )
    p.add_argument(
        "--max-body-runs",
        type=positive_int,
        default=DEFAULT_MAX_BODY_RUNS,
        metavar="N",
        help="stop the run after N body executions, the iterations of every Loop and TensorIterator "
        f"at every nesting depth together (default {DEFAULT_MAX_BODY_RUNS})",
    )
    p.add_argument(
        "--time-limit",
        type=positive_float,
        default=None,
        metavar="SECONDS",
        help="stop irlint's run after this much wall-clock time (checked between loop iterations; "
        "default: none, for compare: --timeout)",
    )
    p.add_argument(
        "--memory-budget",
        type=positive_int,
        default=4 * 1024**3,
        metavar="BYTES",
        help="refuse any tensor larger than this (default 4 GiB)",
    )


def options(args: argparse.Namespace) -> Options:
    """The interpreter's bounds; `compare` bounds its own run by `--timeout` too unless `--time-limit`
    says otherwise (its `--timeout` used to bound only OpenVINO's side)."""
    limit = getattr(args, "time_limit", None)
    if limit is None:
        limit = getattr(args, "timeout", None)
    return Options(
        max_iterations=args.max_iterations,
        memory_budget=args.memory_budget,
        max_body_runs=getattr(args, "max_body_runs", DEFAULT_MAX_BODY_RUNS),
        time_limit=limit,
    )


def load_checked(args: argparse.Namespace) -> Model:
    """Load and lint; print the errors and raise ModelHasErrors if there are any."""
    from irlint.api import check_model, list_rules
    from irlint.report import render
    from irlint.report.ruleinfo import RuleInfo

    regular_file(args.model, "model")
    try:
        model = load(args.model, args.weights)
    except LoadError as e:
        raise UsageError(str(e)) from e
    diags = [d for d in check_model(model) if d.severity is Severity.ERROR]
    if diags:
        rules = {r.code: RuleInfo.from_rule(r) for r in list_rules()}
        sys.stderr.write(render("text", diags, files=[args.model], rules=rules))
        unreadable = sorted({d.code for d in diags} & UNRUNNABLE)
        if unreadable:  # the file (or its weights) could not be read: exit 2, like `check` on a malformed file
            raise UsageError(f"{args.model} could not be read as a model to run ({', '.join(unreadable)})")
        sys.stderr.write("irlint: the model has errors; fix them before running it\n")
        raise ModelHasErrors
    return model


def input_paths(args: argparse.Namespace) -> list[tuple[str, str | None]]:
    """Every file a run reads, as (option, path): what no output may overwrite."""
    paths: list[tuple[str, str | None]] = [
        ("MODEL", args.model),
        ("--weights", args.weights or default_weights_path(args.model)),
        ("--inputs", getattr(args, "inputs", None)),
    ]
    paths += [(item, item.partition("=")[2]) for item in getattr(args, "assign", [])]
    return paths


def build_inputs(model: Model, args: argparse.Namespace) -> tuple[dict[str, np.ndarray], list[str]]:
    """Inputs from --inputs / NAME=FILE.npy; with --random-inputs random ones (from --seed) for the rest.

    Without --random-inputs a missing input is a usage error naming the Parameter: silently invented
    inputs make results that look real. Returns the notes saying which inputs are random.
    """
    given: dict[str, np.ndarray] = {}
    if args.inputs:
        given.update(load_npz(args.inputs, "--inputs", args.memory_budget))
        if "" in given:
            raise UsageError(f"--inputs {args.inputs} is a single .npy; give it as NAME={args.inputs}")
    for item in args.assign:
        name, sep, file = item.partition("=")
        if not sep:
            raise UsageError(f"{item!r}: expected NAME=FILE.npy")
        given[name] = load_npy(file, item, args.memory_budget)
    shapes = {}
    for item in args.shape:
        name, _, dims = item.partition("=")
        try:
            shapes[name] = [int(d) for d in dims.split(",") if d.strip()]
        except ValueError as e:
            raise UsageError(f"--shape {item!r}: dims must be integers") from e
        if any(d < 0 for d in shapes[name]):
            raise UsageError(f"--shape {item!r}: dims must be 0 or more")
    names = [p.name for p in model.graph.parameters()]
    unknown = sorted(set(given) - set(names))
    if unknown:
        raise UsageError(f"inputs {unknown} match no Parameter (the model's inputs: {names})")
    missing = [p.name for p in model.graph.parameters() if p.name not in given]
    if missing and not getattr(args, "random_inputs", False):
        raise UsageError(
            f"RUN-INPUT: no input for Parameter{'s' if len(missing) > 1 else ''} "
            f"{', '.join(repr(m) for m in missing)}: give --inputs IN.npz or NAME=FILE.npy, or "
            "--random-inputs to fill them with random values"
        )
    rng = np.random.default_rng(args.seed)
    notes = []
    for p in model.graph.parameters():
        if p.name in given:
            continue
        info = declared_info(p)
        if info.etype is not None and info.etype.name == "string":
            raise UsageError(f"Parameter '{p.name}' is a string tensor: give it with --inputs (a str or bytes array)")
        if info.etype is None or info.etype.dtype is None or info.shape is None:
            raise UsageError(f"Parameter '{p.name}' has no static type/rank; give it with --inputs")
        shape = shapes.get(p.name) or [d.value if d.value is not None else max(d.lo, 1) for d in info.shape]
        dtype = info.etype.dtype
        nbytes = int(np.prod(shape, dtype=np.float64)) * dtype.itemsize
        if nbytes > args.memory_budget:
            raise UsageError(
                f"a random input for '{p.name}' of shape {shape} would take {nbytes} bytes, more than "
                f"--memory-budget {args.memory_budget}; give the input or a --shape"
            )
        if dtype.kind == "f":
            arr = rng.standard_normal(shape).astype(dtype)
        elif dtype.kind == "b":
            arr = rng.integers(0, 2, shape).astype(bool)
        else:
            arr = rng.integers(0, 4, shape).astype(dtype)
        given[p.name] = arr
        notes.append(f"RANDOM input '{p.name}': {info.etype}{list(shape)} (--random-inputs, seed {args.seed})")
    return given, notes


def announce(notes: list[str], stdout: bool = True) -> None:
    """Say which inputs are random: on stderr as warnings and, so that it travels with the results,
    one line on stdout too."""
    for n in notes:
        sys.stderr.write(f"warning: {safe(n)}\n")
    if notes and stdout:
        print(f"# results from RANDOM inputs ({len(notes)} of them; see the warnings above)")


def describe(name: str, a: np.ndarray) -> str:
    from irlint.interp.trace import stats

    s = stats(a)
    extra = ""
    if "min" in s:
        extra = f" min {s['min']:.6g} max {s['max']:.6g} mean {s['mean']:.6g}" if s["min"] is not None else ""
        if s.get("nan") or s.get("inf"):
            extra += f" nan {s['nan']} inf {s['inf']}"
    return f"{safe(name):<24} {a.dtype!s:<8} {list(a.shape)!s:<18}{extra}"


def write_npz(path: str, arrays: dict[str, np.ndarray]) -> None:
    """Write atomically (a temporary file renamed over `path`): a failure leaves no half-written file."""
    from irlint.ops.misc.strings import for_npz

    arrays = {k: for_npz(v) for k, v in arrays.items()}  # string tensors as 'S' arrays: no pickle
    atomic_write(path, lambda f: np.savez(f, **arrays))
