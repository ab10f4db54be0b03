"""Narrow integer arithmetic that wraps: the spec's answer, which OpenVINO's CPU plugin does not give.

irlint computes Add, Subtract, Multiply, ReduceSum and ReduceProd of 8- and 16-bit integers in the
type, wrapping as OpenVINO's core reference does. The CPU plugin saturates i8/u8 results (u8
200 + 100 = 255, 50 - 100 = 0) and computes 16-bit ones in i32, storing a wrapped value only where
the result leaves as i16 (a Convert after the Add sees 40000); measured on 2026.4, docs/semantics.md.
So where a result wraps, the run says so with a `DepartureWarning`, once per layer and run.

The CPU plugin computes i64 tensors as i32: it converts i64 inputs and constants to i32 (2**33 + 5
-> 5) and wraps i32 arithmetic (100000 * 100000 -> 1410065408; a ReduceSum sums through f32 and gives
-2**31 outside the range), at the top level and in bodies alike.
irlint computes in i64, as the spec says, and warns where such a result leaves the i32 range.

The CPU plugin computes a ReduceSum, ReduceMean, ReduceProd, ReduceL1, ReduceMax or ReduceMin of
i32 (and of i64, which it computes as i32) in f32: each element is rounded to f32 (16777217 ->
16777216, even for ReduceMax), partial results round beyond 2**24 ([2**24, 1, -1] sums to 16777215)
and a sum outside the i32 range gives -2**31. irlint computes in integers, as the spec says, and
warns where an element is not exact in f32 or the reduction of the magnitudes passes 2**24.

A Convert of a float to i8/u8 outside the type's range has no defined result (the Convert spec
defines only the wrap of negative integers to unsigned ones). irlint truncates and wraps, as the CPU
plugin does at a model's top level (u8: -1.5 -> 255, 300 -> 44); inside a Loop, TensorIterator or
If body the plugin saturates (-1.5 -> 0, 300 -> 255): measured on 2026.4. So such a Convert warns too.

The CPU plugin computes u32 and u64 tensors as i32 too, at the top level and in bodies alike: a value
is its low 32 bits read as signed (u32 2**31 and u64 2**64 - 1 are negative there: Greater(0, them)
is true, Maximum(them, 1) is 1, a Convert to f32 gives -2**31 and -1), and a u64 result is that i32
sign-extended (Add(2**31, 1) gives 2**64 - 2**31 + 1, a Concat of 2**32 + 5 gives 5). A model input
read by no op but a Result comes back unchanged. So an op reading a u32/u64 value warns where it gives
another result on the plugin's view of its inputs (`_unsigned_as_i32`).

A Convert of a float to a 16- or 32-bit integer type (or u64) keeps the truncated value as i32 on
the plugin (INT32_MIN beyond the i32 range): Convert(-1.2, u16) is -1 for the ops after it (Greater
than 0 is false, a Convert to f32 gives -1) and wraps only where stored (65535), and 3e9 to u32 is
2**31 where the spec's wrap gives 3000000000. An integer Convert to i16 or u16 does not wrap there
either: i32 70000 and -1 stay 70000 and -1 (a Convert back to i32 gives them; the spec's wrap gives
4464 and 65535), an i8 -1 converted to u16 stays -1. So such a Convert warns where the i32 value differs and
an op reads it (a top-level value read only by Results is stored wrapped, as irlint gives it).

The CPU plugin computes f16 ops in f32 and rounds to f16 only where a value leaves the model (with
inference precision f32; measured on 2026.4, at the top level and in Loop bodies alike): f16 300 * 300
is 90000 there, so Subtract(y, y) gives 0 and Relu(-y) gives 0, where the spec's f16 arithmetic gives
inf, NaN and 0. irlint computes in f16, as the spec says, and warns where an f16 op's result is not
finite but the same op on its inputs computed in f32 is (`_f16_overflow`); a top-level result read by
Results alone is rounded to inf on the plugin as well and does not warn.
"""

from __future__ import annotations

import warnings
import weakref
from collections.abc import Callable, Sequence
from functools import partial
from math import isfinite
from typing import Any

import numpy as np

from irlint.interp.errors import DepartureWarning
from irlint.interp.program import OP, RESULT, Program
from irlint.ir.model import Graph, Layer
from irlint.ops.fastpath import FEW_VALUES, within

