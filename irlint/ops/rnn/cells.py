"""LSTMCell-1/4, GRUCell-3 and RNNCell-1: one time step of the recurrent cells OpenVINO emits in bodies.

Gate order and formulas follow the opset specs: LSTM gates f, i, c, o (W is [4H, I], R [4H, H],
B [4H]); GRU gates z, r, h (B is [3H], or [4H] with `linear_before_reset`); `clip` > 0 clips the
gate pre-activations to [-clip, clip]. Activations come from `irlint.ops.rnn.activations`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.registry import register
from irlint.ops.rnn.activations import activation
from irlint.types import DYNAMIC, Dim, Shape, format_shape

Array = np.ndarray


@dataclass(frozen=True)
class CellAttrs:
    hidden_size: int
    activations: tuple[str, ...] = ()
    activations_alpha: tuple[float, ...] = ()
    activations_beta: tuple[float, ...] = ()
    clip: float = 0.0


@dataclass(frozen=True)
class GRUAttrs(CellAttrs):
    linear_before_reset: bool = False


def _dim(shape: Shape | None, i: int) -> Dim:
    return shape[i] if shape is not None and len(shape) > i else DYNAMIC


def _expect(op: str, name: str, info: TensorInfo, want: tuple[int | None, ...]) -> None:
    """Check a weight/state input against the dims the cell needs (None = any)."""
    if info.shape is None:
        return
    if len(info.shape) != len(want):
        raise OpError(f"{op}: input {name} must have rank {len(want)}, got {format_shape(info.shape)}")
    for d, w in zip(info.shape, want):
        if w is not None and not d.compatible(Dim.of(w)):
            expected = "[" + ",".join("?" if x is None else str(x) for x in want) + "]"
            raise OpError(f"{op}: input {name} is {format_shape(info.shape)}, expected {expected}")


class _Cell(Op):
    gates = 1
    default_acts: tuple[str, ...] = ("tanh",)
    names: tuple[str, ...] = ("X", "H", "W", "R", "B")
    n_outputs = 1

    def check(self, attrs: CellAttrs, inputs: Sequence[TensorInfo]) -> None:
        op, h = self.types[0], attrs.hidden_size
        if h <= 0:
            raise OpError(f"{op}: hidden_size must be positive, got {h}")
        x = inputs[0]
        in_size = _dim(x.shape, 1).value
        gates = self.gates * h
        widx = self.names.index("W")
        _expect(op, "X", x, (None, None))
        for i, name in enumerate(self.names[1:widx], start=1):
            _expect(op, name, inputs[i], (_dim(x.shape, 0).value, h))
        _expect(op, "W", inputs[widx], (gates, in_size))
        _expect(op, "R", inputs[widx + 1], (gates, h))
        if len(inputs) > widx + 2:
            _expect(op, "B", inputs[widx + 2], (self.bias_size(attrs),))
        if attrs.activations and len(attrs.activations) != len(self.default_acts):
            raise OpError(f"{op}: {len(attrs.activations)} activations given, {len(self.default_acts)} needed")

    def bias_size(self, attrs: CellAttrs) -> int:
        return self.gates * attrs.hidden_size

    def infer(self, attrs: CellAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        self.check(attrs, inputs)
        shape = (_dim(inputs[0].shape, 0), Dim.of(attrs.hidden_size))
        return [TensorInfo(inputs[0].etype, shape) for _ in range(self.n_outputs)]

    def acts(self, attrs: CellAttrs):  # type: ignore[no-untyped-def]
        names = attrs.activations or self.default_acts
        return [activation(n, attrs.activations_alpha, attrs.activations_beta, i) for i, n in enumerate(names)]


def _clip(x: Array, clip: float) -> Array:
    return np.clip(x, -clip, clip, out=x) if clip > 0 else x


# The types a cell computes in directly (OpenVINO's core reference computes its cells in the element
# type T); any other floating type (f16, bf16) computes in float64 and is rounded back once.
F32, F64 = np.dtype(np.float32), np.dtype(np.float64)
NATIVE = frozenset({F32, F64})
_CANONICAL = {F32: F32, F64: F64}


def work_dtype(dtype: np.dtype) -> np.dtype:
    """The type a cell computes in: the builtin f32/f64 dtype object itself (so `is` can test it)."""
    return _CANONICAL.get(dtype, F64)


def _as(a: Array, dtype: np.dtype) -> Array:
    if a.__class__ is np.ndarray and a.dtype is dtype:  # the hot case, tested cheaply
        return a
    a = np.asarray(a)
    return a if a.dtype == dtype else a.astype(dtype)


def _rows(m: Array, dtype: np.dtype) -> Array:
    """A weight matrix transposed for `x · m`, C-ordered: numpy's vector-matrix product (the step's
    h·Rᵀ of one batch row) reads it about 10 % faster (measured with hidden size 256) than the
    transposed view of the row-major [gates, hidden] weights, and its row blocks (`wt`, `rt` of a
    stacked matrix) are C-ordered too (np.dot runs a strided block ~10x slower, without BLAS). The
    copy costs `prepare` ~0.45 ms for a hidden-256 LSTM (up to ~3 ms on fresh memory; the transposed
    views cost 0.17 ms but made the step ~10 % slower): paid once per layer where the interpreter
    keeps prepared cells across runs, and on every `compute`."""
    return np.ascontiguousarray(_as(m, dtype).T)


def _dot(x: Array, m: Array) -> Array:
    """x · m: `np.dot` for the matrix x a cell receives (a third of `np.matmul`'s per-call overhead),
    `np.matmul` for anything else (as before)."""
    return np.dot(x, m) if x.ndim == 2 else np.matmul(x, m)


class CellKernel:
    """One cell with its weights prepared once (cast to the type it computes in, transposed, gates
    reordered where that saves calls). A time step is `step(project(x), args)`: `project` is the
    input projection x·Wᵀ, which a loop whose x is known for every iteration in advance may compute
    for all of them in one matrix product (`irlint.interp.loops`); `__call__` is one ordinary step.
    `compute` and the prepared kernel are the same object, so they give the same bits. The step's
    in-place ufuncs take `out` positionally (a keyword costs more per call on these small arrays)."""

    dtype: np.dtype
    wt: Array
    # [Wᵀ; Rᵀ] stacked (wt and rt are its two blocks) for cells whose ordinary step computes
    # x·Wᵀ + h·Rᵀ as one product [x, h]·[Wᵀ; Rᵀ] (`joint`); None for the others.
    wrt: Array | None = None

    def stack(self, w: Array, r: Array) -> None:
        """Set `wrt`, `wt` and `rt` from W [gates, input] and R [gates, hidden] (already in `dtype`)."""
        self.wrt = _rows(np.concatenate((w, r), 1), self.dtype)
        self.wt, self.rt = self.wrt[:w.shape[1]], self.wrt[w.shape[1]:]

    def joint(self, args: Sequence[Array]) -> Array | None:
        """x·Wᵀ + h·Rᵀ of an ordinary step as one vector-matrix product: one BLAS call over the
        stacked weights instead of two calls and an addition (about 13 % less time for hidden size
        256, input 128); the sums are ordered differently, so the last bits differ from
        `step(project(x), args)`, which hoisted projections take. None for inputs that are not two
        matrices (the two-product path handles, or rejects, them as before)."""
        if self.wrt is None:
            return None
        dtype = self.dtype
        x, h = _as(args[0], dtype), _as(args[1], dtype)
        if x.ndim != 2 or h.ndim != 2:
            return None
        return np.dot(np.concatenate((x, h), 1), self.wrt)

    def project(self, x: Array, out: Array | None = None) -> Array:
        x = _as(x, self.dtype)
        if out is None:
            return _dot(x, self.wt)
        return np.matmul(x, self.wt, out)

    def step(self, xw: Array, args: Sequence[Array]) -> list[Array]:
        raise NotImplementedError

    def gated(self, gates: Array, args: Sequence[Array]) -> list[Array]:
        """The rest of the step from x·Wᵀ + h·Rᵀ (a temporary it may overwrite); cells with `wrt`."""
        raise NotImplementedError

    def __call__(self, args: Sequence[Array]) -> list[Array]:
        gates = self.joint(args)
        return self.step(self.project(args[0]), args) if gates is None else self.gated(gates, args)

    def result(self, y: Array, args: Sequence[Array]) -> Array:
        dtype = args[0].dtype if args[0].__class__ is np.ndarray else np.asarray(args[0]).dtype
        return y if y.dtype is dtype or y.dtype == dtype else y.astype(dtype)


class LSTMKernel(CellKernel):
    """Gates f, i, c, o reordered to f, i, o, c: one activation call for the three sigmoid gates."""

    def __init__(self, attrs: CellAttrs, acts, w: Array, r: Array, b: Array | None) -> None:  # type: ignore[no-untyped-def]
        hs = self.hs = attrs.hidden_size
        self.dtype = dtype = work_dtype(np.asarray(w).dtype)
        order = np.r_[0:2 * hs, 3 * hs:4 * hs, 2 * hs:3 * hs]
        self.stack(_as(w, dtype)[order], _as(r, dtype)[order])
        self.b = _as(b, dtype)[order] if b is not None else np.zeros(4 * hs, dtype)
        self.clip = attrs.clip
        self.acts = acts
        every = slice(None)
        self.sig, self.tanh = (every, slice(0, 3 * hs)), (every, slice(3 * hs, 4 * hs))
        self.f, self.i, self.o = (every, slice(0, hs)), (every, slice(hs, 2 * hs)), (every, slice(2 * hs, 3 * hs))

    def step(self, xw: Array, args: Sequence[Array]) -> list[Array]:
        gates = _dot(_as(args[1], self.dtype), self.rt)
        np.add(xw, gates, gates)  # x·Wᵀ + h·Rᵀ
        return self.gated(gates, args)

    def gated(self, gates: Array, args: Sequence[Array]) -> list[Array]:
        """The rest of the step from x·Wᵀ + h·Rᵀ (a temporary it may overwrite): + B, as the spec's formula."""
        c = _as(args[2], self.dtype)
        f_act, g_act, h_act = self.acts
        np.add(gates, self.b, gates)
        if self.clip > 0:
            _clip(gates, self.clip)
        s = f_act(gates[self.sig])  # f, i, o
        g = g_act(gates[self.tanh])
        c_new = np.multiply(s[self.f], c)
        np.multiply(g, s[self.i], g)
        np.add(c_new, g, c_new)  # f*c + i*g
        h_new = h_act(c_new)
        np.multiply(h_new, s[self.o], h_new)
        return [self.result(h_new, args), self.result(c_new, args)]


class GRUKernel(CellKernel):
    """z and r in one activation call; x·Wᵀ of the three gates in one product."""

    def __init__(self, attrs: GRUAttrs, acts, w: Array, r: Array, b: Array) -> None:  # type: ignore[no-untyped-def]
        hs = self.hs = attrs.hidden_size
        self.dtype = dtype = work_dtype(np.asarray(w).dtype)
        self.wt = _rows(w, dtype)
        r = _as(r, dtype)
        self.rzr, self.rh = _rows(r[:2 * hs], dtype), _rows(r[2 * hs:3 * hs], dtype)
        b = _as(b, dtype)
        self.bzr, self.bh = b[:2 * hs], b[2 * hs:3 * hs]
        self.one = np.ones((), dtype)
        self.lbr = bool(attrs.linear_before_reset)
        self.brh = b[3 * hs:4 * hs] if self.lbr else None
        self.clip = attrs.clip
        self.acts = acts
        every = slice(None)
        self.z, self.r = (every, slice(0, hs)), (every, slice(hs, 2 * hs))
        self.xzr, self.xh = (every, slice(0, 2 * hs)), (every, slice(2 * hs, 3 * hs))

    def step(self, xw: Array, args: Sequence[Array]) -> list[Array]:
        h = _as(args[1], self.dtype)
        f_act, g_act = self.acts
        zr = _dot(h, self.rzr)
        np.add(xw[self.xzr], zr, zr)
        np.add(zr, self.bzr, zr)
        zr = f_act(_clip(zr, self.clip))
        z, rg = zr[self.z], zr[self.r]
        if self.lbr:  # x·Whᵀ + r * (h·Rhᵀ + Rbh) + Wbh
            hh = _dot(h, self.rh)
            np.add(hh, self.brh, hh)
            np.multiply(hh, rg, hh)
        else:  # x·Whᵀ + (r * h)·Rhᵀ + Wbh
            hh = _dot(np.multiply(rg, h), self.rh)
        np.add(xw[self.xh], hh, hh)
        np.add(hh, self.bh, hh)
        hh = g_act(_clip(hh, self.clip))
        h_new = np.subtract(self.one, z)
        np.multiply(h_new, hh, h_new)
        np.add(h_new, np.multiply(z, h), h_new)  # (1 - z) * hh + z * h
        return [self.result(h_new, args)]


class RNNKernel(CellKernel):
    def __init__(self, attrs: CellAttrs, acts, w: Array, r: Array, b: Array) -> None:  # type: ignore[no-untyped-def]
        self.dtype = dtype = work_dtype(np.asarray(w).dtype)
        self.stack(_as(w, dtype), _as(r, dtype))
        self.b = _as(b, dtype)
        self.clip = attrs.clip
        (self.act,) = acts

    def step(self, xw: Array, args: Sequence[Array]) -> list[Array]:
        y = _dot(_as(args[1], self.dtype), self.rt)
        np.add(xw, y, y)
        return self.gated(y, args)

    def gated(self, y: Array, args: Sequence[Array]) -> list[Array]:
        np.add(y, self.b, y)
        return [self.result(self.act(_clip(y, self.clip)), args)]


@register
class LSTMCell(_Cell):
    types = ("LSTMCell",)
    versions = ("opset1", "opset4")
    Attrs = CellAttrs
    arity = (5, 6)
    gates = 4
    default_acts = ("sigmoid", "tanh", "tanh")
    names = ("X", "H", "C", "W", "R", "B")
    n_outputs = 2

    def compute(self, attrs: CellAttrs, inputs: Sequence[Array]) -> list[Array]:
        return self.kernel(attrs, inputs)(inputs)

    def kernel(self, attrs: CellAttrs, weights: Sequence[Array | None]) -> LSTMKernel:
        b = weights[5] if len(weights) > 5 else None
        return LSTMKernel(attrs, self.acts(attrs), weights[3], weights[4], b)  # type: ignore[arg-type]

    def prepare(self, attrs: CellAttrs, consts: Sequence[Array | None]) -> LSTMKernel | None:
        """Constant weights: prepared once instead of every time step."""
        return None if any(c is None for c in consts[3:]) else self.kernel(attrs, consts)


@register
class GRUCell(_Cell):
    types = ("GRUCell",)
    versions = ("opset3",)
    Attrs = GRUAttrs
    arity = (5, 5)
    gates = 3
    default_acts = ("sigmoid", "tanh")

    def bias_size(self, attrs: CellAttrs) -> int:
        return (4 if getattr(attrs, "linear_before_reset", False) else 3) * attrs.hidden_size

    def compute(self, attrs: GRUAttrs, inputs: Sequence[Array]) -> list[Array]:  # type: ignore[override]
        return GRUKernel(attrs, self.acts(attrs), *inputs[2:5])(inputs)

    def prepare(self, attrs: GRUAttrs, consts: Sequence[Array | None]) -> GRUKernel | None:  # type: ignore[override]
        """Constant weights: prepared once instead of every time step."""
        return None if any(c is None for c in consts[2:]) else GRUKernel(attrs, self.acts(attrs), *consts[2:5])  # type: ignore[arg-type]


@register
class RNNCell(_Cell):
    types = ("RNNCell",)
    versions = ("opset1",)
    Attrs = CellAttrs
    arity = (5, 5)

    def compute(self, attrs: CellAttrs, inputs: Sequence[Array]) -> list[Array]:
        return RNNKernel(attrs, self.acts(attrs), *inputs[2:5])(inputs)

    def prepare(self, attrs: CellAttrs, consts: Sequence[Array | None]) -> RNNKernel | None:
        """Constant weights: prepared once instead of every time step."""
        return None if any(c is None for c in consts[2:]) else RNNKernel(attrs, self.acts(attrs), *consts[2:5])  # type: ignore[arg-type]
