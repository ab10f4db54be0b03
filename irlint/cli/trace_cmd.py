"""`irlint trace MODEL.xml --watch LAYER...`: a table of watched tensors per loop iteration;
`--find-nonfinite [--magnitude X]`: where the first NaN/Inf (or |value| > X) is made, at any depth."""

from __future__ import annotations

import argparse
import sys

import numpy as np

from irlint.cli.command import EXIT_CLEAN, EXIT_FAILURE, EXIT_FINDINGS, Command, UsageError
from irlint.cli.paths import check_outputs
from irlint.cli.printing import out_of_memory, run_error, safe
from irlint.cli.run_support import (
    ModelHasErrors,
    add_model_arguments,
    announce,
    build_inputs,
    departures,
    input_paths,
    load_checked,
    options,
)
from irlint.cli.state_file import add_state_arguments, load_state, state_paths
from irlint.layerpath import iteration_label


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_model_arguments(p)
    p.add_argument("--watch", nargs="+", default=[], metavar="LAYER",
                   help="layers to watch, by id path (2/body/7) or name")
    p.add_argument("--find-nonfinite", action="store_true",
                   help="stop at the first layer and iteration that makes a NaN or Inf and report it (exit 1; "
                        "0 when there is none)")
    p.add_argument("--magnitude", type=float, metavar="X",
                   help="with --find-nonfinite: also stop at the first |value| > X")
    p.add_argument("--iterations", metavar="A:B", help="only iterations A..B-1 of the innermost loop")
    p.add_argument("--values", action="store_true", help="print values (small tensors) instead of stats")
    p.add_argument("--plot", metavar="OUT.png",
                   help="also draw each watched tensor's min/max/mean/norm per iteration (needs irlint[plot])")
    add_state_arguments(p, write=False)


def _range(text: str | None) -> range | None:
    if text is None:
        return None
    a, _, b = text.partition(":")
    try:
        lo, hi = int(a) if a else 0, int(b) if b else 1 << 62
    except ValueError as e:
        raise UsageError(f"--iterations {text!r}: expected A:B") from e
    if lo < 0 or hi <= lo:
        raise UsageError(f"--iterations {text!r}: expected 0 <= A < B (iterations A..B-1)")
    return range(lo, hi)


def _check_search(args: argparse.Namespace) -> None:
    if args.magnitude is not None:
        if not args.find_nonfinite:
            raise UsageError("--magnitude goes with --find-nonfinite")
        if not np.isfinite(args.magnitude) or args.magnitude < 0:
            raise UsageError(f"--magnitude {args.magnitude}: expected a finite number >= 0")
    if not args.watch and not args.find_nonfinite:
        raise UsageError("give --watch LAYER... and/or --find-nonfinite")


def report_bad(bad, bound: float | None) -> str:  # type: ignore[no-untyped-def]
    """One line: which layer, output, iteration and element first holds the NaN/Inf (or |value| > bound)."""
    from irlint.interp.stepper import search_text

    return f"first {search_text(True, bound)}: {safe(bad.describe())}"


def _bad_input(model, inputs, bound: float | None):  # type: ignore[no-untyped-def]
    """A top-level input that already holds a NaN/Inf (or |value| > bound): no layer makes it."""
    from irlint.interp.stepper import BadValue, first_bad

    for p in model.graph.parameters():
        if p.name in inputs:
            t = np.asarray(inputs[p.name])
            idx = first_bad(t, True, bound)
            if idx is not None:
                port = f"out{p.outputs[0].id}" if p.outputs else "out"
                return BadValue(p.path, p.name, p.type, port, idx, float(t[idx]), ())
    return None


def _rows(ev, args: argparse.Namespace, its: range | None, branching: set[str],  # type: ignore[no-untyped-def]
          series: dict[tuple[str, int | None], object], seen: set[str]) -> None:
    """The table rows of one watched layer's evaluation (and its points for --plot)."""

    # the innermost loop's iteration (an If's branch is a frame of its own, always iteration 0)
    k = next((i for p, i in reversed(ev.frames) if p not in branching), None)
    if its is not None and (k is None or k not in its):
        return
    it = iteration_label([i for _p, i in ev.frames], ev.layer.path)  # an If's frame: its branch
    ports = ev.layer.outputs if ev.outputs else ev.layer.inputs  # a Result shows what it receives
    for port, v in zip(ports, ev.outputs or ev.inputs):
        if args.plot:
            from irlint.cli.trace_plot import Series

            what = "in" if not ev.outputs else f"out{port.id}"
            title = f"{ev.layer.path} {ev.layer.name!r} ({ev.layer.type}) {what}"
            s = series.setdefault((ev.layer.path, port.id), Series(title))
            s.add(it, v)  # type: ignore[attr-defined]
        if args.values and v.size <= 16:
            shown = np.array2string(v.reshape(-1), precision=5, separator=" ")
        else:
            shown = stats_text(v)
        print(f"{safe(ev.layer.name)[:20]:<20} {it:<10} {port.id!s:<5} {list(v.shape)!s:<14} {shown}")
        seen.add(ev.layer.path)


