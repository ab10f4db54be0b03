"""`irlint debug MODEL.xml [--inputs IN.npz]`: the Textual step debugger."""

from __future__ import annotations

import argparse

from irlint.cli.command import EXIT_CLEAN, Command, UsageError


def add_arguments(p: argparse.ArgumentParser) -> None:
    from irlint.cli.run_support import add_model_arguments

    add_model_arguments(p)


def make_app(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """Build the app (separately from running it, for tests)."""
    from irlint.viewer.debugger.app import DebuggerApp
    from irlint.viewer.debugger.session import Session

    from irlint.api import check_model
    from irlint.cli.run_support import build_inputs, options
    from irlint.diagnostics import Severity
    from irlint.ir.loader import LoadError, load

    try:
        model = load(args.model, args.weights)
    except LoadError as e:
        raise UsageError(str(e)) from e
    diags = check_model(model)
    session = None
    if not any(d.severity is Severity.ERROR for d in diags):
        inputs, notes = build_inputs(model, args)
        session = Session(model, inputs, options(args), notes=notes)
    return DebuggerApp(session, diags, args.model, model=model)


def run(args: argparse.Namespace) -> int:
    make_app(args).run()
    return EXIT_CLEAN


COMMAND = Command("debug", "step through a model iteration by iteration (Textual UI)", add_arguments, run)
