"""`irlint compare A.xml B.xml --inputs ...`: two IRs of one model (an edited copy, another converter's
output, a model before and after a pass), both run by irlint, compared layer by layer and iteration
by iteration.

Layers are matched by name: a layer's key is its name, after the names of the TensorIterators, Loops
and If branches around it (ids differ between two conversions; names usually survive). Both runs
record every layer's outputs within a quarter of `--memory-budget` each (`irlint.cli.compare_record`:
past it, the last layers of the file are dropped and listed). The first (iteration, layer, port,
element) where they part is the first in A's order of computation. With `--openvino`, both models
also run in OpenVINO (`--precision`), and its outputs for A and B are compared too.
"""

from __future__ import annotations

import argparse
import copy
import sys
from typing import Any

import numpy as np

from irlint.cli.command import EXIT_CLEAN, EXIT_FINDINGS, UsageError
from irlint.cli.compare_inside import SKIPPED_TYPES, upstream, walk
from irlint.cli.compare_record import Recorder
from irlint.cli.compare_stats import Divergence, ErrorRow, beyond_tolerance, label, table
from irlint.cli.printing import safe
from irlint.cli.run_support import ModelHasErrors, announce, build_inputs, load_checked
from irlint.ir.model import Graph, Layer, Model

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


def run_two(args: argparse.Namespace, second: list[str]) -> int:
    from irlint.cli.compare_cmd import _check_plot, _print_json, _run_ours, _text_outputs, compare_output

    if len(second) != 1:
        raise UsageError(f"compare takes one or two models, not {1 + len(second)}")
    if args.inside is not None:
        raise UsageError("--inside is for one model against OpenVINO; two models are compared layer by layer anyway")
    b_path = second[0]
    args.assign = [a for a in args.assign if a != b_path]
    args_b = copy.copy(args)
    args_b.model, args_b.weights = b_path, None
    from irlint.ir.loader import default_weights_path

    _check_plot(args, [("B", b_path), ("B's weights", default_weights_path(b_path))])
    try:
        model_a = load_checked(args)
        model_b = load_checked(args_b)
    except ModelHasErrors:
        return 1
    inputs, notes = build_inputs(model_a, args)
    names_b = sorted(p.name for p in model_b.graph.parameters())
    if names_b != sorted(inputs):
        raise UsageError(f"{b_path}'s inputs {names_b} are not {args.model}'s {sorted(inputs)}")
    announce(notes, stdout=args.format == "text")
    rec_a = _record_all(model_a, args.memory_budget // 4)
    rec_b = _record_all(model_b, args.memory_budget // 4)
    out_a = _run_ours(model_a, inputs, args, rec_a)
    if isinstance(out_a, int):
        return out_a
    out_b = _run_ours(model_b, inputs, args_b, rec_b)
    if isinstance(out_b, int):
        return out_b
    report: dict[str, Any] = {"model": args.model, "model_b": b_path, "random_inputs": bool(notes),
                              "rtol": args.rtol, "atol": args.atol}
    iterations = rec_a.top_iterations
    outs = [compare_output(model_a, name, out_a[name], out_b[name], args, iterations)
            for name in out_a if name in out_b]
    report["outputs"] = outs
    report["outputs_only_in_a"] = sorted(set(out_a) - set(out_b))
    report["outputs_only_in_b"] = sorted(set(out_b) - set(out_a))
    layers, first, unmatched = _compare_layers(model_a, model_b, rec_a, rec_b, args.rtol, args.atol)
    report["layers"] = layers
    report["first_difference"] = first
    report["unmatched"] = unmatched
    status = EXIT_CLEAN
    if any(o["verdict"] != "ok" for o in outs) or first is not None or report["outputs_only_in_a"] \
            or report["outputs_only_in_b"]:
        status = EXIT_FINDINGS
    if args.format == "text":
        print(safe(f"A {args.model} against B {b_path}, both run by irlint"))
        _text_outputs(outs, against="B")
        _print_layers(layers, first, unmatched, report)
    ov_failed = False
    if args.openvino:
        ov_failed = _openvino_both(args, args_b, model_a, inputs, iterations, report)
        status = EXIT_FINDINGS if ov_failed else status
    if args.format == "json":
        _print_json(report)
    if args.plot:
        from irlint.cli.compare_plot import save

        panels = [(f"output {o['name']}", o["rows"]) for o in outs if len(o.get("rows", [])) > 1]
        if first is not None:
            hit = next(x for x in layers if x["path_a"] == first["path_a"] and x["port"] == first["port"])
            panels.insert(0, (f"first to part: {first['layer']} out{first['port']}", hit["rows"]))
        panels = panels or [(f"output {o['name']}", o.get("rows", [])) for o in outs]
        save(panels, f"irlint compare: {model_a.name or args.model} against {b_path}", args.rtol, args.plot)
        print(f"plot: {len(panels)} panel{'s' if len(panels) != 1 else ''} -> {safe(args.plot)}", file=sys.stderr)
    return status


def _compare_layers(model_a: Model, model_b: Model, rec_a: Recorder, rec_b: Recorder, rtol: float, atol: float
                    ) -> tuple[list[dict[str, Any]], dict[str, Any] | None, dict[str, list[str]]]:
    key_a, _layers_a, graphs_a, dup_a = _keys(model_a)
    key_b, layers_b, _graphs_b, dup_b = _keys(model_b)
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
                results.append({"layer": la.name, "type": la.type, "path_a": path, "path_b": lb.path,
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
    first = {"iteration": label(its), "layer": la.name, "type": la.type, "path_a": path, "path_b": lb.path,
             "port": la.outputs[port].id, "index": None, "a": None, "b": None, "shapes": None,
             "upstream_agreeing": agreeing, "upstream_not_compared": unseen}
    if g.shape != w.shape:
        first["shapes"] = [list(g.shape), list(w.shape)]
    else:
        index = tuple(int(x) for x in np.argwhere(beyond_tolerance(g, w, rtol, atol))[0])
        first.update(index=list(index), a=float(g[index]), b=float(w[index]))
    return results, first, unmatched


def _print_layers(layers: list[dict[str, Any]], first: dict[str, Any] | None, unmatched: dict[str, list[str]],
                  report: dict[str, Any]) -> None:
    differ = [x for x in layers if x["verdict"] != "ok"]
    print(f"\nlayers: {len(layers)} layer outputs matched by name and compared, {len(differ)} differ")
    for side in ("a", "b"):
        if report[f"outputs_only_in_{side}"]:
            print(safe(f"outputs only in {side.upper()}: {', '.join(report[f'outputs_only_in_{side}'])}"))
    if first is not None:
        what = (f"shape {first['shapes'][0]} in A, {first['shapes'][1]} in B" if first["shapes"] else
                f"element {tuple(first['index'])}: A {first['a']:.9g}, B {first['b']:.9g}")
        print(safe(f"first layer where A and B part: iteration {first['iteration']}, layer '{first['layer']}' "
                   f"({first['type']}, A {first['path_a']}, B {first['path_b']}) out{first['port']}, {what}"))
        print(safe("    upstream in that iteration, still agreeing: "
                   + (", ".join(first["upstream_agreeing"]) or "none compared")))
        if first["upstream_not_compared"]:
            print(safe("    upstream, not compared: " + ", ".join(first["upstream_not_compared"])))
        hit = next(x for x in layers if x["path_a"] == first["path_a"] and x["port"] == first["port"])
        if len(hit["rows"]) > 1:
            print("\n".join(table(hit["rows"])))
    for x in [x for x in layers if x["problem"]][:5]:
        print(safe(f"    {x['layer']} out{x['port']}: {x['problem']}"))
    for what, names in unmatched.items():
        if names:
            shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
            print(safe(f"{what.replace('_', ' ')} ({len(names)}): {shown}"))


def _openvino_both(args: argparse.Namespace, args_b: argparse.Namespace, model_a: Model,
                   inputs: dict[str, np.ndarray], iterations: dict[str, int], report: dict[str, Any]) -> bool:
    """OpenVINO's outputs for A against its outputs for B; True when OpenVINO failed on either."""
    from irlint.cli.compare_cmd import _text_outputs, compare_output, run_openvino

    job = {"precision": None if args.precision == "default" else args.precision, "probes": []}
    runs = [run_openvino(a.model, a.weights, inputs, args.timeout, job) for a in (args, args_b)]
    failed = [f"{a.model}: {r}" for a, r in zip((args, args_b), runs) if isinstance(r, str)]
    if failed:
        report["openvino_error"] = failed
        if args.format == "text":
            for f in failed:
                lines = f.splitlines() or [""]
                print(safe(f"OPENVINO [error] {lines[0]}"))
                for line in lines[1:]:
                    print(f"    {safe(line)}")
        return True
    ra, rb = runs
    vals_b = dict(zip(rb.names, rb.values))  # type: ignore[union-attr]
    outs = [compare_output(model_a, n, v, vals_b[n], args, iterations)
            for n, v in zip(ra.names, ra.values) if n in vals_b]  # type: ignore[union-attr]
    report["openvino"] = {"precision": ra.precision, "outputs": outs}  # type: ignore[union-attr]
    if args.format == "text":
        print(f"\nOpenVINO CPU plugin (inference precision {ra.precision}): A against B")  # type: ignore[union-attr]
        _text_outputs(outs, against="B")
    return False
