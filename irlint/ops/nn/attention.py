"""ScaledDotProductAttention-13: softmax(Q K^T * scale + bias) V, with causal or given masks.

As the opset pseudo-code: `scale` defaults to 1/sqrt(E); `causal` masks keys after the query's
position (top-left aligned, mask input ignored); a boolean mask blocks where it is false, any
other mask is added; an optional sink input is a per-row extra logit that takes part in the
softmax and is dropped after it. Batch dims of Q, K, V and the mask broadcast (numpy rules).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.dims import broadcast_shapes, merge
from irlint.ops.registry import register
from irlint.types import format_shape, static_shape


@dataclass(frozen=True)
class SDPAAttrs:
    causal: bool = False


@register
class ScaledDotProductAttention(Op):
    types = ("ScaledDotProductAttention",)
    versions = ("opset13",)
    Attrs = SDPAAttrs
    arity = (3, 6)
    infer_reads_values = False

    def infer(self, attrs: SDPAAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = "ScaledDotProductAttention"
        q, k, v = inputs[:3]
        etype = q.etype
        for name, t in (("key", k), ("value", v)):
            if etype is not None and t.etype is not None and t.etype != etype:
                raise OpError(f"{op}: {name} is {t.etype} but query is {etype}")
        if etype is not None and not etype.is_dynamic and not etype.is_float:
            raise OpError(f"{op}: query must be floating-point, got {etype}")
        if len(inputs) > 4 and inputs[4].shape is not None and len(inputs[4].shape) > 1:
            raise OpError(f"{op}: scale must be a scalar or 1-D of one element, got {format_shape(inputs[4].shape)}")
        if q.shape is None or k.shape is None or v.shape is None:
            return [TensorInfo(etype, None)]
        for name, t in (("query", q), ("key", k), ("value", v)):
            if len(t.shape) < 3:  # type: ignore[arg-type]
                raise OpError(f"{op}: {name} {format_shape(t.shape)} needs rank >= 3 ([N, ..., seq, features])")
        if merge(q.shape[-1], k.shape[-1]) is None:
            raise OpError(f"{op}: query {format_shape(q.shape)} and key {format_shape(k.shape)} differ in the "
                          "feature dim E")
        if merge(k.shape[-2], v.shape[-2]) is None:
            raise OpError(f"{op}: key {format_shape(k.shape)} and value {format_shape(v.shape)} differ in the "
                          "source length S")
        batch = broadcast_shapes(op, broadcast_shapes(op, q.shape[:-2], k.shape[:-2]), v.shape[:-2])
        assert batch is not None
        if len(inputs) > 3 and not attrs.causal and inputs[3].shape is not None:
            broadcast_shapes(op, (*batch, q.shape[-2], k.shape[-2]), inputs[3].shape)
        return [TensorInfo(etype, (*batch, q.shape[-2], v.shape[-1]))]

    def compute(self, attrs: SDPAAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        q = np.asarray(inputs[0])
        self.infer(attrs, [TensorInfo(None, static_shape(np.shape(a))) for a in inputs])
        qf, kf, vf = (np.asarray(a, np.float64) for a in inputs[:3])
        if len(inputs) > 4:
            scale = float(np.asarray(inputs[4], np.float64).reshape(-1)[0])
        else:
            scale = 1.0 / np.sqrt(q.shape[-1])
        logits = np.matmul(qf, np.swapaxes(kf, -1, -2)) * scale
        length, source = logits.shape[-2:]
        if attrs.causal:
            logits = np.where(np.triu(np.ones((length, source), bool), k=1), -np.inf, logits)
        elif len(inputs) > 3:
            mask = np.asarray(inputs[3])
            logits = np.where(mask, logits, -np.inf) if mask.dtype == np.bool_ else logits + mask.astype(np.float64)
        with np.errstate(invalid="ignore", over="ignore"):
            if len(inputs) > 5:
                sink = np.broadcast_to(np.asarray(inputs[5], np.float64), (*logits.shape[:-1], 1))
                logits = np.concatenate([logits, sink], axis=-1)
            top = np.max(logits, axis=-1, keepdims=True)
            e = np.exp(logits - top)
            weights = e / e.sum(axis=-1, keepdims=True)
        if len(inputs) > 5:
            weights = weights[..., :-1]
        return [np.matmul(weights, vf).astype(q.dtype)]
