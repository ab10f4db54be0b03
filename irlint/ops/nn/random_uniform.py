"""RandomUniform-8 with `alignment="tensorflow"`: OpenVINO's Philox4x32-10 stream, vectorised.

Each Philox execution turns (counter n, key = global_seed, op_seed) into four uint32; executions
use n = 0, 1, 2 ... (the state of a first inference), and the whole sequence is computed at once.
float32/float16/bfloat16-free types take one uint32 per value (random mantissa bits in [1, 2)
minus 1, then scaled to [min, max)), float64 and int64 take two, int32 is x % (max - min) + min
with unsigned wrap-around, as the reference converter does. With both seeds 0 the op is
nondeterministic by definition: irlint then draws a fresh key. The `pytorch` alignment (a
Mersenne twister) is not implemented and reported as such.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.axes import int_values, vector_length
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim, element_type

MASK32 = np.uint64(0xFFFFFFFF)
M_N, M_COUNTER = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
KEY_STEP = (np.uint64(0x9E3779B9), np.uint64(0xBB67AE85))
TYPES = ("f32", "f16", "f64", "i32", "i64")


@dataclass(frozen=True)
class RandomUniformAttrs:
    output_type: str
    global_seed: int = 0
    op_seed: int = 0
    alignment: str = "tensorflow"


def philox(executions: int, global_seed: int, op_seed: int) -> np.ndarray:
    """[executions, 4] uint32 words of the reference generator started from state (0, op_seed)."""
    n64 = np.arange(executions, dtype=np.uint64)
    c64 = np.uint64(op_seed)
    n_lo, n_hi = n64 & MASK32, n64 >> np.uint64(32)
    c_lo = np.full(executions, c64 & MASK32, np.uint64)
    c_hi = np.full(executions, c64 >> np.uint64(32), np.uint64)
    k_lo, k_hi = np.uint64(global_seed) & MASK32, np.uint64(global_seed) >> np.uint64(32)
    for r in range(10):
        prod0 = M_N * n_lo
        prod1 = M_COUNTER * c_lo
        n_lo, n_hi, c_lo, c_hi = ((prod1 >> np.uint64(32)) ^ n_hi ^ k_lo, prod1 & MASK32,
                                  (prod0 >> np.uint64(32)) ^ c_hi ^ k_hi, prod0 & MASK32)
        if r < 9:
            k_lo, k_hi = (k_lo + KEY_STEP[0]) & MASK32, (k_hi + KEY_STEP[1]) & MASK32
    return np.stack([n_lo, n_hi, c_lo, c_hi], axis=1).astype(np.uint32)


def _uniform(words: np.ndarray, kind: str, count: int, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    if kind in ("f64", "i64"):
        pairs = words.reshape(-1, 2).astype(np.uint64)[:count]
        a, b = pairs[:, 0], pairs[:, 1]
        if kind == "f64":
            bits = (np.uint64(1023) << np.uint64(52)) | ((a & np.uint64(0xFFFFF)) << np.uint64(32)) | b
            unit = bits.view(np.float64) - 1.0
            return unit * (float(hi) - float(lo)) + float(lo)
        span = np.uint64((int(hi) - int(lo)) % (1 << 64))
        with np.errstate(divide="ignore"):
            v = ((b << np.uint64(32)) + a) % span + np.uint64(int(lo) % (1 << 64))
        return v.view(np.int64)
    x = words.reshape(-1)[:count]
    if kind == "f32":
        f = ((np.uint32(127) << np.uint32(23)) | (x & np.uint32(0x7FFFFF))).view(np.float32) - np.float32(1)
        return f * (np.float32(hi) - np.float32(lo)) + np.float32(lo)
    if kind == "f16":
        h = ((np.uint16(15) << np.uint16(10)) | (x.astype(np.uint16) & np.uint16(0x3FF))).view(np.float16)
        h = h - np.float16(1)
        return h * (np.float16(hi) - np.float16(lo)) + np.float16(lo)
    span = np.uint32((int(hi) - int(lo)) % (1 << 32))
    with np.errstate(divide="ignore", over="ignore"):
        v = x % span + np.uint32(int(lo) % (1 << 32))
    return v.view(np.int32)


@register
class RandomUniform(Op):
    types = ("RandomUniform",)
    versions = ("opset8",)
    Attrs = RandomUniformAttrs
    arity = (3, 3)

    def _kind(self, attrs: RandomUniformAttrs) -> str:
        et = element_type(attrs.output_type)
        if et is None or et.name not in TYPES:
            raise OpError(f"RandomUniform: output_type={attrs.output_type!r} is not one of {', '.join(TYPES)}")
        if attrs.alignment.lower() != "tensorflow":
            raise OpError(f"RandomUniform: alignment={attrs.alignment!r} is not implemented by irlint (tensorflow is)")
        if attrs.global_seed < 0 or attrs.op_seed < 0:
            raise OpError("RandomUniform: seeds must be non-negative")
        return et.name

    def infer(self, attrs: RandomUniformAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        kind = self._kind(attrs)
        shape_in, lo, hi = inputs
        for name, t in (("min_val", lo), ("max_val", hi)):
            if t.etype is not None and t.etype.name != kind:
                raise OpError(f"RandomUniform: {name} is {t.etype} but output_type is {kind}")
        values = int_values(shape_in)
        etype = element_type(kind)
        if values is None:
            n = vector_length("RandomUniform", "shape", shape_in)
            return [TensorInfo(etype, None if n is None else (DYNAMIC,) * n)]
        if any(v < 0 for v in values):
            raise OpError(f"RandomUniform: shape {values} has a negative dim")
        lo_v, hi_v = (None if t.value is None else np.asarray(t.value).reshape(-1)[0] for t in (lo, hi))
        if lo_v is not None and hi_v is not None and not lo_v < hi_v:
            raise OpError(f"RandomUniform: min_val {lo_v} must be below max_val {hi_v}")
        return [TensorInfo(etype, tuple(Dim.of(v) for v in values))]

    def compute(self, attrs: RandomUniformAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        kind = self._kind(attrs)
        shape = [int(v) for v in np.asarray(inputs[0]).reshape(-1)]
        lo, hi = (np.asarray(a).reshape(-1)[0] for a in inputs[1:])
        if not lo < hi:
            raise OpError(f"RandomUniform: min_val {lo} must be below max_val {hi}")
        count = int(np.prod(shape, dtype=np.int64))
        per = 2 if kind in ("f64", "i64") else 4
        executions = -(-count // per)
        global_seed, op_seed = attrs.global_seed, attrs.op_seed
        if global_seed == 0 and op_seed == 0:  # nondeterministic by definition
            global_seed = int(np.random.default_rng().integers(1, 1 << 63))
        words = philox(executions, global_seed, op_seed)
        return [np.asarray(_uniform(words, kind, count, lo, hi)).reshape(shape)]