WATCHED = frozenset({"Add", "Subtract", "Multiply", "ReduceSum", "ReduceProd", "Convert"})
NARROW = frozenset(np.dtype(t) for t in (np.int8, np.uint8, np.int16, np.uint16))
I64 = np.dtype(np.int64)
I32_MIN, I32_MAX = int(np.iinfo(np.int32).min), int(np.iinfo(np.int32).max)
BYTES = frozenset(np.dtype(t) for t in (np.int8, np.uint8))  # a Convert's measured targets
I32 = np.dtype(np.int32)
# Reductions the CPU plugin computes in f32 on i32/i64 tensors (measured on 2026.4), and those of them
# whose partial results grow with the magnitudes (a max or min only rounds its elements).
REDUCED_IN_F32 = frozenset({"ReduceSum", "ReduceMean", "ReduceProd", "ReduceL1", "ReduceMax", "ReduceMin"})
ACCUMULATING = frozenset({"ReduceSum", "ReduceMean", "ReduceProd", "ReduceL1"})
F32_EXACT = 2**24  # every integer up to this magnitude is exact in f32
# Types the CPU plugin computes as i32 whatever the spec says: u32/u64 (read as their low 32 bits,
# signed) and the 16-bit ones a float Convert leaves unwrapped (measured on 2026.4).
UNSIGNED_WIDE = frozenset(np.dtype(t) for t in (np.uint32, np.uint64))
KEPT_AS_I32 = frozenset(np.dtype(t) for t in (np.int16, np.uint16, np.uint32, np.uint64))
SIXTEEN = frozenset(np.dtype(t) for t in (np.int16, np.uint16))  # an integer Convert to these is kept too
# Ops whose inputs are not read as values here: a nested body's ops check what they read.
NOT_READERS = frozenset({"Result", "Loop", "TensorIterator", "If", "ShapeOf", "ReadValue", "Assign"})
F16 = np.dtype(np.float16)
QUICK_SIZE = FEW_VALUES  # up to this many values a quick test reads them as a Python list
# Ops whose f16 result the f32 recomputation says nothing about: a Convert's type is its attribute
# (T216 covers its round trips), a Parameter or Const computes nothing.
NOT_F16_OPS = NOT_READERS | {"Convert", "Parameter", "Const"}
# Ops whose f16 result is finite wherever the same op computed in f32 is: they move values (an inf they
# give was in an input, which the f32 computation reads too), pick one of their inputs, or give values
# within [-1, 1] or no larger in magnitude than their input's, rounded once from f32. Never watched for
# f16 (tests/interp/test_f16_overflow.py checks the elementwise ones on f16's extremes against f32).
F16_SAFE = frozenset({
    "Tanh", "Sigmoid", "Sin", "Cos", "Erf", "Atan", "Asinh", "Relu", "Abs", "Negative", "Floor", "Ceiling",
    "Round", "Sign", "Sqrt", "Log", "HSigmoid", "SoftSign", "Minimum", "Maximum", "Select",
    "Reshape", "Squeeze", "Unsqueeze", "Transpose", "Concat", "Split", "VariadicSplit", "Gather",
    "GatherElements", "GatherND", "Slice", "StridedSlice", "Broadcast", "Tile", "Reverse", "ReverseSequence",
    "Roll", "DepthToSpace", "SpaceToDepth", "ShuffleChannels",
})

Kernel = Callable[[list[np.ndarray]], list[np.ndarray]]


def watched(layer: Layer) -> bool:
    """A layer to watch: a WATCHED op whose output may be a narrow integer (f32 ones cost nothing), or
    an op reading a u32/u64 input."""
    if layer.type not in NOT_READERS and any(
            p.precision is not None and p.precision.dtype is not None and np.dtype(p.precision.dtype) in UNSIGNED_WIDE
            for p in layer.inputs):
        return True
    port = layer.outputs[0] if layer.outputs else None
    if (layer.type not in NOT_F16_OPS and layer.type not in F16_SAFE and port is not None
            and port.precision is not None and port.precision.dtype is not None
            and np.dtype(port.precision.dtype) == F16):
        return True
    if layer.type not in WATCHED and layer.type not in REDUCED_IN_F32:
        return False
    et = port.precision if port is not None else None
    return et is None or et.dtype is None or np.dtype(et.dtype) in NARROW or (
        np.dtype(et.dtype) == I64 and layer.type != "Convert") or (
        np.dtype(et.dtype) == I32 and layer.type in REDUCED_IN_F32) or (
        layer.type == "Convert" and np.dtype(et.dtype) in KEPT_AS_I32)


