"""The inspector: the selected layer at the shown iteration. Its inputs (producer, type, shape, values,
change since the previous iteration), its outputs (the port `p` chose marked), a Loop's trip count and
conditions, its attributes and a TI/Loop/If's port maps, the timeline of the chosen output and its
values as a table.

The App hands it the Session, the layer and the iteration (`show`); the inspector keeps what only it
uses (port, slice, timeline statistic). It posts `Chosen` when a timeline bar is clicked (the App then
shows that iteration) and `Said` for a line of the event log (saved, copied, refused).
"""

from __future__ import annotations

import numpy as np
from irlint.viewer.debugger.export import as_text, default_npy_name, npy_path, save_npy
from irlint.viewer.debugger.inspector import (
    as_rows,
    attribute_items,
    diff_text,
    input_text,
    port_names,
    preview,
    scalar_text,
    short_diff,
    structure_sections,
    summary,
    view_title,
)
from irlint.viewer.debugger.text import fit_items, plain, safe_lines
from irlint.viewer.debugger.timeline import METRICS, Point, Timeline, series
from irlint.viewer.debugger.variables import running_at
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.css.scalar import Scalar
from textual.message import Message
from textual.widget import Widget
from textual.widgets import DataTable, Static

from irlint.ir.model import Graph, Layer
from irlint.layerpath import iteration_label

TALL = 30  # from this terminal height on, more inputs, outputs and attribute lines are shown


