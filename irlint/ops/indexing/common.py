"""Index checks shared by the gather and scatter kernels."""

from __future__ import annotations

import numpy as np

from irlint.ops.base import OpError


def int_indices(op: str, idx: np.ndarray, name: str = "indices") -> np.ndarray:
    """`idx` as int64, rejecting non-integer tensors."""
    a = np.asarray(idx)
    if not np.issubdtype(a.dtype, np.integer):
        raise OpError(f"{op}: {name} must be an integer tensor, got {a.dtype}")
    return a.astype(np.int64)


def normalized(op: str, idx: np.ndarray, size: int, what: str = "index") -> np.ndarray:
    """Indices in ``[-size, size-1]`` mapped to ``[0, size-1]``; OpError naming the first bad one."""
    bad = (idx < -size) | (idx >= size)
    if bad.any():
        v = int(idx[bad].reshape(-1)[0])
        raise OpError(f"{op}: {what} {v} is out of range [{-size}, {size - 1}]")
    return np.where(idx < 0, idx + size, idx)


def one_int(op: str, name: str, arr: np.ndarray) -> int:
    """The single integer of a scalar (or one-element) input; OpError otherwise."""
    a = np.asarray(arr)
    if not np.issubdtype(a.dtype, np.integer):
        raise OpError(f"{op}: {name} must be an integer, got {a.dtype}")
    if a.size != 1:
        raise OpError(f"{op}: {name} must be a single value, got shape {list(a.shape)}")
    return int(a.reshape(-1)[0])
