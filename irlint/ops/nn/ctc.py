"""CTCGreedyDecoderSeqLen-6 and CTCGreedyDecoder-1: best class per step, repeats merged, blanks
dropped, rows left-aligned.

As the reference kernel: steps at or after a row's sequence length are ignored; with
`merge_repeated` a step equal to the previous step's class (blank included) is dropped; the
decoded classes are packed to the left and the rest of the row is -1. CTCGreedyDecoder-1 reads
time-major logits [T, N, C] with a [T, N] mask (a row ends at its first 0), the blank is the last
class, and the output is float [N, T, 1, 1].
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.axes import scalar_value
from irlint.ops.movement.dims import merge
from irlint.ops.registry import register
from irlint.types import DYNAMIC, I32, I64, Dim, ElementType, element_type, format_shape, static_shape


@dataclass(frozen=True)
class GreedyAttrs:
    merge_repeated: bool = True
    classes_index_type: str = "i32"
    sequence_length_type: str = "i32"


def _int_type(name: str, text: str) -> ElementType:
    et = element_type(text)
    if et not in (I32, I64):
        raise OpError(f"CTCGreedyDecoderSeqLen: {name}={text!r} must be i32 or i64")
    return et


@register
class CTCGreedyDecoderSeqLen(Op):
    types = ("CTCGreedyDecoderSeqLen",)
    versions = ("opset6",)
    Attrs = GreedyAttrs
    arity = (2, 3)

    def infer(self, attrs: GreedyAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        op = "CTCGreedyDecoderSeqLen"
        classes_t = _int_type("classes_index_type", attrs.classes_index_type)
        lengths_t = _int_type("sequence_length_type", attrs.sequence_length_type)
        data, lengths = inputs[:2]
        if data.etype is not None and not data.etype.is_dynamic and not data.etype.is_float:
            raise OpError(f"{op}: data must be floating-point, got {data.etype}")
        if lengths.etype is not None and not lengths.etype.is_integer:
            raise OpError(f"{op}: sequence_length must be integers, got {lengths.etype}")
        if data.shape is not None and len(data.shape) != 3:
            raise OpError(f"{op}: data {format_shape(data.shape)} must be [N, T, C]")
        if lengths.shape is not None and len(lengths.shape) != 1:
            raise OpError(f"{op}: sequence_length {format_shape(lengths.shape)} must be 1-D")
        if len(inputs) > 2 and data.shape is not None and data.shape[2].is_static:
            blank = scalar_value(inputs[2])
            if blank is not None and not 0 <= blank < data.shape[2].lo:
                raise OpError(f"{op}: blank_index {blank} is outside [0, {data.shape[2].lo - 1}]")
        n = DYNAMIC if data.shape is None else data.shape[0]
        if lengths.shape is not None:
            m = merge(n, lengths.shape[0])
            if m is None:
                raise OpError(f"{op}: data has {n} rows, sequence_length {lengths.shape[0]}")
            n = m
        t = DYNAMIC if data.shape is None else data.shape[1]
        return [TensorInfo(classes_t, (n, t)), TensorInfo(lengths_t, (n,))]

    def compute(self, attrs: GreedyAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        data, lengths = np.asarray(inputs[0]), np.asarray(inputs[1]).astype(np.int64)
        outs = self.infer(attrs, [TensorInfo(None, static_shape(np.shape(a)), np.asarray(a) if i == 2 else None)
                                  for i, a in enumerate(inputs)])
        _, steps, classes = data.shape
        blank = int(np.asarray(inputs[2]).reshape(-1)[0]) if len(inputs) > 2 else classes - 1
        if lengths.size and (lengths.min() < 0 or lengths.max() > steps):
            raise OpError(f"CTCGreedyDecoderSeqLen: sequence lengths {lengths.tolist()} must lie in [0, {steps}]")
        best = np.argmax(data, axis=2)
        decoded, count = _greedy(best, np.arange(steps)[None, :] < lengths[:, None], blank, attrs.merge_repeated)
        return [decoded.astype(outs[0].etype.dtype), count.astype(outs[1].etype.dtype)]  # type: ignore[union-attr]


def _greedy(best: np.ndarray, valid: np.ndarray, blank: int, merge_repeated: bool) -> tuple[np.ndarray, np.ndarray]:
    """Left-packed decoded classes [N, T] (-1 after the end) and their counts for argmax classes [N, T]."""
    steps = best.shape[1]
    keep = valid & (best != blank)
    if merge_repeated:
        same = np.zeros_like(keep)
        same[:, 1:] = best[:, 1:] == best[:, :-1]
        keep &= ~same
    order = np.argsort(~keep, axis=1, kind="stable")
    count = keep.sum(axis=1)
    decoded = np.where(np.arange(steps)[None, :] < count[:, None], np.take_along_axis(best, order, axis=1), -1)
    return decoded, count


@dataclass(frozen=True)
class GreedyV1Attrs:
    ctc_merge_repeated: bool = True


@register
class CTCGreedyDecoder(Op):
    types = ("CTCGreedyDecoder",)
    versions = ("opset1",)
    Attrs = GreedyV1Attrs
    arity = (2, 2)
    infer_reads_values = False

    def infer(self, attrs: GreedyV1Attrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data, mask = inputs
        if data.etype is not None and not data.etype.is_dynamic and not data.etype.is_float:
            raise OpError(f"CTCGreedyDecoder: data must be floating-point, got {data.etype}")
        if data.shape is not None and len(data.shape) != 3:
            raise OpError(f"CTCGreedyDecoder: data {format_shape(data.shape)} must be [T, N, C]")
        if mask.shape is not None and len(mask.shape) != 2:
            raise OpError(f"CTCGreedyDecoder: sequence mask {format_shape(mask.shape)} must be [T, N]")
        steps, batch = (DYNAMIC, DYNAMIC) if data.shape is None else data.shape[:2]
        if mask.shape is not None:
            merged = [merge(a, b) for a, b in zip((steps, batch), mask.shape)]
            if None in merged:
                raise OpError(f"CTCGreedyDecoder: data {format_shape(data.shape)} and mask "
                              f"{format_shape(mask.shape)} disagree on [T, N]")
            steps, batch = merged  # type: ignore[assignment]
        return [TensorInfo(data.etype, (batch, steps, Dim.of(1), Dim.of(1)))]

    def compute(self, attrs: GreedyV1Attrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        data, mask = np.asarray(inputs[0]), np.asarray(inputs[1])
        self.infer(attrs, [TensorInfo(None, static_shape(a.shape)) for a in (data, mask)])
        steps, _, classes = data.shape
        best = np.argmax(data, axis=2).T  # [N, T]
        valid = np.cumprod(mask.T != 0, axis=1).astype(bool)  # a row ends at its first 0
        decoded, _ = _greedy(best, valid, classes - 1, attrs.ctc_merge_repeated)
        return [decoded.astype(data.dtype).reshape(-1, steps, 1, 1)]
