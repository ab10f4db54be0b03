"""`irlint compare --inside`: OpenVINO's body tensors, iteration by iteration, against irlint's.

OpenVINO shows only a model's Results. To see inside a TensorIterator/Loop body, the child process
(`irlint.comparison.ov_child`) adds to a copy of the model, in memory, a body Result per probed layer output
and a concatenated output per enclosing TI/Loop up to a top-level Result (a nested body through its
parents). irlint records the same layers' outputs (`irlint.comparison.record`). An If's branch
layer reaches out through a new If output, fed by zeros from the other branch (an If output needs
a value from both): only the iterations in which irlint ran that branch are compared.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from irlint.comparison.errors import CompareError
from irlint.comparison.record import Iterations, Recorder
from irlint.comparison.stats import Divergence, ErrorRow, beyond_tolerance, label
from irlint.controlflow import CONTROL_FLOW
from irlint.ir.model import Graph, Layer, Model

SKIPPED_TYPES = {"Parameter", "Result", "Const", "Constant"}


def branch_of(if_layer: Layer, layer: Layer) -> str:
    """Which branch of `if_layer` holds `layer` (a layer somewhere below it): "then" or "else"."""
    return "then" if layer.path.startswith(f"{if_layer.path}/then_body/") else "else"


def placed(layer: Layer) -> str:
    """A layer as the report names it: its name, type and id path (ids repeat from one body to the next)."""
    return f"{layer.name} ({layer.type}, {layer.path})"


def loop_positions(chain: list[Layer]) -> list[int]:
    """The positions in `chain` of TensorIterators/Loops: an If adds an iteration 0 to irlint's frames
    (docs/trace-format.md) but no axis to OpenVINO's probe array."""
    return [i for i, c in enumerate(chain) if c.type != "If"]