# graph -> (its program, `watch_plan`'s answer): decided once per compiled program, not per run
_PLANS: weakref.WeakKeyDictionary[Graph, tuple[Program, tuple[bool | None, ...]]] = weakref.WeakKeyDictionary()


def watch_plan(program: Program) -> tuple[bool | None, ...]:
    """Per instruction of `program.order`: None where its op can never depart (`watched` says no: the
    types it reads and gives leave nothing to check, so it runs its bare kernel), else whether no op,
    loop or If of the program reads its outputs (at a model's top level they then reach the outputs
    alone, where the plugin stores them as irlint does). The types are the layer's declared ones, fixed
    per program, so this is decided once; a program that cannot depart pays nothing per op call."""
    got = _PLANS.get(program.graph)
    if got is not None and got[0] is program:
        return got[1]
    plan: list[bool | None] = [None] * len(program.order)
    read: set[int] | None = None
    for i, instr in enumerate(program.order):
        if instr.kind == OP and instr.step.op is not None and watched(instr.layer):
            if read is None:
                read = {s for j in program.order if j.kind != RESULT for s in j.srcs}
            plan[i] = not any(d in read for d in instr.dsts)
    answer = tuple(plan)
    _PLANS[program.graph] = (program, answer)
    return answer


def watch(layer: Layer, compute: Callable[[Any, Sequence[np.ndarray]], Sequence[np.ndarray]], attrs: Any,
          kernel: Kernel, warned: set[str], outputs_only: bool = False,
          consts: Sequence[np.ndarray | None] = ()) -> Kernel:
    """`kernel`, which also warns the first time its narrow integer result differs from the exact one
    (`compute` on the inputs widened to i64); `warned` holds the layers that have warned this run;
    `outputs_only`: the result reaches the model's outputs alone (the plugin stores it wrapped there);
    `consts`: the values of its constant inputs (None for the others), the same in every call."""

    # What the layer's type decides, once (the dtypes below are the run's, tested per call).
    path, kind = layer.path, layer.type
    reads = kind not in NOT_READERS
    reduced = kind in REDUCED_IN_F32
    convert = kind == "Convert"
    f16_op = kind not in NOT_F16_OPS and kind not in F16_SAFE and not outputs_only
    narrow_op = kind in WATCHED

    def watched(args: list[np.ndarray]) -> list[np.ndarray]:
        outs = kernel(args)
        slow(args, outs)
        return outs

    def slow(args: list[np.ndarray], outs: list[np.ndarray]) -> None:
        if path not in warned:  # (each check warns once per layer and run)
            check(args, outs)

    def check(args: list[np.ndarray], outs: list[np.ndarray]) -> None:
        out = outs[0]
        dtype = out.dtype
        if reads:
            for a in args:
                if a.dtype in UNSIGNED_WIDE:
                    _unsigned_as_i32(layer, compute, attrs, args, outs, warned)
                    break
        if (dtype is I64 and out.size and path not in warned  # (a counter: one cheap test)
                and (out.size != 1 or not I32_MIN <= out.item() <= I32_MAX)):
            _i64_outside_i32(layer, out, warned)
        if reduced and dtype in (I32, I64) and path not in warned and args[0].size:
            _reduced_in_f32(layer, compute, attrs, args, warned)
        if (convert and dtype in KEPT_AS_I32 and out.size
                and (args[0].dtype.kind == "f" or (args[0].dtype.kind in "iu" and dtype in SIXTEEN))
                and path not in warned and not (outputs_only and dtype not in UNSIGNED_WIDE)):
            _convert_kept_as_i32(layer, args[0], out, warned)
        if f16_op and dtype == F16 and out.size and path not in warned:
            _f16_overflow(layer, compute, attrs, args, out, warned)
        if dtype not in NARROW or not narrow_op or path in warned or out.size == 0:
            return
        if convert:
            if dtype in BYTES and args[0].dtype.kind == "f":
                _convert_out_of_range(layer, args[0], out, warned)
            return
        wide = np.asarray(compute(attrs, [a.astype(np.int64) if a.dtype == dtype else a for a in args])[0])
        if wide.shape == out.shape and not np.array_equal(wide, out):
            warned.add(path)
            at = np.flatnonzero(wide.ravel() != out.ravel())[0]
            how = "saturates it" if dtype.itemsize == 1 else "computes it in i32"
            warnings.warn(DepartureWarning(
                f"{layer.describe()}: the {dtype} result wraps ({wide.ravel()[at]} is stored as "
                f"{out.ravel()[at]}), as the spec's integer arithmetic does; OpenVINO's CPU plugin {how}, so its "
                "values differ from here on"), stacklevel=4)

    return _quick_watch(layer, kernel, slow, outputs_only, consts) or watched


