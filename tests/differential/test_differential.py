"""irlint against OpenVINO on generated Loop/TI/If models: a fixed sample here, long campaigns in
scripts/differential.py (and the `slow` tests below).

A sample seed whose model disagrees today is marked xfail with the family's name (not strict): when
the family is fixed the test passes (XPASS), and the mark goes.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tests.differential.campaign import MUTATE_KNOBS, check_seed
from tests.differential.compare import TOLERATED, TOLERATED_WHEN, irlint_side, judge, tolerated
from tests.differential.generator import Knobs, build
from tests.differential.known import known
from tests.differential.oracle import OpenVINO

pytest.importorskip("openvino")
pytestmark = pytest.mark.openvino

# Sample seeds that disagree today, with their family (tests/differential/known.py names them).
BUILD_XFAIL: dict[int, str] = {}
MUTATE_XFAIL: dict[int, str] = {}


def _params(n: int, xfail: dict[int, str]) -> list:
    return [pytest.param(s, marks=pytest.mark.xfail(reason=xfail[s], strict=False)) if s in xfail else s
            for s in range(n)]


@pytest.fixture(scope="module")
def oracle():
    with OpenVINO(timeout=60) as o:
        yield o


def _agree(seed: int, mode: str, oracle: OpenVINO, tmp_path: Path) -> None:
    o = check_seed(seed, mode, oracle, tmp_path)
    assert not o.skipped, o.skipped
    d = o.disagreement
    assert d is None, f"{mode} seed {seed} ({known(o) or 'new family'}): {d.family}\n{d.detail}\n{o.mutation}"


@pytest.mark.parametrize("seed", _params(48, BUILD_XFAIL))
def test_generated_model_agrees(seed: int, oracle: OpenVINO, tmp_path: Path) -> None:
    _agree(seed, "build", oracle, tmp_path)


# Built seeds that disagreed in a campaign through a kernel's numerics, fixed in the kernel: each must agree.
AGREEING_BUILD: dict[int, str] = {
    7940527: "a Sigmoid near 1 truncated by a Convert to i64: the CPU plugin reaches 1 from x = 17.33",
}


@pytest.mark.parametrize("seed", sorted(AGREEING_BUILD))
def test_pinned_seed_agrees_through_the_kernel(seed: int, oracle: OpenVINO, tmp_path: Path) -> None:
    _agree(seed, "build", oracle, tmp_path)


# Built with `Knobs.more_types` (i8, i16, u16, u32, u64 drawn too): a small sample that must agree.
MORE_TYPES = Knobs(more_types=True)


@pytest.mark.parametrize("seed", range(16))
def test_generated_model_with_more_types_agrees(seed: int, oracle: OpenVINO, tmp_path: Path) -> None:
    o = check_seed(seed, "build", oracle, tmp_path, MORE_TYPES)
    assert not o.skipped, o.skipped
    d = o.disagreement
    assert d is None, f"more_types build seed {seed} ({known(o) or 'new family'}): {d.family}\n{d.detail}"


@pytest.mark.parametrize("seed", _params(32, MUTATE_XFAIL))
def test_mutated_model_agrees(seed: int, oracle: OpenVINO, tmp_path: Path) -> None:
    _agree(seed, "mutate", oracle, tmp_path)


# Built seeds of families that disagreed until irlint said what OpenVINO does; each must agree, and through
# that statement: a warning or error code, or "departure" for the interpreter's DepartureWarning.
PINNED_BUILD: dict[int, str] = {
    7723872: "LP715",  # a Loop of one iteration in an If branch, its first Parameter fed by a branch Const
    7715628: "PM414",  # two identical x + Reshape(s[k]) chains in a nested TI: merged by OpenVINO, x written over
    7715787: "PM414",  # x + a[k] + b[k] in one fused node in a TI body: x holds the previous Sigmoid
    7700738: "IF813",  # a u8 If output in a Loop body read by an Add, a Convert pair u8 -> i64 -> u8 later
    50155: "T216",  # Convert f32 -> f16 -> f32 in a Loop body: the CPU plugin does not round
    50504: "LP713",  # a body condition of shape [?]: the CPU plugin fails at inference
    50459: "LP714",  # an unread output of a Loop in an If: the CPU plugin's removal of it fails
    50465: "PM410",  # a TI's sliced Parameter read only for an unread output: the CPU plugin drops the slicing
    50851: "departure",  # a u8 Add wraps: the CPU plugin saturates
    71272: "departure",  # a Convert of f32 -1.02 to u8 in a TI body: the CPU plugin saturates (0), irlint wraps
    73202: "T216",  # an f16 ReduceSum in a TI body read back as f32: the CPU plugin computes it in f32
    73578: "T218",  # x * Sigmoid(x * b), b a [1] Parameter: the CPU plugin fuses a Swish and refuses its beta
    309858: "BE507",  # m * Minimum(Reshape(x[k]), 1) on a u8 back edge: the CPU plugin's m reads the next slice
    1509048: "BE507",  # the same through a Relu and Reshapes to [1] and back: the plugin fuses them, m is the slice
    2807777: "BE507",  # in a Loop in a TI: s' = Convert-pair(s) * Minimum(Reshape(a), 1) written over state a's memory
    4808465: "BE507",  # u8 s' = s * Minimum(Reshape(a), 1) in a TI, s read only by E: s receives a's next value
    70586: "T219",  # m + Sigmoid(Convert(i, u8)) in a Loop body: the CPU plugin adds in f32 and rounds once
    70949: "PM414",  # x + s[k], x a scalar invariant input: the CPU plugin adds in place, x accumulates
    51729: "LP711",  # a constant trip count 0 with a concatenated output: the CPU plugin dies of SIGFPE
    1302379: "LP716",  # a u8 Greater in a Loop nested in a constant-fed Loop: constant folding fails to evaluate it
    3806366: "LP717",  # a constant-fed Loop in an If branch, its body condition computed: no static memory for it
    300769: "LP715",  # a Loop in an If branch with a Const invariant input before current_iteration: compile fails
    305329: "T216",  # an f16 ReduceSum outside a TI read as f32 in its body: no boundary rounds on the CPU plugin
    1308606: "T216",  # an f16 Tanh fed back to itself in a Loop, read as f32: the CPU plugin computes it in f32
    1304285: "T216",  # f16 Sigmoids fed back in a Loop, a Tanh read as i64 in a TI: the plugin computes them in f32
    506069: "PM410",  # a TI's sliced Parameter read only by an If input no branch reads: the plugin runs it once
    703595: "departure",  # i64 products past the i32 range in a Loop: the CPU plugin computes i64 as i32
    902864: "LP714",  # a sliced Parameter read only for an unread output of a body If: the CPU plugin fails
    909866: "PM414",  # x through Converts i32 -> i64 -> i32 into x + s[k]: the plugin drops them and adds in place
    903813: "departure",  # i32 ReduceSums past 2**24 in nested Loops: the CPU plugin sums through f32
    508828: "T219",  # a u8 Sigmoid reaching an Add through a Reshape pair OpenVINO removes: the plugin fuses them
    1104614: "T219",  # i32 Sigmoid(Sigmoid(Sigmoid(x))) on a Loop's back edge: the plugin computes the chain in f32
    1103949: "PM414",  # x [?] reshaped into x + s[k], its Tanh run before: the plugin adds in x's memory, x accumulates
    1702852: "PM414",  # scalar x + s[k], x also read by a Sigmoid the plugin runs first: it adds in x's memory
    1907385: "PM416",  # a TensorIterator whose sliced input only an unread output reads, the rest constant: SIGSEGV
    1701042: "IF811",  # an If's sum added to a [?,2,2] Loop state, another computed output, ReLU reads the state
    2808722: "IF811",  # an If's value added to a u8 Loop state widened to [1,?,4], then Convert to i64 and back
    2206310: "PM414",  # scalar x + Reshape(a nested Loop's [1] output, []) in a Loop body: the plugin adds in place
    3202421: "G120",  # a TI in the taken branch of a constant-condition If in a TI body: folded, then refused
    4804109: "PM410",  # the same TI, its outputs read by nothing: removed before the check (no G120); runs once
    3805926: "PM414",  # scalar x + Reshape(p, []), p an invariant [?] read elsewhere: the plugin adds in place
    3800809: "departure",  # an f16 Loop state x * s overflows in a Loop in a TI: the CPU plugin computes it in f32
}


# The same for seeds built with `Knobs.more_types`.
PINNED_BUILD_MORE_TYPES: dict[int, str] = {
    5000126: "departure",  # Greater(u64 0, Convert(f32 -1.2, u64)) in a TI body: the CPU plugin computes u64 as i32
    5002045: "departure",  # a u64 2**64 - 2 compared and converted to f32 in nested bodies: the plugin sees -2
    5203924: "departure",  # i32 -> u16 -> i32 Converts in a TI in a Loop: the plugin keeps the i32 value unwrapped
}


def _pinned_build(seed: int, knobs: Knobs | None, oracle: OpenVINO, tmp_path: Path) -> set[str]:
    """What irlint said on a pinned built seed that agrees: its warning and error codes, and "departure"."""
    o = check_seed(seed, "build", oracle, tmp_path, knobs)
    assert not o.skipped, o.skipped
    d = o.disagreement
    assert d is None, f"build seed {seed} ({known(o) or 'new family'}): {d.family}\n{d.detail}"
    side = irlint_side(tmp_path / f"build-{seed}.xml", build(seed, knobs or Knobs()).inputs, want_run=True)
    return {w.split(":", 1)[0] for w in side.warnings} | set(side.codes) | ({"departure"} if side.departures else set())


@pytest.mark.parametrize("seed", sorted(PINNED_BUILD))
def test_pinned_seed_agrees_through_its_statement(seed: int, oracle: OpenVINO, tmp_path: Path) -> None:
    said = _pinned_build(seed, None, oracle, tmp_path)
    assert PINNED_BUILD[seed] in said, said


@pytest.mark.parametrize("seed", sorted(PINNED_BUILD_MORE_TYPES))
def test_pinned_more_types_seed_agrees_through_its_statement(seed: int, oracle: OpenVINO, tmp_path: Path) -> None:
    said = _pinned_build(seed, MORE_TYPES, oracle, tmp_path)
    assert PINNED_BUILD_MORE_TYPES[seed] in said, said


# Built with `Knobs.families` (tests/differential/families.py): a seed of each family, agreeing through the
# statement of the CPU plugin's departure (the seed's model departs: OpenVINO does not compute irlint's values).
FAMILIES = Knobs(families=True)
PINNED_FAMILIES: dict[int, str] = {
    7100270: "LP718",  # s <- current_iteration, 2 iterations: the plugin's state holds the number just written
    7100082: "PM421",  # s <- Result(p), p invariant: OpenVINO removes the Result, compile fails (_M_range_check)
    7100044: "PM422",  # three outputs of Result(p), p fed back to itself: one is wired, the plugin crashes
    7100042: "PM423",  # s <- Concat(s, s) read by nothing, static ports: inference fails (object is not initialized)
    7100461: "LP719",  # the body condition is state c, true at first, c <- i < 1: the output sized for 4 iterations
    7100029: "LP717",  # a u8 constant-fed Loop beside a model input only an unread output uses: compile fails
    7100040: "departure",  # concatenated parts [1,1], [2,1], [4,1] read: RUN-CONCAT, the plugin returns stale memory
    7100426: "LP720",  # trip count 2**63 - 1, stops at i = 2: the plugin asks for 51539607528 bytes and fails
    7100025: "LP721",  # an inner trip count len(g), g growing: the core keeps 1, inference fails (iter < iter_count)
}


@pytest.mark.parametrize("seed", sorted(PINNED_FAMILIES))
def test_pinned_family_seed_agrees_through_its_statement(seed: int, oracle: OpenVINO, tmp_path: Path) -> None:
    said = _pinned_build(seed, FAMILIES, oracle, tmp_path)
    assert PINNED_FAMILIES[seed] in said, said


def test_the_families_knob_draws_every_family() -> None:
    from tests.differential.families import FAMILIES as BUILDERS

    seen = {build(seed, FAMILIES).notes[0] for seed in range(60)}
    assert seen == {f"family {name}" for name in BUILDERS}


# Textbook recurrent bodies (tests/differential/textbook.py, `Knobs(textbook=True)`): a seed per family of the
# CPU plugin's in-place memory (irlint/openvino/memory.py), each agreeing through its warning.
TEXTBOOK = Knobs(textbook=True)
PINNED_TEXTBOOK: dict[int, str] = {
    157: "BE507",  # Loop, h = Negative(Squeeze(x[k]) + h): computed in the slice's memory
    20: "BE507",  # Loop, h = Abs(Unsqueeze(x[k]) + h)
    260: "BE507",  # the ONNX front end's Scan, tanh(x_t + h)
    150: "BE507",  # TensorIterator, sigmoid(h + Reshape(x[k]) * W): the weighted slice heads the node
    259: "BE507",  # a <- b, b <- clamp(x[k] + a): the state swap
    45: "BE508",  # a Result reads the slice's Unsqueeze, passed on to a state the body reads
}


@pytest.mark.parametrize("seed", sorted(PINNED_TEXTBOOK))
def test_pinned_textbook_seed_agrees_through_its_warning(seed: int, oracle: OpenVINO, tmp_path: Path) -> None:
    o = check_seed(seed, "textbook", oracle, tmp_path)
    assert o.disagreement is None, f"textbook seed {seed}: {o.disagreement.family}"
    assert PINNED_TEXTBOOK[seed] in o.warned_codes and not o.false_warning, (o.warned_codes, o.false_warning)


@pytest.mark.parametrize("seed", range(12))
def test_textbook_model_agrees(seed: int, oracle: OpenVINO, tmp_path: Path) -> None:
    o = check_seed(seed, "build", oracle, tmp_path, TEXTBOOK)
    assert not o.skipped, o.skipped
    assert o.disagreement is None, f"textbook seed {seed}: {o.disagreement.family}\n{o.disagreement.detail}"


# Mutated seeds of families that disagreed until irlint reported what OpenVINO refuses, or the comparator
# learned which of irlint's errors OpenVINO reads past (TOLERATED, TOLERATED_WHEN): each must agree, with
# the code that carries the verdict among irlint's findings.
PINNED_MUTATE: dict[int, str] = {
    7811783: "T213",  # a [?,?] input re-pointed at a Loop state declared [] whose back edge carries []: dynamic rank
    60292: "IF808",  # a negative axis on an If input entry: refused at read
    60376: "IF801",  # an If output entry naming no port: read, the entries mapped by the order of their ids
    61523: "IF801",  # an If input entry of port -1: read, computes something else
    60214: "SL605",  # a Loop body Parameter declaring i64 for i32: the type is re-inferred
    60082: "SL605",  # a Loop body Parameter declaring [2] for a [1] slice: the dims are re-inferred
    60528: "BE504",  # a back edge into a sliced Parameter: read and run
    61600: "PM408",  # two entries into one body Parameter: read, one wins
    60722: "PM413",  # a negative concatenation axis: the CPU plugin fails at inference
    60149: "SL603",  # a range error on an entry whose Parameter nothing reads: removed unchecked
    61430: "SL604",  # a part count error on an output nothing reads: removed unchecked
    60258: "SL603",  # start 2 on an axis of 2: the CPU plugin's arithmetic (end exclusive) accepts it
    60884: "SL607",  # start -1, end 0, stride 1 on one element: the CPU plugin refuses the direction
    80878: "SL603",  # a Loop input's part_size -1: the CPU plugin reads parts of |stride|
    81768: "IF809",  # two then-entries of one If input: OpenVINO feeds the second Parameter zeros
    90576: "SL604",  # the sliced input that sets the count is read by nothing: OpenVINO counts without it
    80424: "SL607",  # start -1, end -1 on an output of unknown length: the CPU plugin's range is empty
    60246: "SL603",  # a TensorIterator range of 4 elements in parts of 3: read, computes something else
    81735: "SL603",  # a TensorIterator output's part_size -2: read
    60017: "SL603",  # a TensorIterator output's end beyond the axis: read, computes the same
    60615: "SL604",  # a TensorIterator slice giving 1 iteration of 4: read, computes the same
    80215: "SL605",  # a TensorIterator body Parameter declaring [?] for a [?,2,3] input: read
    204704: "PM413",  # axis -2 on a Loop's f16 [1,1] output: compiling it aborts ("free(): invalid pointer")
    80296: "IF810",  # an If of shape [] or [2] in a TI body with a [1,?,?] merged input: stale memory
    407296: "SL607",  # a TI input entry without axis (invariant) and an output of |-1 - 0| // 2 = 0 parts: refused
    401610: "T210",  # a Reshape's target shape fed by a scalar: refused at read ("must have rank 1")
    405290: "IF809",  # a second then-entry of one If input: the Parameter OpenVINO leaves unfed fails a Reshape
    602442: "PM415",  # a TI output re-pointed at the Result an unread output gives: compile fails (_M_range_check)
    600447: "SL607",  # stride 3, part_size 1 on a Loop input of dynamic length feeding a nested Loop: inference fails
    1403213: "PM413",  # a TI output axis None -> -1: read as one part; the broadcast T210 follows from PM413
    606332: "SL603",  # stride 0 on a Loop input of dynamic length: the CPU plugin divides by it (SIGFPE)
    609427: "SL607",  # start -3, end 0, stride -1 on an axis of unknown length: the plugin reads from the last row
    601090: "LP704",  # a u8 body condition: the CPU plugin runs it, nonzero as true
    1009544: "LP704",  # an i64 body condition in a dynamic-shape Loop of an untaken If branch: never refused
    1001288: "LP705",  # an unread f32 current_iteration Parameter: removed, the index names the i32 one
    601189: "T213",  # a Loop back edge carrying [1] into a [] Parameter, also an output: widened, refused
    602950: "SL603",  # a Loop input's part_size 0 on [?]: the body Parameter is [0], its Reshape to [] refused at read
    1603380: "SL603",  # a Loop input's part_size -1 on [?]: the CPU plugin runs it in parts of |stride|
    2706529: "SL603",  # a TI input's end -1 -> 2 in parts of 2 on [?]: no length gives whole parts; the plugin runs it
    1602889: "BE504",  # a back edge into a part_size 0 slice of [?,?,?]: a Reshape of [0,?,?] to [6] is read
    609817: "SL607",  # start -2, end -1 on an axis of unknown length: the plugin counts one iteration fewer
    1200525: "SL607",  # a TI input entry without axis and a [?,?] output of |-1 - 0| // 3 = 0 parts: inference fails
    1003481: "IF811",  # an If's sum added to a [?,2,3] TI state, then Convert to f32 and back: the state is lost
    3106884: "IF813",  # a u8 If output (Ifs two deep) read by an Add, then Convert u8 -> f16 -> u8: stale memory
    2504964: "IF813",  # a u8 If output read by an Add, a Loop in the untaken branch, a Convert u8 -> f16: stale memory
    1208451: "PM414",  # x through Reshapes [] -> [1] -> [] into x + s[k]: the plugin adds in x's memory
    3102717: "SL603",  # stride -1 on a TI slice read only for an output nothing reads: removed unchecked
    3908215: "BE508",  # a back edge re-pointed at Reshape(the slice): the CPU plugin passes the current slice
    4708371: "LP704",  # an i64 body condition made [2] in a Loop whose outputs nothing reads: removed unchecked
}


@pytest.mark.parametrize("seed", sorted(PINNED_MUTATE))
def test_pinned_mutated_seed_agrees_through_its_finding(seed: int, oracle: OpenVINO, tmp_path: Path) -> None:
    _agree(seed, "mutate", oracle, tmp_path)
    side = irlint_side(tmp_path / f"mutate-{seed}.xml", None, want_run=False)
    said = {f.split(":", 1)[0] for f in side.errors + side.warnings}
    assert PINNED_MUTATE[seed] in said, said


# The same for mutated seeds built with `Knobs.more_types` (MUTATE_KNOBS with more_types).
MUTATE_MORE_TYPES = replace(MUTATE_KNOBS, more_types=True)
PINNED_MUTATE_MORE_TYPES: dict[int, str] = {
    5101327: "PM414",  # scalar x + Reshape(If(x > 0, ...), []) in a TI, x also read by the If: the plugin adds in place
    4104477: "LP705",  # an f32 current_iteration in a Loop only an unread TI output reads: the Loop is removed
    4104486: "LP705",  # a u32 Parameter both sliced and current_iteration: the plugin takes u32, the iteration wins
}


@pytest.mark.parametrize("seed", sorted(PINNED_MUTATE_MORE_TYPES))
def test_pinned_more_types_mutated_seed_agrees_through_its_finding(seed: int, oracle: OpenVINO,
                                                                   tmp_path: Path) -> None:
    o = check_seed(seed, "mutate", oracle, tmp_path, MUTATE_MORE_TYPES)
    assert not o.skipped, o.skipped
    d = o.disagreement
    assert d is None, f"more_types mutate seed {seed} ({known(o) or 'new family'}): {d.family}\n{d.detail}"
    side = irlint_side(tmp_path / f"mutate-{seed}.xml", None, want_run=False)
    said = {f.split(":", 1)[0] for f in side.errors + side.warnings}
    assert PINNED_MUTATE_MORE_TYPES[seed] in said, said


# Mutated seeds where the CPU plugin fails at inference on dims known only at run time: each must agree,
# through the run's DepartureWarning that quotes the plugin's failure.
PINNED_MUTATE_RUN: dict[int, str] = {
    200159: "There are at least two different iterations numbers",  # a TI output start=2
    200662: "There are at least two different iterations numbers",
    204624: "There are at least two different iterations numbers",
    204572: "incorrect output shape[axis] after iteration for concatenation",  # a Loop output stride -2
    208410: "incorrect output shape[axis] after iteration for concatenation",
    209009: 'Invalid "start","stride","end" values',  # a TI output end=5 on 2 elements
    404102: "reads `end` as exclusive",  # a TI input end=2 on a dynamic dim of 4: the plugin reads 2 slices, not 3
    # a Loop input's stride 1 -> 3 or 6 (part_size 1) on an axis of unknown length: the CPU plugin has
    # dim // |stride| parts and fails at the first iteration past them
    400328: "iter >= 0 && iter < iter_count",
    404553: "iter >= 0 && iter < iter_count",
    406463: "iter >= 0 && iter < iter_count",
    408050: "iter >= 0 && iter < iter_count",
}


@pytest.mark.parametrize("seed", sorted(PINNED_MUTATE_RUN))
def test_pinned_mutated_seed_agrees_through_its_departure(seed: int, oracle: OpenVINO, tmp_path: Path) -> None:
    _agree(seed, "mutate", oracle, tmp_path)
    side = irlint_side(tmp_path / f"mutate-{seed}.xml", build(seed, MUTATE_KNOBS).inputs, want_run=True)
    assert any(PINNED_MUTATE_RUN[seed] in d for d in side.departures), side.departures


# Mutated seeds that agree with nothing to say (no error, no departure): families that disagreed until
# irlint's interpreter computed what OpenVINO computes, or whose mutation OpenVINO reads and ignores.
PINNED_MUTATE_FIXED: dict[int, str] = {
    # an edge moved into an If's then branch gives [1] under a Result declaring []: the output is [1]
    2704821: "an If's output merges what its branches' Results receive",
    # stride="1" on an If's else output entry (beside axis="0"): read and ignored, as irlint does
    4709958: "slicing attributes on an If's port map entry are ignored",
}


@pytest.mark.parametrize("seed", sorted(PINNED_MUTATE_FIXED))
def test_pinned_mutated_seed_agrees_by_its_values(seed: int, oracle: OpenVINO, tmp_path: Path) -> None:
    _agree(seed, "mutate", oracle, tmp_path)
    side = irlint_side(tmp_path / f"mutate-{seed}.xml", build(seed, MUTATE_KNOBS).inputs, want_run=True)
    assert side.outputs is not None and not side.errors and not side.departures, (side.errors, side.departures)


def test_an_unread_concatenated_output_gives_no_departure(oracle: OpenVINO, tmp_path: Path) -> None:
    """A nested Loop's output concatenating 3-element parts with stride 1 that nothing reads: OpenVINO
    removes it before its CPU plugin looks at it, and runs the model; the run does not warn of it."""
    seed = 200213
    _agree(seed, "mutate", oracle, tmp_path)
    side = irlint_side(tmp_path / f"mutate-{seed}.xml", build(seed, MUTATE_KNOBS).inputs, want_run=True)
    assert not any("incorrect output shape[axis]" in d for d in side.departures), side.departures
    assert oracle.check(tmp_path / f"mutate-{seed}.xml", build(seed, MUTATE_KNOBS).inputs).stage == "ok"


def test_a_crash_agrees_only_with_a_warning_that_says_the_plugin_crashes() -> None:
    from tests.differential.compare import IrlintSide, judge
    from tests.differential.oracle import Verdict

    crash = Verdict("crash", "the process died (exit code -8)")
    lp711 = "LP711: layer 3 'Loop_1' (Loop) never runs ...; OpenVINO's CPU plugin crashes the process compiling it"
    assert judge(IrlintSide(warnings=[lp711]), crash) is None
    d = judge(IrlintSide(warnings=["SL607: a sub-range the CPU plugin slices otherwise"]), crash)
    assert d is not None and d.family == "OpenVINO crashes, irlint finds no error"
    assert judge(IrlintSide(warnings=[lp711]), Verdict("timeout", "no answer in 60 s")) is not None


def test_irlint_past_its_deadline_is_a_crash_not_a_hang(monkeypatch: pytest.MonkeyPatch) -> None:
    """A check that does not end (a rule looping on a malformed body once did) is reported, not waited on."""
    import time

    import irlint
    from tests.differential import compare
    from tests.differential.oracle import Verdict

    monkeypatch.setattr(compare, "IRLINT_DEADLINE", 0.5)
    monkeypatch.setattr(irlint, "check", lambda path: time.sleep(30))
    started = time.monotonic()
    side = irlint_side(Path(__file__).parents[2] / "examples" / "lstm_ti.xml", None, want_run=False)
    assert time.monotonic() - started < 10
    assert "irlint took more than 0.5 s on the model" in side.crash
    d = judge(side, Verdict("ok", ""))
    assert d is not None and d.kind == "crash"


def _unnumbered(path: Path) -> str:
    return re.sub(r"\b([A-Za-z]+)_\d+\b", r"\1_N", path.read_text())


def test_generator_is_reproducible(tmp_path: Path) -> None:
    import openvino as ov

    for seed in (3, 17):
        a, b = build(seed), build(seed)
        ov.save_model(a.model, str(tmp_path / "a.xml"), compress_to_fp16=False)
        ov.save_model(b.model, str(tmp_path / "b.xml"), compress_to_fp16=False)
        # OpenVINO numbers the default friendly names (Loop_42) process-wide: those differ
        assert _unnumbered(tmp_path / "a.xml") == _unnumbered(tmp_path / "b.xml")
        assert a.inputs.keys() == b.inputs.keys()
        for k in a.inputs:
            np.testing.assert_array_equal(a.inputs[k], b.inputs[k])
    assert build(3).notes != build(17).notes or build(3).inputs.keys() != build(17).inputs.keys()


def test_generator_covers_the_features() -> None:
    seen: set[str] = set()
    for seed in range(150):
        seen.update(build(seed).notes)
    for note in ("loop at depth 1", "ti at depth 1", "if at depth 1", "loop at depth 3", "reversed slice",
                 "reversed concat", "part_size > 1", "current_iteration set", "current_iteration unset",
                 "computed body condition (iteration)", "computed body condition (data)", "constant body condition",
                 "trip count parameter", "dynamic dims", "dynamic-rank parameter", "element type f16",
                 "element type boolean", "element type u8", "element type i64", "rank 0", "rank 3"):
        assert note in seen, note


def test_more_types_draw_the_other_integer_types_and_only_with_the_knob() -> None:
    wide = {"element type i8", "element type i16", "element type u16", "element type u32", "element type u64"}
    seen: set[str] = set()
    for seed in range(150):
        seen.update(build(seed, Knobs(more_types=True)).notes)
        assert not wide & set(build(seed).notes), seed
    assert wide <= seen, wide - seen


def test_worker_survives_a_crash_and_a_hang(oracle: OpenVINO, tmp_path: Path) -> None:
    from tests.robustness.ov_models import zero_trip_loop

    o = check_seed(1, "build", oracle, tmp_path)
    assert o.xml is not None
    dying = oracle._start()
    dying.kill()  # the worker dies between two models: the next model gets a new one
    dying.wait()
    assert oracle.check(o.xml, None).stage == "ok"
    # the CPU plugin dies of SIGFPE compiling this model: a crash, then a restarted worker
    assert oracle.check(zero_trip_loop(tmp_path / "zero.xml", merged=False), None).stage == "crash"
    assert oracle.check(o.xml, None).stage == "ok"
    quick = OpenVINO(timeout=0.001)  # no model is read in a millisecond
    try:
        assert quick.check(o.xml, None).stage == "timeout"  # asked twice, each worker killed
        quick.timeout = 60
        assert quick.check(o.xml, None).stage == "ok"
        assert quick.restarts == 2 and quick.unrepeated_hangs == 0
    finally:
        quick.close()


def test_a_death_a_fresh_worker_does_not_repeat_is_not_the_models(monkeypatch: pytest.MonkeyPatch,
                                                                     oracle: OpenVINO, tmp_path: Path) -> None:
    """A worker that dies of SIGSEGV on its first model only (its past, not the model): the oracle asks a
    fresh worker, whose verdict stands; a death that repeats stays a crash."""
    from tests.differential import oracle as oracle_module

    o = check_seed(1, "build", oracle, tmp_path)
    assert o.xml is not None
    marker = tmp_path / "died-once"
    flaky = tmp_path / "flaky_worker.py"
    flaky.write_text(f"""import os, runpy, signal, sys
