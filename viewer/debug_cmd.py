"""`irlint debug MODEL.xml [--inputs IN.npz]`: the Textual step debugger."""

from __future__ import annotations

import argparse

from irlint.cli.command import EXIT_CLEAN, EXIT_FINDINGS, Command, UsageError


def add_arguments(p: argparse.ArgumentParser) -> None:
    from irlint.viewer.debugger.keys import keys_text

    from irlint.cli.run_support import add_model_arguments

    p.formatter_class = argparse.RawDescriptionHelpFormatter  # the key table keeps its lines
    p.epilog = (keys_text() + "\n\nIterations are 0-based, outer loop first (2.1); docs/viewer.md has the details.")

    add_model_arguments(p)
    for action in p._actions:  # the same bounds as `run`, counted per command (viewer/debugger/session.py)
        if action.dest == "time_limit":
            action.help = ("stop a command (continue, go-to, a step) that runs longer than this many seconds; "
                           "the run stays where it stopped and the next command goes on (default: none)")
        elif action.dest == "max_body_runs":
            action.help = ("end the run after N body executions, the iterations of every Loop and "
                           "TensorIterator at every nesting depth together (RUN-ITERATIONS; R restarts it; "
                           f"default {action.default})")
    from irlint.cli.state_file import add_state_arguments

    add_state_arguments(p, write=False)
    p.add_argument("--logpoints", metavar="FILE", default=None,
                   help="also write every line the logpoints print (B: `layer 12 log x.max()`) to FILE, "
                        "created at the first line (never over a file the run reads); the log pane shows "
                        "200 lines per command")


def make_app(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    """Build the app (separately from running it, for tests)."""
    from irlint.viewer.debugger.app import DebuggerApp
    from irlint.viewer.debugger.session import Session

    from irlint.api import check_model
    from irlint.cli.paths import regular_file
    from irlint.cli.run_support import UNCHECKABLE, build_inputs, options
    from irlint.diagnostics import Severity
    from irlint.ir.loader import LoadError, load

    regular_file(args.model, "model")
    try:
        model = load(args.model, args.weights)
    except LoadError as e:
        raise UsageError(str(e)) from e
    diags = check_model(model)
    unreadable = sorted({d.code for d in diags} & UNCHECKABLE)
    if unreadable:  # nothing to step through: exit 2 like `check` and `run`
        raise UsageError(f"{args.model} could not be read as an IR ({', '.join(unreadable)}): "
                         f"{next(d.message for d in diags if d.code in UNCHECKABLE)}")
    session = None
    if not any(d.severity is Severity.ERROR for d in diags):
        from irlint.cli.state_file import load_state

        inputs, notes = build_inputs(model, args)
        state, _record = load_state(args, model)
        session = Session(model, inputs, options(args), notes=notes,
                          state=dict(state.values) if state is not None else None)
    from irlint.cli.run_support import input_paths

    reads = [*input_paths(args), ("--state", getattr(args, "state", None))]
    if session is not None and getattr(args, "logpoints", None):
        from irlint.cli.paths import check_outputs

        check_outputs([("--logpoints", args.logpoints)], reads)  # refused before the UI starts (exit 2)
        session.logpoints.path, session.logpoints.reads = args.logpoints, reads
    return DebuggerApp(session, diags, args.model, model=model, reads=reads)


def exit_code(app) -> int:  # type: ignore[no-untyped-def]
    """1 if the model has lint errors (the debugger opened on them) or its run stopped with an error, else 0."""
    from irlint.diagnostics import Severity

    failed = app.run_failed or (app.session is not None and app.session.failed is not None)
    if failed or any(d.severity is Severity.ERROR for d in app.diagnostics):
        return EXIT_FINDINGS
    return EXIT_CLEAN


def run(args: argparse.Namespace) -> int:
    app = make_app(args)
    try:
        app.run()
    finally:
        if app.session is not None:
            app.session.logpoints.close()
    return exit_code(app)


COMMAND = Command("debug", "step through a model iteration by iteration (Textual UI)", add_arguments, run)
