"""`irlint compare MODEL.xml`: irlint's reference results against OpenVINO's CPU plugin on the same inputs;
`irlint compare A.xml B.xml`: two IRs of one model against each other (`irlint.cli.compare_two`).

OpenVINO runs in a child process (`irlint.cli.compare_ov`) under `--timeout`, at the inference
precision `--precision` asks for (f32 unless told: this is the reference comparison; `default` is what
a user of the CPU plugin gets, bf16 on CPUs that have it). Each compared tensor is reported per
iteration (max abs, max rel, ULP; `irlint.cli.compare_stats`); `--inside` compares the bodies' layer
outputs too (`irlint.cli.compare_inside`).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import numpy as np

from irlint.cli.argtypes import non_negative_float, positive_float
from irlint.cli.command import EXIT_CLEAN, EXIT_FAILURE, EXIT_FINDINGS, Command, UsageError
from irlint.cli.compare_record import Recorder
from irlint.cli.compare_stats import ErrorRow, beyond_tolerance, error_row, parts_along, table
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
from irlint.controlflow import CONTROL_FLOW, EntryKind, loop_plan

PRECISIONS = ("f32", "bf16", "f16", "default")


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_model_arguments(p)
    p.add_argument("--rtol", type=non_negative_float, default=1e-4,
                   help="an element differs when |a - b| > atol + rtol * |b| (default 1e-4)")
    p.add_argument("--atol", type=non_negative_float, default=1e-5, help="(default 1e-5)")
    p.add_argument("--timeout", type=positive_float, default=600, metavar="SECONDS",
                   help="kill OpenVINO's process after this long (default 600); reported as a finding")
    p.add_argument("--precision", choices=PRECISIONS, default="f32",
                   help="OpenVINO's INFERENCE_PRECISION_HINT (default f32, the reference comparison); "
                        "'default' sets none: what the CPU plugin gives a user (bf16 on CPUs with bf16)")
    p.add_argument("--format", choices=("text", "json"), default="text", help="the report's format (default text)")
    p.add_argument("--plot", metavar="OUT.png",
                   help="draw each compared tensor's error per iteration (png, svg or pdf; needs irlint[plot])")
    p.add_argument("--inside", nargs="*", metavar="LAYER",
                   help="also compare the TensorIterator/Loop bodies' (and If branches') layer outputs, per "
                        "iteration: every body layer, or the LAYERs named (name or id path such as 3/body/7)")
    p.add_argument("--openvino", action="store_true",
                   help="two IRs of one model are compared as 'compare A.xml B.xml' (both run by irlint, "
                        "layers matched by name); --openvino also runs both in OpenVINO and compares its outputs")


def _concat_source(model, result_name: str, ndim: int, iterations: dict[str, int]
                   ) -> tuple[Any, int, int, bool] | None:
    """For a Result fed by a TI/Loop's concatenated output: (the loop, axis, iterations, reversed)."""
    result = next((la for la in model.graph.results() if la.name == result_name), None)
    edge = next((e for e in model.graph.edges if result is not None and e.to_layer == result.id), None)
    src = model.graph.layer(edge.from_layer) if edge else None
    if src is None or src.type not in CONTROL_FLOW or src.path not in iterations:
        return None
    entry = loop_plan(src).output_for_port(edge.from_port)  # type: ignore[union-attr]
    n = iterations[src.path]
    if entry is None or entry.kind is not EntryKind.CONCAT_OUTPUT or entry.entry.axis is None or n <= 0:
        return None
    axis = entry.entry.axis + ndim if entry.entry.axis < 0 else entry.entry.axis
    if not 0 <= axis < ndim:
        return None
    return src, axis, n, entry.reversed


