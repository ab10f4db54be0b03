"""irlint against OpenVINO on one model: the verdicts, then (when both accept) the outputs.

The rule: irlint reports an error-severity finding iff OpenVINO's read_model or compile_model (CPU)
refuses the model; except for the findings in `TOLERATED`, which are spec violations OpenVINO is
known to read and compile anyway (docs/rules-openvino.md measures each), and except that an irlint
error on a model OpenVINO compiles but fails to run (or crashes on, or hangs on) agrees too. irlint's
warnings and infos never count. When both accept, both run the model on the same inputs and must
compute the same.
"""

from __future__ import annotations

import re
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from tests.differential.oracle import Verdict

# Error codes that may be reported on a model OpenVINO reads and compiles (code -> what OpenVINO does).
TOLERATED = {
    "IR002": "a DOCTYPE is ignored by OpenVINO's reader",
    "IR005": "an unknown port precision is ignored (the type is re-inferred)",
    "G101": "a duplicate layer id: OpenVINO reads the model and loses a layer",
    "PM401": "a port_map entry naming no port of the op: OpenVINO reads and runs it",
    "PM406": "an invalid special port entry: OpenVINO reads and runs it",
    "BE502": "a back edge to a non-Parameter: OpenVINO reads and runs it, computing something else",
    "BE503": "two back edges into one Parameter: OpenVINO reads and runs it",
    "BE505": "a back edge changing the type: compiled, fails at inference",
    "SL606": "the outer port's dims contradict the slicing: OpenVINO ignores the declared dims",
    "LP702": "a u8 execution condition: the CPU plugin runs it",
    "LP706": "Loop slicing attributes other than 0/1/1/-1: OpenVINO's reader skips the check the API makes",
    "IF804": "declared If output type differs from the branches': OpenVINO re-infers it",
    "IF805": "an If condition that is not a boolean scalar: the CPU plugin branches on its first element",
    "IF806": "a branch Parameter without an input: OpenVINO feeds it zeros",
    "T201": "declared port precisions are ignored and re-inferred by OpenVINO",
    "T202": "declared port dims are ignored and re-inferred by OpenVINO",
    "T203": "a Parameter's port disagrees with its <data>: OpenVINO builds it from <data>",
    "T204": "a Const's port disagrees with its <data>: OpenVINO builds it from <data>",
    "T211": "declared output dims/precision are ignored and re-inferred by OpenVINO",
    "ST902": "a ReadValue without an Assign: compiled, fails at the first inference",
    "ST903": "duplicate variable ops: compiled, fail at the first inference",
}

TOLERANCE = {"f32": (1e-4, 1e-4), "f16": (2e-2, 2e-2), "f64": (1e-7, 1e-7)}


@dataclass
class Disagreement:
    kind: str  # verdict / output / crash
    family: str  # what groups equal disagreements: messages with numbers and names blanked
    detail: str  # the full story of this model

    def as_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "family": self.family, "detail": self.detail}


@dataclass
class IrlintSide:
    errors: list[str] = field(default_factory=list)  # "CODE: message" of error-severity findings
    warnings: list[str] = field(default_factory=list)
    crash: str = ""  # a traceback: check, load or run raised something else than ExecutionError
    run_error: str = ""  # ExecutionError message
    outputs: dict[str, np.ndarray] | None = None

    @property
    def codes(self) -> list[str]:
        return sorted({e.split(":", 1)[0] for e in self.errors})

    @property
    def rejects(self) -> bool:
        return bool(self.errors)


def normalize(text: str) -> str:
    """A message with what varies between equal failures blanked: numbers, quoted names, shapes."""
    text = re.sub(r"/[\w./-]+", "<path>", text)
    text = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "<name>", text)
    text = re.sub(r"\[[\d?,.\s-]*\]", "[..]", text)
    text = re.sub(r"\d+", "N", text)
    return text[:160]


def irlint_side(xml: Path, inputs: dict[str, np.ndarray] | None, want_run: bool) -> IrlintSide:
    """irlint's verdict on `xml` and, when `want_run` and it has no error, its outputs on `inputs`."""
    import irlint
    from irlint.diagnostics import Severity
    from irlint.interp import ExecutionError

    side = IrlintSide()
    try:
        diags = irlint.check(xml)
    except Exception:
        side.crash = "check: " + traceback.format_exc(limit=4)
        return side
    for d in diags:
        line = f"{d.code}: {d.message}"
        if d.severity == Severity.ERROR:
            side.errors.append(line)
        elif d.severity == Severity.WARNING:
            side.warnings.append(line)
    if want_run and inputs is not None and not side.rejects:
        try:
            side.outputs = irlint.run(irlint.load(xml), inputs)
        except ExecutionError as e:
            side.run_error = e.message
        except Exception:
            side.crash = "run: " + traceback.format_exc(limit=6)
    return side


