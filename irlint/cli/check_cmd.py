"""`irlint check FILES...`: lint, report in the chosen format, exit 0/1/2."""

from __future__ import annotations

import argparse
import multiprocessing
import multiprocessing.context
import os
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TYPE_CHECKING

from irlint.cli.command import EXIT_CLEAN, EXIT_FAILURE, EXIT_FINDINGS, Command, UsageError
from irlint.cli.options import add_selection_arguments, resolve_selection
from irlint.cli.printing import safe
from irlint.diagnostics import Diagnostic, Severity

if TYPE_CHECKING:
    from irlint.fix import FixOutcome
    from irlint.layerpath import Place
    from irlint.settings.baseline import Baseline
    from irlint.settings.config import Config
    from irlint.settings.perfile import PerFileIgnores

FORMATS = ("text", "concise", "json", "sarif", "github", "junit")
# Codes meaning "this file could not be checked" (exit 2 rather than 1).
UNCHECKABLE = {"IR001", "IR003", "IR900"}


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
    add_fix_arguments(p)


def add_fix_arguments(p: argparse.ArgumentParser) -> None:
    """--fix/--diff/--statistics/--baseline: repairing, counting, and adopting on existing models."""
    p.add_argument("--fix", action="store_true", help="repair what rules with a fix can repair, in place (the .bin "
                   "is never written); the findings left are reported")
    p.add_argument("--diff", action="store_true", help="print the fixes as a unified diff and change nothing "
                   "(exit 1 if a file would change)")
    p.add_argument("--unsafe-fixes", action="store_true", help="also apply fixes that guess (see `irlint explain`)")
    p.add_argument("--show-fixes", action="store_true", help="list the fixes applied, one line each")
    p.add_argument("--statistics", action="store_true", help="count findings per code instead of listing them")
    p.add_argument("--baseline", metavar="FILE", help="report only findings not recorded in FILE; if FILE does not "
                   "exist, record today's findings in it (exit 0)")
    p.add_argument("--baseline-update", action="store_true", help="rewrite the --baseline FILE with today's "
                   "findings (drops fixed ones, accepts new ones)")


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


FileResult = tuple[list[Diagnostic], "dict[str, Place]", "FixOutcome | None"]


def _work(job: tuple[str, dict, dict]) -> FileResult:
    """Check (or fix) one file; with `names`, also the names of the layers and ports its findings point at."""
    path, kwargs, how = job
    if how.get("fix"):
        from irlint.fix import fix_file

        k = {key: kwargs[key] for key in ("weights", "select", "extend_select", "ignore", "rule_dirs", "debug")}
        outcome = fix_file(path, unsafe=how.get("unsafe", False), unfixable=how.get("unfixable", ()), **k)
        return outcome.diagnostics, outcome.names, outcome
    if not how.get("names"):
        return _marked(path, kwargs, how, _check_one((path, kwargs))), {}, None
    from irlint.api import check_model
    from irlint.ir.loader import LoadError, load
    from irlint.layerpath import finding_places

    try:
        model = load(path, kwargs["weights"], two_cores=kwargs["two_cores"])
    except LoadError:
        return _check_one((path, kwargs)), {}, None
    diags = check_model(model, **{k: v for k, v in kwargs.items() if k != "weights"})
    return _marked(path, kwargs, how, diags), finding_places(model, diags), None


def _marked(path: str, kwargs: dict, how: dict, diags: list[Diagnostic]) -> list[Diagnostic]:
    """The findings with the fix `--fix` would offer marked (`Diagnostic.fix`), for the text report and
    `--statistics`; the file is read again only when a finding's code has a fix."""
    from irlint.fix.engine import mark_fixes

    return mark_fixes(path, kwargs["weights"], diags, how.get("unfixable", ()))


