"""SparseFillEmptyRows-16: give every empty row of a 2-D sparse tensor one entry [row, 0] = default.

Inputs: values [N], dense_shape [2], indices [N, 2], default_value (scalar). Outputs: the new
indices [M, 2] and values [M] ordered by row (a row's own entries keep their input order, an empty
row gets [row, 0]), and a boolean [rows] marking the rows that were empty. M depends on the
indices, so without their values only a bound is known: N + rows at most.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo
from irlint.ops.movement.axes import as_int_array, int_values
from irlint.ops.registry import register
from irlint.types import BOOL, DYNAMIC, Dim


def _fill(values: np.ndarray, rows: int, cols: int, indices: np.ndarray, default) -> list[np.ndarray]:
    if indices.ndim != 2 or indices.shape[1] != 2 or indices.shape[0] != values.shape[0]:
        raise OpError(f"SparseFillEmptyRows: indices {list(indices.shape)} must be [N, 2] with N = {values.shape[0]}")
    if len(indices) and ((indices < 0).any() or (indices[:, 0] >= rows).any() or (indices[:, 1] >= cols).any()):
        raise OpError(f"SparseFillEmptyRows: an index lies outside the dense shape [{rows}, {cols}]")
    present = np.zeros(rows, bool)
    present[indices[:, 0]] = True
    empty = np.nonzero(~present)[0]
    all_rows = np.concatenate([indices[:, 0], empty])
    all_idx = np.concatenate([indices, np.stack([empty, np.zeros_like(empty)], axis=1).astype(indices.dtype)])
    all_val = np.concatenate([values, np.full(len(empty), default, values.dtype)])
    order = np.argsort(all_rows, kind="stable")
    return [all_idx[order].astype(indices.dtype), all_val[order], ~present]


@register
class SparseFillEmptyRows(Op):
    types = ("SparseFillEmptyRows",)
    versions = ("opset16",)
    arity = (4, 4)

    def infer(self, attrs: NoAttrs, inputs: Sequence[TensorInfo]) -> list[TensorInfo]:
        values, shape, indices, default = inputs
        for name, info, rank in (("values", values, 1), ("dense_shape", shape, 1), ("indices", indices, 2),
                                 ("default_value", default, 0)):
            if info.shape is not None and len(info.shape) != rank:
                raise OpError(f"SparseFillEmptyRows: {name} must have rank {rank}, got {len(info.shape)}")
        if values.etype is not None and default.etype is not None and values.etype != default.etype:
            raise OpError(f"SparseFillEmptyRows: default_value is {default.etype}, values are {values.etype}")
        dense = int_values(shape)
        rows = DYNAMIC if dense is None else Dim.of(dense[0])
        if values.value is not None and indices.value is not None and dense is not None:
            outs = _fill(np.asarray(values.value), dense[0], dense[1], np.asarray(indices.value),
                         np.asarray(default.value).reshape(()) if default.value is not None else 0)
            m = Dim.of(len(outs[1]))
        else:
            n = values.shape[0] if values.shape is not None else DYNAMIC
            # OpenVINO's bounds: at most every entry plus one per row (no lower bound claimed).
            m = Dim(0, None if n.hi is None or rows.hi is None else n.hi + rows.hi)
        return [TensorInfo(indices.etype, (m, Dim.of(2))), TensorInfo(values.etype, (m,)), TensorInfo(BOOL, (rows,))]

    def compute(self, attrs: NoAttrs, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        values, shape, indices, default = (np.asarray(a) for a in inputs)
        rows, cols = as_int_array("SparseFillEmptyRows", "dense_shape", shape)
        return _fill(values, rows, cols, indices, default.reshape(()))
