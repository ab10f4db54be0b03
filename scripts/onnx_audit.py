"""Audit irlint on the IRs OpenVINO writes from the ONNX project's node test cases.

    .venv/bin/python scripts/onnx_audit.py                      # every case not yet in the cache
    .venv/bin/python scripts/onnx_audit.py --only 'test_gather*' --redo   # re-run a subset
    .venv/bin/python scripts/onnx_audit.py --redo-irlint        # keep OpenVINO's verdicts, re-run irlint
    .venv/bin/python scripts/onnx_audit.py --report             # the tables from the cache only

The installed `onnx` package generates its node test cases in memory (`collect_testcases`). For each
case a worker process converts the model with `openvino.convert_model`, compiles it on the CPU plugin
(f32 inference precision), runs it on the case's inputs and compares with the ONNX expected outputs;
for a model OpenVINO converts it writes the IR (`save_model`), lints it with `irlint.check`, runs it
with irlint's interpreter in-process and compares with OpenVINO's outputs (tests/opcheck.py's
tolerance). Each case ends in one category:

    ov-cannot-convert   convert_model, compile_model or inference refused the model (stage noted)
    ov-wrong            OpenVINO's outputs differ from ONNX's expected ones
    irlint-G110         irlint does not know a layer type of the IR (which type noted)
    irlint-error        irlint refused or failed (load error, error finding, run error, timeout)
    irlint-differs      irlint's outputs differ from OpenVINO's (max error, the ops of the model)
    irlint-agrees       irlint computes what OpenVINO computes (tests/opcheck.py tolerance; f16/bf16
                        outputs within one unit in the last place)

irlint is also run on the ov-wrong cases (field `irlint`), to see whether it follows ONNX there.
Results are kept per case in a JSON cache, so a run can be interrupted and resumed; a summary JSON
(counts per category and per op type) is written next to it. At most two worker processes run, each
case with a time limit (a worker that overruns is killed and replaced).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import multiprocessing as mp
import os
import sys
import tempfile
import time
import traceback
from collections import Counter, defaultdict
from multiprocessing.connection import wait
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CACHE = ROOT / "build" / "onnx_audit" / "cases.json"
RTOL, ATOL = 1e-4, 1e-5  # tests/opcheck.py: irlint vs OpenVINO
# f16/bf16 outputs: opcheck's rtol is finer than the type; one unit in the last place of the output type
# is accepted (OpenVINO computes 16-bit models in f32 and rounds once; irlint's kernels may round per op)
HALF_ULPS = 1.0
ONNX_RTOL, ONNX_ATOL = 1e-3, 1e-5  # OpenVINO vs ONNX's expected outputs (onnx's backend runner: rtol 1e-3)
OV_CATEGORIES = ("ov-cannot-convert", "ov-wrong")
CATEGORIES = (*OV_CATEGORIES, "irlint-G110", "irlint-error", "irlint-differs", "irlint-agrees")


# ---------------------------------------------------------------- worker side

def _cases() -> list[Any]:
    import warnings

    import numpy as np
    from onnx.backend.test.case.node import collect_testcases

    # onnx's exporters draw their inputs from numpy's global generator: seed it so that every run
    # (and both workers) sees the same data
    np.random.seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return collect_testcases(None)


def _short(e: BaseException) -> str:
    lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
    # OpenVINO's messages end with the useful line after a C++ location; keep the last non-trivial one
    useful = [ln for ln in lines if not ln.startswith(("Check ", "Exception from"))] or lines
    text = useful[-1] if useful else type(e).__name__
    return f"{type(e).__name__}: {text}"[:240]


def _compare(got: Any, want: Any, rtol: float, atol: float) -> tuple[bool, float, str]:
    """(equal within tolerance, max abs error, why not) for two arrays; exact for non-floats."""
    import numpy as np

    g, w = np.asarray(got), np.asarray(want)
    if g.shape != w.shape:
        return False, float("inf"), f"shape {list(g.shape)} vs {list(w.shape)}"
    if g.size == 0:
        return True, 0.0, ""
    if w.dtype.kind in "OUS" or g.dtype.kind in "OUS":
        ok = bool(np.all(g.astype(str) == w.astype(str)))
        return ok, 0.0 if ok else float("inf"), "" if ok else "strings differ"
    floaty = w.dtype.kind in "fc" or g.dtype.kind in "fc" or not (
        np.issubdtype(w.dtype, np.number) or w.dtype == bool)
    try:
        gf, wf = g.astype(np.float64), w.astype(np.float64)
    except (TypeError, ValueError):
        return False, float("inf"), f"dtype {g.dtype} vs {w.dtype}"
    both_nan = np.isnan(gf) & np.isnan(wf)
    same_inf = np.isinf(gf) & (gf == wf)
    with np.errstate(invalid="ignore", over="ignore"):
        err = np.where(both_nan | same_inf, 0.0, np.abs(gf - wf))
    err = np.where(np.isnan(err), np.inf, err)
    max_err = float(err.max())
    if floaty:
        ok = bool(np.all(err <= atol + rtol * np.abs(np.where(np.isfinite(wf), wf, 0.0))))
    else:
        ok = max_err == 0.0
    return ok, max_err, "" if ok else f"max error {max_err:.3g}"


# OpenVINO element types numpy has no dtype for, as ml_dtypes (what onnx's numpy_helper gives)
_ML_TYPES = {"bf16": "bfloat16", "f8e4m3": "float8_e4m3fn", "f8e5m2": "float8_e5m2", "f8e8m0": "float8_e8m0fnu",
             "i4": "int4", "u4": "uint4", "f4e2m1": "float4_e2m1fn"}
_NIBBLE_TYPES = {"i4", "u4", "f4e2m1"}


def _as_array(value: Any) -> Any:
    """A case's input or expected output as a numpy array (onnx gives low-precision ones as TensorProto)."""
    import numpy as np
    from onnx import TensorProto, numpy_helper

    return numpy_helper.to_array(value) if isinstance(value, TensorProto) else np.asarray(value)


