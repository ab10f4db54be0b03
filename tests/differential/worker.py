"""The OpenVINO side of the differential test, run as a child process (`python worker.py`).

One request per stdin line (JSON): {"xml": path, "inputs": npz path or null, "out": npz path}.
One answer per stdout line (JSON): {"stage": ..., "why": ..., "names": [...]}, stage being `read`
(read_model refused), `compile` (compile_model on CPU refused), `infer` (inference failed) or `ok`
(the outputs, in Result order, are in the `out` npz as o0, o1, ...). A crash or a hang is seen by the
parent (`oracle.OpenVINO`), which restarts this process. Imports nothing of irlint but
`irlint.orphans`, which has this process killed with its parent.
"""

from __future__ import annotations

import json
import re
import sys


def _why(e: BaseException) -> str:
    text = str(e)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    # OpenVINO puts the check that failed first and the message last; the last useful line says most,
    # unless it only names the node ("Node Loop_3 of type Loop"): then the failed check says why.
    check = re.search(r"Check '(.+?)' failed", text)
    for line in reversed(lines):
        if not line.startswith(("[ ", "Traceback")) and "src/" not in line:
            if check and re.fullmatch(r"Node \S+ of type \w+", line):
                line = f"{line}: Check '{check.group(1)}' failed"
            return line[:300]
    return (lines[-1] if lines else type(e).__name__)[:300]


def serve() -> None:
    import numpy as np
    import openvino as ov

    core = ov.Core()
    out = sys.stdout
    sys.stdout = sys.stderr  # anything OpenVINO prints must not break the protocol
    for line in sys.stdin:
        req = json.loads(line)
        ans: dict = {}
        try:
            m = core.read_model(req["xml"])
        except Exception as e:
            ans = {"stage": "read", "why": _why(e)}
        else:
            try:
                c = core.compile_model(m, "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
            except Exception as e:
                ans = {"stage": "compile", "why": _why(e)}
            else:
                names = [r.get_friendly_name() for r in m.get_results()]
                ans = {"stage": "ok", "why": "", "names": names}
                if req.get("inputs"):
                    feed = dict(np.load(req["inputs"]))
                    try:
                        res = c.create_infer_request().infer(
                            [feed[p.get_friendly_name()] for p in m.get_parameters()])
                        np.savez(req["out"], **{f"o{i}": np.asarray(res[o]) for i, o in enumerate(c.outputs)})
                    except Exception as e:
                        ans = {"stage": "infer", "why": _why(e), "names": names}
        out.write(json.dumps(ans) + "\n")
        out.flush()


if __name__ == "__main__":
    from irlint.orphans import die_with_parent

    die_with_parent()  # a campaign or test run that is killed takes its OpenVINO worker with it
    serve()
