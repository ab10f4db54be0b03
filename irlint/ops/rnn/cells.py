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
    return np.clip(x, -clip, clip) if clip > 0 else x


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
        w, r = (np.asarray(a, dtype=np.float64) for a in inputs[3:5])
        b = np.asarray(inputs[5], dtype=np.float64) if len(inputs) > 5 else np.zeros(4 * attrs.hidden_size)
        return self.step(attrs, self.acts(attrs), inputs, w, r, b)

    def step(self, attrs: CellAttrs, acts, inputs: Sequence[Array], w: Array, r: Array, b: Array) -> list[Array]:  # type: ignore[no-untyped-def]
        x, h, c = (np.asarray(a, dtype=np.float64) for a in inputs[:3])
        hs = attrs.hidden_size
        f_act, g_act, h_act = acts
        gates = _clip(x @ w.T + h @ r.T + b, attrs.clip)
        f, i, g, o = (gates[:, k * hs:(k + 1) * hs] for k in range(4))
        c_new = f_act(f) * c + f_act(i) * g_act(g)
        h_new = f_act(o) * h_act(c_new)
        dtype = np.asarray(inputs[0]).dtype
        return [h_new.astype(dtype), c_new.astype(dtype)]

    def prepare(self, attrs: CellAttrs, consts: Sequence[Array | None]):  # type: ignore[no-untyped-def]
        """Constant weights: converted to float64 once instead of every time step."""
        if any(c is None for c in consts[3:]):
            return None
        w, r = (np.asarray(a, dtype=np.float64) for a in consts[3:5])
        b = np.asarray(consts[5], dtype=np.float64) if len(consts) > 5 else np.zeros(4 * attrs.hidden_size)
        acts = self.acts(attrs)
        return lambda args: self.step(attrs, acts, args, w, r, b)


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
        w, r, b = (np.asarray(a, dtype=np.float64) for a in inputs[2:])
        return self.step(attrs, self.acts(attrs), inputs, w, r, b)

    def prepare(self, attrs: GRUAttrs, consts: Sequence[Array | None]):  # type: ignore[no-untyped-def]
        """Constant weights: converted to float64 once instead of every time step."""
        if any(c is None for c in consts[2:]):
            return None
        w, r, b = (np.asarray(a, dtype=np.float64) for a in consts[2:])
        acts = self.acts(attrs)
        return lambda args: self.step(attrs, acts, args, w, r, b)

    def step(self, attrs: GRUAttrs, acts, inputs: Sequence[Array], w: Array, r: Array, b: Array) -> list[Array]:  # type: ignore[no-untyped-def]
        x, h = (np.asarray(a, dtype=np.float64) for a in inputs[:2])
        hs = attrs.hidden_size
        f_act, g_act = acts
        wz, wr, wh = (w[k * hs:(k + 1) * hs] for k in range(3))
        rz, rr, rh = (r[k * hs:(k + 1) * hs] for k in range(3))
        bz, br = b[:hs], b[hs:2 * hs]
        z = f_act(_clip(x @ wz.T + h @ rz.T + bz, attrs.clip))
        rg = f_act(_clip(x @ wr.T + h @ rr.T + br, attrs.clip))
        if attrs.linear_before_reset:
            bwh, brh = b[2 * hs:3 * hs], b[3 * hs:4 * hs]
            hh = g_act(_clip(x @ wh.T + rg * (h @ rh.T + brh) + bwh, attrs.clip))
        else:
            hh = g_act(_clip(x @ wh.T + (rg * h) @ rh.T + b[2 * hs:3 * hs], attrs.clip))
        h_new = (1 - z) * hh + z * h
        return [h_new.astype(np.asarray(inputs[0]).dtype)]


@register
class RNNCell(_Cell):
    types = ("RNNCell",)
    versions = ("opset1",)
    Attrs = CellAttrs
    arity = (5, 5)

    def compute(self, attrs: CellAttrs, inputs: Sequence[Array]) -> list[Array]:
        w, r, b = (np.asarray(a, dtype=np.float64) for a in inputs[2:])
        return self.step(attrs, self.acts(attrs), inputs, w, r, b)

    def prepare(self, attrs: CellAttrs, consts: Sequence[Array | None]):  # type: ignore[no-untyped-def]
        """Constant weights: converted to float64 once instead of every time step."""
        if any(c is None for c in consts[2:]):
            return None
        w, r, b = (np.asarray(a, dtype=np.float64) for a in consts[2:])
        acts = self.acts(attrs)
        return lambda args: self.step(attrs, acts, args, w, r, b)

    def step(self, attrs: CellAttrs, acts, inputs: Sequence[Array], w: Array, r: Array, b: Array) -> list[Array]:  # type: ignore[no-untyped-def]
        x, h = (np.asarray(a, dtype=np.float64) for a in inputs[:2])
        (f_act,) = acts
        h_new = f_act(_clip(x @ w.T + h @ r.T + b, attrs.clip))
        return [h_new.astype(np.asarray(inputs[0]).dtype)]