def _ov_tensor(port: Any, arr: Any) -> Any:
    """An ov.Tensor for an input of a type numpy lacks, from the raw bytes (4-bit types packed, low nibble first)."""
    import numpy as np
    import openvino as ov

    et = port.get_element_type().get_type_name()
    if et not in _ML_TYPES:
        return arr
    t = ov.Tensor(port.get_element_type(), list(arr.shape))
    raw = np.ascontiguousarray(arr).reshape(-1).view(np.uint8)
    if et in _NIBBLE_TYPES:
        codes = (raw & 0xF).astype(np.uint8)
        if codes.size % 2:
            codes = np.append(codes, np.uint8(0))
        raw = (codes[0::2] | (codes[1::2] << 4)).astype(np.uint8)
    t.data.reshape(-1).view(np.uint8)[:raw.size] = raw
    return t


def _ov_value(t: Any) -> Any:
    """An OpenVINO output tensor as numpy (ml_dtypes for the types numpy lacks, 4-bit types unpacked)."""
    import ml_dtypes
    import numpy as np

    et = t.get_element_type().get_type_name()
    if et not in _ML_TYPES:
        return np.array(t.data)
    shape = tuple(t.get_shape())
    raw = np.array(t.data).reshape(-1).view(np.uint8)
    if et in _NIBBLE_TYPES:
        raw = np.stack([raw & 0xF, raw >> 4], axis=1).reshape(-1)[:int(np.prod(shape, dtype=np.int64))]
        if et == "i4":
            return (raw.astype(np.int8) - ((raw & 0x8).astype(np.int8) << 1)).astype(ml_dtypes.int4).reshape(shape)
    return raw.view(getattr(ml_dtypes, _ML_TYPES[et])).reshape(shape)


def _onnx_ops(case: Any) -> list[str]:
    return sorted({n.op_type for n in case.model.graph.node})


def _ir_types(xml: Path) -> list[str]:
    from lxml import etree

    skip = {"Parameter", "Result", "Const"}
    return sorted({la.get("type") for la in etree.parse(str(xml)).iter("layer")} - skip)


