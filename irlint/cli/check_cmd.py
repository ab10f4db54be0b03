"""`irlint check FILES...`: lint, report in the chosen format, exit 0/1/2."""

from __future__ import annotations

import argparse
import multiprocessing
import multiprocessing.context
import os
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from irlint.cli.command import EXIT_CLEAN, EXIT_FAILURE, EXIT_FINDINGS, Command, UsageError
from irlint.cli.options import add_selection_arguments, resolve_selection
from irlint.diagnostics import Diagnostic, Severity

FORMATS = ("text", "json", "sarif", "github", "junit")
# Codes meaning "this file could not be checked" (exit 2 rather than 1).
UNCHECKABLE = {"IR001", "IR900"}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", nargs="+", metavar="FILE", help="IR .xml files or directories (searched for *.xml)")
    p.add_argument("--format", choices=FORMATS, default=None, help="output format (default: text)")
    p.add_argument("-o", "--output-file", metavar="PATH", help="write the report to PATH instead of stdout")
    p.add_argument("--weights", metavar="PATH", help="the .bin to use (default: MODEL.bin; one FILE only)")
    p.add_argument("-j", "--jobs", type=int, default=None, metavar="N",
                   help="check N files in parallel; -j 1: everything in one process (by default files are "
                        "checked one at a time on two cores: a file of 1 MiB+ is parsed half in a forked "
                        "child, and a model of 10,000+ layers infers its shapes in one)")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even if errors are found")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colour text output (auto: only on a terminal, and not if NO_COLOR is set)")
    add_selection_arguments(p)


def collect_files(items: Sequence[str]) -> list[str]:
    """Expand directories into their *.xml files (sorted); plain paths are kept as given."""
    out: list[str] = []
    for item in items:
        path = Path(item)
        if path.is_dir():
            out += sorted(str(p) for p in path.rglob("*.xml") if p.is_file())
        else:
            out.append(item)
    return out


def _check_one(job: tuple[str, dict]) -> list[Diagnostic]:
    from irlint.api import check

    path, kwargs = job
    return check(path, **kwargs)


def _fork_context() -> multiprocessing.context.BaseContext | None:
    """Fork where the platform has it, after importing what a check needs, so workers start warm."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return None
    import irlint.shapes  # noqa: F401
    from irlint.ops.registry import known_types

    known_types()
    return multiprocessing.get_context("fork")


def use_color(choice: str, stream: object) -> bool:
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


def run(args: argparse.Namespace) -> int:
    from irlint.api import list_rules as all_rules
    from irlint.engine.discovery import PackError
    from irlint.report import render
    from irlint.report.ruleinfo import RuleInfo

    sel, config = resolve_selection(args)
    fmt = args.format or config.get("format", "text")
    if fmt not in FORMATS:
        raise UsageError(f"unknown format {fmt!r} in {config.path}")
    files = collect_files(args.files)
    if not files:
        raise UsageError("no .xml files found in " + ", ".join(args.files))
    if args.weights and len(files) > 1:
        raise UsageError("--weights applies to a single model")
    if args.output_file:  # never over a file this check reads, and refused before anything is checked
        from irlint.cli.paths import check_outputs
        from irlint.ir.loader import default_weights_path

        reads = [("FILE", f) for f in files] + [("--weights", args.weights or default_weights_path(f)) for f in files]
        check_outputs([("-o", args.output_file)], [*reads, ("--config", config.path and str(config.path))])
    try:
        known = all_rules(sel["rule_dirs"])
    except PackError as e:
        raise UsageError(str(e)) from e
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("-j needs a positive number")
    parallel_files = args.jobs is not None and args.jobs > 1 and len(files) > 1
    two_cores = args.jobs is None and (os.cpu_count() or 1) > 1
    kwargs = {k: v for k, v in sel.items()} | {"weights": args.weights, "debug": args.debug, "two_cores": two_cores}
    jobs = [(f, kwargs) for f in files]
    if parallel_files:
        with ProcessPoolExecutor(max_workers=min(args.jobs, len(files)), mp_context=_fork_context()) as pool:
            results = list(pool.map(_check_one, jobs))
    else:
        results = [_check_one(j) for j in jobs]
    diags = [d for r in results for d in r]

    out_stream = sys.stdout
    color = args.output_file is None and fmt == "text" and use_color(args.color, out_stream)
    infos = {r.code: RuleInfo.from_rule(r) for r in known}
    text = render(fmt, diags, files=files, rules=infos, color=color)
    if args.output_file:
        from irlint.cli.paths import write_text

        write_text(args.output_file, text)
    else:
        out_stream.write(text)
        out_stream.flush()

    if any(d.code in UNCHECKABLE for d in diags):
        return EXIT_FAILURE
    if not args.exit_zero and not config.get("exit-zero", False) and any(
        d.severity is Severity.ERROR for d in diags
    ):
        return EXIT_FINDINGS
    return EXIT_CLEAN


COMMAND = Command("check", "lint IR files and report every defect", add_arguments, run)
