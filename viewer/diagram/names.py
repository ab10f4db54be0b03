"""Short labels for long layer names: the part that tells a name from its neighbours, not its start.

Front ends write names that share long prefixes (`functional_1_lstm_1_while_functional_1_lstm_1_while_
loop_counter` and `..._strided_slice_3`), so cutting at a fixed length makes them identical. A
name longer than the limit keeps its tail from the token where it first differs from the most
similar other name, plus as many earlier whole tokens as fit; "…" marks what is left out.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise

LIMIT = 40
SEPARATORS = "/_.:-"
ELLIPSIS = "…"


def _common(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


def _token_starts(name: str) -> list[int]:
    return [0] + [i + 1 for i, c in enumerate(name) if c in SEPARATORS and i + 1 < len(name)]


def short_names(names: Iterable[str], limit: int = LIMIT) -> dict[str, str]:
    """name -> its label of at most `limit` characters (names that fit are kept whole)."""
    uniq = sorted(set(names))
    shared: dict[str, int] = {}
    for a, b in pairwise(uniq):  # in sorted order the most similar name is a neighbour
        n = _common(a, b)
        shared[a] = max(shared.get(a, 0), n)
        shared[b] = max(shared.get(b, 0), n)
    out: dict[str, str] = {}
    for name in uniq:
        if len(name) <= limit:
            out[name] = name
            continue
        starts = _token_starts(name)
        differs = max(s for s in starts if s <= shared.get(name, 0))  # the token holding the first difference
        fitting = [s for s in starts if s <= differs and len(name) - s <= limit - 1]
        if fitting:
            scopes = [s for s in fitting if s and name[s - 1] == "/"]  # whole scopes read better
            start = min(scopes or fitting)
            out[name] = (ELLIPSIS if start else "") + name[start:]
        else:  # the distinguishing tail alone is too long: its beginning and its end
            half = (limit - 2) // 2
            tail = name[differs:]
            out[name] = ELLIPSIS + tail[:half] + ELLIPSIS + tail[-(limit - 2 - half):]
    return out