Slow = Callable[[list[np.ndarray], list[np.ndarray]], None]
# layer -> ((outputs_only, its constant inputs...), the maker of its quick test, or None): what
# `_quick_watch` chooses follows from the layer's declared types and its constants (the same objects
# in every run), so it is chosen once; a run only makes the closures (choosing again cost a 100-step
# watched Loop 1.5 % of its run).
_QUICK: weakref.WeakKeyDictionary[Layer, tuple[tuple[Any, ...], Callable[[Kernel, Slow], Kernel] | None]] = (
    weakref.WeakKeyDictionary())


def _quick_watch(layer: Layer, kernel: Kernel, slow: Slow, outputs_only: bool,
                 consts: Sequence[np.ndarray | None] = ()) -> Kernel | None:
    """`kernel` with a cheap test, chosen once from the layer's declared types (and its `consts`), that a
    call's result cannot depart, where `watch`'s full check would look at it and find nothing; a result
    it cannot pass goes on to `slow` (that check). `kernel` itself where its constants leave nothing to
    test. None: the full check on every call (reductions, undeclared types). It trusts the declared
    input types, as `watch_plan` does, and tests the result's type per call. Each test is written out in
    its kernel: a watched op in a loop body runs it every iteration, and a call level is a tenth of its
    cost."""
    key = (outputs_only, *consts)
    got = _QUICK.get(layer)
    if got is None or len(got[0]) != len(key) or any(a is not b for a, b in zip(got[0], key)):
        got = _QUICK[layer] = (key, _quick_maker(layer, outputs_only, consts))
    return None if got[1] is None else got[1](kernel, slow)


def _quick_maker(layer: Layer, outputs_only: bool, consts: Sequence[np.ndarray | None]
                 ) -> Callable[[Kernel, Slow], Kernel] | None:
    """`_quick_watch`'s choice for the layer: what makes its quick kernel from a run's kernel and full check."""
    kind = layer.type
    declared = [_declared(p) for p in layer.inputs]
    port = layer.outputs[0] if layer.outputs else None
    out_type = _declared(port) if port is not None else None
    if out_type is None or (kind not in NOT_READERS and any(t is None for t in declared)):
        return None
    unsigned = [i for i, t in enumerate(declared) if t in UNSIGNED_WIDE] if kind not in NOT_READERS else []
    if kind in ("Add", "Subtract", "Multiply") and out_type in NARROW and len(declared) == 2 and not unsigned:
        return _narrow_maker(kind, out_type, consts)
    if kind in REDUCED_IN_F32 or (kind in WATCHED and out_type in NARROW and kind != "Convert"):
        return None
    if kind == "Convert":
        if unsigned or out_type not in KEPT_AS_I32 | BYTES or not declared or declared[0].kind not in "biuf":
            return None  # (numpy's own numbers only: bf16, f8, i4 or nf4 inputs take the full check)
        info = np.iinfo(out_type)
        return partial(_converted, out_type, max(int(info.min), I32_MIN), min(int(info.max), I32_MAX))
    if out_type is I64:
        return None if unsigned else _counted
    if out_type is F16 and kind not in NOT_F16_OPS and kind not in F16_SAFE:
        if unsigned:
            return None
        # (the plugin rounds a value read by the outputs alone to inf as well)
        return _bare if outputs_only or _f16_contracting(kind, consts) else _finite
    if unsigned and out_type not in NARROW and out_type not in (I64, F16):
        n = max(unsigned) + 1
        reads = tuple(i for i in unsigned if not _low_constant(consts[i] if i < len(consts) else None))
        return partial(_low_halves, out_type, n, reads)
    return None


def _bare(kernel: Kernel, slow: Slow) -> Kernel:
    """The kernel itself: with the declared types (which the plan trusts) and these constants the full
    check finds nothing on any call, and a generated body may call its numpy function inline."""
    return kernel