def stats_text(v: np.ndarray) -> str:
    """`min=-inf max=6 mean=6 nan=0 inf=2`: min and max over every value but NaN (±Inf included; the
    mean is the finite values'), a statistic with no value left out, a boolean tensor's true/false counts."""
    from irlint.interp.trace import stats

    s = stats(v)
    if s.get("inf"):
        with np.errstate(invalid="ignore"):
            f = v.astype(np.float64)
            s["min"], s["max"] = float(np.nanmin(f)), float(np.nanmax(f))
    return " ".join(f"{k}={s[k]:.5g}" if isinstance(s[k], float) else f"{k}={s[k]}"
                    for k in ("min", "max", "mean", "nan", "inf", "true", "false") if s.get(k) is not None)


def _watched_params(ev, watched: set[str]) -> list:  # type: ignore[no-untyped-def,type-arg]
    """The watched body Parameters of one iteration, as evaluations with the value they hold in it: a
    body Parameter is not evaluated, its value arrives with the iteration (as `--trace` records it)."""
    from irlint.interp.events import LayerEvaluated

    body = ev.layer.body if ev.branch is None else next(
        (b.body for b in ev.layer.branches if b.name == ev.branch), None)
    if body is None:
        return []
    out = []
    for pid, value in ev.params.items():
        layer = body.layer(pid) if isinstance(pid, int) else None
        if layer is not None and (layer.path in watched or layer.name in watched):
            out.append(LayerEvaluated(layer, (), (np.asarray(value),), ev.frames))
    return out


def _say_unseen(model, watch: list[str], seen: set[str], iterations: str | None) -> None:  # type: ignore[no-untyped-def]
    """A note on stderr per watched layer that gave no row, so that an empty table is not read as
    "nothing to see": it never ran (an If's branch not taken, a body run 0 times) or not in --iterations."""
    for w in watch:
        paths = {la.path for _g, la in model.layers() if w in (la.path, la.name)}
        if paths and not paths & seen:
            when = f"in --iterations {iterations}" if iterations else "in this run"
            print(safe(f"note: {w} was not evaluated {when} (it is in a body that ran no iteration there, or "
                       "in an If branch that was not taken)"), file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from irlint.interp import ExecutionError, execute
    from irlint.interp.events import IterationStarted, LayerEvaluated
    from irlint.interp.stepper import bad_value

    _check_search(args)
    its = _range(args.iterations)
    if args.plot:
        from irlint.cli.trace_plot import check_output, import_pyplot

        check_output(args.plot)
        import_pyplot()  # before running: a missing matplotlib is said at once (exit 2)
    state_ins = state_paths(args)[1]
    if args.plot:
        check_outputs([("--plot", args.plot)], input_paths(args) + state_ins)  # before anything runs
    try:
        model = load_checked(args)
    except ModelHasErrors:
        return EXIT_FINDINGS
    known = {la.path for _g, la in model.layers()} | {la.name for _g, la in model.layers()}
    missing = [w for w in args.watch if w not in known]
    if missing:
        raise UsageError(f"no layer {safe(missing)} in the model (use an id path like 2/body/7 or a layer name)")
    inputs, notes = build_inputs(model, args)
    announce(notes)
    state, _record = load_state(args, model)
    series: dict[tuple[str, int | None], object] = {}
    seen: set[str] = set()  # the watched layers that gave a row
    branching = {la.path for _g, la in model.layers() if la.branches}
    if args.watch:
        print(f"{'layer':<20} {'iteration':<10} {'port':<5} {'shape':<14} value")
    search, bound = args.find_nonfinite, args.magnitude
    found = _bad_input(model, inputs, bound) if search else None
    try:
        watched = set(args.watch)
        with departures():
            for ev in execute(model, inputs, options(args), state=state) if found is None else ():
                if search:
                    found = bad_value(ev, True, bound)
                if ev.__class__ is LayerEvaluated and (ev.layer.path in watched or ev.layer.name in watched):
                    _rows(ev, args, its, branching, series, seen)
                elif ev.__class__ is IterationStarted:  # body Parameters are given, not evaluated
                    for param in _watched_params(ev, watched):
                        _rows(param, args, its, branching, series, seen)
                if found is not None:
                    break
    except ExecutionError as e:
        run_error(e, args.model)
        return EXIT_FAILURE if e.could_not_run else EXIT_FINDINGS
    except MemoryError:
        out_of_memory(args.model, args.memory_budget)
        return EXIT_FINDINGS
    if found is None:
        _say_unseen(model, args.watch, seen, args.iterations)
    if args.plot:
        from irlint.cli.trace_plot import save

        save(list(series.values()), model.name or args.model, args.plot)  # type: ignore[arg-type]
        print(f"plot: {len(series)} panel{'s' if len(series) != 1 else ''} -> {safe(args.plot)}", file=sys.stderr)
    if found is not None:
        print(report_bad(found, bound))
        return EXIT_FINDINGS
    if search:
        print("no NaN or Inf" + (f" and no |value| > {bound:g}" if bound is not None else "") + " in any tensor")
    return EXIT_CLEAN


COMMAND = Command("trace", "print watched tensors per loop iteration", add_arguments, run)
