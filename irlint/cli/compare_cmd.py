"""`irlint compare MODEL.xml`: irlint's reference results against OpenVINO's CPU plugin on the same inputs."""

from __future__ import annotations

import argparse

import numpy as np

from irlint.cli.command import EXIT_CLEAN, EXIT_FAILURE, EXIT_FINDINGS, Command, UsageError
from irlint.cli.run_support import Refused, add_model_arguments, announce, build_inputs, load_checked, options


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_model_arguments(p)
    p.add_argument("--rtol", type=float, default=1e-4)
    p.add_argument("--atol", type=float, default=1e-5)


def _first_difference(model, result_name: str, got: np.ndarray, want: np.ndarray, rtol: float, atol: float) -> str:
    """Where the first difference is; for a concatenated TI/Loop output, in which iteration's slice."""
    bad = ~np.isclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True)
    if not bad.any():
        return ""
    first = tuple(int(i) for i in np.argwhere(bad)[0])
    text = f"first difference at index {first}"
    result = next((la for la in model.graph.results() if la.name == result_name), None)
    edge = next((e for e in model.graph.edges if result is not None and e.to_layer == result.id), None)
    src = model.graph.layer(edge.from_layer) if edge else None
    if src is None or src.type not in ("TensorIterator", "Loop"):
        return text
    entry = next((e for e in src.port_map if e.direction == "output" and e.external_port_id == edge.from_port), None)
    if entry is None or not entry.sliced or entry.axis is None:
        return text
    axis = entry.axis + got.ndim if entry.axis < 0 else entry.axis
    part = entry.part_size or 1
    k = first[axis] // part
    if entry.stride is not None and entry.stride < 0:
        k = got.shape[axis] // part - 1 - k
    return f"{text}: in the slice of iteration {k} of {src.describe()}"


def run(args: argparse.Namespace) -> int:
    try:
        import openvino as ov
    except ImportError as e:
        raise UsageError("compare needs OpenVINO: pip install 'irlint[openvino]' (or pip install openvino)") from e
    from irlint.interp import ExecutionError
    from irlint.interp import run as irlint_run

    try:
        model = load_checked(args)
    except Refused:
        return EXIT_FINDINGS
    inputs, notes = build_inputs(model, args)
    announce(notes)
    try:
        ours = irlint_run(model, inputs, options(args))
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
        where = "" if ok else " " + _first_difference(model, name, got, want, args.rtol, args.atol)
        verdict = "ok" if ok else "DIFFERS"
        print(f"{name:<24} {diff.max(initial=0):>14.3g} {rel.max(initial=0):>14.3g}  {verdict}{where}")
        if not ok:
            status = EXIT_FINDINGS
    return status


COMMAND = Command("compare", "compare irlint's results with OpenVINO's CPU plugin", add_arguments, run)
