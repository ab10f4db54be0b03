"""Eye-9: a (batch of) rows x columns matrix with ones on the diagonal shifted by `diagonal_index`.

Inputs: num_rows, num_columns, diagonal_index (scalars or one-element vectors) and an optional 1-D
batch_shape; attribute `output_type`. Output shape: batch_shape + [num_rows, num_columns]. A
diagonal index outside the matrix gives all zeros rather than an error, as in OpenVINO.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from irlint.ops.base import Op, OpError, TensorInfo
from irlint.ops.movement.axes import as_int_array, int_values, vector_length
from irlint.ops.movement.folding import fold
from irlint.ops.registry import register
from irlint.types import DYNAMIC, Dim, element_type

NAMES = ("num_rows", "num_columns", "diagonal_index", "batch_shape")


@dataclass(frozen=True)
class EyeAttrs:
    output_type: str


def _out_type(op: str, text: str):
    et = element_type(text)
    if et is None or et.dtype is None or et.is_dynamic:
        raise OpError(f"{op}: output_type {text!r} is not a numeric element type")
    return et


def _scalar_input(name: str, info: TensorInfo) -> None:
    if info.etype is not None and not info.etype.is_integer and not info.etype.is_dynamic:
        raise OpError(f"Eye: input '{name}' must be an integer tensor, got {info.etype}")
    if info.shape is not None and (len(info.shape) > 1 or (len(info.shape) == 1 and info.shape[0].is_static
                                                           and info.shape[0].lo != 1)):
        raise OpError(f"Eye: input '{name}' must be a scalar or a one-element 1-D tensor")


def _size(name: str, info: TensorInfo) -> Dim:
    vals = int_values(info)
    if vals is None:
        return DYNAMIC
    if vals[0] < 0:
        raise OpError(f"Eye: {name} must be non-negative, got {vals[0]}")
    return Dim.of(vals[0])


@register
class Eye(Op):
    types = ("Eye",)
    versions = ("opset9",)
    Attrs = EyeAttrs
    arity = (3, 4)

    def infer(self, attrs: EyeAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        et = _out_type("Eye", attrs.output_type)
        for name, info in zip(NAMES[:3], inputs[:3], strict=False):
            _scalar_input(name, info)
        matrix = (_size("num_rows", inputs[0]), _size("num_columns", inputs[1]))
        if len(inputs) < 4:
            return fold(self, attrs, inputs, [TensorInfo(et, matrix)])
        batch = inputs[3]
        if batch.shape is not None and len(batch.shape) != 1:
            raise OpError(f"Eye: batch_shape must be 1-D, got rank {len(batch.shape)}")
        vals = int_values(batch)
        if vals is None:
            n = vector_length("Eye", "batch_shape", batch)
            return [TensorInfo(et, None if n is None else (DYNAMIC,) * n + matrix)]
        if any(v < 0 for v in vals):
            raise OpError(f"Eye: batch_shape must be non-negative, got {vals}")
        return fold(self, attrs, inputs, [TensorInfo(et, tuple(Dim.of(v) for v in vals) + matrix)])

    def compute(self, attrs: EyeAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        et = _out_type("Eye", attrs.output_type)
        rows, cols, diag = (as_int_array("Eye", n, a)[0] for n, a in zip(NAMES, inputs[:3], strict=False))
        if rows < 0 or cols < 0:
            raise OpError(f"Eye: num_rows and num_columns must be non-negative, got {rows}, {cols}")
        matrix = np.eye(rows, cols, k=diag, dtype=et.dtype)
        batch = as_int_array("Eye", "batch_shape", inputs[3]) if len(inputs) > 3 else []
        return [np.ascontiguousarray(np.broadcast_to(matrix, (*batch, rows, cols)))]
