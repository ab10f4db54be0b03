"""One defect, one error: a finding that follows from another finding's defect becomes its note.

Rules say what they report as wrong (`Diagnostic.claims`) and which defects a finding may follow
from (`Diagnostic.because`, keys of irlint.causes; a rule that reads a poisoned value takes the
poison's key). Here each consequence is folded into its root, the finding that claims its cause,
followed to the end of the chain (an unmapped port that follows from a wrong external_port_id, a
body Parameter left unfed by that port, ...): the root carries it as a related note at the
consequence's location (what it does there in concrete terms, `Diagnostic.effect`, when the rule
says so: "this also makes output port 5 of ... [3,1,2] instead of its declared [3,4,2] (SL606)"), so the
report keeps the information and the place, and counts one error. The same note is kept once. A
root is never of a lower severity than what it absorbs. A consequence whose cause no finding claims
(its rule is not selected, say) stays a finding of its own; rules that read poisoned values give
such findings a note naming the cause themselves.
"""

from __future__ import annotations

from dataclasses import replace

from irlint.diagnostics import Diagnostic, Related


def _parent(i: int, diags: list[Diagnostic], claimed: dict[str, list[int]]) -> int | None:
    """The first finding (in file order) that claims a cause of `diags[i]`, of at least its severity."""
    best = None
    rank = diags[i].severity.rank
    for key in diags[i].because:
        for j in claimed.get(key, ()):
            if j == i or diags[j].severity.rank < rank:
                continue
            if best is None or (diags[j].sort_key(), j) < (diags[best].sort_key(), best):
                best = j
    return best


def _roots(diags: list[Diagnostic]) -> list[int]:
    """For each finding the root it folds into (itself for a root); a cycle's root is its first member."""
    claimed: dict[str, list[int]] = {}
    for i, d in enumerate(diags):
        for key in d.claims:
            claimed.setdefault(key, []).append(i)
    parent = [_parent(i, diags, claimed) if d.because else None for i, d in enumerate(diags)]
    roots = []
    for i in range(len(diags)):
        chain, current = [i], parent[i]
        while current is not None and current not in chain:
            chain.append(current)
            current = parent[current]
        if current is None:
            roots.append(chain[-1])
        else:  # a cycle: its first member in file order is the root
            cycle = chain[chain.index(current):]
            roots.append(min(cycle, key=lambda j: (diags[j].sort_key(), j)))
    return roots


def _note(d: Diagnostic) -> str:
    """What a consequence says under its root: its concrete effect when its rule gives one."""
    return f"this also {d.effect} ({d.code})" if d.effect else f"this also gives {d.code}: {d.message}"


def fold_consequences(diags: list[Diagnostic]) -> list[Diagnostic]:
    """`diags` with every consequence folded into its root as a note (order otherwise kept)."""
    if not any(d.because for d in diags):
        return diags
    roots = _roots(diags)
    notes: dict[int, list[Related]] = {}
    for i, d in sorted(enumerate(diags), key=lambda pair: pair[1].sort_key()):
        if roots[i] != i:
            note = Related(d.loc, _note(d))
            kept = notes.setdefault(roots[i], [])
            if note not in kept:  # one port mapped by two entries gives the same consequence twice
                kept.append(note)
    out = []
    for i, d in enumerate(diags):
        if roots[i] != i:
            continue
        if i in notes:
            d = replace(d, related=d.related + tuple(n for n in notes[i] if n not in d.related))
        out.append(d)
    return out
