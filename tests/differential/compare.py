"""irlint against OpenVINO on one model: the verdicts, then (when both accept) the outputs.

The rule: irlint reports an error-severity finding iff OpenVINO's read_model or compile_model (CPU)
refuses the model; except for the findings in `TOLERATED` (by code) and `TOLERATED_WHEN` (by code and
what the message says), which are spec violations OpenVINO is known to read and compile anyway
(docs/rules-openvino.md measures each), and errors that follow from a defect a `DEPARTURES` warning
claims (OpenVINO reads that defect as the warning says, not as the spec), and except that an irlint
error on a model OpenVINO compiles but fails to run (or crashes on, or hangs on) agrees too. irlint's
warnings and infos never count against it. When both accept, both run the model on the same inputs and
must compute the same.

Where irlint follows the spec and OpenVINO departs from it, irlint says so: a warning of `DEPARTURES`
(each names what OpenVINO does) or a `DepartureWarning` from the interpreter. Such a statement turns
OpenVINO's refusal, its failure at inference or its other outputs into an agreement.
"""

from __future__ import annotations

import contextlib
import re
import signal
import threading
import traceback
from collections.abc import Iterator
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
    "BE504": "a back edge into a sliced Parameter: OpenVINO reads and runs it (14 of 14 mutated models)",
    "PM408": "two entries feeding one body Parameter: OpenVINO reads it and one entry wins when the shapes fit",
}

# Error codes tolerated only in the case their message states: (code, regular expression searched in the
# message, what OpenVINO does). Outside that case OpenVINO refuses the model as irlint does.
TOLERATED_WHEN = [
    ("IF801", r"in the order of their ids and runs the model",
     "an If output entry naming no port: OpenVINO gives the branch's output entries the If's outputs in the "
     "order of their ids"),
    ("PM401", r"in the order of their ids and runs the model",
     "a TensorIterator/Loop output entry naming no port: OpenVINO gives the output entries the layer's outputs "
     "in the order of their ids"),
    ("IF801", r"there is no input port -\d+",
     "a negative external_port_id on an If input entry is read; the branch Parameter gets another input"),
    ("IF801", r"port 0 is the condition",
     "an If input entry naming the condition is read when the types fit: the branch Parameter gets the condition"),
    ("LP704", r"the body condition must be boolean, got u8",
     "a Loop's u8 body condition: the CPU plugin runs it, reading a nonzero value as true"),
    ("LP704", r"dynamic shape, it compiles the Loop and refuses it at the first inference that runs the Loop",
     "a non-boolean body condition in a Loop with an input of dynamic shape: compiled; the CPU plugin refuses it "
     "only when an inference runs the Loop, which one in an If branch the inputs never take never does"),
    ("LP704", r"so OpenVINO removes the Loop before its CPU plugin checks it$",
     "a body condition of another type or length in a Loop no Result reads (its outputs read only by outputs of "
     "the layers around it nothing reads): OpenVINO removes the Loop before the CPU plugin checks it"),
    ("LP705", r"so OpenVINO removes it and its current_iteration index \d+ then names .*, which the CPU plugin takes$",
     "an unread current_iteration Parameter an input entry feeds is removed with that input; the kept index names "
     "the next body Parameter, whose integer type (i16 to u64) the CPU plugin takes"),
    ("LP705", r"so OpenVINO removes the Loop before its CPU plugin checks it$",
     "a mistyped current_iteration Parameter in a Loop no Result reads (its outputs read only by outputs of the "
     "layers around it nothing reads): OpenVINO removes the Loop before the CPU plugin checks it"),
    ("LP705", r"dynamic shape, it compiles the Loop and refuses it at the first inference that runs an iteration",
     "a mistyped current_iteration Parameter in a Loop with an input of dynamic shape: compiled; the CPU plugin "
     "refuses it only when an inference runs an iteration of the Loop"),
    ("SL605", r"declares [a-z][\w]* but .* delivers ",
     "a body Parameter's declared element type is not read: it takes the type the port map delivers"),
    ("SL605", r"declares \[[^\]]*\] but the slice is .*\(Loop\)\)$",
     "a Loop body Parameter's declared dims are not read: it takes the slice's"),
    ("SL603", r"OpenVINO removes the entry without checking it",
     "a slicing entry whose tensor nothing uses is removed before the CPU plugin checks it"),
    ("SL604", r"OpenVINO removes (the|that) entry without checking it",
     "a slicing entry whose tensor nothing uses (this one, or the sliced input that sets the iteration count) is "
     "removed before the CPU plugin counts iterations"),
    ("SL603", r"CPU plugin reads the range its own way",
     "a TensorIterator range the spec's arithmetic rejects and the CPU plugin's (end exclusive) accepts"),
    ("SL603", r"CPU plugin reads a Loop's input in parts of \|stride\|",
     "a Loop input's part_size below 1: the CPU plugin reads parts of |stride| and never reads part_size"),
    ("SL603", r"not a multiple of part_size",
     "a TensorIterator range that is no whole number of parts: read; the CPU plugin slices the parts that fit"),
    ("SL603", r"part_size is -?\d+; it must be at least 1",
     "a TensorIterator part_size below 1: read; the CPU plugin slices by |stride|"),
    ("SL603", r"resolves to -?\d+, outside \[",
     "a TensorIterator start or end outside the axis: read; the CPU plugin clamps the range its own way"),
    ("SL604", r"gives \d+ iterations|places \d+ parts",
     "slices or parts of another count than the layer's iterations: read; the CPU plugin counts its own way"),
    ("SL605", r"declares \[[^\]]*\] but the (slice|outer input) is ",
     "a body Parameter declaring other dims than it receives: read where OpenVINO can re-infer them"),
]