def _irlint(xml: Path, feed: dict[str, Any], ov_out: list[tuple[str, Any]],
            onnx_expected: list[Any] | None = None) -> dict[str, Any]:
    """irlint on the IR: its findings, then a run compared with OpenVINO's outputs (and, where
    OpenVINO is wrong, with ONNX's expected ones: field `vs_onnx`)."""
    import numpy as np

    import irlint
    from irlint.diagnostics import Severity
    from irlint.interp import ExecutionError
    from irlint.interp import run as irlint_run

    res: dict[str, Any] = {}
    try:
        diags = irlint.check(xml)
    except Exception as e:  # a crash of check is itself a finding of this audit
        return {"category": "irlint-error", "why": "check raised " + _short(e),
                "trace": traceback.format_exc()[-1500:]}
    res["findings"] = sorted({f"{d.code} {d.severity.name.lower()}: {d.message}"[:200]
                              for d in diags if d.severity is not Severity.INFO})
    g110 = sorted({d.message for d in diags if d.code == "G110"})
    if g110:
        res.update(category="irlint-G110", why="; ".join(g110)[:240])
        return res
    errors = [d for d in diags if d.severity is Severity.ERROR]
    if errors:
        res.update(category="irlint-error", why=f"{errors[0].code}: {errors[0].message}"[:240])
        return res
    try:
        model = irlint.load(xml)
        outputs = irlint_run(model, feed)
    except ExecutionError as e:
        res.update(category="irlint-error", why=f"{e.code}: {e}"[:240])
        return res
    except MemoryError as e:
        res.update(category="irlint-error", why="MemoryError " + str(e)[:200])
        return res
    except Exception as e:
        res.update(category="irlint-error", why="raised " + _short(e), trace=traceback.format_exc()[-1500:])
        return res
    worst, whys, ulps = 0.0, [], 0.0
    for name, want in ov_out:
        if name not in outputs:
            whys.append(f"{name}: no such output")
            worst = float("inf")
            continue
        ok, err, why = _compare(outputs[name], want, RTOL, ATOL)
        worst = max(worst, err)
        if not ok and _half(want):
            ulps = max(ulps, _ulps(outputs[name], want))
            ok = ulps <= HALF_ULPS  # a 16-bit float result rounded once more or less than OpenVINO's
        if not ok:
            got_dtype = np.asarray(outputs[name]).dtype
            whys.append(f"{name}: {why} ({got_dtype} vs {np.asarray(want).dtype})")
    if ulps:
        res["half_ulps"] = ulps
    if onnx_expected is not None:
        bad = []
        for (name, _), want in zip(ov_out, onnx_expected):
            ok, _err, why = _compare(outputs.get(name), want, ONNX_RTOL, ONNX_ATOL) if name in outputs else (
                False, 0.0, "no such output")
            if not ok:
                bad.append(f"{name}: {why}")
        res["vs_onnx"] = "differs: " + "; ".join(bad)[:160] if bad else "agrees"
    if whys:
        res.update(category="irlint-differs", why="; ".join(whys)[:240], max_error=worst)
    else:
        res.update(category="irlint-agrees", max_error=worst)
    return res


def _half(a: Any) -> bool:
    """Whether `a` is a 16-bit float (f16, bf16): where opcheck's 1e-4 is finer than the type resolves."""
    import numpy as np

    a = np.asarray(a)
    return a.dtype.itemsize == 2 and (a.dtype.kind == "f" or a.dtype.name == "bfloat16")


def _ulps(got: Any, want: Any) -> float:
    """The largest difference in units in the last place of `want`'s 16-bit float type."""
    import ml_dtypes
    import numpy as np

    w = np.asarray(want)
    g, wf = np.asarray(got).astype(np.float64), w.astype(np.float64)
    if g.shape != wf.shape or not np.array_equal(np.isnan(g), np.isnan(wf)):
        return float("inf")
    eps = float(ml_dtypes.finfo(w.dtype).eps)
    tiny = float(ml_dtypes.finfo(w.dtype).smallest_normal)
    ulp = eps * np.exp2(np.floor(np.log2(np.maximum(np.abs(wf), tiny))))
    fin = np.isfinite(wf)
    if not np.array_equal(g[~fin], wf[~fin]):
        return float("inf")
    return float((np.abs(g - wf)[fin] / ulp[fin]).max(initial=0.0))


