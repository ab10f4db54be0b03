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
    Known("Loop zero iterations", "", "zero iterations",
          "irlint has no value for a concatenated output after zero iterations; OpenVINO returns one"),
    Known("IR reader: negative input axis", r"not an unsigned \w+ bit integer", "negative slice axis",
          "OpenVINO's reader refuses a negative axis on an input entry; irlint's SL602 is a warning"),
    Known("CPU plugin: part_size != |stride|", "", "part_size > 1 with stride 1",
          "the CPU plugin requires abs(stride) == part_size; irlint reads such slicing without a finding"),
    Known("Loop: trip count above the slice count", "", "trip count above slice count",
          "the CPU plugin fails at inference (LP708 is a warning); irlint runs it"),
    Known("CPU plugin: TI sliced input unused in the body", "", "sliced input unused in a ti body",
          "the CPU plugin runs the TensorIterator once (or refuses its concatenated outputs) when the body "
          "does not use a sliced input; irlint iterates over the slices (PM410 is a warning)"),
    Known("float -> integer Convert amplifies a rounding difference", r"values differ",
          r"convert f32 to (i32|i64|u8) and back",
          "Convert truncates, so one ulp decides the integer: f32 bodies may differ from the plugin's in the last "
          "bit after some iterations (Tanh's saturation at 1, the one case measured, is aligned); an f16 body's "
          "rounding, the same cause in f16, is T216's"),
    Known("Loop: output slicing attributes refused at compile", r"Invalid start, stride, part_size, or end", "",
          "compile_model re-validates the Loop and refuses start/end/stride/part_size other than 0/-1/1/1 that "
          "read_model let through; irlint warns (LP709)"),
    Known("TensorIterator slicing the CPU plugin refuses",
          r"(OpenVINO inference fails, irlint runs|OpenVINO refuses at compile, irlint finds no error): "
          r"(TensorIterator|Shape mismatch for tensor iterator)", "",
          "start/end/stride/part_size that the CPU plugin rejects at compile or only when it runs the model"),
    Known("irlint error on text OpenVINO ignores", r"irlint error .*computes the same as unmutated", "",
          "OpenVINO runs the mutated model and computes what the unmutated one computes; left are TensorIterator "
          "ranges (SL603/SL604) OpenVINO reads past where the message names no reason it does (a part_size on an "
          "axis of unknown length): not yet measured"),
    Known("irlint error warranted: OpenVINO computes something else", r"irlint error .*computes something else", "",
          "OpenVINO runs the mutated model silently and computes something else than the unmutated one: a "
          "TensorIterator body Parameter whose declared dims or part_size contradict its input (SL603, SL605), "
          "which OpenVINO re-infers; irlint's error is the point"),
    Known("TensorIterator state that changes shape, dynamic inputs", r"irlint error BE505, OpenVINO accepts",
          "family grown_unread_state",
          "a TensorIterator state that grows on its back edge over inputs of dynamic shape: the CPU plugin restarts "
          "the state from its initial value each iteration; BE505 stays an error (the spec passes the grown value) "
          "and says what OpenVINO computes. With static inputs the plugin fails at inference (both refuse), and "
          "with one iteration BE505 is a warning"),
    Known("CPU plugin: If of dynamic rank", r"If operation with dynamic rank", "",
          "the CPU plugin compiles no If whose output has a dynamic rank; irlint warns (IF807)"),
]


def known(o: Outcome) -> str | None:
    """The name of the known family `o`'s disagreement belongs to, or None."""
    for k in KNOWN:
        if k.matches(o):
            return k.name
    return None
