"""One differential check per seed (`check_seed`), shared by the pytest sample and scripts/differential.py.

build mode: the generated model as saved by OpenVINO; mutate mode: that model with one XML mutation
(the seed picks both the model and the mutation). Every result carries what reproduces it: the mode,
the seed and the generator's knobs.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from tests.differential.compare import DEPARTURES, Disagreement, compare_outputs, irlint_side, judge
from tests.differential.generator import Case, Knobs, build
from tests.differential.mutate import mutate
from tests.differential.oracle import OpenVINO


@dataclass
class Outcome:
    seed: int
    mode: str
    knobs: Knobs
    xml: Path | None  # the model checked (None: the generator failed or the mutation found nothing)
    notes: list[str] = field(default_factory=list)
    mutation: str = ""
    disagreement: Disagreement | None = None
    ov_stage: str = ""
    irlint_codes: list[str] = field(default_factory=list)
    skipped: str = ""
    warned: bool = False  # irlint said OpenVINO departs (a DEPARTURES warning or a DepartureWarning)
    warned_codes: list[str] = field(default_factory=list)  # the DEPARTURES codes, "departure" for the run's
    # ... yet OpenVINO ran the model and computed irlint's values: the statement was not needed
    false_warning: bool = False


def save(case: Case, path: Path) -> None:
    import openvino as ov

    ov.save_model(case.model, str(path), compress_to_fp16=False)


# Mutate mode starts from models both sides accept: no dynamic-rank inputs (the CPU plugin refuses
# them), no edge cases, no integer activations, so that what disagrees is due to the mutation.
MUTATE_KNOBS = Knobs(int_activations=False, dynamic_rank=False, edge_cases=False)


def default_knobs(mode: str) -> Knobs:
    return MUTATE_KNOBS if mode == "mutate" else Knobs(textbook=True) if mode == "textbook" else Knobs()


def check_seed(seed: int, mode: str, oracle: OpenVINO, workdir: Path, knobs: Knobs | None = None) -> Outcome:
    knobs = knobs or default_knobs(mode)
    try:
        case = build(seed, knobs)
    except Exception as e:  # the openvino API refused what the generator built: a generator limit
        return Outcome(seed, mode, knobs, None, skipped=f"generator: {str(e).strip().splitlines()[-1][:200]}")
    xml = workdir / f"{mode}-{seed}.xml"
    save(case, xml)
    out = Outcome(seed, mode, knobs, xml, case.notes)
    if mode == "mutate":
        m = mutate(xml.read_bytes(), seed)
        if m is None:
            out.skipped = "mutation: nothing to mutate"
            return out
        xml.write_bytes(m.xml)
        out.mutation = m.what
        out.notes = [*out.notes, f"mutation: {m.what}"]  # known.py can name a family by its mutation
    side = irlint_side(xml, case.inputs, want_run=True)
    ov = oracle.check(xml, case.inputs)
    out.ov_stage = ov.stage
    out.irlint_codes = side.codes
    out.disagreement = d = judge(side, ov, tolerate=mode == "mutate")
    out.warned = side.says_openvino_departs
    out.warned_codes = sorted({w.split(":", 1)[0] for w in side.warnings if w.split(":", 1)[0] in DEPARTURES}
                              | ({"departure"} if side.departures else set()))
    out.false_warning = (out.warned and ov.stage == "ok" and not side.rejects and side.outputs is not None
                         and compare_outputs(side, ov) is None)
    if mode == "mutate" and d is not None and d.kind == "verdict" and ov.stage == "ok":
        # irlint's error on a model OpenVINO runs: does OpenVINO ignore the mutated text (it computes what
        # the unmutated model computes) or misread it (it computes something else)?
        orig = workdir / f"{mode}-{seed}-unmutated.xml"
        save(case, orig)
        before = oracle.check(orig, case.inputs)
        same = before.stage == "ok" and len(before.outputs) == len(ov.outputs) and all(
            a.shape == b.shape and np.allclose(a, b, equal_nan=True) for a, b in zip(before.outputs, ov.outputs))
        d.family += ", computes the same as unmutated" if same else ", computes something else than unmutated"
        orig.unlink(missing_ok=True)
        orig.with_suffix(".bin").unlink(missing_ok=True)
    return out


def minimize(seed: int, mode: str, family: str, oracle: OpenVINO, workdir: Path, budget: int = 120) -> Outcome | None:
    """A smaller model of the same family: the same seed with smaller knobs, then `budget` other seeds
    (derived from `seed`) with the smallest knobs; the smallest XML found, or None."""
    base = default_knobs(mode)
    small = [replace(base, max_depth=d, max_steps=1, max_inputs=i) for d, i in ((1, 1), (1, 2), (2, 1), (2, 2))]
    tries = [(seed, k) for k in base.smaller()] + [(seed * 1000 + n, small[n % 4]) for n in range(budget)]
    best: Outcome | None = None
    work = workdir / "min"
    work.mkdir(exist_ok=True)
    for s, k in tries:
        o = check_seed(s, mode, oracle, work, k)
        if o.disagreement is None or o.disagreement.family != family:
            continue
        if best is None or o.xml.stat().st_size < best.xml.stat().st_size:
            o.xml = keep(o, workdir / "min-best" / str(s))
            best = o
    return best


def keep(outcome: Outcome, dest: Path) -> Path:
    """Copy the outcome's model (xml and bin) to `dest`, named for its mode and seed."""
    assert outcome.xml is not None
    dest.mkdir(parents=True, exist_ok=True)
    target = dest / outcome.xml.name
    shutil.copyfile(outcome.xml, target)
    if outcome.xml.with_suffix(".bin").exists():
        shutil.copyfile(outcome.xml.with_suffix(".bin"), target.with_suffix(".bin"))
    return target
