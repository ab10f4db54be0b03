"""`irlint compare MODEL.xml`: irlint's reference results against OpenVINO's CPU plugin on the same inputs.

OpenVINO runs in a child process (`irlint.cli._ov_child`) under `--timeout`: its crash (by signal),
timeout or exception (the whole message) is reported as a finding about OpenVINO (exit 1), never a
crash of irlint.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile

import numpy as np

from irlint.cli.argtypes import non_negative_float, positive_float
from irlint.cli.command import EXIT_CLEAN, EXIT_FAILURE, EXIT_FINDINGS, Command, UsageError
from irlint.cli.printing import out_of_memory, run_error, safe
from irlint.cli.run_support import (
    ModelHasErrors,
    add_model_arguments,
    announce,
    build_inputs,
    departures,
    load_checked,
    options,
)
from irlint.controlflow import CONTROL_FLOW, EntryKind, iteration_of_output_element, loop_plan


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_model_arguments(p)
    p.add_argument("--rtol", type=non_negative_float, default=1e-4)
    p.add_argument("--atol", type=non_negative_float, default=1e-5)
    p.add_argument("--timeout", type=positive_float, default=600, metavar="SECONDS",
                   help="kill OpenVINO's process after this long (default 600); reported as a finding")


def _first_difference(model, result_name: str, got: np.ndarray, want: np.ndarray, rtol: float, atol: float,
                      iterations: dict[str, int]) -> str:
    """Where the first difference is; for a concatenated TI/Loop output, in which iteration's part."""
    bad = ~np.isclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True)
    if not bad.any():
        return ""
    first = tuple(int(i) for i in np.argwhere(bad)[0])
    text = f"first difference at index {first}"
    result = next((la for la in model.graph.results() if la.name == result_name), None)
    edge = next((e for e in model.graph.edges if result is not None and e.to_layer == result.id), None)
    src = model.graph.layer(edge.from_layer) if edge else None
    if src is None or src.type not in CONTROL_FLOW or src.path not in iterations:
        return text
    entry = loop_plan(src).output_for_port(edge.from_port)
    n = iterations[src.path]
    if entry is None or entry.kind is not EntryKind.CONCAT_OUTPUT or entry.entry.axis is None or n <= 0:
        return text
    axis = entry.entry.axis + got.ndim if entry.entry.axis < 0 else entry.entry.axis
    k = iteration_of_output_element(entry, first[axis], got.shape[axis] // n, n)
    return f"{text}: in the part of iteration {k} of {src.describe()}"


def _run_ours(model, inputs, opts) -> tuple[dict[str, np.ndarray], dict[str, int]]:
    """irlint's outputs, and how many iterations each top-level TensorIterator/Loop ran."""
    from irlint.interp import execute
    from irlint.interp.events import BodyLeft, RunFinished

    outputs: dict[str, np.ndarray] = {}
    iterations: dict[str, int] = {}
    for event in execute(model, inputs, opts):
        if isinstance(event, BodyLeft) and not event.frames:
            iterations[event.layer.path] = event.iterations
        elif isinstance(event, RunFinished):
            outputs = dict(event.outputs)
    return outputs, iterations


def _openvino(args: argparse.Namespace, inputs: dict[str, np.ndarray]) -> tuple[list[str], list[np.ndarray]] | str:
    """Run OpenVINO in a child process (irlint.cli._ov_child); its results, or what went wrong in words."""
    with tempfile.TemporaryDirectory(prefix="irlint-compare-") as tmp:
        tmp_in, tmp_out, tmp_report = (os.path.join(tmp, n) for n in ("in.npz", "out.npz", "report.json"))
        np.savez(tmp_in, **inputs)
        cmd = [sys.executable, "-m", "irlint.cli._ov_child", os.path.abspath(args.model),
               os.path.abspath(args.weights) if args.weights else "", tmp_in, tmp_out, tmp_report]
        try:
            proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                  errors="replace", timeout=args.timeout)
        except subprocess.TimeoutExpired as e:
            stage = _last_stage(e.stdout)
            return f"OpenVINO did not finish within --timeout {args.timeout:g} s (stage: {stage}); it was killed"
        stage = _last_stage(proc.stdout)
        if proc.returncode < 0:
            try:
                sig = signal.Signals(-proc.returncode).name
            except ValueError:
                sig = f"signal {-proc.returncode}"
            tail = proc.stderr.strip()[-2000:]
            return (f"OpenVINO crashed with {sig} (stage: {stage})" + (f"; its stderr:\n{tail}" if tail else ""))
        try:
            with open(tmp_report, encoding="utf-8") as f:
                report = json.load(f)
        except (OSError, ValueError):
            tail = proc.stderr.strip()[-2000:]
            return f"OpenVINO's process exited with code {proc.returncode} (stage: {stage})" + (
                f"; its stderr:\n{tail}" if tail else "")
        if "error" in report:
            return f"OpenVINO raised {report['error']} (stage: {stage}):\n{report['message']}"
        with np.load(tmp_out, allow_pickle=False) as z:
            values = [z[f"r{i}"] for i in range(len(report["names"]))]
        return list(report["names"]), values


