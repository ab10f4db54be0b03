"""Ops: one module per op, each with a shape function and a numpy kernel (see `base.py`)."""

from irlint.ops import openvino_fills as _fills  # noqa: F401  (installs the filled attributes in base)
from irlint.ops.base import NoAttrs, Op, OpError, TensorInfo, bind_attrs
from irlint.ops.registry import known_types, lookup, register

__all__ = ["NoAttrs", "Op", "OpError", "TensorInfo", "bind_attrs", "known_types", "lookup", "register"]
