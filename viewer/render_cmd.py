"""`irlint render MODEL.xml -o OUT.{svg,png,pdf,dot}`: the diagram, optionally with lint and trace values."""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Collection
from pathlib import Path
from typing import Any

from irlint.cli.argtypes import non_negative_int, positive_int
from irlint.cli.arrays import load_npz
from irlint.cli.command import EXIT_CLEAN, EXIT_FAILURE, Command, UsageError
from irlint.cli.paths import atomic_write, check_outputs, regular_file
from irlint.cli.printing import safe
from irlint.ir.model import Graph, Model

FORMATS = ("svg", "png", "pdf", "dot", "html")
# Graphviz's layout time grows faster than linearly: ~1 s for 1,000 nodes, 5 s for 3,000, 26 s for
# 6,000 (a chain, measured on the CI machine); above this many drawn nodes SVG/PNG/PDF are refused
# (after bodies are collapsed automatically, see viewer.diagram.AUTO_COLLAPSE).
MAX_NODES = 2000
TRACE_BUDGET = 4 * 1024**3  # bytes of arrays a --trace file may hold


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
    p.add_argument("--depth", type=non_negative_int, metavar="N", help="expand bodies only N levels deep")
    p.add_argument("--expand", action="append", default=[], metavar="SCOPE",
                   help="draw the name scope SCOPE (a/b/c in layer names) as a cluster of its layers; scopes of "
                        "3 or more layers are otherwise one node each; repeatable; `--expand all` expands every one")
    p.add_argument("--scope-depth", type=non_negative_int, metavar="N",
                   help="open name scopes down to N levels of nesting (deeper ones stay one node each; 0: every "
                        "scope is one node); --expand SCOPE opens more")
    p.add_argument("--focus", metavar="LAYER",
                   help="draw only LAYER (a name or id path such as 3/body/12) and the layers within --radius "
                        "edges of it, expanding only the TI/Loop/If bodies that hold it; the rest of each graph "
                        "is one node")
    p.add_argument("--radius", type=non_negative_int, default=2, metavar="N",
                   help="with --focus: how many edges away from LAYER layers are drawn (default 2)")
    p.add_argument("--all-bodies", action="store_true",
                   help="draw every TI/Loop body, also those the same as one drawn earlier (by default such a "
                        "TI/Loop is one node naming the one drawn; with --trace every body is drawn)")
    p.add_argument("--const-nodes", action="store_true",
                   help="draw every Const as a node of its own (by default a layer fed by three or more Consts "
                        "that feed nothing else, such as an LSTMCell's weights, lists them in its node)")
    p.add_argument("--rankdir", choices=("TB", "LR"), default="TB")
    p.add_argument("--max-nodes", type=positive_int, default=MAX_NODES, metavar="N",
                   help=f"refuse SVG/PNG/PDF of more than N drawn layers (default {MAX_NODES}; "
                        "graphviz's time grows faster than the size)")


def drawn_nodes(graph: Graph, collapse: bool, depth: int | None, limit: int, level: int = 0,
                once: Collection[str] = ()) -> int:
    """How many layers the diagram draws (bodies expanded as the options say, those at the paths `once`
    drawn as one node: the same as another's); stops counting past `limit`."""
    count = 0
    for layer in graph.layers:
        subs = layer.subgraphs()
        if subs and not collapse and (depth is None or level < depth) and layer.path not in once:
            count += 2
            for sub in subs:  # an If's two branches
                count += drawn_nodes(sub, collapse, depth, limit - count, level + 1, once)
        else:
            count += 1
        if count > limit:
            break
    return count


def auto_collapses(model: Model, depth: int | None) -> bool:
    """Whether the diagram will collapse every body by itself (viewer.diagram.build_diagram's rule)."""
    from irlint.viewer.diagram import AUTO_COLLAPSE

    return depth is None and sum(1 for g, _la in model.layers() if g is not model.graph) > AUTO_COLLAPSE


def load_to_show(path: str, weights: str | None, verb: str) -> Model | None:
    """The model `render` and `explore` show, loaded after the path checks; None (said on stderr) when
    the file holds nothing to `verb` (a broken XML); a load failure is a usage error."""
    from irlint.ir.loader import LoadError, load

    regular_file(path, "model")
    try:
        model = load(path, weights)
    except LoadError as e:
        raise UsageError(str(e)) from e
    if model.diagnostics and not model.graph.layers:
        d = model.diagnostics[0]
        print(safe(f"{model.path}: {d.code} [error] cannot {verb}: {d.message}"), file=sys.stderr)
        return None
    return model


