"""The Textual step debugger: graph tree, tensor inspector with a per-loop timeline, event log.

All stepping goes through `Session` (no semantics here); steps run in a thread worker that reports
back with a message (never blocking on the UI), while a timer shows its progress and Esc or `q`
interrupts it. A model with lint errors opens on its findings and does not run. Every string from
the model is shown as plain text (rich.Text, markup off): layer names such as `LSTM[rnn]` are not markup.
"""

from __future__ import annotations

from pathlib import Path

from irlint.viewer.debugger.conditions import ConditionError, add_breakpoint
from irlint.viewer.debugger.screens import HelpScreen, LogScreen, PromptScreen
from irlint.viewer.debugger.search import Search
from irlint.viewer.debugger.session import Session, describe_event, parse_iteration
from irlint.viewer.debugger.text import plain, safe_lines
from irlint.viewer.debugger.widgets.banner import RandomBanner
from irlint.viewer.debugger.widgets.breakpoints import BreakpointsScreen
from irlint.viewer.debugger.widgets.console import ConsoleScreen
from irlint.viewer.debugger.widgets.findings import SEVERITY_STYLE, Findings
from irlint.viewer.debugger.widgets.inspector import Inspector
from irlint.viewer.debugger.widgets.log import EventLog
from irlint.viewer.debugger.widgets.source import XmlScreen
from irlint.viewer.debugger.widgets.status import StatusLine
from irlint.viewer.debugger.widgets.tree import ModelTree
from irlint.viewer.debugger.widgets.watch import WatchList
from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Footer, Tree

from irlint.diagnostics import Diagnostic
from irlint.ir.model import Layer, Model

RUN_ACTIONS = {
    "cmd",
    "breakpoint",
    "conditional",
    "nonfinite",
    "history",
    "slice",
    "render",
    "goto",
    "restart",
    "metric",
    "port",
    "interrupt",
    "log",
    "watch",
    "unwatch_all",
    "save",
    "copy",
    "breakpoints",
    "xml",
    "console",
    "variables",
    "set_value",
    "scope",
}
SEARCH_KEYS = {"over": 1, "back_over": -1}  # while a search is on, n / N go to the next / previous hit


