"""Reading the small integer inputs (axes, shapes, indices) that movement ops take, and axis checks."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from irlint.ops.base import OpError, TensorInfo


def int_values(info: TensorInfo) -> list[int] | None:
    """The known value of an integer input flattened to Python ints, or None if not known."""
    if info.value is None:
        return None
    return [int(v) for v in np.asarray(info.value).reshape(-1)]


def scalar_value(info: TensorInfo) -> int | None:
    """The known value of a one-element input (scalar or [1]); None if not known."""
    vals = int_values(info)
    return vals[0] if vals is not None and len(vals) == 1 else None


def input_rank(info: TensorInfo) -> int | None:
    """The rank of an input: its shape's, or its known value's; None if neither is known."""
    if info.shape is not None:
        return len(info.shape)
    return None if info.value is None else int(np.ndim(info.value))


def vector_length(op: str, name: str, info: TensorInfo, *, scalar: bool = True) -> int | None:
    """Static element count of a 1-D input (or a scalar, with `scalar`), None if not static; rejects
    other ranks, as OpenVINO's shape inference does."""
    rank = input_rank(info)
    if rank is not None and (rank > 1 or (rank == 0 and not scalar)):
        what = "a scalar or 1-D" if scalar else "1-D"
        raise OpError(f"{op}: input '{name}' must be {what}, got rank {rank}")
    if info.value is not None:
        return int(np.asarray(info.value).size)
    if info.shape is None:
        return None
    if len(info.shape) == 0:
        return 1
    return info.shape[0].value


def normalize_axis(op: str, axis: int, rank: int, what: str = "axis") -> int:
    """`axis` in ``[-rank, rank-1]`` mapped to ``[0, rank-1]``; OpError otherwise."""
    if not -rank <= axis < rank:
        raise OpError(f"{op}: {what} {axis} is out of range [{-rank}, {rank - 1}] for rank {rank}")
    return axis + rank if axis < 0 else axis


def as_int_array(op: str, name: str, arr: np.ndarray) -> list[int]:
    """Runtime integer input as Python ints (kernels), rejecting non-integer dtypes."""
    a = np.asarray(arr)
    if not (np.issubdtype(a.dtype, np.integer)):
        raise OpError(f"{op}: input '{name}' must be an integer tensor, got {a.dtype}")
    return [int(v) for v in a.reshape(-1)]


def common_length(op: str, names: Sequence[str], infos: Sequence[TensorInfo], *,
                  scalar: bool = True) -> int | None:
    """The one static length shared by several 1-D inputs (None if none is static); OpError if they differ."""
    lengths: set[int] = set()
    for name, info in zip(names, infos, strict=False):
        n = vector_length(op, name, info, scalar=scalar)
        if n is not None:
            lengths.add(n)
    if len(lengths) > 1:
        raise OpError(
            f"{op}: {', '.join(names[: len(infos)])} must have the same length, got {sorted(lengths)}"
        )
    return next(iter(lengths)) if lengths else None
