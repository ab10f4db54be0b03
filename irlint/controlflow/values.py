"""Reading a Loop's scalar ports (trip count, conditions) and making its current-iteration value.

Shape inference passes known constant values, the interpreter concrete arrays; both read them here,
so "1 element, any rank" and "truth of a non-boolean" mean the same in both.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def scalar_value(value: Any) -> int | None:
    """The integer in a 1-element tensor (trip counts), else None."""
    if value is None:
        return None
    arr = np.asarray(value)
    if arr.size != 1:
        return None
    return int(arr.reshape(-1)[0])


def scalar_flag(value: Any) -> bool | None:
    """The truth of a 1-element tensor (execution conditions), else None."""
    if value is None:
        return None
    arr = np.asarray(value)
    if arr.size != 1:
        return None
    return bool(arr.reshape(-1)[0])


def iteration_value(k: int, dtype: np.dtype | None, rank: int | None) -> np.ndarray:
    """The current_iteration Parameter's value in iteration `k`: its declared type (i64 when unknown),
    a scalar or a 1-element vector as it declares."""
    value = np.array(k, dtype=dtype if dtype is not None else np.dtype(np.int64))
    return value.reshape(1) if rank == 1 else value
