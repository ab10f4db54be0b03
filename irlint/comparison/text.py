"""The human report of a `Comparison`, line by line: what `irlint compare` prints.

Every name from a model goes through `one_line` (terminal control characters and bidi overrides made
visible), as everywhere irlint prints model text.
"""

from __future__ import annotations

from typing import Any

from irlint.comparison.outputs import describe_first
from irlint.comparison.result import Comparison
from irlint.comparison.stats import table
from irlint.report.text import one_line as safe


def report_lines(c: Comparison) -> list[str]:
    r = c.report
    if c.mode == "two":
        return _two(r)
    if "openvino_error" in r:
        return error_lines(f"{r['model']}: ", r["openvino_error"])
    asked, chosen = r["precision"]["asked"], r["precision"]["openvino"]
    lines = [f"OpenVINO CPU plugin, inference precision {chosen}"
             + (" (no hint: the plugin's default)" if asked == "default" else
                f" (asked {asked}: the plugin chose {chosen})" if chosen not in (asked, "unknown") else "")]
    lines += output_lines(r["outputs"], "OpenVINO", "ours_shape")
    if "inside" in r:
        lines += _inside(r["model"], r["inside"])
    return lines


def error_lines(prefix: str, message: str) -> list[str]:
    """OpenVINO's failure, compiler style: its first line as the finding, the rest indented."""
    first, *rest = message.splitlines() or [""]
    return [safe(f"{prefix}OPENVINO [error] {first}")] + [f"    {safe(line)}" for line in rest]


def output_lines(outs: list[dict[str, Any]], against: str, shape_key: str) -> list[str]:
    lines = [f"{'output':<24} {'max abs diff':>14} {'max rel diff':>14}  verdict"]
    for o in outs:
        shown = safe(o["name"])
        if o["verdict"] == "shape":
            lines.append(f"{shown:<24} shape {o[shape_key]} vs {against} {o['shape']}")
        elif o.get("strings"):
            lines.append(f"{shown:<24} {'-':>14} {'-':>14}  {'ok' if o['verdict'] == 'ok' else 'DIFFERS'}")
        else:
            verdict = "ok" if o["verdict"] == "ok" else "DIFFERS" + safe(describe_first(o))
            lines.append(f"{shown:<24} {o['max_abs']:>14.3g} {o['max_rel']:>14.3g}  {verdict}")
    for o in outs:
        rows = o.get("rows", [])
        if len(rows) > 1:
            lines += ["", f"{safe(o['name'])}: per iteration of {safe(o['loop'])}", *table(rows)]
    return lines


def _title(x: dict[str, Any]) -> str:
    return f"{x['layer']} ({x['type']}, {x['path']}) out{x['port']}"


def brief(why: str) -> str:
    """One line of a reason that quotes OpenVINO's many-line message: its head and its last line, the one that
    says what failed (the "Exception from src/..." lines between are where)."""
    lines = [line.strip() for line in why.splitlines() if line.strip()]
    if len(lines) <= 1:
        return why.strip()
    head = lines[0]
    cut = head.find("Exception from ")
    head = head[:cut] if cut > 0 else head + " "
    return f"{head}{lines[-1]} (the whole message in --format json)"