def _fork_context() -> multiprocessing.context.BaseContext | None:
    """Fork where the platform has it, after importing what a check needs, so workers start warm."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return None
    import irlint.shapes  # noqa: F401
    from irlint.ops.registry import known_types

    known_types()
    return multiprocessing.get_context("fork")


def _in_parallel(jobs: list[tuple[str, dict, dict]], workers: int) -> list[FileResult]:
    """`_work` on every job in `workers` processes. Interrupted (irlint.cli.interrupts) or failing, the
    workers are killed and reaped before the exception goes on: none outlives irlint, and the pool's
    own shutdown would first finish every queued file."""
    from irlint import forksafe, orphans

    orphans.prepare()  # each worker asks to be killed with irlint, even by SIGKILL
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=_fork_context(), initializer=orphans.die_with_parent)
    try:  # (not pool.map: its cancelling of pending futures races the pool's own breaking in Python 3.11)
        with forksafe.signals_held():  # the first submit forks the workers
            futures = [pool.submit(_work, job) for job in jobs]
        results = [f.result() for f in futures]
    except BrokenProcessPool as e:
        _kill_workers(pool)
        raise UsageError("a worker process ended unexpectedly (killed, or out of memory); -j 1 checks "
                         "every file in this process") from e
    except BaseException:
        _kill_workers(pool)
        raise
    pool.shutdown()
    return results


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    workers = multiprocessing.active_children()
    for p in workers:
        p.kill()
    for p in workers:
        p.join(5)
    # its thread sees the workers gone, fails the pending futures and ends; waiting for it here keeps
    # Python's exit from waking it while it closes its pipe (an 'Exception ignored' traceback in 3.11)
    pool.shutdown(wait=True)


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
    if args.output_file or args.baseline:  # never over a file this check reads, refused before anything is checked
        from irlint.cli.paths import check_outputs
        from irlint.ir.loader import default_weights_path

        reads = [("FILE", f) for f in files] + [("--weights", args.weights or default_weights_path(f)) for f in files]
        # a baseline is an output when it is (re)written, otherwise an input that -o must not overwrite
        written = args.baseline if args.baseline and (args.baseline_update or not os.path.exists(args.baseline)) \
            else None
        read = None if written else args.baseline
        check_outputs([("--baseline", written), ("-o", args.output_file)],
                      [*reads, ("--config", config.path and str(config.path)), ("--baseline", read)])
    try:
        known = all_rules(sel["rule_dirs"])
    except PackError as e:
        raise UsageError(str(e)) from e
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("-j needs a positive number")
    parallel_files = args.jobs is not None and args.jobs > 1 and len(files) > 1
    two_cores = args.jobs is None and (os.cpu_count() or 1) > 1
    kwargs = {k: v for k, v in sel.items()} | {"weights": args.weights, "debug": args.debug, "two_cores": two_cores}
    _check_fix_options(args, fmt)
    baseline = _load_baseline(args.baseline) if args.baseline else None
    how = {"fix": args.fix or args.diff, "unsafe": args.unsafe_fixes, "names": bool(args.baseline)}
    ignores = _per_file(config)
    jobs = [(f, kwargs, how | {"unfixable": ignores.codes_for(f) if ignores else ()}) for f in files]
    if parallel_files:
        results = _in_parallel(jobs, min(args.jobs, len(files)))
    else:
        results = [_work(j) for j in jobs]
    outcomes = [r[2] for r in results if r[2] is not None]
    nothing = _nothing_applied(outcomes, args.unsafe_fixes) if args.fix or args.diff else None
    if args.diff:
        code = _print_diffs(outcomes, results, args.show_fixes)
        if nothing:
            print(nothing, file=sys.stderr)
        return code
    notes = _write_fixes(outcomes, args.show_fixes) if args.fix else []
    if nothing:
        notes.append(nothing)
    names = {(f, path): name for f, r in zip(files, results) for path, name in r[1].items()}
    diags = [d for r in results for d in r[0]]
    if ignores is not None:
        diags = ignores.filter(diags)
    if args.baseline:
        from irlint.layerpath import place_key

        diags = _apply_baseline(args, baseline, diags, lambda d: names.get((d.loc.path, place_key(d))))

    out_stream = sys.stdout
    color = args.output_file is None and fmt in ("text", "concise") and use_color(args.color, out_stream)
    infos = {r.code: RuleInfo.from_rule(r) for r in known}
    if args.statistics:
        from irlint.fix import fixable_codes
        from irlint.report.statistics import render_statistics

        text = render_statistics(fmt, diags, rules=infos, fixable=fixable_codes())
    else:
        text = render(fmt, diags, files=files, rules=infos, color=color)
        if fmt in ("text", "concise"):
            text += fixable_note(diags)
    if notes and fmt in ("text", "concise") and not args.statistics:
        text = "\n".join(notes) + "\n" + text
    elif notes:
        print("\n".join(notes), file=sys.stderr)
    if args.output_file:
        from irlint.cli.paths import write_text

        write_text(args.output_file, text)
    else:
        from irlint.report.charset import fit_encoding

        # an ASCII-only stdout (LC_ALL=C) gets the characters it lacks escaped, never a UnicodeEncodeError
        out_stream.write(fit_encoding(fmt, text, getattr(out_stream, "encoding", None)))
        out_stream.flush()

    if any(d.code in UNCHECKABLE for d in diags):
        return EXIT_FAILURE
    if not args.exit_zero and not config.get("exit-zero", False) and any(
        d.severity is Severity.ERROR for d in diags
    ):
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _check_fix_options(args: argparse.Namespace, fmt: str) -> None:
    if args.baseline_update and not args.baseline:
        raise UsageError("--baseline-update needs --baseline FILE")
    if args.diff and (args.baseline or args.output_file or args.statistics):
        raise UsageError("--diff only prints the diff: it cannot be combined with --baseline, -o or --statistics")
    if args.statistics and fmt not in ("text", "concise", "json"):
        raise UsageError("--statistics prints text or json")
    if (args.unsafe_fixes or args.show_fixes) and not (args.fix or args.diff):
        raise UsageError("--unsafe-fixes and --show-fixes apply with --fix or --diff")


def _per_file(config: Config) -> PerFileIgnores | None:
    table = config.get("per-file-ignores")
    if not table:
        return None
    from irlint.settings.perfile import PerFileIgnores

    return PerFileIgnores(table, config.path.parent if config.path else Path.cwd())


def _load_baseline(name: str) -> Baseline | None:
    """The baseline at `name`, or None when there is none yet; read before anything is checked, so that a
    file that is not a baseline is refused (exit 2) before --baseline-update could replace it."""
    from irlint.cli.paths import regular_file
    from irlint.settings.baseline import Baseline, BaselineError

    path = Path(name)
    if not os.path.exists(path):
        return None
    regular_file(name, "--baseline")  # a FIFO would block the read, a device never end
    try:
        return Baseline.load(path)
    except BaselineError as e:
        raise UsageError(f"{e}; irlint reads and rewrites only its own baseline files") from e


def _apply_baseline(args: argparse.Namespace, baseline: Baseline | None, diags: list[Diagnostic],
                    name_of) -> list[Diagnostic]:  # type: ignore[no-untyped-def]
    """Record the baseline (missing file or --baseline-update) or hide the findings it records."""
    from irlint.cli.paths import write_text
    from irlint.settings.baseline import baseline_text
    from irlint.settings.perfile import NEVER_IGNORED

    path = Path(args.baseline)
    if args.baseline_update or baseline is None:
        text, n = baseline_text(path, diags, name_of)
        write_text(args.baseline, text)  # atomic, through a symlink to the file it points at
        print(safe(f"irlint: recorded {n} finding{'s' if n != 1 else ''} in baseline {path}; later runs with "
                   f"--baseline {path} report only new ones"), file=sys.stderr)
        return [d for d in diags if d.code in NEVER_IGNORED]
    new, matched, gone = baseline.split(diags, name_of)
    if matched or gone:
        msg = f"irlint: {matched} finding{'s' if matched != 1 else ''} in baseline {path} not shown"
        if gone:
            msg += f"; {gone} recorded finding{'s' if gone != 1 else ''} no longer occur (--baseline-update drops them)"
        print(safe(msg), file=sys.stderr)
    return new


def _fix_summary(outcomes: list[FixOutcome], dry: bool = False) -> list[str]:
    """'Fixed 10 findings (5 fixes) in 1 file.': findings gone (a fix can resolve several), fixes applied."""
    applied = sum(len(o.applied) for o in outcomes)
    fixed = sum(o.resolved for o in outcomes if o.changed)
    files = sum(1 for o in outcomes if o.changed)
    out = [f"{'Would fix' if dry else 'Fixed'} {fixed} finding{'s' if fixed != 1 else ''} ({applied} "
           f"fix{'es' if applied != 1 else ''}) in {files} file{'s' if files != 1 else ''}."] if applied else []
    out += [safe(f"{o.path}: fixes withheld: {o.withheld}") for o in outcomes if o.withheld]
    return out


def fixable_note(diags: Sequence[Diagnostic]) -> str:
    """ruff's footer: how many findings `--fix` repairs and how many more `--unsafe-fixes` would."""
    safe_n = sum(1 for d in diags if d.fix == "safe")
    unsafe_n = sum(1 for d in diags if d.fix == "unsafe")
    if not safe_n and not unsafe_n:
        return ""
    if not safe_n:
        return f"No fixes available ({unsafe_n} with --unsafe-fixes).\n"
    more = f" ({unsafe_n} more with --unsafe-fixes)" if unsafe_n else ""
    return f"[*] {safe_n} fixable with `irlint check --fix`{more}.\n"


