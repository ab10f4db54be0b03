"""`irlint.compare`: irlint's reference results against OpenVINO's CPU plugin on the same inputs, or two IRs
of one model against each other, output by output, iteration by iteration and (`inside`) layer by layer.

OpenVINO runs in a child process (`irlint.comparison.openvino`) under `timeout`, never in this one. irlint's
own run raises what `irlint.run` raises (`irlint.interp.ExecutionError`, MemoryError); everything else,
OpenVINO's failure included, is in the returned `Comparison`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from irlint.comparison.errors import CompareError
from irlint.comparison.outputs import AGAINST_OPENVINO, compare_output
from irlint.comparison.record import Recorder
from irlint.comparison.result import Comparison

if TYPE_CHECKING:
    from irlint.comparison.openvino import OvRun
    from irlint.interp import Options
    from irlint.ir.model import Model

PRECISIONS = ("f32", "bf16", "f16", "default")
DEFAULT_BUDGET = 4 * 1024**3


def compare(a: str | os.PathLike[str] | Model | Any, inputs: Mapping[str, np.ndarray],
            b: str | os.PathLike[str] | Model | Any | None = None, *, inside: Sequence[str] | None = None,
            openvino: bool = False, rtol: float = 1e-4, atol: float = 1e-5, precision: str = "f32",
            timeout: float = 600.0, options: Options | None = None) -> Comparison:
    """Compare model `a` run by irlint with OpenVINO's CPU plugin (`b` None), or with model `b` run by
    irlint (and, with `openvino=True`, OpenVINO's outputs for A with its outputs for B too). A model is
    a path to an IR .xml, a loaded `Model` or an `openvino.Model` (serialised in memory; OpenVINO's child
    process reads it from a temporary folder removed when it ends).

    `inside`: also compare the bodies' layer outputs per iteration against OpenVINO: every body layer
    ([]) or the layers named (name or id path). `precision`: OpenVINO's INFERENCE_PRECISION_HINT
    ("default" sets none). `options`: the interpreter's bounds (its time limit defaults to `timeout`).
    Raises CompareError when the comparison cannot be made as asked."""
    if precision not in PRECISIONS:
        raise CompareError(f"precision {precision!r}: one of {', '.join(PRECISIONS)}")
    model_a = _model(a)
    opts = options if options is not None else _default_options(timeout)
    if b is not None:
        if inside is not None:
            raise CompareError("inside is for one model against OpenVINO; two models are compared layer by layer "
                               "anyway")
        from irlint.comparison.two import compare_two

        return compare_two(model_a, _model(b), dict(inputs), openvino=openvino, rtol=rtol, atol=atol,
                           precision=precision, timeout=timeout, options=opts)
    if openvino:
        raise CompareError("openvino=True is for two models; one model is always run in OpenVINO")
    return _against_openvino(model_a, dict(inputs), inside, rtol, atol, precision, timeout, opts)


def _model(m: Any) -> Model:
    """A loaded model as it is; a path or an `openvino.Model` loaded and checked (a model with errors
    cannot be compared)."""
    from irlint.api import check_model, load
    from irlint.diagnostics import Severity
    from irlint.ir.loader import LoadError
    from irlint.ir.model import Model

    if isinstance(m, Model):
        return m
    try:
        model = load(m)
    except LoadError as e:
        raise CompareError(str(e)) from e
    errors = [d for d in check_model(model) if d.severity is Severity.ERROR]
    if errors:
        raise CompareError(f"{model.path} has {len(errors)} error(s), the first {errors[0].code}: "
                           f"{errors[0].message}")
    return model


def _default_options(timeout: float) -> Options:
    from irlint.interp import Options

    return Options(memory_budget=DEFAULT_BUDGET, time_limit=timeout)


def _job(precision: str, probes: list[Any], rtol: float = 1e-4, atol: float = 1e-5) -> dict[str, Any]:
    return {"precision": None if precision == "default" else precision, "probes": [p.as_job() for p in probes],
            "rtol": rtol, "atol": atol}


def run_ours(model: Model, inputs: dict[str, np.ndarray], options: Options, rec: Recorder) -> dict[str, np.ndarray]:
    from irlint.interp import run as irlint_run

    return irlint_run(model, inputs, options, listener=rec)


def _against_openvino(model: Model, inputs: dict[str, np.ndarray], inside: Sequence[str] | None, rtol: float,
                      atol: float, precision: str, timeout: float, options: Options) -> Comparison:
    from irlint.comparison.openvino import model_files, run_openvino

    _check_inputs(model, inputs)
    sel = None
    rec = Recorder()
    if inside is not None:
        from irlint.comparison.inside import select

        sel = select(model, list(inside))
        rec = Recorder({la.path: i for i, (la, _c) in enumerate(sel.layers)}, options.memory_budget // 4)
    ours = run_ours(model, inputs, options, rec)
    probes = []
    if sel is not None:
        from irlint.comparison.inside import probes_for

        probes = probes_for(sel, rec)
    report: dict[str, Any] = {"model": model.path, "precision": {"asked": precision}, "rtol": rtol, "atol": atol}
    title = f"irlint compare: {model.name or model.path}"
    with model_files(model) as (xml, weights):
        def run(which: list[int]) -> OvRun | str:
            return run_openvino(xml, weights, inputs, timeout, _job(precision, [probes[i] for i in which], rtol, atol))

        got_ov = run(list(range(len(probes))))
        if isinstance(got_ov, str) and probes and _crashed_instrumented(got_ov):
            got_ov = _without_crashing_probes(run, len(probes), got_ov)
        if isinstance(got_ov, str) and probes and _instrumented(got_ov):
            crash = got_ov  # OpenVINO died on the instrumented copy: the plain comparison still stands
            got_ov = run([])
            if not isinstance(got_ov, str):
                got_ov.instrument_error = crash
    if isinstance(got_ov, str):
        report["openvino_error"] = got_ov
        return Comparison("openvino", title, report, differs=True)
    report["precision"]["openvino"] = got_ov.precision
    iterations = rec.top_iterations
    outs = [compare_output(model, name, ours.get(name), want, rtol, atol, iterations, AGAINST_OPENVINO)
            for name, want in zip(got_ov.names, got_ov.values)]
    report["outputs"] = outs
    differs = any(o["verdict"] != "ok" for o in outs)
    panels = [(f"output {o['name']}", o["rows"]) for o in outs if o.get("rows")]
    if sel is not None:
        from irlint.comparison.inside import inside_report

        report["inside"], inside_differs, inside_panels = inside_report(sel, probes, got_ov, rec, rtol, atol)
        panels += inside_panels
        differs = differs or inside_differs
    if any(len(rows) > 1 for _t, rows in panels):  # tensors made by iterations; one point says little
        panels = [(t, rows) for t, rows in panels if len(rows) > 1]
    return Comparison("openvino", f"{title} (OpenVINO {got_ov.precision})", report, panels, differs)


def _instrumented(error: str) -> bool:
    """Whether OpenVINO's failure happened on the instrumented copy (the plain model ran first)."""
    return "(stage: instrument" in error or "instrumented)" in error


def _crashed_instrumented(error: str) -> bool:
    """A crash of OpenVINO's process on the instrumented copy (a timeout is not retried: it would cost a
    timeout per try)."""
    return _instrumented(error) and error.startswith(("OpenVINO crashed", "OpenVINO's process exited"))


def _without_crashing_probes(run: Callable[[list[int]], OvRun | str], n: int, crash: str) -> OvRun | str:
    """OpenVINO's process died with the probes: a crash cannot be caught inside it, so the probes are split
    in halves over new processes until each one it dies with stands alone; those are dropped (said in
    `skipped`) and the others run. The run's probe numbers are mapped back to `range(n)`."""
    dropped: dict[int, str] = {}

    def viable(which: list[int], error: str) -> list[int]:
        if len(which) == 1:
            dropped[which[0]] = ("OpenVINO's process died with this probe, so it was dropped and the others kept: "
                                 f"{error}")
            return []
        half = len(which) // 2
        keep: list[int] = []
        for group in (which[:half], which[half:]):
            got = run(group)
            keep += viable(group, got) if isinstance(got, str) and _crashed_instrumented(got) else group
        return keep

    keep = viable(list(range(n)), crash)
    got = run(keep)
    if isinstance(got, str):
        return got
    got.probes = {keep[j]: v for j, v in got.probes.items()}
    got.skipped = {**{keep[j]: why for j, why in got.skipped.items()}, **dropped}
    if got.observer_effect:
        got.observer_effect["probes"] = [keep[j] for j in got.observer_effect["probes"]]
    return got


def _check_inputs(model: Model, inputs: Mapping[str, np.ndarray]) -> None:
    names = sorted(p.name for p in model.graph.parameters())
    if sorted(inputs) != names:
        raise CompareError(f"the inputs given {sorted(inputs)} are not {model.path}'s inputs {names}")