# Warnings that say OpenVINO (its reader or its CPU plugin) refuses the model or computes something
# else than the spec (code -> what they say); docs/rules-openvino.md measures each.
DEPARTURES = {
    "SL602": "a negative axis on a sliced input: the Loop spec allows it, OpenVINO's reader refuses it",
    "PM413": "a negative concatenation axis: the CPU plugin does not count it from the end (or crashes)",
    "SL607": "a sub-range the CPU plugin slices otherwise (or refuses)",
    "SL608": "a concatenated part whose length is not |stride|: the CPU plugin refuses it",
    "PM410": "a TensorIterator's unread sliced input: the CPU plugin runs the body once",
    "PM414": "an invariant input (scalar, or reshaped) on input 0 of an Add/Multiply of the iteration: the CPU plugin "
             "accumulates",
    "PM415": "a read output sharing its body Result with an unread one: OpenVINO gives it another Result (or none)",
    "PM412": "a TensorIterator body Parameter of dynamic type: the CPU plugin refuses it",
    "PM420": "a TensorIterator/Loop port of dynamic rank: the CPU plugin refuses it",
    "IF807": "an If output of dynamic rank: the CPU plugin refuses it",
    "IF810": "an If of branch-dependent shape in a body with a dynamic merged input: the CPU plugin reads stale memory",
    "IF811": "an If's value in a dynamic loop state, then a Select/Maximum/Minimum/ReLU/float Convert/Convert of u8, "
             "or another "
             "computed loop output and no Result reading the state: state lost",
    "IF813": "a u8/i8/bf16 If output of dynamic shape read by an op, a wider dynamic tensor kept later: the CPU "
             "plugin grows their shared memory before the reader runs, which reads memory the If did not write",
    "IF809": "an If input mapped to two branch Parameters: OpenVINO's reader keeps the first, the second gets zeros",
    "T213": "a Parameter of dynamic rank (a model input, a Loop state a back edge widens): the CPU plugin refuses it",
    "T214": "a model input of dynamic element type: the CPU plugin refuses it",
    "T215": "a Const of dynamic element type: the CPU plugin refuses it",
    "T216": "a Convert to f16 or an f16 op read back in another type: the CPU plugin computes f16 in f32, unrounded",
    "T218": "x * Sigmoid(x * b), b a computed [1] tensor: the CPU plugin fuses a Swish and refuses its beta",
    "BE507": "a back edge's value in a slice's or another state's memory (an Add/Multiply over a view of it, or a "
             "state passed on crosswise): the plugin writes that memory before it copies the back edge",
    "BE508": "a back edge passing on a sliced input (or a view of it): the CPU plugin passes this iteration's slice",
    "T219": "an integer activation read only by an eltwise op in a body (u8/i8) or by another activation: the CPU "
            "plugin computes the pair in f32",
    "LP708": "a trip count beyond the slices: the CPU plugin fails at inference",
    "LP709": "a Loop sub-range OpenVINO ignores",
    "LP710": "a last-value output after zero iterations: the CPU plugin returns stale memory",
    "LP711": "a Loop that never runs: the CPU plugin refuses it or crashes (SIGFPE) compiling it",
    "LP712": "an axis part_size does not divide: its rest is never read",
    "LP713": "a body condition of shape [?]: the CPU plugin fails at inference",
    "LP714": "an unread Loop output alone reading a body Parameter: the CPU plugin fails to compile",
    "LP715": "a constant invariant Loop input before current_iteration: pushed into the body, the CPU plugin fails",
    "LP716": "an op on a narrow integer type in a Loop nested in a constant-fed Loop: OpenVINO cannot fold it",
    "LP718": "a back edge passing on current_iteration (or a view of it): the CPU plugin passes this iteration's "
             "number",
    "LP719": "a body condition passed on from a state that starts true: the CPU plugin sizes concatenated outputs "
             "for the full trip count",
    "PM421": "a back edge from a Result of an unchanging Parameter: OpenVINO removes the Result, compile fails",
    "PM422": "outputs sharing a Result of an unchanging Parameter: OpenVINO wires one, the CPU plugin crashes",
    "PM423": "a state changing shape in a layer of static ports: the CPU plugin fails at inference",
    "LP717": "a constant-fed Loop with a computed body condition and a read concatenated output: the CPU plugin "
             "cannot give it static memory and fails to compile",
    "LP720": "a constant trip count far beyond the iterations run: the CPU plugin reserves its concatenated outputs "
             "for it (over 4 GiB) and may fail to allocate them",
    "LP721": "a nested Loop's trip count constant on the enclosing body's first shapes only: the CPU plugin keeps "
             "that count for the concatenated output and fails at inference when it grows",
}