MAX_QUEUED = 8  # commands kept while another runs


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
        Binding("v", "xml", "XML", show=False),
        Binding("w", "watch", "watch", show=False),
        Binding("W", "unwatch_all", "unwatch all", show=False),
        Binding("less_than_sign", "tree_width(-4)", "tree-", show=False),
        Binding("greater_than_sign", "tree_width(4)", "tree+", show=False),
        Binding("V", "variables", "variables", show=False),
        Binding("slash", "search", "search", show=False),
        Binding("equals_sign", "set_value", "set value", show=False),
        Binding("u", "scope(-1)", "scope up", show=False),
        Binding("d", "scope(1)", "scope down", show=False),
        Binding("question_mark", "help", "help"),
        Binding("q", "quit", "quit"),
    ]

    def __init__(
        self,
        session: Session | None,
        diagnostics: list[Diagnostic],
        model_path: str,
        model: Model | None = None,
        reads: list[tuple[str, str | None]] | None = None,
    ) -> None:
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
        self._lint_log: list[Text] = []  # without a session there is no log pane
        self._goto: tuple[str, tuple[int, ...]] | None = None  # the layer and iteration a running go-to wants
        self.console_history: list[str] = []  # the expression console's, kept while the app runs
        self.pending: list[str] = []  # commands typed while another ran, in order
        self.searching: Search | None = None  # the search n/N walk (until Esc)
        self.scope_level: int | None = None  # the scope u/d chose (index, outermost 0); None: the event's own

    # -- layout --------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            yield ModelTree(Path(self.model_path).name, id="graph")
            with Vertical(id="right"):
                yield StatusLine(id="status")
                if self.session is None:
                    yield Findings(self.diagnostics, id="lint")
                else:
                    yield RandomBanner(self.session.notes, id="notes")
                    yield Inspector(self.session, id="inspector")
                    yield WatchList(id="watch")
                    yield EventLog(id="log")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        if self.model is not None:
            self.query_one(ModelTree).fill(self.model, self.size.width, self.size.height)
        if self.session is None:
            self.query_one(StatusLine).show_lint(self.diagnostics)
            return
        for n in self.session.notes:
            self.log_line(plain(n, style="bold yellow"))
        for d in self.diagnostics:
            self.log_line(
                plain(
                    f"{d.loc.line}:{d.loc.column} {d.code} [{d.severity.value}] {d.message}",
                    style=SEVERITY_STYLE[d.severity.value],
                )
            )
        self._fit()
        self.set_interval(0.1, self._tick)
        first = next(iter(self.model.graph.layers), None) if self.model is not None else None
        if first is not None:  # the right pane shows the first input (its value) before any step
            self.selected = first
            self._highlight(first)
            self._inspect()

    @property
    def nodes(self) -> dict[str, object]:
        """Layer path -> tree node."""
        return self.query_one(ModelTree).nodes

    def _tree_columns(self) -> int:
        return self.query_one(ModelTree).width_in(self.size.width)

    def on_resize(self, event: events.Resize) -> None:
        """Relabel the tree for the new width (the event's: `self.size` still says the old one while the
        event is handled, which applied every resize one step late)."""
        self.query_one(ModelTree).relabel(event.size.width, event.size.height)
        self.call_after_refresh(self._rewrap_log)
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        """Say the banner and the status line again in the right pane's width."""
        if self.session is not None:
            self.query_one(RandomBanner).fit(self.size.width - self._tree_columns() - 2)
            self._status()

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

    def _refresh_markers(self, every: bool = False) -> None:
        """Relabel the tree nodes whose breakpoint marker changed (all of them on `every`)."""
        marked = self.session.breakpoint_paths() if self.session is not None else set()
        self.query_one(ModelTree).mark(marked, every)

    # -- the lint-error screen -------------------------------------------------------------------
    def on_findings_chosen(self, message: Findings.Chosen) -> None:
        """Select the finding's layer in the tree (the findings pane shows its XML)."""
        d = message.diagnostic
        if d.layer is not None and d.layer in self.nodes:
            node = self.nodes[d.layer]
            self.query_one("#graph", Tree).move_cursor(node)  # type: ignore[arg-type]
            self.selected = node.data  # type: ignore[attr-defined]

    # -- actions -------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # the lint-error screen: nothing to run (and the footer does not offer it); n / N walk a search there too
        if action == "cmd" and self.searching is not None and parameters and parameters[0] in SEARCH_KEYS:
            return True
        return not (self.session is None and action in RUN_ACTIONS)

    def action_cmd(self, command: str) -> None:
        if self.searching is not None and command in SEARCH_KEYS:
            self._search_step(SEARCH_KEYS[command])
            return
        if self.session is None:
            return
        if self.busy:  # typed ahead (an `S` while a step back runs again): done when the run stops
            self._queue(command)
            return
        self._start(lambda s: s.do(command))

    def _queue(self, command: str) -> None:
        """Keep a command pressed while another runs (at most MAX_QUEUED; Esc drops them)."""
        if len(self.pending) < MAX_QUEUED:
            self.pending.append(command)
            self.log_line(plain(f"{command}: queued until the running command stops (Esc drops it)", style="dim"))

    def _next_queued(self) -> None:
        if self.pending and not self.busy and self.session is not None:
            command = self.pending.pop(0)
            if command == "restart":
                self.action_restart()
                self._next_queued()
            else:
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
        for line in self.session.log[message.before :]:
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
            self.inspector.choose_port(bad_layer, self.shown_iteration, bad.port)
            self._highlight(bad_layer)
        elif layer is not None:
            self.selected = layer
            self.shown_iteration = self.session.current_iteration
            self._highlight(layer)
        self.scope_level = None  # each stop starts in the scope of its own event
        self.busy = False
        self._status()
        self._inspect()
        self._next_queued()

    def action_interrupt(self) -> None:
        if self.searching is not None and not self.busy:  # Esc ends a search: n/N step again
            self.searching = None
            self.log_line(plain("search ended: n and N step again"))
            self._status()
            return
        if self.session is not None and self.busy:
            self.pending.clear()
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
            if self.session is not None:
                self.inspector.port = 0
                self._inspect()

    def action_breakpoint(self) -> None:
        if self.session is None or self.selected is None:
            return
        on = self.session.toggle_breakpoint(self.selected.path)
        self.log_line(plain(f"breakpoint {'set on' if on else 'removed from'} {self.selected.describe()}"))
        self._refresh_markers()
        self._status()

    def action_conditional(self) -> None:
        if self.session is None:
            return
        start = f"layer {self.selected.path} when " if self.selected is not None else "when "
        self.push_screen(
            PromptScreen(
                "breakpoint: [layer ID|PATH|NAME] [when CONDITION] [log EXPR] [hit N]",
                "layer 12 when iteration == 10 | when x.max() > 1e3 | nonfinite 1e6",
                start,
            ),
            self.add_breakpoint,
        )

    def add_breakpoint(self, text: str | None) -> None:
        if self.session is not None and text:
            try:
                self.log_line(plain(add_breakpoint(self.session, text)))
            except ConditionError as e:
                self.log_line(plain(f"breakpoint not set: {e}", style="bold red"))
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
        self.push_screen(
            PromptScreen(
                safe_lines(f"go to iteration{where} (0-based, loops outer first: N or N.M)"), "e.g. 10 or 2.1"
            ),
            self.goto,
        )

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
        if self.busy:  # stop the running command, then restart
            self.session.interrupt()
            self.pending[:] = ["restart"]
            return
        self.session.restart()
        self.inspector.forget()
        self.shown_iteration = None
        self.scope_level = None  # the scopes were the stop's: the run starts again at the top level
        self.log_line(plain("restarted from the beginning"))
        self._status()
        self._inspect()

    def action_watch(self) -> None:
        """Pin the inspected output (the layer selected, the port `p` chose) to the watch list, or unpin it."""
        if self.session is None or self.selected is None:
            return
        watch = self.query_one(WatchList)
        self.log_line(plain(watch.toggle_text(self.selected, self.inspector.port_index())))
        watch.show(self.session)

    def action_unwatch_all(self) -> None:
        if self.session is not None:
            self.query_one(WatchList).clear_all()
            self.query_one(WatchList).show(self.session)

    def action_save(self) -> None:
        self.inspector.ask_save(self.reads)

    def action_copy(self) -> None:
        self.inspector.copy()

    def action_xml(self) -> None:
        """The selected layer's element in the XML, as the lint screen shows a finding's line."""
        if self.selected is not None:
            la = self.selected
            self.push_screen(XmlScreen(la.loc, plain(f"{la.loc}  #{la.path} {la.name} ({la.type})").plain))

    def on_inspector_said(self, message: Inspector.Said) -> None:
        self.log_line(message.text)

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

    def action_scope(self, delta: int) -> None:
        """u / d: the scope around (-1) or inside (+1) the shown one, as a call stack's up and down: the
        TI/Loop/If running at that level, at that level's iteration, in the tree and the inspector (and V)."""
        if self.session is None or self.busy:
            return
        from irlint.viewer.debugger.variables import scopes

        levels = scopes(self.session)
        here = self.scope_level if self.scope_level is not None else len(levels) - 1
        new = max(0, min(len(levels) - 1, here + delta))
        if new == here:
            self.log_line(
                plain(
                    "scope: at the "
                    + ("outermost (the top level)" if delta < 0 else "innermost (where the run is paused)")
                    + " scope"
                )
            )
            return
        self.scope_level = new
        if new == len(levels) - 1:  # the event's own scope: its layer
            layer = getattr(self.session.stepper.current, "layer", None)
            its = self.session.current_iteration
        else:  # the TI/Loop/If that runs the scope inside, as recorded at this level's iteration
            layer = self.session.find_layer(levels[new + 1].prefix.rstrip("/").rsplit("/", 1)[0])
            its = levels[new].iteration
        if layer is not None:
            self.selected, self.shown_iteration = layer, its
            self.inspector.port = 0
            self._highlight(layer)
        self.log_line(plain(f"scope {new + 1} of {len(levels)}: {levels[new].label} (u: out, d: in)"))
        self._status()
        self._inspect()

    def scope_note(self, short: bool = False) -> str:
        """`scope 2/3 (u/d)` (`scope 2/3` when `short`) while u/d show another scope than the event's."""
        if self.scope_level is None or self.session is None:
            return ""
        from irlint.viewer.debugger.variables import scopes

        return f"scope {self.scope_level + 1}/{len(scopes(self.session))}" + ("" if short else " (u/d)")

    def action_set_value(self) -> None:
        """What-if: replace an output of the layer the run is paused at (viewer/debugger/whatif.py)."""
        if self.session is None or self.busy:
            return
        ev = self.session.stepper.current
        layer = getattr(ev, "layer", None)
        if layer is None:
            self.log_line(
                plain("set value: step to a layer first (= edits the outputs of the paused layer)", style="bold red")
            )
            return
        port = self.inspector.port_index() if self.selected is layer else 0
        self._set_port = port
        self.push_screen(
            PromptScreen(
                safe_lines(
                    f"set the output of {layer.name} (the paused layer): an expression "
                    "(x is its value) or x[SLICE] = EXPR"
                ),
                "clip(x, -1, 1) | x[0, :2] = 0.5 | load('h.npy')",
            ),
            self.set_value,
        )

    def set_value(self, text: str | None) -> None:
        if self.session is None or not text:
            return
        try:
            said = self.session.set_value(text, getattr(self, "_set_port", 0))
        except (ConditionError, ValueError) as e:
            self.log_line(plain(f"value not set: {e}", style="bold red"))
            return
        self.log_line(plain(said, style="bold yellow"))
        self._status()
        self._inspect()

    def action_search(self) -> None:
        if self.model is not None:
            self.push_screen(
                PromptScreen(
                    "search layers: a piece of the name, the type, or an id path", "e.g. lstm_cell, MatMul, 16/body"
                ),
                self.search,
            )

    def search(self, text: str | None) -> None:
        """Select the first layer after the selection whose name, type or id path holds `text`."""
        if not text or self.model is None:
            return
        from irlint.viewer.debugger.search import Search, find

        hits = find(self.model, text)
        if not hits:
            self.searching = None
            self.log_line(plain(f"search: no layer's name, type or id path holds {text.strip()!r}", style="bold red"))
            self._status()
            return
        self.searching = Search(text.strip(), hits, self.selected)
        self.log_line(
            plain(
                f"search {text.strip()!r}: {len(hits)} layer{'s' if len(hits) != 1 else ''} "
                "(n / N: next / previous; Esc ends the search)"
            )
        )
        self._search_step(1)

    def _search_step(self, delta: int) -> None:
        assert self.searching is not None
        layer = self.searching.step(delta)
        if layer is not None:
            self.selected, self.shown_iteration = layer, None
            self._highlight(layer)
            if self.session is not None:
                self.inspector.port = 0
                self._inspect()
        self._status()

    def action_variables(self) -> None:
        """Every tensor of the current scope at the paused iteration (viewer/debugger/variables.py)."""
        if self.session is None or self.busy:
            return
        from irlint.viewer.debugger.variables import scopes
        from irlint.viewer.debugger.widgets.variables import VariablesScreen

        levels = scopes(self.session)
        level = self.scope_level if self.scope_level is not None and self.scope_level < len(levels) else -1
        self.push_screen(VariablesScreen(self.session, levels[level]), self.inspect_variable)

    def inspect_variable(self, chosen: tuple[str, tuple[int, ...] | None, str] | None) -> None:
        """Show a row of the Variables list in the inspector (its layer selected in the tree, its output port)."""
        if chosen is None or self.session is None:
            return
        path, its, port = chosen
        layer = self.session.find_layer(path)
        if layer is None:
            return
        self.selected, self.shown_iteration = layer, its
        self._highlight(layer)
        self.inspector.choose_port(layer, its, port)
        self.inspector.not_yet = path if its is None else None  # a `not yet` row: say what is shown instead
        self._inspect()

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_history(self, delta: int) -> None:
        """Show the previous / next recorded iteration of the selected layer."""
        if self.session is not None and (it := self.inspector.neighbour(delta)) is not None:
            self.shown_iteration = it
            self._inspect()

    def on_inspector_chosen(self, message: Inspector.Chosen) -> None:
        self.shown_iteration = message.iteration
        self._inspect()

    def action_metric(self) -> None:
        self.inspector.next_metric()

    def action_port(self) -> None:
        self.inspector.next_port()

    def action_slice(self, delta: int) -> None:
        self.inspector.move_slice(delta)

    def action_render(self) -> None:
        """The diagram with the values recorded so far, at the paused iteration (viewer/debugger/render.py)."""
        if self.session is None:
            return
        from irlint.viewer.debugger.render import render_paused

        try:
            self.log_line(plain(render_paused(self.session, self.diagnostics, self.model_path, self.reads)))
        except Exception as e:  # no dot binary, unwritable directory, an input in the way ...
            self.log_line(plain(f"cannot render: {e}"))

    # -- panels --------------------------------------------------------------------------------
    def _status(self) -> None:
        if self.session is not None:
            width = max(20, self.size.width - self._tree_columns() - 1)

            def note(short: bool) -> str:
                search = self.searching.status(short) if self.searching is not None else ""
                return " | ".join(x for x in (search, self.scope_note(short)) if x)

            self.query_one(StatusLine).show(self.session, self.busy, width, note(False), note(True))

    @property
    def inspector(self) -> Inspector:
        return self.query_one(Inspector)

    def _inspect(self) -> None:
        if self.session is not None:
            self.query_one(WatchList).show(self.session)
            self.inspector.show(self.session, self.selected, self.shown_iteration)

    @property
    def inspected(self):  # type: ignore[no-untyped-def]
        """The tensor the inspector shows (for tests and scripting)."""
        return self.inspector.inspected if self.session is not None else None
