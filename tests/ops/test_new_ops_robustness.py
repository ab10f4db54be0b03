"""Random inputs and attributes never crash the new ops: `infer` and `compute` return or raise OpError.

Shape inference records any other exception as an internal error and the interpreter as a kernel bug
(RUN-INTERNAL); for these ops every bad input must instead get a user-facing message. Hypothesis
draws small tensors (ranks 0-3, static/dynamic dims, f32/i32/i64/bool, NaN and negative values)
and attribute strings from the values the IR uses plus garbage. `IRLINT_FUZZ_EXAMPLES=N` draws N
cases per op instead of 20.
"""

from __future__ import annotations

import dataclasses
import os
import typing

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from irlint.ops import OpError, TensorInfo, bind_attrs, lookup
from irlint.types import DYNAMIC, ELEMENT_TYPES, Dim
from tests.ops.test_op_versions import WRITTEN

CASES = [(t, v) for t, vs in sorted(WRITTEN.items()) for v in vs]
DTYPES = [np.float32, np.int32, np.int64, np.bool_]
STRINGS = ["max", "min", "value", "index", "none", "mask", "blocks_first", "depth_first", "constant", "edge",
           "reflect", "symmetric", "half_to_even", "half_away_from_zero", "sum", "sub", "prod", "mean", "i32",
           "i64", "u8", "ab,bc->ac", "ii", "a...,a->...", "ab", "a,b", "x", ""]
INTS = ["-2", "-1", "0", "1", "2", "3"]
BOOLS = ["true", "false"]
EXAMPLES = int(os.environ.get("IRLINT_FUZZ_EXAMPLES", "20"))


def attrs_strategy(cls):
    fields = dataclasses.fields(cls)
    hints = typing.get_type_hints(cls)

    def pool(tp):
        return st.sampled_from(BOOLS if tp is bool else INTS if tp is int else STRINGS)

    return st.fixed_dictionaries({f.metadata.get("ir", f.name): pool(hints[f.name]) for f in fields})


@st.composite
def arrays(draw):
    dtype = draw(st.sampled_from(DTYPES))
    shape = draw(st.lists(st.integers(0, 3), min_size=0, max_size=3))
    n = int(np.prod(shape))
    if dtype == np.bool_:
        vals = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    elif dtype == np.float32:
        vals = draw(st.lists(st.sampled_from([0.0, 1.5, -2.0, 3.0, np.nan, np.inf, -0.5]), min_size=n, max_size=n))
    else:
        vals = draw(st.lists(st.integers(-4, 5), min_size=n, max_size=n))
    return np.array(vals, dtype=dtype).reshape(shape)


def info_of(draw, arr: np.ndarray) -> TensorInfo:
    """The array as shape inference may see it: dims static or dynamic, value known or not."""
    dims = tuple(Dim.of(d) if draw(st.booleans()) else DYNAMIC for d in arr.shape)
    shape = None if draw(st.integers(0, 9)) == 0 else dims
    value = arr if draw(st.booleans()) else None
    return TensorInfo(ELEMENT_TYPES[{np.dtype(np.float32): "f32", np.dtype(np.int32): "i32",
                                     np.dtype(np.int64): "i64", np.dtype(np.bool_): "boolean"}[arr.dtype]],
                      shape, value)


@pytest.mark.parametrize("type_name,version", CASES, ids=[f"{t}-{v}" for t, v in CASES])
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_no_crash(type_name, version, data) -> None:
    op = lookup(type_name, version)
    raw = data.draw(attrs_strategy(op.Attrs))
    attrs, problems = bind_attrs(op.Attrs, raw)
    if problems:
        return
    lo, hi = op.arity
    n = data.draw(st.integers(lo, hi if hi is not None else lo + 2))
    args = [data.draw(arrays()) for _ in range(n)]
    infos = [info_of(data.draw, a) for a in args]
    try:
        outs = op.infer(attrs, infos)
        assert isinstance(outs, list) and all(isinstance(o, TensorInfo) for o in outs)
        if not op.infer_reads_values:  # memoised on types and shapes: values must not matter
            blind = op.infer(attrs, [TensorInfo(i.etype, i.shape) for i in infos])
            assert [(o.etype, o.shape) for o in outs] == [(o.etype, o.shape) for o in blind]
            assert all(o.value is None for o in outs)
    except OpError:
        pass
    try:
        with np.errstate(all="ignore"):
            outs = op.compute(attrs, args)
        assert isinstance(outs, list) and all(isinstance(o, np.ndarray) for o in outs)
    except OpError:
        pass
