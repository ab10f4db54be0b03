"""`irlint explore MODEL.xml`: the model in Google's Model Explorer, with findings and trace values.

A shortcut for `model-explorer MODEL.xml --extensions=irlint.viewer.explorer` that checks its input
first (exit 2 with a message, never a traceback), passes a trace and its iteration to the adapter,
and adds irlint's findings and the traced magnitudes as Model Explorer node data: one run per
iteration (a long trace: a sample, viewer.explorer.convert.iteration_runs), which the UI's node data
list switches between. Needs the extra `irlint[explorer]`; the server
runs until Ctrl+C.
"""

from __future__ import annotations

import _thread
import argparse
import socket
import sys
import threading
from collections.abc import Callable

from irlint.cli import interrupts
from irlint.cli.argtypes import port_number
from irlint.cli.arrays import load_npz
from irlint.cli.command import EXIT_CLEAN, EXIT_FAILURE, Command, UsageError
from irlint.cli.printing import safe

ADAPTER_ID = "irlint_openvino_ir"
EXTENSION = "irlint.viewer.explorer"
DEFAULT_PORT = 8080  # Model Explorer's own default: it then takes the first free port up to 8099
TRACE_BUDGET = 4 * 1024**3


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", help="the IR .xml")
    p.add_argument("--weights", metavar="PATH", help="the .bin (default: MODEL.bin)")
    p.add_argument("--trace", metavar="T.npz", help="a trace from `irlint run --trace`: its values become node data")
    p.add_argument(
        "--iteration",
        metavar="K[.M]",
        default=None,
        help="with --trace: the iteration whose values the nodes list (0-based, outer first; "
        "default 0); the node data list in the UI colours the graph by any iteration",
    )
    p.add_argument("--host", default="localhost", help="the address the server listens on (default: localhost)")
    p.add_argument(
        "--port",
        type=port_number,
        default=DEFAULT_PORT,
        metavar="N",
        help=f"the server's port (default {DEFAULT_PORT}, or the next free one up to 8099)",
    )
    p.add_argument("--no-open", action="store_true", help="do not open a browser tab")


def _port_in_use(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        return s.connect_ex((host, port)) == 0


def check_address(host: str, port: int) -> None:
    """Refuse (UsageError) a --host/--port the server cannot listen on, before it is started: Model Explorer
    waits for its server in a loop that catches everything, Ctrl-C and SIGTERM included, so a server that
    never comes up (`--host ''`, an address of another machine) spun for ever; a name it cannot resolve
    made it exit 1. It checks IPv4 addresses only (an IPv6 one is a name it cannot resolve)."""
    if not host.strip():
        raise UsageError("--host '': give the address to listen on (localhost, 127.0.0.1, 0.0.0.0)")
    try:
        infos = socket.getaddrinfo(host, None, socket.AF_INET, socket.SOCK_STREAM)
    except (OSError, UnicodeError) as e:
        raise UsageError(f"--host {safe(host)}: not an IPv4 address or a name that resolves to one ({e})") from None
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:  # the default port is where Model Explorer starts looking for a free one: any port says enough
            s.bind((infos[0][4][0], 0 if port == DEFAULT_PORT else port))
        except OSError as e:
            raise UsageError(f"--host {safe(host)} --port {port}: cannot listen there ({e.strerror or e})") from None


def run(args: argparse.Namespace) -> int:
    try:
        import model_explorer
    except ImportError as e:
        raise UsageError(f"`irlint explore` needs Model Explorer: pip install 'irlint[explorer]' ({e})") from e
    from irlint.viewer.diagram.tracecheck import TraceMismatch, check_trace, parse_iteration
    from irlint.viewer.explorer import main as adapter
    from irlint.viewer.explorer.convert import Trace, convert, findings_node_data, iteration_node_data
    from irlint.viewer.render_cmd import load_to_show

    from irlint.api import check_model
    from irlint.interp.trace import TraceFormatError, trace_arrays

    if args.iteration is not None and args.trace is None:
        raise UsageError("--iteration needs --trace")
    check_address(args.host, args.port)
    if args.port != DEFAULT_PORT and _port_in_use(args.host, args.port):
        raise UsageError(f"--port {args.port}: the port is in use")
    model = load_to_show(args.model, args.weights, "show")
    if model is None:
        return EXIT_FAILURE
    trace = None
    if args.trace:
        arrays = load_npz(args.trace, "--trace", TRACE_BUDGET)
        try:
            values, _stats = trace_arrays(arrays)
        except TraceFormatError as e:
            raise UsageError(f"--trace {args.trace} is not a trace written by `irlint run --trace` ({e})") from e
        try:
            iteration = parse_iteration(args.iteration or "0")
            check_trace(model, values, iteration)
        except TraceMismatch as e:
            raise UsageError(f"--trace {args.trace}: {e}") from e
        trace = Trace.from_arrays(values, iteration)
    adapter.OPTIONS = adapter.Options(args.weights, trace)
    diagnostics = check_model(model)
    graphs = convert(model, diagnostics, trace)
    config = model_explorer.config()
    config.add_model_from_path(args.model, adapterId=ADAPTER_ID)
    if diagnostics:
        config.add_node_data("irlint findings", findings_node_data(graphs, model, diagnostics))
    if trace is not None:
        for name, data in iteration_node_data(graphs, model, trace):
            config.add_node_data(name, data)
    print(f"{safe(model.path)}: {len(diagnostics)} finding(s), {len(graphs)} graph(s)", file=sys.stderr)
    offline()
    try:
        _serve(
            lambda: model_explorer.visualize_from_config(
                config=config, host=args.host, port=args.port, extensions=[EXTENSION], no_open_in_browser=args.no_open
            )
        )
    except KeyboardInterrupt:
        if interrupts.received() is None:
            raise
    signum = interrupts.received()
    if signum is not None:  # Model Explorer stops on the interrupt it catches, and returns: not a clean exit
        raise interrupts.Interrupted(signum)
    return EXIT_CLEAN


def offline() -> None:
    """Model Explorer asks PyPI for its latest release once its server is up (and whenever its page asks),
    without a timeout, in a thread the process waits for when it ends: an `irlint explore` stopped by
    Ctrl+C or SIGTERM then waited on that request, and every start sent one. Here its check answers "no
    newer release" without the network."""
    from model_explorer import server

    if callable(getattr(server, "_check_new_version", None)):
        server._check_new_version = lambda print_msg=True: {  # (its answer's keys, all empty: nothing newer)
            "version": "",
            "runningVersion": "",
            "releaseUrl": "",
            "desktopAppUrl": "",
        }


def _serve(start: Callable[[], object]) -> None:
    """Run Model Explorer's server until it stops, and stop it when irlint is interrupted. It waits for its
    server to come up in a loop that catches every exception, so an interrupt arriving then was lost and
    the server ran on, deaf to further signals (`irlint.cli.interrupts` raises once); here every signal
    raises (`interrupts.repeated`), and after one a watcher raises it again every half second until
    `start` returns (its serving loop stops on the first that lands there)."""
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.5):
            if interrupts.received() is not None:
                _thread.interrupt_main()  # runs the SIGINT handler, `repeated`'s, in the main thread

    threading.Thread(target=watch, daemon=True, name="irlint-explore-interrupts").start()
    try:
        with interrupts.repeated():
            start()
    finally:
        done.set()


COMMAND = Command("explore", "show the model in Google's Model Explorer (needs irlint[explorer])", add_arguments, run)
