"""The Textual step debugger: graph tree, iteration timeline, tensor inspector, diagnostics, event log.

All stepping goes through `Session` (no semantics here); steps run in a thread worker so a long
`continue` keeps the UI responsive. A model with lint errors opens on its diagnostics and does not run.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from irlint.viewer.debugger.inspector import as_rows, diff_text, summary
from irlint.viewer.debugger.session import Session
from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Footer, Header, RichLog, Static, Tree

from irlint.cli.printing import safe
from irlint.diagnostics import Diagnostic, Severity
from irlint.ir.model import Graph, Layer


def _plain(text: str) -> Text:
    """Text from the model (names, messages, paths) as a plain `Text`: never parsed as Rich markup (a
    layer called '[/]' would raise MarkupError and end the debugger), controls made visible."""
    return Text(safe(text).replace("\u2424", "\n"))


class DebuggerApp(App[None]):
    TITLE = "irlint debug"
    CSS_PATH = "debugger.tcss"
    BINDINGS = [
        Binding("s", "cmd('step')", "Step"),
        Binding("n", "cmd('over')", "Over"),
        Binding("i", "cmd('into')", "Into"),
        Binding("o", "cmd('out')", "Out"),
        Binding("t", "cmd('iteration')", "Next it."),
        Binding("c", "cmd('continue')", "Continue"),
        Binding("b", "breakpoint", "Break"),
        Binding("left_square_bracket", "history(-1)", "Prev it."),
        Binding("right_square_bracket", "history(1)", "Next it."),
        Binding("j", "slice(-1)", "Slice-", show=False),
        Binding("k", "slice(1)", "Slice+", show=False),
        Binding("r", "render", "SVG"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, session: Session | None, diagnostics: list[Diagnostic], model_path: str) -> None:
        super().__init__()
        self.session = session
        self.diagnostics = diagnostics
        self.model_path = model_path
        self.selected: Layer | None = None
        self.shown_iteration: tuple[int, ...] | None = None
        self.busy = False
        self.slice_index = 0  # leading index shown for tensors above 2-D (keys j/k)
        self.run_failed = False  # the run stopped with an error (the exit code is then 1)

    # -- layout --------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            yield Tree("model", id="graph")
            with Vertical(id="right"):
                yield Static("", id="status")
                yield Static("", id="summary")
                yield DataTable(id="values", zebra_stripes=True)
                yield Static("", id="diagnostics")
                yield RichLog(id="log", max_lines=500, wrap=True)
        yield Footer()

    def on_mount(self) -> None:
        tree = self.query_one("#graph", Tree)
        tree.root.expand()
        if self.session is not None:
            self._fill(tree.root, self.session.model.graph)
        errors = [d for d in self.diagnostics if d.severity is Severity.ERROR]
        diag = self.query_one("#diagnostics", Static)
        if self.diagnostics:
            diag.update(_plain("\n".join(f"{d.loc.line}:{d.loc.column} {d.code} [{d.severity.value}] {d.message}"
                                         for d in self.diagnostics[:50])))
        if errors:
            self.query_one("#status", Static).update(_plain(
                f"{len(errors)} lint error(s): the model is not run. Fix them first (irlint {self.model_path})."))
        else:
            diag.display = bool(self.diagnostics)
            self._status()

    def _fill(self, node, graph: Graph) -> None:  # type: ignore[no-untyped-def]
        for layer in graph.layers:
            label = _plain(f"{layer.id} {layer.type} {layer.name}")
            if layer.body is not None:
                child = node.add(label, data=layer, expand=True)
                self._fill(child, layer.body)
            else:
                node.add_leaf(label, data=layer)

    # -- actions -------------------------------------------------------------------------------
    def action_cmd(self, command: str) -> None:
        if self.session is None or self.busy:
            return
        self.busy = True
        self._run(command)

    @work(thread=True, exclusive=True)
    def _run(self, command: str) -> None:
        assert self.session is not None
        before = len(self.session.log)
        try:
            self.session.do(command)
            error = None
        except MemoryError:  # reported like the budget's refusal (RUN-BUDGET)
            error = "stopped: RUN-BUDGET: out of memory; restart with a lower --memory-budget"
            self.run_failed = True
        except Exception as e:  # an ExecutionError or a kernel bug: shown, not raised into Textual
            error = f"stopped: {getattr(e, 'code', type(e).__name__)}: {e}"
            self.run_failed = True
        self.call_from_thread(self._after_step, before, error)

    def _after_step(self, before: int, error: str | None) -> None:
        assert self.session is not None
        log = self.query_one("#log", RichLog)
        for line in self.session.log[before:]:
            log.write(_plain(line))
        if error:
            log.write(_plain(error))
        ev = self.session.stepper.current
        layer = getattr(ev, "layer", None)
        if layer is not None:
            self.selected = layer
            self.shown_iteration = self.session.current_iteration
            self._highlight(layer)
        self.busy = False
        self._status()
        self._inspect()

    def _highlight(self, layer: Layer) -> None:
        tree = self.query_one("#graph", Tree)

        def find(node):  # type: ignore[no-untyped-def]
            if node.data is layer:
                return node
            for child in node.children:
                found = find(child)
                if found is not None:
                    return found
            return None

        node = find(tree.root)
        if node is not None:
            tree.move_cursor(node)

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted) -> None:
        if isinstance(event.node.data, Layer) and event.node.data is not self.selected:
            self.selected = event.node.data
            self.shown_iteration = None
            self._inspect()

    def action_breakpoint(self) -> None:
        if self.session is None or self.selected is None:
            return
        on = self.session.toggle_breakpoint(self.selected.path)
        self.query_one("#log", RichLog).write(
            _plain(f"breakpoint {'set on' if on else 'removed from'} {self.selected.describe()}"))
        self._status()

    def action_history(self, delta: int) -> None:
        if self.session is None or self.selected is None:
            return
        seen = self.session.iterations_seen(self.selected.path)
        if not seen:
            return
        cur = self.shown_iteration if self.shown_iteration in seen else seen[-1]
        i = max(0, min(len(seen) - 1, seen.index(cur) + delta))
        self.shown_iteration = seen[i]
        self._inspect()

    def action_slice(self, delta: int) -> None:
        self.slice_index = max(0, self.slice_index + delta)
        self._inspect()

    def action_render(self) -> None:
        if self.session is None:
            return
        from irlint.viewer.diagram import DiagramOptions, build_diagram
        from irlint.viewer.render_cmd import MAX_NODES, drawn_nodes

        from irlint.cli.paths import atomic_write, check_outputs
        from irlint.ir.loader import default_weights_path

        out = Path(self.model_path).with_suffix(".debug.svg").name
        log = self.query_one("#log", RichLog)
        try:
            check_outputs([("SVG", out)], [("MODEL", self.model_path),
                                           ("weights", default_weights_path(self.model_path))])
            if drawn_nodes(self.session.model.graph, False, None, MAX_NODES) > MAX_NODES:
                log.write(f"not rendered: more than {MAX_NODES} layers (use irlint render --collapse or --depth)")
                return
            g = build_diagram(self.session.model, DiagramOptions(diagnostics=self.diagnostics))
            data = g.pipe(format="svg")
            atomic_write(out, lambda f: f.write(data))
            log.write(_plain(f"rendered the graph to {out}"))
        except Exception as e:  # no dot binary, unwritable directory, an input in the way ...
            log.write(_plain(f"cannot render: {e}"))

    # -- panels --------------------------------------------------------------------------------
    def _status(self) -> None:
        if self.session is None:
            return
        st = self.session.stepper
        its = " > ".join(self.session.loop_totals()) or "-"
        bps = ", ".join(bp.layer or "" for bp in st.breakpoints) or "none"
        state = "finished" if st.finished else "running" if self.busy else "paused"
        self.query_one("#status", Static).update(_plain(f"{state} | iteration {its} | breakpoints: {bps}"))

    def _inspect(self) -> None:
        table = self.query_one("#values", DataTable)
        table.clear(columns=True)
        summary_w = self.query_one("#summary", Static)
        if self.session is None or self.selected is None:
            summary_w.update("")
            return
        seen = self.session.iterations_seen(self.selected.path)
        tensors = self.session.tensor(self.selected.path, self.shown_iteration)
        if tensors is None:
            summary_w.update(_plain(f"{self.selected.describe()}: not evaluated yet"))
            return
        it = self.shown_iteration if self.shown_iteration in seen else seen[-1]
        idx = seen.index(it)
        prev = self.session.values[(self.selected.path, seen[idx - 1])][0] if idx > 0 else None
        a = np.asarray(tensors[0])
        label = ".".join(str(k) for k in it) or "-"
        text = f"{self.selected.describe()} @ iteration {label} ({idx + 1}/{len(seen)} recorded)\n" \
               f"{summary(a)}\n{diff_text(a, prev)}"
        if a.ndim > 2:
            self.slice_index = min(self.slice_index, a.shape[0] - 1)
            text += f"\nshowing [{self.slice_index}, ...] (j/k: other slices)"
        summary_w.update(_plain(text))
        rows = as_rows(a, (self.slice_index,) if a.ndim > 2 else ())
        table.add_columns(*[str(i) for i in range(len(rows[0]))])
        table.add_rows(rows)

    @property
    def inspected(self) -> np.ndarray | None:
        """The tensor the inspector shows (for tests and scripting)."""
        if self.session is None or self.selected is None:
            return None
        t = self.session.tensor(self.selected.path, self.shown_iteration)
        return None if t is None else np.asarray(t[0])
