"""RandomUniform-8: seeded uniform random numbers in [min, max), bit-exact with OpenVINO's CPU plugin.

The generator is Philox-4x32 with 10 rounds (Salmon et al., "Parallel random numbers: as easy as
1, 2, 3"), keyed by `global_seed` and counting blocks: block n uses the counter
(n low, n high, op_seed low, op_seed high) and yields four 32-bit words, one per element. Floats
take a word's low 23 bits as the mantissa of a float32 in [1, 2), minus 1, scaled to [min, max)
with one rounding (f16 is computed in float32 and rounded, f64 scales the float32 unit in double);
integers are word % (max - min) + min. This is the CPU plugin's stateless reading; OpenVINO's core
reference advances its key between blocks (so differs from the fifth element on) and draws two
words per 64-bit element, and irlint follows the plugin (docs/semantics.md). With both seeds 0
OpenVINO draws a non-deterministic sequence; irlint then seeds from the operating system, so such
outputs cannot be compared. `alignment="pytorch"` draws like torch.rand instead: a Mersenne twister
seeded with global_seed (op_seed unused), a float's unit being its word's low 24 bits / 2^24.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.misc.mt19937 import _outputs
from irlint.ops.movement.axes import as_int_array, int_values, vector_length
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim, element_type

M32 = np.uint64(0xFFFFFFFF)
KEY_STEP = (np.uint64(0x9E3779B9), np.uint64(0xBB67AE85))
MULT = (np.uint64(0xD2511F53), np.uint64(0xCD9E8D57))
SUPPORTED = ("f32", "f16", "f64", "i32", "i64")


@dataclass(frozen=True)
class RandomUniformAttrs:
    output_type: str
    global_seed: int = 0
    op_seed: int = 0
    alignment: str = "tensorflow"


def philox_words(global_seed: int, op_seed: int, blocks: int) -> np.ndarray:
    """uint32 words of `blocks` Philox-4x32-10 blocks, block-major (4 words per block)."""
    n = np.arange(blocks, dtype=np.uint64)
    c = [n & M32, n >> np.uint64(32), np.full(blocks, op_seed & 0xFFFFFFFF, np.uint64),
         np.full(blocks, (op_seed >> 32) & 0xFFFFFFFF, np.uint64)]
    k0, k1 = np.uint64(global_seed & 0xFFFFFFFF), np.uint64((global_seed >> 32) & 0xFFFFFFFF)
    for r in range(10):
        p0, p1 = MULT[0] * c[0], MULT[1] * c[2]  # 32 x 32 -> 64 bits, no overflow in uint64
        c = [((p1 >> np.uint64(32)) ^ c[1] ^ k0) & M32, p1 & M32, ((p0 >> np.uint64(32)) ^ c[3] ^ k1) & M32,
             p0 & M32]
        if r < 9:
            k0, k1 = (k0 + KEY_STEP[0]) & M32, (k1 + KEY_STEP[1]) & M32
    return np.stack(c, axis=1).reshape(-1).astype(np.uint32)


def _out_type(text: str):
    et = element_type(text)
    if et is None or et.name not in SUPPORTED:
        raise OpError(f"RandomUniform: output_type must be one of {', '.join(SUPPORTED)}, got {text!r}")
    return et


def mersenne_words(seed: int, count: int) -> np.ndarray:
    """The first `count` outputs of a Mersenne twister seeded like PyTorch's (init_genrand(seed))."""
    state = [seed & 0xFFFFFFFF]
    for i in range(1, 624):
        state.append((1812433253 * (state[-1] ^ (state[-1] >> 30)) + i) & 0xFFFFFFFF)
    words = _outputs(state)
    return np.array([next(words) for _ in range(count)], np.uint32)


def uniform(shape: Sequence[int], name: str, lo, hi, global_seed: int, op_seed: int,
            alignment: str = "tensorflow") -> np.ndarray:
    """The RandomUniform output for element type `name` (see the module docstring)."""
    count = int(np.prod(shape, dtype=np.int64))
    if global_seed == 0 and op_seed == 0:
        global_seed = int(np.random.default_rng().integers(1, 2**31))
    pytorch = alignment.lower() == "pytorch"
    if pytorch:
        words = mersenne_words(global_seed, count)
    else:
        words = philox_words(global_seed, op_seed, -(-count // 4))[:count]
    if name in ("i32", "i64"):
        out = words.astype(np.int64) % (int(hi) - int(lo)) + int(lo)
    else:
        if pytorch:  # PyTorch: the low 24 bits over 2^24
            unit = (words & np.uint32(0xFFFFFF)).astype(np.float32) / np.float32(1 << 24)
        else:
            unit = (np.uint32(127 << 23) | (words & np.uint32(0x7FFFFF))).view(np.float32) - np.float32(1)
        if name == "f64":
            out = unit.astype(np.float64) * (float(hi) - float(lo)) + float(lo)
        else:
            span = np.float32(float(hi) - float(lo))
            if pytorch:  # two roundings: (unit * span) then + min
                out = unit * span + np.float32(lo)
            else:  # one rounding of unit * span + min, as the plugin's fused multiply-add gives
                out = (unit.astype(np.float64) * np.float64(span) + np.float64(np.float32(lo))).astype(np.float32)
    return np.asarray(out).reshape(shape)


@register
class RandomUniform(Op):
    types = ("RandomUniform",)
    versions = ("opset8",)
    Attrs = RandomUniformAttrs
    arity = (3, 3)

    def infer(self, attrs: RandomUniformAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        et = _out_type(attrs.output_type)
        if attrs.alignment.lower() not in ("tensorflow", "pytorch"):
            raise OpError(f"RandomUniform: alignment {attrs.alignment!r} is not tensorflow or pytorch")
        shape_in, lo, hi = inputs
        if shape_in.shape is not None and len(shape_in.shape) != 1:
            raise OpError(f"RandomUniform: output_shape must be 1-D, got rank {len(shape_in.shape)}")
        for name, info in (("min_val", lo), ("max_val", hi)):
            if info.etype is not None and not info.etype.is_dynamic and info.etype.name != et.name:
                raise OpError(f"RandomUniform: {name} is {info.etype}, output_type is {et}")
            if info.shape is not None and len(info.shape) > 1:
                raise OpError(f"RandomUniform: {name} must be a scalar or a one-element 1-D tensor")
        lv, hv = lo.value, hi.value
        if lv is not None and hv is not None and not np.asarray(lv).reshape(-1)[0] < np.asarray(hv).reshape(-1)[0]:
            raise OpError("RandomUniform: min_val must be less than max_val")
        vals = int_values(shape_in)
        if vals is None:
            n = vector_length("RandomUniform", "output_shape", shape_in)
            return [TensorInfo(et, None if n is None else (DYNAMIC,) * n)]
        if any(v < 0 for v in vals):
            raise OpError(f"RandomUniform: output_shape {vals} has a negative dim")
        return [TensorInfo(et, tuple(Dim.of(v) for v in vals))]

    def compute(self, attrs: RandomUniformAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        et = _out_type(attrs.output_type)
        shape = as_int_array("RandomUniform", "output_shape", inputs[0])
        lo, hi = (np.asarray(a).reshape(-1)[0] for a in inputs[1:])
        if not lo < hi:
            raise OpError(f"RandomUniform: min_val {lo} must be less than max_val {hi}")
        return [uniform(shape, et.name, lo, hi, attrs.global_seed, attrs.op_seed, attrs.alignment).astype(et.dtype)]
