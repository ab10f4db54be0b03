"""Disagreement families already understood, by name: what a campaign finds outside them is new.

Each entry: a name, what marks a disagreement as one of its members (a regular expression on the
family, and/or a generator note every member carries), and why it disagrees. Entries go when
irlint changes so that the family agrees.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tests.differential.campaign import Outcome


@dataclass(frozen=True)
class Known:
    name: str
    family: str = ""  # a regular expression searched in the disagreement's family
    note: str = ""  # a regular expression one of the model's generator notes must match in full
    why: str = ""

    def matches(self, o: Outcome) -> bool:
        if o.disagreement is None:
            return False
        if self.family and not re.search(self.family, o.disagreement.family):
            return False
        return not self.note or any(re.fullmatch(self.note, n) for n in o.notes)


KNOWN = [
    Known("integer Sigmoid/Tanh", r"integer/boolean values differ", "integer sigmoid",
          "irlint computes Sigmoid/Tanh of integers as zeros"),
    Known("integer Sigmoid/Tanh", r"integer/boolean values differ", "integer tanh",
          "irlint computes Sigmoid/Tanh of integers as zeros"),
    Known("Loop zero iterations", "", "zero iterations",
          "irlint has no value for a concatenated output after zero iterations; OpenVINO returns one"),
    Known("CPU plugin: dynamic-rank Parameter", r"Parameter operation with dynamic rank", "",
          "the CPU plugin compiles no Parameter of dynamic rank; irlint does not report it"),
    Known("IR reader: negative input axis", r"not an unsigned \w+ bit integer", "negative slice axis",
          "OpenVINO's reader refuses a negative axis on an input entry; irlint's SL602 is a warning"),
    Known("CPU plugin: part_size != |stride|", "", "part_size > 1 with stride 1",
          "the CPU plugin requires abs(stride) == part_size; irlint reads such slicing without a finding"),
    Known("Loop: trip count above the slice count", "", "trip count above slice count",
          "the CPU plugin fails at inference (LP708 is a warning); irlint runs it"),
    Known("CPU plugin: TI sliced input unused in the body", "", "sliced input unused in a ti body",
          "the CPU plugin runs the TensorIterator once (or refuses its concatenated outputs) when the body "
          "does not use a sliced input; irlint iterates over the slices (PM410 is a warning)"),
    Known("f16 body: a value rounded to f16 then truncated to an integer", r"values differ",
          r"convert f16 to (i32|i64|u8) and back",
          "irlint rounds every f16 op's result (0.99988 -> 1.0, then Convert to i32 gives 1); the CPU plugin computes "
          "the f16 body in f32 and truncates 0.99988 to 0"),
    Known("u8 overflow: the CPU plugin saturates", r"values differ \(uint8\)", "",
          "Add/Multiply overflow wraps in irlint and saturates on the CPU plugin (a documented departure)"),
    Known("CPU plugin: Convert f32 -> f16 -> f32 not rounded", r"float values differ \(f32\)",
          "convert f32 to f16 and back", "the CPU plugin removes the Convert pair; irlint rounds to f16"),
]


def known(o: Outcome) -> str | None:
    """The name of the known family `o`'s disagreement belongs to, or None."""
    for k in KNOWN:
        if k.matches(o):
            return k.name
    return None
