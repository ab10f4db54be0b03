"""The Textual step debugger: graph tree, tensor inspector with a per-loop timeline, event log.

All stepping goes through `Session` (no semantics here); steps run in a thread worker that reports
back with a message (never blocking on the UI), while a timer shows its progress and Esc or `q`
interrupts it. A model with lint errors opens on its findings and does not run. Every string from
the model is shown as plain text (rich.Text, markup off): layer names such as `LSTM[rnn]` are not markup.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from irlint.viewer.debugger.conditions import ConditionError, parse_breakpoint
from irlint.viewer.debugger.export import as_text, default_npy_name, npy_path, save_npy
from irlint.viewer.debugger.inspector import as_rows, diff_text, port_names, scalar_text, summary, view_title
from irlint.viewer.debugger.screens import HelpScreen, LogScreen, PromptScreen
from irlint.viewer.debugger.session import Session, describe_event, parse_iteration
from irlint.viewer.debugger.timeline import METRICS, Point, Timeline, series
from irlint.viewer.debugger.widgets.breakpoints import BreakpointsScreen
from irlint.viewer.debugger.widgets.console import ConsoleScreen
from irlint.viewer.debugger.widgets.log import EventLog
from irlint.viewer.debugger.widgets.status import StatusLine
from irlint.viewer.debugger.widgets.tree import ModelTree
from irlint.viewer.debugger.widgets.watch import WatchList
from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import DataTable, Footer, OptionList, Static, Tree
from textual.widgets.option_list import Option

from irlint.cli.printing import safe
from irlint.diagnostics import Diagnostic, Severity
from irlint.ir.model import Layer, Model
from irlint.layerpath import iteration_label

SEVERITY_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}
RUN_ACTIONS = {"cmd", "breakpoint", "conditional", "nonfinite", "history", "slice", "render", "goto", "restart",
               "metric", "port", "interrupt", "log", "watch", "unwatch_all", "save", "copy", "breakpoints",
               "console"}



def safe_lines(text: object) -> str:
    """A model's string for the screen: control, bidi and separator characters made visible (as every
    printer does), line breaks kept; shown as plain text, never parsed as Rich markup."""
    return safe(text).replace("\u2424", "\n")


def plain(text: object, style: str = "") -> Text:
    return Text(safe_lines(text), style=style)

def fit_items(head: str, items: list[str], width: int, lines: int, sep: str = ", ") -> str:
    """`head` and as many whole `items` as fit in `lines` lines of `width` columns (an item is never
    split across lines), then how many more there are: nothing is cut in the middle."""
    for shown in range(len(items), -1, -1):
        rest = len(items) - shown
        tokens = head.split() + [it + (sep if i < shown - 1 or rest else "") for i, it in enumerate(items[:shown])]
        if rest:
            tokens.append(f"... {rest} more (l: the log)")
        out: list[str] = []
        for tok in tokens:
            if out and len(out[-1]) + 1 + len(tok) <= width:
                out[-1] += " " + tok
            else:
                out.append(tok)
        if len(out) <= lines and all(len(line) <= width for line in out):
            return "\n".join(out)
    return head


class StepDone(Message):
    """Posted by the worker thread when a step (or continue) has stopped."""

    def __init__(self, before: int, error: str | None) -> None:
        super().__init__()
        self.before = before
        self.error = error


class DebuggerApp(App[None]):
    TITLE = "irlint debug"
    CSS_PATH = "debugger.tcss"
    ENABLE_COMMAND_PALETTE = False  # its footer entry would push `? help` and `q quit` off an 80-column screen
    BINDINGS = [
        Binding("s", "cmd('step')", "step"),
        Binding("n", "cmd('over')", "over"),
        Binding("i", "cmd('into')", "into"),
        Binding("o", "cmd('out')", "out"),
        Binding("t", "cmd('iteration')", "iter"),
        Binding("c", "cmd('continue')", "cont"),
        Binding("S", "cmd('back')", "back", show=False),
        Binding("N", "cmd('back_over')", "back over", show=False),
        Binding("colon", "console", "eval"),
        Binding("g", "goto", "goto"),
        Binding("b", "breakpoint", "bp"),
        Binding("B", "conditional", "cond. break", show=False),
        Binding("exclamation_mark", "nonfinite", "NaN stop", show=False),
        Binding("escape", "interrupt", "stop", show=False),
        Binding("left_square_bracket", "history(-1)", "prev it", show=False),
        Binding("right_square_bracket", "history(1)", "next it", show=False),
        Binding("m", "metric", "metric", show=False),
        Binding("p", "port", "port", show=False),
        Binding("j", "slice(-1)", "slice-", show=False),
        Binding("k", "slice(1)", "slice+", show=False),
        Binding("R", "restart", "restart", show=False),
        Binding("r", "render", "SVG", show=False),
        Binding("l", "log", "log", show=False),
        Binding("x", "breakpoints", "breakpoints", show=False),
        Binding("e", "save", "save .npy", show=False),
        Binding("y", "copy", "copy", show=False),
        Binding("w", "watch", "watch", show=False),
        Binding("W", "unwatch_all", "unwatch all", show=False),
        Binding("less_than_sign", "tree_width(-4)", "tree-", show=False),
        Binding("greater_than_sign", "tree_width(4)", "tree+", show=False),
        Binding("question_mark", "help", "help"),
        Binding("q", "quit", "quit"),
    ]

    def __init__(self, session: Session | None, diagnostics: list[Diagnostic], model_path: str,
                 model: Model | None = None, reads: list[tuple[str, str | None]] | None = None) -> None:
        super().__init__()
        self.reads = reads if reads is not None else [("MODEL", model_path)]  # files no output may overwrite
        self.session = session
        self.model = session.model if session is not None else model
        self.diagnostics = diagnostics
        self.model_path = model_path
        self.selected: Layer | None = None
        self.shown_iteration: tuple[int, ...] | None = None
        self.busy = False
        self.run_failed = False  # the run stopped with an error (the exit code is then 1)
        self.slice_index = 0  # leading index shown for tensors above 2-D (keys j/k)
        self.port = 0  # which output of a multi-output layer the table and timeline show (key p)
        self.metric = METRICS[0]
        self._source_lines: list[str] | None = None
        self._lint_log: list[Text] = []  # without a session there is no log pane
        self._points: dict[tuple[object, ...], Point] = {}  # (path, iteration, port, metric) -> timeline point
        self._goto: tuple[str, tuple[int, ...]] | None = None  # the layer and iteration a running go-to wants
        self.console_history: list[str] = []  # the expression console's, kept while the app runs

    # -- layout --------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield ModelTree(Path(self.model_path).name, id="graph")
            with Vertical(id="right"):
                yield StatusLine(id="status")
                if self.session is None:
                    yield OptionList(id="findings")
                    with VerticalScroll(id="source-box"):
                        yield Static("", id="source", markup=False)
                else:
                    yield Static("", id="notes", markup=False)
                    yield Static("", id="summary", markup=False)
                    yield Timeline(id="timeline")
                    yield Static("", id="viewtitle", markup=False)
                    yield DataTable(id="values", zebra_stripes=True, show_row_labels=True)
                    yield WatchList(id="watch")
                    yield EventLog(id="log")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        if self.model is not None:
            self.query_one(ModelTree).fill(self.model, self.size.width)
        if self.session is None:
            self._mount_findings()
            return
        self.query_one("#notes", Static).display = bool(self.session.notes)
        for n in self.session.notes:
            self.log_line(plain(n, style="bold yellow"))
        for d in self.diagnostics:
            self.log_line(plain(f"{d.loc.line}:{d.loc.column} {d.code} [{d.severity.value}] {d.message}",
                                style=SEVERITY_STYLE[d.severity.value]))
        self._banner()
        self.query_one("#timeline", Timeline).display = False
        self._status()
        self.set_interval(0.1, self._tick)

    @property
    def nodes(self) -> dict[str, object]:
        """Layer path -> tree node."""
        return self.query_one(ModelTree).nodes

    @property
    def tree_width(self) -> int | None:
        return self.query_one(ModelTree).columns

    def _tree_columns(self) -> int:
        return self.query_one(ModelTree).width_in(self.size.width)

    def on_resize(self) -> None:
        self.query_one(ModelTree).relabel(self.size.width)
        self.call_after_refresh(self._rewrap_log)
        if self.session is not None:
            self._banner()
            self._status()
        else:
            self._mount_status()

    def action_tree_width(self, delta: int) -> None:
        """Resize the tree pane (keys < and >), keeping at least 30 columns on the right."""
        self.query_one(ModelTree).resize_by(delta, self.size.width)
        self.call_after_refresh(self._rewrap_log)

    def _rewrap_log(self) -> None:
        """Write the log again at the pane's new width (RichLog wraps a line once, when written)."""
        if self.session is not None:
            self.query_one(EventLog).rewrap()

    @property
    def log_lines(self) -> list[Text]:
        """Every entry of the event log, whole."""
        return self.query_one(EventLog).entries if self.session is not None else self._lint_log

    def log_line(self, text: Text) -> None:
        """One entry of the event log: wrapped in the pane, kept whole for the full view (l)."""
        if self.session is not None:
            self.query_one(EventLog).add(text)

    def action_log(self) -> None:
        self.push_screen(LogScreen(self.log_lines))

    def _banner(self) -> None:
        """The yellow random-inputs banner in at most 3 lines, names never cut: what does not fit is counted
        (the log lists every random input)."""
        assert self.session is not None
        notes = self.session.notes
        if not notes:
            return
        width = max(20, self.size.width - self._tree_columns() - 2)
        seed = notes[0].rsplit("seed ", 1)[-1].rstrip(")") if "seed " in notes[0] else "?"
        items = [n.split("RANDOM input ", 1)[-1].split(" (--random-inputs", 1)[0].replace(", ", ",") for n in notes]
        head = f"RANDOM inputs (--random-inputs, seed {seed}): "
        text = fit_items(head, items, width, 3, ";")
        self.query_one("#notes", Static).update(plain(text, style="bold black on yellow"))

    def _refresh_markers(self, every: bool = False) -> None:
        """Relabel the tree nodes whose breakpoint marker changed (all of them on `every`)."""
        marked = self.session.breakpoint_paths() if self.session is not None else set()
        self.query_one(ModelTree).mark(marked, every)

    # -- the lint-error screen -------------------------------------------------------------------
    def _mount_findings(self) -> None:
        self.query_one("#status", Static).styles.height = 2  # two lines here: what happened, which keys
        self._mount_status()
        opts = self.query_one("#findings", OptionList)
        for d in self.diagnostics:
            text = plain(f"{d.loc.line}:{d.loc.column} ", style="dim")
            text.append(safe_lines(f"{d.code} [{d.severity.value}]"), style=SEVERITY_STYLE[d.severity.value])
            text.append(safe_lines(f" {d.message}"))
            opts.add_option(Option(text))
        if self.diagnostics:
            opts.highlighted = 0
        opts.focus()

    def _mount_status(self) -> None:
        errors = sum(d.severity is Severity.ERROR for d in self.diagnostics)
        self.query_one("#status", Static).update(plain(
            f"{errors} lint error{'s' if errors != 1 else ''} in {len(self.diagnostics)} findings: not run\n"
            "Up/Down: finding, layer, XML; q quits", style="bold"))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_index is not None and event.option_index < len(self.diagnostics):
            self.show_finding(self.diagnostics[event.option_index])

    def show_finding(self, d: Diagnostic) -> None:
        """Select the finding's layer in the tree and show its line of XML with context."""
        if d.layer is not None and d.layer in self.nodes:
            node = self.nodes[d.layer]
            tree = self.query_one("#graph", Tree)
            tree.move_cursor(node)  # type: ignore[arg-type]
            self.selected = node.data  # type: ignore[attr-defined]
        self.query_one("#source", Static).update(self._source_window(d))

    def _source_window(self, d: Diagnostic) -> Text:
        """The finding's line of XML, its hint first (so it shows at 80x24), with more context when tall."""
        context = 2 if self.size.height < 30 else 5
        if self._source_lines is None:
            try:
                self._source_lines = Path(d.loc.path).read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                self._source_lines = []
        lines = self._source_lines
        out = plain(f"{d.loc}\n", style="bold")
        if d.hint:
            out.append(safe_lines(f"hint: {d.hint}\n"), style="italic")
        if not d.loc.line or d.loc.line > len(lines):
            return out + plain("(no source line)")
        lo, hi = max(1, d.loc.line - context), min(len(lines), d.loc.line + context)
        for n in range(lo, hi + 1):
            style = "reverse" if n == d.loc.line else ""
            out.append(safe_lines(f"{n:>5} | {lines[n - 1].strip()}\n"), style=style)
        return out

    # -- actions -------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # the lint-error screen: nothing to run (and the footer does not offer it)
        return not (self.session is None and action in RUN_ACTIONS)

    def action_cmd(self, command: str) -> None:
        if self.session is None or self.busy:
            return
        self._start(lambda s: s.do(command))

    def _start(self, fn) -> None:  # type: ignore[no-untyped-def]
        self.busy = True
        self._status()
        self._run(fn)

    @work(thread=True, exclusive=True)
    def _run(self, fn) -> None:  # type: ignore[no-untyped-def]
        assert self.session is not None
        before = len(self.session.log)
        try:
            fn(self.session)
            error = None
        except MemoryError:  # reported like the budget's refusal (RUN-BUDGET)
            error = "stopped: RUN-BUDGET: out of memory; restart with a lower --memory-budget"
            self.run_failed = True
        except Exception as e:  # an ExecutionError or a kernel bug: shown, not raised into Textual
            error = f"stopped: {getattr(e, 'code', type(e).__name__)}: {e}"
            self.run_failed = True
        self.post_message(StepDone(before, error))  # thread-safe; never waits for the UI

    def on_step_done(self, message: StepDone) -> None:
        assert self.session is not None
        for line in self.session.log[message.before:]:
            self.log_line(plain(line))
        if message.error:
            self.log_line(plain(message.error, style="bold red"))
        ev = self.session.stepper.current
        layer = getattr(ev, "layer", None)
        goto, self._goto = self._goto, None
        reached = self.session.recorded_at(goto[0], goto[1]) if goto is not None else None
        bad = self.session.last_bad
        bad_layer = self.session.find_layer(bad.path) if bad is not None else None
        if reached is not None:  # a go-to stays on the layer it was asked for (at a Parameter, too)
            self.shown_iteration = reached
            self._highlight(self.selected)  # type: ignore[arg-type]
        elif bad is not None and bad_layer is not None:  # the layer and output that holds the NaN/Inf
            self.selected = bad_layer
            self.shown_iteration = tuple(k for _p, k in bad.frames)
            recorded = self.session.tensor(bad.path, self.shown_iteration) or ()
            ids = [f"out{p.id}" for p in bad_layer.outputs]
            self.port = ids.index(bad.port) if bad.port in ids and len(recorded) > 1 else 0
            self._highlight(bad_layer)
        elif layer is not None:
            self.selected = layer
            self.shown_iteration = self.session.current_iteration
            self._highlight(layer)
        self.busy = False
        self._status()
        self._inspect()

    def action_interrupt(self) -> None:
        if self.session is not None and self.busy:
            self.session.interrupt()

    async def action_quit(self) -> None:
        if self.session is not None and self.busy:
            self.session.interrupt()  # the worker stops at its next event, so the process can end
        self.exit()

    def _tick(self) -> None:
        if self.busy:
            self._status()

    def _highlight(self, layer: Layer) -> None:
        self.query_one(ModelTree).select(layer)

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted) -> None:
        if isinstance(event.node.data, Layer) and event.node.data is not self.selected:
            self.selected = event.node.data
            self.shown_iteration = None
            self.port = 0
            if self.session is not None:
                self._inspect()

    def action_breakpoint(self) -> None:
        if self.session is None or self.selected is None:
            return
        on = self.session.toggle_breakpoint(self.selected.path)
        self.log_line(
            plain(f"breakpoint {'set on' if on else 'removed from'} {self.selected.describe()}"))
        self._refresh_markers()
        self._status()

    def action_conditional(self) -> None:
        if self.session is None:
            return
        start = f"layer {self.selected.path} when " if self.selected is not None else "when "
        self.push_screen(PromptScreen("breakpoint: [layer ID|PATH|NAME] [when CONDITION]",
                                      "layer 12 when iteration == 10 | when x.max() > 1e3 | nonfinite 1e6",
                                      start),
                         self.add_breakpoint)

    def add_breakpoint(self, text: str | None) -> None:
        if self.session is None or not text:
            return
        try:
            bp = parse_breakpoint(text, self.session.model)
        except ConditionError as e:
            self.log_line(plain(f"breakpoint not set: {e}", style="bold red"))
            return
        if bp.nonfinite and bp.layer is None:
            self.log_line(plain(self.session.set_value_breakpoint(bp.bound)))
        else:
            self.session.add_breakpoint(bp)
            self.log_line(plain(f"breakpoint set: {text.strip()}"))
        self._refresh_markers()
        self._status()

    def action_nonfinite(self) -> None:
        """Toggle stopping at the first NaN/Inf (`B` then `nonfinite 1e6` adds a magnitude)."""
        if self.session is None:
            return
        on = self.session.value_breakpoint() is None
        self.log_line(plain(self.session.set_value_breakpoint(on=on)))
        self._status()

    def action_goto(self) -> None:
        if self.session is None or self.busy:
            return
        where = f" of {self.selected.name}" if self.selected is not None else ""
        self.push_screen(PromptScreen(safe_lines(f"go to iteration{where} (0-based, loops outer first: N or N.M)"),
                                      "e.g. 10 or 2.1"), self.goto)

    def goto(self, text: str | None) -> None:
        if self.session is None or not text:
            return
        try:
            target = parse_iteration(text)
        except ValueError as e:
            self.log_line(Text(str(e), style="bold red"))
            return
        path = self.selected.path if self.selected is not None else None
        recorded = self.session.recorded_at(path, target) if path is not None else None
        if recorded is not None:
            self.shown_iteration = recorded  # recorded: just show it
            self._inspect()
            return
        self._goto = (path, target) if path is not None else None
        self._start(lambda s: s.run_to_iteration(target, path))

    def action_restart(self) -> None:
        if self.session is None:
            return
        if self.busy:
            self.session.interrupt()
            return
        self.session.restart()
        self._points.clear()
        self.shown_iteration = None
        self.log_line(plain("restarted from the beginning"))
        self._status()
        self._inspect()

    def action_watch(self) -> None:
        """Pin the inspected output (the layer selected, the port `p` chose) to the watch list, or unpin it."""
        if self.session is None or self.selected is None:
            return
        watch = self.query_one(WatchList)
        t = self.session.tensor(self.selected.path) or (
            self.session.const_value(self.selected) if self.selected.type == "Const" else None)
        port = self.port % len(t) if t else 0
        on = watch.toggle(self.selected, port)
        self.log_line(plain(f"{'watching' if on else 'no longer watching'} {self.selected.describe()} "
                            f"{port_names(self.selected, port + 1)[port]}"))
        watch.show(self.session)

    def action_unwatch_all(self) -> None:
        if self.session is not None:
            self.query_one(WatchList).clear_all()
            self.query_one(WatchList).show(self.session)

    def _inspected_label(self) -> tuple[str, str, str] | None:
        """(layer name, iteration label, port name) of the inspected tensor."""
        if self.session is None or self.selected is None or self.inspected is None:
            return None
        layer = self.selected
        seen = self.session.iterations_seen(layer.path)
        it = self.shown_iteration if self.shown_iteration in seen else (seen[-1] if seen else ())
        t = self.session.tensor(layer.path, it) or self.session.const_value(layer) or ()
        port = self.port % max(1, len(t))
        return layer.name, iteration_label(it, layer.path), port_names(layer, port + 1)[port]

    def action_save(self) -> None:
        label = self._inspected_label()
        if label is None:
            self.log_line(plain("nothing to save: select a layer that has a value"))
            return
        self.push_screen(PromptScreen("save the inspected tensor as .npy (never over a file the run reads)",
                                      "FILE.npy", default_npy_name(*label)), self.save_to)

    def save_to(self, path: str | None) -> None:
        a = self.inspected
        if not path or not path.strip() or a is None:
            return
        from irlint.cli.command import UsageError

        try:
            save_npy(path.strip(), a, self.reads)
        except UsageError as e:
            self.log_line(plain(f"not saved: {e}", style="bold red"))
            return
        self.log_line(plain(f"saved {summary(a)} to {npy_path(path.strip())}"))

    def action_copy(self) -> None:
        label = self._inspected_label()
        a = self.inspected
        if label is None or a is None:
            return
        name, it, port = label
        try:
            text = as_text(a, f"{name} {port} it {it}: {summary(a)}")
        except ValueError as e:
            self.log_line(plain(f"not copied: {e}", style="bold red"))
            return
        self.copy_to_clipboard(text)
        self.log_line(plain(f"copied {name} {port} it {it} as text ({len(text)} characters; "
                            "the terminal must allow OSC 52 clipboard writes)"))

    def action_breakpoints(self) -> None:
        if self.session is not None and not self.busy:
            self.push_screen(BreakpointsScreen(self.session))

    def on_breakpoints_screen_changed(self, _message: BreakpointsScreen.Changed) -> None:
        self._refresh_markers()
        self._status()

    def action_console(self) -> None:
        if self.session is not None and not self.busy:
            where = describe_event(self.session.stepper.current) if self.session.stepper.current else "the start"
            self.push_screen(ConsoleScreen(self.session.evaluate, where, self.console_history))

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

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

    def on_timeline_jump(self, message: Timeline.Jump) -> None:
        self.jump_to_index(message.index)

    def jump_to_index(self, index: int) -> None:
        if self.session is None or self.selected is None:
            return
        seen = self.session.iterations_seen(self.selected.path)
        if 0 <= index < len(seen):
            self.shown_iteration = seen[index]
            self._inspect()

    def action_metric(self) -> None:
        self.metric = METRICS[(METRICS.index(self.metric) + 1) % len(METRICS)]
        self._inspect()

    def action_port(self) -> None:
        self.port += 1
        self._inspect()

    def action_slice(self, delta: int) -> None:
        self.slice_index = max(0, self.slice_index + delta)
        self._inspect()

    def action_render(self) -> None:
        if self.session is None:
            return
        from irlint.viewer.diagram import DiagramOptions, build_diagram
        from irlint.viewer.render_cmd import MAX_NODES, auto_collapses, drawn_nodes

        from irlint.cli.paths import atomic_write, check_outputs
        from irlint.ir.loader import default_weights_path

        out = Path(self.model_path).with_suffix(".debug.svg").name
        model = self.session.model
        try:
            check_outputs([("SVG", out)], [*self.reads, ("weights", default_weights_path(self.model_path))])
            if drawn_nodes(model.graph, auto_collapses(model, None), None, MAX_NODES) > MAX_NODES:
                self.log_line(plain(f"not rendered: more than {MAX_NODES} layers "
                                "(use irlint render --collapse or --depth)"))
                return
            data = build_diagram(model, DiagramOptions(diagnostics=self.diagnostics)).pipe(format="svg")
            atomic_write(out, lambda f: f.write(data))
            self.log_line(plain(f"rendered the graph to {out}"))
        except Exception as e:  # no dot binary, unwritable directory, an input in the way ...
            self.log_line(plain(f"cannot render: {e}"))

    # -- panels --------------------------------------------------------------------------------
    def _status(self) -> None:
        if self.session is not None:
            self.query_one("#status", StatusLine).show(self.session, self.busy, self._status_width())

    def _status_width(self) -> int:
        return max(20, self.size.width - self._tree_columns() - 1)

    def _inspect(self) -> None:
        if self.session is None:
            return
        self.query_one(WatchList).show(self.session)
        table = self.query_one("#values", DataTable)
        table.clear(columns=True)
        summary_w = self.query_one("#summary", Static)
        timeline = self.query_one("#timeline", Timeline)
        title = self.query_one("#viewtitle", Static)
        if self.selected is None:
            summary_w.update("")
            timeline.show([], self.metric, None)
            title.update("")
            return
        layer = self.selected
        seen = self.session.iterations_seen(layer.path)
        tensors = self.session.tensor(layer.path, self.shown_iteration)
        if tensors is None and layer.type == "Const":
            tensors, seen = self.session.const_value(layer), [()]
        if tensors is None or not seen:
            summary_w.update(plain(f"#{layer.id} {layer.name} ({layer.type}): not evaluated yet"))
            timeline.show([], self.metric, None)
            title.update("")
            return
        it = self.shown_iteration if self.shown_iteration in seen else seen[-1]
        idx = seen.index(it)
        self.port %= max(1, len(tensors))
        names = port_names(layer, len(tensors))
        lines = [plain(f"#{layer.id} {layer.name} ({layer.type}) it {iteration_label(it, layer.path)} "
                      f"[{idx + 1}/{len(seen)} recorded]", style="bold")]
        for i, t in enumerate(tensors[:6]):
            mark = "▸" if i == self.port and len(tensors) > 1 else " "
            lines.append(plain(f"{mark}{names[i]} {summary(np.asarray(t))}"))
        if len(tensors) > 6:
            lines.append(plain(f"  ... {len(tensors) - 6} more outputs (p)"))
        lines.extend(self._loop_lines(layer, it))
        a = np.asarray(tensors[self.port])
        prev_t = self.session.tensor(layer.path, seen[idx - 1]) if idx > 0 else None
        prev = np.asarray(prev_t[self.port]) if prev_t is not None and self.port < len(prev_t) else None
        lines.append(plain(diff_text(a, prev), style="dim"))
        summary_w.update(Text("\n").join(lines))
        timeline.show(self._series(layer.path), self.metric, idx)
        if a.ndim > 2:
            self.slice_index = min(self.slice_index, a.shape[0] - 1)
        title.update(plain(f"{names[self.port]} {view_title(a, self.slice_index)}", style="dim"))
        rows = as_rows(a, (self.slice_index,) if a.ndim > 2 else ())
        table.add_columns(*[Text(str(i)) for i in range(len(rows[0]))])
        for r, row in enumerate(rows):
            table.add_row(*[Text(c) for c in row], label=Text(str(r), style="dim"))

    def _series(self, path: str) -> list[Point]:
        """The timeline's points; a recorded tensor never changes, so its statistic is computed once."""
        assert self.session is not None
        out = []
        for its, arr in self.session.history(path, self.port):
            k = (path, its, self.port, self.metric)
            point = self._points.get(k)
            if point is None:
                point = self._points[k] = series([(its, arr)], self.metric)[0]
            out.append(point)
        return out

    def _loop_lines(self, layer: Layer, it: tuple[int, ...]) -> list[Text]:
        """For a Loop: its trip count and the condition of every finished iteration (0-based)."""
        if layer.type != "Loop" or self.session is None or self.model is None:
            return []
        out = []
        graph = next((g for g, la in self.model.layers() if la is layer), None)
        edge = next((e for e in graph.edges if e.to_layer == layer.id and e.to_port == 0), None) if graph else None
        src = graph.layer(edge.from_layer) if edge is not None and graph is not None else None
        if src is not None:
            t = self.session.tensor(src.path, it)
            if t is None and src.type == "Const":
                t = self.session.const_value(src)
            port = [p.id for p in src.outputs].index(edge.from_port) if edge.from_port in [
                p.id for p in src.outputs] else 0
            if t is not None and port < len(t) and np.asarray(t[port]).size == 1:
                out.append(safe_lines(f"trip count {scalar_text(np.asarray(t[port]))}"))
        conds = self.session.loop_conditions(layer.path)
        if conds:
            mine = [(k, c) for k, c in sorted(conds.items()) if k[:-1] == it]
            shown = " ".join(f"{k[-1]}:{'T' if c else 'F' if c is not None else '-'}" for k, c in mine[-12:])
            out.append(safe_lines(f"conditions ({len(mine)} its) {'... ' if len(mine) > 12 else ''}{shown}"))
        return [plain(" " + " | ".join(out), style="magenta")] if out else []

    @property
    def inspected(self) -> np.ndarray | None:
        """The tensor the inspector shows (for tests and scripting)."""
        if self.session is None or self.selected is None:
            return None
        t = self.session.tensor(self.selected.path, self.shown_iteration)
        if t is None and self.selected.type == "Const":
            t = self.session.const_value(self.selected)
        return None if t is None else np.asarray(t[self.port % len(t)])
