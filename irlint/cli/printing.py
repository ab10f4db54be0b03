"""What every CLI printer shares: text from a model made safe for a terminal, and how a run error is shown.

Why: layer, Parameter and Result names come from the file. A name holding ESC, CSI (U+009B), NEL
(U+0085) or a bidi override (U+202E) would drive the terminal or reorder what the reader sees
(an output called 'x' that displays as something else), so tables print names through `safe`.
"""

from __future__ import annotations

import re
import sys

from irlint.report.text import clean

# Bidi embeddings/overrides/isolates and the line/paragraph separators: shown as \uXXXX escapes.
_INVISIBLE = re.compile("[\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]")


def safe(text: object) -> str:
    """`text` with control characters as visible stand-ins and bidi/separator characters as \\uXXXX;
    newlines and tabs too (a table cell is one line)."""
    s = str(text).replace("\n", "\u2424").replace("\t", "\u2409")
    return clean(_INVISIBLE.sub(lambda m: f"\\u{ord(m.group()):04x}", s))


def run_error(e: Exception, model_path: str) -> None:
    """An `ExecutionError` on stderr, compiler style: `file:line:col: CODE [error] message`."""
    layer = getattr(e, "layer", None)
    where = f"{model_path}: "
    if layer is not None:
        try:
            where = f"{layer.loc}: "
        except Exception:  # a location is read back from the file and may be unavailable
            where = f"{model_path}: "
    print(safe(f"{where}{getattr(e, 'code', 'RUN')} [error] {getattr(e, 'message', e)}"), file=sys.stderr)


def out_of_memory(model_path: str, budget: int) -> None:
    """A MemoryError during a run, reported like the budget's own refusal."""
    print(safe(f"{model_path}: RUN-BUDGET [error] the run ran out of memory (numpy could not allocate) within "
               f"--memory-budget {budget}; lower --memory-budget or give smaller inputs"), file=sys.stderr)