def _nothing_applied(outcomes: list[FixOutcome], unsafe: bool) -> str | None:
    """When --fix/--diff changes nothing: why, as ruff says it (None when something changed or nothing
    was found)."""
    if any(o.changed for o in outcomes) or not any(o.diagnostics for o in outcomes):
        return None
    withheld = [o for o in outcomes if o.withheld]
    if withheld:
        return None  # `fixes withheld: ...` already says why
    hidden = 0 if unsafe else sum(1 for o in outcomes for d in o.diagnostics if d.fix == "unsafe")
    return "no fixes available" + (f" ({hidden} with --unsafe-fixes)" if hidden else "")


def _write_fixes(outcomes: list[FixOutcome], show: bool) -> list[str]:
    """Write every changed file (temporary file + rename) and say what was fixed."""
    from irlint.fix import write_atomic

    notes: list[str] = []
    for o in outcomes:
        if not o.changed:
            continue
        try:
            write_atomic(o.path, o.fixed)
        except OSError as e:
            raise UsageError(f"cannot write the fixed {o.path}: {e.strerror or e}") from e
        if show:
            notes += [safe(f"{o.path}: {f.code} {f.description}{'' if f.safe else ' (unsafe)'}") for f in o.applied]
    return notes + _fix_summary(outcomes)