class Inspector(Vertical):
    class Chosen(Message):
        """A timeline bar was clicked: show this recorded iteration of the layer."""

        def __init__(self, iteration: tuple[int, ...]) -> None:
            super().__init__()
            self.iteration = iteration

    class Said(Message):
        """A line for the event log."""

        def __init__(self, text: Text) -> None:
            super().__init__()
            self.text = text

    def __init__(self, session=None, **kw) -> None:  # type: ignore[no-untyped-def]
        super().__init__(**kw)
        self.session = session  # drawn from the first `show` on
        self._shown = False
        self.subject: Layer | None = None
        self.iteration: tuple[int, ...] | None = None
        self.port = 0  # which output of a multi-output layer the table and timeline show (key p)
        # A layer chosen from a Variables row that says `not yet`: shown at its last recorded iteration,
        # with a line saying so, until another layer or iteration is shown
        self.not_yet: str | None = None
        self.slice_index = 0  # leading index shown for tensors above 2-D (keys j/k)
        self.metric = METRICS[0]
        self._points: dict[tuple[object, ...], Point] = {}  # (path, iteration, port, metric) -> timeline point
        self._graphs: dict[str, Graph] = {}  # layer path -> the graph that holds it

    def compose(self) -> ComposeResult:
        yield Static("", id="summary", markup=False)
        yield Static("", id="attrs", markup=False)
        yield Timeline(id="timeline")
        yield Static("", id="viewtitle", markup=False)
        yield DataTable(id="values", zebra_stripes=True, show_row_labels=True)

    def on_mount(self) -> None:
        self.query_one(Timeline).display = False
        self.query_one("#attrs", Static).display = False

    def on_resize(self) -> None:
        if self._shown:
            self.redraw()

    # -- what the App calls ----------------------------------------------------------------------
    def show(self, session, layer: Layer | None, iteration: tuple[int, ...] | None) -> None:  # type: ignore[no-untyped-def]
        """Show `layer` at `iteration` (its latest recorded one if None or not recorded)."""
        if session is not self.session:
            self._points.clear()
            self._graphs.clear()
        self.session, self.subject, self.iteration = session, layer, iteration
        self._shown = True
        self.redraw()

    def forget(self) -> None:
        """The run restarted: its recorded tensors (and the timeline's statistics of them) are gone."""
        self._points.clear()

    def next_port(self) -> None:
        self.port += 1
        self.redraw()

    def next_metric(self) -> None:
        self.metric = METRICS[(METRICS.index(self.metric) + 1) % len(METRICS)]
        self.redraw()

    def move_slice(self, delta: int) -> None:
        self.slice_index = max(0, self.slice_index + delta)
        self.redraw()

    def choose_port(self, layer: Layer, iteration: tuple[int, ...] | None, port: str) -> None:
        """Show output `port` ('out7') of `layer`, e.g. the one a NaN/Inf breakpoint found."""
        recorded = self.session.tensor(layer.path, iteration) or () if self.session is not None else ()
        ids = [f"out{p.id}" for p in layer.outputs]
        self.port = ids.index(port) if port in ids and len(recorded) > 1 else 0

    def neighbour(self, delta: int) -> tuple[int, ...] | None:
        """The recorded iteration `delta` steps from the shown one (clamped), None if none is recorded."""
        if self.session is None or self.subject is None:
            return None
        seen = self.session.iterations_seen(self.subject.path)
        if not seen:
            return None
        cur = self.iteration if self.iteration in seen else seen[-1]
        return seen[max(0, min(len(seen) - 1, seen.index(cur) + delta))]

    @property
    def inspected(self) -> np.ndarray | None:
        """The tensor the inspector shows (the output `p` chose)."""
        t = self._tensors(self.iteration)
        return None if not t else np.asarray(t[self.port % len(t)])

    def port_index(self) -> int:
        """The index of the shown output in the layer's recorded tuple."""
        t = self._tensors(self.iteration)
        return self.port % len(t) if t else 0

    def label(self) -> tuple[str, str, str] | None:
        """(layer name, iteration label, port name) of the inspected tensor."""
        if self.session is None or self.subject is None or self.inspected is None:
            return None
        layer = self.subject
        seen = self.session.iterations_seen(layer.path)
        it = self.iteration if self.iteration in seen else (seen[-1] if seen else ())
        port = self.port_index()
        return layer.name, iteration_label(it, layer.path), port_names(layer, port + 1)[port]

    def ask_save(self, reads: list[tuple[str, str | None]]) -> None:
        """Ask for a file and save the inspected tensor there as .npy (never over a file in `reads`)."""
        from irlint.viewer.debugger.screens import PromptScreen

        label = self.label()
        if label is None:
            self._say("nothing to save: select a layer that has a value")
            return
        self.app.push_screen(
            PromptScreen(
                "save the inspected tensor as .npy (never over a file the run reads)",
                "FILE.npy",
                default_npy_name(*label),
            ),
            lambda p: self.save_to(p, reads),
        )

    def save_to(self, path: str | None, reads: list[tuple[str, str | None]]) -> None:
        a = self.inspected
        if not path or not path.strip() or a is None:
            return
        from irlint.cli.command import UsageError

        try:
            save_npy(path.strip(), a, reads)
        except UsageError as e:
            self._say(f"not saved: {e}", "bold red")
            return
        self._say(f"saved {summary(a)} to {npy_path(path.strip())}")

    def copy(self) -> None:
        """The inspected tensor as numpy-readable text, to the terminal's clipboard."""
        label, a = self.label(), self.inspected
        if label is None or a is None:
            return
        name, it, port = label
        try:
            text = as_text(a, f"{name} {port} it {it}: {summary(a)}")
        except ValueError as e:
            self._say(f"not copied: {e}", "bold red")
            return
        self.app.copy_to_clipboard(text)
        self._say(
            f"copied {name} {port} it {it} as text ({len(text)} characters; "
            "the terminal must allow OSC 52 clipboard writes)"
        )

    def _say(self, text: str, style: str = "") -> None:
        self.post_message(self.Said(plain(text, style=style)))

    def on_timeline_jump(self, message: Timeline.Jump) -> None:
        message.stop()
        if self.session is None or self.subject is None:
            return
        seen = self.session.iterations_seen(self.subject.path)
        if 0 <= message.index < len(seen):
            self.post_message(self.Chosen(seen[message.index]))

    # -- drawing ---------------------------------------------------------------------------------
    def _tensors(self, iteration: tuple[int, ...] | None):  # type: ignore[no-untyped-def]
        if self.session is None or self.subject is None:
            return None
        if self._runs_now() is not None:  # no output at the iteration asked for (an older one is not it)
            return None
        t = self.session.tensor(self.subject.path, iteration)
        return self.session.const_value(self.subject) if t is None and self.subject.type == "Const" else t

    def _runs_now(self) -> tuple[tuple[int, ...], str] | None:
        """(outer iteration, where it is) when the shown layer is a TI/Loop/If the run is inside at the shown
        iteration (scope navigation selects it so), which has no output there yet; else None."""
        if self.session is None or self.subject is None or self.iteration is None:
            return None
        running = running_at(self.session, self.subject.path)
        mine = running is not None and running[0] == self.iteration
        return running if mine and self.iteration not in self.session.iterations_seen(self.subject.path) else None

    def redraw(self) -> None:
        session, layer = self.session, self.subject
        if session is None:
            return
        table = self.query_one("#values", DataTable)
        table.clear(columns=True)
        summary_w = self.query_one("#summary", Static)
        timeline = self.query_one(Timeline)
        title = self.query_one("#viewtitle", Static)
        self._show_attrs(layer)
        if layer is None:
            summary_w.update("")
            timeline.show([], self.metric, None)
            title.update("")
            return
        tall = self.app.size.height >= TALL
        seen = session.iterations_seen(layer.path)
        tensors = session.tensor(layer.path, self.iteration)
        if tensors is None and layer.type == "Const":
            tensors, seen = session.const_value(layer), [()]
        running = self._runs_now()
        if running is not None:
            # u selected a TI/Loop/If the run is inside: its outputs at this iteration do not exist yet
            outer, now = running
            where = f" it {iteration_label(outer, layer.path)}" if outer else ""
            lines = [
                plain(
                    f"#{layer.id} {layer.name} ({layer.type}){where}: running ({now}); its outputs come when it ends",
                    style="bold",
                )
            ]
            lines += self._input_lines(layer, outer, 8 if tall else 4) + self._loop_lines(layer, outer)
            summary_w.update(Text("\n").join(lines))
            timeline.show([], self.metric, None)
            title.update("")
            return
        if tensors is None or not seen:
            lines = [plain(f"#{layer.id} {layer.name} ({layer.type}): not evaluated yet")]
            summary_w.update(Text("\n").join(lines + self._input_lines(layer, None, 8 if tall else 4)))
            timeline.show([], self.metric, None)
            title.update("")
            return
        it = self.iteration if self.iteration in seen else seen[-1]
        idx = seen.index(it)
        self.port %= max(1, len(tensors))
        names = port_names(layer, len(tensors))
        lines = []
        if self.not_yet == layer.path and self.iteration is None:
            lines.append(plain("not evaluated yet in this iteration: its last recorded value", style="dim"))
        lines += [
            plain(
                f"#{layer.id} {layer.name} ({layer.type}) it {iteration_label(it, layer.path)} "
                f"[{idx + 1}/{len(seen)} recorded]",
                style="bold",
            )
        ]
        lines.extend(self._input_lines(layer, it, 8 if tall else 4))
        most = 6 if tall else 4
        for i, t in enumerate(tensors[:most]):
            mark = "▸" if i == self.port and len(tensors) > 1 else " "
            lines.append(plain(f"{mark}{names[i]} {summary(np.asarray(t))}"))
        if len(tensors) > most:
            lines.append(plain(f"  ... {len(tensors) - most} more outputs (p)"))
        lines.extend(self._loop_lines(layer, it))
        a = np.asarray(tensors[self.port])
        prev_t = session.tensor(layer.path, seen[idx - 1]) if idx > 0 else None
        prev = np.asarray(prev_t[self.port]) if prev_t is not None and self.port < len(prev_t) else None
        lines.append(plain(diff_text(a, prev), style="dim"))
        summary_w.update(Text("\n").join(lines))
        timeline.show(self._series(layer.path), self.metric, idx)
        if a.ndim > 2:
            self.slice_index = min(self.slice_index, a.shape[0] - 1)
        title.update(plain(view_title(a, self.slice_index, self._width(), names[self.port]), style="dim"))
        rows = as_rows(a, (self.slice_index,) if a.ndim > 2 else ())
        table.add_columns(*[Text(str(i)) for i in range(len(rows[0]))])
        for r, row in enumerate(rows):
            table.add_row(*[Text(c) for c in row], label=Text(str(r), style="dim"))
        self.call_after_refresh(self._fit_table)

    def _fit_table(self) -> None:
        """Keep the event log's minimum on screen: the values table (at most half the column by its CSS)
        gets only the rows the other panes leave, at least 2 (it scrolls)."""
        right, table = self.parent, self.query_one("#values", DataTable)
        if not isinstance(right, Widget) or not right.size.height:
            return
        panes = [w for w in right.children if w.display]
        others = sum(w.outer_size.height for w in panes if w is not self and w.id != "log")
        log = next((w for w in panes if w.id == "log"), None)
        log_min = (log.styles.min_height.value if log is not None and log.styles.min_height else 0) + 1  # + its border
        mine = sum(w.outer_size.height for w in self.children if w.display and w is not table)
        room = max(2, int(right.size.height - others - log_min - mine))
        cap = None if room >= right.size.height // 2 else room
        if table.styles.max_height != (None if cap is None else Scalar.parse(str(cap))):
            table.styles.max_height = cap

    def _width(self) -> int:
        return max(20, (self.size.width or 42) - 2)

    def _graph_of(self, layer: Layer) -> Graph | None:
        if layer.path not in self._graphs and self.session is not None:
            for g, la in self.session.model.layers():
                if la is layer:
                    self._graphs[layer.path] = g
        return self._graphs.get(layer.path)

    def _input_lines(self, layer: Layer, it: tuple[int, ...] | None, budget: int) -> list[Text]:
        """One line per input port: its producer and the value there at iteration `it` (the layer's own
        iteration; None when the layer has not run yet: the producer's latest value, its iteration said).
        Past `budget` lines, the inputs fed by Consts share one more line (type and shape), and what
        still does not fit is counted."""
        graph = self._graph_of(layer)
        if graph is None or not layer.inputs or layer.type == "Result":  # a Result's input is its value, above
            return []
        width = self._width() - 1
        rows: list[tuple[str, str | None]] = []  # (line, the type and shape of a Const-fed input)
        const_ids: list[object] = []
        for port in layer.inputs:
            e = next((e for e in graph.edges if e.to_layer == layer.id and e.to_port == port.id), None)
            src = graph.by_id.get(e.from_layer) if e is not None and e.from_layer is not None else None
            if e is None or src is None:
                rows.append((input_text(port.id, None, ""), None))
                continue
            ids = [p.id for p in src.outputs]
            k = ids.index(e.from_port) if e.from_port in ids else 0
            value, change, short_value = self._value_of(src, k, it)
            line = input_text(port.id, (src.id, src.name, e.from_port), value, change, width, short_value)
            short = None
            if src.type == "Const" and k < len(src.outputs):
                out = src.outputs[k]
                dims = ",".join("?" if d.value is None else str(d.value) for d in out.shape or ())
                short = f"{out.precision.name if out.precision else '?'}[{dims}]"
                const_ids.append(port.id)
            rows.append((line, short))
        if len(rows) > budget:
            consts = [c for _r, c in rows if c]
            rows = [r for r in rows if not r[1]]
            head = f"in{','.join(map(str, const_ids))} ← Consts"
            tail = [fit_items(head, consts, width, 1, ",", "(v)")] if consts else []
            if len(rows) > budget:
                tail.insert(0, f"... {len(rows) - budget + 1} more inputs (v)")
                rows = rows[: budget - 1]
            rows += [(t, None) for t in tail]
        return [plain(" " + r, style="cyan") for r, _c in rows]

    def _value_of(self, src: Layer, k: int, it: tuple[int, ...] | None) -> tuple[str, str, str]:
        """(output `k` of the producer `src` at iteration `it` (None: its latest, the iteration said), its
        change since the producer's previous recorded iteration, the value with fewer digits)."""
        s = self.session
        assert s is not None
        if src.type == "Const":
            t = s.const_value(src)
            if not t or k >= len(t):
                return "const (not readable)", "", ""
            return preview(np.asarray(t[k])), "const", preview(np.asarray(t[k]), 2)
        seen = s.iterations_seen(src.path)
        at = seen[-1] if it is None and seen else it
        if at is None or at not in seen:
            return (
                "not evaluated yet" if not seen else f"not recorded at it {iteration_label(at or (), src.path)}",
                "",
                "",
            )
        t = s.tensor(src.path, at)
        if t is None or k >= len(t):
            return "not evaluated yet", "", ""
        a = np.asarray(t[k])
        i = seen.index(at)
        prev_t = s.tensor(src.path, seen[i - 1]) if i > 0 else None
        prev = np.asarray(prev_t[k]) if prev_t is not None and k < len(prev_t) else None
        when = "" if it is not None or not at else f"it {iteration_label(at, src.path)} "
        return when + preview(a), short_diff(a, prev), when + preview(a, 2)

    def _show_attrs(self, layer: Layer | None) -> None:
        """The attributes and, for a TI/Loop/If, its port maps, back edges and branches; each section in
        as many whole items as fit (one line each at 80x24), the rest counted."""
        w = self.query_one("#attrs", Static)
        sections = [] if layer is None else [("attrs:", attribute_items(layer))] * bool(layer.data)
        sections += structure_sections(layer) if layer is not None else []
        w.display = bool(sections)
        if not sections:
            return
        tall = self.app.size.height >= TALL

        def lines(head: str) -> int:  # a port map gets two lines at 80x24, other sections one
            return 3 if tall else 2 if len(sections) == 1 or "port map" in head else 1

        text = "\n".join(fit_items(head, items, self._width(), lines(head), ",", "(v)") for head, items in sections[:4])
        w.update(plain(text, style="dim"))

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
        s = self.session
        if layer.type != "Loop" or s is None:
            return []
        out = []
        graph = self._graph_of(layer)
        edge = next((e for e in graph.edges if e.to_layer == layer.id and e.to_port == 0), None) if graph else None
        src = graph.layer(edge.from_layer) if edge is not None and graph is not None else None
        if src is not None:
            t = s.tensor(src.path, it)
            if t is None and src.type == "Const":
                t = s.const_value(src)
            ids = [p.id for p in src.outputs]
            port = ids.index(edge.from_port) if edge.from_port in ids else 0
            if t is not None and port < len(t) and np.asarray(t[port]).size == 1:
                out.append(safe_lines(f"trip count {scalar_text(np.asarray(t[port]))}"))
        conds = s.loop_conditions(layer.path)
        if conds:
            mine = [(k, c) for k, c in sorted(conds.items()) if k[:-1] == it]
            shown = " ".join(f"{k[-1]}:{'T' if c else 'F' if c is not None else '-'}" for k, c in mine[-12:])
            out.append(safe_lines(f"conditions ({len(mine)} its) {'... ' if len(mine) > 12 else ''}{shown}"))
        return [plain(" " + " | ".join(out), style="magenta")] if out else []