def _converted(out_type: np.dtype, lo: int, hi: int, kernel: Kernel, slow: Slow) -> Kernel:
    """A Convert to an integer type whose every input value lies within it (so within i32) departs nowhere;
    and there it is numpy's cast, which the kernel gives too (irlint.ops.math.convert), so the one test
    picks both."""

    def converted(args: list[np.ndarray]) -> list[np.ndarray]:
        x = args[0]
        if x.__class__ is np.ndarray and x.dtype.kind in "biuf" and within(x, lo, hi):
            return [x.astype(out_type)]
        outs = kernel(args)
        if outs[0].dtype is not out_type or x.dtype.kind not in "biuf" or not within(x, lo, hi):
            slow(args, outs)
        return outs

    return converted


def _counted(kernel: Kernel, slow: Slow) -> Kernel:
    """An i64 result within i32 is the plugin's too."""

    def counted(args: list[np.ndarray]) -> list[np.ndarray]:
        outs = kernel(args)
        out = outs[0]
        if out.dtype is not I64 or not (
            (out.size == 1 and I32_MIN <= out.item() <= I32_MAX) or within(out, I32_MIN, I32_MAX)
        ):
            slow(args, outs)
        return outs

    return counted


def _finite(kernel: Kernel, slow: Slow) -> Kernel:
    """A finite f16 result is the plugin's too (it rounds its f32 value to the same f16)."""

    def finite(args: list[np.ndarray]) -> list[np.ndarray]:
        outs = kernel(args)
        out = outs[0]
        if out.dtype is not F16 or not (
            isfinite(sum(out.ravel().tolist())) if out.size <= QUICK_SIZE else np.isfinite(out).all()
        ):
            slow(args, outs)
        return outs

    return finite


def _low_halves(out_type: np.dtype, n: int, unsigned: tuple[int, ...], kernel: Kernel, slow: Slow) -> Kernel:
    """Inputs `unsigned` (u32/u64 by declaration, not constants below 2**31) read below 2**31 are the same
    in the plugin's i32."""

    def low_halves(args: list[np.ndarray]) -> list[np.ndarray]:
        outs = kernel(args)
        if outs[0].dtype is not out_type or len(args) < n:
            slow(args, outs)
            return outs
        try:
            for i in unsigned:  # (any type: the full check looks at u32/u64 ones only, below 2**31 at none)
                a = args[i]
                size = a.size
                if size and (a.item() if size == 1 else max(a.ravel().tolist()) if size <= QUICK_SIZE
                             else a.max()) > I32_MAX:
                    slow(args, outs)
                    break
        except TypeError:  # values that do not compare with a number (not u32/u64 then): the full check
            slow(args, outs)
        return outs

    return low_halves


def _f16_contracting(kind: str, consts: Sequence[np.ndarray | None]) -> bool:
    """A Multiply by a constant of magnitudes at most 1, or a Divide by one of magnitudes at least 1:
    its f32 result is no larger than its other input, so its f16 one is finite where that input is."""
    if len(consts) != 2 or kind not in ("Multiply", "Divide"):
        return False
    at = 1 if kind == "Divide" else next((i for i in (1, 0) if consts[i] is not None), -1)
    c = consts[at] if at >= 0 else None
    if c is None or consts[1 - at] is not None or c.size == 0 or c.dtype.kind != "f":
        return False
    with np.errstate(all="ignore"):
        magnitudes = np.abs(c.astype(np.float64))
        return bool(magnitudes.max() <= 1.0) if kind == "Multiply" else bool(magnitudes.min() >= 1.0)


def _span(a: np.ndarray) -> tuple[int, int]:
    """The least and the greatest value of a non-empty integer array, as Python ints."""
    if a.size == 1:
        v = a.item()
        return v, v
    if a.size <= QUICK_SIZE:
        values = a.ravel().tolist()
        return min(values), max(values)
    return int(a.min()), int(a.max())


