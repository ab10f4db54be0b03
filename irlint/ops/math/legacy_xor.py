"""Xor (v0, listed in opset1): the older spelling of LogicalXor, same semantics (boolean, auto_broadcast)."""

from __future__ import annotations

import numpy as np

from irlint.ops.math.elementwise import Binary
from irlint.ops.registry import register
from irlint.types import BOOL


@register
class Xor(Binary):
    types = ("Xor",)
    versions = ("opset1",)
    fn = staticmethod(np.logical_xor)
    result = BOOL
    bool_inputs = True
