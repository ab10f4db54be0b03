"""What every CLI printer shares: text from a model made safe for a terminal, and how a run error is shown.

Why: layer, Parameter and Result names come from the file. A name holding ESC, CSI (U+009B), NEL
(U+0085) or a bidi override (U+202E) would drive the terminal or reorder what the reader sees
(an output called 'x' that displays as something else), so tables print names through `safe`.
"""

from __future__ import annotations

import sys

from irlint.report.text import one_line as safe  # what every CLI message quotes goes through it

__all__ = ["out_of_memory", "run_error", "safe"]


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
