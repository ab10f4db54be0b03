"""The child process of `irlint compare`: OpenVINO reads, compiles and runs the model here, not in irlint.

Why a separate process: OpenVINO's CPU plugin can die on a legal model (SIGFPE on a Loop with a
zero trip count, SIGSEGV on others), and a crash inside irlint's own process would end irlint with
nothing printed. Here a crash ends only this child; the parent reports it as a finding about
OpenVINO. Protocol: argv is MODEL WEIGHTS('' for the default) IN.npz OUT.npz REPORT.json; the
stage reached is printed on stdout ("stage: read" ...) so a crash can be placed; REPORT.json holds
the Result names in order, or the exception's type and whole message.

Usage: python -m irlint.cli._ov_child MODEL WEIGHTS IN.npz OUT.npz REPORT.json
"""

from __future__ import annotations

import json
import sys


def _stage(name: str) -> None:
    print(f"stage: {name}", flush=True)


def main(argv: list[str]) -> int:
    model_path, weights, in_path, out_path, report_path = argv
    import numpy as np

    def report(data: dict[str, object]) -> None:
        with open(report_path, "w", encoding="utf-8") as f:
            json.dump(data, f)

    try:
        _stage("import")
        import openvino as ov

        with np.load(in_path, allow_pickle=False) as z:  # written by the parent: trusted
            inputs = {k: z[k] for k in z.files}
        core = ov.Core()
        _stage("read")
        model = core.read_model(model_path, weights) if weights else core.read_model(model_path)
        _stage("compile")
        compiled = core.compile_model(model, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
        _stage("infer")
        res = compiled([inputs[p.get_friendly_name()] for p in model.get_parameters()])
        _stage("save")
        names = [r.get_friendly_name() for r in model.get_results()]
        np.savez(out_path, **{f"r{i}": np.asarray(res[i]) for i in range(len(names))})
        report({"names": names})
    except BaseException as e:  # OpenVINO's failure is the parent's finding: keep all of it
        report({"error": type(e).__name__, "message": str(e)})
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
