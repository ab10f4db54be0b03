"""CTCLoss-4: the negative log-likelihood of each label sequence under per-frame class scores.

Same sums as the reference kernel's path enumeration, computed with the forward (alpha) recursion
in log space, one vectorised step per frame:
- `ctc_merge_repeated` (the usual CTC): a label may span several frames, blanks may separate
  labels and must separate equal neighbours;
- without it, every label takes exactly one frame and all other frames are blank.
Labels are first reduced to their first occurrences (`unique`) or have repeats collapsed
(`preprocess_collapse_repeated`). An empty label sequence gives loss 0, as in the reference.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.dims import merge
from irlint.ops.registry import register
from irlint.types import DYNAMIC, format_shape

NEG_INF = -np.inf


@dataclass(frozen=True)
class CTCLossAttrs:
    preprocess_collapse_repeated: bool = False
    ctc_merge_repeated: bool = True
    unique: bool = False


def _decode(labels: np.ndarray, attrs: CTCLossAttrs) -> list[int]:
    out: list[int] = []
    for v in (int(x) for x in labels):
        if attrs.unique:
            if v not in out:
                out.append(v)
        elif attrs.preprocess_collapse_repeated and out and out[-1] == v:
            continue
        else:
            out.append(v)
    return out


def _loss(logp: np.ndarray, target: list[int], blank: int, merge_repeated: bool) -> float:
    """-log P(target) for log-probabilities logp [T, C]."""
    steps = logp.shape[0]
    n = len(target)
    if n == 0:
        return 0.0
    if not merge_repeated:
        lab = logp[:, target]  # [T, L]
        alpha = np.full(n + 1, NEG_INF)
        alpha[0] = 0.0
        for t in range(steps):
            shifted = np.concatenate([[NEG_INF], alpha[:-1] + lab[t]])
            alpha = np.logaddexp(alpha + logp[t, blank], shifted)
        return -float(alpha[n])
    ext = np.full(2 * n + 1, blank)
    ext[1::2] = target
    can_skip = np.zeros(2 * n + 1, bool)
    can_skip[3::2] = np.array(target[1:]) != np.array(target[:-1])
    alpha = np.full(2 * n + 1, NEG_INF)
    alpha[0] = logp[0, blank]
    alpha[1] = logp[0, target[0]]
    for t in range(1, steps):
        one = np.concatenate([[NEG_INF], alpha[:-1]])
        two = np.where(can_skip, np.concatenate([[NEG_INF, NEG_INF], alpha[:-2]]), NEG_INF)
        alpha = np.logaddexp(np.logaddexp(alpha, one), two) + logp[t, ext]
    return -float(np.logaddexp(alpha[-1], alpha[-2]))


@register
class CTCLoss(Op):
    types = ("CTCLoss",)
    versions = ("opset4",)
    Attrs = CTCLossAttrs
    arity = (4, 5)
    infer_reads_values = False

    def infer(self, attrs: CTCLossAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = "CTCLoss"
        logits = inputs[0]
        if logits.etype is not None and not logits.etype.is_dynamic and not logits.etype.is_float:
            raise OpError(f"{op}: logits must be floating-point, got {logits.etype}")
        for name, t in zip(("logit_length", "labels", "label_length", "blank_index"), inputs[1:]):
            if t.etype is not None and not t.etype.is_integer:
                raise OpError(f"{op}: {name} must be integers, got {t.etype}")
        ranks = {"logits": 3, "logit_length": 1, "labels": 2, "label_length": 1, "blank_index": 0}
        batch = DYNAMIC
        for name, t in zip(ranks, inputs):
            if t.shape is None:
                continue
            if len(t.shape) != ranks[name]:
                raise OpError(f"{op}: {name} {format_shape(t.shape)} must have rank {ranks[name]}")
            if ranks[name]:
                m = merge(batch, t.shape[0])
                if m is None:
                    raise OpError(f"{op}: {name} {format_shape(t.shape)} disagrees on the batch size {batch}")
                batch = m
        if logits.shape is not None and inputs[2].shape is not None and merge(
                logits.shape[1], inputs[2].shape[1]) is None:
            raise OpError(f"{op}: labels {format_shape(inputs[2].shape)} must have as many columns as logits "
                          f"{format_shape(logits.shape)} have frames")
        return [TensorInfo(logits.etype, (batch,))]

    def compute(self, attrs: CTCLossAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        logits = np.asarray(inputs[0])
        logit_len, labels, label_len = (np.asarray(a).astype(np.int64) for a in inputs[1:4])
        n, steps, classes = logits.shape
        blank = int(np.asarray(inputs[4]).reshape(-1)[0]) if len(inputs) > 4 else classes - 1
        if not 0 <= blank < classes:
            raise OpError(f"CTCLoss: blank_index {blank} is outside [0, {classes - 1}]")
        x = logits.astype(np.float64)
        logp = x - np.log(np.sum(np.exp(x - x.max(axis=2, keepdims=True)), axis=2, keepdims=True)) \
            - x.max(axis=2, keepdims=True)
        out = np.empty(n, np.float64)
        for b in range(n):  # the recursion runs over frames; each batch row has its own lengths
            t_len, l_len = int(logit_len[b]), int(label_len[b])
            if not 0 <= l_len <= t_len <= steps:
                raise OpError(f"CTCLoss: row {b}: label length {l_len} and logit length {t_len} must satisfy "
                              f"0 <= label <= logit <= {steps}")
            target = _decode(labels[b, :l_len], attrs)
            if any(not 0 <= v < classes for v in target):
                raise OpError(f"CTCLoss: row {b}: a label is outside [0, {classes - 1}]")
            out[b] = _loss(logp[b, :t_len], target, blank, attrs.ctc_merge_repeated) if t_len else 0.0
        return [out.astype(logits.dtype)]
