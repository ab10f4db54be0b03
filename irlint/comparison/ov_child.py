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

Usage: python -m irlint.comparison.ov_child MODEL WEIGHTS IN.npz OUT.npz REPORT.json [JOB.json]
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
    other one, zeros of the same rank and dtype (that branch has no such tensor; the parent compares
    only the iterations in which the probed branch ran): the probe's `shape` after one leading axis
    per TI/Loop between the If and the layer, of the iterations irlint saw it run (`counts`). Both
    branches then give one rank: the CPU plugin refuses an If whose output rank is dynamic."""
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
            counts = probe.get("counts") or [None] * len(levels)
            lead: list[int] = []  # the leading axes the loops below this level added
            for (op, body, branch), count in zip(reversed(levels), reversed(counts)):
                if branch is not None:
                    res = ops.result(value)
                    body.add_results([res])
                    other_body = op.get_else_body() if branch == "then" else op.get_then_body()
                    shape = [*lead, *probe["shape"]]
                    zeros = ops.result(ops.constant(np.zeros(shape, np.dtype(probe["dtype"]))))
                    other_body.add_results([zeros])
                    value = op.set_output(*((res, zeros) if branch == "then" else (zeros, res)))
                    op.validate_and_infer_types()
                    continue
                lead.insert(0, int(count) if count is not None else 1)
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
    report's entries: which probes were placed, why others were not (placing failed, or OpenVINO failed
    with them: `_viable` drops those and keeps the rest), and how far the instrumented model's
    original outputs are from the original's. When observing changes those outputs (the observer
    effect), only the probes that keep them bit-identical are kept (`_faithful`), and none when no
    set does and the change passes the comparison's tolerance (rtol, atol in the job)."""
    import numpy as np

    _stage("instrument")
    wanted = list(range(len(job["probes"])))
    skipped: dict[str, str] = {}
    try:
        placed, res = _attempt(core, model_path, weights, job, feed, wanted, skipped)
    except Exception as e:  # one probe OpenVINO cannot take sinks all: find it, run the others
        _stage("instrument: looking for the probes OpenVINO fails on")
        keep = _viable(core, model_path, weights, job, feed, wanted, skipped, f"{type(e).__name__}: {e}")
        _stage("instrument: without the failing probes")
        placed, res = _attempt(core, model_path, weights, job, feed, keep, skipped)
    data: dict[str, Any] = {"placed": placed, "skipped": skipped}
    if res is None:
        return data
    same, apart = _against(res, names, arrays)
    data.update(instrumented_same=same, instrumented_max_abs=apart)
    if not all(same) and job.get("keep_departure", True):
        # Observing changed what OpenVINO computes (its in-place memory): keep the probes that leave the
        # original outputs as they were, so that the departure is still there to be located.
        _stage("instrument: looking for probes that keep the outputs as they were")
        faithful = _faithful(core, model_path, weights, job, feed, placed, names, arrays)
        effect = {"probes": [i for i in placed if i not in faithful], "instrumented_same": same,
                  "instrumented_max_abs": apart}
        if not faithful and not _within_tolerance(res, names, arrays, job):
            # every probe changes the outputs beyond the tolerance: its values are another computation's
            data["observer_effect"] = effect
            data.update(placed=[], instrumented_same=None, instrumented_max_abs=None)
            return data
        if faithful and faithful != placed:
            res_f = _attempt(core, model_path, weights, job, feed, faithful, {})[1]
            same_f, apart_f = _against(res_f, names, arrays)
            if all(same_f):
                data["observer_effect"] = effect
                placed, res = faithful, res_f
                data.update(placed=placed, instrumented_same=same_f, instrumented_max_abs=apart_f)
    for j, i in enumerate(placed):
        arrays[f"p{i}"] = np.array(res[len(names) + j])
    return data