def _print_diffs(outcomes: list[FixOutcome], results: list[FileResult], show: bool = False) -> int:
    """--diff: a unified diff per file that would change (with --show-fixes, the fixes on stderr);
    nothing is written."""
    import difflib

    from irlint.report.charset import fit_encoding
    from irlint.report.paths import relative_path

    for o in outcomes:
        if not o.changed:
            continue
        before = o.original.decode("utf-8", "replace").splitlines(keepends=True)
        after = o.fixed.decode("utf-8", "replace").splitlines(keepends=True)
        rel = relative_path(o.path)
        old, new = (safe(f"a/{rel}"), safe(f"b/{rel}")) if rel else (safe(o.path), safe(o.path))
        diff = "".join(difflib.unified_diff(before, after, old, new))
        sys.stdout.write(fit_encoding("text", diff, getattr(sys.stdout, "encoding", None)))
    sys.stdout.flush()
    if show:
        for o in outcomes:
            for f in o.applied if o.changed else ():
                print(safe(f"{o.path}: {f.code} {f.description}{'' if f.safe else ' (unsafe)'}"), file=sys.stderr)
    for line in _fix_summary(outcomes, dry=True):
        print(line, file=sys.stderr)
    if any(d.code in UNCHECKABLE for r in results for d in r[0]):
        return EXIT_FAILURE
    return EXIT_FINDINGS if any(o.changed for o in outcomes) else EXIT_CLEAN


COMMAND = Command("check", "lint IR files and report every defect", add_arguments, run)