# Departure warnings that say the CPU plugin kills the process on the model (a crash then agrees).
CRASHES = frozenset({"LP711", "PM413", "PM416", "PM422"})

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
    # errors that follow from a defect a DEPARTURES warning claims (Diagnostic.because / claims): OpenVINO
    # reads that defect its own way (the warning says how), so what the spec's reading derives from it is moot
    after_departure: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    departures: list[str] = field(default_factory=list)  # the interpreter's DepartureWarnings
    crash: str = ""  # a traceback: check, load or run raised something else than ExecutionError
    run_error: str = ""  # ExecutionError message
    outputs: dict[str, np.ndarray] | None = None

    @property
    def codes(self) -> list[str]:
        return sorted({e.split(":", 1)[0] for e in self.errors})

    @property
    def rejects(self) -> bool:
        return bool(self.errors)

    @property
    def says_openvino_departs(self) -> bool:
        """A warning or a run-time DepartureWarning says OpenVINO refuses or computes otherwise."""
        return bool(self.departures) or any(w.split(":", 1)[0] in DEPARTURES for w in self.warnings)


def tolerated(error: str) -> bool:
    """Whether an irlint error ("CODE: message") is one OpenVINO is measured to read past."""
    code, _, message = error.partition(": ")
    return code in TOLERATED or any(c == code and re.search(rx, message) for c, rx, _ in TOLERATED_WHEN)


