"""C++'s std::mt19937 seeded through std::seed_seq, for kernels that OpenVINO's CPU plugin draws from it.

Both algorithms are fixed by the C++ standard ([rand.util.seedseq], [rand.eng.mers]), so the
words produced here are those of any conforming standard library.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

M32 = 0xFFFFFFFF
N, M = 624, 397


def seed_seq_generate(seeds: Sequence[int], n: int = N) -> list[int]:
    """std::seed_seq(seeds).generate() of `n` 32-bit words (each seed is truncated to 32 bits)."""
    v = [s & M32 for s in seeds]
    s = len(v)
    b = [0x8B8B8B8B] * n
    t = 11 if n >= 623 else 7 if n >= 68 else 5 if n >= 39 else 3 if n >= 7 else (n - 1) // 2
    p = (n - t) // 2
    q = p + t
    m = max(s + 1, n)

    def mix(x: int) -> int:
        return x ^ (x >> 27)

    for k in range(m):
        r1 = (1664525 * mix(b[k % n] ^ b[(k + p) % n] ^ b[(k - 1) % n])) & M32
        extra = s if k == 0 else (k % n + v[k - 1] if k <= s else k % n)
        r2 = (r1 + extra) & M32
        b[(k + p) % n] = (b[(k + p) % n] + r1) & M32
        b[(k + q) % n] = (b[(k + q) % n] + r2) & M32
        b[k % n] = r2
    for k in range(m, m + n):
        r3 = (1566083941 * mix((b[k % n] + b[(k + p) % n] + b[(k - 1) % n]) & M32)) & M32
        r4 = (r3 - (k % n)) & M32
        b[(k + p) % n] ^= r3
        b[(k + q) % n] ^= r4
        b[k % n] = r4
    return b


def mt19937_words(seeds: Sequence[int], count: int) -> np.ndarray:
    """The first `count` outputs of std::mt19937 seeded with std::seed_seq(seeds)."""
    state = seed_seq_generate(seeds)
    if state[0] & 0x80000000 == 0 and not any(state[1:]):
        state[0] = 0x80000000
    out = np.empty(count, np.uint32)
    words = _outputs(state)
    for i in range(count):
        out[i] = next(words)
    return out


def _outputs(mt: list[int]) -> Iterator[int]:
    while True:
        for i in range(N):
            y = (mt[i] & 0x80000000) | (mt[(i + 1) % N] & 0x7FFFFFFF)
            mt[i] = mt[(i + M) % N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        for y in mt:
            y ^= y >> 11
            y ^= (y << 7) & 0x9D2C5680
            y ^= (y << 15) & 0xEFC60000
            y ^= y >> 18
            yield y & M32
