"""Entry point of the `irlint` executable and of `python -m irlint`.

Commands are imported only when invoked (the TUI, graphviz and the interpreter are heavy), and
every failure ends in a message and exit code 2, never a traceback (unless `--debug`).
"""

from __future__ import annotations

import argparse
import errno
import importlib
import signal
import sys
from collections.abc import Sequence
from typing import NoReturn

from irlint import __version__
from irlint.cli.command import EXIT_FAILURE, Command, UsageError

# name -> "module:attribute" of a Command; modules are imported only for the command that runs.
BUILTIN = {
    "check": ("irlint.cli.check_cmd:COMMAND", "lint IR files (the default command)"),
    "rules": ("irlint.cli.rules_cmd:RULES_COMMAND", "list the rules: code, name, severity"),
    "explain": ("irlint.cli.rules_cmd:EXPLAIN_COMMAND", "show the documentation of a rule"),
    "run": ("irlint.cli.run_cmd:COMMAND", "execute a model with the numpy reference interpreter"),
    "trace": ("irlint.cli.trace_cmd:COMMAND", "print watched tensors per loop iteration"),
    "compare": ("irlint.cli.compare_cmd:COMMAND", "compare irlint's results with OpenVINO's CPU plugin, or two IRs"),
}
ENTRY_POINT_GROUP = "irlint.commands"


def _registry() -> dict[str, tuple[str, str]]:
    from importlib.metadata import entry_points

    reg = dict(BUILTIN)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        reg.setdefault(ep.name, (ep.value, f"(from {ep.dist.name if ep.dist else 'a plugin'})"))
    return reg


def _load(spec: str) -> Command:
    module, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module), attr)


class _Parser(argparse.ArgumentParser):
    """argparse, with the arguments its error messages quote made visible (`irlint x $'\\e[2J'`)."""

    def error(self, message: str) -> NoReturn:
        from irlint.cli.printing import safe

        super().error(safe(message))


def _parser(reg: dict[str, tuple[str, str]], only: str | None) -> argparse.ArgumentParser:
    parser = _Parser(
        prog="irlint",
        description="Validate, run and debug OpenVINO IR models with TensorIterator and Loop.",
        epilog="A bare `irlint FILE...` means `irlint check FILE...`. Exit codes: 0 clean, 1 errors found, "
        "2 usage error or a file that could not be checked.",
    )
    parser.add_argument("--version", action="version", version=f"irlint {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (spec, help_text) in reg.items():
        if only is not None and name != only:
            sub.add_parser(name, help=help_text, add_help=False)
            continue
        try:
            cmd = _load(spec)
        except ImportError as e:
            sub.add_parser(name, help=f"{help_text} (unavailable: {e})")
            continue
        p = sub.add_parser(name, help=cmd.help, description=cmd.help)
        p.add_argument("--debug", action="store_true", help="show Python tracebacks of internal errors")
        cmd.add_arguments(p)
        p.set_defaults(_command=cmd)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_in = list(sys.argv[1:] if argv is None else argv)
    if args_in == ["--version"]:  # the fast path: no command module is imported
        print(f"irlint {__version__}")
        return 0
    _printable_stdout()
    from irlint.cli import interrupts

    with interrupts.handled():  # from the start: a signal while the command is imported ends cleanly too
        try:
            reg = _registry()
            first = _first_word(args_in)
            if first is not None and first not in reg and args_in[:1] != ["--version"]:
                args_in.insert(0, "check")  # `irlint model.xml` means `irlint check model.xml`
                first = "check"
            only = first if first in reg and not {"-h", "--help"} & set(args_in[:1]) else None
            parser = _parser(reg, only)
            args = parser.parse_args(args_in)
        except KeyboardInterrupt as e:
            return _interrupted(getattr(e, "signum", signal.SIGINT))
        cmd: Command | None = getattr(args, "_command", None)
        if cmd is None:
            parser.print_help()
            return EXIT_FAILURE
        from irlint import gcpause

        gcpause.freeze_after = True  # this process is ours: see irlint.gcpause
        return _run(cmd, args)


def _printable_stdout() -> None:
    """On a stdout that cannot carry every character (ASCII under `LC_ALL=C PYTHONUTF8=0`), what it lacks is
    printed as a backslash escape instead of ending the command in a UnicodeEncodeError (a layer name in a
    table of `run`). `check` escapes its reports itself, in each format's syntax (`irlint.report.charset`)."""
    import codecs

    try:
        utf = codecs.lookup(sys.stdout.encoding).name.startswith("utf")
    except (AttributeError, LookupError, TypeError):
        return
    if not utf and hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(errors="backslashreplace")


def _first_word(args: Sequence[str]) -> str | None:
    """The first argument that is not an option: the command, or a file of the implied `check`. After `--`
    every argument is a file (`irlint -- -m.xml` checks `-m.xml`), so `--` itself is returned then."""
    for a in args:
        if a == "--" or not a.startswith("-"):
            return a
    return None


def _run(cmd: Command, args: argparse.Namespace) -> int:
    """Run `cmd`: every way it can end becomes a message and an exit code."""
    from irlint.cli import interrupts
    from irlint.cli.printing import safe

    try:
        return cmd.run(args)
    except UsageError as e:
        if interrupts.received() is not None:  # a write cut short by the signal
            return _interrupted(interrupts.received())
        print(f"irlint {cmd.name}: error: {safe(e)}", file=sys.stderr)  # paths it quotes are anyone's
        return EXIT_FAILURE
    except KeyboardInterrupt as e:  # Ctrl-C, SIGTERM, SIGHUP (irlint.cli.interrupts)
        return _interrupted(getattr(e, "signum", signal.SIGINT))
    except BrokenPipeError:
        return EXIT_FAILURE
    except MemoryError:
        print(f"irlint {cmd.name}: out of memory (the input is too large for this machine; for run, trace and debug "
              "lower --memory-budget)", file=sys.stderr)
        return EXIT_FAILURE
    except Exception as e:  # the boundary: internal errors become a message and exit 2
        signum = interrupts.received()
        if signum is not None:  # raised while unwinding after a signal (a worker pool it broke): not a bug
            return _interrupted(signum)
        if getattr(args, "debug", False):
            raise
        if isinstance(e, OSError) and e.errno in (errno.ENOSPC, errno.EDQUOT):  # the machine's, not a bug
            where = f" ({e.filename})" if e.filename else ""
            print(f"irlint {cmd.name}: the disk is full: {safe(f'{e.strerror or e}{where}')}", file=sys.stderr)
            return EXIT_FAILURE
        print(
            f"irlint {cmd.name}: internal error: {type(e).__name__}: {safe(str(e) or '(no message)')}\n"
            "This is a bug in irlint; please report it with the model (--debug shows the traceback).",
            file=sys.stderr,
        )
        return EXIT_FAILURE


def _interrupted(signum: int) -> int:
    from irlint.cli import interrupts

    print(interrupts.message(signum), file=sys.stderr)
    return 128 + signum


def entry() -> None:
    sys.exit(main())
