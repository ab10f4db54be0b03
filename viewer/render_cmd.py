"""`irlint render MODEL.xml -o OUT.{svg,png,pdf,dot}`: the diagram, optionally with lint and trace values."""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from irlint.cli.command import EXIT_CLEAN, EXIT_FAILURE, Command, UsageError

FORMATS = ("svg", "png", "pdf", "dot", "html")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", help="the IR .xml")
    p.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="OUT.svg, .png, .pdf, .dot, or .html (one self-contained page: pan/zoom, search, attributes)")
    p.add_argument("--weights", metavar="PATH", help="the .bin (default: MODEL.bin)")
    p.add_argument("--lint", action="store_true", help="colour layers with diagnostics by severity")
    p.add_argument("--trace", metavar="T.npz", help="a trace from `irlint run --trace`")
    p.add_argument("--iteration", metavar="K[.M]",
                   help="with --trace: annotate edges with iteration K (0-based; K.M: iteration M of the inner loop "
                        "in iteration K of the outer one; inner loops not given show their last iteration)")
    p.add_argument("--collapse", action="store_true", help="draw TensorIterator/Loop bodies as single nodes")
    p.add_argument("--depth", type=int, metavar="N", help="expand bodies only N levels deep")
    p.add_argument("--rankdir", choices=("TB", "LR"), default="TB")


def run(args: argparse.Namespace) -> int:
    from irlint.viewer.diagram import DiagramOptions, build_diagram

    from irlint.api import check_model
    from irlint.ir.loader import LoadError, load

    out = Path(args.output)
    fmt = out.suffix.lstrip(".").lower()
    if fmt not in FORMATS:
        raise UsageError(f"-o {args.output}: the extension must be one of {', '.join(FORMATS)}")
    if fmt != "dot" and shutil.which("dot") is None:
        raise UsageError("rendering to SVG/PNG/PDF needs Graphviz's `dot` program: install it (Debian: "
                         "apt-get install graphviz) or write DOT with -o OUT.dot")
    if (args.trace is None) != (args.iteration is None):
        raise UsageError("--trace and --iteration go together")
    try:
        model = load(args.model, args.weights)
    except LoadError as e:
        raise UsageError(str(e)) from e
    if model.diagnostics and not model.graph.layers:
        print(f"{model.path}: cannot draw: {model.diagnostics[0].message}")
        return EXIT_FAILURE
    trace, iteration = None, None
    if args.trace:
        from irlint.viewer.tracecheck import TraceMismatch, check_trace, parse_iteration

        from irlint.interp.trace import load_trace

        try:
            trace, _ = load_trace(args.trace)
        except (OSError, ValueError, KeyError) as e:
            raise UsageError(f"cannot read trace {args.trace}: {e}") from e
        try:
            iteration = parse_iteration(args.iteration)
            check_trace(model, trace, iteration)
        except TraceMismatch as e:
            raise UsageError(f"--trace {args.trace}: {e}") from e
    opts = DiagramOptions(depth=args.depth, collapse=args.collapse, rankdir=args.rankdir,
                          diagnostics=check_model(model) if args.lint else (), trace=trace,
                          iteration=iteration)
    g = build_diagram(model, opts)
    for note in getattr(g, "irlint_notes", ()):
        print(f"note: {note}", file=sys.stderr)
    try:
        if fmt == "dot":
            out.write_text(g.source, encoding="utf-8")
        elif fmt == "html":
            from irlint.viewer.html import page

            out.write_text(page(model, g.pipe(format="svg").decode("utf-8"), opts.diagnostics), encoding="utf-8")
        else:
            out.write_bytes(g.pipe(format=fmt))
    except OSError as e:
        raise UsageError(f"cannot write {out}: {e}") from e
    except Exception as e:  # graphviz.ExecutableNotFound / CalledProcessError: dot failed
        raise UsageError(f"graphviz failed: {e}") from e
    print(f"wrote {out}")
    return EXIT_CLEAN


COMMAND = Command("render", "draw the model with graphviz (bodies nested, port maps and back edges)", add_arguments,
                  run)