def compare_output(model, name: str, got: np.ndarray, want: np.ndarray, args: argparse.Namespace,
                   iterations: dict[str, int]) -> dict[str, Any]:
    """One output's verdict, its error per iteration and where it first differs."""
    out: dict[str, Any] = {"name": name, "shape": list(want.shape)}
    if got is None or got.shape != want.shape:
        out.update(verdict="shape", ours_shape=None if got is None else list(got.shape))
        return out
    if got.dtype.kind == "O" or want.dtype.kind in "USO":  # string tensors: equal bytes or not
        from irlint.ops.misc.strings import as_strings

        same = got.dtype.kind == "O" and want.dtype.kind in "USO" and bool((got == as_strings(want)).all())
        out.update(verdict="ok" if same else "differs", strings=True)
        return out
    whole = error_row("-", got, want, args.rtol, args.atol)
    out.update(verdict="ok" if not whole.beyond else "differs", max_abs=whole.max_abs, max_rel=whole.max_rel,
               max_ulp=whole.max_ulp, beyond_tolerance=whole.beyond)
    src = _concat_source(model, name, got.ndim, iterations)
    rows = [whole]
    if src is not None:
        loop, axis, n, rev = src
        parts = parts_along(got, want, axis, n, rev)
        if parts:
            rows = [error_row(str(k), g, w, args.rtol, args.atol) for k, g, w in parts]
            out["loop"] = loop.describe()
    out["rows"] = rows
    if whole.beyond:
        first = tuple(int(i) for i in np.argwhere(beyond_tolerance(got, want, args.rtol, args.atol))[0])
        fd: dict[str, Any] = {"index": list(first), "ours": float(got[first]), "openvino": float(want[first])}
        if src is not None and parts:
            loop, axis, n, rev = src
            length = got.shape[axis] // n
            k = first[axis] // max(length, 1)
            fd["iteration"] = n - 1 - k if rev else k
        out["first_difference"] = fd
    return out


def _describe_first(o: dict[str, Any]) -> str:
    fd = o.get("first_difference")
    if not fd:
        return ""
    text = f" first difference at index {tuple(fd['index'])}"
    if "iteration" in fd:
        text += f": in the part of iteration {fd['iteration']} of {o['loop']}"
    return text


def _text_outputs(outs: list[dict[str, Any]], against: str = "OpenVINO") -> None:
    print(f"{'output':<24} {'max abs diff':>14} {'max rel diff':>14}  verdict")
    for o in outs:
        shown = safe(o["name"])
        if o["verdict"] == "shape":
            print(f"{shown:<24} shape {o['ours_shape']} vs {against} {o['shape']}")
        elif o.get("strings"):
            print(f"{shown:<24} {'-':>14} {'-':>14}  {'ok' if o['verdict'] == 'ok' else 'DIFFERS'}")
        else:
            verdict = "ok" if o["verdict"] == "ok" else "DIFFERS" + safe(_describe_first(o))
            print(f"{shown:<24} {o['max_abs']:>14.3g} {o['max_rel']:>14.3g}  {verdict}")
    for o in outs:
        rows = o.get("rows", [])
        if len(rows) > 1:
            print(f"\n{safe(o['name'])}: per iteration of {safe(o['loop'])}")
            print("\n".join(table(rows)))