if not os.path.exists({str(marker)!r}):
    sys.stdin.readline()
    open({str(marker)!r}, "w").close()
    os.kill(os.getpid(), signal.SIGSEGV)
runpy.run_path({str(oracle_module.WORKER)!r}, run_name="__main__")
""")
    monkeypatch.setattr(oracle_module, "WORKER", flaky)
    with OpenVINO() as flaky_oracle:
        assert flaky_oracle.check(o.xml, None).stage == "ok"
        assert flaky_oracle.restarts == 1 and flaky_oracle.unrepeated_crashes == 1
    dying = tmp_path / "dying_worker.py"
    dying.write_text("import os, signal, sys\nsys.stdin.readline()\nos.kill(os.getpid(), signal.SIGSEGV)\n")
    monkeypatch.setattr(oracle_module, "WORKER", dying)
    with OpenVINO() as dying_oracle:
        v = dying_oracle.check(o.xml, None)
        assert v.stage == "crash" and "-11" in v.why, v.why
        assert dying_oracle.restarts == 2 and dying_oracle.unrepeated_crashes == 0
    hanging = tmp_path / "dies_then_hangs.py"  # an abort may hang instead of dying: still the model's crash
    hanging.write_text(f"""import os, signal, sys, time
sys.stdin.readline()
if not os.path.exists({str(marker)!r} + "-h"):
    open({str(marker)!r} + "-h", "w").close()
    os.kill(os.getpid(), signal.SIGSEGV)
