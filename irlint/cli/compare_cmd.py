"""`irlint compare MODEL.xml`: irlint's reference results against OpenVINO's CPU plugin on the same inputs;
`irlint compare A.xml B.xml`: two IRs of one model against each other.

A thin command over `irlint.compare`: it checks the arguments and files, loads and lints the models,
builds the inputs, calls `compare` and prints the `Comparison` (text or JSON) and its plot.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys

from irlint.cli.argtypes import non_negative_float, positive_float
from irlint.cli.command import EXIT_CLEAN, EXIT_FAILURE, EXIT_FINDINGS, Command, UsageError
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
from irlint.comparison.api import PRECISIONS


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


def _check_plot(args: argparse.Namespace, extra_inputs: list[tuple[str, str | None]]) -> None:
    if args.plot:
        from irlint.cli.paths import check_outputs
        from irlint.cli.trace_plot import check_output, import_pyplot

        check_output(args.plot)
        import_pyplot()  # before running: a missing matplotlib is said at once (exit 2)
        check_outputs([("--plot", args.plot)], input_paths(args) + extra_inputs)


def _second_model(args: argparse.Namespace) -> argparse.Namespace | None:
    """B's arguments (`compare A.xml B.xml`), taken out of the NAME=FILE.npy list; None for one model."""
    second = [a for a in args.assign if "=" not in a and a.lower().endswith(".xml")]
    stray = [a for a in args.assign if "=" not in a and a not in second]
    for a in stray:
        if a.lower().endswith(".npz"):
            raise UsageError(f"{a}: an .npz of inputs is given as --inputs {a}; a second model is an .xml "
                             "(compare A.xml B.xml)")
        raise UsageError(f"{a!r}: expected NAME=FILE.npy for an input, or a second model B.xml")
    if len(second) > 1:
        raise UsageError(f"compare takes one or two models, not {1 + len(second)}")
    if not second:
        return None
    if args.inside is not None:
        raise UsageError("--inside is for one model against OpenVINO; two models are compared layer by layer anyway")
    args.assign = [a for a in args.assign if a != second[0]]
    args_b = copy.copy(args)
    args_b.model, args_b.weights = second[0], None
    return args_b


def run(args: argparse.Namespace) -> int:
    import importlib.util

    from irlint.comparison import CompareError, compare
    from irlint.interp import ExecutionError

    args_b = _second_model(args)
    if args_b is None and args.openvino:
        raise UsageError("--openvino is for two models (compare A.xml B.xml); one model is always run in OpenVINO")
    if (args_b is None or args.openvino) and importlib.util.find_spec("openvino") is None:
        raise UsageError("compare needs OpenVINO: pip install 'irlint[openvino]' (or pip install openvino)")
    extra: list[tuple[str, str | None]] = []
    if args_b is not None:
        from irlint.ir.loader import default_weights_path

        extra = [("B", args_b.model), ("B's weights", default_weights_path(args_b.model))]
    _check_plot(args, extra)
    try:
        model = load_checked(args)
        model_b = load_checked(args_b) if args_b is not None else None
    except ModelHasErrors:
        return EXIT_FINDINGS
    inputs, notes = build_inputs(model, args)
    announce(notes, stdout=args.format == "text")
    failing = args.model
    try:
        with departures():
            result = compare(model, inputs, model_b, inside=args.inside, openvino=args.openvino, rtol=args.rtol,
                             atol=args.atol, precision=args.precision, timeout=args.timeout, options=options(args))
    except CompareError as e:
        raise UsageError(str(e)) from e
    except ExecutionError as e:
        run_error(e, failing)
        return EXIT_FAILURE if e.could_not_run else EXIT_FINDINGS
    except MemoryError:
        out_of_memory(failing, args.memory_budget)
        return EXIT_FINDINGS
    result.report["random_inputs"] = bool(notes)
    if args.format == "json":
        print(json.dumps(result.to_json(), indent=2))
    else:
        sys.stdout.write(result.text())
    if args.plot and result.openvino_error is None:
        from irlint.cli.compare_plot import save

        save(result.panels, result.title, args.rtol, args.plot)
        n = len(result.panels)
        print(f"plot: {n} panel{'s' if n != 1 else ''} -> {safe(args.plot)}", file=sys.stderr)
    return EXIT_CLEAN if result.ok else EXIT_FINDINGS


COMMAND = Command("compare", "compare irlint's results with OpenVINO's CPU plugin, or two IRs of one model",
                  add_arguments, run)
