"""`irlint rules` (the table of codes) and `irlint explain CODE` (one rule's documentation)."""

from __future__ import annotations

import argparse
import json
import sys

from irlint.cli.command import EXIT_CLEAN, EXIT_FAILURE, Command, UsageError
from irlint.engine.discovery import PackError


def _known(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from irlint.api import list_rules as rules

    try:
        return rules(args.rules)
    except PackError as e:
        raise UsageError(str(e)) from e


def add_rules_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    p.add_argument("--rules", action="append", default=[], metavar="DIR", help="also load the pack in DIR")


def run_rules(args: argparse.Namespace) -> int:
    known = _known(args)
    if args.format == "json":
        rows = [{"code": r.code, "name": r.name, "severity": r.severity.value, "summary": r.summary,
                 "pack": r.pack} for r in known]
        sys.stdout.write(json.dumps(rows, indent=2) + "\n")
    elif args.format == "markdown":
        sys.stdout.write(rules_markdown(known))
    else:
        width = max((len(r.name) for r in known), default=4)
        for r in known:
            sys.stdout.write(f"{r.code:<6} {r.name:<{width}}  {r.severity.value:<7}  {r.summary}\n")
    return EXIT_CLEAN


def rules_markdown(known) -> str:  # type: ignore[no-untyped-def]
    """The rule table of the README (generated from the rules themselves)."""
    lines = ["| code | name | severity | what it finds |", "| --- | --- | --- | --- |"]
    for r in known:
        summary = r.summary.replace("|", "\\|")
        lines.append(f"| {r.code} | {r.name} | {r.severity.value} | {summary} |")
    return "\n".join(lines) + "\n"


def add_explain_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("code", help="a rule code (PM401) or name (port-map-external-port-missing)")
    p.add_argument("--rules", action="append", default=[], metavar="DIR", help="also load the pack in DIR")


def run_explain(args: argparse.Namespace) -> int:
    key = args.code.strip()
    for r in _known(args):
        if r.code == key.upper() or r.name == key.lower():
            sys.stdout.write(f"# {r.code} {r.name} ({r.severity.value})\n\n{r.doc}\n\n{fix_text(r.code)}\n")
            return EXIT_CLEAN
    print(f"irlint explain: unknown rule {args.code!r} (see `irlint rules`)", file=sys.stderr)
    return EXIT_FAILURE


def fix_text(code: str) -> str:
    """The `Fix:` paragraph of `irlint explain`: whether `irlint check --fix` can repair the rule's findings."""
    from irlint.fix import fix_info

    info = fix_info(code)
    if info is None:
        return "Fix:\nNone: `irlint check --fix` does not repair these findings."
    flag = {"safe": "`--fix`", "unsafe": "`--fix --unsafe-fixes`"}.get(
        info.applicability, "`--fix` (the unsafe cases with `--unsafe-fixes`)")
    return f"Fix:\nAvailable ({info.applicability}) with {flag}: {info.summary}."


RULES_COMMAND = Command("rules", "list the rules: code, name, severity, summary", add_rules_arguments, run_rules)
EXPLAIN_COMMAND = Command("explain", "show the documentation of a rule", add_explain_arguments, run_explain)