def _narrow_maker(kind: str, out_type: np.dtype, consts: Sequence[np.ndarray | None]
                  ) -> Callable[[Kernel, Slow], Kernel]:
    """The quick test of a narrow integer Add, Subtract or Multiply: the extremes of its inputs' values
    bound every element's result. With one integer constant operand of an Add or Subtract, the bounds
    the other input's values must keep are worked out once."""
    info = np.iinfo(out_type)
    lo, hi = int(info.min), int(info.max)
    fixed = [i for i, c in enumerate(consts[:2]) if c is not None]
    if kind != "Multiply" and len(consts) == 2 and len(fixed) == 1:
        at = fixed[0]
        c = consts[at]
        if c is not None and c.size and c.dtype.kind in "iu":
            clo, chi = _span(c)
            if kind == "Add":
                bounds = lo - clo, hi - chi
            elif at == 1:  # x - c
                bounds = lo + chi, hi + clo
            else:  # c - x
                bounds = clo - hi, chi - lo
            return partial(_narrow_by_constant, out_type, 1 - at, *bounds)
    return partial(_narrow, kind, out_type, lo, hi)


def _narrow_by_constant(out_type: np.dtype, other: int, xlo: int, xhi: int, kernel: Kernel, slow: Slow) -> Kernel:
    """`_narrow` where one operand is a constant: the other's values within [xlo, xhi] keep the result in
    the type (a counter's step: one comparison per call)."""

    def narrow(args: list[np.ndarray]) -> list[np.ndarray]:
        outs = kernel(args)
        x = args[other]
        if outs[0].dtype is not out_type or x.dtype.kind not in "iu":
            slow(args, outs)
        elif x.size == 1:
            if not xlo <= x.item() <= xhi:
                slow(args, outs)
        elif x.size:
            least, most = _span(x)
            if least < xlo or most > xhi:
                slow(args, outs)
        return outs

    return narrow


def _narrow(kind: str, out_type: np.dtype, lo: int, hi: int, kernel: Kernel, slow: Slow) -> Kernel:
    """`kernel` of a narrow integer Add, Subtract or Multiply that sends a call to `slow` only where its
    exact result may leave the type."""

    def narrow(args: list[np.ndarray]) -> list[np.ndarray]:
        outs = kernel(args)
        if len(args) != 2:
            slow(args, outs)
            return outs
        a, b = args
        if outs[0].dtype is not out_type or a.dtype.kind not in "iu" or b.dtype.kind not in "iu":
            slow(args, outs)
        elif a.size == 1 and b.size == 1:  # (a counter and its step: no span to take)
            x, y = a.item(), b.item()
            if not lo <= (x + y if kind == "Add" else x - y if kind == "Subtract" else x * y) <= hi:
                slow(args, outs)
        elif a.size and b.size:
            (alo, ahi), (blo, bhi) = _span(a), _span(b)
            if kind == "Add":
                least, most = alo + blo, ahi + bhi
            elif kind == "Subtract":
                least, most = alo - bhi, ahi - blo
            else:
                ends = (alo * blo, alo * bhi, ahi * blo, ahi * bhi)
                least, most = min(ends), max(ends)
            if least < lo or most > hi:
                slow(args, outs)
        return outs

    return narrow


def _low_constant(c: np.ndarray | None) -> bool:
    """A constant input every value of which is an integer below 2**31 (the plugin reads it alike)."""
    return c is not None and c.dtype.kind in "iu" and (c.size == 0 or int(c.max()) <= I32_MAX)


def _declared(port: Any) -> np.dtype | None:
    """A port's declared element type as numpy's (the same object as a result's dtype), if known."""
    et = port.precision
    return None if et is None or et.dtype is None else np.dtype(et.dtype)


def _f16_overflow(layer: Layer, compute: Callable[[Any, Sequence[np.ndarray]], Sequence[np.ndarray]], attrs: Any,
                  args: list[np.ndarray], out: np.ndarray, warned: set[str]) -> None:
    """Warn once if this f16 result is inf or NaN where the op computed in f32, as the CPU plugin
    computes it, is finite."""
    with np.errstate(all="ignore"):
        bad = ~np.isfinite(out)
        if not bad.any():
            return
        try:
            wide = np.asarray(compute(attrs, [a.astype(np.float32) if a.dtype == F16 else a for a in args])[0])
        except Exception:  # an op that takes no f32 inputs: nothing to compare with
            return
        if wide.shape != out.shape or wide.dtype.kind != "f":
            return
        differ = bad & np.isfinite(wide)
    if not differ.any():
        return
    warned.add(layer.path)
    at = np.flatnonzero(differ.ravel())[0]
    warnings.warn(DepartureWarning(
        f"{layer.describe()}: the f16 result is {out.ravel()[at]} (f16 arithmetic, as the spec says); OpenVINO's "
        f"CPU plugin computes f16 ops in f32, where it is {wide.ravel()[at]:.6g}, and rounds to f16 only at the "
        "model's outputs, so its values differ from here on"), stacklevel=5)


