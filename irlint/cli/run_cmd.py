"""`irlint run MODEL.xml`: execute with the reference interpreter, print and save the outputs."""

from __future__ import annotations

import argparse
import sys

from irlint.cli.command import EXIT_CLEAN, EXIT_FAILURE, EXIT_FINDINGS, Command
from irlint.cli.run_support import (
    ModelHasErrors,
    add_model_arguments,
    announce,
    build_inputs,
    describe,
    load_checked,
    options,
    write_npz,
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_model_arguments(p)
    p.add_argument("-o", "--output", metavar="OUT.npz", help="save outputs keyed by top-level Result name")
    p.add_argument("--trace", metavar="T.npz", help="record every body Parameter/Result of every iteration")
    p.add_argument("--trace-all", action="store_true", help="with --trace: record every layer's outputs")
    p.add_argument("--trace-budget", type=int, default=512 * 1024**2, metavar="BYTES",
                   help="trace values kept in memory before spilling to disk (default 512 MiB)")


def run(args: argparse.Namespace) -> int:
    from irlint.interp import ExecutionError, execute
    from irlint.interp.events import BodyLeft, RunFinished
    from irlint.interp.trace import Trace

    try:
        model = load_checked(args)
    except ModelHasErrors:
        return EXIT_FINDINGS
    inputs, notes = build_inputs(model, args)
    announce(notes)
    trace = Trace(budget=args.trace_budget, trace_all=args.trace_all) if args.trace else None
    events = execute(model, inputs, options(args))
    if trace is not None:
        events = trace.observe(events)
    outputs = {}
    try:
        for ev in events:
            if isinstance(ev, BodyLeft) and not ev.frames and sys.stderr.isatty():
                print(f"  {ev.layer.describe()}: {ev.iterations} iterations", file=sys.stderr)
            elif isinstance(ev, RunFinished):
                outputs = dict(ev.outputs)
    except ExecutionError as e:
        where = f"{e.layer.loc}: " if e.layer is not None else ""
        print(f"{where}{e.code} [error] {e.message}", file=sys.stderr)
        return EXIT_FAILURE
    print(f"{'output':<24} {'dtype':<8} {'shape':<18}stats")
    for name, value in outputs.items():
        print(describe(name, value))
    if args.output:
        write_npz(args.output, outputs)
    if trace is not None:
        try:
            trace.save(args.trace)
        finally:
            trace.close()
        print(f"trace: {len(trace.info)} tensors -> {args.trace}", file=sys.stderr)
    return EXIT_CLEAN


COMMAND = Command("run", "execute a model with the numpy reference interpreter", add_arguments, run)