def normalize(text: str) -> str:
    """A message with what varies between equal failures blanked: numbers, quoted names, shapes."""
    text = re.sub(r"/[\w./-]+", "<path>", text)
    text = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`", "<name>", text)
    text = re.sub(r"\[[\d?,.\s-]*\]", "[..]", text)
    text = re.sub(r"\d+", "N", text)
    return text[:160]


# irlint's check and run of one generated model take well under a second; past this, irlint hangs (a bug the
# campaign must report, not wait on).
IRLINT_DEADLINE = 120.0


class IrlintDeadline(Exception):
    """irlint's side of one model ran past IRLINT_DEADLINE seconds."""


@contextlib.contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Raise IrlintDeadline in the main thread after `seconds` (elsewhere: no deadline)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise IrlintDeadline(f"irlint took more than {seconds:g} s on the model")

    old = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def irlint_side(xml: Path, inputs: dict[str, np.ndarray] | None, want_run: bool) -> IrlintSide:
    """irlint's verdict on `xml` and, when `want_run` and it has no error, its outputs on `inputs`; a check
    or run past IRLINT_DEADLINE seconds is a crash (irlint hangs)."""
    with _deadline(IRLINT_DEADLINE):
        return _irlint_side(xml, inputs, want_run)


def _irlint_side(xml: Path, inputs: dict[str, np.ndarray] | None, want_run: bool) -> IrlintSide:
    import warnings

    import irlint
    from irlint.diagnostics import Severity
    from irlint.interp import DepartureWarning, ExecutionError

    side = IrlintSide()
    try:
        diags = irlint.check(xml)
    except Exception:
        side.crash = "check: " + traceback.format_exc(limit=4)
        return side
    departed = {k for d in diags if d.severity == Severity.WARNING and d.code in DEPARTURES for k in d.claims}
    for d in diags:
        line = f"{d.code}: {d.message}"
        if d.severity == Severity.ERROR:
            side.errors.append(line)
            if departed.intersection(d.because):
                side.after_departure.append(line)
        elif d.severity == Severity.WARNING:
            side.warnings.append(line)
    if want_run and inputs is not None and not side.rejects:
        try:
            with warnings.catch_warnings(record=True) as heard:
                warnings.simplefilter("always", DepartureWarning)
                side.outputs = irlint.run(irlint.load(xml), inputs)
            side.departures = [str(w.message) for w in heard if issubclass(w.category, DepartureWarning)]
        except ExecutionError as e:
            side.run_error = e.message
            if e.code == "RUN-CONCAT":  # its message says what the CPU plugin returns instead
                side.departures.append(e.message)
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


def judge(side: IrlintSide, ov: Verdict, tolerate: bool = True) -> Disagreement | None:
    """The first disagreement between irlint's and OpenVINO's view of one model, or None. `tolerate`
    is off for models the openvino API built unmutated: they contradict nothing, so any irlint error on
    one OpenVINO runs is a false error, tolerated codes included."""
    if side.crash:
        last = side.crash.strip().splitlines()[-1]
        return Disagreement("crash", f"irlint raises: {normalize(last)}", side.crash)
    if ov.stage == "crash" and not side.rejects and any(w.split(":", 1)[0] in CRASHES for w in side.warnings):
        return None  # irlint follows the spec and says that the CPU plugin crashes on the model
    if ov.stage in ("crash", "timeout") and not side.rejects:
        what = "crashes" if ov.stage == "crash" else "hangs"
        return Disagreement("verdict", f"OpenVINO {what}, irlint finds no error", ov.why)
    if ov.stage in ("crash", "timeout", "infer") and side.rejects:
        return None  # irlint's error and OpenVINO's failure (at read, compile or run) agree
    intolerable = [e for e in side.errors if not (tolerate and (tolerated(e) or e in side.after_departure))]
    if not ov.accepts and not side.rejects and side.says_openvino_departs:
        return None  # irlint follows the spec and says that OpenVINO refuses it
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
        if d is not None and side.says_openvino_departs:
            return None  # irlint follows the spec and says that OpenVINO computes otherwise
        warn = sorted({w.split(":", 1)[0] for w in side.warnings})
        if d is not None and warn:  # a warning often names the cause: it splits the family
            d.family += f" [irlint warns {'+'.join(warn)}]"
        return d
    return None