def _inside(model: str, inside: dict[str, Any]) -> list[str]:
    if "error" in inside:
        return ["", *error_lines(f"{model}: ", inside["error"])]
    compared = inside["compared"]
    lines = ["", f"inside the bodies: {len(compared)} layer output{'s' if len(compared) != 1 else ''} compared "
             "per iteration"]
    w = min(64, max([len(safe(_title(x))) for x in compared] + [12]))
    if compared:
        lines.append(f"{'layer output':<{w}} {'iters':>6} {'max abs':>11} {'max rel':>11} {'max ULP':>11}  verdict")
    for x in compared:
        rows = x["rows"]
        if x["problem"]:
            lines.append(f"{safe(_title(x))[:w]:<{w}} {x['problem']}")
        elif rows:
            bad = next((r.iteration for r in rows if r.beyond), None)
            verdict = "ok" if bad is None else f"DIFFERS from iteration {bad}"
            lines.append(f"{safe(_title(x))[:w]:<{w}} {len(rows):>6} {max(r.max_abs for r in rows):>11.3g} "
                         f"{max(r.max_rel for r in rows):>11.3g} {max(r.max_ulp for r in rows):>11.4g}  {verdict}")
    first = inside.get("first_difference")
    if first is not None:
        lines += ["", safe(f"first difference inside: iteration {first['iteration']}, layer '{first['layer']}' "
                           f"({first['type']}, {first['path']}) out{first['port']}, element {tuple(first['index'])}: "
                           f"irlint {first['ours']:.9g}, OpenVINO {first['openvino']:.9g}"),
                  safe("    upstream in that iteration, still agreeing: "
                       + (", ".join(first["upstream_agreeing"]) or "none compared"))]
        if first["upstream_not_compared"]:
            lines.append(safe("    upstream, not compared: " + ", ".join(first["upstream_not_compared"])))
        hit = next(x for x in compared if x["path"] == first["path"] and x["port"] == first["port"])
        lines += [safe(f"    {_title(hit)} per iteration:"), *table(hit["rows"], indent="    ")]
    left = inside["left_out"]
    if left:
        lines.append(f"left out ({len(left)}):")
        lines += [safe(f"    {x['layer']}: {brief(x['why'])}") for x in left[:20]]
        if len(left) > 20:
            lines.append(f"    ... and {len(left) - 20} more (all in --format json)")
    observer = inside.get("observer_effect")
    if observer:
        names = inside["output_names"]
        gaps = ", ".join(f"{safe(n)} by up to {g:.3g}" for n, s, g in
                         zip(names, observer["outputs_same_with_all"], observer["outputs_max_abs_with_all"])
                         if not s and g is not None)
        kept = ("Left out so that the departure stays in sight" if compared else
                "No set of these probes keeps the outputs as they were, so none is compared (without LAYERs, "
                "--inside probes every body layer and compares those that keep them); left out")
        lines.append(safe(f"observer effect: with every probe exposed, OpenVINO's own outputs changed ({gaps}): "
                          f"its memory reuse depends on what is read. {kept}: {', '.join(observer['left_out'])}"))
        for d in observer.get("in_place", []):
            what = (f"'{d['writer']}' is computed in place in the memory of '{d['memory_of']}'" if d["writer"] else
                    f"'{d['memory_of']}' is passed on")
            lines.append(safe(f"    the CPU plugin's memory ({d['loop']}): {what}; {d['how']}"))
    same, apart = inside["instrumented_outputs_same"], inside["instrumented_outputs_max_abs"]
    if same is not None and all(same):
        lines.append("the instrumented model's original outputs are bit-identical to the uninstrumented model's")
    elif same is not None:
        names = inside["output_names"]
        gaps = ", ".join(f"{safe(n)} by up to {g:.3g}" for n, s, g in zip(names, same, apart or [None] * len(names))
                         if not s and g is not None)
        lines.append("warning: with the extra outputs, OpenVINO's original outputs are not bit-identical to the "
                     "uninstrumented model's" + (f": {gaps}" if gaps else "")
                     + "; the body values compared are the instrumented model's")
    return lines


def _two(r: dict[str, Any]) -> list[str]:
    lines = [safe(f"A {r['model']} against B {r['model_b']}, both run by irlint")]
    lines += change_lines(r["changes"])
    lines += output_lines(r["outputs"], "B", "a_shape")
    lines += _layers(r)
    if "openvino_error" in r:
        for message in r["openvino_error"]:
            lines += error_lines("", message)
    elif "openvino" in r:
        lines += ["", f"OpenVINO CPU plugin (inference precision {r['openvino']['precision']}): A against B"]
        lines += output_lines(r["openvino"]["outputs"], "B", "a_shape")
    return lines