def audit_case(case: Any, core: Any, skip_ov_if: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything about one case (see the module docstring)."""
    import onnx
    import openvino as ov

    rec: dict[str, Any] = {"onnx_ops": _onnx_ops(case)}
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "m.onnx"
        onnx.save(case.model, str(src))
        try:
            model = ov.convert_model(str(src))
        except Exception as e:
            rec.update(category="ov-cannot-convert", stage="convert", why=_short(e))
            return rec
        xml = Path(tmp) / "m.xml"
        try:
            ov.save_model(model, str(xml), compress_to_fp16=False)
            ir_model = core.read_model(str(xml))
            compiled = core.compile_model(ir_model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
        except Exception as e:
            rec.update(category="ov-cannot-convert", stage="compile", why=_short(e))
            return rec
        rec["ir_types"] = _ir_types(xml)
        inputs, expected = case.data_sets[0]
        names = [i.name for i in case.model.graph.input
                 if i.name not in {t.name for t in case.model.graph.initializer}]
        arrays = []
        for name, value in zip(names, inputs):
            if isinstance(value, list | tuple) or value is None:
                rec.update(category="ov-cannot-convert", stage="inputs", why=f"input {name} is a sequence/optional")
                return rec
            arrays.append(_as_array(value))
        # By name; by position when the names differ (a Parameter feeding a Result directly may take
        # the output's name) but the counts agree. An input only read for its type (CastLike's) is dropped.
        params = [p.get_friendly_name() for p in ir_model.get_parameters()]
        by_name = dict(zip(names, arrays))
        if all(p in by_name for p in params):
            arrays = [by_name[p] for p in params]
        elif len(arrays) != len(params):
            rec.update(category="ov-cannot-convert", stage="inputs",
                       why=f"IR Parameters {params}, the case's inputs {names}")
            return rec
        try:
            req = compiled.create_infer_request()
            req.infer([_ov_tensor(port, a) for port, a in zip(ir_model.inputs, arrays)])
            ov_vals = [_ov_value(req.get_output_tensor(i)) for i in range(len(ir_model.outputs))]
        except Exception as e:
            rec.update(category="ov-cannot-convert", stage="infer", why=_short(e))
            return rec
        result_names = [r.get_friendly_name() for r in ir_model.get_results()]
        ov_wrong = []
        if len(expected) != len(ov_vals):
            ov_wrong.append(f"{len(ov_vals)} outputs, ONNX expects {len(expected)}")
        for i, (want, have) in enumerate(zip(expected, ov_vals)):
            if isinstance(want, list | tuple) or want is None:
                ov_wrong.append(f"output {i} is a sequence/optional")
                continue
            want = _as_array(want)
            ok, _err, why = _compare(have, want, ONNX_RTOL, ONNX_ATOL)
            if not ok:
                ov_wrong.append(f"output {i}: {why}")
        wants = [None if isinstance(w, list | tuple) or w is None else _as_array(w) for w in expected]
        lint = _irlint(xml, dict(zip(params, arrays)), list(zip(result_names, ov_vals)),
                       wants if ov_wrong and all(w is not None for w in wants) and len(wants) == len(ov_vals) else None)
    if ov_wrong:
        rec.update(category="ov-wrong", why="; ".join(ov_wrong)[:240], irlint=lint)
    else:
        rec.update(lint)
    return rec


def _worker(conn: Any) -> None:
    import warnings

    import openvino as ov

    warnings.simplefilter("ignore")
    cases = {c.name: c for c in _cases()}
    core = ov.Core()
    conn.send(("ready", None))
    while True:
        name = conn.recv()
        if name is None:
            return
        t0 = time.perf_counter()
        try:
            rec = audit_case(cases[name], core)
        except Exception as e:
            rec = {"category": "irlint-error", "why": "audit raised " + _short(e),
                   "trace": traceback.format_exc()[-1500:]}
        rec["seconds"] = round(time.perf_counter() - t0, 3)
        conn.send((name, rec))


# ---------------------------------------------------------------- driver side

class Worker:
    """One worker process and its pipe; killed and replaced when a case overruns its time limit."""

    def __init__(self, ctx: Any) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker, args=(child,), daemon=True)
        self.proc.start()
        child.close()
        self.case: str | None = None
        self.started = 0.0
        self.ready = False

    def give(self, name: str) -> None:
        self.case, self.started = name, time.monotonic()
        self.conn.send(name)

    def kill(self) -> None:
        self.proc.kill()
        self.proc.join()
        self.conn.close()


def run_cases(names: list[str], results: dict[str, Any], cache: Path, workers: int, limit: float) -> None:
    ctx = mp.get_context("spawn")  # a fresh interpreter: no state shared with the driver
    todo = list(names)
    pool = [Worker(ctx) for _ in range(min(workers, len(todo)))]
    done = 0
    last_save = time.monotonic()
    while todo or any(w.case for w in pool):
        for w in pool:
            if w.ready and w.case is None and todo:
                w.give(todo.pop(0))
        ready = wait([w.conn for w in pool], timeout=1.0)
        now = time.monotonic()
        for i, w in enumerate(pool):
            if w.conn in ready:
                try:
                    msg, rec = w.conn.recv()
                except (EOFError, OSError):  # the worker died (a crash in native code)
                    if w.case:
                        results[w.case] = {"category": "irlint-error", "why": "worker process died",
                                           "seconds": round(now - w.started, 3)}
                        done += 1
                    w.kill()
                    pool[i] = Worker(ctx)
                    continue
                if msg == "ready":
                    w.ready = True
                    continue
                results[msg] = rec
                w.case = None
                done += 1
                print(f"[{done}/{len(names)}] {msg}: {rec['category']} {rec.get('why', '')[:100]}", flush=True)
            elif w.case and now - w.started > limit:
                results[w.case] = {"category": "irlint-error", "why": f"timeout: more than {limit:.0f} s",
                                   "seconds": round(now - w.started, 3)}
                print(f"[{done + 1}/{len(names)}] {w.case}: timeout", flush=True)
                done += 1
                w.kill()
                pool[i] = Worker(ctx)
        if now - last_save > 15:
            save(cache, results)
            last_save = now
    for w in pool:
        if w.proc.is_alive():
            w.conn.send(None)
            w.proc.join(timeout=10)
            if w.proc.is_alive():
                w.kill()
    save(cache, results)


def save(cache: Path, results: dict[str, Any]) -> None:
    cache.parent.mkdir(parents=True, exist_ok=True)
    tmp = cache.with_suffix(".tmp")
    tmp.write_text(json.dumps(dict(sorted(results.items())), indent=1, default=str))
    os.replace(tmp, cache)


def _op_of(name: str, results: dict[str, Any]) -> str:
    """The op a case is about: its single ONNX op; an expanded case (a function body of many ops)
    counts for the op of its unexpanded sibling."""
    ops = results[name].get("onnx_ops") or ["?"]
    if len(ops) == 1:
        return ops[0]
    base = name.split("_expanded")[0]
    sibling = results.get(base, {}).get("onnx_ops") or []
    if base != name and len(sibling) == 1:
        return sibling[0]
    return "+".join(ops[:3]) + ("..." if len(ops) > 3 else "")


def summarise(results: dict[str, Any]) -> dict[str, Any]:
    by_cat = Counter(r["category"] for r in results.values())
    by_op: dict[str, Counter[str]] = defaultdict(Counter)
    for name, r in results.items():
        by_op[_op_of(name, results)][r["category"]] += 1
    ov_correct = sum(by_cat[c] for c in CATEGORIES if c not in OV_CATEGORIES)
    agrees = by_cat["irlint-agrees"]
    groups: dict[str, list[str]] = defaultdict(list)
    for name, r in sorted(results.items()):
        if r["category"] in ("irlint-G110", "irlint-error", "irlint-differs"):
            groups[f"{r['category']} | {r.get('why', '')[:120]}"].append(name)
    half = sorted(name for name, r in results.items() if r["category"] == "irlint-agrees" and r.get("half_ulps"))
    false_pos = {name: r["findings"] for name, r in sorted(results.items())
                 if r["category"] == "irlint-agrees" and r.get("findings")}
    return {
        "date": time.strftime("%Y-%m-%d", time.gmtime()),
        "cases": len(results),
        "by_category": {c: by_cat[c] for c in CATEGORIES},
        "ov_correct": ov_correct,
        "irlint_agrees_pct_of_ov_correct": round(100.0 * agrees / ov_correct, 1) if ov_correct else None,
        "agrees_only_within_one_half_ulp": half,
        "by_op": {op: dict(c) for op, c in sorted(by_op.items())},
        "problems": dict(sorted(groups.items(), key=lambda kv: -len(kv[1]))),
        "findings_on_agreeing_cases": false_pos,
    }


def print_tables(summary: dict[str, Any], problems_only: bool = False) -> None:
    print(f"\n{summary['cases']} cases")
    for c, n in summary["by_category"].items():
        print(f"  {c:<20} {n:>5}")
    print(f"irlint agrees on {summary['by_category']['irlint-agrees']} of {summary['ov_correct']} "
          f"OpenVINO-correct cases: {summary['irlint_agrees_pct_of_ov_correct']}% "
          f"({len(summary['agrees_only_within_one_half_ulp'])} of them within one f16/bf16 ulp, not opcheck's 1e-4)")
    short = {"ov-cannot-convert": "ovX", "ov-wrong": "ovW", "irlint-G110": "G110", "irlint-error": "err",
             "irlint-differs": "diff", "irlint-agrees": "ok"}
    print("\nby op type" + (" (ops with an irlint problem)" if problems_only else ""))
    print(f"  {'op':<34}" + "".join(f"{s:>6}" for s in short.values()))
    for op, counts in summary["by_op"].items():
        if problems_only and not any(counts.get(c) for c in ("irlint-G110", "irlint-error", "irlint-differs")):
            continue
        print(f"  {op[:34]:<34}" + "".join(f"{counts.get(c, 0):>6}" for c in short))
    print("\nirlint problems, grouped by reason")
    for key, names in summary["problems"].items():
        print(f"  {len(names):>4}  {key}\n        {', '.join(names[:6])}{' ...' if len(names) > 6 else ''}")
    fp = summary["findings_on_agreeing_cases"]
    if fp:
        print(f"\nwarning/error findings on {len(fp)} cases irlint runs correctly")
        for finding, n in Counter(f.split(":")[0] for fs in fp.values() for f in fs).most_common():
            print(f"  {n:>4}  {finding}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", action="append", default=[], metavar="PATTERN",
                   help="case names matching this glob (repeatable; default every case)")
    p.add_argument("--redo", action="store_true", help="re-run the selected cases even if cached")
    p.add_argument("--redo-irlint", action="store_true",
                   help="re-run the selected cases OpenVINO got right or wrong (irlint changed)")
    p.add_argument("--redo-category", action="append", default=[], metavar="CAT",
                   help="re-run the selected cases cached in this category (repeatable)")
    p.add_argument("--report", action="store_true", help="print the tables from the cache; run nothing")
    p.add_argument("--problems-only", action="store_true", help="by-op table: only ops with irlint problems")
    p.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help=f"per-case results (default {DEFAULT_CACHE})")
    p.add_argument("--summary", type=Path, help="summary JSON (default: summary.json next to the cache)")
    p.add_argument("--workers", type=int, default=2, choices=(1, 2), help="worker processes (at most 2)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per case before its worker is killed")
    args = p.parse_args(argv)

    results: dict[str, Any] = json.loads(args.cache.read_text()) if args.cache.exists() else {}
    if not args.report:
        names = [c.name for c in _cases()]
        if args.only:
            names = [n for n in names if any(fnmatch.fnmatchcase(n, pat) for pat in args.only)]

        def wanted(n: str) -> bool:
            r = results.get(n)
            if r is None or args.redo:
                return True
            if args.redo_irlint and r["category"] != "ov-cannot-convert":
                return True
            return r["category"] in args.redo_category

        todo = [n for n in names if wanted(n)]
        print(f"{len(todo)} cases to run ({len(names)} selected, {len(results)} cached)", flush=True)
        t0 = time.monotonic()
        if todo:
            run_cases(todo, results, args.cache, args.workers, args.timeout)
        print(f"ran {len(todo)} cases in {time.monotonic() - t0:.0f} s", flush=True)
    summary = summarise(results)
    out = args.summary or args.cache.with_name("summary.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=1))
    print_tables(summary, args.problems_only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