def _against(res: Any, names: list[str], arrays: dict[str, Any]) -> tuple[list[bool], list[float | None]]:
    """Per original output: whether the instrumented run gave it bit for bit, and by how much it is off."""
    import numpy as np

    same, apart = [], []
    for i in range(len(names)):
        a, b = arrays[f"r{i}"], np.asarray(res[i])
        same.append(bool(a.shape == b.shape and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")))
        numeric = a.shape == b.shape and a.dtype.kind in "fiub" and b.dtype.kind in "fiub" and a.size
        gap = np.abs(a.astype(np.float64) - b.astype(np.float64)) if numeric else None
        apart.append(float(np.nanmax(gap)) if gap is not None and not np.isnan(gap).all() else None)
    return same, apart


def _within_tolerance(res: Any, names: list[str], arrays: dict[str, Any], job: dict[str, Any]) -> bool:
    """Whether the instrumented model's original outputs are within the comparison's tolerance of the plain
    model's (the plugin compiling the body a little differently), rather than another computation."""
    import numpy as np

    for i in range(len(names)):
        a, b = arrays[f"r{i}"], np.asarray(res[i])
        if a.shape != b.shape or a.dtype.kind not in "fiub" or b.dtype.kind not in "fiub":
            return False
        if not np.allclose(b.astype(np.float64), a.astype(np.float64), rtol=float(job.get("rtol", 1e-4)),
                           atol=float(job.get("atol", 1e-5)), equal_nan=True):
            return False
    return True


def _faithful(core: Any, model_path: str, weights: str, job: dict[str, Any], feed: list[Any], which: list[int],
              names: list[str], arrays: dict[str, Any]) -> list[int]:
    """A subset of the probes `which` with which OpenVINO's original outputs stay bit-identical, by
    bisection: a group that keeps them is kept whole; a probe that changes them alone is left out."""
    try:
        placed, res = _attempt(core, model_path, weights, job, feed, which, {})
    except Exception:
        return []
    if res is not None and all(_against(res, names, arrays)[0]):
        return placed
    if len(which) == 1:
        return []
    half = len(which) // 2
    parts = [_faithful(core, model_path, weights, job, feed, g, names, arrays) for g in (which[:half], which[half:])]
    union = parts[0] + parts[1]
    if union and all(parts) and _faithful(core, model_path, weights, job, feed, union, names, arrays) != union:
        return max(parts, key=len)  # each half keeps the outputs, together they do not
    return union


def _attempt(core: Any, model_path: str, weights: str, job: dict[str, Any], feed: list[Any], which: list[int],
             skipped: dict[str, str]) -> tuple[list[int], Any]:
    """Instrument a fresh copy with the probes `which`, compile and run it: (the probes placed, the results,
    None when nothing was placed). Raises what OpenVINO raises."""
    import openvino as ov

    inst = core.read_model(model_path, weights) if weights else core.read_model(model_path)
    placed, why = _instrument(ov, inst, [job["probes"][i] for i in which])
    skipped.update({str(which[int(k)]): v for k, v in why.items()})
    if not placed:
        return [], None
    compiled = core.compile_model(inst, "CPU", _config(job["precision"]))
    return [which[k] for k in placed], compiled(feed)


def _viable(core: Any, model_path: str, weights: str, job: dict[str, Any], feed: list[Any], which: list[int],
            skipped: dict[str, str], error: str) -> list[int]:
    """The probes of `which` OpenVINO runs with, by bisection (a group that compiles and runs is kept
    whole); each probe it fails on alone is dropped into `skipped` with OpenVINO's error."""
    if len(which) == 1:
        skipped[str(which[0])] = f"OpenVINO failed with this probe, so it was dropped and the others kept: {error}"
        return []
    keep: list[int] = []
    half = len(which) // 2
    for group in (which[:half], which[half:]):
        try:
            _attempt(core, model_path, weights, job, feed, group, {})
            keep += group
        except Exception as e:
            keep += _viable(core, model_path, weights, job, feed, group, skipped, f"{type(e).__name__}: {e}")
    return keep


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
