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
    if type(value) is np.ndarray:  # the interpreter's case, once per Loop iteration
        return bool(value.item()) if value.size == 1 else None
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


# The first iterations' values are made once per process and shared by every Loop that reads them
# (read-only: no kernel writes its inputs, and one that tried would fail loudly instead of corrupting
# a later iteration).
CACHED_ITERATIONS = 4096
_TABLES: dict[tuple[np.dtype | None, int | None], list[np.ndarray]] = {}


def iteration_values(dtype: np.dtype | None, rank: int | None, count: float) -> list[np.ndarray]:
    """`iteration_value(k, dtype, rank)` for k below `count` (at most CACHED_ITERATIONS), as a list
    shared by every caller: the table grows to what is asked and never shrinks."""
    table = _TABLES.setdefault((dtype, rank), [])
    want = int(min(count, CACHED_ITERATIONS))
    for k in range(len(table), want):
        value = iteration_value(k, dtype, rank)
        value.flags.writeable = False
        table.append(value)
    return table
