"""The child process of `irlint compare`: OpenVINO reads, compiles and runs the model here, not in irlint.

Why a separate process: OpenVINO's CPU plugin can die on a legal model (SIGFPE on a Loop with a
zero trip count, SIGSEGV on others), and a crash inside irlint's own process would end irlint with
nothing printed. Here a crash ends only this child; the parent reports it as a finding about
OpenVINO. Protocol: argv is MODEL WEIGHTS('' for the default) IN.npz OUT.npz REPORT.json JOB.json;
the stage reached is printed on stdout ("stage: read" ...) so a crash can be placed; REPORT.json
holds the Result names in order, or the exception's type and whole message.

JOB.json (written by the parent) says how to compile (`precision`: "f32", "bf16", "f16" or null
for no INFERENCE_PRECISION_HINT at all) and which body tensors to expose (`probes`, `--inside`):
each probe names the chain of TensorIterator/Loop layers from the top level down to the body that
holds the layer, the layer and its output index. The model read from the file is instrumented in
memory (the input file is never written): the probed output gets an Unsqueeze to a leading axis of
1 and a new body Result, and each enclosing TensorIterator/Loop concatenates that Result along axis
0 into a new output, up to a new top-level Result, so a probe arrives as one array
[iterations of the outermost loop, ..., iterations of the innermost, *the tensor's shape]. An If
on the way passes the value out through a new output (zeros from its other branch). The
original model runs first; the instrumented one's original outputs are compared with it bit for bit
(`instrumented_same`).

Usage: python -m irlint.cli._ov_child MODEL WEIGHTS IN.npz OUT.npz REPORT.json [JOB.json]
"""

from __future__ import annotations

import json
import sys
from typing import Any


def _stage(name: str) -> None:
    print(f"stage: {name}", flush=True)


def _config(precision: str | None) -> dict[str, str]:
    return {} if precision is None else {"INFERENCE_PRECISION_HINT": precision}


def _by_name(ops: list[Any], name: str) -> Any:
    found = [op for op in ops if op.get_friendly_name() == name]
    if len(found) != 1:
        raise LookupError(f"{len(found)} layers named {name!r}")
    return found[0]


def _instrument(ov: Any, model: Any, probes: list[dict[str, Any]]) -> tuple[list[int], dict[str, str]]:
    """Add a top-level Result per probe (in place); (the probes placed, in order; why the others were not).

    A chain step is a TensorIterator/Loop (its name) or an If and the branch the layer is in
    (`{"name", "branch"}`): the If gets a new output, the probed value from that branch and, from the
    other one, zeros of the probe's `shape` and `dtype` (that branch has no such tensor; the parent
    compares only the iterations in which the probed branch ran)."""
    import numpy as np
    import openvino.opset8 as ops

    placed: list[int] = []
    skipped: dict[str, str] = {}
    added = []
    for i, probe in enumerate(probes):
        try:
            levels = []  # (op, the body holding the next step, branch or None) from the top level down
            graph = model
            for step in probe["chain"]:
                name, branch = (step["name"], step["branch"]) if isinstance(step, dict) else (step, None)
                op = _by_name(list(graph.get_ordered_ops()), name)
                if branch is None:
                    graph = op.get_function()
                else:
                    graph = op.get_then_body() if branch == "then" else op.get_else_body()
                levels.append((op, graph, branch))
            node = _by_name(list(graph.get_ordered_ops()), probe["layer"])
            value = node.output(int(probe["port"]))
            for op, body, branch in reversed(levels):
                if branch is not None:
                    res = ops.result(value)
                    body.add_results([res])
                    other_body = op.get_else_body() if branch == "then" else op.get_then_body()
                    zeros = ops.result(ops.constant(np.zeros(probe["shape"], np.dtype(probe["dtype"]))))
                    other_body.add_results([zeros])
                    value = op.set_output(*((res, zeros) if branch == "then" else (zeros, res)))
                    op.validate_and_infer_types()
                    continue
                axis0 = ops.constant(np.array([0], np.int64))
                res = ops.result(ops.unsqueeze(value, axis0))
                body.add_results([res])
                value = op.get_concatenated_slices(res.output(0), 0, 1, 1, -1, 0)
                op.validate_and_infer_types()
            top = ops.result(value)
            top.set_friendly_name(f"__irlint_probe_{i}")
            added.append(top)
            placed.append(i)
        except Exception as e:  # a probe OpenVINO cannot place is left out, with the reason
            skipped[str(i)] = f"{type(e).__name__}: {e}"
    if added:
        model.add_results(added)
        model.validate_nodes_and_infer_types()
    return placed, skipped