def _json_ready(o: Any) -> Any:
    if isinstance(o, ErrorRow):
        return o.as_json()
    if isinstance(o, dict):
        return {k: _json_ready(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [_json_ready(v) for v in o]
    if isinstance(o, float) and not np.isfinite(o):
        return str(o)
    return o


def _print_json(report: dict[str, Any]) -> None:
    print(json.dumps(_json_ready(report), indent=2))


def _run_ours(model, inputs, args, rec: Recorder) -> dict[str, np.ndarray] | int:
    """irlint's outputs (recording into `rec`), or the exit code of a run that stopped (said on stderr)."""
    from irlint.interp import ExecutionError
    from irlint.interp import run as irlint_run

    try:
        with departures():
            return irlint_run(model, inputs, options(args), listener=rec)
    except ExecutionError as e:
        run_error(e, args.model)
        return EXIT_FAILURE if e.could_not_run else EXIT_FINDINGS
    except MemoryError:
        out_of_memory(args.model, args.memory_budget)
        return EXIT_FINDINGS


def _openvino_failed(args: argparse.Namespace, message: str, report: dict[str, Any]) -> int:
    """OpenVINO's own failure is a finding about OpenVINO, not irlint's crash."""
    if args.format == "json":
        report["openvino_error"] = message
        _print_json(report)
        return EXIT_FINDINGS
    lines = message.splitlines() or [""]
    print(safe(f"{args.model}: OPENVINO [error] {lines[0]}"))
    for line in lines[1:]:
        print(f"    {safe(line)}")
    return EXIT_FINDINGS


def _check_plot(args: argparse.Namespace, extra_inputs: list[tuple[str, str | None]]) -> None:
    if args.plot:
        from irlint.cli.paths import check_outputs
        from irlint.cli.trace_plot import check_output, import_pyplot

        check_output(args.plot)
        import_pyplot()  # before running: a missing matplotlib is said at once (exit 2)
        check_outputs([("--plot", args.plot)], input_paths(args) + extra_inputs)


def run(args: argparse.Namespace) -> int:
    import importlib.util

    second = [a for a in args.assign if "=" not in a and a.lower().endswith(".xml")]
    if second:
        from irlint.cli.compare_two import run_two

        return run_two(args, second)
    if args.openvino:
        raise UsageError("--openvino is for two models (compare A.xml B.xml); one model is always run in OpenVINO")
    if importlib.util.find_spec("openvino") is None:
        raise UsageError("compare needs OpenVINO: pip install 'irlint[openvino]' (or pip install openvino)")
    _check_plot(args, [])
    try:
        model = load_checked(args)
    except ModelHasErrors:
        return EXIT_FINDINGS
    inputs, notes = build_inputs(model, args)
    announce(notes, stdout=args.format == "text")
    inside = None
    rec = Recorder()
    if args.inside is not None:
        from irlint.cli.compare_inside import select

        inside = select(model, args.inside)
        rec = Recorder({la.path: i for i, (la, _c) in enumerate(inside.layers)}, args.memory_budget // 4)
    ours = _run_ours(model, inputs, args, rec)
    if isinstance(ours, int):
        return ours
    probes = []
    if inside is not None:
        from irlint.cli.compare_inside import probes_for

        probes = probes_for(inside, rec)
    job = {"precision": None if args.precision == "default" else args.precision,
           "probes": [p.as_job() for p in probes]}
    report: dict[str, Any] = {"model": args.model, "precision": {"asked": args.precision},
                              "random_inputs": bool(notes), "rtol": args.rtol, "atol": args.atol}
    got_ov = run_openvino(args.model, args.weights, inputs, args.timeout, job)
    if isinstance(got_ov, str) and probes and ("(stage: instrument" in got_ov or "instrumented)" in got_ov):
        crash = got_ov  # OpenVINO died on the instrumented copy: the plain comparison still stands
        got_ov = run_openvino(args.model, args.weights, inputs, args.timeout, {**job, "probes": []})
        if not isinstance(got_ov, str):
            got_ov.instrument_error = crash
    if isinstance(got_ov, str):
        return _openvino_failed(args, got_ov, report)
    report["precision"]["openvino"] = got_ov.precision
    iterations = rec.top_iterations
    outs = [compare_output(model, name, ours.get(name), want, args, iterations)
            for name, want in zip(got_ov.names, got_ov.values)]
    report["outputs"] = outs
    status = EXIT_CLEAN if all(o["verdict"] == "ok" for o in outs) else EXIT_FINDINGS
    panels = [(f"output {o['name']}", o["rows"]) for o in outs if o.get("rows")]
    if args.format == "text":
        print(f"OpenVINO CPU plugin, inference precision {got_ov.precision}"
              + (" (no hint: the plugin's default)" if args.precision == "default" else
                 f" (asked {args.precision}: the plugin chose {got_ov.precision})"
                 if got_ov.precision not in (args.precision, "unknown") else ""))
        _text_outputs(outs)
    if inside is not None:
        from irlint.cli.compare_inside import report_inside

        differs, inside_panels = report_inside(args, inside, probes, got_ov, rec, report)
        panels += inside_panels
        if differs:
            status = EXIT_FINDINGS
    if args.format == "json":
        _print_json(report)
    if args.plot:
        from irlint.cli.compare_plot import save

        if any(len(rows) > 1 for _t, rows in panels):  # tensors made by iterations; one point says little
            panels = [(t, rows) for t, rows in panels if len(rows) > 1]

        save(panels, f"irlint compare: {model.name or args.model} (OpenVINO {got_ov.precision})", args.rtol,
             args.plot)
        print(f"plot: {len(panels)} panel{'s' if len(panels) != 1 else ''} -> {safe(args.plot)}", file=sys.stderr)
    return status


def run_openvino(*a: Any, **k: Any):  # type: ignore[no-untyped-def]
    from irlint.cli.compare_ov import run_openvino as _run

    return _run(*a, **k)


COMMAND = Command("compare", "compare irlint's results with OpenVINO's CPU plugin, or two IRs of one model",
                  add_arguments, run)