def _convert_out_of_range(layer: Layer, x: np.ndarray, out: np.ndarray, warned: set[str]) -> None:
    """Warn once if a float reaches an i8/u8 Convert outside the type's range (or is not finite)."""
    info = np.iinfo(out.dtype)
    with np.errstate(all="ignore"):
        t = np.trunc(x.astype(np.float64))
        bad = ~np.isfinite(t) | (t < info.min) | (t > info.max)
    if not bad.any():
        return
    warned.add(layer.path)
    at = np.flatnonzero(bad.ravel())[0]
    warnings.warn(DepartureWarning(
        f"{layer.describe()}: converts {x.dtype} {x.ravel()[at]} to {out.dtype}, outside the type's range: the "
        f"spec leaves the result undefined; irlint truncates and wraps ({out.ravel()[at]}), as OpenVINO's CPU "
        "plugin does at a model's top level, but inside a Loop, TensorIterator or If body the plugin saturates, "
        "so its values differ from here on"), stacklevel=5)


def _reduced_in_f32(layer: Layer, compute: Callable[[Any, Sequence[np.ndarray]], Sequence[np.ndarray]], attrs: Any,
                    args: list[np.ndarray], warned: set[str]) -> None:
    """Warn once if the CPU plugin's f32 computation of this i32/i64 reduction may round: an element
    is not exact in f32, or the reduction of the magnitudes (each partial result's bound) passes 2**24."""
    x = args[0]
    wide = x.astype(np.float64)
    bad = wide != x.astype(np.float32).astype(np.float64)
    if bad.any():
        v = x.ravel()[np.flatnonzero(bad.ravel())[0]]
        why = f"its element {v} is {int(np.float32(v))} in f32"
    elif layer.type in ACCUMULATING:
        bound = np.asarray(compute(attrs, [np.abs(wide), *args[1:]])[0], np.float64)
        if layer.type == "ReduceMean":
            bound = bound * (x.size // max(bound.size, 1))
        if not bound.size or float(bound.max()) <= F32_EXACT:
            return
        why = f"its magnitudes add up to {float(bound.max()):.0f}, past 2**24 = {F32_EXACT}, where f32 rounds"
    else:
        return
    warned.add(layer.path)
    warnings.warn(DepartureWarning(
        f"{layer.describe()}: {why}; OpenVINO's CPU plugin computes an integer {layer.type} in f32 (16777217 is "
        "16777216 there, a sum outside the i32 range -2147483648), so its values may differ from here on; irlint "
        "computes in integers, as the spec says"), stacklevel=5)


def _i64_outside_i32(layer: Layer, out: np.ndarray, warned: set[str]) -> None:
    """Warn once if an i64 arithmetic result leaves the i32 range the CPU plugin computes it in."""
    if out.size <= 16:  # (a counter or an index: Python's min and max cost a tenth of numpy's)
        values = out.ravel().tolist()
        lo, hi = min(values), max(values)
    else:
        lo, hi = int(out.min()), int(out.max())
    if lo >= I32_MIN and hi <= I32_MAX:
        return
    warned.add(layer.path)
    v = hi if hi > I32_MAX else lo
    warnings.warn(DepartureWarning(
        f"{layer.describe()}: the i64 result {v} is outside the i32 range; OpenVINO's CPU plugin computes i64 "
        f"tensors as i32 (Add, Subtract, Multiply wrap: {int(np.int64(v).astype(np.int32))}; a ReduceSum gives "
        "-2147483648), so its values differ from here on; irlint computes in i64, as the spec says"), stacklevel=5)


def i64_input_outside_i32(layer: Layer, arr: np.ndarray) -> None:
    """Warn if an i64 model input holds a value outside the i32 range the CPU plugin converts it to."""
    if arr.dtype != I64 or not arr.size:
        return
    lo, hi = int(arr.min()), int(arr.max())
    if lo >= I32_MIN and hi <= I32_MAX:
        return
    v = hi if hi > I32_MAX else lo
    warnings.warn(DepartureWarning(
        f"input '{layer.name}' holds the i64 value {v}, outside the i32 range; OpenVINO's CPU plugin converts i64 "
        f"inputs to i32 ({v} is {int(np.int64(v).astype(np.int32))} there), so its values differ; irlint keeps "
        "the i64 value, as the spec says"), stacklevel=4)


def _as_plugin_i32(a: np.ndarray) -> np.ndarray:
    """A u32/u64 array as the CPU plugin holds it: its low 32 bits, read as signed."""
    return a.astype(np.uint32).view(np.int32) if a.dtype in UNSIGNED_WIDE else a


def _unsigned_as_i32(layer: Layer, compute: Callable[[Any, Sequence[np.ndarray]], Sequence[np.ndarray]], attrs: Any,
                     args: list[np.ndarray], outs: Sequence[np.ndarray], warned: set[str]) -> None:
    """Warn once if this op gives another result on the plugin's i32 view of its u32/u64 inputs (its
    result then sign-extended to the declared type, as the plugin stores it)."""
    if not any(a.dtype in UNSIGNED_WIDE and a.size and (a.max() > I32_MAX) for a in args):
        return  # every u32/u64 value is the same in i32: nothing to see
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = compute(attrs, [_as_plugin_i32(a) for a in args])
    except Exception:  # an op that takes no i32 input here: no statement to make
        return
    for mine, other in zip(outs, theirs):
        other = np.asarray(other)
        if other.shape != mine.shape or mine.dtype.kind == "O":
            continue
        with np.errstate(all="ignore"):
            other = other.astype(mine.dtype) if mine.dtype.kind in "iub" else other.astype(np.float64)
            same = np.array_equal(mine, other) if mine.dtype.kind in "iub" else np.array_equal(
                mine.astype(np.float64), other, equal_nan=True)
        if same:
            continue
        v = next(a.ravel()[np.flatnonzero(a.ravel() > I32_MAX)[0]] for a in args
                 if a.dtype in UNSIGNED_WIDE and a.size and a.max() > I32_MAX)
        at = np.flatnonzero((mine != other).ravel())[0] if mine.dtype.kind in "iub" else 0
        warned.add(layer.path)
        warnings.warn(DepartureWarning(
            f"{layer.describe()}: reads the {v.dtype} value {v}, outside the i32 range; OpenVINO's CPU plugin "
            f"computes u32 and u64 tensors as i32 ({v} is {int(np.asarray(v).astype(np.uint32).view(np.int32))} "
            f"there), so its result differs ({other.ravel()[at]} for {mine.ravel()[at]} here) and its values "
            "differ from here on; irlint computes in the declared type, as the spec says"), stacklevel=5)
        return


def _convert_kept_as_i32(layer: Layer, x: np.ndarray, out: np.ndarray, warned: set[str]) -> None:
    """Warn once if a Convert to i16/u16/u32/u64 (of a float, or of an integer to i16/u16) gives a value the
    CPU plugin does not hold: it keeps the truncated float, or its own i32 view of the integer, as i32
    (INT32_MIN beyond that range), wrapped only where it is stored."""
    with np.errstate(all="ignore"):
        if x.dtype.kind == "f":
            t = np.trunc(x.astype(np.float64))
            theirs = np.where(np.isfinite(t) & (t >= I32_MIN) & (t <= I32_MAX), t, I32_MIN).astype(np.int64)
            why = "a float beyond i32 gives -2147483648"
        else:  # the plugin's i32 view of the integer: i64 wrapped, u32/u64 as their low 32 bits, signed
            theirs = (_as_plugin_i32(x) if x.dtype in UNSIGNED_WIDE else x.astype(np.int32)).astype(np.int64)
            why = "an integer Convert to i16 or u16 does not wrap"
        if out.dtype in UNSIGNED_WIDE:  # the plugin's u32/u64 is its i32 stored sign-extended
            bad = theirs.astype(out.dtype) != out
        else:
            bad = theirs != out.astype(np.int64)
    if not bad.any():
        return
    warned.add(layer.path)
    at = np.flatnonzero(bad.ravel())[0]
    warnings.warn(DepartureWarning(
        f"{layer.describe()}: converts {x.dtype} {x.ravel()[at]} to {out.dtype} ({out.ravel()[at]} here); OpenVINO's "
        f"CPU plugin keeps it as the i32 value {theirs.ravel()[at]} (i16, u16, u32 and u64 are computed as i32, "
        f"{why}), so the ops after it see another value and its values differ from here on; the spec wraps an "
        "integer to the type and leaves a float outside it undefined"), stacklevel=5)
