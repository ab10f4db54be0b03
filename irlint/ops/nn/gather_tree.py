"""GatherTree-1: the final beams of a beam search, traced back through the parent ids.

As the reference kernel (TensorFlow's gather_tree): for each batch row and beam, steps at or past
min(max_seq_len, T) are end_token; the last valid step keeps its own id and earlier steps follow
the parents backwards; after the first end_token the rest of the beam becomes end_token.
Vectorised over batch and beam; the walk goes over time steps.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.movement.dims import merge, merge_shapes
from irlint.ops.registry import register
from irlint.types import format_shape


@register
class GatherTree(Op):
    types = ("GatherTree",)
    versions = ("opset1",)
    Attrs = NoAttrs
    arity = (4, 4)
    infer_reads_values = False

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = "GatherTree"
        step, parent, max_len, end = inputs
        etype = None
        for name, t in zip(("step_ids", "parent_ids", "max_seq_len", "end_token"), inputs):
            if etype is not None and t.etype is not None and t.etype != etype:
                raise OpError(f"{op}: {name} is {t.etype} but the other inputs are {etype}")
            etype = etype or t.etype
        for name, t, rank in (("step_ids", step, 3), ("parent_ids", parent, 3), ("max_seq_len", max_len, 1),
                              ("end_token", end, 0)):
            if t.shape is not None and len(t.shape) != rank:
                raise OpError(f"{op}: {name} {format_shape(t.shape)} must have rank {rank}")
        shape = merge_shapes(op, step.shape, parent.shape, "step_ids and parent_ids")
        if shape is not None and max_len.shape is not None and merge(shape[1], max_len.shape[0]) is None:
            raise OpError(f"{op}: max_seq_len {format_shape(max_len.shape)} must have one value per batch row "
                          f"({shape[1]})")
        return [TensorInfo(step.etype or etype, shape)]

    def compute(self, attrs: NoAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        step, parent, max_len, end = (np.asarray(a) for a in inputs)
        steps, batch, beams = step.shape
        if parent.shape != step.shape or max_len.shape != (batch,) or end.size != 1:
            raise OpError("GatherTree: inputs must be step_ids [T, B, W], parent_ids [T, B, W], max_seq_len [B] "
                          "and a scalar end_token")
        end_v = end.reshape(()).item()
        lengths = np.minimum(max_len.astype(np.int64), steps)  # truncation as the reference's cast
        out = np.full(step.shape, end_v, step.dtype)
        b = np.arange(batch)[:, None]
        cur = np.broadcast_to(np.arange(beams), (batch, beams)).copy()
        active = np.zeros((batch, beams), bool)
        for t in range(steps - 1, -1, -1):  # walk back from the last step of every beam at once
            starts = (lengths - 1 == t)[:, None] & np.ones((batch, beams), bool)
            cur = np.where(starts, np.arange(beams)[None, :], cur)
            active |= starts
            ids = step[t, b, cur]
            out[t] = np.where(active, ids, out[t])
            nxt = parent[t, b, cur].astype(np.int64)
            if active.any() and ((nxt[active] < 0) | (nxt[active] >= beams)).any():
                raise OpError(f"GatherTree: a parent id at step {t} is outside [0, {beams - 1}]")
            cur = np.where(active, np.clip(nxt, 0, beams - 1), cur)
        finished = np.cumsum(out == end_v, axis=0) > 0
        after_first = finished & ~((out == end_v) & (np.cumsum(out == end_v, axis=0) == 1))
        out = np.where(after_first & (np.arange(steps)[:, None, None] < lengths[None, :, None]), end_v, out)
        return [out]
