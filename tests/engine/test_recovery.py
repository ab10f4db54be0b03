"""Folding consequences into their root (irlint/engine/recovery.py)."""

from __future__ import annotations

from irlint.diagnostics import Diagnostic, Location, Severity
from irlint.engine.recovery import fold_consequences


def diag(code: str, line: int, *, claims: tuple[str, ...] = (), because: tuple[str, ...] = (),
         severity: Severity = Severity.ERROR) -> Diagnostic:
    return Diagnostic(code, severity, f"{code} message", Location("m.xml", line), claims=claims, because=because)


def test_a_consequence_becomes_a_note_of_its_root_at_its_location() -> None:
    root = diag("PM401", 10, claims=("a",))
    out = fold_consequences([root, diag("PM403", 20, because=("a",))])
    assert [d.code for d in out] == ["PM401"]
    (note,) = out[0].related
    assert note.loc.line == 20 and note.note == "this also gives PM403: PM403 message"


def test_a_chain_folds_into_its_first_link() -> None:
    out = fold_consequences([diag("BE504", 5, because=("unfed",)),
                             diag("PM407", 30, claims=("unfed",), because=("unmapped",)),
                             diag("PM403", 20, claims=("unmapped",), because=("entries",)),
                             diag("PM401", 10, claims=("entries",))])
    assert [d.code for d in out] == ["PM401"]
    assert [n.loc.line for n in out[0].related] == [5, 20, 30]  # in file order


def test_without_a_claimed_cause_a_consequence_stands_alone() -> None:
    alone = diag("PM403", 20, because=("entries",))
    assert fold_consequences([alone]) == [alone]


def test_an_error_never_folds_into_a_warning() -> None:
    diags = [diag("LP712", 10, claims=("x",), severity=Severity.WARNING), diag("SL606", 20, because=("x",))]
    assert [d.code for d in fold_consequences(diags)] == ["LP712", "SL606"]


def test_a_cycle_keeps_its_first_member() -> None:
    diags = [diag("SL605", 30, claims=("p",), because=("q",)), diag("BE505", 10, claims=("q",), because=("p",))]
    out = fold_consequences(diags)
    assert [(d.code, [n.loc.line for n in d.related]) for d in out] == [("BE505", [30])]


FIXTURES = __import__("pathlib").Path(__file__).parents[1] / "rules" / "fixtures"


def test_the_defect_carries_what_follows_from_it() -> None:
    """Two entries feed one body Parameter: one error, the Parameter's unfed neighbour, both deliveries
    and the Reshape that fails on one of them are its notes, each at its own line."""
    import irlint

    (d,) = [d for d in irlint.check(FIXTURES / "PM408" / "fail.xml") if d.severity is Severity.ERROR]
    assert d.code == "PM408"
    assert not [n for n in d.related if n.note.startswith("this also gives ")]  # each says what it does
    param_line = next(n for n, t in enumerate((FIXTURES / "PM408" / "fail.xml").read_text().splitlines(), 1)
                      if 'name="Parameter_3"' in t and "<layer" in t)
    notes = [(n.loc.line, n.note) for n in d.related if n.note.startswith("this also ")]
    assert [line for line, _ in notes] == sorted(line for line, _ in notes)  # in file order
    # both entries' SL605 say the same of the Parameter: one note, in concrete terms, at the Parameter's port
    assert [note for _, note in notes] == [
        "this also leaves body layer 1 'Parameter_4' (Parameter), the state back edge from-layer=10 to-layer=1 "
        "feeds, without an initial value (BE504)",
        "this also makes body layer 0 'Parameter_3' (Parameter) receive [1,3] instead of its declared [1,1,4] (SL605)",
        "this also leaves body layer 1 'Parameter_4' (Parameter) unfed, though the body reads it (OpenVINO's CPU "
        "plugin gives it zeros) (PM407)",
        "this also makes layer 3 'Reshape_7' (Reshape) fail: Reshape: cannot reshape [1,3] (3 elements) to [1,4] "
        "(4 elements) (T210)"]
    assert notes[1][0] == param_line + 3


def test_the_same_note_is_kept_once() -> None:
    root = diag("PM402", 10, claims=("conflict",))
    twice = [Diagnostic("SL606", Severity.ERROR, f"SL606 via entry {n}", Location("m.xml", 40), because=("conflict",),
                        effect="makes output port 5 of layer 2 [3,1,2] instead of its declared [3,4,2]")
             for n in (1, 2)]
    (out,) = fold_consequences([root, *twice])
    assert [(n.loc.line, n.note) for n in out.related] == [
        (40, "this also makes output port 5 of layer 2 [3,1,2] instead of its declared [3,4,2] (SL606)")]


def test_a_consequence_of_a_deselected_defect_names_its_cause() -> None:
    import irlint

    path = FIXTURES / "PM408" / "fail.xml"
    entry_line = next(d.loc.line for d in irlint.check(path) if d.code == "PM408")
    shown = irlint.check(path, select=["SL605", "T210"])
    assert sorted(d.code for d in shown) == ["SL605", "SL605", "T210"]
    for d in shown:
        assert any(n.loc.line == entry_line and n.note.startswith("this follows from a defect here: two port_map "
                                                                  "entries feed body layer 0") for n in d.related)
