"""`irlint compare MODEL.xml`: irlint's reference results against OpenVINO's CPU plugin on the same inputs."""

from __future__ import annotations

import argparse

import numpy as np

from irlint.cli.command import EXIT_CLEAN, EXIT_FAILURE, EXIT_FINDINGS, Command, UsageError
from irlint.cli.run_support import Refused, add_model_arguments, build_inputs, load_checked, options


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_model_arguments(p)
    p.add_argument("--rtol", type=float, default=1e-4)
    p.add_argument("--atol", type=float, default=1e-5)


def _first_diverging_slice(got: np.ndarray, want: np.ndarray, rtol: float, atol: float) -> str:
    """For a concatenated output: the first index along each axis whose slice differs."""
    bad = ~np.isclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True)
    if not bad.any():
        return ""
    first = np.argwhere(bad)[0]
    return f"first difference at index {tuple(int(i) for i in first)}"


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
    for n in notes:
        print(f"note: {n}")
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
        where = "" if ok else " " + _first_diverging_slice(got, want, args.rtol, args.atol)
        print(f"{name:<24} {diff.max(initial=0):>14.3g} {rel.max(initial=0):>14.3g}  {'ok' if ok else 'DIFFERS'}{where}")
        if not ok:
            status = EXIT_FINDINGS
    return status


COMMAND = Command("compare", "compare irlint's results with OpenVINO's CPU plugin", add_arguments, run)
