"""`irlint run MODEL.xml`: execute with the reference interpreter, print and save the outputs."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import Any

from irlint.cli.argtypes import non_negative_int
from irlint.cli.command import EXIT_CLEAN, EXIT_FAILURE, EXIT_FINDINGS, Command
from irlint.cli.paths import atomic_write, check_outputs
from irlint.cli.printing import out_of_memory, run_error, safe
from irlint.cli.run_support import (
    ModelHasErrors,
    add_model_arguments,
    announce,
    build_inputs,
    departures,
    describe,
    input_paths,
    load_checked,
    options,
    write_npz,
)
from irlint.cli.state_file import add_state_arguments, load_state, save_state, state_paths


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_model_arguments(p)
    p.add_argument("-o", "--output", metavar="OUT.npz", help="save outputs keyed by top-level Result name")
    p.add_argument("--trace", metavar="T.npz", help="record every body Parameter/Result of every iteration")
    p.add_argument("--trace-all", action="store_true", help="with --trace: record every layer's outputs")
    p.add_argument("--trace-budget", type=non_negative_int, default=512 * 1024**2, metavar="BYTES",
                   help="trace values kept in memory before spilling to disk (default 512 MiB)")
    add_state_arguments(p)


def run(args: argparse.Namespace) -> int:
    from irlint.interp import ExecutionError
    from irlint.interp import run as irlint_run
    from irlint.interp.trace import Trace

    output = args.output  # written exactly there (np.savez would append .npz to a path without it)
    state_outs, state_ins = state_paths(args)
    check_outputs([("-o", output), ("--trace", args.trace), *state_outs], input_paths(args) + state_ins)
    try:
        model = load_checked(args)
    except ModelHasErrors:
        return EXIT_FINDINGS
    inputs, notes = build_inputs(model, args)
    announce(notes)
    state, record = load_state(args, model)
    trace = Trace(budget=args.trace_budget, trace_all=args.trace_all) if args.trace else None
    try:
        progress = _Progress(trace) if sys.stderr.isatty() else None
        try:
            # the plain driver: no event objects; the trace (and a terminal's progress line) listen
            with departures():
                outputs = irlint_run(model, inputs, options(args), listener=progress or trace, state=state)
                if progress is not None:
                    progress.done()
        except ExecutionError as e:
            if sys.stderr.isatty():
                print("\r\x1b[K", end="", file=sys.stderr)  # clear a progress line
            run_error(e, args.model)
            return EXIT_FAILURE if e.could_not_run else EXIT_FINDINGS
        except MemoryError:
            out_of_memory(args.model, args.memory_budget)
            return EXIT_FINDINGS
        print(f"{'output':<24} {'dtype':<8} {'shape':<18}stats")
        for name, value in outputs.items():
            print(describe(name, value))
        if output:
            write_npz(output, outputs)
        save_state(args, model, state, record)
        if trace is not None:
            atomic_write(args.trace, trace.save)
            print(safe(f"trace: {trace.count()} tensors -> {args.trace}"), file=sys.stderr)
    finally:
        if trace is not None:
            trace.close()
    return EXIT_CLEAN


BATCH_SECONDS = 0.1  # a batch of iterations the progress line lets the driver collect takes about this long


class _Progress:
    """A listener for a terminal: which iteration a long run is in (every 0.5 s), then how many
    iterations each top-level loop ran; it hands every record on to the trace, if there is one."""

    def __init__(self, trace: Any) -> None:
        self.trace = trace
        self.layers = bool(trace is not None and trace.layers)
        self.shown = time.monotonic()
        self.top: dict[str, tuple[Any, int]] = {}  # top-level loop path -> (layer, iterations)
        self.batch_end = self.shown  # when the last batch of iterations was handed over

    def iteration_started(self, layer: Any, iteration: int, keys: Any, values: Any, frames: Any) -> None:
        if self.trace is not None:
            self.trace.iteration_started(layer, iteration, keys, values, frames)

    def iteration_finished(self, layer: Any, iteration: int, keys: Any, values: Any, frames: Any) -> None:
        if self.trace is not None:
            self.trace.iteration_finished(layer, iteration, keys, values, frames)
        self.progress(layer, iteration, frames)

    def progress(self, layer: Any, iteration: int, frames: Any) -> None:
        if len(frames) == 1:
            self.top[layer.path] = (layer, iteration + 1)
        if time.monotonic() - self.shown > 0.5:
            self.shown = time.monotonic()
            its = ".".join(str(k) for _p, k in frames)
            print(f"\r  {safe(layer.describe())[:60]}: iteration {its}\x1b[K", end="", file=sys.stderr)

    def batches(self, layer: Any, keys: Any, layout: tuple[int, ...]) -> Callable[[int, list[Any], Any], int]:
        """The taker of a loop's batches of iterations (the plain driver's loops without nested loops;
        `frames`: the outer ones): on to the trace, then the line shows the batch's last iteration.
        With a trace, the next batch may hold what the trace's budget allows, but take no longer than
        about `BATCH_SECONDS` at this batch's pace, so the line stays current. Without one, batches
        of one: a batch keeps its iterations' tensors alive until it is handed over, and nothing here
        counts their bytes."""
        width = len(layout)
        trace = self.trace.batches(layer, keys, layout) if self.trace is not None else None

        def take(first: int, values: list[Any], frames: Any) -> int:
            n = len(values) // width
            last = first + n - 1
            if trace is None:
                self.progress(layer, last, (*frames, (layer.path, last)))
                return 1
            room = trace(first, values, frames)
            self.progress(layer, last, (*frames, (layer.path, last)))
            now = time.monotonic()
            took, self.batch_end = now - self.batch_end, now
            if took > 0:
                room = min(room, max(1, int(BATCH_SECONDS * n / took)))
            return room

        return take

    def layer_evaluated(self, layer: Any, outputs: Any, frames: Any) -> None:
        if self.trace is not None:
            self.trace.layer_evaluated(layer, outputs, frames)

    def done(self) -> None:
        for layer, n in self.top.values():
            print(f"\r  {safe(layer.describe())}: {n} iterations\x1b[K", file=sys.stderr)


COMMAND = Command("run", "execute a model with the numpy reference interpreter", add_arguments, run)
