"""numpy's float warnings silenced around one kernel call of the event driver, cheaply.

The event driver yields between ops, so it cannot stay inside one `np.errstate` (the consumer's code
would run silenced too); entering a new `np.errstate` per op costs about 0.9 us, because numpy
rebuilds its error-state object each time: a tenth of the event path on a loop of tiny tensors.
numpy 2 keeps that state in a context variable, so setting one prebuilt "ignore all" state and
resetting it afterwards does the same for about a tenth of the cost. With an older numpy, or one
whose internals moved, `silence` and `restore` enter and leave an `np.errstate` instead.

The prebuilt state also carries the ufunc buffer size and error callback numpy had when this module
was imported, so a kernel runs with those rather than with a caller's later `np.setbufsize` or
`np.seterrcall`: neither changes a result, and no callback is called while every error is ignored.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np


def _errstate() -> tuple[Callable[[], Any], Callable[[Any], None]]:
    def enter() -> Any:
        state = np.errstate(all="ignore")
        state.__enter__()
        return state

    return enter, lambda state: state.__exit__(None, None, None)


def _context_variable() -> tuple[Callable[[], Any], Callable[[Any], None]] | None:
    try:
        from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj

        ignore = _make_extobj(all="ignore")
    except (ImportError, AttributeError, TypeError, ValueError):
        return None
    return partial(_extobj_contextvar.set, ignore), _extobj_contextvar.reset


# silence() -> token; restore(token): float warnings off in between (tests/interp/test_quiet.py)
silence, restore = _context_variable() or _errstate()
