"""Measure what OpenVINO does with each rule's failing fixture: the source of docs/rules-openvino.md.

    .venv/bin/python scripts/openvino_verdicts.py            # a markdown table on stdout

For every tests/rules/fixtures/<CODE>/fail*.xml a subprocess reads the model, compiles it on the CPU
plugin (f32 inference precision) and runs it on fixed inputs; a model that runs is compared with the
rule's pass.xml run on the same inputs when their inputs and outputs match. Verdicts:
`read` (read_model refuses it), `compile` (compile_model refuses it), `runs, differs` (runs and
computes something else than the valid fixture), `runs, same` (runs and computes what the valid
fixture computes), `runs` (runs; no comparable valid fixture), `crash` (the process died).
"""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "rules" / "fixtures"

PROBE = r"""
import json, sys, numpy as np, openvino as ov
def run(path):
    core = ov.Core()
    try:
        m = core.read_model(path)
    except Exception as e:
        return {"stage": "read", "why": str(e).strip().splitlines()[-1][:160] if str(e).strip() else type(e).__name__}
    try:
        c = core.compile_model(m, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    except Exception as e:
        lines = [l for l in str(e).splitlines() if l.strip()]
        return {"stage": "compile", "why": lines[-1][:160] if lines else type(e).__name__}
    rng = np.random.default_rng(0)
    feed = []
    for p in m.inputs:
        shape = [d.get_length() if d.is_static else 2 for d in p.get_partial_shape()]
        t = p.get_element_type().to_dtype()
        feed.append((rng.standard_normal(shape) if np.issubdtype(t, np.floating) else np.ones(shape)).astype(t))
    try:
        out = c(feed)
    except Exception as e:
        return {"stage": "infer", "why": str(e).strip().splitlines()[-1][:160]}
    return {"stage": "runs", "inputs": [list(f.shape) for f in feed],
            "outputs": [np.asarray(v).astype(np.float64).ravel().tolist() for v in out.values()],
            "shapes": [list(np.shape(v)) for v in out.values()]}
print(json.dumps(run(sys.argv[1])))
"""


def probe(path: Path) -> dict:
    try:
        done = subprocess.run([sys.executable, "-c", PROBE, str(path)], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return {"stage": "timeout", "why": "more than 120 s"}
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        return {"stage": "crash", "why": f"exit code {done.returncode}"}
    return json.loads(lines[-1])


def verdict(fail: dict, good: dict | None) -> str:
    if fail["stage"] != "runs":
        return {"read": "rejected at read", "compile": "rejected at compile", "infer": "fails at inference",
                "crash": "the process crashes", "timeout": "hangs"}[fail["stage"]]
    if good is None or good.get("stage") != "runs" or good["inputs"] != fail["inputs"] \
            or good["shapes"] != fail["shapes"]:
        return "runs"
    import numpy as np

    same = all(np.allclose(a, b, rtol=1e-4, atol=1e-5, equal_nan=True)
               for a, b in zip(good["outputs"], fail["outputs"]))
    return "runs, computes the same as the valid model" if same else "runs, computes something else"


def main() -> None:
    cases = sorted(FIXTURES.glob("*/fail*.xml"))
    passes = sorted({p.parent / "pass.xml" for p in cases if (p.parent / "pass.xml").exists()})
    with ThreadPoolExecutor(2) as pool:
        results = dict(zip(cases + passes, pool.map(probe, cases + passes)))
    print("| fixture | OpenVINO | its message |")
    print("| --- | --- | --- |")
    for case in cases:
        good = results.get(case.parent / "pass.xml")
        res = results[case]
        why = res.get("why", "").replace("|", "\\|")
        print(f"| {case.parent.name}/{case.name} | {verdict(res, good)} | {why} |")


if __name__ == "__main__":
    main()
