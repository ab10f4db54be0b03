"""What a prepared kernel computes in its common case, for a generated loop body to call inline.

A body's generated code (irlint.interp.codegen) calls each kernel through its list protocol
(`kernel(args) -> [out]`): on the tiny tensors of a recurrent cell the wrappers around numpy's call
(the argument tuple, a frame or two of checks, the one-element list) cost as much as the call. A
kernel that carries a `Direct` says "for inputs passing this test, my output is exactly `fn(...)`";
the generated code makes the test inline and calls `fn` itself, and hands every other input to the
kernel. The test is one of three shapes, so codegen can write it without knowing the op.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

# The unary `fn`s take f32 and f64 arrays of rank >= 1 (the dtypes are numpy's singletons: `is` tests them).
UNARY_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))


@dataclass(frozen=True, slots=True)
class Direct:
    """`fn` and when it gives the kernel's output.

    - arity 1: `fn(x)` for an f32/f64 ndarray x of rank >= 1;
    - arity 2, `const` None: `fn(a, b)` for ndarrays of one dtype, one of them of rank >= 1 (numpy then
      gives an ndarray of that dtype: `fn` is add, subtract or multiply);
    - arity 2 with `const`: the kernel's constant operand (as the kernel uses it: a 0-d array for a
      scalar operand, a transposed view for MatMul's weights) at position `at`; `fn` of it and the
      other input x when x is an ndarray of dtype `dtype` (default: the constant's) and of rank
      >= `rank` (== `rank` with `exact_rank`)."""

    fn: Callable[..., Any]
    arity: int
    const: np.ndarray | None = None
    at: int = -1
    rank: int = 1
    exact_rank: bool = False
    dtype: np.dtype | None = None


def direct_of(kernel: Any) -> Direct | None:
    """The kernel's `Direct`, if it has one."""
    got = getattr(kernel, "direct", None)
    return got if isinstance(got, Direct) else None
