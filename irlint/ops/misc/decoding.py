"""Sequence decoding: GatherTree-1 (beam-search backtracking) and CTCGreedyDecoder-1.

GatherTree walks each beam back from its last step through `parent_idx`, so output step t holds
the token the finally chosen path had there; steps past `max_seq_len` and after the first
`end_token` become `end_token`. CTCGreedyDecoder takes the best class per step while the
sequence mask is 1, drops the blank class (the last one) and, with `merge_repeated`, repeats of the
previous step's class; the output [N, T, 1, 1] holds the classes, then -1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.math.elementwise import same_etype
from irlint.ops.movement.dims import merge_shapes
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim


@register
class GatherTree(Op):
    types = ("GatherTree",)
    versions = ("opset1",)
    arity = (4, 4)
    infer_reads_values = False

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        step, parent, max_len, end = inputs
        etype = same_etype("GatherTree", inputs)
        for name, info, rank in (("step_ids", step, 3), ("parent_idx", parent, 3), ("max_seq_len", max_len, 1)):
            if info.shape is not None and len(info.shape) != rank:
                raise OpError(f"GatherTree: {name} must have rank {rank}, got {len(info.shape)}")
        if end.shape is not None and len(end.shape) != 0:
            raise OpError("GatherTree: end_token must be a scalar")
        shape = merge_shapes("GatherTree", step.shape, parent.shape, "step_ids and parent_idx")
        if shape is not None and max_len.shape is not None:
            merge_shapes("GatherTree", shape[1:2], max_len.shape, "batch of step_ids and max_seq_len")
        return [TensorInfo(etype or step.etype, shape)]

    def compute(self, attrs: NoAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        step, parent, max_len, end = (np.asarray(a) for a in inputs)
        t_max, batch, beams = step.shape
        if parent.shape != step.shape or max_len.shape != (batch,):
            raise OpError("GatherTree: step_ids, parent_idx and max_seq_len shapes disagree")
        end_token = end.reshape(())
        out = np.empty_like(step)
        for b in range(batch):
            length = int(min(t_max, max_len[b]))
            for k in range(beams):
                out[length:, b, k] = end_token
                if length == 0:
                    continue
                out[length - 1, b, k] = step[length - 1, b, k]
                p = int(parent[length - 1, b, k])
                for t in range(length - 2, -1, -1):
                    if not 0 <= p < beams:
                        raise OpError(f"GatherTree: parent index {p} is outside [0, {beams - 1}]")
                    out[t, b, k] = step[t, b, p]
                    p = int(parent[t, b, p])
                finished = False
                for t in range(length):
                    if finished:
                        out[t, b, k] = end_token
                    elif out[t, b, k] == end_token:
                        finished = True
        return [out]


@dataclass(frozen=True)
class CTCGreedyDecoderAttrs:
    ctc_merge_repeated: bool = True


@register
class CTCGreedyDecoder(Op):
    types = ("CTCGreedyDecoder",)
    versions = ("opset1",)
    Attrs = CTCGreedyDecoderAttrs
    arity = (2, 2)
    infer_reads_values = False

    def infer(self, attrs: CTCGreedyDecoderAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, mask = inputs
        if data.etype is not None and not data.etype.is_float and not data.etype.is_dynamic:
            raise OpError(f"CTCGreedyDecoder: data must be floating-point, got {data.etype}")
        if data.shape is not None and len(data.shape) != 3:
            raise OpError(f"CTCGreedyDecoder: data must be 3-D [T, N, C], got rank {len(data.shape)}")
        if mask.shape is not None and len(mask.shape) != 2:
            raise OpError(f"CTCGreedyDecoder: sequence_mask must be 2-D [T, N], got rank {len(mask.shape)}")
        tn = merge_shapes("CTCGreedyDecoder", None if data.shape is None else data.shape[:2], mask.shape,
                          "[T, N] of data and sequence_mask")
        t, n = tn if tn is not None else (DYNAMIC, DYNAMIC)
        return [TensorInfo(data.etype, (n, t, Dim.of(1), Dim.of(1)))]

    def compute(self, attrs: CTCGreedyDecoderAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        data, mask = np.asarray(inputs[0]), np.asarray(inputs[1])
        t_max, batch, classes = data.shape
        if mask.shape != (t_max, batch):
            raise OpError(f"CTCGreedyDecoder: sequence_mask shape {list(mask.shape)} is not [T, N] = "
                          f"{[t_max, batch]}")
        best = data.argmax(axis=2)
        out = np.full((batch, t_max, 1, 1), -1, data.dtype)
        for b in range(batch):
            k, prev = 0, -1
            for t in range(t_max):
                if mask[t, b] == 0:
                    break
                c = int(best[t, b])
                if c != classes - 1 and not (attrs.ctc_merge_repeated and c == prev):
                    out[b, k] = c
                    k += 1
                prev = c
        return [out]