@dataclass
class Probe:
    """One layer output OpenVINO is asked to show: the TI/Loop/If layers around it from the top level
    down, the layer, its port; `shape` and `dtype` (from irlint's run) for an If's other branch."""

    layer: Layer
    port_index: int  # the output's position among the layer's outputs (OpenVINO's output index)
    chain: list[Layer]  # enclosing TensorIterators/Loops/Ifs, outermost first
    shape: tuple[int, ...] = ()
    dtype: str = "float32"
    counts: tuple[int | None, ...] = ()  # per chain step: the iterations a TI/Loop ran (None for an If)

    @property
    def title(self) -> str:
        port = self.layer.outputs[self.port_index].id
        return f"{placed(self.layer)} out{port}"

    def as_job(self) -> dict[str, object]:
        chain: list[object] = [{"name": c.name, "branch": branch_of(c, self.layer)} if c.type == "If" else c.name
                               for c in self.chain]
        return {"chain": chain, "layer": self.layer.name, "port": self.port_index, "shape": list(self.shape),
                "dtype": self.dtype, "counts": list(self.counts)}

    def openvino_index(self, its: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(its[i] for i in loop_positions(self.chain))


@dataclass
class Selection:
    """The layers `--inside` compares, in priority order, and those it cannot, with why."""

    model: Model
    layers: list[tuple[Layer, list[Layer]]] = field(default_factory=list)  # (layer, chain)
    left_out: dict[str, str] = field(default_factory=dict)  # description -> reason


def walk(graph: Graph, chain: list[Layer] | None = None, in_branch: bool = False
         ) -> Iterable[tuple[Layer, list[Layer], bool, Graph]]:
    """Every layer with its enclosing TI/Loop/If layers (outermost first), whether it is inside an If
    branch, and the graph that holds it."""
    chain = chain or []
    for la in graph.layers:
        yield la, chain, in_branch, graph
        if la.type in CONTROL_FLOW and la.type != "If" and la.body is not None:
            yield from walk(la.body, [*chain, la], in_branch)
        for br in la.branches:
            yield from walk(br.body, [*chain, la], True)


def select(model: Model, names: list[str]) -> Selection:
    """Every body layer of every TensorIterator/Loop (nested ones through their parents) when `names` is
    empty, else the layers named (by name or id path, top-level ones too)."""
    sel = Selection(model)
    everything = [t[:3] for t in walk(model.graph)]
    if names:
        chosen = []
        for n in names:
            hits = [t for t in everything if n in (t[0].name, t[0].path)]
            if not hits:
                raise CompareError(f"--inside {n}: no layer has this name or id path")
            chosen.extend(h for h in hits if h not in chosen)
    else:
        chosen = [t for t in everything if t[1]]
    for la, chain, _in_branch in chosen:
        if la.type in SKIPPED_TYPES:
            if names:
                sel.left_out[placed(la)] = f"a {la.type} is not compared (nothing is computed there)"
            continue
        if not unique_names(model, la, chain):
            sel.left_out[placed(la)] = "its name, or an enclosing loop's, is not unique in its body"
            continue
        if not la.outputs:
            continue
        sel.layers.append((la, chain))
    return sel


def unique_names(model: Model, la: Layer, chain: list[Layer]) -> bool:
    """OpenVINO finds a layer by name within its body: each name on the way must be unique there."""
    graph: Graph | None = model.graph
    for step in [*chain, la]:
        if graph is None or [x.name for x in graph.layers].count(step.name) != 1:
            return False
        graph = body_holding(step, la)
    return True


def body_holding(step: Layer, layer: Layer) -> Graph | None:
    """The body of `step` (a TI/Loop, or an If's branch) on the way down to `layer`."""
    if step.type == "If":
        br = step.branch(branch_of(step, layer))
        return br.body if br is not None else None
    return step.body


@dataclass
class ProbeResult:
    probe: Probe
    rows: list[ErrorRow]
    problem: str = ""  # why it could not be compared

    @property
    def differs(self) -> bool:
        return bool(self.problem) or any(r.beyond for r in self.rows)


@dataclass
class FirstDifference:
    probe: Probe
    iterations: Iterations
    index: tuple[int, ...]
    ours: float
    theirs: float
    agreeing_upstream: list[str]
    not_compared_upstream: list[str]


def compare_probes(probes: list[Probe], got: dict[int, np.ndarray], rec: Recorder, rtol: float, atol: float
                   ) -> tuple[list[ProbeResult], FirstDifference | None]:
    """Each probe's rows per iteration, and the first element beyond the tolerance in irlint's order of
    computation (iteration, then layer, then port, then element)."""
    results: list[ProbeResult] = []
    seen = Divergence()
    for i, probe in enumerate(probes):
        path = probe.layer.path
        ours_by_it = rec.values.get(path, {})
        theirs = got.get(i)
        if theirs is None:
            results.append(ProbeResult(probe, [], "OpenVINO did not return it"))
            continue
        rows: list[ErrorRow] = []
        problem = ""
        for its, outs in sorted(ours_by_it.items()):
            ours = outs[probe.port_index] if probe.port_index < len(outs) else None
            try:
                want = theirs[probe.openvino_index(its)]
            except IndexError:
                problem = f"OpenVINO ran fewer iterations ({list(theirs.shape[:len(its)])}) than irlint"
                break
            if ours is None or ours.shape != want.shape:
                problem = (f"iteration {label(its)}: shape {None if ours is None else list(ours.shape)} "
                           f"vs OpenVINO {list(want.shape)}")
                break
            row = seen.row(path, its, ours, want, rtol, atol, (rec.order[(path, its)],), (probe, its))
            if row is not None:
                rows.append(row)
        results.append(ProbeResult(probe, rows, problem))
    if seen.first is None:
        return results, None
    probe, its = seen.first
    verdicts = seen.verdicts
    ours = rec.values[probe.layer.path][its][probe.port_index]
    want = got[probes.index(probe)][probe.openvino_index(its)]
    bad = beyond_tolerance(ours, want, rtol, atol)
    index = tuple(int(x) for x in np.argwhere(bad)[0])
    agreeing, unseen = _upstream(probe, its, verdicts, {probes[i].layer.path for i in got})
    return results, FirstDifference(probe, its, index, float(ours[index]), float(want[index]), agreeing, unseen)


def _upstream(probe: Probe, its: Iterations, verdicts: dict[tuple[str, Iterations], bool],
              probed: set[str]) -> tuple[list[str], list[str]]:
    graph = body_holding(probe.chain[-1], probe.layer) if probe.chain else None
    if graph is None:
        return [], []
    return upstream(graph, probe.layer, its, verdicts, probed)


def upstream(graph: Graph, layer: Layer, its: Iterations, verdicts: dict[tuple[str, Iterations], bool],
             compared: set[str]) -> tuple[list[str], list[str]]:
    """The layers of `graph` that feed `layer` (transitively): those compared and agreeing in iteration
    `its`, and those not compared (body Parameters, left-out layers; constants are not listed)."""
    feeders: dict[int | None, set[int | None]] = {}
    for e in graph.edges:
        feeders.setdefault(e.to_layer, set()).add(e.from_layer)
    seen: set[int | None] = set()
    todo = [layer.id]
    while todo:
        for f in feeders.get(todo.pop(), ()):
            if f not in seen:
                seen.add(f)
                todo.append(f)
    agreeing, unseen = [], []
    for la in graph.layers:
        if la.id not in seen:
            continue
        if la.path in compared and verdicts.get((la.path, its)) is True:
            agreeing.append(la.name)
        elif la.path not in compared and la.type not in ("Const", "Constant"):
            unseen.append(f"{la.name} ({la.type})")
    return agreeing, unseen


def trace_key(probe: Probe, its: Iterations) -> str:
    """The key `irlint run --trace-all` records this output under in this iteration (docs/trace-format.md)."""
    from irlint.interp.trace import key

    frames = tuple((c.path, k) for c, k in zip(probe.chain, its))
    return key(probe.layer.path, frames, f"out{probe.layer.outputs[probe.port_index].id}")


def probes_for(sel: Selection, rec: Recorder) -> list[Probe]:
    """The probes of the layers irlint recorded whole: every iteration of every enclosing loop run (an
    inner loop that runs a different number of times per outer iteration cannot be concatenated by
    OpenVINO), each numeric output whose shape stays the same over the iterations."""
    probes: list[Probe] = []
    for la, chain in sel.layers:
        path = la.path
        if path in rec.dropped:
            sel.left_out[placed(la)] = budget_reason(rec, path)
            continue
        seen = rec.values.get(path)
        if not seen:
            sel.left_out[placed(la)] = ("never ran (its If branch was not taken)" if any(
                c.type == "If" for c in chain) else "never ran (a loop around it ran zero times)")
            continue
        counts = [{n for (p, _o), n in rec.runs.items() if p == chain[i].path} for i in loop_positions(chain)]
        whole = int(np.prod([next(iter(c)) for c in counts])) if all(len(c) == 1 for c in counts) else -1
        in_branch = len(counts) != len(chain)  # only the iterations in which its branch ran
        if whole < 0 or (len(seen) > whole if in_branch else len(seen) != whole):
            sel.left_out[placed(la)] = ("an enclosing loop runs a different number of iterations from one "
                                           "outer iteration to the next")
            rec.values.pop(path, None)
            continue
        for port in range(len(la.outputs)):
            first = next(iter(seen.values()))
            if port >= len(first):
                continue
            shapes = {outs[port].shape for outs in seen.values()}
            kinds = {outs[port].dtype.kind for outs in seen.values()}
            if len(shapes) != 1 or not kinds <= set("fiub"):
                sel.left_out[f"{placed(la)} out{la.outputs[port].id}"] = (
                    "its shape changes between iterations" if len(shapes) != 1 else "not a numeric tensor")
                continue
            steps = iter(next(iter(c)) for c in counts)
            per_step = tuple(None if c.type == "If" else next(steps) for c in chain)
            probes.append(Probe(la, port, chain, first[port].shape, str(first[port].dtype), per_step))
    return probes


def budget_reason(rec: Recorder, path: str) -> str:
    """Why a layer was left out for --memory-budget, with what its values over the whole run take."""
    need, runs = rec.needed.get(path, 0), rec.evaluations.get(path, 0)
    each = f" ({need // runs:,} bytes each of its {runs:,} runs)" if runs > 1 else ""
    why = ("alone more than that" if need > rec.budget else
           "more than was left beside the layers kept")
    return (f"left out to fit --memory-budget: --inside keeps {rec.budget:,} bytes of values (a quarter of it); "
            f"its values take {need:,} bytes{each}, {why}")


def inside_report(sel: Selection, probes: list[Probe], got_ov: Any, rec: Recorder, rtol: float, atol: float
                  ) -> tuple[dict[str, Any], bool, list[tuple[str, list[ErrorRow]]]]:
    """The `inside` part of the result (`Comparison.report["inside"]`), whether any compared layer output
    differs, and the plot's panels (the first to part, then the worst by ULP)."""
    for i, why in got_ov.skipped.items():
        sel.left_out[probes[i].title] = f"OpenVINO could not expose it: {why}"
    observer = got_ov.observer_effect
    for i in (observer or {}).get("probes", []):
        sel.left_out[probes[i].title] = ("observing it changes what OpenVINO computes (the outputs differ with it "
                                         "exposed), so it was left out and the departure kept in sight")
    left_out = [{"layer": k, "why": v} for k, v in sel.left_out.items()]
    if got_ov.instrument_error:
        return ({"error": f"OpenVINO failed on the instrumented model: {got_ov.instrument_error}",
                 "left_out": left_out}, True, [])
    results, first = compare_probes(probes, got_ov.probes, rec, rtol, atol)
    compared = [r for r in results if r.probe in [probes[i] for i in got_ov.probes]]
    inside: dict[str, Any] = {
        "compared": [{"layer": r.probe.layer.name, "type": r.probe.layer.type, "path": r.probe.layer.path,
                      "port": r.probe.layer.outputs[r.probe.port_index].id,
                      "verdict": "differs" if r.differs else "ok", "problem": r.problem or None,
                      "rows": r.rows} for r in compared],
        "left_out": left_out,
        "instrumented_outputs_same": got_ov.instrumented_same,
        "instrumented_outputs_max_abs": got_ov.instrumented_max_abs,
        "output_names": got_ov.names,
    }
    if observer:
        from irlint.comparison.memory import in_place_departures

        inside["observer_effect"] = {"left_out": [probes[i].title for i in observer["probes"]],
                                     "outputs_same_with_all": observer["instrumented_same"],
                                     "outputs_max_abs_with_all": observer["instrumented_max_abs"],
                                     "in_place": in_place_departures(sel.model)}
    if first is not None:
        inside["first_difference"] = {
            "iteration": label(first.iterations), "layer": first.probe.layer.name, "type": first.probe.layer.type,
            "path": first.probe.layer.path, "port": first.probe.layer.outputs[first.probe.port_index].id,
            "index": list(first.index), "trace_key": trace_key(first.probe, first.iterations),
            "ours": first.ours, "openvino": first.theirs, "upstream_agreeing": first.agreeing_upstream,
            "upstream_not_compared": first.not_compared_upstream}
    panels = []
    if first is not None:
        r = next(x for x in compared if x.probe is first.probe)
        panels.append((f"inside: {r.probe.title}", r.rows))
    worst = sorted((r for r in compared if r.rows and (first is None or r.probe is not first.probe)),
                   key=lambda r: max(x.max_ulp for x in r.rows), reverse=True)
    panels += [(f"inside: {r.probe.title}", r.rows) for r in worst[:5 - len(panels) + 1]]
    return inside, any(r.differs for r in compared), panels