def pipe(g: Any, fmt: str) -> bytes:
    """`g.pipe(format=fmt)`, with Graphviz's `dot` run as a child that ends with irlint (`irlint.orphans`):
    the graphviz package's own pipe leaves `dot` running when irlint is terminated."""
    from irlint.orphans import run_child

    res = run_child([shutil.which("dot") or "dot", f"-K{g.engine}", f"-T{fmt}"], g.source.encode(g.encoding))
    if res.returncode != 0:
        tail = res.stderr.decode("utf-8", "replace").strip()[-2000:]
        raise RuntimeError(f"dot exited with code {res.returncode}" + (f": {tail}" if tail else ""))
    return res.stdout


def run(args: argparse.Namespace) -> int:
    from irlint.viewer.diagram import DiagramOptions, build_diagram

    from irlint.api import check_model
    from irlint.ir.loader import default_weights_path

    out = Path(args.output)
    fmt = out.suffix.lstrip(".").lower()
    if fmt not in FORMATS:
        raise UsageError(f"-o {args.output}: the extension must be one of {', '.join(FORMATS)}")
    if fmt != "dot" and shutil.which("dot") is None:
        raise UsageError("rendering to SVG/PNG/PDF needs Graphviz's `dot` program: install it (Debian: "
                         "apt-get install graphviz) or write DOT with -o OUT.dot")
    if (args.trace is None) != (args.iteration is None):
        raise UsageError("--trace and --iteration go together")
    reads = [("MODEL", args.model), ("--weights", args.weights or default_weights_path(args.model)),
             ("--trace", args.trace)]
    check_outputs([("-o", args.output)], reads)  # never over an input, before anything is read
    model = load_to_show(args.model, args.weights, "draw")
    if model is None:
        return EXIT_FAILURE
    if fmt != "dot" and args.focus is None:  # a focus draws a neighbourhood, whatever the model's size
        collapse = args.collapse or auto_collapses(model, args.depth)
        n = drawn_nodes(model.graph, collapse, args.depth, args.max_nodes)
        if n > args.max_nodes and not (args.all_bodies or args.trace or args.lint):  # bodies drawn once: once
            from irlint.viewer.diagram.twins import twins

            n = drawn_nodes(model.graph, collapse, args.depth, args.max_nodes, once=twins(model))
        if n > args.max_nodes:
            raise UsageError(f"the diagram would have more than {args.max_nodes} layers, too many for graphviz to lay "
                             "out in bounded time: draw bodies as single nodes with --collapse, expand fewer levels "
                             "with --depth N, write -o OUT.dot, or raise --max-nodes")
    trace, iteration = None, None
    if args.trace:
        from irlint.viewer.diagram.tracecheck import TraceMismatch, check_trace, parse_iteration

        from irlint.interp.trace import TraceFormatError, trace_arrays

        arrays = load_npz(args.trace, "--trace", TRACE_BUDGET)  # sizes checked before anything is inflated
        try:
            trace, _stats = trace_arrays(arrays)  # format 1 or 2, by key
        except TraceFormatError as e:
            raise UsageError(f"--trace {args.trace} is not a trace written by `irlint run --trace` ({e})") from e
        try:
            iteration = parse_iteration(args.iteration)
            check_trace(model, trace, iteration)
        except TraceMismatch as e:
            raise UsageError(f"--trace {args.trace}: {e}") from e
    opts = DiagramOptions(depth=args.depth, collapse=args.collapse, rankdir=args.rankdir,
                          diagnostics=check_model(model) if args.lint else (), trace=trace,
                          iteration=iteration, expand=tuple(args.expand),
                          scope_depth=args.scope_depth, share_bodies=not args.all_bodies, focus=args.focus,
                          list_weights=not args.const_nodes,
                          focus_radius=args.radius)
    try:
        g = build_diagram(model, opts)
    except LookupError as e:  # --focus names no layer
        raise UsageError(f"--focus: {e}") from e
    for note in getattr(g, "irlint_notes", ()):
        print(f"note: {safe(note)}", file=sys.stderr)
    try:
        if fmt == "dot":
            data = g.source.encode("utf-8")
        elif fmt == "html":
            from irlint.viewer.diagram.html import page

            data = page(model, pipe(g, "svg").decode("utf-8"), opts.diagnostics, g).encode("utf-8")
        else:
            data = pipe(g, fmt)
    except Exception as e:  # graphviz.ExecutableNotFound / CalledProcessError: dot failed
        raise UsageError(f"graphviz failed: {e}") from e
    atomic_write(args.output, lambda f: f.write(data))
    print(f"wrote {safe(out)}")
    return EXIT_CLEAN


COMMAND = Command("render", "draw the model with graphviz (bodies nested, port maps and back edges)", add_arguments,
                  run)
