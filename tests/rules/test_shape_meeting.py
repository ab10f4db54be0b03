"""Where two shapes meet (irlint/shapes/merge.py) and the severities that follow OpenVINO's verdicts.

The fixtures check codes and lines; this checks what they do not: the merge rule itself, which
findings are warnings (a branch that never runs, an unfed Parameter nothing reads, the CPU plugin's
limits), and how a dims-less port fed from a declared dynamic rank is read.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import irlint
from irlint.diagnostics import Severity
from irlint.engine.context import Context
from irlint.shapes.dimless import declared_dynamic_ranks
from irlint.shapes.merge import fits, widen
from irlint.tensor import TensorInfo
from irlint.types import DYNAMIC, Dim

FIXTURES = Path(__file__).parent / "fixtures"


def shape(*dims: int | None) -> tuple[Dim, ...]:
    return tuple(DYNAMIC if d is None else Dim.of(d) for d in dims)


@pytest.mark.parametrize(("a", "b", "want"), [
    ((), (1,), True),
    ((1,), (), True),
    ((), (None,), True),  # a dynamic 1-D shape may hold one element
    ((), (3,), False),
    ((1,), (1, 1), False),
    ((2, 3), (2, None), True),
    ((2, 3), (2, 4), False),
    ((), (), True),
])
def test_fits(a, b, want) -> None:
    assert fits(shape(*a), shape(*b)) is want
    assert fits(shape(*a), None) and fits(None, shape(*b))


def test_widen_gives_dynamic_dims_and_ranks() -> None:
    assert widen(TensorInfo(None, shape(2, 3)), TensorInfo(None, shape(2, 4))).shape == (Dim.of(2), Dim(3, 4))
    assert widen(TensorInfo(None, shape(1)), TensorInfo(None, shape())).shape is None


def expected_lines(code: str) -> set[tuple[str, int]]:
    from tests.rules.test_fixtures import expected

    return expected(FIXTURES / code / "fail-dead-branch.xml")


def findings(rel: str) -> dict[tuple[str, int], Severity]:
    return {(d.code, d.loc.line): d.severity for d in irlint.check(FIXTURES / rel) if d.severity is not Severity.INFO}


def test_a_branch_that_never_runs_is_checked_with_its_own_declarations() -> None:
    """OpenVINO checks the branch a constant condition never takes only as it reads it, with what its
    Parameters declare: a dynamic rank there takes any Add (read, compiled, run), a [2,3] does not
    (refused at read); the If's input [2,3] is never given to that branch."""
    assert findings("T210/pass-dead-branch.xml") == {}
    assert set(findings("T210/fail-dead-branch.xml").items()) == {(("T210", line), Severity.ERROR)
                                                                   for _code, line in expected_lines("T210")}


@pytest.mark.parametrize(("rel", "code", "severity"), [
    ("PM407/fail-read.xml", "PM407", Severity.ERROR),
    ("PM407/fail-unused.xml", "PM407", Severity.WARNING),
    ("IF806/fail-unused.xml", "IF806", Severity.WARNING),
    ("IF806/fail.xml", "IF806", Severity.ERROR),
    ("T213/fail.xml", "T213", Severity.WARNING),
    ("T214/fail.xml", "T214", Severity.WARNING),
    ("PM420/fail.xml", "PM420", Severity.WARNING),
    ("IF807/fail.xml", "IF807", Severity.WARNING),
])
def test_severity_follows_what_openvino_does(rel: str, code: str, severity: Severity) -> None:
    got = {s for (c, _line), s in findings(rel).items() if c == code}
    assert got == {severity}


def test_an_unfed_parameter_that_is_read_is_said_to_hold_zeros() -> None:
    msg = next(d.message for d in irlint.check(FIXTURES / "PM407/fail-read.xml") if d.code == "PM407")
    assert "gives the Parameter zeros" in msg


def test_dimless_ports_after_a_declared_dynamic_rank_are_dynamic_ranks() -> None:
    """In the else branch that never runs, the Parameter says shape="..." and the ops after it have no
    dims, although the If now receives [32,40,10]: they are dynamic ranks, not scalars."""
    model = irlint.load(FIXTURES / "T211/pass-stale-branch.xml")
    ctx = Context(model)
    else_body = next(g for g in model.graphs() if g.kind == "else_body")
    dynamic = declared_dynamic_ranks(else_body, ctx.index(else_body))
    types = {la.type for la in else_body.layers if la.id in dynamic}
    assert types == {"Parameter", "Sigmoid", "Multiply", "Result"}
    assert ctx.shapes.not_running(f"{else_body.owner}/else_body/1") == f"{else_body.owner}/else_body"
    assert ctx.shapes.not_running(f"{else_body.owner}/then_body/1") is None