time.sleep(60)
""")
    monkeypatch.setattr(oracle_module, "WORKER", hanging)
    with OpenVINO(timeout=2) as hanging_oracle:
        v = hanging_oracle.check(o.xml, None)
        assert v.stage == "crash" and "-11" in v.why, v.why
        assert hanging_oracle.unrepeated_crashes == 0


def test_a_hang_a_fresh_worker_does_not_repeat_is_not_the_models(monkeypatch: pytest.MonkeyPatch,
                                                                    oracle: OpenVINO, tmp_path: Path) -> None:
    """A worker that hangs on its first model only (a worker that died before may hang instead): the
    oracle asks a fresh worker, whose verdict stands."""
    from tests.differential import oracle as oracle_module

    o = check_seed(1, "build", oracle, tmp_path)
    assert o.xml is not None
    marker = tmp_path / "hung-once"
    flaky = tmp_path / "flaky_worker.py"
    flaky.write_text(f"""import os, runpy, sys, time
if not os.path.exists({str(marker)!r}):
    sys.stdin.readline()
    open({str(marker)!r}, "w").close()
    time.sleep(60)
runpy.run_path({str(oracle_module.WORKER)!r}, run_name="__main__")
""")
    monkeypatch.setattr(oracle_module, "WORKER", flaky)
    with OpenVINO(timeout=5) as flaky_oracle:
        assert flaky_oracle.check(o.xml, None).stage == "ok"
        assert flaky_oracle.restarts == 1 and flaky_oracle.unrepeated_hangs == 1


def test_tolerated_codes_are_error_rules() -> None:
    import irlint
    from irlint.diagnostics import Severity

    errors = {r.code for r in irlint.list_rules() if r.severity == Severity.ERROR}
    codes = set(TOLERATED) | {c for c, _, _ in TOLERATED_WHEN}
    assert codes <= errors, codes - errors


def test_conditional_tolerance_reads_the_message() -> None:
    # an If output entry naming no port is read past; an input entry naming no port is refused at read
    assert tolerated("IF801: then_port_map <output external_port_id=9 internal_layer_id=4> of layer 3 'If_1' (If): "
                     "there is no output port 9; its data output ports are [4]; OpenVINO gives the then branch's "
                     "output entries the If's outputs in the order of their ids and runs the model: this entry "
                     "gives output port 4 (so does irlint's interpreter)")
    assert not tolerated("IF801: then_port_map <input external_port_id=9 internal_layer_id=1> of layer 3 'If_1' (If): "
                         "there is no input port 9; its data input ports are [1, 2]")
    # a Loop body Parameter's dims are re-inferred; a TensorIterator's where OpenVINO can re-infer them
    # (where it cannot it refuses at read, and the error agrees anyway)
    assert tolerated("SL605: body layer 0 'P' (Parameter) declares [2] but the slice is [1] "
                     "(port_map <input external_port_id=2 axis=0 start=-1> of layer 3 'Loop_4' (Loop))")
    assert tolerated("SL605: body layer 3 'P' (Parameter) declares [?] but the outer input is [?,2,3] "
                     "(port_map <input external_port_id=3 > of layer 4 'ti' (TensorIterator))")
    assert not tolerated("SL605: body layer 0 'P' (Parameter) has no port")
    # TensorIterator ranges: only the contradictions OpenVINO was measured to read
    assert tolerated("SL603: port_map <output ...> of layer 3 'ti' (TensorIterator): start=0 end=-3 on a dimension "
                     "of 2: end resolves to -1, outside [0, 1] (the output holds 2 parts of 1)")
    assert not tolerated("SL603: port_map <input ...> of layer 3 'ti' (TensorIterator): stride is 0")
    assert tolerated("BE504: anything") and not tolerated("SL603: anything")
    # an API-built model contradicts nothing: no error is tolerated on it
    from tests.differential.compare import IrlintSide, judge
    from tests.differential.oracle import Verdict

    ok = Verdict("ok", "")
    assert judge(IrlintSide(errors=["BE504: anything"]), ok) is None
    assert judge(IrlintSide(errors=["BE504: anything"]), ok, tolerate=False) is not None


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["build", "mutate"])
def test_campaign_finds_only_known_families(mode: str, oracle: OpenVINO, tmp_path: Path) -> None:
    new = []
    for seed in range(1000, 1300):
        o = check_seed(seed, mode, oracle, tmp_path)
        if o.disagreement is not None and known(o) is None:
            new.append(f"seed {seed}: {o.disagreement.family} {o.mutation}")
    assert not new, "\n".join(new)


def test_campaign_script_writes_a_report(tmp_path: Path) -> None:
    import json

    from tests.scripts import script

    report = tmp_path / "r.json"
    assert script("differential").main(["--count", "5", "--seed", "0", "--mode", "build", "--report", str(report),
                                        "--keep", str(tmp_path / "keep")]) == 0
    r = json.loads(report.read_text())
    assert r["counts"]["checked"] + r["counts"]["skipped"] == 5 and r["models_per_second"] > 0
    # the disagreeing seeds are among the sample's known ones; each family keeps its example
    seeds = {s for f in r["families"] for s in f["seeds"]}
    assert seeds <= set(BUILD_XFAIL) and r["counts"]["agree"] == r["counts"]["checked"] - len(seeds)
    for f in r["families"]:
        assert Path(f["example"]["xml"]).is_file()
    assert report.with_suffix(".md").read_text().startswith("# Differential campaign: build")


def _if_mapped_twice(tmp_path: Path) -> Path:
    """z = ReduceSum(a) + Reshape(b, []) in both branches of an If, a <- x [2] and b <- y [1]; the then
    port map is edited to feed b from x too (a second entry of input port 1)."""
    import openvino as ov
    import openvino.opset8 as ops8
    import openvino.opset13 as ops

    def branch():
        a, b = ops.parameter([2], np.float32), ops.parameter([1], np.float32)
        total = ops.reduce_sum(a, ops.constant(np.array([0], np.int64)), False)
        r = ops.result(ops.add(total, ops.reshape(b, ops.constant(np.zeros(0, np.int64)), False)))
        return ov.Model([r], [a, b]), a, b, r

    x, y = ops.parameter([2], np.float32, name="x"), ops.parameter([1], np.float32, name="y")
    c = ops.parameter([], np.bool_, name="c")
    (tb, ta_, tb_, tr), (eb, ea_, eb_, er) = branch(), branch()
    iff = ops8.if_op(c)
    iff.set_then_body(tb)
    iff.set_else_body(eb)
    iff.set_input(x.output(0), ta_, ea_)
    iff.set_input(y.output(0), tb_, eb_)
    path = tmp_path / "if_mapped_twice.xml"
    ov.save_model(ov.Model([ops.result(iff.set_output(tr, er), name="z")], [x, y, c]), str(path),
                  compress_to_fp16=False)
    text = path.read_text()
    at = text.index("<then_port_map>")
    path.write_text(text[:at] + text[at:].replace('<input external_port_id="2" internal_layer_id="1" />',
                                                  '<input external_port_id="1" internal_layer_id="1" />', 1))
    return path


@pytest.mark.parametrize("cond,want", [(True, 3.0), (False, 8.0)])
def test_an_error_after_a_second_if_entry_follows_from_it(cond: bool, want: float, oracle: OpenVINO,
                                                           tmp_path: Path) -> None:
    """IF809: OpenVINO's reader keeps the first entry and leaves the second Parameter unfed (its declared
    [1], zeros on the CPU plugin), so the Reshape of it to [] that fails under the file's reading ([2])
    is read and run. irlint's T210 there names the IF809 entry as its cause, and a mutated file agrees."""
    path = _if_mapped_twice(tmp_path)
    inputs = {"x": np.array([1, 2], np.float32), "y": np.array([5], np.float32), "c": np.array(cond)}
    verdict = oracle.check(path, inputs)
    assert verdict.stage == "ok", verdict.why
    np.testing.assert_array_equal(verdict.outputs[0], want)  # then: 1 + 2 + 0 (zeros), else: 1 + 2 + 5
    side = irlint_side(path, inputs, want_run=True)
    assert [e.split(":", 1)[0] for e in side.errors] == ["T210"] and side.after_departure == side.errors
    assert any(w.startswith("IF809:") for w in side.warnings)
    assert judge(side, verdict) is None
    assert judge(side, verdict, tolerate=False) is not None  # a built model contradicts nothing: no tolerance


@pytest.mark.parametrize("cond", [True, False])
def test_slicing_attributes_on_if_entries_are_ignored(cond: bool, oracle: OpenVINO) -> None:
    """axis/start/end/stride/part_size on an If's input and output entries, any values (0, negative): an
    If neither slices nor concatenates, so OpenVINO reads, compiles and runs the file as if they were
    absent (in a child process: a campaign once saw its worker die on such a file), and irlint agrees."""
    fixtures = Path(__file__).parents[1] / "rules" / "fixtures" / "IF808"
    rng = np.random.default_rng(4)
    inputs = {"cond": np.array(cond), "x": rng.standard_normal((2, 3)).astype(np.float32),
              "y": rng.standard_normal((2, 3)).astype(np.float32)}
    plain = oracle.check(fixtures / "pass.xml", inputs)
    sliced = oracle.check(fixtures / "pass-ignored-slicing.xml", inputs)
    assert plain.stage == "ok" and sliced.stage == "ok", (plain.why, sliced.why)
    np.testing.assert_array_equal(sliced.outputs[0], plain.outputs[0])
    side = irlint_side(fixtures / "pass-ignored-slicing.xml", inputs, want_run=True)
    assert not side.errors and not side.warnings and judge(side, sliced) is None