def _run_instrumented(core: Any, model_path: str, weights: str, job: dict[str, Any], feed: list[Any],
                      names: list[str], arrays: dict[str, Any]) -> dict[str, Any]:
    """Read the model again, instrument it, run it: the probes' arrays go into `arrays` ("p<i>"); the
    report's entries: which probes were placed, why others were not, and how far the instrumented
    model's original outputs are from the original's."""
    import numpy as np
    import openvino as ov

    _stage("instrument")
    inst = core.read_model(model_path, weights) if weights else core.read_model(model_path)
    placed, skipped = _instrument(ov, inst, job["probes"])
    data: dict[str, Any] = {"placed": placed, "skipped": skipped}
    if not placed:
        return data
    _stage("compile instrumented")
    compiled = core.compile_model(inst, "CPU", _config(job["precision"]))
    _stage("infer instrumented")
    res = compiled(feed)
    same, apart = [], []
    for i in range(len(names)):
        a, b = arrays[f"r{i}"], np.asarray(res[i])
        same.append(bool(a.shape == b.shape and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")))
        numeric = a.shape == b.shape and a.dtype.kind in "fiub" and b.dtype.kind in "fiub" and a.size
        gap = np.abs(a.astype(np.float64) - b.astype(np.float64)) if numeric else None
        apart.append(float(np.nanmax(gap)) if gap is not None and not np.isnan(gap).all() else None)
    data.update(instrumented_same=same, instrumented_max_abs=apart)
    for j, i in enumerate(placed):
        arrays[f"p{i}"] = np.array(res[len(names) + j])
    return data


def main(argv: list[str]) -> int:
    model_path, weights, in_path, out_path, report_path, *rest = argv
    import numpy as np

    def report(data: dict[str, object]) -> None:
        with open(report_path, "w", encoding="utf-8") as f:
            json.dump(data, f)

    job: dict[str, Any] = {"precision": "f32", "probes": []}
    if rest:
        with open(rest[0], encoding="utf-8") as f:  # written by the parent: trusted
            job.update(json.load(f))
    try:
        _stage("import")
        import openvino as ov

        with np.load(in_path, allow_pickle=False) as z:  # written by the parent: trusted
            inputs = {k: z[k] for k in z.files}
        core = ov.Core()
        _stage("read")
        model = core.read_model(model_path, weights) if weights else core.read_model(model_path)
        _stage("compile")
        compiled = core.compile_model(model, "CPU", _config(job["precision"]))
        try:
            hint = compiled.get_property("INFERENCE_PRECISION_HINT")
            got_precision = hint.to_string() if hasattr(hint, "to_string") else str(hint)
        except Exception:  # a plugin that does not say
            got_precision = "unknown"
        _stage("infer")
        feed = [inputs[p.get_friendly_name()] for p in model.get_parameters()]
        res = compiled(feed)
        names = [r.get_friendly_name() for r in model.get_results()]
        arrays = {f"r{i}": np.array(res[i]) for i in range(len(names))}
        data: dict[str, Any] = {"names": names, "precision": got_precision}
        if job["probes"]:
            try:  # OpenVINO's failure on the instrumented copy leaves the plain comparison standing
                data.update(_run_instrumented(core, model_path, weights, job, feed, names, arrays))
            except Exception as e:
                data.update(placed=[], instrument_error=f"{type(e).__name__}: {e}")
        _stage("save")
        np.savez(out_path, **arrays)
        report(data)
    except BaseException as e:  # OpenVINO's failure is the parent's finding: keep all of it
        report({"error": type(e).__name__, "message": str(e)})
        return 3
    return 0


if __name__ == "__main__":
    from irlint.orphans import die_with_parent

    die_with_parent()  # killed with irlint, never left hung in OpenVINO
    sys.exit(main(sys.argv[1:]))
