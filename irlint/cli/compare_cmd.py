"""`irlint compare MODEL.xml`: irlint's reference results against OpenVINO's CPU plugin on the same inputs."""

from __future__ import annotations

import argparse

import numpy as np

from irlint.cli.command import EXIT_CLEAN, EXIT_FAILURE, EXIT_FINDINGS, Command, UsageError
from irlint.cli.run_support import ModelHasErrors, add_model_arguments, announce, build_inputs, load_checked, options
from irlint.controlflow import CONTROL_FLOW, EntryKind, iteration_of_output_element, loop_plan


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_model_arguments(p)
    p.add_argument("--rtol", type=float, default=1e-4)
    p.add_argument("--atol", type=float, default=1e-5)


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


def run(args: argparse.Namespace) -> int:
    try:
        import openvino as ov
    except ImportError as e:
        raise UsageError("compare needs OpenVINO: pip install 'irlint[openvino]' (or pip install openvino)") from e
    from irlint.interp import ExecutionError

    try:
        model = load_checked(args)
    except ModelHasErrors:
        return EXIT_FINDINGS
    inputs, notes = build_inputs(model, args)
    announce(notes)
    try:
        ours, iterations = _run_ours(model, inputs, options(args))
    except ExecutionError as e:
        print(f"{e.code} [error] {e.message}")
        return EXIT_FAILURE
    core = ov.Core()
    try:
        ov_model = core.read_model(args.model, args.weights) if args.weights else core.read_model(args.model)
        compiled = core.compile_model(ov_model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
        res = compiled([inputs[p.get_friendly_name()] for p in ov_model.get_parameters()])
    except Exception as e:  # OpenVINO's own failure is a finding, not a crash
        print(f"OpenVINO failed: {str(e).splitlines()[0] if str(e) else type(e).__name__}")
        return EXIT_FINDINGS
    status = EXIT_CLEAN
    print(f"{'output':<24} {'max abs diff':>14} {'max rel diff':>14}  verdict")
    for i, r in enumerate(ov_model.get_results()):
        name = r.get_friendly_name()
        want, got = np.asarray(res[i]), ours.get(name)
        if got is None or got.shape != want.shape:
            print(f"{name:<24} shape {None if got is None else list(got.shape)} vs OpenVINO {list(want.shape)}")
            status = EXIT_FINDINGS
            continue
        diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
        rel = diff / np.maximum(np.abs(want.astype(np.float64)), 1e-12)
        ok = np.allclose(got, want, rtol=args.rtol, atol=args.atol, equal_nan=True)
        where = "" if ok else " " + _first_difference(model, name, got, want, args.rtol, args.atol, iterations)
        verdict = "ok" if ok else "DIFFERS"
        print(f"{name:<24} {diff.max(initial=0):>14.3g} {rel.max(initial=0):>14.3g}  {verdict}{where}")
        if not ok:
            status = EXIT_FINDINGS
    return status


COMMAND = Command("compare", "compare irlint's results with OpenVINO's CPU plugin", add_arguments, run)
