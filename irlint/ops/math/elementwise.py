"""Element-wise ops: unary activations, binary arithmetic, comparisons and logic (table-driven).

These ops differ only in their numpy function and their type rule, so each is one row of a table
and one small registered class instead of forty near-identical modules. Semantics follow
OpenVINO's reference implementations: integer arithmetic stays in the input type (wrapping like
C++), `Divide` floors for integers when `m_pythondiv` is true and truncates otherwise, `Mod` takes
the sign of the dividend and `FloorMod` the sign of the divisor.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import NoAttrs, NotComputable, Op, OpError, TensorInfo
from irlint.ops.direct import Direct, direct_of
from irlint.ops.lowp import in_f32, narrow, refuse_nf4
from irlint.ops.movement.dims import broadcast_shapes
from irlint.ops.registry import register
from irlint.types import BOOL, NARROW_FLOATS, ElementType, Shape, format_shape, static_shape

Array = np.ndarray


# ------------------------------------------------------------------------------------ helpers


def same_etype(op: str, inputs: Sequence[TensorInfo]) -> ElementType | None:
    """The element type all inputs share (None if unknown); OpError if two known types differ."""
    etype = None
    for i, t in enumerate(inputs):
        if t.etype is None or t.etype.is_dynamic:
            continue
        if etype is not None and t.etype != etype:
            raise OpError(f"{op}: input {i} is {t.etype} but input 0 is {etype}; both must have the same type")
        etype = etype or t.etype
    return etype


def broadcast_result(op: str, mode: str, shapes: Sequence[Shape | None]) -> Shape | None:
    """The output shape under `auto_broadcast` ("numpy", "none", or "pdpd": the later inputs are
    broadcast into the first, whose shape the output has; irlint does not compute pdpd, see compute)."""
    if mode == "none":
        known = [s for s in shapes if s is not None]
        for s in known[1:]:
            if s != known[0]:
                raise OpError(f"{op}: auto_broadcast=none needs equal shapes, got "
                              f"{' and '.join(format_shape(x) for x in known)}")
        return known[0] if known else None
    if mode == "pdpd":
        first = shapes[0]
        for s in shapes[1:]:
            if first is not None and s is not None and len(s) > len(first):
                raise OpError(f"{op}: auto_broadcast=pdpd broadcasts {format_shape(s)} into {format_shape(first)}, "
                              "which has fewer dims")
        return first
    if mode != "numpy":
        raise OpError(f"{op}: auto_broadcast={mode!r} is not one of numpy, none, pdpd")
    out = shapes[0]
    for s in shapes[1:]:
        out = broadcast_shapes(op, out, s)
    return out


def _erf(x: Array) -> Array:
    return np.vectorize(math.erf, otypes=[np.float64])(x)


# Float types the hot unaries (those with a `native`) compute in directly, as OpenVINO's core reference
# computes in the element type T; other types (f16, bf16, f8, integers) go through float64.
F32, F64 = np.dtype(np.float32), np.dtype(np.float64)
NATIVE_FLOATS = frozenset({F32, F64})


def _float(fn: Callable[[Array], Array], native: Callable[[Array], Array] | None = None
           ) -> Callable[[Array], Array]:
    """Compute in float64 and return the input's dtype, rounded once (OpenVINO computes in the element
    type, from f32 for the narrow floats: the same result but for a rare last-place tie); with `native`,
    f32/f64 inputs compute in their own type (OpenVINO's reference computes in the element type).
    `native(x)` computes `fn(x)` in x's own float type for an x of rank >= 1 with fewer numpy calls and
    one temporary (the same operations on the same values, so the same bits): the prepared kernel's
    path, and also what a float64 copy of a narrow or integer input goes through."""

    def run(x: Array) -> Array:
        with np.errstate(all="ignore"):
            return kernel([x])[0]

    def kernel(args: Sequence[Array]) -> list[Array]:
        """`run` as a prepared kernel: no warning guard (the interpreter's fast path silences them)."""
        x = args[0]
        dtype = x.dtype
        if native is not None and x.ndim:
            # The builtin f32/f64 dtypes are singletons: `is` is the cheap test, `in` the exact one.
            if dtype is F32 or dtype is F64 or dtype in NATIVE_FLOATS:
                return [native(x)]
            y = native(x.astype(np.float64))
        elif native is not None and dtype in NATIVE_FLOATS:
            return [np.asarray(fn(x))]
        else:
            y = fn(x.astype(np.float64))
        if dtype.kind == "f":  # f64, f32, f16: the f32 path pays no more checks than before
            out = y.astype(dtype)
        elif dtype in NARROW_FLOATS:  # bf16, f8, f4: rounded once as OpenVINO rounds (irlint/ops/lowp.py)
            out = narrow(y, dtype)
        else:
            out = float_result_to_int(y, dtype)
        return [out if type(out) is np.ndarray else np.asarray(out)]

    run.kernel = kernel  # type: ignore[attr-defined]
    if native is not None:  # an f32/f64 x of rank >= 1 is `native(x)`: the kernel's first branch
        kernel.direct = Direct(native, 1)  # type: ignore[attr-defined]
    return run


def float_result_to_int(y: Array, dtype: np.dtype) -> Array:
    """A float-only function's result for an integer input, as OpenVINO's CPU plugin gives it: computed
    in floating point, rounded to nearest with ties to even (Sigmoid(0) = 0.5 -> 0, Exp(1) -> 3),
    saturated to the type's range (Sinh(40) -> 255 in u8); NaN becomes the type's minimum if signed
    and its maximum if not (what the plugin's conversion gives i32 and u8). The plugin computes i64
    as i32, so its i64 results saturate at the i32 bounds; irlint's at the i64 bounds."""
    with np.errstate(all="ignore"):
        if dtype.kind == "b":  # boolean, where an op's type check lets it through: nonzero is true
            return np.asarray(np.rint(y) != 0)
        info = np.iinfo(dtype)
        r = np.clip(np.rint(np.asarray(y, np.float64)), float(info.min), float(info.max))
        r = np.where(np.isnan(r), float(info.min if info.min < 0 else info.max), r)
        out = np.asarray(r.astype(dtype))
        if dtype.itemsize == 8:  # float64 rounds the top of the range up to 2**63, past it
            out[r >= float(info.max)] = info.max
        return out


def _keep(fn: Callable[[Array], Array]) -> Callable[[Array], Array]:
    def run(x: Array) -> Array:
        with np.errstate(all="ignore"):
            return np.asarray(fn(x)).astype(x.dtype)

    # The function's result is fresh: converting it to the input's type needs no second copy.
    run.kernel = lambda args: [np.asarray(fn(args[0])).astype(args[0].dtype, copy=False)]  # type: ignore[attr-defined]
    return run


def _sigmoid(x: Array) -> Array:
    """1 / (1 + exp(-x)); an f32 x (a 0-d one: `_sigmoid_rounded` takes the others) in float64,
    rounded once, as the CPU plugin's logistic comes out."""
    if x.dtype == F32:
        return np.asarray(1.0 / (1.0 + np.exp(-x.astype(F64)))).astype(F32)
    return 1.0 / (1.0 + np.exp(-x))


_ONE32, _ONE64 = np.ones((), np.float32), np.ones((), np.float64)


def sigmoid_in_place(x: Array) -> Array:
    """`_sigmoid(x)` step by step for an f32/f64 x of rank >= 1: 1 / (1 + exp(-x)) in one temporary of
    x's type (the formula's bits). A 0-d array as the 1 and reciprocal (1 / t, correctly rounded as the
    division) cost half of what a Python float operand costs; `out` is passed positionally (a keyword
    costs more per call on small arrays). Also the RNN cells' "sigmoid" (irlint.ops.rnn.activations)."""
    t = np.negative(x)
    np.exp(t, t)
    np.add(t, _ONE32 if t.dtype == F32 else _ONE64, t)
    return np.reciprocal(t, t)


# The smallest f32 x whose tanh OpenVINO's CPU plugin gives as exactly 1 (and -x as -1), measured.
_TANH_ONE = np.float32(9.010913)
_TANH_SMALL = 1024  # elements up to which float64 costs less than the saturation fix-up (one call vs four)


def _tanh_rounded(x: Array) -> Array:
    """tanh of an f32 x as the CPU plugin gives it where it matters: numpy's f32 tanh is up to 2 ulp off
    and stays at 0.99999994 up to x = 10, where the plugin (within 1 ulp of the correctly rounded value)
    reaches 1 from 9.010913, so a Convert to an integer after it truncated differently (measured on
    200,000 values in [-12, 12]: 16,486 truncations differ with numpy's f32 tanh, none with this).
    Small arrays compute in float64 and round once; large ones (where float64's tanh costs 16 times
    f32's) take numpy's f32 tanh and saturate from 9.010913 as the plugin does."""
    if x.dtype is not F32:
        return np.tanh(x)
    if x.size <= _TANH_SMALL:  # (a cast first: numpy's `dtype=` argument costs more than the cast itself)
        return np.tanh(x.astype(F64)).astype(F32)
    return np.where(np.abs(x) >= _TANH_ONE, np.sign(x), np.tanh(x))


def _sigmoid_rounded(x: Array) -> Array:
    """Sigmoid of an f32 x of rank >= 1 as the CPU plugin gives it where it matters: its logistic
    (oneDNN's, 1 - e / (1 + e) with e = exp(-|x|) for x > 0) is about correctly rounded, so it stays
    at 0.99999994 up to x = 17.33, where 1 / (1 + exp(-x)) in f32 reaches 1 from x = 15.9 (the sum
    rounds up first); a Convert to an integer after it truncated differently (measured on 400,001
    values in [-25, 25]: 5,545 truncations differ with the f32 formula, none with this). Small arrays
    compute the formula in float64 and round once; large ones take the plugin's own f32 steps (the
    same truncations, without a float64 copy). An f64 x computes the formula in its own type."""
    if x.dtype is not F32:
        return sigmoid_in_place(x)
    if x.size <= _TANH_SMALL:
        return sigmoid_in_place(x.astype(F64)).astype(F32)
    e = np.abs(x)
    np.negative(e, e)
    np.exp(e, e)
    y = e / (e + _ONE32)
    return np.where(x > 0, _ONE32 - y, y)


def _softplus(x: Array) -> Array:
    return np.where(x > 20, x, np.log1p(np.exp(np.minimum(x, 20))))


UNARY: dict[str, Callable[[Array], Array]] = {
    "Sigmoid": _float(_sigmoid, _sigmoid_rounded),
    "Tanh": _float(_tanh_rounded, _tanh_rounded),
    "Exp": _float(np.exp, np.exp),
    "Log": _float(np.log, np.log),
    "Sqrt": _float(np.sqrt, np.sqrt),
    "Erf": _float(_erf),
    "Floor": _keep(np.floor),
    "Ceiling": _keep(np.ceil),
    "Abs": _keep(np.abs),
    "Negative": _keep(np.negative),
    "Sin": _float(np.sin),
    "Cos": _float(np.cos),
    "SoftPlus": _float(_softplus),
    "HSwish": _float(lambda x: x * np.clip(x + 3.0, 0.0, 6.0) / 6.0),
    "HSigmoid": _float(lambda x: np.clip(x + 3.0, 0.0, 6.0) / 6.0),
    "Mish": _float(lambda x: x * np.tanh(_softplus(x))),
    "Sign": _keep(np.sign),
}
UNARY_VERSIONS = {"Erf": ("opset1",), "SoftPlus": ("opset4",), "HSwish": ("opset4",), "HSigmoid": ("opset5",),
                  "Mish": ("opset4",)}


def _div(python_div: bool) -> Callable[[Array, Array], Array]:
    def run(a: Array, b: Array) -> Array:
        if a.dtype.kind == "f":  # the common case, without issubdtype's cost (most of a small division's)
            return a / b
        if np.issubdtype(a.dtype, np.integer):
            safe = np.where(b == 0, 1, b)
            q = np.floor_divide(a, safe) if python_div else np.trunc(a / safe).astype(a.dtype)
            return np.where(b == 0, 0, q).astype(a.dtype)
        return a / b

    return run


def _pow(a: Array, b: Array) -> Array:
    if a.dtype.kind != "f" and np.issubdtype(a.dtype, np.integer):
        return np.power(a.astype(np.float64), b.astype(np.float64)).astype(a.dtype)
    return np.power(a, b)


def _mod_int_safe(fn: Callable[[Array, Array], Array]) -> Callable[[Array, Array], Array]:
    def run(a: Array, b: Array) -> Array:
        if a.dtype.kind != "f" and np.issubdtype(a.dtype, np.integer):
            return np.where(b == 0, 0, fn(a, np.where(b == 0, 1, b))).astype(a.dtype)
        return fn(a, b)

    return run


def _maximum(a: Array, b: Array) -> Array:
    """OpenVINO's reference `a < b ? b : a`: a NaN in `a` is the result, a NaN in `b` is not (numpy's
    maximum would return NaN for both)."""
    if a.dtype.kind in "iub":
        return np.maximum(a, b)
    return np.where(a < b, b, a)


def _minimum(a: Array, b: Array) -> Array:
    """OpenVINO's reference `b < a ? b : a` (see `_maximum`)."""
    if a.dtype.kind in "iub":
        return np.minimum(a, b)
    return np.where(b < a, b, a)


ARITHMETIC: dict[str, Callable[[Array, Array], Array]] = {
    "Add": np.add,
    "Subtract": np.subtract,
    "Multiply": np.multiply,
    "Power": _pow,
    "Maximum": _maximum,
    "Minimum": _minimum,
    "SquaredDifference": in_f32(lambda a, b: np.square(a - b)),
    "FloorMod": _mod_int_safe(np.mod),
    "Mod": _mod_int_safe(np.fmod),
}
COMPARISON: dict[str, Callable[[Array, Array], Array]] = {
    "Equal": np.equal,
    "NotEqual": np.not_equal,
    "Less": np.less,
    "LessEqual": np.less_equal,
    "Greater": np.greater,
    "GreaterEqual": np.greater_equal,
}
# Binary ufuncs whose result has their inputs' dtype whenever both have one dtype (a prepared kernel
# of one of them may be called inline: irlint.ops.direct).
CLOSED_UFUNCS = frozenset({np.add, np.subtract, np.multiply})
LOGICAL: dict[str, Callable[[Array, Array], Array]] = {
    "LogicalAnd": np.logical_and,
    "LogicalOr": np.logical_or,
    "LogicalXor": np.logical_xor,
}


def scalar_operand(kernel: Callable[[Sequence[Array]], list[Array]], consts: Sequence[Array | None]
                   ) -> Callable[[Sequence[Array]], list[Array]]:
    """`kernel` of a binary op, given a constant operand of one element (a scale [1, 1], a bias [1])
    as a 0-d array whenever the other operand has at least its rank: the same values, dtype and output
    shape, without numpy's broadcasting of a [1, 1] against an [N, M] (which costs more per call than
    the product of two small tensors itself)."""
    if len(consts) != 2 or (consts[0] is None) == (consts[1] is None):
        return kernel
    at = 0 if consts[0] is not None else 1
    c = np.asarray(consts[at])
    rank = c.ndim
    if c.size != 1 or rank == 0:
        return kernel
    c0 = c.reshape(())
    inner = direct_of(kernel)
    direct = None if inner is None else Direct(inner.fn, 2, c0, at, rank)

    if at:
        def second(args: Sequence[Array]) -> list[Array]:
            a = args[0]
            return kernel((a, c0) if a.ndim >= rank else args)

        second.direct = direct  # type: ignore[attr-defined]
        return second

    def first(args: Sequence[Array]) -> list[Array]:
        b = args[1]
        return kernel((c0, b) if b.ndim >= rank else args)

    first.direct = direct  # type: ignore[attr-defined]
    return first


# ------------------------------------------------------------------------------------ classes


@dataclass(frozen=True)
class BroadcastAttrs:
    auto_broadcast: str = "numpy"


@dataclass(frozen=True)
class DivideAttrs:
    auto_broadcast: str = "numpy"
    m_pythondiv: bool = True


class Unary(Op):
    """y = f(x) element-wise, same type and shape."""

    fn: Callable[[Array], Array]
    infer_reads_values = False

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        return [TensorInfo(inputs[0].etype, inputs[0].shape)]

    def compute(self, attrs: NoAttrs, inputs: Sequence[Array]) -> list[Array]:
        refuse_nf4(self.types[0], np.asarray(inputs[0]))
        return [np.asarray(type(self).fn(np.asarray(inputs[0])))]

    def prepare(self, attrs: NoAttrs, consts: Sequence[Array | None]) -> Callable[[list[Array]], list[Array]] | None:
        """The function's prepared kernel when it has one (the hot unaries); else `compute` runs."""
        return getattr(type(self).fn, "kernel", None)


class Binary(Op):
    """z = f(x, y) with `auto_broadcast`; `result` is None for "same as the inputs"."""

    Attrs = BroadcastAttrs
    arity = (2, 2)
    fn: Callable[[Array, Array], Array]
    infer_reads_values = False
    result: ElementType | None = None
    bool_inputs = False

    def infer(self, attrs: BroadcastAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        name = self.types[0]
        etype = same_etype(name, inputs)
        if self.bool_inputs and etype is not None and etype != BOOL:
            raise OpError(f"{name}: inputs must be boolean, got {etype}")
        shape = broadcast_result(name, attrs.auto_broadcast, [i.shape for i in inputs])
        return [TensorInfo(self.result or etype, shape)]

    def compute(self, attrs: BroadcastAttrs, inputs: Sequence[Array]) -> list[Array]:
        a, b = (np.asarray(x) for x in inputs)
        refuse_nf4(self.types[0], a, b)
        if attrs.auto_broadcast == "pdpd":  # needs the broadcast axis, which irlint does not bind
            raise NotComputable(f"{self.types[0]}: irlint does not compute auto_broadcast=pdpd")
        if attrs.auto_broadcast != "numpy" or a.shape != b.shape:
            try:
                if attrs.auto_broadcast != "numpy":
                    raise ValueError
                np.broadcast_shapes(a.shape, b.shape)
            except ValueError:  # the exact check, for its message (or auto_broadcast="none")
                broadcast_result(self.types[0], attrs.auto_broadcast, [static_shape(a.shape), static_shape(b.shape)])
        with np.errstate(all="ignore"):
            out = np.asarray(self.call(attrs, a, b))
        if self.result is not None:
            return [out.astype(self.result.dtype)]
        return [out.astype(a.dtype, copy=False)]

    def call(self, attrs: BroadcastAttrs, a: Array, b: Array) -> Array:
        return type(self).fn(a, b)

    def prepare(self, attrs: BroadcastAttrs, consts: Sequence[Array | None]):  # type: ignore[no-untyped-def]
        """numpy broadcasting checked by numpy itself (a failure is explained by `compute`)."""
        if attrs.auto_broadcast != "numpy":
            return None
        fn = self.bound(attrs)
        if self.result is not None:
            dtype = self.result.dtype

            def typed(args: Sequence[Array]) -> list[Array]:
                # The function's result is fresh: no copy is needed to make it the kernel's own.
                return [np.asarray(fn(args[0], args[1])).astype(dtype, copy=False)]

            return scalar_operand(typed, consts)

        def same(args: Sequence[Array]) -> list[Array]:
            a, b = args
            out = fn(a, b)
            # An f32/f64 result has the dtype singleton when the inputs have it: `is` is the cheap test.
            if out.dtype is a.dtype and out.__class__ is np.ndarray:
                return [out]
            if type(out) is not np.ndarray or out.dtype != a.dtype:
                out = np.asarray(out).astype(a.dtype, copy=False)
            return [out]

        if fn in CLOSED_UFUNCS:  # one dtype in, an ndarray of it out: `same` returns fn's result as it is
            same.direct = Direct(fn, 2)  # type: ignore[attr-defined]
        return scalar_operand(same, consts)

    def bound(self, attrs: BroadcastAttrs) -> Callable[[Array, Array], Array]:
        return type(self).fn


@register
class Divide(Binary):
    types = ("Divide",)
    versions = ("opset1",)
    Attrs = DivideAttrs

    def call(self, attrs: DivideAttrs, a: Array, b: Array) -> Array:  # type: ignore[override]
        return _div(attrs.m_pythondiv)(a, b)

    def bound(self, attrs: DivideAttrs) -> Callable[[Array, Array], Array]:  # type: ignore[override]
        return _div(attrs.m_pythondiv)


def _make(base: type[Op], name: str, versions: tuple[str, ...], **members: object) -> type[Op]:
    cls = type(name, (base,), {"types": (name,), "versions": versions, **members})
    return register(cls)


for _name, _fn in UNARY.items():
    _make(Unary, _name, UNARY_VERSIONS.get(_name, ("opset1",)), fn=staticmethod(_fn))
for _name, _fn in ARITHMETIC.items():
    _make(Binary, _name, ("opset1",), fn=staticmethod(_fn))
for _name, _fn in COMPARISON.items():
    _make(Binary, _name, ("opset1",), fn=staticmethod(_fn), result=BOOL)
for _name, _fn in LOGICAL.items():
    _make(Binary, _name, ("opset1",), fn=staticmethod(_fn), result=BOOL, bool_inputs=True)


@register
class LogicalNot(Op):
    types = ("LogicalNot",)
    infer_reads_values = False
    versions = ("opset1",)

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        if inputs[0].etype is not None and inputs[0].etype != BOOL:
            raise OpError(f"LogicalNot: input must be boolean, got {inputs[0].etype}")
        return [TensorInfo(BOOL, inputs[0].shape)]

    def compute(self, attrs: NoAttrs, inputs: Sequence[Array]) -> list[Array]:
        return [np.logical_not(inputs[0])]