def _last_stage(stdout: str | bytes | None) -> str:
    if isinstance(stdout, bytes):
        stdout = stdout.decode("utf-8", "replace")
    stages = [line[7:] for line in (stdout or "").splitlines() if line.startswith("stage: ")]
    return stages[-1] if stages else "start"


def run(args: argparse.Namespace) -> int:
    import importlib.util

    if importlib.util.find_spec("openvino") is None:
        raise UsageError("compare needs OpenVINO: pip install 'irlint[openvino]' (or pip install openvino)")
    from irlint.interp import ExecutionError

    try:
        model = load_checked(args)
    except ModelHasErrors:
        return EXIT_FINDINGS
    inputs, notes = build_inputs(model, args)
    announce(notes)
    try:
        with departures():
            ours, iterations = _run_ours(model, inputs, options(args))
    except ExecutionError as e:
        run_error(e, args.model)
        return EXIT_FAILURE if e.code == "RUN-INTERNAL" else EXIT_FINDINGS
    except MemoryError:
        out_of_memory(args.model, args.memory_budget)
        return EXIT_FINDINGS
    got_ov = _openvino(args, inputs)
    if isinstance(got_ov, str):  # OpenVINO's own failure is a finding about OpenVINO, not irlint's crash
        lines = got_ov.splitlines() or [""]
        print(safe(f"{args.model}: OPENVINO [error] {lines[0]}"))
        for line in lines[1:]:
            print(f"    {safe(line)}")
        return EXIT_FINDINGS
    names, values = got_ov
    status = EXIT_CLEAN
    print(f"{'output':<24} {'max abs diff':>14} {'max rel diff':>14}  verdict")
    for name, want in zip(names, values):
        got = ours.get(name)
        shown = safe(name)
        if got is None or got.shape != want.shape:
            print(f"{shown:<24} shape {None if got is None else list(got.shape)} vs OpenVINO {list(want.shape)}")
            status = EXIT_FINDINGS
            continue
        if got.dtype.kind == "O" or want.dtype.kind in "USO":  # string tensors: equal bytes or not
            from irlint.ops.misc.strings import as_strings

            same = got.dtype.kind == "O" and want.dtype.kind in "USO" and bool((got == as_strings(want)).all())
            print(f"{shown:<24} {'-':>14} {'-':>14}  {'ok' if same else 'DIFFERS'}")
            status = status if same else EXIT_FINDINGS
            continue
        diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
        rel = diff / np.maximum(np.abs(want.astype(np.float64)), 1e-12)
        ok = np.allclose(got, want, rtol=args.rtol, atol=args.atol, equal_nan=True)
        where = "" if ok else " " + safe(_first_difference(model, name, got, want, args.rtol, args.atol, iterations))
        verdict = "ok" if ok else "DIFFERS"
        print(f"{shown:<24} {diff.max(initial=0):>14.3g} {rel.max(initial=0):>14.3g}  {verdict}{where}")
        if not ok:
            status = EXIT_FINDINGS
    return status


COMMAND = Command("compare", "compare irlint's results with OpenVINO's CPU plugin", add_arguments, run)