def change_lines(changes: list[dict[str, Any]]) -> list[str]:
    """What changed between A and B, the likely causes, before any number."""
    if not changes:
        return ["changes: none (the same layers, types, attributes and constants by name)"]
    count = {k: sum(c["kind"] == k for c in changes) for k in ("renamed", "removed", "added")}
    changed = len(changes) - sum(count.values())
    lines = [f"changes: {changed} layer{'s' if changed != 1 else ''} changed"
             + (f", {count['renamed']} renamed" if count["renamed"] else "")
             + (f", {count['removed']} only in A" if count["removed"] else "")
             + (f", {count['added']} only in B" if count["added"] else "")]
    for c in changes[:20]:
        if c["kind"] in ("removed", "added"):
            side = "A" if c["kind"] == "removed" else "B"
            lines.append(safe(f"    only in {side}: '{c['layer']}' ({c['type']}, {side} {c['path']}), "
                              f"matched by neither name nor place"))
            continue
        where = f"'{c['layer']}' (A {c['path_a']}, B {c['path_b']})"
        if c["kind"] == "type":
            text = f"type of {where}: {c['a']} in A, {c['b']} in B"
        elif c["kind"] == "renamed":
            text = f"renamed: '{c['a']}' in A is '{c['b']}' in B ({c['path_a']}, {c['path_b']}); compared as one layer"
        elif c["kind"] == "attributes":
            text = f"attributes of {where}: {c['a']} in A; {c['b']} in B"
        elif c.get("what") == "bytes" and "elements_changed" in c:
            text = (f"constant {where} {c['a']}, read by {', '.join(c['read_by']) or 'nothing'}: "
                    f"{c['elements_changed']} of {c['elements']} elements changed, by up to {c['max_abs']:.6g} "
                    f"(first at flat index {c['first_index']})")
        elif c.get("what") == "bytes":
            text = f"constant {where} {c['a']}: its bytes changed"
        else:
            text = f"constant {where}: {c['a']} in A, {c['b']} in B"
        lines.append(safe(f"    {text}"))
    if len(changes) > 20:
        lines.append(f"    ... and {len(changes) - 20} more (all in --format json)")
    return [*lines, ""]


def _layers(r: dict[str, Any]) -> list[str]:
    layers, first, unmatched = r["layers"], r["first_difference"], r["unmatched"]
    differ = [x for x in layers if x["verdict"] != "ok"]
    lines = ["", f"layers: {len(layers)} layer outputs matched by name and compared, {len(differ)} differ"]
    for side in ("a", "b"):
        if r[f"outputs_only_in_{side}"]:
            lines.append(safe(f"outputs only in {side.upper()}: {', '.join(r[f'outputs_only_in_{side}'])}"))
    if first is not None:
        what = (f"shape {first['shapes'][0]} in A, {first['shapes'][1]} in B" if first["shapes"] else
                f"element {tuple(first['index'])}: A {first['a']:.9g}, B {first['b']:.9g}")
        kind = first["type"] if first["type"] == first["type_b"] else f"{first['type']} in A, {first['type_b']} in B"
        lines.append(safe(f"first layer where A and B part: iteration {first['iteration']}, layer '{first['layer']}' "
                          f"({kind}, A {first['path_a']}, B {first['path_b']}) out{first['port']}, {what}"))
        lines.append(safe("    upstream in that iteration, still agreeing: "
                          + (", ".join(first["upstream_agreeing"]) or "none compared")))
        if first["upstream_not_compared"]:
            lines.append(safe("    upstream, not compared: " + ", ".join(first["upstream_not_compared"])))
        hit = next(x for x in layers if x["path_a"] == first["path_a"] and x["port"] == first["port"])
        if len(hit["rows"]) > 1:
            lines += table(hit["rows"])
    lines += [safe(f"    {x['layer']} out{x['port']}: {x['problem']}") for x in [x for x in layers if x["problem"]][:5]]
    for what, names in unmatched.items():
        if names:
            shown = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
            why = (f"; each run keeps {r['memory_kept_bytes']:,} bytes of values, a quarter of --memory-budget"
                   if what == "left_out_for_memory" and "memory_kept_bytes" in r else "")
            lines.append(safe(f"{what.replace('_', ' ')} ({len(names)}{why}): {shown}"))
    return lines
