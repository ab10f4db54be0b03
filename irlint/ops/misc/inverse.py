"""Inverse-14: the inverse of each square matrix in the last two dims (of its transpose with `adjoint`).

Computed by LU in float64 and returned in the input's type; a singular matrix gives OpenVINO's
reference no defined result, so irlint reports it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.dims import merge
from irlint.ops.registry import register


@dataclass(frozen=True)
class InverseAttrs:
    adjoint: bool = False


@register
class Inverse(Op):
    types = ("Inverse",)
    versions = ("opset14",)
    Attrs = InverseAttrs
    infer_reads_values = False

    def infer(self, attrs: InverseAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        data = inputs[0]
        if data.etype is not None and not data.etype.is_float and not data.etype.is_dynamic:
            raise OpError(f"Inverse: expects a floating-point tensor, got {data.etype}")
        if data.shape is None:
            return [TensorInfo(data.etype, None)]
        if len(data.shape) < 2:
            raise OpError(f"Inverse: input must have rank >= 2, got {len(data.shape)}")
        if merge(data.shape[-2], data.shape[-1]) is None:
            raise OpError(f"Inverse: matrices must be square, got {data.shape[-2]} x {data.shape[-1]}")
        return [TensorInfo(data.etype, data.shape)]  # as OpenVINO: the two dims are not merged

    def compute(self, attrs: InverseAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        x = np.asarray(inputs[0])
        self.infer(attrs, [TensorInfo(None, None)])
        if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
            raise OpError(f"Inverse: matrices must be square, got shape {list(x.shape)}")
        m = x.astype(np.float64)
        if attrs.adjoint:
            m = np.swapaxes(m, -1, -2)
        try:
            inv = np.linalg.inv(m)
        except np.linalg.LinAlgError:
            raise OpError("Inverse: a matrix is singular") from None
        return [inv.astype(x.dtype)]