def compare_outputs(side: IrlintSide, ov: Verdict) -> Disagreement | None:
    if side.run_error and ov.stage == "infer":
        return None  # both refuse to run it
    if side.run_error:
        return Disagreement("output", f"irlint run fails, OpenVINO runs: {normalize(side.run_error)}",
                            f"irlint run: {side.run_error}")
    if ov.stage == "infer":
        return Disagreement("output", f"OpenVINO inference fails, irlint runs: {normalize(ov.why)}",
                            f"OpenVINO infer: {ov.why}")
    assert side.outputs is not None
    for name, want in zip(ov.names, ov.outputs):
        got = side.outputs.get(name)
        if got is None:
            return Disagreement("output", "an output missing in irlint", f"{name} not in {sorted(side.outputs)}")
        got = np.asarray(got)
        if got.shape != want.shape:
            return Disagreement("output", "output shapes differ", f"{name}: irlint {got.shape}, OpenVINO {want.shape}")
        key = {np.dtype(np.float32): "f32", np.dtype(np.float16): "f16", np.dtype(np.float64): "f64"}.get(want.dtype)
        if key is None:
            if got.dtype.kind != want.dtype.kind and not (got.dtype.kind in "iu" and want.dtype.kind in "iu"):
                return Disagreement("output", "output element types differ",
                                    f"{name}: irlint {got.dtype}, OpenVINO {want.dtype}")
            if not np.array_equal(got.astype(want.dtype), want):
                return Disagreement("output", f"integer/boolean values differ ({want.dtype})",
                                    f"{name}: irlint {got.ravel()[:8]}, OpenVINO {want.ravel()[:8]}")
            continue
        rtol, atol = TOLERANCE[key]
        g = got.astype(np.float64)
        w = want.astype(np.float64)
        if not np.allclose(g, w, rtol=rtol, atol=atol, equal_nan=True):
            err = np.nanmax(np.abs(g - w)) if g.size else 0.0
            return Disagreement("output", f"float values differ ({key})",
                                f"{name}: max |diff| {err:.3g}; irlint {g.ravel()[:6]}, OpenVINO {w.ravel()[:6]}")
    return None


def judge(side: IrlintSide, ov: Verdict) -> Disagreement | None:
    """The first disagreement between irlint's and OpenVINO's view of one model, or None."""
    if side.crash:
        last = side.crash.strip().splitlines()[-1]
        return Disagreement("crash", f"irlint raises: {normalize(last)}", side.crash)
    if ov.stage in ("crash", "timeout") and not side.rejects:
        what = "crashes" if ov.stage == "crash" else "hangs"
        return Disagreement("verdict", f"OpenVINO {what}, irlint finds no error", ov.why)
    if ov.stage in ("crash", "timeout", "infer") and side.rejects:
        return None  # irlint's error and OpenVINO's failure (at read, compile or run) agree
    intolerable = [e for e in side.errors if e.split(":", 1)[0] not in TOLERATED]
    if not ov.accepts and not side.rejects:
        warn = sorted({w.split(":", 1)[0] for w in side.warnings})
        return Disagreement("verdict", f"OpenVINO refuses at {ov.stage}, irlint finds no error: {normalize(ov.why)}",
                            f"OpenVINO: {ov.why}; irlint warnings: {warn}")
    if ov.accepts and intolerable:
        codes = sorted({e.split(":", 1)[0] for e in intolerable})
        return Disagreement("verdict", f"irlint error {'+'.join(codes)}, OpenVINO accepts",
                            "; ".join(intolerable)[:600])
    if ov.accepts and not side.rejects and (side.outputs is not None or side.run_error):
        d = compare_outputs(side, ov)
        warn = sorted({w.split(":", 1)[0] for w in side.warnings})
        if d is not None and warn:  # a warning often names the cause: it splits the family
            d.family += f" [irlint warns {'+'.join(warn)}]"
        return d
    return None
