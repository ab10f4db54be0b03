"""`irlint run MODEL.xml`: execute with the reference interpreter, print and save the outputs."""

from __future__ import annotations

import argparse
import sys
import time

from irlint.cli.argtypes import non_negative_int
from irlint.cli.command import EXIT_CLEAN, EXIT_FAILURE, EXIT_FINDINGS, Command
from irlint.cli.paths import atomic_write, check_outputs
from irlint.cli.printing import out_of_memory, run_error, safe
from irlint.cli.run_support import (
    ModelHasErrors,
    add_model_arguments,
    announce,
    build_inputs,
    describe,
    input_paths,
    load_checked,
    options,
    write_npz,
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_model_arguments(p)
    p.add_argument("-o", "--output", metavar="OUT.npz", help="save outputs keyed by top-level Result name")
    p.add_argument("--trace", metavar="T.npz", help="record every body Parameter/Result of every iteration")
    p.add_argument("--trace-all", action="store_true", help="with --trace: record every layer's outputs")
    p.add_argument("--trace-budget", type=non_negative_int, default=512 * 1024**2, metavar="BYTES",
                   help="trace values kept in memory before spilling to disk (default 512 MiB)")


def run(args: argparse.Namespace) -> int:
    from irlint.interp import ExecutionError, execute
    from irlint.interp.events import BodyLeft, IterationFinished, RunFinished
    from irlint.interp.trace import Trace

    output = args.output  # written exactly there (np.savez would append .npz to a path without it)
    check_outputs([("-o", output), ("--trace", args.trace)], input_paths(args))  # before anything runs
    try:
        model = load_checked(args)
    except ModelHasErrors:
        return EXIT_FINDINGS
    inputs, notes = build_inputs(model, args)
    announce(notes)
    trace = Trace(budget=args.trace_budget, trace_all=args.trace_all) if args.trace else None
    try:
        outputs = {}
        try:
            events = execute(model, inputs, options(args))
            if trace is not None:
                events = trace.observe(events)
            tty = sys.stderr.isatty()
            shown = time.monotonic()
            for ev in events:
                if tty and isinstance(ev, IterationFinished) and time.monotonic() - shown > 0.5:
                    shown = time.monotonic()  # progress of a long run, on a terminal only
                    its = ".".join(str(k) for _p, k in ev.frames)
                    print(f"\r  {safe(ev.layer.describe())[:60]}: iteration {its}\x1b[K", end="", file=sys.stderr)
                if isinstance(ev, BodyLeft) and not ev.frames and tty:
                    print(f"\r  {safe(ev.layer.describe())}: {ev.iterations} iterations\x1b[K", file=sys.stderr)
                elif isinstance(ev, RunFinished):
                    outputs = dict(ev.outputs)
        except ExecutionError as e:
            if sys.stderr.isatty():
                print("\r\x1b[K", end="", file=sys.stderr)  # clear a progress line
            run_error(e, args.model)
            return EXIT_FAILURE if e.code == "RUN-INTERNAL" else EXIT_FINDINGS
        except MemoryError:
            out_of_memory(args.model, args.memory_budget)
            return EXIT_FINDINGS
        print(f"{'output':<24} {'dtype':<8} {'shape':<18}stats")
        for name, value in outputs.items():
            print(describe(name, value))
        if output:
            write_npz(output, outputs)
        if trace is not None:
            atomic_write(args.trace, trace.save)
            print(f"trace: {len(trace.info)} tensors -> {args.trace}", file=sys.stderr)
    finally:
        if trace is not None:
            trace.close()
    return EXIT_CLEAN


COMMAND = Command("run", "execute a model with the numpy reference interpreter", add_arguments, run)
