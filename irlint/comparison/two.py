"""Two IRs of one model (an edited copy, another converter's output, a model before and after a pass), both
run by irlint, compared layer by layer and iteration by iteration, after what changed between them
(`irlint.comparison.changes`).

Layers are matched by name: a layer's key is its name, after the names of the TensorIterators, Loops
and If branches around it (ids differ between two conversions; names usually survive). Both runs
record every layer's outputs within a quarter of `--memory-budget` each (`irlint.comparison.record`:
past it, the fastest-growing layers are dropped and listed). The first (iteration, layer, port,
element) where they part is the first in A's order of computation. With `--openvino`, both models
also run in OpenVINO (`--precision`), and its outputs for A and B are compared too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from irlint.comparison.changes import changes, translate
from irlint.comparison.errors import CompareError
from irlint.comparison.inside import SKIPPED_TYPES, upstream, walk
from irlint.comparison.outputs import TWO_MODELS, compare_output
from irlint.comparison.record import Recorder
from irlint.comparison.result import Comparison
from irlint.comparison.stats import Divergence, ErrorRow, beyond_tolerance, label
from irlint.ir.declared import declared_info
from irlint.ir.model import Graph, Layer, Model

if TYPE_CHECKING:
    from irlint.interp import Options

NameKey = tuple[str, ...]


def _keys(model: Model) -> tuple[dict[str, NameKey], dict[NameKey, Layer], dict[str, Graph], set[NameKey]]:
    """Per layer path its name key; per unique name key its layer; per path its graph; the keys that
    are not unique (left out: they cannot be matched)."""
    by_path: dict[str, NameKey] = {}
    by_key: dict[NameKey, Layer] = {}
    graphs: dict[str, Graph] = {}
    dup: set[NameKey] = set()
    for la, chain, _b, graph in walk(model.graph):
        parts: list[str] = []
        for c in chain:
            parts.append(c.name)
            if c.type == "If":  # which branch: the path says it
                parts.append(next((seg for seg in ("then_body", "else_body") if f"{c.path}/{seg}/" in la.path), ""))
        key = (*parts, la.name)
        by_path[la.path] = key
        graphs[la.path] = graph
        if key in by_key:
            dup.add(key)
        by_key[key] = la
    return by_path, by_key, graphs, dup


def _record_all(model: Model, budget: int) -> Recorder:
    order = [la.path for la, _c, _b, _g in walk(model.graph) if la.type not in SKIPPED_TYPES]
    return Recorder({p: i for i, p in enumerate(order)}, budget)


def compare_two(model_a: Model, model_b: Model, inputs: dict[str, np.ndarray], *, openvino: bool, rtol: float,
                atol: float, precision: str, timeout: float, options: Options) -> Comparison:
    """A and B on the same inputs, both run by irlint: what changed between them first (types, constants,
    names), then outputs, then layer by layer; OpenVINO's outputs for both with `openvino`."""
    from irlint.comparison.api import run_ours

    names_a = sorted(p.name for p in model_a.graph.parameters())
    names_b = sorted(p.name for p in model_b.graph.parameters())
    if names_b != names_a:
        raise CompareError(f"{model_b.path}'s inputs {names_b} are not {model_a.path}'s {names_a}")
    if sorted(inputs) != names_a:
        raise CompareError(f"the inputs given {sorted(inputs)} are not the models' inputs {names_a}")
    for p in model_b.graph.parameters():
        declared = declared_info(p).shape
        given = inputs[p.name].shape
        if declared is not None and (len(declared) != len(given) or any(
                n < d.lo or (d.hi is not None and n > d.hi) for d, n in zip(declared, given))):
            raise CompareError(f"{model_b.path}'s input '{p.name}' is declared {[d.value for d in declared]}; "
                               f"the input given (A's) is {list(given)}")
    rec_a = _record_all(model_a, options.memory_budget // 4)
    rec_b = _record_all(model_b, options.memory_budget // 4)
    out_a = run_ours(model_a, inputs, options, rec_a)
    out_b = run_ours(model_b, inputs, options, rec_b)
    report: dict[str, Any] = {"model": model_a.path, "model_b": model_b.path, "rtol": rtol, "atol": atol}
    report["changes"], matched = changes(model_a, model_b, _keys(model_a), _keys(model_b))
    iterations = rec_a.top_iterations
    outs = [compare_output(model_a, name, out_a[name], out_b[name], rtol, atol, iterations, TWO_MODELS)
            for name in out_a if name in out_b]
    report["outputs"] = outs
    report["outputs_only_in_a"] = sorted(set(out_a) - set(out_b))
    report["outputs_only_in_b"] = sorted(set(out_b) - set(out_a))
    layers, first, unmatched = _compare_layers(model_a, model_b, rec_a, rec_b, rtol, atol, matched)
    report["layers"] = layers
    report["first_difference"] = first
    report["unmatched"] = unmatched
    report["memory_kept_bytes"] = options.memory_budget // 4  # per run, for the layers' values
    differs = (any(o["verdict"] != "ok" for o in outs) or first is not None or bool(report["outputs_only_in_a"])
               or bool(report["outputs_only_in_b"]) or any(c["kind"] != "renamed" for c in report["changes"]))
    if openvino:
        _openvino_both(model_a, model_b, inputs, iterations, report, rtol, atol, precision, timeout)
        differs = differs or "openvino_error" in report
    panels = [(f"output {o['name']}", o["rows"]) for o in outs if len(o.get("rows", [])) > 1]
    if first is not None:
        hit = next(x for x in layers if x["path_a"] == first["path_a"] and x["port"] == first["port"])
        panels.insert(0, (f"first to part: {first['layer']} out{first['port']}", hit["rows"]))
    panels = panels or [(f"output {o['name']}", o.get("rows", [])) for o in outs]
    return Comparison("two", f"irlint compare: {model_a.name or model_a.path} against {model_b.path}", report,
                      panels, differs)


def _compare_layers(model_a: Model, model_b: Model, rec_a: Recorder, rec_b: Recorder, rtol: float, atol: float,
                    renamed: dict[NameKey, NameKey]
                    ) -> tuple[list[dict[str, Any]], dict[str, Any] | None, dict[str, list[str]]]:
    """Layer outputs matched by name key (a layer matched by place, or inside a loop or If matched so, by
    its key in B), compared per iteration."""
    key_a, _layers_a, graphs_a, dup_a = _keys(model_a)
    key_b, layers_b, _graphs_b, dup_b = _keys(model_b)
    key_a = {p: translate(k, renamed) for p, k in key_a.items()}
    keys_b = set(key_b.values())
    unmatched = {"only_in_a": [], "only_in_b": [], "ambiguous": [], "left_out_for_memory": [],
                 "never_ran_in_b": []}  # type: dict[str, list[str]]
    results: list[dict[str, Any]] = []
    seen = Divergence()
    for path, by_it in rec_a.values.items():
        key = key_a[path]
        la = rec_a.layer_of[path]
        name = " / ".join(key)
        if key in dup_a or key in dup_b:
            unmatched["ambiguous"].append(name)
            continue
        if key not in keys_b:
            unmatched["only_in_a"].append(name)
            continue
        lb = layers_b[key]
        theirs = rec_b.values.get(lb.path)
        if theirs is None:
            why = "left_out_for_memory" if lb.path in rec_b.dropped else "never_ran_in_b"
            unmatched[why].append(name)
            continue
        for port in range(len(la.outputs)):
            rows: list[ErrorRow] = []
            problem = ""
            for its, outs in sorted(by_it.items()):
                other = theirs.get(its)
                if other is None or port >= len(outs) or port >= len(other):
                    problem = problem or (f"B has no iteration {label(its)} of it" if other is None
                                          else "B has fewer outputs")
                    continue
                g, w = outs[port], other[port]
                at = (rec_a.order[(path, its)], port)
                if g.shape != w.shape:
                    problem = problem or f"iteration {label(its)}: shape {list(g.shape)} in A, {list(w.shape)} in B"
                    seen.note(path, its, False, at, (path, port, its))
                    continue
                row = seen.row(path, its, g, w, rtol, atol, at, (path, port, its))
                if row is not None:
                    rows.append(row)
            if rows or problem:
                results.append({"layer": la.name, "type": la.type, "type_b": lb.type, "path_a": path,
                                "path_b": lb.path,
                                "port": la.outputs[port].id, "port_index": port, "key": list(key),
                                "verdict": "differs" if problem or any(r.beyond for r in rows) else "ok",
                                "problem": problem or None, "rows": rows})
    unmatched["only_in_b"] = sorted(" / ".join(k) for k in keys_b - set(key_a.values())
                                    if layers_b[k].type not in SKIPPED_TYPES)
    unmatched["left_out_for_memory"] += [" / ".join(key_a[p]) for p in rec_a.dropped]
    if seen.first is None:
        return results, None, unmatched
    path, port, its = seen.first
    verdicts = seen.verdicts
    la = rec_a.layer_of[path]
    lb = layers_b[key_a[path]]
    g, w = rec_a.values[path][its][port], rec_b.values[lb.path][its][port]
    agreeing, unseen = upstream(graphs_a[path], la, its, verdicts, set(rec_a.values))
    first = {"iteration": label(its), "layer": la.name, "type": la.type, "type_b": lb.type, "path_a": path,
             "path_b": lb.path,
             "port": la.outputs[port].id, "index": None, "a": None, "b": None, "shapes": None,
             "upstream_agreeing": agreeing, "upstream_not_compared": unseen}
    if g.shape != w.shape:
        first["shapes"] = [list(g.shape), list(w.shape)]
    else:
        index = tuple(int(x) for x in np.argwhere(beyond_tolerance(g, w, rtol, atol))[0])
        first.update(index=list(index), a=float(g[index]), b=float(w[index]))
    return results, first, unmatched


def _openvino_both(model_a: Model, model_b: Model, inputs: dict[str, np.ndarray], iterations: dict[str, int],
                   report: dict[str, Any], rtol: float, atol: float, precision: str, timeout: float) -> None:
    """OpenVINO's outputs for A against its outputs for B (`report["openvino"]`), or why OpenVINO failed on
    either (`report["openvino_error"]`, one line per model)."""
    from irlint.comparison.openvino import model_files, run_openvino

    job = {"precision": None if precision == "default" else precision, "probes": []}
    models = (model_a, model_b)
    runs = []
    for m in models:
        with model_files(m) as (xml, weights):
            runs.append(run_openvino(xml, weights, inputs, timeout, job))
    failed = [f"{m.path}: {r}" for m, r in zip(models, runs) if isinstance(r, str)]
    if failed:
        report["openvino_error"] = failed
        return
    ra, rb = runs
    vals_b = dict(zip(rb.names, rb.values))  # type: ignore[union-attr]
    outs = [compare_output(model_a, n, v, vals_b[n], rtol, atol, iterations, TWO_MODELS)
            for n, v in zip(ra.names, ra.values) if n in vals_b]  # type: ignore[union-attr]
    report["openvino"] = {"precision": ra.precision, "outputs": outs}  # type: ignore[union-attr]
