"""Multinomial-13: `num_samples` class indices per batch row drawn from (log-)probabilities.

The draws follow OpenVINO's CPU plugin, the only implementation with seeded results: uniform
samples u = float32(w) / float32(2^32 - 1) from std::mt19937 seeded by std::seed_seq{global_seed,
op_seed}, one per output element in row-major order; each row's running sum of probabilities
(of exp(x) with `log_probs`) is divided by its last element (at least FLT_MIN), and a sample
takes the first class whose cumulative value is >= u. Without replacement the drawn class's
probability is removed and the row renormalised after each draw. With both seeds 0 the plugin
seeds from the clock; irlint then seeds from the operating system.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.misc.mt19937 import mt19937_words
from irlint.ops.movement.axes import as_int_array, scalar_value
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim, element_type

f32 = np.float32


@dataclass(frozen=True)
class MultinomialAttrs:
    convert_type: str
    with_replacement: bool
    log_probs: bool
    global_seed: int = 0
    op_seed: int = 0


def _out_type(text: str):
    et = element_type(text)
    if et is None or et.name not in ("i32", "i64"):
        raise OpError(f"Multinomial: convert_type must be i32 or i64, got {text!r}")
    return et


@register
class Multinomial(Op):
    types = ("Multinomial",)
    versions = ("opset13",)
    Attrs = MultinomialAttrs
    arity = (2, 2)

    def infer(self, attrs: MultinomialAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        et = _out_type(attrs.convert_type)
        probs, num = inputs
        if probs.etype is not None and not probs.etype.is_float and not probs.etype.is_dynamic:
            raise OpError(f"Multinomial: probs must be floating-point, got {probs.etype}")
        if probs.shape is not None and len(probs.shape) != 2:
            raise OpError(f"Multinomial: probs must be 2-D [batch, classes], got rank {len(probs.shape)}")
        if num.shape is not None and len(num.shape) > 1:
            raise OpError("Multinomial: num_samples must be a scalar or a one-element 1-D tensor")
        n = scalar_value(num)
        if n is not None and n < 0:
            raise OpError(f"Multinomial: num_samples must be non-negative, got {n}")
        batch = probs.shape[0] if probs.shape is not None else DYNAMIC
        if (not attrs.with_replacement and n is not None and probs.shape is not None and probs.shape[1].is_static
                and n > probs.shape[1].lo):
            raise OpError(f"Multinomial: {n} samples without replacement from {probs.shape[1].lo} classes")
        return [TensorInfo(et, (batch, DYNAMIC if n is None else Dim.of(n)))]

    def compute(self, attrs: MultinomialAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        et = _out_type(attrs.convert_type)
        probs = np.asarray(inputs[0])
        n = as_int_array("Multinomial", "num_samples", inputs[1])[0]
        if probs.ndim != 2:
            raise OpError(f"Multinomial: probs must be 2-D, got rank {probs.ndim}")
        batch, classes = probs.shape
        if not attrs.with_replacement and n > classes:
            raise OpError(f"Multinomial: {n} samples without replacement from {classes} classes")
        seeds = (attrs.global_seed, attrs.op_seed)
        if seeds == (0, 0):
            seeds = (int(np.random.default_rng().integers(1, 2**31)), 0)
        u = mt19937_words(seeds, batch * n).astype(f32) / f32(4294967295.0)
        u = u.reshape(batch, n)
        p = probs.astype(f32)
        cdf = np.cumsum(np.exp(p) if attrs.log_probs else p, axis=1, dtype=f32)
        cdf = cdf / np.maximum(cdf[:, -1:], np.finfo(f32).tiny)
        out = np.zeros((batch, n), np.int64)
        for b in range(batch):
            row = cdf[b].copy()
            for s in range(n):
                hits = np.nonzero(u[b, s] <= row)[0]
                if hits.size == 0 or not np.isfinite(row).all():
                    raise OpError(f"Multinomial: row {b} has no class with probability left for sample {s} "
                                  "(OpenVINO's result is undefined)")
                k = int(hits[0])
                out[b, s] = k
                if not attrs.with_replacement:
                    prob = row[k] - row[k - 1] if k else row[0]
                    row[k:] = row[k:] - prob
                    with np.errstate(divide="ignore", invalid="ignore"):  # an emptied row is caught above
                        row = row / (f32(1) - prob)
        return [out.astype(et.dtype)]
